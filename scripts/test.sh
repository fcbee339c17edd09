#!/usr/bin/env bash
# The README's test command (and CI's): installs what is missing, builds,
# and runs every test: unit, ABI (broken plugins, installed tree, C11 and
# find_package consumers), conformance on every loaded device (cpu, mock:0,
# mock:1, plus opencl/cuda when present), the C++ binding, the examples, the
# Python package (also pip-installed into a fresh venv); then the unit and
# conformance suites again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

echo "== build (Release)"
scripts/build.sh
echo "== tests (Release): C, C++, and the Python package against this build"
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== Python package: pip install into a fresh virtual environment, then its tests"
python3 -m venv --system-site-packages build/pyvenv
build/pyvenv/bin/python -m pip install -q ./bindings/python
PORTA_TEST_INSTALLED=1 PORTA_LIBRARY="$PWD/build/lib/libporta.so" \
  PORTA_PLUGIN_PATH="$PWD/build/lib/porta/test-plugins/mock" \
  build/pyvenv/bin/python -m pytest -q -p no:cacheprovider tests/python

echo "== build (ASan + UBSan)"
# CUDA stays out of the sanitizer build: nvcc takes no -fsanitize, and there is no GPU to test here.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPORTA_SANITIZE=address,undefined -DPORTA_WERROR=ON \
      -DPORTA_BUILD_BENCHMARKS=OFF -DPORTA_CUDA=OFF >/dev/null
cmake --build build-asan -j"$jobs"
echo "== tests (ASan + UBSan): unit and conformance"
# use_sigaltstack=0: PoCL's LLVM installs its own (malloc-ed) alternate signal
# stack on the thread that loads it, which ASan would otherwise try to munmap
# when that thread exits ("AddressSanitizer failed to deallocate").
ASAN_OPTIONS=detect_leaks=1:use_sigaltstack=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -L "unit|conformance"
echo "== all tests passed"
