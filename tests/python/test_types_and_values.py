"""Types, values and shapes as PyTorch gives them (issue 13, item 2): promotion with 0-d tensors and
Python scalars, cat/stack/where with mixed dtypes and their shape and device checks, exact integers
beyond 2**53, values outside a dtype's range, float64 kept exact by tensor(), deepcopy and pickle.
Expected values are PyTorch 2.15's."""
import copy
import pickle

import numpy as np
import pytest

import porta


def test_zero_dim_tensors_and_scalars_promote_as_in_pytorch(device):
    f32 = porta.ones(2, device=device)
    i32 = porta.tensor([1, 2], dtype=porta.int32, device=device)
    u8 = porta.tensor([1], dtype=porta.uint8, device=device)
    d64 = porta.tensor(2.0, dtype=porta.float64, device=device)
    assert (f32 * d64).dtype == porta.float32  # a 0-d operand of the same category does not widen
    assert (d64 * f32).dtype == porta.float32
    assert (i32 * d64).dtype == porta.float64  # ... one of a higher category does
    assert (i32 + porta.tensor(3, device=device)).dtype == porta.int32
    assert (u8 + porta.tensor(2, device=device)).dtype == porta.uint8
    assert (d64 * porta.tensor(3.0, device=device)).dtype == porta.float64  # two 0-d operands promote
    assert (porta.tensor([1, 2], device=device) * 2.0).dtype == porta.float32  # a Python float is a float
    assert (porta.tensor([True], device=device) * 2).dtype == porta.int64
    assert (2 / porta.tensor([True, False], device=device)).tolist() == [2.0, float("inf")]
    assert (u8 + 300).tolist() == [45]  # integer scalars wrap, as PyTorch's do
    assert (i32 + 3000000000).tolist() == [-1294967295, -1294967294]
    assert porta.where(porta.tensor([True, False], device=device), porta.tensor([1, 2], device=device),
                       2.5).tolist() == [1.0, 2.5]
    assert porta.where(porta.tensor([True, False], device=device), 1, 2.5).dtype == porta.float32


def test_integer_scalars_keep_every_bit(device):
    big = 2**53 + 1
    assert (porta.tensor([0], device=device) + big).item() == big
    assert (porta.tensor([big], device=device) - 1).item() == big - 1
    assert porta.full((2,), big, device=device).tolist() == [big, big]
    assert porta.arange(2**53, 2**53 + 3, device=device).tolist() == [2**53, 2**53 + 1, 2**53 + 2]
    assert porta.arange(10, 0, -3, device=device).tolist() == [10, 7, 4, 1]
    with pytest.raises(OverflowError, match="out of range for int64"):
        porta.tensor([1], device=device) + 2**64


def test_values_outside_a_dtype_are_refused(device):
    # as PyTorch's checked conversion: uint8 takes -255..-1 (they wrap: full(-1) is 255), not -256
    for value, dtype in ((300, porta.uint8), (-256, porta.uint8), (2**31, porta.int32), (1e39, porta.float32)):
        with pytest.raises(RuntimeError, match="cannot be converted to type .* without overflow"):
            porta.full((1,), value, dtype=dtype, device=device)
    assert porta.full((1,), -1, dtype=porta.uint8, device=device).tolist() == [255]
    for data in ([2**63], [2**64], [1, -1, 2**63]):
        with pytest.raises(ValueError, match="out of range for int64"):
            porta.tensor(data)
    for data, dtype in (([300], porta.int8), ([128.0], porta.int8), ([-0.5], porta.uint8), ([float("nan")], porta.int64),
                        ([np.int64(300)], porta.int8)):
        with pytest.raises(RuntimeError, match=f"cannot be converted to type {dtype.name} without overflow"):
            porta.tensor(data, dtype=dtype, device=device)
    assert porta.tensor([127.9, -128.0, -3.7], dtype=porta.int8).tolist() == [127, -128, -3]  # truncated
    assert porta.tensor([-255, 255], dtype=porta.uint8).tolist() == [1, 255]
    assert porta.tensor(np.array([300]), dtype=porta.int8).tolist() == [44]  # an array casts as NumPy does


