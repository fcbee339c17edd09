#!/usr/bin/env bash
# Installs the build into a fresh prefix, then builds against that prefix
# only: a C11 program (pedantic, warnings as errors, through pkg-config) and
# a separate CMake project (find_package(porta)). Both then run.
# Usage: install_tests.sh <build dir> <source dir> <mock plugin dir>
set -euo pipefail
build=$1 src=$2 mock=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix=$work/prefix
for f in include/porta/porta.h include/porta/plugin.h lib/libporta.so lib/porta/plugins/libporta_plugin_cpu.so \
         bin/porta-smi lib/cmake/porta/porta-config.cmake lib/pkgconfig/porta.pc; do
  [ -e "$prefix/$f" ] || { echo "missing from the install: $f"; exit 1; }
done
if ldd "$prefix/lib/libporta.so" | grep -Ei 'blas|cuda|opencl'; then
  echo "libporta.so must not link a backend library"; exit 1
fi

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc -std=c11 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags porta) "$src/tests/abi/c11_consumer.c" \
   -o "$work/c11" $(pkg-config --libs porta) -Wl,-rpath,"$prefix/lib"
PORTA_PLUGIN_PATH=$mock "$work/c11"

cmake -S "$src/tests/abi/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
"$prefix/bin/porta-smi" | grep -q cpu
echo "install tests passed"
