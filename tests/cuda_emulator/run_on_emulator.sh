#!/usr/bin/env bash
# run_on_emulator.sh GTEST_BINARY FILTER: runs the binary's tests that match
# FILTER (the device-parameterized ones end in /cuda_0, /cuda_1), failing when
# none matches: a test of the emulated cuda plugin must never pass by running
# nothing (e.g. when the plugin failed to load and no cuda device was listed).
set -euo pipefail
binary=$1 filter=$2
n=$("$binary" --gtest_list_tests --gtest_filter="$filter" | grep -c '^  ' || true)
echo "$n tests match $filter"
if [ "$n" -eq 0 ]; then
  echo "no test matches: did the emulated cuda plugin load? (PORTA_PLUGIN_PATH=${PORTA_PLUGIN_PATH:-})" >&2
  "$(dirname "$binary")/porta-smi" >&2 || true
  exit 1
fi
exec "$binary" --gtest_brief=1 --gtest_filter="$filter"
