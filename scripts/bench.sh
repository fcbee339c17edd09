#!/usr/bin/env bash
# Runs the benchmarks and prints the ratio tables for docs/benchmarks.md:
#   core:     dispatch overhead, sgemm vs OpenBLAS, add vs memcpy
#   training: SimpleCNN and seed-case-1 steps vs PyTorch (CPU) in the same run
# PyTorch comes from PyPI and is installed here (never by the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
out=${1:-build/bench}
mkdir -p "$out"
python3 -c "import torch" 2>/dev/null || python3 -m pip install -q torch

build/bin/porta_bench_core --benchmark_out="$out/core.json" --benchmark_out_format=json >/dev/null
build/bin/porta_bench_training --benchmark_out="$out/training.json" --benchmark_out_format=json >/dev/null
python3 tests/bench/bench_training_torch.py "$out/training_torch.json"

echo "## Core"; python3 tests/bench/report.py "$out/core.json" | tee "$out/core.md"
echo; echo "## Python"; PORTA_LIBRARY="$PWD/build/lib/libporta.so" python3 tests/bench/python_bench.py | tee "$out/python.md"
echo; echo "## Training"; python3 tests/bench/report_training.py "$out/training.json" "$out/training_torch.json" | tee "$out/training.md"
