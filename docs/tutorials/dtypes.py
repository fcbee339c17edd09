"""Data types as PyTorch defines them: the dtypes literals get, the default dtype, conversions, type promotion
between tensors and Python numbers, integer and true division, finfo/iinfo, and what casting may do."""
import numpy as np

import porta as torch

assert torch.tensor([1, 2, 3]).dtype == torch.int64
assert torch.tensor([1.0, 2.0]).dtype == torch.float32
assert torch.tensor([True, False]).dtype == torch.bool
assert torch.tensor(np.array([1.0])).dtype == torch.float64
assert torch.get_default_dtype() == torch.float32
assert torch.zeros(2).dtype == torch.float32 and torch.arange(3).dtype == torch.int64
assert torch.arange(0, 1, 0.25).dtype == torch.float32

x = torch.tensor([1.5, -2.5, 3.7])
assert x.double().dtype == torch.float64 and x.to(torch.float64).dtype == torch.float64
assert x.int().tolist() == [1, -2, 3]  # toward zero, as a C cast
assert x.long().dtype == torch.int64 and x.type(torch.int32).dtype == torch.int32
assert x.bool().tolist() == [True, True, True] and x.type() == "torch.FloatTensor"
assert torch.tensor([1, 2]).float().dtype == torch.float32

# Promotion: a tensor's category beats a Python number's; within a category the tensor's dtype wins.
i = torch.tensor([1, 2, 3])
assert (i + 1).dtype == torch.int64
assert (i + 1.5).dtype == torch.float32
assert (i * torch.tensor([1.0])).dtype == torch.float32
assert (torch.tensor([1], dtype=torch.int32) + torch.tensor([1], dtype=torch.int64)).dtype == torch.int64
assert (torch.tensor([1.0], dtype=torch.float64) + torch.tensor([1.0])).dtype == torch.float64
assert (torch.tensor([1.0]) + torch.tensor(2.0, dtype=torch.float64)).dtype == torch.float32  # a 0-dim loses
assert (torch.tensor([True]) + 1).dtype == torch.int64
assert torch.result_type(i, 1.0) == torch.float32
assert torch.promote_types(torch.int32, torch.float32) == torch.float32
assert torch.can_cast(torch.int32, torch.float32) and not torch.can_cast(torch.float32, torch.int32)

# Division: / is true division (float), // floors, % takes the divisor's sign, as Python's.
assert (i / 2).dtype == torch.float32 and (i / 2).tolist() == [0.5, 1.0, 1.5]
assert torch.tensor([-7, 7]).div(2, rounding_mode="floor").tolist() == [-4, 3]
assert torch.tensor([-7, 7]).div(2, rounding_mode="trunc").tolist() == [-3, 3]
assert (torch.tensor([-7, 7]) // 2).tolist() == [-4, 3]
assert (torch.tensor([-7, 7]) % 3).tolist() == [2, 1]
assert (torch.tensor([-7.5]) % 2).tolist() == [0.5]

# Comparisons give bool tensors, and bool tensors sum as integers.
mask = i > 1
assert mask.dtype == torch.bool and mask.sum().item() == 2 and mask.sum().dtype == torch.int64
assert i.sum().dtype == torch.int64 and torch.tensor([1, 2], dtype=torch.int32).sum().dtype == torch.int64
assert i.float().mean().item() == 2.0
assert i.max().dtype == torch.int64 and torch.tensor([1.0, 2.0]).sum(dtype=torch.float64).dtype == torch.float64

# Limits.
assert torch.finfo(torch.float32).eps == np.finfo(np.float32).eps
assert torch.finfo(torch.float64).max == np.finfo(np.float64).max
assert torch.iinfo(torch.int32).max == 2 ** 31 - 1 and torch.iinfo(torch.uint8).min == 0
assert torch.tensor([300], dtype=torch.int64).to(torch.uint8).tolist() == [44]  # wraps, as in C

# In-place ops keep the tensor's dtype; a float result into an integer tensor is refused.
k = torch.tensor([1, 2, 3])
k += 2
assert k.dtype == torch.int64 and k.tolist() == [3, 4, 5]
try:
    k += 0.5
except RuntimeError as e:
    print("as expected:", e)
else:
    raise AssertionError("a float result was written into an int64 tensor")

# float32 is the default dtype; a factory's dtype= or a module's .double() gives float64.
torch.set_default_dtype(torch.float32)
assert torch.nn.Linear(2, 2).double().weight.dtype == torch.float64
assert torch.zeros(1, dtype=torch.float64).dtype == torch.float64
print("dtypes ok")
