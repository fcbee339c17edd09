#!/usr/bin/env python3
"""DLPack exchange between Porta (bindings/python) and torch.cuda tensors:
zero-copy both ways on the same device, correct values after Porta works on
torch's memory and torch on Porta's, and the cost of one exchange.
Prints one JSON object; exits 0 with {"skipped": reason} when the porta
package or a CUDA device is missing."""
import json
import sys
import time


def main():
    device = sys.argv[1] if len(sys.argv) > 1 else "cuda:0"
    try:
        import torch
        import porta
    except ImportError as e:
        print(json.dumps({"bench": "dlpack_torch", "skipped": f"import failed: {e}"}))
        return 0
    if not torch.cuda.is_available() or not porta.cuda.is_available():
        reason = porta.cuda.unavailable_reason() if hasattr(porta.cuda, "unavailable_reason") else "no cuda"
        print(json.dumps({"bench": "dlpack_torch", "skipped": f"no CUDA device: {reason}"}))
        return 0
    checks = {}
    x = torch.randn(1 << 20, device=device)
    p = porta.from_dlpack(x)                       # torch -> porta
    checks["torch_to_porta_zero_copy"] = p.data_ptr() == x.data_ptr()
    checks["torch_to_porta_device"] = str(p.device) == str(torch.device(device)) or str(p.device) == device
    q = p * 2 + 1                                  # porta computes on torch's memory
    t = torch.from_dlpack(q)                       # porta -> torch
    checks["porta_to_torch_zero_copy"] = t.data_ptr() == q.data_ptr()
    checks["values"] = bool(torch.allclose(t, x * 2 + 1))
    x.mul_(3)                                      # torch writes; porta sees it
    checks["shared_memory"] = bool(torch.allclose(torch.from_dlpack(p), x))

    small = torch.ones(16, device=device)
    n = 2000
    start = time.perf_counter()
    for _ in range(n):
        torch.from_dlpack(porta.from_dlpack(small))
    round_trip_us = 1e6 * (time.perf_counter() - start) / n
    print(json.dumps({"bench": "dlpack_torch", "device": device, "checks": checks, "ok": all(checks.values()),
                      "round_trip_us": round_trip_us}))
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
