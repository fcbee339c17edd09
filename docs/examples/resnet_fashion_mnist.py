"""A small ResNet with BatchNorm on Fashion-MNIST, written as for PyTorch with only the import changed.

Three stages of basic residual blocks (16, 32 and 64 channels; 28, 14 and 7 pixels), each convolution
followed by BatchNorm2d, a 1x1 projection shortcut where the shape changes, global average pooling and
a linear classifier. SGD with Nesterov momentum and weight decay under a OneCycleLR schedule, random
horizontal flips; the images are Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist).
It evaluates on the 10,000 test images in eval mode (BatchNorm's running statistics).

    python docs/examples/resnet_fashion_mnist.py                       # the full run: 4 epochs
    python docs/examples/resnet_fashion_mnist.py --train-samples 4096 --epochs 1 --test-samples 2000
"""
import argparse
import time

import porta as torch
import porta.nn as nn
import porta.nn.functional as F
from porta import datasets

ROOT = "/usr/share/datasets/fashion-mnist"
MEAN, STD = 0.2860, 0.3530  # of the training images


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, widths=(16, 32, 64), blocks=(2, 2, 2), num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, widths[0], 3, padding=1, bias=False), nn.BatchNorm2d(widths[0]),
                                  nn.ReLU(inplace=True))
        layers, cin = [], widths[0]
        for i, (width, n) in enumerate(zip(widths, blocks)):
            for j in range(n):
                layers.append(BasicBlock(cin, width, stride=2 if i > 0 and j == 0 else 1))
                cin = width
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(cin, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.layers(self.stem(x))), 1))


def load(train, limit, device):
    """The images as one normalized float tensor [N, 1, 28, 28] and the labels [N], on `device`."""
    ds = datasets.FashionMNIST(ROOT, train=train)
    images = ds.data[:limit].float().div(255).sub(MEAN).div(STD).unsqueeze(1)
    labels = torch.tensor(ds.targets[:limit], dtype=torch.long)
    return images.to(device), labels.to(device)


@torch.no_grad()
def evaluate(model, images, labels, batch=500):
    model.eval()
    correct = 0
    for i in range(0, len(labels), batch):
        correct += (model(images[i:i + batch]).argmax(1) == labels[i:i + batch]).sum().item()
    model.train()
    return correct / len(labels)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--train-samples", type=int, default=60000)
    p.add_argument("--test-samples", type=int, default=10000)
    p.add_argument("--device", default=None, help="a device string; default: cuda when there is one, else cpu")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")

    torch.manual_seed(args.seed)
    train_x, train_y = load(True, args.train_samples, device)
    test_x, test_y = load(False, args.test_samples, device)
    model = ResNet().to(device)
    steps_per_epoch = len(train_y) // args.batch
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs,
                                                steps_per_epoch=steps_per_epoch, cycle_momentum=False)
    print(f"{len(train_y)} training and {len(test_y)} test images, "
          f"{sum(p.numel() for p in model.parameters())} parameters, on {device}")

    start = time.perf_counter()
    for epoch in range(args.epochs):
        order = torch.randperm(len(train_y), device=device)
        running = 0.0
        for step in range(steps_per_epoch):
            idx = order[step * args.batch:(step + 1) * args.batch]
            x, y = train_x[idx], train_y[idx]
            flip = torch.rand(len(idx), device=device) < 0.5  # random horizontal flips
            x = torch.where(flip.view(-1, 1, 1, 1), x.flip(3), x)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            running += loss.item()
        accuracy = evaluate(model, test_x, test_y)
        print(f"epoch {epoch + 1}: train loss {running / steps_per_epoch:.4f}, test accuracy {accuracy:.4f} "
              f"({time.perf_counter() - start:.0f} s)")
    return accuracy


if __name__ == "__main__":
    main()
