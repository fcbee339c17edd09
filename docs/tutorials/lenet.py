"""d2l.ai's LeNet: Conv2d, Sigmoid, AvgPool2d and Linear in an nn.Sequential, its layer-by-layer shapes, and
training on whichever device is there."""
import porta as torch
from porta import nn

from fashion_mnist import load_data_fashion_mnist, train, try_gpu

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))

X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
shapes = []
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape: \t", X.shape)
    shapes.append(tuple(X.shape))
assert shapes[2] == (1, 6, 14, 14) and shapes[5] == (1, 16, 5, 5) and shapes[-1] == (1, 10)

torch.manual_seed(0)
train_iter, test_iter = load_data_fashion_mnist(batch_size=64)
# d2l trains LeNet with SGD at lr 0.9 for 10 epochs; Adam at 3e-3 gets there in the few epochs a test can afford
# (at 1e-2 a sigmoid LeNet can stay on its plateau for epochs, from some initial weights, on either library).
optimizer = torch.optim.Adam(net.parameters(), lr=0.003)
_, acc = train(net, train_iter, test_iter, num_epochs=3, lr=None, device=try_gpu(), optimizer=optimizer)
assert acc > 0.5, acc
