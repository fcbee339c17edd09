#!/usr/bin/env bash
# shellcheck disable=SC2317  # (functions run through trap and bash -c)
# scripts/gpu-check.sh OUTDIR — the GPU check, for a machine with an NVIDIA
# GPU (an H200, 16 cores) and no network. Run it from the repo root.
#
# It needs scripts/.gpu-deps/, which scripts/prepare-gpu-deps.sh fills on a
# machine with the network (GoogleTest sources, dlpack.h, zlib headers,
# Fashion-MNIST). The folder is git-ignored, so the device tool must be told
# to carry it:  run(command="scripts/gpu-check.sh $OUT", carry=["scripts/.gpu-deps"])
#
# Steps (each with a time limit; the whole stays under 8 minutes):
#   environment   nvidia-smi -L, nvcc, cmake, python/torch/numpy, deps used
#   configure     build-gpu-check/: -DPORTA_CUDA=ON -DPORTA_OPENCL=OFF, GoogleTest
#                 and dlpack.h from .gpu-deps, zlib headers from there if needed
#   build         -j16
#   tests         porta_cuda_tests; conformance, gradcheck and training tests on
#                 cuda:0 (and cuda:1 when there are two GPUs)
#   examples      both seed examples (seed 2 on a synthetic CIFAR-10), the demo on
#                 Fashion-MNIST
#   benchmarks    sgemm 4096 vs cuBLAS, add vs copy bandwidth, SimpleCNN step vs
#                 PyTorch, DLPack with torch.cuda (tests/bench/gpu)
# Writes OUTDIR/gpu-check.log (everything) and OUTDIR/results.md (a table of
# the steps and one of the benchmarks). Exit status 0 when every step passed.
#
# PORTA_GPU_CHECK_ALLOW_NO_GPU=1: run where there is no GPU, to test this
#   script: the same configure and build, then the steps that need no GPU
#   (examples on cpu, shortened); the rest are reported as skipped.
# PORTA_GPU_CHECK_BUILD_DIR (build-gpu-check), PORTA_GPU_CHECK_JOBS (16),
# PORTA_GPU_CHECK_BUILD_LIMIT (seconds, 420),
# PORTA_GPU_CHECK_DEADLINE (seconds, 450): steps that would start after the
#   deadline are skipped, so results.md is written before a caller's limit.
set -uo pipefail

