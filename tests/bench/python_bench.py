#!/usr/bin/env python3
"""Benchmarks of the porta Python package against PyTorch, in one run:

* per-op overhead: a 1-element add (tensor + tensor, tensor + scalar);
  goal: porta time <= torch time;
* DLPack round trip porta.from_dlpack(ndarray) + np.from_dlpack(tensor) for a
  1 KB and a 1 GB array; goal: equal times (zero-copy, independent of size);
* seed case 1's training step (Linear(10, 1), MSELoss, SGD) in Python.

Prints a markdown table. Usage: python3 tests/bench/python_bench.py [--quick]
(libporta.so: $PORTA_LIBRARY or the package's lookup; PyTorch rows are
skipped when torch is not installed).
"""
import os
import sys
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python"))

import numpy as np  # noqa: E402

import porta  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

QUICK = "--quick" in sys.argv


def best_us(stmt, env, number, repeat=None):
    """Best time of one execution of stmt, in microseconds."""
    repeat = repeat or (5 if QUICK else 15)
    return min(timeit.repeat(stmt, globals=env, number=number, repeat=repeat)) / number * 1e6


def op_overhead():
    n = 20_000 if QUICK else 100_000
    env = {"a": porta.ones(1), "b": porta.ones(1)}
    rows = [("add, 1 element: a + b", best_us("a + b", env, n)),
            ("add, 1 element: a + 1.0", best_us("a + 1.0", env, n))]
    if torch is not None:
        t_env = {"a": torch.ones(1), "b": torch.ones(1)}
        return [(name, p, best_us(stmt, t_env, n), "porta <= torch")
                for (name, p), stmt in zip(rows, ("a + b", "a + 1.0"))]
    return [(name, p, None, "porta <= torch") for name, p in rows]


def dlpack_round_trip():
    rows = []
    times = {}
    for label, nbytes in (("1 KB", 1 << 10), ("1 GB", 1 << 30)):
        arr = np.zeros(nbytes // 4, dtype=np.float32)
        env = {"np": np, "porta": porta, "arr": arr}
        back = np.from_dlpack(porta.from_dlpack(arr))
        assert back.ctypes.data == arr.ctypes.data, "the round trip copied"
        times[label] = best_us("np.from_dlpack(porta.from_dlpack(arr))", env, 2_000 if QUICK else 10_000)
        del arr, back
    small, big = times["1 KB"], times["1 GB"]
    rows.append(("DLPack round trip NumPy -> porta -> NumPy, 1 KB", small, None, "= 1 GB time"))
    rows.append(("DLPack round trip NumPy -> porta -> NumPy, 1 GB", big, small, "1 GB / 1 KB <= 1.2 (zero-copy)"))
    return rows


def seed1_step_us(fw, n):
    """Microseconds per seed-1 training step in framework `fw` (porta or torch: same API)."""
    fw.manual_seed(0)
    model = fw.nn.Linear(10, 1)
    opt = fw.optim.SGD(model.parameters(), lr=0.01)
    crit = fw.nn.MSELoss()
    x, y = fw.randn(5, 10), fw.randn(5, 1)

    def step():
        out = model(x)
        loss = crit(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss.item()
    return best_us("step()", {"step": step}, n)


def seed1_step():
    n = 2_000 if QUICK else 10_000
    p = seed1_step_us(porta, n)
    t = seed1_step_us(torch, n) if torch is not None else None
    return [("seed case 1 training step (Linear(10, 1), MSE, SGD)", p, t, "informational")]


def main():
    rows = op_overhead() + dlpack_round_trip() + seed1_step()
    print(f"porta {porta.__version__} ({porta.library_path}); "
          f"torch {torch.__version__ if torch else 'not installed'}; numpy {np.__version__}; "
          f"{os.cpu_count()} CPUs\n")
    print("| benchmark | porta (us) | baseline (us) | porta / baseline | goal |")
    print("|---|---|---|---|---|")
    for name, p, base, goal in rows:
        ratio = f"{p / base:.2f}x" if base else "-"
        if goal.startswith("porta <= torch") and base:
            goal += ": " + ("met" if p <= base else "NOT met")
        elif goal.startswith("1 GB / 1 KB") and base:
            goal += ": " + ("met" if p / base <= 1.2 else "NOT met")
        print(f"| {name} | {p:.2f} | {'-' if base is None else f'{base:.2f}'} | {ratio} | {goal} |")
    print("\nbaseline: torch for the add and training rows (same process, same inputs); "
          "the 1 KB round trip for the 1 GB row.")


if __name__ == "__main__":
    main()
