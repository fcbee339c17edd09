"""Seed case 2 (the tutorial's SimpleCNN on CIFAR-10), with only the imports changed.

What the tests may set, with the tutorial's values as defaults: the data
root, the device, the epochs and print interval, the flattened feature count
(the tutorial's 128 * 8 * 8 does not match 32 x 32 inputs: view(-1, 128 * 8 * 8)
turns a batch of 4 into 16, and the loss then fails naming both batch sizes,
as PyTorch's does; 128 * 16 * 16 is the fix), and the tutorial's second
version, which also moves the loss and the optimizer to the device:
    python case2_cifar_cnn.py [root] [device] [num_epochs] [print_every]
"""
import sys

import porta as torch
import porta.nn as nn
import porta.optim as optim
import porta as torchvision
import porta.transforms as transforms


# 定义卷积神经网络
class SimpleCNN(nn.Module):
    def __init__(self, flat_features=128 * 8 * 8):
        super(SimpleCNN, self).__init__()
        self.flat_features = flat_features
        self.conv1 = nn.Conv2d(3, 64, kernel_size=3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(64, 128, kernel_size=3, padding=1)
        self.relu2 = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(flat_features, 512)
        self.relu3 = nn.ReLU()
        self.fc2 = nn.Linear(512, 10)

    def forward(self, x):
        x = self.relu1(self.conv1(x))
        x = self.pool(self.relu2(self.conv2(x)))
        x = x.view(-1, self.flat_features)
        x = self.relu3(self.fc1(x))
        x = self.fc2(x)
        return x


def main(root="./data", device_name=None, num_epochs=5, print_every=2000, flat_features=128 * 8 * 8,
         move_loss_and_optimizer=False):
    # 加载CIFAR-10数据集
    transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])

    trainset = torchvision.datasets.CIFAR10(root=root, train=True, download=True, transform=transform)
    trainloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=True, num_workers=2)

    # 创建模型实例
    model = SimpleCNN(flat_features)

    # 检查是否有可用的 GPU，如果有就使用第一个 GPU，否则使用 CPU
    device = torch.device(device_name) if device_name else \
        torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    print("Using device:", device)

    # 将模型移动到设备
    model = model.to(device)

    # 定义损失函数和优化器
    if move_loss_and_optimizer:  # 要求优化器和损失函数也在cuda上
        criterion = nn.CrossEntropyLoss().to(device)
        optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9).to(device)
    else:
        criterion = nn.CrossEntropyLoss()
        optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

    # 训练模型
    for epoch in range(num_epochs):
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            inputs, labels = data
            inputs, labels = inputs.to(device), labels.to(device)

            optimizer.zero_grad()

            outputs = model(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()

            running_loss += loss.item()
            if i % print_every == print_every - 1:
                print(f"[{epoch + 1}, {i + 1}] loss: {running_loss / print_every:.3f}")
                running_loss = 0.0

    print("Training finished!")


if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0] if a else "./data", a[1] if len(a) > 1 else None, int(a[2]) if len(a) > 2 else 5,
         int(a[3]) if len(a) > 3 else 2000)
