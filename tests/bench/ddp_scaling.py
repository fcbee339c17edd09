#!/usr/bin/env python3
"""DDP scaling of the Fashion-MNIST demo (issue 16, item 7), Porta and PyTorch side by side in the same run.

For each library: one process trains the first N training images at batch B, and two processes train them with
DistributedDataParallel, B / 2 images each a step (the same global batch); every process has one thread. A round
runs the four, one after another, and the rounds repeat them, so the machine's drift touches them alike.
Efficiency = T(1 process) / (2 x T(2 processes)), training time only (rank 0's clock). For Porta's two processes
the table also gives how long the end of each backward waited for the all-reduces, per step on each rank
(PORTA_LOG=info): the communication backward did not hide. Porta's two processes run twice: as they train
(fc1's gradient gathered as factors, docs/distributed.md) and with PORTA_DDP_FACTORED_GRADIENTS=0 (every
gradient all-reduced).

Porta: build/bin/porta-demo, and the same under build/bin/porta-run -n 2 with --distributed (MPI over shared
memory, gradient_as_bucket_view). PyTorch: this file's own loop (--torch-worker), the same model, Adam at 1e-3,
batch, images and normalization, DDP over gloo on 127.0.0.1 with gradient_as_bucket_view.

Usage (from the repository root, after scripts/bench.sh made build/venv-bench):
  build/venv-bench/bin/python tests/bench/ddp_scaling.py [--rounds 3] [--samples 8000] [--batch 64]
"""
import argparse
import gzip
import os
import re
import socket
import statistics
import subprocess
import sys
import time

DATA = "/usr/share/datasets/fashion-mnist"
LIMIT_S = 600  # per run
MPIEXEC = "mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo"


