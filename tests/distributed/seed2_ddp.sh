#!/usr/bin/env bash
# Seed case 2 (the CIFAR-10 tutorial's CNN) trained by 2 processes with
# DistributedDataParallel (seed2_cifar_cnn --distributed under porta-run)
# reaches the accuracy of one process within 3 points. The one process runs
# the same program with a world of 1, so both see the same global batches of
# 4 in the same order (a DistributedSampler of W replicas deals its
# permutation out round-robin, and rank r takes the r-th of every W
# indices): they differ only in the order floating-point sums are taken.
# One epoch of 500 images stops mid-learning, where the accuracy depends on
# the order of the samples, so that order is kept. The images are synthetic
# CIFAR-10 files (no download here): each class a bright patch at its own
# place and colour over noise.
#   seed2_ddp.sh <seed2_cifar_cnn> <python with numpy> <porta-run>
set -euo pipefail
seed2=$1 python=$2 porta_run=$3
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"$python" - "$data" <<'PY'
import sys
import numpy as np

rng = np.random.default_rng(5)
def write(name, n):
    labels = np.arange(n) % 10
    images = rng.integers(0, 60, size=(n, 3, 32, 32))
    for i, c in enumerate(labels):
        images[i, c % 3, (c // 3) * 8:(c // 3) * 8 + 8, (c % 4) * 8:(c % 4) * 8 + 8] += 190
    records = np.concatenate([labels[:, None], images.reshape(n, -1)], axis=1).astype(np.uint8)
    records.tofile(f"{sys.argv[1]}/{name}")
for k in range(1, 6):
    write(f"data_batch_{k}.bin", 100)
write("test_batch.bin", 400)
PY
args=("$data" cpu --epochs 1 --print-every 100)
accuracy() { sed -n 's/^Accuracy of the network on the [0-9]* test images: \([0-9.]*\) %$/\1/p' | tail -1; }
one=$("$porta_run" -n 1 "$seed2" "${args[@]}" --distributed | accuracy)
two=$("$porta_run" -n 2 "$seed2" "${args[@]}" --distributed | accuracy)
echo "one process: ${one}%   2 processes with DistributedDataParallel: ${two}% (the same batches)"
[ -n "$one" ] && [ -n "$two" ] || { echo "FAILED: a run printed no accuracy"; exit 1; }
awk -v a="$one" -v b="$two" 'BEGIN { d = a - b; if (d < 0) d = -d; if (d > 3 || b < 50) { print "FAILED: they differ by " d " points, or learnt nothing"; exit 1 } }'
