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
# Steps (each with its own time limit, cut to what is left of the whole budget):
#   environment   nvidia-smi -L, nvcc, cmake, python/torch/numpy, deps used
#   configure     build-gpu-check/: -DPORTA_CUDA=ON -DPORTA_OPENCL=OFF, GoogleTest
#                 and dlpack.h from .gpu-deps, zlib headers and nlohmann-json from
#                 there if the machine lacks them
#   build         -j16, only the targets the steps below run (BUILD_TARGETS: the
#                 library, the cpu, mock and cuda plugins, porta-smi, the four test
#                 binaries, the examples, the GPU benchmarks, the nccl plugin and
#                 its test binary); a rerun resumes it
#   tests         porta_cuda_tests; conformance, gradcheck and training tests on
#                 cuda:0 (and cuda:1 when there are two GPUs)
#   sanitizer     compute-sanitizer memcheck, then racecheck, over a conformance
#                 subset on cuda:0 (SANITIZER_TESTS; racecheck leaves out matmul,
#                 whose kernels are cuBLAS's); skipped, not failed, when the
#                 tool is absent
#   examples      both seed examples (seed 2 on a synthetic CIFAR-10), the demo on
#                 Fashion-MNIST
#   nccl          the nccl communicator plugin on the real NCCL: collective
#                 conformance and DDP with one rank on cuda:0
#   benchmarks    GEMM 4096 in float32, bfloat16 and float16 vs cuBLAS (cublasSgemm,
#                 cublasGemmEx), add vs copy bandwidth, SimpleCNN step vs PyTorch in
#                 float32 and under autocast in bfloat16, DLPack with torch.cuda
#                 (tests/bench/gpu)
# Writes OUTDIR/gpu-check.log (everything), OUTDIR/steps/NN-<step>.txt (each
# step's output) and OUTDIR/results.md (a table of the steps and one of the
# benchmarks). Exit status 0 when every step passed. A step passes when it
# exits 0 and did more than skip: a gtest run whose tests all skipped (or, on
# a GPU machine, any of whose tests skipped with "no CUDA device:"), or a
# program that printed only that it skipped (a line starting "skipped", a JSON
# object with a "skipped" key), is **SKIPPED-ONLY**, which fails the check.
#
# Budget: everything fits in PORTA_GPU_CHECK_DEADLINE seconds from the start
# (450: the device tool's callers give about 9 minutes). Each step's limit is
# cut to what is left of it, less 15 s kept for results.md (and timeout's 5 s
# grace to kill); results.md notes each limit so cut. A step with under 5 s
# left is not started: **SKIPPED** (past the deadline), which fails the check.
#
# PORTA_GPU_CHECK_ALLOW_NO_GPU=1: run where there is no GPU, to test this
#   script: the same configure and build, then the steps that need no GPU
#   (examples on cpu, shortened); the rest are reported as skipped, and a
#   step that only skipped is expected there, so it does not fail.
# PORTA_GPU_CHECK_BUILD_DIR (build-gpu-check), PORTA_GPU_CHECK_JOBS (16),
# PORTA_GPU_CHECK_BUILD_LIMIT (seconds, 420, cut to the deadline like any other),
# PORTA_GPU_CHECK_DEADLINE (seconds, 450): the whole budget, above.
# PORTA_GPU_CHECK_SANITIZER_TESTS: a gtest filter replacing SANITIZER_TESTS.
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
RESERVE=15     # seconds of the deadline kept for writing results.md
KILL_GRACE=5   # timeout's wait between TERM and KILL, also within the deadline
MIN_STEP=5     # a step with less than this left of the deadline is not started
LOG=$OUT/gpu-check.log
BENCH=$OUT/bench.jsonl
STEP_DIR=$OUT/steps
: > "$LOG"
: > "$BENCH"
rm -rf "$STEP_DIR" && mkdir -p "$STEP_DIR"
exec > >(tee -a "$LOG") 2>&1

STEPS=()  # "name|status|seconds|note"
FAILED=0
STEP_NO=0
record() { local note=${4:-}; STEPS+=("$1|$2|$3|${note//|//}"); }