if [ $# -ne 1 ]; then
  echo "usage: scripts/gpu-check.sh OUTDIR   (from the repo root; see the header)" >&2
  exit 2
fi
if [ ! -f abi/porta/plugin.h ] || [ ! -d plugins/cuda ]; then
  echo "gpu-check: run me from the Porta repo root" >&2
  exit 2
fi
OUT=$1
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(pwd)
DEPS=$ROOT/scripts/.gpu-deps
BUILD=${PORTA_GPU_CHECK_BUILD_DIR:-$ROOT/build-gpu-check}
JOBS=${PORTA_GPU_CHECK_JOBS:-16}
DEADLINE=${PORTA_GPU_CHECK_DEADLINE:-450}
NO_GPU_OK=${PORTA_GPU_CHECK_ALLOW_NO_GPU:-0}
LOG=$OUT/gpu-check.log
BENCH=$OUT/bench.jsonl
: > "$LOG"
: > "$BENCH"
exec > >(tee -a "$LOG") 2>&1

STEPS=()  # "name|status|seconds|note"
FAILED=0
record() { STEPS+=("$1|$2|$3|${4:-}"); }

write_results() {
  {
    echo "# GPU check"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
         "$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo '(with local changes)')," \
         "${GPUS:-no GPU}, ${SECONDS} s in all."
    echo
    echo "| step | status | seconds | note |"
    echo "|---|---|---|---|"
    for s in "${STEPS[@]}"; do
      IFS='|' read -r name status secs note <<< "$s"
      echo "| $name | $status | $secs | $note |"
    done
    echo
    echo "## Benchmarks"
    echo
    if [ -s "$BENCH" ]; then
      python3 "$ROOT/tests/bench/gpu/report_gpu.py" "$BENCH" 2>&1 || echo "(report_gpu.py failed)"
    else
      echo "No benchmark ran."
    fi
  } > "$OUT/results.md"
}
trap write_results EXIT

# step NAME LIMIT_SECONDS COMMAND...: runs COMMAND with a time limit, records
# pass / FAIL / TIMEOUT and the time it took.
step() {
  local name=$1 limit=$2
  shift 2
  if [ "$SECONDS" -ge "$DEADLINE" ]; then
    echo "=== $name: skipped (past the ${DEADLINE} s deadline)"
    record "$name" skipped 0 "past the ${DEADLINE} s deadline"
    FAILED=1
    return 1
  fi
  echo
  echo "=== $name ($(date -u +%H:%M:%S), limit ${limit} s): $*"
  local start=$SECONDS rc
  timeout --kill-after=10 "$limit" "$@"
  rc=$?
  local took=$((SECONDS - start))
  if [ $rc -eq 0 ]; then
    record "$name" pass "$took"
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    record "$name" "**TIMEOUT**" "$took" "limit ${limit} s"
    FAILED=1
  else
    record "$name" "**FAIL**" "$took" "exit $rc, see gpu-check.log"
    FAILED=1
  fi
  echo "=== $name: exit $rc after ${took} s"
  return "$rc"
}

skip() {
  echo "=== $1: skipped ($2)"
  record "$1" skipped 0 "$2"
}

# ---------------------------------------------------------------- environment
echo "=== environment"
GPUS=""
NGPU=0
if command -v nvidia-smi > /dev/null && nvidia-smi -L > "$OUT/nvidia-smi.txt" 2>&1; then
  cat "$OUT/nvidia-smi.txt"
  NGPU=$(grep -c '^GPU ' "$OUT/nvidia-smi.txt" || true)
  GPUS="$NGPU x $(sed -n 's/^GPU 0: \(.*\) (UUID.*/\1/p' "$OUT/nvidia-smi.txt")"
  nvidia-smi --query-gpu=driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>/dev/null || true
else
  echo "nvidia-smi: not available or no GPU"
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$NVCC" --version 2>&1 | tail -2 || echo "nvcc: not found"
cmake --version | head -1
python3 - <<'PY' 2>&1 || true
import sys
print("python", sys.version.split()[0], sys.executable)
for name in ("torch", "numpy"):
    try:
        m = __import__(name)
        extra = f", CUDA {m.version.cuda}, GPU available: {m.cuda.is_available()}" if name == "torch" else ""
        print(f"{name} {m.__version__}{extra}")
    except Exception as e:  # noqa: BLE001
        print(f"{name}: not importable ({e})")
PY
echo "CPU cores: $(nproc), build jobs: $JOBS, deadline: ${DEADLINE} s"
if [ ! -d "$DEPS" ]; then
  echo "gpu-check: $DEPS is missing: run scripts/prepare-gpu-deps.sh where there is network," \
       "and carry scripts/.gpu-deps to this machine" >&2
  record environment "**FAIL**" 0 "scripts/.gpu-deps missing"
  exit 1
fi
echo "from .gpu-deps:"
sed 's/^/  /' "$DEPS/MANIFEST" 2>/dev/null || true

if [ "$NGPU" -eq 0 ] && [ "$NO_GPU_OK" != 1 ]; then
  echo "gpu-check: no NVIDIA GPU here (set PORTA_GPU_CHECK_ALLOW_NO_GPU=1 to test the script anyway)" >&2
  record environment "**FAIL**" 0 "no GPU"
  exit 1
fi
record environment pass 0 "${GPUS:-no GPU (PORTA_GPU_CHECK_ALLOW_NO_GPU=1)}"

# ------------------------------------------------------------ configure/build
# dlpack.h must lie outside the source tree: the install export of porta_abi
# names its folder, and CMake refuses source-tree paths there.
DLPACK_DIR=/tmp/porta-gpu-check-deps/dlpack-include
rm -rf "$DLPACK_DIR" && mkdir -p "$(dirname "$DLPACK_DIR")" && cp -a "$DEPS/dlpack-include" "$DLPACK_DIR"
CMAKE_ARGS=(
  -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release
  -DPORTA_CUDA=ON -DPORTA_OPENCL=OFF -DPORTA_BUILD_TESTS=ON -DPORTA_BUILD_BENCHMARKS=ON
  -DPORTA_CUDA_EMULATOR=OFF  # the real GPU is here: no CPU emulation of it to build
  -DPORTA_PYTHON_TESTS=OFF   # the check runs its own steps, not ctest's pytest suites
  -DCMAKE_CUDA_COMPILER="$NVCC"
  -DDLPACK_INCLUDE_DIR="$DLPACK_DIR"
  -DPORTA_GTEST_SOURCE_DIR="$DEPS/googletest"
)
# CMake 4 refuses projects that ask for policies older than 3.5 (GoogleTest asks for 3.5 itself).
[ "$(cmake --version | sed -n 's/^cmake version \([0-9]*\).*/\1/p')" -ge 4 ] && CMAKE_ARGS+=(-DCMAKE_POLICY_VERSION_MINIMUM=3.5)
command -v ninja > /dev/null && [ ! -f "$BUILD/Makefile" ] && CMAKE_ARGS+=(-G Ninja)
echo "deps: GoogleTest and dlpack.h from .gpu-deps"
if [ ! -f /usr/include/zlib.h ]; then
  LIBZ=$(ldconfig -p 2>/dev/null | awk '/libz\.so\.1 .*x86-64/ {print $NF; exit}')
  for f in /usr/lib/x86_64-linux-gnu/libz.so.1 /lib/x86_64-linux-gnu/libz.so.1 /usr/lib64/libz.so.1; do
    [ -n "$LIBZ" ] || { [ -f "$f" ] && LIBZ=$f; }
  done
  echo "deps: zlib headers from .gpu-deps, the library is this machine's ${LIBZ:-(none found)}"
  CMAKE_ARGS+=(-DZLIB_INCLUDE_DIR="$DEPS/zlib-include" -DZLIB_LIBRARY="${LIBZ:-libz.so.1}")
fi

if ! step configure 180 cmake "${CMAKE_ARGS[@]}"; then exit 1; fi
if ! step build "${PORTA_GPU_CHECK_BUILD_LIMIT:-420}" cmake --build "$BUILD" -j "$JOBS"; then exit 1; fi
BIN=$BUILD/bin
echo
"$BIN/porta-smi" | tee "$OUT/porta-smi.txt"

# ---------------------------------------------------------------------- tests
DEVICES=()
for ((i = 0; i < NGPU && i < 2; ++i)); do DEVICES+=("cuda:$i"); done
step cuda_tests 120 "$BIN/porta_cuda_tests" --gtest_brief=1
if [ ${#DEVICES[@]} -eq 0 ]; then
  skip conformance "no GPU"
  skip gradcheck "no GPU"
  skip training "no GPU"
fi
run_gtest() {  # BINARY FILTER: runs the matching tests, failing when none matches
  local n
  n=$("$1" --gtest_list_tests --gtest_filter="$2" | grep -c '^  ')
  echo "$n tests match $2"
  [ "$n" -gt 0 ] && "$1" --gtest_brief=1 --gtest_filter="$2"
}
for dev in "${DEVICES[@]}"; do
  filter="*/${dev/:/_}"  # parameterized tests end in /cuda_0
  for t in conformance:porta_conformance:300 gradcheck:porta_gradcheck:240 training:porta_training_tests:240; do
    IFS=: read -r name binary limit <<< "$t"
    step "$name $dev" "$limit" bash -c "$(declare -f run_gtest); run_gtest '$BIN/$binary' '$filter'"
  done
done

# ------------------------------------------------------------------- examples
EX_DEV=${DEVICES[0]:-cpu}
if [ ${#DEVICES[@]} -eq 0 ]; then DEMO_ARGS=(--train-samples 640); else DEMO_ARGS=(); fi
CIFAR=$(mktemp -d /tmp/porta-synthetic-cifar.XXXXXX)
# Seed case 2 reads CIFAR-10 binaries: a synthetic set whose classes are
# learnable (each class lights its own patch), as tests/examples writes it.
python3 - "$CIFAR" <<'PY'
import os, sys
import numpy as np
rng = np.random.default_rng(5)
for name in [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]:
    n = 400
    labels = np.arange(n) % 10
    img = rng.integers(0, 61, size=(n, 3, 32, 32))
    for r, c in enumerate(labels):
        img[r, c % 3, (c // 3) * 8:(c // 3) * 8 + 8, (c % 4) * 8:(c % 4) * 8 + 8] += 190
    rec = np.concatenate([labels[:, None], img.reshape(n, -1)], axis=1).astype(np.uint8)
    rec.tofile(os.path.join(sys.argv[1], name))
PY
expect_trained() {  # COMMAND...: runs it and wants "Training finished!" in its output
  local out
  out=$("$@" 2>&1)
  local rc=$?
  echo "$out" | tail -25
  [ "$rc" -eq 0 ] && grep -q "Training finished!" <<< "$out"
}
step "seed1 (C) $EX_DEV" 120 "$BIN/seed1_linear_regression_c" "$EX_DEV"
step "seed1 (C++) $EX_DEV" 120 "$BIN/seed1_linear_regression" "$EX_DEV"
step "seed2 (C++, synthetic CIFAR-10) $EX_DEV" 180 \
  bash -c "$(declare -f expect_trained); expect_trained '$BIN/seed2_cifar_cnn' '$CIFAR' '$EX_DEV' --epochs 1 --print-every 100"
step "demo $EX_DEV" 240 "$BIN/porta-demo" --device "$EX_DEV" --data "$DEPS/fashion-mnist" "${DEMO_ARGS[@]}"
rm -rf "$CIFAR"

# ----------------------------------------------------------------- benchmarks
bench_json() {  # COMMAND...: appends the command's JSON line to bench.jsonl
  local out rc
  out=$("$@")
  rc=$?
  echo "$out"
  grep '^{' <<< "$out" >> "$BENCH"
  return "$rc"
}
if [ ${#DEVICES[@]} -gt 0 ]; then
  step "bench sgemm 4096" 120 bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json '$BIN/porta_bench_gpu_sgemm' cuda:0"
  step "bench add 256M" 120 bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json '$BIN/porta_bench_gpu_add' cuda:0"
  step "bench SimpleCNN (Porta)" 150 \
    bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json '$BIN/porta_bench_gpu_training' cuda:0"
  if python3 -c "import torch; assert torch.cuda.is_available()" 2> /dev/null; then
    step "bench SimpleCNN (PyTorch)" 150 bash -c \
      "$(declare -f bench_json); BENCH='$BENCH' bench_json python3 '$ROOT/tests/bench/gpu/bench_training_torch_gpu.py' cuda:0"
  else
    skip "bench SimpleCNN (PyTorch)" "no PyTorch with CUDA"
  fi
else
  skip "GPU benchmarks" "no GPU"
fi
if [ -d "$ROOT/bindings/python/porta" ]; then
  step "DLPack with torch.cuda" 120 env PYTHONPATH="$ROOT/bindings/python" PORTA_LIBRARY="$BUILD/lib/libporta.so" \
    bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json python3 '$ROOT/tests/bench/gpu/dlpack_torch.py' cuda:0"
else
  skip "DLPack with torch.cuda" "no Python package in bindings/python"
fi

echo
echo "=== done in ${SECONDS} s; results in $OUT/results.md"
exit $FAILED
