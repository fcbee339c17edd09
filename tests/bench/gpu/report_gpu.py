#!/usr/bin/env python3
"""Turns the GPU benchmarks' JSON lines (files given as arguments) into the
markdown table of results.md: each benchmark, Porta's number, the
reference's, the ratio and whether it meets its goal."""
import json
import sys


def load(paths):
    out = {}
    for path in paths:
        try:
            with open(path) as f:
                for line in f:
                    line = line.strip()
                    if line.startswith("{"):
                        obj = json.loads(line)
                        out[obj.get("bench", path)] = obj
        except (OSError, ValueError) as e:
            print(f"<!-- {path}: {e} -->")
    return out


def row(name, porta, ref, ratio, goal):
    met = "n/a" if ratio is None else ("yes" if ratio >= goal else "**no**")
    r = "n/a" if ratio is None else f"{ratio:.2f}x"
    return f"| {name} | {porta} | {ref} | {r} | >= {goal:.2f}x | {met} |"


def main(paths):
    b = load(paths)
    print("| benchmark | Porta | reference | ratio | goal | met |")
    print("|---|---|---|---|---|---|")
    for key, label, ref in (("sgemm_4096", "sgemm 4096", "cuBLAS"),
                            ("bf16_gemm_4096", "bfloat16 GEMM 4096", "cublasGemmEx"),
                            ("fp16_gemm_4096", "float16 GEMM 4096", "cublasGemmEx")):
        s = b.get(key)
        if s:
            print(row(f"{label} ({s['device']})", f"{s['porta_tflops']:.1f} TFLOP/s ({s['porta_ms']:.2f} ms)",
                      f"{ref} {s['cublas_tflops']:.1f} TFLOP/s", s["ratio"], s["goal"]))
    a = b.get("add_256M_f32")
    if a:
        print(row(f"add 256M float32 ({a['device']})", f"{a['porta_gbs']:.0f} GB/s ({a['porta_ms']:.2f} ms)",
                  f"D2D copy {a['copy_gbs']:.0f} GB/s", a["ratio"], a["goal"]))
    for suffix, label in (("", "SimpleCNN step"), ("_amp", "SimpleCNN step, autocast bfloat16")):
        p, t = b.get(f"simple_cnn_step{suffix}"), b.get(f"simple_cnn_step{suffix}_torch")
        for batch in (64, 256):
            key = f"batch{batch}_samples_per_s"
            if p:
                ref = f"PyTorch {t[key]:.0f} samples/s" if t else "PyTorch: not run"
                ratio = p[key] / t[key] if t else None
                print(row(f"{label}, batch {batch} ({p['device']})",
                          f"{p[key]:.0f} samples/s ({p[f'batch{batch}_ms']:.2f} ms)", ref, ratio, 1.0))
    t = b.get("simple_cnn_step_torch") or b.get("simple_cnn_step_amp_torch")
    d = b.get("dlpack_torch")
    if d:
        if "skipped" in d:
            print(f"| DLPack with torch.cuda | skipped: {d['skipped']} | | | | |")
        else:
            failed = [k for k, v in d["checks"].items() if not v]
            print(f"| DLPack with torch.cuda ({d['device']}) | round trip {d['round_trip_us']:.1f} us | "
                  f"| | zero-copy, values | {'yes' if d['ok'] else '**no**: ' + ', '.join(failed)} |")
    if t:
        print(f"\nPyTorch {t['torch']}, cuDNN {t['cudnn']}, {t['gpu']}; TF32 off on both sides.")


if __name__ == "__main__":
    main(sys.argv[1:])
