#!/usr/bin/env python3
"""PyTorch's side of bench_training.cpp on a GPU: the same SimpleCNN, step
(forward, cross entropy, backward, SGD-momentum, loss.item()), batch sizes
and timing (warm-up, then steps for >= 3 s). TF32 is off for convolutions
and matmuls, as in Porta (PORTA_CUDA_ALLOW_TF32 unset), so both do float32.
With argv[2] "bf16", forward and loss run under torch.autocast in bfloat16.
Prints one JSON object; argv[1] is the device (default cuda:0)."""
import json
import pathlib
import sys
import time

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bench_training_torch import cnn_step  # noqa: E402  (one definition of the tutorial's model and step)


def step_ms(device, batch, amp, min_time=3.0, min_iters=10, warmup=5):
    step = cnn_step(batch, device, amp=amp)
    for _ in range(warmup):
        step()
    torch.cuda.synchronize(device)
    n, start = 0, time.perf_counter()
    while True:
        for _ in range(min_iters):
            step()
        n += min_iters
        torch.cuda.synchronize(device)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return 1000 * elapsed / n


def main():
    device = sys.argv[1] if len(sys.argv) > 1 else "cuda:0"
    amp = len(sys.argv) > 2 and sys.argv[2] == "bf16"
    if len(sys.argv) > 3 or (len(sys.argv) > 2 and not amp):
        sys.exit("usage: bench_training_torch_gpu.py [device [bf16]]")
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    b64, b256 = step_ms(device, 64, amp), step_ms(device, 256, amp)
    name = "simple_cnn_step_amp_torch" if amp else "simple_cnn_step_torch"
    print(json.dumps({"bench": name, "device": device, "torch": torch.__version__,
                      "cudnn": torch.backends.cudnn.version(), "gpu": torch.cuda.get_device_name(device),
                      "batch64_ms": b64, "batch64_samples_per_s": 64e3 / b64,
                      "batch256_ms": b256, "batch256_samples_per_s": 256e3 / b256}))


if __name__ == "__main__":
    main()
