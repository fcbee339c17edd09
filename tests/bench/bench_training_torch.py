#!/usr/bin/env python3
"""PyTorch's side of bench_training.cpp: the same models, steps, batch sizes
and thread count, timed the same way (warm-up, then steps for >= min_time).
Writes JSON {name: {"samples_per_s": .., "ms_per_step": ..}} to argv[1]."""
import json
import os
import sys
import time

import torch
import torch.nn as nn
import torch.optim as optim


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(64, 128, kernel_size=3, padding=1)
        self.relu2 = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(128 * 16 * 16, 512)
        self.relu3 = nn.ReLU()
        self.fc2 = nn.Linear(512, 10)

    def forward(self, x):
        x = self.relu1(self.conv1(x))
        x = self.pool(self.relu2(self.conv2(x)))
        x = x.view(-1, 128 * 16 * 16)
        x = self.relu3(self.fc1(x))
        return self.fc2(x)


def timed(step, batch, min_time):
    for _ in range(3):
        step()
    n, start = 0, time.perf_counter()
    while True:
        step()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return {"samples_per_s": n * batch / elapsed, "ms_per_step": 1000 * elapsed / n}


def cnn_step(batch, device="cpu", amp=False):
    """One SimpleCNN training step (forward, cross entropy, backward, SGD with
    momentum, loss.item()) on fixed inputs, as bench_training.cpp runs it."""
    torch.manual_seed(0)
    model = SimpleCNN().to(device)
    opt = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    x = torch.randn(batch, 3, 32, 32, device=device)
    y = (torch.arange(batch) % 10).to(device)

    def step():
        with torch.autocast(torch.device(device).type, dtype=torch.bfloat16, enabled=amp):
            loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss.item()
    return step


def cnn(batch, amp=False):
    return timed(cnn_step(batch, amp=amp), batch, 5.0)


def seed1():
    torch.manual_seed(0)
    model = nn.Linear(10, 1)
    opt = optim.SGD(model.parameters(), lr=0.01)
    criterion = nn.MSELoss()
    x, y = torch.randn(5, 10), torch.randn(5, 1)

    def step():
        loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss.item()
    return timed(step, 5, 2.0)


def main(out):
    threads = int(os.environ.get("PORTA_NUM_THREADS", os.cpu_count()))
    torch.set_num_threads(threads)
    results = {"BM_SimpleCNN_Step/64/0": cnn(64), "BM_SimpleCNN_Step/4/0": cnn(4),
               "BM_SimpleCNN_Step/64/1": cnn(64, amp=True), "BM_Seed1_Step": seed1(),
               "_context": {"torch": torch.__version__, "threads": threads}}
    json.dump(results, open(out, "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