def test_tensor_types_its_data_as_pytorch(device):
    # each leaf has a dtype (Python numbers: bool, int64, float32; NumPy and tensors: their own); they promote
    for data, dtype in (([1, np.float64(2.5)], porta.float64), ([True, np.int16(3)], porta.int16),
                        ([np.uint8(1), np.int8(2)], porta.int16), ([1.5, np.float16(2)], porta.float32),
                        ([[1, 2], [np.int8(3), 4]], porta.int64), ([np.int32(1), np.int32(2)], porta.int32),
                        ([porta.tensor(1, dtype=porta.float16)] * 2, porta.float16), ([], porta.float32)):
        t = porta.tensor(data, device=device)
        assert t.dtype == dtype, data
    assert porta.tensor([porta.tensor([1.5]), 2]).tolist() == [1.5, 2.0]  # a one-element tensor is a number
    with pytest.raises(ValueError, match="only one element tensors"):
        porta.tensor([porta.zeros(2), porta.zeros(2)])
    with pytest.raises(RuntimeError, match="cannot be converted to type uint8"):
        porta.arange(250, 260, dtype=porta.uint8, device=device)


def test_matmul_does_not_promote(device):
    with pytest.raises(TypeError, match="same dtype, but got float32 and float64"):
        porta.ones(2, 2, device=device) @ porta.ones(2, 2, dtype=porta.float64, device=device)


def test_cat_and_stack_promote_and_check(device):
    ints, floats = porta.tensor([1, 2], device=device), porta.tensor([1.5], device=device)
    assert porta.cat([ints, floats]).tolist() == [1.0, 2.0, 1.5]
    assert porta.stack([ints, porta.tensor([1.5, 2.5], device=device)]).tolist() == [[1, 2], [1.5, 2.5]]
    with pytest.raises(RuntimeError, match="sizes of tensors must match except in dimension 0"):
        porta.cat([porta.ones(2, 3, device=device), porta.ones(1, 1, device=device)])  # no broadcasting
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        porta.cat([porta.ones(2, 3, device=device), porta.ones(3, device=device)])
    with pytest.raises(RuntimeError, match="equal size"):
        porta.stack([porta.ones(3, device=device), porta.ones(1, device=device)])
    with pytest.raises(RuntimeError, match="zero-dimensional"):
        porta.cat([porta.tensor(1.0, device=device)])
    assert porta.cat([porta.ones(2, device=device), porta.zeros(0, device=device)]).tolist() == [1, 1]


def test_cat_refuses_tensors_on_two_devices():
    with pytest.raises(RuntimeError, match="same device.*tensor 0 is on cpu and tensor 1 on mock:0"):
        porta.cat([porta.ones(2), porta.ones(2, device="mock:0")])


def test_cat_and_stack_are_recorded_by_autograd(device):
    a = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    b = porta.tensor([3.0], device=device, requires_grad=True)
    out = porta.cat([a * 2, b * b])
    (out * porta.tensor([1.0, 10.0, 100.0], device=device)).sum().backward()
    assert a.grad.tolist() == [2, 20] and b.grad.tolist() == [600]
    a.grad = None
    porta.stack([a, a]).sum().backward()
    assert a.grad.tolist() == [2, 2]


def test_float64_stays_exact_and_requires_grad_survives_copies():
    x = porta.tensor([0.1, 1 / 3], dtype=porta.float64, requires_grad=True)
    assert x.tolist() == [0.1, 1 / 3]
    for y in (copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
        assert y.dtype == porta.float64 and y.tolist() == [0.1, 1 / 3] and y.requires_grad and y.is_leaf
    p = porta.nn.Parameter(porta.tensor([0.1], dtype=porta.float64))
    q = copy.deepcopy(p)
    assert isinstance(q, porta.nn.Parameter) and q.tolist() == [0.1] and q.requires_grad
    q.data.fill_(2.0)
    assert p.tolist() == [0.1]  # a deep copy shares nothing
    with pytest.raises(RuntimeError, match="non-leaf tensor which requires_grad"):
        pickle.dumps(x * 2)
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(x * 2)
