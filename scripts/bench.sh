#!/usr/bin/env bash
# Runs the benchmarks and prints the ratio tables for docs/benchmarks.md:
#   core:     dispatch overhead, sgemm vs OpenBLAS, add vs memcpy
#   training: SimpleCNN and seed-case-1 steps vs PyTorch (CPU) in the same run
#   allreduce: porta_all_reduce vs MPI_Allreduce, 2 ranks under porta-run
#   ddp:      the demo's DDP scaling over 2 processes, and PyTorch DDP's (gloo)
# PyTorch comes from PyPI, into a venv of its own (build/venv-bench: the
# project's pinned packages plus torch==2.15.0, safetensors==0.8.0 and
# jax==0.10.2, the peers the storage-dtype and DLPack tests compare with when
# run from it), never into the tests' venv.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/env.sh
scripts/build.sh
out=${1:-build/bench}
mkdir -p "$out"
bench_venv=build/venv-bench
if ! "$bench_venv/bin/python" -c "import torch, numpy, ml_dtypes, safetensors, jax" 2>/dev/null; then
  rm -rf "$bench_venv"
  "$PORTA_VENV_PYTHON" -m venv "$bench_venv"
  "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check -r "$PORTA_PYTHON_REQUIREMENTS" torch==2.15.0 \
    safetensors==0.8.0 jax==0.10.2 jaxlib==0.10.2
fi
py=$bench_venv/bin/python

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
