#!/usr/bin/env bash
# pip gives a working Porta. Builds the porta wheel from bindings/python the
# way `pip install ./bindings/python` does (build isolation, the build
# backend from scripts/python-requirements.txt's wheelhouse, offline), checks
# what it carries, installs it into a fresh venv, and there, outside the
# checkout and with no PORTA_* variable: imports porta, runs a cpu op and
# porta-smi, then the whole Python suite against the installed package (its
# device tests on cpu). When the CUDA toolkit is here, the porta-cuda wheel
# (bindings/python-cuda) is built too, installed beside it, and must be found
# and loaded by porta.
# Usage: wheels.sh <source dir> <build dir> <venv python> <wheelhouse> <ON|OFF: build the cuda wheel>
set -euo pipefail
src=$1 build=$2 python=$3 wheelhouse=$4 cuda=$5
[ -d "$wheelhouse" ] || { echo "no wheelhouse at $wheelhouse: run scripts/install-deps.sh"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
offline=(--disable-pip-version-check --no-index --find-links "$wheelhouse")
fail() { echo "wheel test: $*" >&2; exit 1; }

echo "== pip wheel ./bindings/python (isolated build, offline)"
# Each wheel's CMake build directory is a fixed one under <build dir> rather than a temporary one, so that ccache
# (scripts/env.sh) finds the objects of an earlier run of the same sources.
"$python" -m pip wheel -q "${offline[@]}" --no-deps -w "$work/dist" \
  --config-settings=build-dir="$build/wheel-build/porta" "$src/bindings/python"
wheel=$(ls "$work"/dist/porta-*.whl)
"$python" - "$wheel" <<'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = ["porta/__init__.py", "porta/_lib.py", "porta/nn/__init__.py", "porta/utils/data.py", "porta/lib/libporta.so.0",
        "porta/lib/porta/plugins/libporta_plugin_cpu.so", "porta/bin/porta-smi", "porta/bin/porta-run", "porta/include/porta/porta.h",
        "porta/include/dlpack/dlpack.h", "porta/lib/cmake/porta/porta-config.cmake"]
missing = [n for n in need if n not in names]
assert not missing, f"the wheel lacks {missing}"
assert not any("libporta_plugin_cuda" in n or "test-plugins" in n for n in names), "the wheel carries the cuda or test plugins"
print(f"{sys.argv[1].rsplit('/', 1)[-1]}: {len(names)} files, libporta.so and the " +
      ", ".join(n.rsplit("_", 1)[-1][:-3] for n in sorted(names) if "/plugins/libporta_plugin_" in n) + " plugins")
PY

echo "== a fresh venv: pip install the wheel, then use it with no PORTA_* variable, outside the checkout"
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "${offline[@]}" "$wheel" pytest
clean_env=(env -u PORTA_LIBRARY -u PORTA_PLUGIN_PATH -u PORTA_DEVICES -u PYTHONPATH)
(cd "$work" && "${clean_env[@]}" "$work/venv/bin/python" -c "
import porta
print(porta.ones(2, device='cpu') + 1)
assert porta.library_path.startswith('$work/venv/'), porta.library_path
")
(cd "$work" && "${clean_env[@]}" "$work/venv/bin/porta-smi" | grep -E '^cpu +loaded')
(cd "$work" && "${clean_env[@]}" "$work/venv/bin/porta-run" --help | grep -q '^usage: porta-run')

# Its device-parameterized tests on cpu alone (PORTA_TEST_DEVICES): what is
# tested here is the installed package; its kernels on mock and opencl are
# python_package's.
echo "== the Python suite against the installed package"
(cd "$work" && env -u PORTA_LIBRARY PORTA_TEST_INSTALLED=1 PORTA_BUILD_DIR="$build" PORTA_TEST_DEVICES=cpu \
   PORTA_PLUGIN_PATH="$build/lib/porta/test-plugins/mock" \
   "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$src/tests/python")

if [ "$cuda" != ON ]; then
  echo "== porta-cuda: skipped (no CUDA toolkit: PORTA_CUDA is OFF)"
  exit 0
fi
echo "== pip wheel ./bindings/python-cuda, installed beside porta (its nvidia-cublas dependency left out: offline)"
"$python" -m pip wheel -q "${offline[@]}" --no-deps -w "$work/dist" \
  --config-settings=build-dir="$build/wheel-build/porta-cuda" "$src/bindings/python-cuda"
"$work/venv/bin/python" -m pip install -q "${offline[@]}" --no-deps "$work"/dist/porta_cuda-*.whl
(cd "$work" && "${clean_env[@]}" "$work/venv/bin/python" -c "
import porta
maps = lambda: open('/proc/self/maps').read()
porta.ones(2)
assert 'libporta_plugin_cuda' not in maps(), 'the cuda plugin was loaded by a cpu op'
n = porta.cuda.device_count()
cuda = [p for p in porta.plugins() if p['name'] == 'cuda']
assert len(cuda) == 1 and cuda[0]['path'].startswith('$work/venv/') and 'porta_plugins/cuda/' in cuda[0]['path'], cuda
assert cuda[0]['state'] in ('loaded', 'no devices'), cuda
print(f\"porta-cuda found: {cuda[0]['path']}, {cuda[0]['state']}, {n} devices\", cuda[0]['reason'])
")
echo "wheel tests passed"
