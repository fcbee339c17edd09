"""d2l.ai's multilayer perceptron with dropout: dropout written by hand (a mask from torch.rand), a Module
that applies it only while training, then the same network with nn.Dropout."""
import porta as torch
from porta import nn

from fashion_mnist import load_data_fashion_mnist, evaluate_accuracy_gpu, train


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


torch.manual_seed(0)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))
assert torch.equal(dropout_layer(X, 0.), X) and torch.equal(dropout_layer(X, 1.), torch.zeros_like(X))
kept = dropout_layer(X, 0.5)
assert torch.all((kept == 0) | (kept == 2 * X))

num_inputs, num_outputs, num_hiddens1, num_hiddens2 = 784, 10, 256, 256
dropout1, dropout2 = 0.2, 0.5


class Net(nn.Module):
    def __init__(self, num_inputs, num_outputs, num_hiddens1, num_hiddens2, is_training=True):
        super(Net, self).__init__()
        self.num_inputs = num_inputs
        self.training = is_training
        self.lin1 = nn.Linear(num_inputs, num_hiddens1)
        self.lin2 = nn.Linear(num_hiddens1, num_hiddens2)
        self.lin3 = nn.Linear(num_hiddens2, num_outputs)
        self.relu = nn.ReLU()

    def forward(self, X):
        H1 = self.relu(self.lin1(X.reshape((-1, self.num_inputs))))
        if self.training:
            H1 = dropout_layer(H1, dropout1)
        H2 = self.relu(self.lin2(H1))
        if self.training:
            H2 = dropout_layer(H2, dropout2)
        return self.lin3(H2)


train_iter, test_iter = load_data_fashion_mnist(256)
net = Net(num_inputs, num_outputs, num_hiddens1, num_hiddens2)
_, acc = train(net, train_iter, test_iter, num_epochs=3, lr=0.5, device=torch.device("cpu"))
assert acc > 0.6, acc
net.eval()
X, _ = next(iter(test_iter))
assert torch.equal(net(X), net(X)), "eval mode is deterministic"

net = nn.Sequential(nn.Flatten(),
                    nn.Linear(784, 256), nn.ReLU(), nn.Dropout(dropout1),
                    nn.Linear(256, 256), nn.ReLU(), nn.Dropout(dropout2),
                    nn.Linear(256, 10))
_, acc = train(net, train_iter, test_iter, num_epochs=3, lr=0.5, device=torch.device("cpu"))
assert acc > 0.6, acc
print(net)
