#!/usr/bin/env python3
"""Turns Google Benchmark JSON from porta_bench_core into the ratio table
of docs/benchmarks.md: each Porta row beside its baseline from the same run."""
import json
import sys


def main(path):
    runs = {b["name"]: b for b in json.load(open(path))["benchmarks"] if b.get("run_type", "iteration") == "iteration"}
    ctx = json.load(open(path))["context"]
    rows = []

    def t(name):
        return runs[name]["real_time"], runs[name]["time_unit"]

    if "BM_Dispatch_Add1" in runs:
        ns = runs["BM_Dispatch_Add1"]["real_time"]
        rows.append(("dispatch: 1-element add via C API", f"{ns:.0f} ns/op", "-", "-", "informational"))
    for n in (1024, 2048):
        p, o = runs.get(f"BM_Sgemm_Porta/{n}/real_time"), runs.get(f"BM_Sgemm_OpenBLAS/{n}/real_time")
        if p and o:
            ratio = o["real_time"] / p["real_time"]
            rows.append((f"sgemm {n}", f"{p['GFLOPS'] / 1e9:.1f} GFLOP/s", f"OpenBLAS {o['GFLOPS'] / 1e9:.1f} GFLOP/s",
                         f"{ratio:.2f}x", "goal >= 0.95x: " + ("met" if ratio >= 0.95 else "NOT met")))
    for dtype in ("BFloat16", "Float16"):
        for n in (1024, 2048):
            h, s = runs.get(f"BM_Gemm_Porta_{dtype}/{n}/real_time"), runs.get(f"BM_Sgemm_Porta/{n}/real_time")
            if h and s:
                ratio = s["real_time"] / h["real_time"]
                how = "oneDNN, native where the CPU has AVX-512 BF16" if dtype == "BFloat16" else \
                    "float32 GEMM after conversion"
                rows.append((f"{dtype.lower()} gemm {n} ({how})",
                             f"{h['GFLOPS'] / 1e9:.1f} GFLOP/s", f"Porta sgemm {s['GFLOPS'] / 1e9:.1f} GFLOP/s",
                             f"{ratio:.2f}x", "goal >= 0.95x: " + ("met" if ratio >= 0.95 else "NOT met")))
    p, m = runs.get("BM_Add16M_Porta/real_time"), runs.get("BM_Memcpy64MiB/real_time")
    if p and m:
        ratio = p["bytes_per_second"] / m["bytes_per_second"]
        rows.append(("add 16M float32 (bytes read+written)", f"{p['bytes_per_second'] / 2**30:.1f} GiB/s",
                     f"memcpy {m['bytes_per_second'] / 2**30:.1f} GiB/s", f"{ratio:.2f}x",
                     "goal >= 0.8x: " + ("met" if ratio >= 0.8 else "NOT met")))
    print(f"Machine: {ctx.get('num_cpus')} CPUs at {ctx.get('mhz_per_cpu')} MHz, run {ctx.get('date')}\n")
    print("| benchmark | Porta | baseline (same run) | Porta / baseline | goal |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
