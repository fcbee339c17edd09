#!/usr/bin/env bash
# Fills scripts/.gpu-deps/ (git-ignored) with what scripts/gpu-check.sh needs
# on an offline GPU machine that may lack it:
#   googletest/      GoogleTest sources (Debian's googletest package), built
#                    by the check through -DPORTA_GTEST_SOURCE_DIR
#   dlpack-include/  dlpack/dlpack.h (DLPack >= 1.1, from apache-tvm-ffi)
#   zlib-include/    zlib.h and zconf.h: the check links the machine's own
#                    libz.so.1 (Python needs it) when zlib's headers are missing
#   nlohmann-json/   nlohmann-json's headers and CMake package (header-only;
#                    the safetensors header parser), as include/ and share/cmake/
#   fashion-mnist/   the four Fashion-MNIST .gz files, for the demo (--data)
#   MANIFEST         where each part came from
# Run it where those exist (scripts/install-deps.sh installs them). It is
# idempotent: each run replaces every part with a fresh copy. The folder must
# stay small (< 60 MiB): the device tool carries it beside the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
deps=scripts/.gpu-deps
gtest_src=${GTEST_SOURCE:-/usr/src/googletest}
mnist_src=${FASHION_MNIST_DIR:-/usr/share/datasets/fashion-mnist}

die() { echo "prepare-gpu-deps: $*" >&2; exit 1; }

[ -f "$gtest_src/CMakeLists.txt" ] || die "no GoogleTest sources in $gtest_src (apt-get install googletest)"
dlpack_dir=$("$PORTA_VENV_PYTHON" -c "import tvm_ffi.libinfo as l; print(l.find_dlpack_include_path())" 2>/dev/null) ||
  die "$PORTA_VENV_PYTHON cannot import tvm_ffi (run scripts/install-deps.sh)"
[ -f "$dlpack_dir/dlpack/dlpack.h" ] || die "no dlpack/dlpack.h under $dlpack_dir"
{ [ -f /usr/include/zlib.h ] && [ -f /usr/include/zconf.h ]; } || die "no zlib headers in /usr/include (apt-get install zlib1g-dev)"
[ -f /usr/include/nlohmann/json.hpp ] && [ -f /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake ] ||
  die "no nlohmann-json in /usr (apt-get install nlohmann-json3-dev; scripts/install-deps.sh does)"
for f in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
  [ -f "$mnist_src/$f" ] || die "no $mnist_src/$f (set FASHION_MNIST_DIR)"
done

mkdir -p "$deps"
rm -rf "$deps/googletest" "$deps/dlpack-include" "$deps/zlib-include" "$deps/nlohmann-json" "$deps/fashion-mnist"
cp -a "$gtest_src" "$deps/googletest"
mkdir -p "$deps/dlpack-include/dlpack" "$deps/zlib-include" "$deps/fashion-mnist"
cp "$dlpack_dir/dlpack/dlpack.h" "$deps/dlpack-include/dlpack/"
cp /usr/include/zlib.h /usr/include/zconf.h "$deps/zlib-include/"
mkdir -p "$deps/nlohmann-json/include" "$deps/nlohmann-json/share/cmake"
cp -a /usr/include/nlohmann "$deps/nlohmann-json/include/"
cp -a /usr/share/cmake/nlohmann_json "$deps/nlohmann-json/share/cmake/"  # finds its headers relative to itself
cp "$mnist_src"/*-ubyte.gz "$deps/fashion-mnist/"

gtest_version=$(dpkg-query -W -f='${Version}' googletest 2>/dev/null || echo unknown)
dlpack_version=$(sed -n 's/^#define DLPACK_\(MAJOR\|MINOR\)_VERSION \([0-9]*\).*/\2/p' "$dlpack_dir/dlpack/dlpack.h" | paste -sd.)
zlib_version=$(sed -n 's/^#define ZLIB_VERSION "\(.*\)"/\1/p' /usr/include/zlib.h)
cat > "$deps/MANIFEST" <<MANIFEST
googletest      $gtest_version from $gtest_src
dlpack-include  DLPack $dlpack_version from $dlpack_dir
zlib-include    zlib $zlib_version headers from /usr/include
nlohmann-json   nlohmann-json $(dpkg-query -W -f='${Version}' nlohmann-json3-dev 2>/dev/null || echo unknown) from /usr
fashion-mnist   from $mnist_src
prepared        $(date -u +%Y-%m-%dT%H:%M:%SZ)
MANIFEST
size=$(du -sm "$deps" | cut -f1)
echo "prepare-gpu-deps: $deps is ready (${size} MiB):"
sed 's/^/  /' "$deps/MANIFEST"
[ "$size" -lt 60 ] || die "$deps is ${size} MiB; the device tool's carry limit needs it under 60 MiB"
