#!/usr/bin/env bash
# Runs the benchmarks and prints the ratio tables for docs/benchmarks.md:
#   core:     dispatch overhead, sgemm vs OpenBLAS, add vs memcpy
#   training: SimpleCNN and seed-case-1 steps vs PyTorch (CPU) in the same run
#   allreduce: porta_all_reduce vs MPI_Allreduce, 2 ranks under porta-run
#   ddp:      the demo's DDP scaling over 2 processes, and PyTorch DDP's (gloo)
# PyTorch comes from PyPI, into a venv of its own (build/venv-bench, made by
# scripts/bench-venv.sh), never into the tests' venv.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh
scripts/build.sh
out=${1:-build/bench}
mkdir -p "$out"
py=$(scripts/bench-venv.sh)

build/bin/porta_bench_core --benchmark_out="$out/core.json" --benchmark_out_format=json >/dev/null
build/bin/porta_bench_training --benchmark_out="$out/training.json" --benchmark_out_format=json >/dev/null
"$py" tests/bench/bench_training_torch.py "$out/training_torch.json"

echo "## Core"; "$py" tests/bench/report.py "$out/core.json" | tee "$out/core.md"
echo; echo "## Python"; PORTA_LIBRARY="$PWD/build/lib/libporta.so" "$py" tests/bench/python_bench.py | tee "$out/python.md"
echo; echo "## Training"; "$py" tests/bench/report_training.py "$out/training.json" "$out/training_torch.json" | tee "$out/training.md"
if [ -x build/bin/porta_bench_allreduce ]; then
  mpiexec="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo"
  PORTA_NUM_THREADS=1 PORTA_MPIEXEC="$mpiexec" build/bin/porta-run -n 2 build/bin/porta_bench_allreduce \
    > "$out/allreduce.jsonl"
  echo; echo "## All-reduce"; "$py" tests/bench/report_allreduce.py "$out/allreduce.jsonl" | tee "$out/allreduce.md"
  echo; echo "## DDP scaling"; "$py" tests/bench/ddp_scaling.py --rounds 3 | tee "$out/ddp_scaling.md"
fi
