#!/usr/bin/env python3
"""Turns porta_bench_allreduce's JSON lines (the file in argv[1]) into the table of
docs/benchmarks.md: per size, Porta's and MPI_Allreduce's time per call and bus bandwidth, the
ratio, and the goals (<= 5 us added at <= 4 KiB, >= 0.95x bus bandwidth at >= 1 MiB)."""
import json
import sys


def main(path):
    rows = [json.loads(line) for line in open(path) if line.startswith("{")]
    if rows:
        print(f"{rows[0]['world']} ranks, float32 SUM, in place\n")
    print("| bytes | Porta | MPI_Allreduce | added | busbw Porta / MPI | goal |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        added = r["porta_us"] - r["mpi_us"]
        ratio = r["porta_busbw_gbs"] / r["mpi_busbw_gbs"] if r["mpi_busbw_gbs"] else 0.0
        goal = ""
        if r["bytes"] <= 4096:
            goal = "<= 5 us added: " + ("met" if added <= 5 else "NOT met")
        elif r["bytes"] >= 1 << 20:
            goal = ">= 0.95x: " + ("met" if ratio >= 0.95 else "NOT met")
        print(f"| {r['bytes']} | {r['porta_us']:.1f} us, {r['porta_busbw_gbs']:.2f} GB/s | {r['mpi_us']:.1f} us, "
              f"{r['mpi_busbw_gbs']:.2f} GB/s | {added:.1f} us | {ratio:.2f}x | {goal} |")


if __name__ == "__main__":
    main(sys.argv[1])
