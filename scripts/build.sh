#!/usr/bin/env bash
# Configures and builds Porta into build/ (Release). Extra arguments go to
# the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPORTA_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
