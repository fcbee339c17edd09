#!/usr/bin/env bash
# The install is self-contained and relocatable. Installs the build into a
# fresh prefix, moves that prefix elsewhere, checks that no installed file
# names a path outside it, then, with the source tree, the build tree and the
# DLPack headers Porta was built against all hidden (a private mount
# namespace lays empty directories over them), builds against the moved
# prefix only and runs: a C program, a C++ program and a plugin, each through
# pkg-config and through find_package(porta).
# Usage: install_tests.sh <build dir> <source dir> <DLPack include dir>
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) dlpack=$(cd "$3" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/staged" >/dev/null
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
for f in include/porta/porta.h include/porta/plugin.h include/porta/porta.hpp include/dlpack/dlpack.h \
         lib/libporta.so lib/porta/plugins/libporta_plugin_cpu.so bin/porta-smi share/porta/plugin.map \
         share/porta/minimal_plugin.c \
         lib/cmake/porta/porta-config.cmake lib/pkgconfig/porta.pc lib/pkgconfig/porta-cpp.pc; do
  [ -e "$prefix/$f" ] || fail "missing from the install: $f"
done
cmp -s "$dlpack/dlpack/dlpack.h" "$prefix/include/dlpack/dlpack.h" ||
  fail "include/dlpack/dlpack.h is not the header Porta was built against ($dlpack/dlpack/dlpack.h)"
if ldd "$prefix/lib/libporta.so" | grep -Ei 'blas|cuda|opencl'; then
  fail "libporta.so must not link a backend library"
fi

# No installed file names the source tree, the build tree, the DLPack
# location or the prefix it was installed to; every run path is $ORIGIN-relative.
if hits=$(grep -rlF -e "$src" -e "$build" -e "$dlpack" -e "$work/staged" "$prefix"); then
  fail "installed files name paths outside the prefix:"$'\n'"$hits"
fi
while IFS= read -r -d '' f; do
  readelf -h "$f" >/dev/null 2>&1 || continue
  readelf -d "$f" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' | tr ':' '\n' | while IFS= read -r entry; do
    [[ $entry == '$ORIGIN'* ]] || fail "${f#"$prefix"/} has the run path entry '$entry' (only \$ORIGIN-relative ones are relocatable)"
  done
done < <(find "$prefix" -type f -print0)

# What the consumers build from, copied out of the trees about to be hidden;
# the plugin is the guide's, from the install (share/porta).
mkdir -p "$work/src"
cp -r "$src/tests/abi/consumer" "$src/tests/abi/plugin_consumer" "$src/tests/abi/relocated_consumer.c" "$work/src/"

hidden=()
for d in "$dlpack" "$build" "$src"; do hidden+=("$d"); done
unshare_flags=(--mount)
[ "$(id -u)" -eq 0 ] || unshare_flags+=(--map-root-user)
unshare "${unshare_flags[@]}" bash -euo pipefail -c '
  work=$1 prefix=$2; shift 2
  for d in "$@"; do [ -d "$d" ] && mount -t tmpfs -o ro,size=1m porta-hidden "$d"; done
  [ ! -e "$1/dlpack/dlpack.h" ] || { echo "the DLPack headers are still visible"; exit 1; }
  s=$work/src
  rpath=-Wl,-rpath,$prefix/lib
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig

  echo "== pkg-config: a C program, a C++ program and a plugin"
  mkdir -p "$work/pc/plugins"
  cc -std=c11 -Wall -Wextra -pedantic -Werror $(pkg-config --cflags porta) "$s/relocated_consumer.c" \
     -o "$work/pc/c_consumer" $(pkg-config --libs porta) "$rpath"
  c++ -Wall -Wextra -Werror $(pkg-config --cflags porta-cpp) "$s/consumer/main.cpp" -o "$work/pc/cpp_consumer" \
      $(pkg-config --libs porta-cpp) "$rpath"
  cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden -DPORTA_BUILDING_PLUGIN \
     "-DPLUGIN_NAME=\"relocated\"" -DPLUGIN_DEVICE_TYPE=17 $(pkg-config --cflags porta) \
     "$prefix/share/porta/minimal_plugin.c" -o "$work/pc/plugins/libporta_plugin_relocated.so" \
     -Wl,--version-script="$prefix/share/porta/plugin.map" -Wl,--no-undefined
  PORTA_PLUGIN_PATH=$work/pc/plugins "$work/pc/c_consumer" relocated:0
  "$work/pc/cpp_consumer"

  echo "== find_package(porta): the same three"
  cmake -S "$s/consumer" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" -DRELOCATED_C_SOURCE="$s/relocated_consumer.c" >/dev/null
  cmake --build "$work/cm" >/dev/null
  cmake -S "$s/plugin_consumer" -B "$work/cm-plugin" -DCMAKE_PREFIX_PATH="$prefix" \
        -DPLUGIN_SOURCE="$prefix/share/porta/minimal_plugin.c" >/dev/null
  cmake --build "$work/cm-plugin" >/dev/null
  PORTA_PLUGIN_PATH=$work/cm-plugin/libporta_plugin_relocated.so "$work/cm/c_consumer" relocated:0
  "$work/cm/consumer"
  "$prefix/bin/porta-smi" | grep -q cpu
' _ "$work" "$prefix" "${hidden[@]}"
echo "install tests passed"
