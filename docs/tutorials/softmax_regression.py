"""d2l.ai's softmax regression from scratch on Fashion-MNIST: softmax, cross entropy by fancy indexing,
accuracy, an Accumulator, minibatch SGD by hand; then the concise version with nn.CrossEntropyLoss."""
import os

import porta as torch
import porta.utils.data as data
from porta import nn
from porta import datasets as torchvision_datasets
from porta import transforms

ROOT = os.environ.get("FASHION_MNIST_ROOT", "/usr/share/datasets/fashion-mnist")
TRAIN_SAMPLES, TEST_SAMPLES = 6000, 1000  # a slice of the 60000 + 10000, to run in seconds


def load_data_fashion_mnist(batch_size):
    trans = transforms.ToTensor()
    mnist_train = torchvision_datasets.FashionMNIST(root=ROOT, train=True, transform=trans, download=True)
    mnist_test = torchvision_datasets.FashionMNIST(root=ROOT, train=False, transform=trans, download=True)
    mnist_train = data.Subset(mnist_train, range(TRAIN_SAMPLES))
    mnist_test = data.Subset(mnist_test, range(TEST_SAMPLES))
    return (data.DataLoader(mnist_train, batch_size, shuffle=True, num_workers=2),
            data.DataLoader(mnist_test, batch_size, shuffle=False, num_workers=2))


torch.manual_seed(0)
batch_size = 256
train_iter, test_iter = load_data_fashion_mnist(batch_size)
X, y = next(iter(train_iter))
print(X.shape, X.dtype, y.shape, y.dtype)
assert X.shape == (batch_size, 1, 28, 28) and y.dtype == torch.int64

num_inputs = 784
num_outputs = 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
assert torch.allclose(X_prob.sum(1), torch.ones(2))


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
assert torch.equal(y_hat[[0, 1], y], torch.tensor([0.1, 0.5]))


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


assert accuracy(y_hat, y) / len(y) == 0.5


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_accuracy(net, data_iter):
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def train_epoch(net, train_iter, loss, updater):
    if isinstance(net, torch.nn.Module):
        net.train()
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr = 0.1


def updater(batch_size):
    return sgd([W, b], lr, batch_size)


print("untrained accuracy", evaluate_accuracy(net, test_iter))
for epoch in range(3):
    train_loss, train_acc = train_epoch(net, train_iter, cross_entropy, updater)
    test_acc = evaluate_accuracy(net, test_iter)
    print(f"epoch {epoch + 1}: loss {train_loss:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}")
assert test_acc > 0.6, test_acc

# Concise: nn.Flatten + nn.Linear, initialized by Module.apply, with nn.CrossEntropyLoss(reduction="none").
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(3):
    train_loss, train_acc = train_epoch(net, train_iter, loss, trainer)
test_acc = evaluate_accuracy(net, test_iter)
print(f"concise: loss {train_loss:.3f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}")
assert test_acc > 0.6, test_acc
