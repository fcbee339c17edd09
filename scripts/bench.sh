#!/usr/bin/env bash
# Runs the benchmarks and prints the ratio tables for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
out=${1:-build/bench}
mkdir -p "$out"
build/bin/porta_bench_core --benchmark_out="$out/core.json" --benchmark_out_format=json
python3 tests/bench/report.py "$out/core.json" | tee "$out/core.md"
