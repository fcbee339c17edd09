#!/usr/bin/env bash
# Fuzzes every input surface for a while: scripts/fuzz.sh [SECONDS_PER_HARNESS] (default 10).
# Builds the libFuzzer harnesses of tests/fuzz in build-fuzz (clang, ASan +
# UBSan), runs each on a copy of its seed corpus (the repository is never
# written), prints a table of executions per harness, and exits non-zero
# when any harness crashed, naming the file that reproduces it. A crash input
# belongs in tests/fuzz/corpus/<harness>/regression-<what> once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
seconds=${1:-10}
build=build-fuzz
harnesses=(fuzz_device_string fuzz_dlpack_import fuzz_safetensors fuzz_idx fuzz_cifar10 fuzz_plugin_table)

echo "== configure and build $build (clang, libFuzzer, ASan + UBSan)"
# -O1 and line tables only: the instrumented core compiles in a fraction of a Release build's time.
CC=clang CXX=clang++ cmake -S . -B "$build" -DPORTA_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS_DEBUG="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
  -DPORTA_CUDA=OFF -DPORTA_OPENCL=OFF -DPORTA_BUILD_BENCHMARKS=OFF -DPython3_EXECUTABLE="$PORTA_VENV_PYTHON" >/dev/null
cmake --build "$build" -j"$(nproc)" --target porta_fuzz >/dev/null

work="$build/fuzz-runs"
rm -rf "$work"
mkdir -p "$work"
failed=0
summary=""
for h in "${harnesses[@]}"; do
  mkdir -p "$work/$h/corpus" "$work/$h/artifacts"
  cp tests/fuzz/corpus/"$h"/* "$work/$h/corpus/"
  echo "== $h: ${seconds}s"
  log="$work/$h/log.txt"
  status=0
  "$build/bin/$h" "$work/$h/corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$work/$h/artifacts/" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crash=$(ls "$work/$h/artifacts" 2>/dev/null | head -1)
  if [[ $status -ne 0 || -n "$crash" ]]; then
    failed=1
    tail -40 "$log"
    echo "!! $h failed (exit $status); reproduce with: $build/bin/$h $work/$h/artifacts/${crash:-<see log>}"
  fi
  summary+=$(printf '%-20s %10s %8s %s' "$h" "${execs:-?}" "${seconds}s" "${crash:+CRASH $work/$h/artifacts/$crash}")$'\n'
done
echo
printf '%-20s %10s %8s\n' harness executions time
printf '%s' "$summary"
exit $failed
