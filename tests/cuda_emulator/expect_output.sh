#!/usr/bin/env bash
# expect_output.sh PATTERN... -- COMMAND...: runs COMMAND, failing unless it
# exits 0 and every PATTERN (an extended regex) matches a line of its output.
set -uo pipefail
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do patterns+=("$1"); shift; done
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out" | tail -40
[ "$rc" -eq 0 ] || { echo "exit status $rc: $*" >&2; exit 1; }
for p in "${patterns[@]}"; do
  grep -qE -- "$p" <<< "$out" || { echo "no line matches: $p" >&2; exit 1; }
done
