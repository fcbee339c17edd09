"""PyTorch's Quickstart: Fashion-MNIST through datasets and DataLoader, a Flatten + Linear/ReLU network on the
best device there is, a train and a test loop, saving and loading the model, and predicting."""
import os

import porta as torch
from porta import nn
from porta.utils.data import DataLoader, Subset
from porta import datasets
from porta.transforms import ToTensor

ROOT = os.environ.get("FASHION_MNIST_ROOT", "/usr/share/datasets/fashion-mnist")
training_data = datasets.FashionMNIST(root=ROOT, train=True, download=True, transform=ToTensor())
test_data = datasets.FashionMNIST(root=ROOT, train=False, download=True, transform=ToTensor())
# The tutorial trains on all 60000 images for 5 epochs; a tenth of them for 3 runs in seconds.
training_data, test_data = Subset(training_data, range(6000)), Subset(test_data, range(1000))

batch_size = 64
train_dataloader = DataLoader(training_data, batch_size=batch_size, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=batch_size)
for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10)
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


torch.manual_seed(0)
model = NeuralNetwork().to(device)
print(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)


def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 50 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return correct


epochs = 3
for t in range(epochs):
    print(f"Epoch {t + 1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    accuracy = test(test_dataloader, model, loss_fn)
print("Done!")
assert accuracy > 0.6, accuracy

import tempfile

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "model.pth")
    torch.save(model.state_dict(), path)
    print("Saved PyTorch Model State to model.pth")
    model = NeuralNetwork().to(device)
    model.load_state_dict(torch.load(path, weights_only=True))

classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
           "Ankle boot"]
model.eval()
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    x = x.to(device)
    pred = model(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
assert accuracy == test(test_dataloader, model, loss_fn)
