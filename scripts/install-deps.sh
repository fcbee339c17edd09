#!/usr/bin/env bash
# Installs what Porta needs on a fresh Debian 12 machine; installs nothing
# that is already there, so it is cheap to run before every build.
#   Debian: compilers (and clang with libFuzzer), CMake, GoogleTest, Google
#           Benchmark, OpenBLAS, zlib, OpenCL (ICD loader, headers, PoCL,
#           CLBlast), Fashion-MNIST.
#   PyPI:   apache-tvm-ffi (ships the official dlpack/dlpack.h >= 1.1).
set -euo pipefail

debs=(cmake g++ clang libclang-rt-14-dev make pkg-config libgtest-dev libbenchmark-dev libopenblas-dev zlib1g-dev
      ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo libclblast-dev dataset-fashion-mnist)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

python=${PYTHON:-python3}
pips=()
"$python" -c "import tvm_ffi.libinfo" 2>/dev/null || pips+=(apache-tvm-ffi)  # ships dlpack/dlpack.h
"$python" -c "import numpy, sys; sys.exit(tuple(map(int, numpy.__version__.split('.')[:2])) < (2, 1))" 2>/dev/null ||
  pips+=("numpy>=2.1")
"$python" -c "import pytest" 2>/dev/null || pips+=(pytest)
if [ ${#pips[@]} -gt 0 ]; then
  echo "install-deps: pip install ${pips[*]}"
  "$python" -m pip install -q "${pips[@]}"
fi
