#!/usr/bin/env bash
# Makes build/venv-bench when it lacks what it needs: the project's pinned packages plus the peers
# Porta is compared with, torch==2.15.0 (the benchmarks' and the differential suite's oracle),
# safetensors==0.8.0 and jax==0.10.2 (the storage-dtype and DLPack tests run from it). Never the
# tests' venv: CI runs without torch. Prints the venv's python.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bench_venv=build/venv-bench
if ! "$bench_venv/bin/python" -c "import torch, numpy, ml_dtypes, safetensors, jax" 2>/dev/null; then
  rm -rf "$bench_venv"
  "$PORTA_VENV_PYTHON" -m venv "$bench_venv"
  "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check -r "$PORTA_PYTHON_REQUIREMENTS" torch==2.15.0 \
    safetensors==0.8.0 jax==0.10.2 jaxlib==0.10.2 >&2
fi
echo "$bench_venv/bin/python"
