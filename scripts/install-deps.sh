#!/usr/bin/env bash
# Installs everything the build and the tests use on a fresh Debian 12
# machine, and nothing that is already there, so it is cheap to run before
# every build.
#   Debian: compilers (and clang with libFuzzer), CMake, pkg-config, GoogleTest and GoogleMock,
#           Google Benchmark, OpenBLAS, oneDNN (libdnnl-dev: the cpu plugin's float32 GEMM and
#           convolution; its header at build time) and SLEEF (libsleef3: its vector exp, log,
#           tanh, ...), both loaded at run time, zlib, nlohmann-json (header-only, build time:
#           the safetensors header parser), OpenCL (ICD loader, headers, PoCL, CLBlast),
#           OpenMPI (openmpi-bin, libopenmpi-dev: the mpi communicator plugin and the
#           multi-process tests under mpirun), Python 3 with venv, Ninja (scikit-build-core
#           builds the wheel with it; without one it would fetch ninja from PyPI), util-linux
#           (unshare, for the relocated install test and the two-namespace DDP test), iproute2
#           (ip netns: the network namespaces of that test), Fashion-MNIST, ccache (every
#           build's compiler cache, scripts/env.sh).
#   PyPI:   scripts/python-requirements.txt, pinned: downloaded into
#           build/wheelhouse and installed into the project's virtual
#           environment build/venv, the only Python the build and tests run
#           (apache-tvm-ffi ships dlpack/dlpack.h; scikit-build-core builds the
#           wheel; numpy and pytest run the Python suites). The machine's own
#           Python packages are never used.
# PORTA_PYTHON picks the interpreter the venv is made from (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

debs=(cmake g++ clang libclang-rt-14-dev make pkg-config libgtest-dev libgmock-dev libbenchmark-dev libopenblas-dev libdnnl-dev libsleef3 zlib1g-dev
      nlohmann-json3-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo libclblast-dev python3 python3-venv ninja-build util-linux
      iproute2 dataset-fashion-mnist openmpi-bin libopenmpi-dev ccache valgrind)
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

# The venv is made again whenever the requirements or the interpreter change.
python=${PORTA_PYTHON:-python3}
want="$("$python" -c 'import sys; print(sys.version)')
$(cat "$PORTA_PYTHON_REQUIREMENTS")"
if [ "$(cat "$PORTA_VENV/.porta-requirements" 2>/dev/null)" != "$want" ]; then
  echo "install-deps: creating $PORTA_VENV from $PORTA_PYTHON_REQUIREMENTS"
  rm -rf "$PORTA_VENV"
  "$python" -m venv "$PORTA_VENV"
  "$PORTA_VENV_PYTHON" -m pip download -q --disable-pip-version-check --only-binary=:all: \
    -d "$PORTA_WHEELHOUSE" -r "$PORTA_PYTHON_REQUIREMENTS"
  "$PORTA_VENV_PYTHON" -m pip install -q --disable-pip-version-check --no-index --find-links "$PORTA_WHEELHOUSE" \
    -r "$PORTA_PYTHON_REQUIREMENTS"
  printf '%s' "$want" > "$PORTA_VENV/.porta-requirements"
fi
