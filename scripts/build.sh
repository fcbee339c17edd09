#!/usr/bin/env bash
# Configures and builds Porta into build/ (Release), with the project's venv
# (scripts/install-deps.sh) as its Python. Extra arguments go to the CMake
# configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPORTA_WERROR=ON -DPython3_EXECUTABLE="$PORTA_VENV_PYTHON" \
  -DPORTA_WHEELHOUSE="$PORTA_WHEELHOUSE" "$@" >/dev/null
cmake --build build -j"$(nproc)"
