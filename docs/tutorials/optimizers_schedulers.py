"""Optimizers and learning-rate schedulers as PyTorch's docs show them: one regression trained by each
optimizer; parameter groups with their own options; each scheduler's learning rates against its formula;
ReduceLROnPlateau on a metric; and a checkpoint that resumes training exactly."""
import math

import porta as torch
from porta import nn
from porta.optim import lr_scheduler

torch.manual_seed(0)
X = torch.randn(256, 8)
true_w = torch.randn(8, 1)
y = X @ true_w + 0.1


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))


def fit(make_optimizer, steps=200):
    model = make_model()
    optimizer = make_optimizer(model.parameters())
    loss_fn = nn.MSELoss()
    first = loss_fn(model(X), y).item()
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
    return first, loss.item()


optimizers = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.05),
    "SGD momentum nesterov": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True),
    "Adam": lambda p: torch.optim.Adam(p, lr=0.01),
    "Adam amsgrad": lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True),
    "AdamW": lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.01),
    "RMSprop": lambda p: torch.optim.RMSprop(p, lr=0.005),
    "Adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1),
}
for name, make in optimizers.items():
    first, last = fit(make)
    print(f"{name:24s} loss {first:.4f} -> {last:.4f}")
    assert last < first / 5, (name, first, last)

# Parameter groups: the last layer learns at a tenth of the rate, and without weight decay.
model = make_model()
optimizer = torch.optim.SGD([
    {"params": model[0].parameters()},
    {"params": model[2].parameters(), "lr": 0.01, "weight_decay": 0.0},
], lr=0.1, momentum=0.9, weight_decay=1e-4)
assert [g["lr"] for g in optimizer.param_groups] == [0.1, 0.01]
assert optimizer.param_groups[1]["momentum"] == 0.9 and optimizer.param_groups[0]["weight_decay"] == 1e-4
optimizer.add_param_group({"params": [nn.Parameter(torch.zeros(3))], "lr": 0.5})
assert len(optimizer.param_groups) == 3


def lrs(make_scheduler, epochs=12, lr=0.1):
    opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=lr)
    scheduler = make_scheduler(opt)
    seen = []
    for _ in range(epochs):
        seen.append(opt.param_groups[0]["lr"])
        opt.step()
        scheduler.step()
    assert math.isclose(scheduler.get_last_lr()[0], opt.param_groups[0]["lr"])
    return seen


def close(a, b):
    return all(math.isclose(x, y, rel_tol=1e-6, abs_tol=1e-12) for x, y in zip(a, b)) and len(a) == len(b)


assert close(lrs(lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.5)), [0.1 * 0.5 ** (e // 4) for e in range(12)])
assert close(lrs(lambda o: lr_scheduler.MultiStepLR(o, milestones=[3, 8], gamma=0.1)),
             [0.1] * 3 + [0.01] * 5 + [0.001] * 4)
assert close(lrs(lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9)), [0.1 * 0.9 ** e for e in range(12)])
assert close(lrs(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=12)),
             [0.05 * (1 + math.cos(math.pi * e / 12)) for e in range(12)])
assert close(lrs(lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1))), [0.1 / (e + 1) for e in range(12)])
assert close(lrs(lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4)),
             [0.1 * (0.25 + 0.75 * min(e, 4) / 4) for e in range(12)])
warm_then_decay = lrs(lambda o: lr_scheduler.SequentialLR(o, schedulers=[
    lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=2), lr_scheduler.ExponentialLR(o, gamma=0.5)],
    milestones=[2]))
assert close(warm_then_decay, [0.05, 0.075] + [0.1 * 0.5 ** e for e in range(10)])
one_cycle = lrs(lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=12, cycle_momentum=False), epochs=12)
# Up from max_lr / 25 to about max_lr over the first 30% of the steps, then down to max_lr / 25 / 1e4.
assert 0.99 < max(one_cycle) <= 1.0 and math.isclose(one_cycle[0], 0.04) and math.isclose(one_cycle[-1], 4e-6)
print("OneCycleLR", [round(v, 4) for v in one_cycle])

opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
plateau = lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2)
for val_loss in [1.0, 0.9, 0.9, 0.9, 0.9, 0.8, 0.8, 0.8, 0.8]:
    plateau.step(val_loss)
assert math.isclose(opt.param_groups[0]["lr"], 0.025), opt.param_groups[0]["lr"]

# A checkpoint: model, optimizer and scheduler state resume to the same numbers as an uninterrupted run.
def run(steps, resume_from=None, path=None):
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.5)
    start = 0
    if resume_from is not None:
        checkpoint = torch.load(resume_from)
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        scheduler.load_state_dict(checkpoint["scheduler"])
        start = checkpoint["epoch"]
    for epoch in range(start, steps):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(X), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        if path is not None and epoch + 1 == steps:
            torch.save({"epoch": epoch + 1, "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "scheduler": scheduler.state_dict()}, path)
    return model


import os
import tempfile

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "checkpoint.pt")
    run(7, path=path)
    resumed = run(20, resume_from=path)
straight = run(20)
for a, b in zip(resumed.parameters(), straight.parameters()):
    assert torch.equal(a, b)
print("resumed run matches the uninterrupted one")
