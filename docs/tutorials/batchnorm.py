"""d2l.ai's batch normalization: written from scratch (batch statistics while training, moving averages in
eval, a Module holding gamma, beta and the moving statistics), checked against nn.BatchNorm2d/1d, and LeNet
with nn.BatchNorm trained."""
import porta as torch
from porta import nn

from fashion_mnist import load_data_fashion_mnist, train


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1)
        return Y


# From scratch against nn.BatchNorm2d. d2l's moving variance is the biased batch variance; PyTorch's running_var
# is the unbiased one, so only the means and the training outputs are compared exactly.
torch.manual_seed(0)
X = torch.randn(8, 3, 5, 5) * 2 + 1
mine, theirs = BatchNorm(3, num_dims=4), nn.BatchNorm2d(3)
assert torch.allclose(mine(X), theirs(X), atol=1e-5)
assert torch.allclose(mine.moving_mean.reshape(3), theirs.running_mean, atol=1e-6)
n = 8 * 5 * 5
assert torch.allclose(mine.moving_var.reshape(3) - 0.9, (theirs.running_var - 0.9) * (n - 1) / n, atol=1e-5)
theirs.eval()
with torch.no_grad():
    eval_mine = mine(X)
expected = (X - theirs.running_mean.reshape(1, 3, 1, 1)) / torch.sqrt(mine.moving_var + 1e-5)
assert torch.allclose(eval_mine, expected, atol=1e-5)
print("running mean", theirs.running_mean, "num_batches_tracked", theirs.num_batches_tracked)
assert theirs.num_batches_tracked.item() == 1

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), BatchNorm(6, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), BatchNorm(16, num_dims=4), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(16 * 4 * 4, 120), BatchNorm(120, num_dims=2), nn.Sigmoid(),
    nn.Linear(120, 84), BatchNorm(84, num_dims=2), nn.Sigmoid(),
    nn.Linear(84, 10))
train_iter, test_iter = load_data_fashion_mnist(64)
_, acc = train(net, train_iter, test_iter, num_epochs=2, lr=1.0, device=torch.device("cpu"))
assert acc > 0.6, acc
print("gamma", net[1].gamma.reshape((-1,)), "beta", net[1].beta.reshape((-1,)))

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5), nn.BatchNorm2d(6), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.BatchNorm2d(16), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
    nn.Linear(256, 120), nn.BatchNorm1d(120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.BatchNorm1d(84), nn.Sigmoid(),
    nn.Linear(84, 10))
_, acc = train(net, train_iter, test_iter, num_epochs=2, lr=1.0, device=torch.device("cpu"))
assert acc > 0.6, acc
