#!/usr/bin/env bash
# The README's test command (and CI's): installs what is missing, builds,
# and runs every test: unit, ABI (broken plugins, installed tree, C11 and
# find_package consumers), conformance on every loaded device (cpu, mock:0,
# mock:1, plus opencl/cuda when present), the C++ binding; then the unit and
# conformance suites again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

echo "== build (Release)"
scripts/build.sh
echo "== tests (Release)"
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== build (ASan + UBSan)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPORTA_SANITIZE=address,undefined -DPORTA_WERROR=ON \
      -DPORTA_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
echo "== tests (ASan + UBSan): unit and conformance"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -L "unit|conformance"
echo "== all tests passed"
