#!/usr/bin/env python3
"""Merges porta_bench_training's Google Benchmark JSON (argv[1]) with
bench_training_torch.py's JSON (argv[2]) into the ratio table of
docs/benchmarks.md. Ratio = Porta throughput / PyTorch throughput (higher is
better; goal >= 1.0)."""
import json
import sys


def main(porta_path, torch_path):
    porta = {b["name"].replace("/real_time", "").replace("/min_time:5.000", "").replace("/min_time:2.000", ""): b
             for b in json.load(open(porta_path))["benchmarks"]}
    torch = json.load(open(torch_path))
    ctx = torch.pop("_context")
    print(f"PyTorch {ctx['torch']} (CPU), {ctx['threads']} threads for both\n")
    print("| benchmark | Porta | PyTorch | Porta / PyTorch | goal |")
    print("|---|---|---|---|---|")
    labels = {"BM_SimpleCNN_Step/64/0": "SimpleCNN train step, batch 64, 3x32x32",
              "BM_SimpleCNN_Step/4/0": "SimpleCNN train step, batch 4, 3x32x32",
              "BM_SimpleCNN_Step/64/1": "SimpleCNN train step, batch 64, autocast bfloat16 (vs torch.autocast)",
              "BM_Seed1_Step": "seed case 1 step (Linear(10,1), MSE, SGD)"}
    for name, label in labels.items():
        p = next((v for k, v in porta.items() if k.startswith(name)), None)
        t = torch.get(name)
        if not p or not t:
            continue
        ps = p["items_per_second"]
        ratio = ps / t["samples_per_s"]
        unit = p["time_unit"]
        print(f"| {label} | {ps:.1f} samples/s ({p['real_time']:.3g} {unit}/step) | "
              f"{t['samples_per_s']:.1f} samples/s ({t['ms_per_step']:.3g} ms/step) | {ratio:.2f}x | "
              f">= 1.0x: {'met' if ratio >= 1.0 else 'NOT met'} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