write_results() {
  {
    echo "# GPU check"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')" \
         "$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo '(with local changes)')," \
         "${GPUS:-no GPU}, ${SECONDS} s in all (deadline ${DEADLINE} s)."
    echo "Each step's output is in steps/ beside this file."
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

# time_left: seconds a step may still take and leave results.md its time
time_left() { echo $((DEADLINE - SECONDS - RESERVE - KILL_GRACE)); }

# slug NAME: NAME as a file name (letters, digits, . _ -)
slug() {
  local s
  s=$(printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '-' | tr -s '-')
  s=${s#-}
  s=${s%-}
  printf '%s' "${s:0:60}"
}

# skipped_only FILE: when the output in FILE shows nothing but skips, prints
# why (and nothing when the step did real work). gtest (brief or not) ends with
# "[  PASSED  ] N tests." and "[  SKIPPED ] M tests." lines: no test passed
# means nothing was checked; on a GPU machine a test skipped for "no CUDA
# device:" (tests/cuda's skip when the plugin sees no GPU) means the GPU went
# unseen. Other programs say they skipped with a line starting "skipped" or a
# JSON object with a "skipped" key (tests/bench/gpu/dlpack_torch.py).
skipped_only() {
  awk -v ngpu="$NGPU" '
    /^\[  PASSED  \] [0-9]+ tests?\./ { gtest = 1; passed += $4 }
    /^\[  SKIPPED \] [0-9]+ tests?[.,]/ { skipped += $4 }
    /^no CUDA device: / { nodev++ }
    said == "" && (/^\{.*"skipped"[ \t]*:/ || tolower($0) ~ /^[ \t]*skipped([^a-z]|$)/) { said = $0 }
    END {
      if (gtest) {
        if (passed == 0) printf "no test passed, %d skipped\n", skipped
        else if (ngpu > 0 && nodev > 0) printf "%d passed, but %d skipped for \"no CUDA device\" with %d GPU(s) here\n", passed, nodev, ngpu
      } else if (said != "") {
        printf "it printed: %s\n", substr(said, 1, 120)
      }
    }' "$1"
}

# step NAME LIMIT_SECONDS COMMAND...: runs COMMAND with a time limit (cut to
# what is left of the deadline), its output to the log and to
# steps/NN-NAME.txt; records pass / FAIL / TIMEOUT / SKIPPED-ONLY and the time
# it took. Returns 0 when the step passed (or, with ..._ALLOW_NO_GPU=1, only skipped).
step() {
  local name=$1 limit=$2 left note=""
  shift 2
  left=$(time_left)
  if [ "$left" -lt "$MIN_STEP" ]; then
    echo "=== $name: skipped (past the ${DEADLINE} s deadline, ${SECONDS} s gone)"
    record "$name" "**SKIPPED**" 0 "past the ${DEADLINE} s deadline"
    FAILED=1
    return 1
  fi
  if [ "$limit" -gt "$left" ]; then
    note="limit cut from ${limit} s to ${left} s by the ${DEADLINE} s deadline"
    limit=$left
  fi
  STEP_NO=$((STEP_NO + 1))
  local file
  file=steps/$(printf '%02d' "$STEP_NO")-$(slug "$name").txt
  echo
  echo "=== $name ($(date -u +%H:%M:%S), limit ${limit} s${note:+, cut by the deadline}, output in $file): $*"
  local start=$SECONDS rc ret why=""
  timeout --kill-after="$KILL_GRACE" "$limit" "$@" 2>&1 | tee "$OUT/$file"
  rc=${PIPESTATUS[0]}
  ret=$rc
  local took=$((SECONDS - start))
  if [ "$rc" -eq 0 ]; then
    why=$(skipped_only "$OUT/$file")
    if [ -z "$why" ]; then
      record "$name" pass "$took" "$note"
    elif [ "$NO_GPU_OK" = 1 ]; then
      record "$name" skipped "$took" "only skipped, as expected without a GPU: $why${note:+; $note}"
    else
      record "$name" "**SKIPPED-ONLY**" "$took" "$why, see $file${note:+; $note}"
      FAILED=1
      ret=3
    fi
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    record "$name" "**TIMEOUT**" "$took" "limit ${limit} s${note:+ ($note)}, see $file"
    FAILED=1
  else
    record "$name" "**FAIL**" "$took" "exit $rc, see $file${note:+; $note}"
    FAILED=1
  fi
  echo "=== $name: exit $rc after ${took} s${why:+: SKIPPED-ONLY, $why}"
  return "$ret"
}

skip() {
  echo "=== $1: skipped ($2)"
  record "$1" skipped 0 "$2"
}

# ---------------------------------------------------------------- environment
echo "=== environment"
GPUS=""
NGPU=0
if command -v nvidia-smi > /dev/null && timeout 30 nvidia-smi -L > "$OUT/nvidia-smi.txt" 2>&1; then
  cat "$OUT/nvidia-smi.txt"
  NGPU=$(grep -c '^GPU ' "$OUT/nvidia-smi.txt" || true)
  GPUS="$NGPU x $(sed -n 's/^GPU 0: \(.*\) (UUID.*/\1/p' "$OUT/nvidia-smi.txt")"
  timeout 30 nvidia-smi --query-gpu=driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>/dev/null || true
else
  echo "nvidia-smi: not available or no GPU"
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$NVCC" --version 2>&1 | tail -2 || echo "nvcc: not found"
cmake --version | head -1
timeout 60 python3 - <<'PY' 2>&1 | tee "$OUT/python.txt" || true
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
# The PyTorch steps need torch with a GPU it can use (the line above says so).
TORCH_CUDA=0
grep -q '^torch .*GPU available: True' "$OUT/python.txt" && TORCH_CUDA=1
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
  -DPORTA_MPI="$(command -v mpicc > /dev/null && echo ON || echo OFF)"  # the nccl step needs no MPI
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
if [ ! -f /usr/include/nlohmann/json.hpp ]; then
  echo "deps: nlohmann-json (header-only) from .gpu-deps"
  CMAKE_ARGS+=(-Dnlohmann_json_DIR="$DEPS/nlohmann-json/share/cmake/nlohmann_json")
fi

# What the steps below run and load, and nothing else (every other suite,
# tool and benchmark would cost build time the check has not got). The
# Python package of the DLPack step is ctypes over libporta.so: no extension.
BUILD_TARGETS=(
  porta porta_plugin_cpu porta_plugin_cuda porta_plugin_mock porta-smi         # library, plugins, porta-smi
  porta_cuda_tests porta_conformance porta_gradcheck porta_training_tests      # tests, sanitizer
  seed1_linear_regression_c seed1_linear_regression seed2_cifar_cnn porta-demo # examples
  porta_bench_gpu_gemm porta_bench_gpu_add porta_bench_gpu_training            # benchmarks
  porta_comm_nccl porta_dist_collectives_test                                  # the nccl communicator plugin
)

if ! step configure 180 cmake "${CMAKE_ARGS[@]}"; then exit 1; fi
if ! step build "${PORTA_GPU_CHECK_BUILD_LIMIT:-420}" cmake --build "$BUILD" -j "$JOBS" --target "${BUILD_TARGETS[@]}"; then
  exit 1
fi
BIN=$BUILD/bin
echo
smi_limit=$(time_left)
[ "$smi_limit" -gt 30 ] && smi_limit=30
if [ "$smi_limit" -ge "$MIN_STEP" ]; then
  timeout --kill-after="$KILL_GRACE" "$smi_limit" "$BIN/porta-smi" 2>&1 | tee "$OUT/porta-smi.txt"
fi

# ---------------------------------------------------------------------- tests
DEVICES=()
for ((i = 0; i < NGPU && i < 2; ++i)); do DEVICES+=("cuda:$i"); done
step cuda_tests 120 "$BIN/porta_cuda_tests" --gtest_brief=1
if [ ${#DEVICES[@]} -eq 0 ]; then
  skip conformance "no GPU"
  skip gradcheck "no GPU"
  skip training "no GPU"
fi
# run_gtest BINARY FILTER [WRAPPER...]: runs the matching tests (under WRAPPER,
# e.g. compute-sanitizer, when given), failing when none matches
run_gtest() {
  local bin=$1 filter=$2 n
  shift 2
  n=$("$bin" --gtest_list_tests --gtest_filter="$filter" | grep -c '^  ')
  echo "$n tests match $filter"
  [ "$n" -gt 0 ] && "$@" "$bin" --gtest_brief=1 --gtest_filter="$filter"
}
RUN_GTEST="$(declare -f run_gtest); run_gtest \"\$@\""  # bash -c "$RUN_GTEST" _ BINARY FILTER [WRAPPER...]
for dev in "${DEVICES[@]}"; do
  filter="*/${dev/:/_}"  # parameterized tests end in /cuda_0
  for t in conformance:porta_conformance:300 gradcheck:porta_gradcheck:240 training:porta_training_tests:240; do
    IFS=: read -r name binary limit <<< "$t"
    step "$name $dev" "$limit" bash -c "$RUN_GTEST" _ "$BIN/$binary" "$filter"
  done
done

# ---------------------------------------------------------- compute-sanitizer
# One small test of each kernel family the plugin has (binary, unary, copy and
# cast, reduce, softmax, conv, pool, loss, optimizer; matmul is cuBLAS called
# with Porta's strides): tens of milliseconds of work on the cpu device, small
# shapes, as compute-sanitizer slows every launch by one to two orders.
SANITIZER_TESTS=(
  Binary.ExpandedOperands Unary.ExpandedInput Copy.CopyIntoBroadcastsAndCasts
  Cast.FloatsBeyondTheIntegerRangeSaturateAndNaNIsZero
  Reduce.SizeOneDims Reduce.LongReductionsAreExactOnIntegerValues
  NN.SoftmaxForwardAndBackward NN.Conv2dForward NN.MaxPool2dForwardAndBackward
  NN.CrossEntropyForwardAndBackward Optimizers.AdamAndAdamW
  Matmul.ShapesAndDtypes  # memcheck only: racecheck sees shared memory, and cuBLAS's is not Porta's to fix
)
sanitizer_filter() {  # TOOL: the gtest filter of SANITIZER_TESTS on cuda:0 for TOOL
  [ -n "${PORTA_GPU_CHECK_SANITIZER_TESTS:-}" ] && { echo "$PORTA_GPU_CHECK_SANITIZER_TESTS"; return; }
  local t f=""
  for t in "${SANITIZER_TESTS[@]}"; do
    [ "$1" = racecheck ] && [ "${t%%.*}" = Matmul ] && continue
    f+="${f:+:}Devices/$t/cuda_0"
  done
  echo "$f"
}
SANITIZER=""
for c in "$(command -v compute-sanitizer || true)" "$(dirname "$NVCC")/compute-sanitizer" \
         /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  if [ -n "$c" ] && [ -x "$c" ]; then SANITIZER=$c && break; fi
done
if [ ${#DEVICES[@]} -eq 0 ]; then
  skip "sanitizer" "no GPU"
elif [ -z "$SANITIZER" ]; then
  skip "sanitizer" "compute-sanitizer not found (PATH, $(dirname "$NVCC"), /usr/local/cuda)"
else
  timeout 20 "$SANITIZER" --version 2>&1 | tail -1
  for tool in memcheck racecheck; do
    step "$tool cuda:0" 90 bash -c "$RUN_GTEST" _ "$BIN/porta_conformance" "$(sanitizer_filter "$tool")" \
      "$SANITIZER" --tool "$tool" --error-exitcode 1
  done
fi

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

# The nccl communicator plugin on the real NCCL: the collective conformance and DDP tests with one rank on
# cuda:0 (NCCL refuses two ranks on one GPU), its TCP store on loopback, the plugin from build/lib/porta/comm.
if [ ${#DEVICES[@]} -gt 0 ]; then
  step "nccl collectives and DDP (1 rank, cuda:0)" 180 env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 \
    MASTER_PORT=$((29500 + RANDOM % 1000)) PORTA_TEST_BACKEND=nccl PORTA_TEST_DEVICES=cuda:0 \
    "$BIN/porta_dist_collectives_test" --gtest_brief=1
else
  skip "nccl collectives" "no GPU"
fi

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
  step "bench GEMM 4096 (f32, bf16, f16)" 120 \
    bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json '$BIN/porta_bench_gpu_gemm' cuda:0"
  step "bench add 256M" 120 bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json '$BIN/porta_bench_gpu_add' cuda:0"
  step "bench SimpleCNN (Porta)" 150 \
    bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json '$BIN/porta_bench_gpu_training' cuda:0"
  if [ "$TORCH_CUDA" = 1 ]; then
    step "bench SimpleCNN (PyTorch)" 150 bash -c \
      "$(declare -f bench_json); BENCH='$BENCH' bench_json python3 '$ROOT/tests/bench/gpu/bench_training_torch_gpu.py' cuda:0"
  else
    skip "bench SimpleCNN (PyTorch)" "no PyTorch with CUDA"
  fi
  step "bench SimpleCNN autocast bf16 (Porta)" 150 \
    bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json '$BIN/porta_bench_gpu_training' cuda:0 bf16"
  if [ "$TORCH_CUDA" = 1 ]; then
    step "bench SimpleCNN autocast bf16 (PyTorch)" 150 bash -c "$(declare -f bench_json); BENCH='$BENCH' \
      bench_json python3 '$ROOT/tests/bench/gpu/bench_training_torch_gpu.py' cuda:0 bf16"
  else
    skip "bench SimpleCNN autocast bf16 (PyTorch)" "no PyTorch with CUDA"
  fi
else
  skip "GPU benchmarks" "no GPU"
fi
# With torch.cuda working, a "skipped" from dlpack_torch.py means Porta saw no
# GPU: SKIPPED-ONLY, a failure.
if [ ! -d "$ROOT/bindings/python/porta" ]; then
  skip "DLPack with torch.cuda" "no Python package in bindings/python"
elif [ "$TORCH_CUDA" != 1 ]; then
  skip "DLPack with torch.cuda" "no PyTorch with CUDA"
else
  step "DLPack with torch.cuda" 120 env PYTHONPATH="$ROOT/bindings/python" PORTA_LIBRARY="$BUILD/lib/libporta.so" \
    bash -c "$(declare -f bench_json); BENCH='$BENCH' bench_json python3 '$ROOT/tests/bench/gpu/dlpack_torch.py' cuda:0"
fi

echo
echo "=== done in ${SECONDS} s; results in $OUT/results.md"
exit $FAILED
