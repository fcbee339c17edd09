"""The Fashion-MNIST loaders and the training loop the d2l.ai-style tutorials share (mlp_dropout, lenet,
batchnorm), as d2l's own `d2l.load_data_fashion_mnist` and `d2l.train_ch6` are shared there."""
import os

import porta as torch
import porta.utils.data as data
from porta import datasets
from porta import nn
from porta import transforms

ROOT = os.environ.get("FASHION_MNIST_ROOT", "/usr/share/datasets/fashion-mnist")
TRAIN_SAMPLES, TEST_SAMPLES = 4096, 1000  # a slice of the 60000 + 10000, to run in seconds


def load_data_fashion_mnist(batch_size, resize=None):
    trans = [transforms.ToTensor()]
    if resize:
        trans.insert(0, transforms.Resize(resize))
    trans = transforms.Compose(trans)
    train = datasets.FashionMNIST(root=ROOT, train=True, transform=trans, download=True)
    test = datasets.FashionMNIST(root=ROOT, train=False, transform=trans, download=True)
    return (data.DataLoader(data.Subset(train, range(TRAIN_SAMPLES)), batch_size, shuffle=True),
            data.DataLoader(data.Subset(test, range(TEST_SAMPLES)), batch_size, shuffle=False))


def evaluate_accuracy_gpu(net, data_iter, device=None):
    if isinstance(net, nn.Module):
        net.eval()
        if not device:
            device = next(iter(net.parameters())).device
    correct, total = 0, 0
    with torch.no_grad():
        for X, y in data_iter:
            X, y = X.to(device), y.to(device)
            correct += (net(X).argmax(dim=1) == y).sum().item()
            total += y.numel()
    return correct / total


def train(net, train_iter, test_iter, num_epochs, lr, device, optimizer=None):
    """Xavier-initializes net, trains it with SGD and cross entropy, and returns (train loss, test accuracy)."""
    def init_weights(m):
        if type(m) == nn.Linear or type(m) == nn.Conv2d:
            nn.init.xavier_uniform_(m.weight)

    net.apply(init_weights)
    print("training on", device)
    net.to(device)
    optimizer = optimizer or torch.optim.SGD(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss()
    for epoch in range(num_epochs):
        net.train()
        total_loss, n = 0.0, 0
        for X, y in train_iter:
            optimizer.zero_grad()
            X, y = X.to(device), y.to(device)
            y_hat = net(X)
            l = loss(y_hat, y)
            l.backward()
            optimizer.step()
            total_loss += l.item() * X.shape[0]
            n += X.shape[0]
        test_acc = evaluate_accuracy_gpu(net, test_iter)
        print(f"epoch {epoch + 1}: loss {total_loss / n:.3f}, test acc {test_acc:.3f}")
    return total_loss / n, test_acc


def try_gpu(i=0):
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f"cuda:{i}")
    return torch.device("cpu")
