#!/usr/bin/env bash
# The Fashion-MNIST demo trained by 2 processes with DistributedDataParallel
# (porta-demo --distributed under mpirun) reaches the accuracy of the same
# training in one process, within 3 points: the same global batch and
# steps, another sample order (each rank a DistributedSampler's share).
#   demo_ddp.sh <porta-demo> <mpirun and its options...>
set -euo pipefail
demo=$1
shift
args=(--device cpu --train-samples 4000 --test-samples 2000)
accuracy() { sed -n 's/.*test accuracy: \([0-9.]*\)%.*/\1/p' | tail -1; }
one=$("$demo" "${args[@]}" | accuracy)
two=$("$@" -n 2 "$demo" --distributed "${args[@]}" | accuracy)
echo "one process: ${one}%   2 processes with DistributedDataParallel: ${two}%"
[ -n "$one" ] && [ -n "$two" ] || { echo "FAILED: a run printed no accuracy"; exit 1; }
awk -v a="$one" -v b="$two" 'BEGIN { d = a - b; if (d < 0) d = -d; if (d > 3 || b < 70) { print "FAILED: they differ by " d " points"; exit 1 } }'