def fashion_mnist(data, n):
    """The first n training images, normalized as the demo does, and their labels."""
    import numpy as np
    import torch

    with gzip.open(os.path.join(data, "train-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 1, 28, 28)[:n]
    with gzip.open(os.path.join(data, "train-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)[:n]
    x = (torch.from_numpy(images.astype(np.float32)) / 255.0 - 0.2860) / 0.3530
    return x, torch.from_numpy(labels.astype(np.int64))


def torch_worker(args):
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    import torch.nn.functional as F

    torch.set_num_threads(1)
    world, rank = int(os.environ.get("WORLD_SIZE", "1")), int(os.environ.get("RANK", "0"))
    if world > 1:
        dist.init_process_group("gloo")

    class SimpleCNN(nn.Module):  # docs/examples/simple_cnn.hpp for 1 x 28 x 28
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 64, 3, padding=1), nn.Conv2d(64, 128, 3, padding=1)
            self.pool = nn.MaxPool2d(2, 2)
            self.fc1, self.fc2 = nn.Linear(128 * 14 * 14, 512), nn.Linear(512, 10)

        def forward(self, x):
            x = self.pool(F.relu(self.conv2(F.relu(self.conv1(x)))))
            return self.fc2(F.relu(self.fc1(x.flatten(1))))

    x, y = fashion_mnist(args.data, args.samples)
    torch.manual_seed(0)
    model = SimpleCNN()
    if world > 1:
        model = nn.parallel.DistributedDataParallel(model, gradient_as_bucket_view=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    order = torch.randperm(len(x), generator=torch.Generator().manual_seed(1))
    steps, per = len(x) // args.batch, args.batch // world
    start = time.perf_counter()
    for s in range(steps):
        idx = order[s * args.batch + rank * per:s * args.batch + (rank + 1) * per]
        loss = F.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss.item()
    if rank == 0:
        print(f"training {time.perf_counter() - start:.3f} s", flush=True)
    if world > 1:
        dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def training_seconds(outputs, what):
    for out in outputs:
        m = re.search(r"training ([0-9.]+) s", out)
        if m:
            return float(m.group(1))
    raise SystemExit(f"{what}: no training time in its output:\n" + "\n".join(outputs))


def run_torch(args, world):
    env = dict(os.environ, OMP_NUM_THREADS="1", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()),
               WORLD_SIZE=str(world), GLOO_SOCKET_IFNAME="lo")
    cmd = [sys.executable, __file__, "--torch-worker", "--samples", str(args.samples), "--batch", str(args.batch),
           "--data", args.data]
    procs = [subprocess.Popen(cmd, env=dict(env, RANK=str(r), LOCAL_RANK=str(r)), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for r in range(world)]
    outs = []
    for p in procs:
        try:
            outs.append(p.communicate(timeout=LIMIT_S)[0])
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            raise SystemExit(f"PyTorch, {world} process(es): over {LIMIT_S} s")
        if p.returncode:
            raise SystemExit(f"PyTorch, {world} process(es), failed:\n{outs[-1]}")
    return training_seconds(outs, f"PyTorch, {world} process(es)")


def run_porta(args, world, factored=True):
    """Training seconds, and the ranks' waits per backward in ms (none for one process)."""
    env = dict(os.environ, PORTA_NUM_THREADS="1", PORTA_MPIEXEC=MPIEXEC, PORTA_LOG="info",
               PORTA_DDP_FACTORED_GRADIENTS="1" if factored else "0")
    cmd = ["build/bin/porta-demo", "--device", "cpu", "--train-samples", str(args.samples), "--test-samples", "100",
           "--batch-size", str(args.batch), "--data", args.data]
    if world > 1:
        cmd = ["build/bin/porta-run", "-n", str(world)] + cmd + ["--distributed"]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=LIMIT_S)
    if p.returncode:
        raise SystemExit(f"Porta, {world} process(es), failed:\n{p.stdout}")
    waits = [float(w) for w in re.findall(r"waited ([0-9.]+) ms per backward", p.stdout)]
    if world > 1 and len(waits) != world:
        raise SystemExit(f"Porta, {world} processes: {len(waits)} reducer reports, not {world}:\n{p.stdout}")
    return training_seconds([p.stdout], f"Porta, {world} process(es)"), waits


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--samples", type=int, default=8000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--torch-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.torch_worker:
        return torch_worker(args)
    if args.batch % 2:
        raise SystemExit("--batch must be even (two processes share each step)")
    rows = []
    print(f"{args.samples} images, batch {args.batch} (2 processes: {args.batch // 2} each), 1 thread per process")
    print("| round | Porta 1 proc | Porta 2 procs | Porta efficiency | backward's end waited | "
          "Porta 2 procs, all-reduced | its efficiency | PyTorch 1 proc | PyTorch 2 procs | PyTorch efficiency |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in range(1, args.rounds + 1):
        (p1, _), (p2, waits) = run_porta(args, 1), run_porta(args, 2)
        a2, _ = run_porta(args, 2, factored=False)
        t1, t2 = run_torch(args, 1), run_torch(args, 2)
        rows.append((p1, p2, p1 / (2 * p2), a2, p1 / (2 * a2), t1, t2, t1 / (2 * t2)))
        waited = " / ".join(f"{w:.1f}" for w in waits) + " ms"
        print(f"| {r} | {p1:.1f} s | {p2:.1f} s | {rows[-1][2]:.2f} | {waited} | {a2:.1f} s | {rows[-1][4]:.2f} | "
              f"{t1:.1f} s | {t2:.1f} s | {rows[-1][7]:.2f} |", flush=True)
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"| median | {med[0]:.1f} s | {med[1]:.1f} s | {med[2]:.2f} | | {med[3]:.1f} s | {med[4]:.2f} | "
          f"{med[5]:.1f} s | {med[6]:.1f} s | {med[7]:.2f} |")
    effs = [row[2] for row in rows]
    print(f"\nPorta's efficiency: median {med[2]:.2f}, {min(effs):.2f}-{max(effs):.2f} over {len(rows)} rounds "
          f"(goal >= 0.8; all-reduced: {med[4]:.2f}); PyTorch's median {med[7]:.2f}. Training time, PyTorch / "
          f"Porta: {med[5] / med[0]:.2f}x with 1 process, {med[6] / med[1]:.2f}x with 2.")


if __name__ == "__main__":
    main()
