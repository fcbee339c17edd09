"""The elementwise ops of ABI 1.3 from Python: the kernel ops generated from the op table (sin ... exp2, atan2,
remainder, fmod, floor_divide), the composite ops of porta.h (clamp, lerp, logsumexp, the activations,
isnan/isinf/isfinite, nan_to_num, the logical ops) and what the package builds on them (Python's % and //,
aliases, in-place forms, nn.functional and the nn modules). Values are checked in float64 against NumPy or
math, gradients against their analytic values, and against PyTorch when it is installed."""
import itertools
import math

import numpy as np
import pytest

import porta
from porta import _abi, nn
from porta.nn import functional as F

try:
    import torch
except ImportError:  # an optional peer: the comparisons below skip without it
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch not installed")

NAN, INF = math.nan, math.inf


def f64(values, device="cpu", **kw):
    return porta.tensor(values, dtype=porta.float64, device=device, **kw)


def close(got, want, rtol=1e-12, atol=1e-12):
    np.testing.assert_allclose(np.asarray(got.tolist() if isinstance(got, porta.Tensor) else got, dtype=np.float64),
                               np.asarray(want, dtype=np.float64), rtol=rtol, atol=atol, equal_nan=True)


def _np_sign(x):
    return np.where(np.isnan(x), 0.0, np.sign(x))  # torch.sign(NaN) is 0


_erf = np.vectorize(math.erf, otypes=[np.float64])

# op -> NumPy reference
UNARY = {
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "floor": np.floor, "ceil": np.ceil, "round": np.round, "trunc": np.trunc,
    "sign": _np_sign, "erf": _erf, "log1p": np.log1p, "expm1": np.expm1, "log2": np.log2, "log10": np.log10,
    "exp2": np.exp2, "asinh": np.arcsinh,
}
UNARY = {k: v for k, v in UNARY.items() if hasattr(porta.Tensor, k)}  # asinh: a newer library's op table

# The inputs each op is checked on come from its row's domain column (porta/ops.h, generated into _abi.OP_TRAITS),
# plus the points where an op is known to lose accuracy (accuracy, not domain: log1p and expm1 near 0).
_X = [-0.9, -0.4, 0.0, 0.3, 0.8]
_POS = [0.05, 0.5, 1.0, 3.0, 10.0]
_WIDE = [-3.7, -2.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.2]
_BY_DOMAIN = {_abi.PORTA_DOMAIN_UNIT: _X, _abi.PORTA_DOMAIN_POSITIVE: _POS}
_ACCURACY_POINTS = {"log1p": [-0.5, 1e-10, 10.0], "expm1": [-2.0, -1e-10, 1e-10, 3.0]}


def _domain(name):
    return _abi.OP_TRAITS[name][2]


def _inputs(name):
    return _BY_DOMAIN.get(_domain(name), _WIDE) + _ACCURACY_POINTS.get(name, [])


INTEGER_PRESERVING = {"floor", "ceil", "round", "trunc", "sign"}


# ------------------------------------------------------------ unary kernel ops


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_in_float64_against_numpy(name, device):
    ref, xs = UNARY[name], _inputs(name)
    x = f64(xs, device)
    with np.errstate(all="ignore"):
        want = ref(np.array(xs))
        special = ref(np.array([NAN, INF, -INF]))
    close(getattr(x, name)(), want, rtol=1e-12, atol=1e-15)
    close(getattr(porta, name)(x), want, rtol=1e-12, atol=1e-15)
    assert getattr(x, name)().dtype is porta.float64
    got_special = getattr(f64([NAN, INF, -INF], device), name)()
    if name != "sign":  # sign: NaN gives 0 (torch's rule, not NumPy's); the rest as NumPy
        close(got_special, special)
    y = x.clone()
    assert getattr(y, name + "_")() is y
    close(y, want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_on_integers(name, device):
    ref = UNARY[name]
    restricted = _domain(name) in (_abi.PORTA_DOMAIN_UNIT, _abi.PORTA_DOMAIN_POSITIVE)
    values = [0, 1] if restricted else [-3, -1, 0, 1, 2, 5]
    for dt in (porta.int64, porta.int32):
        x = porta.tensor(values, dtype=dt, device=device)
        got = getattr(x, name)()
        with np.errstate(all="ignore"):
            want = ref(np.array(values, dtype=np.float64))
        if name in INTEGER_PRESERVING:  # integer tensors pass through (sign: -1, 0, 1 in their dtype)
            assert got.dtype is dt and got.tolist() == [int(v) for v in want]
        else:  # integer inputs give float32
            assert got.dtype is porta.float32
            close(got, want, rtol=2e-6, atol=1e-6)


def test_rounding_family_and_its_specials(device):
    x = f64([0.5, 1.5, 2.5, -0.5, -2.5, -1.7, 1.7], device)
    assert x.round().tolist() == [0.0, 2.0, 2.0, -0.0, -2.0, -2.0, 2.0]  # halves to even, as torch.round
    assert x.trunc().tolist() == x.fix().tolist() == [0.0, 1.0, 2.0, -0.0, -2.0, -1.0, 1.0]
    assert porta.fix(x).tolist() == x.trunc().tolist()
    assert f64([NAN, -0.0, 3.0, -INF], device).sign().tolist() == [0.0, 0.0, 1.0, -1.0]
    u = porta.tensor([0, 3, 255], dtype=porta.uint8, device=device)
    assert u.sign().tolist() == [0, 1, 1] and u.floor().dtype is porta.uint8


def test_round_refuses_decimals():
    x = f64([1.234, 5.678])
    assert x.round(decimals=0).tolist() == [1.0, 6.0] and porta.round(x, decimals=0).tolist() == [1.0, 6.0]
    for call in (lambda: x.round(decimals=2), lambda: porta.round(x, decimals=-1), lambda: x.round_(decimals=1)):
        with pytest.raises(NotImplementedError, match=r"decimals=-?\d is not supported by Porta"):
            call()
    with pytest.raises(TypeError, match="decimals must be an int"):
        x.round(decimals=1.0)
    assert x.tolist() == [1.234, 5.678]  # nothing was written


def test_erfinv_inverts_erf_and_its_bounds(device):
    ys = [-0.999, -0.5, 0.0, 0.1, 0.9, 0.99999]
    x = f64(ys, device).erfinv()
    close([math.erf(v) for v in x.tolist()], ys, rtol=1e-12, atol=1e-14)
    assert f64([1.0, -1.0, 1.5, NAN], device).erfinv().tolist()[:2] == [INF, -INF]
    assert all(math.isnan(v) for v in f64([1.5, -2.0, NAN], device).erfinv().tolist())
    assert porta.tensor([0, 1]).erfinv().tolist() == [0.0, INF]


def test_erfinv_float64_keeps_its_digits_near_one(device):
    # Issue 49 item 3: erf(x) - y cancels near 1; the tail 1 - y is matched by erfc.
    tails = [2.0 ** -52, 2.0 ** -40, 2.0 ** -20, 1e-3, 0.25]
    x = f64([1 - t for t in tails] + [-(1 - t) for t in tails], device).erfinv().tolist()
    for t, v, w in zip(tails, x[:5], x[5:]):
        assert v == -w
        assert math.erfc(v) == pytest.approx(t, rel=1e-13)


# ------------------------------------------------------------ binary kernel ops and Python's % and //


def test_binary_ops_in_float64_against_numpy(device):
    a = np.array([-7.5, -7.0, -2.0, -0.3, 0.0, 0.3, 2.0, 5.25, 1e10, 2.0])
    b = np.array([2.0, -2.0, 0.5, 0.1, -3.0, 0.7, 0.1, -0.5, 3.0, 0.1])
    ta, tb = f64(a, device), f64(b, device)
    for name, ref in (("atan2", np.arctan2), ("remainder", np.remainder), ("fmod", np.fmod),
                      ("floor_divide", np.floor_divide)):
        want = ref(a, b)
        close(getattr(ta, name)(tb), want)
        close(getattr(porta, name)(ta, tb), want)
        if name == "atan2":  # PyTorch's atan2 takes a tensor only
            with pytest.raises(TypeError, match=r"atan2\(\): argument 'other' \(position 2\) must be Tensor"):
                ta.atan2(0.7)
        else:
            close(getattr(ta, name)(0.7), ref(a, 0.7))  # the scalar form
        y = ta.clone()
        getattr(y, name + "_")(tb)
        close(y, want)
    close(ta.arctan2(tb), np.arctan2(a, b))
    close(porta.arctan2(ta, tb), np.arctan2(a, b))
    with np.errstate(all="ignore"):  # float zero divisors: inf and NaN, as NumPy and PyTorch
        z = np.array([1.0, -1.0, 0.0])
        for name, ref in (("remainder", np.remainder), ("fmod", np.fmod), ("floor_divide", np.floor_divide)):
            close(getattr(f64(z, device), name)(0.0), ref(z, 0.0))
            close(getattr(f64(z, device), name)(f64([0.0, 0.0, 0.0], device)), ref(z, 0.0))


def test_atan2_quadrants_and_integers(device):
    y, x = [1.0, 1.0, -1.0, -1.0, 0.0, 0.0], [1.0, -1.0, -1.0, 1.0, -1.0, 1.0]
    close(f64(y, device).atan2(f64(x, device)), [math.atan2(p, q) for p, q in zip(y, x)])
    got = porta.tensor([1, -2], device=device).atan2(porta.tensor([3, 4], device=device))
    assert got.dtype is porta.float32
    close(got, [math.atan2(1, 3), math.atan2(-2, 4)], rtol=1e-6)


_INTS = list(range(-9, 10))
_DIVISORS = [-4, -3, -2, -1, 1, 2, 3, 5]


@pytest.mark.parametrize("dtype", [porta.int64, porta.int32])
def test_integer_percent_and_floordiv_are_pythons(dtype, device):
    t = porta.tensor(_INTS, dtype=dtype, device=device)
    for b in _DIVISORS:
        assert (t % b).tolist() == [a % b for a in _INTS], b
        assert (t // b).tolist() == [a // b for a in _INTS], b
        assert t.fmod(b).tolist() == [int(math.fmod(a, b)) for a in _INTS], b
        assert (t % b).dtype is dtype and (t // b).dtype is dtype
    # tensor divisors, broadcast over every pair
    a = porta.tensor(_INTS, dtype=dtype, device=device).view(-1, 1)
    d = porta.tensor(_DIVISORS, dtype=dtype, device=device)
    assert (a % d).tolist() == [[x % y for y in _DIVISORS] for x in _INTS]
    assert (a // d).tolist() == [[x // y for y in _DIVISORS] for x in _INTS]
    assert -7 // porta.tensor([2], dtype=dtype, device=device).item() == -4
    assert (porta.tensor([-7], dtype=dtype, device=device) // 2).item() == -4
    assert (porta.tensor([-7], dtype=dtype, device=device) % 2).item() == 1
    # reflected: number % tensor, number // tensor
    assert (-7 % d).tolist() == [-7 % y for y in _DIVISORS] and (7 // d).tolist() == [7 // y for y in _DIVISORS]
    assert (np.int64(-7) // d).tolist() == [-7 // y for y in _DIVISORS]
    # in place: %= and //= keep the tensor
    x = porta.tensor([-7, 7, -8], dtype=dtype, device=device)
    same = x
    x %= 3
    assert x is same and x.tolist() == [-7 % 3, 7 % 3, -8 % 3]
    x = porta.tensor([-7, 7, -8], dtype=dtype, device=device)
    x //= -3
    assert x is same or x.tolist() == [-7 // -3, 7 // -3, -8 // -3]
    assert x.tolist() == [-7 // -3, 7 // -3, -8 // -3]


def test_float_percent_and_floordiv_are_pythons(device):
    a_values = [-7.5, -7.0, -2.0, -0.3, 0.0, 0.3, 2.0, 5.25, 1e10, -1e-10, 1.0, 0.7]
    b_values = [-2.0, -0.5, 0.1, 0.5, 2.0, 3.0, -3.0, 1e-3, 0.3, 7.0]
    a = f64(a_values, device).view(-1, 1)
    b = f64(b_values, device)
    assert (a % b).tolist() == [[x % y for y in b_values] for x in a_values]
    assert (a // b).tolist() == [[x // y for y in b_values] for x in a_values]
    for y in b_values:
        assert (a.view(-1) % y).tolist() == [x % y for x in a_values]
        assert (a.view(-1) // y).tolist() == [x // y for x in a_values]
    assert (f64([2.0], device) // 0.1).item() == 19.0 == 2.0 // 0.1  # exact, not floor(2.0 / 0.1) = 20
    assert (porta.tensor([2.0], device=device) // 0.1).item() == 19.0  # float32 too
    assert (2.0 // f64([0.1], device)).item() == 19.0
    assert (-7.5 % f64([2.0], device)).item() == 0.5 and (7.5 % f64([-2.0], device)).item() == -0.5
    x = f64([-7.5, 7.5], device)
    x %= 2
    assert x.tolist() == [0.5, 1.5]
    x //= 0.5
    assert x.tolist() == [1.0, 3.0]
    # an integer tensor with a float operand is float32, as in PyTorch and Python
    i = porta.tensor([-7, 7], device=device)
    assert (i % 2.5).dtype is porta.float32 and (i % 2.5).tolist() == [-7 % 2.5, 7 % 2.5]
    assert (i // 2.5).tolist() == [-7 // 2.5, 7 // 2.5]
    with pytest.raises(TypeError, match="can't be cast"):
        i %= 2.5


def test_integer_zero_divisors_raise_zero_division_error(device):
    i = porta.tensor([7, -7, 0], device=device)
    z = porta.tensor([1, 0, 2], device=device)
    calls = [lambda: i % 0, lambda: i // 0, lambda: i.fmod(0), lambda: i % z, lambda: i // z, lambda: i.fmod(z),
             lambda: 5 // z, lambda: 5 % z, lambda: porta.remainder(i, z), lambda: i.remainder_(0),
             lambda: i.floor_divide_(z), lambda: porta.tensor([3], dtype=porta.int32, device=device) // 0,
             lambda: porta.tensor([3], dtype=porta.uint8, device=device) % 0]
    for c in calls:
        with pytest.raises(porta.InvalidArgumentError, match="ZeroDivisionError"):
            c()
    assert i.tolist() == [7, -7, 0]  # a refused in-place op wrote nothing
    assert (f64([1.0], device) // 0).item() == INF  # floats divide by zero as IEEE says


def test_operators_without_a_meaning_defer_to_python():
    x = porta.tensor([1, 2])
    with pytest.raises(TypeError):
        x % "a"
    with pytest.raises(TypeError):
        x // None
    assert (x % [2, 3]).tolist() == [1, 2] and ([3, 3] // x).tolist() == [3, 1]


# ------------------------------------------------------------ clamp


def test_clamp_with_number_and_tensor_bounds(device):
    n = np.array([-2.0, -0.5, 0.0, 0.7, 3.0])
    x = f64(n, device)
    close(x.clamp(-1, 1), np.clip(n, -1, 1))
    close(x.clamp(min=0.0), np.maximum(n, 0))
    close(x.clamp(max=0.5), np.minimum(n, 0.5))
    close(porta.clamp(x, -1, 1), np.clip(n, -1, 1))
    close(x.clip(-1, 1), np.clip(n, -1, 1))
    close(porta.clip(x, max=0.0), np.minimum(n, 0))
    close(x.clamp_min(0.0), np.maximum(n, 0))
    close(x.clamp_max(0.0), np.minimum(n, 0))
    close(porta.clamp_min(x, 0.0), np.maximum(n, 0))
    lo, hi = np.array([-1.0, 0.0, 0.5, 1.0, 2.0]), np.array([0.0, 1.0, 1.0, 1.0, 2.5])
    close(x.clamp(f64(lo, device), f64(hi, device)), np.minimum(np.maximum(n, lo), hi))
    close(x.clamp(min=f64(lo, device)), np.maximum(n, lo))
    close(x.clamp(max=f64(0.0, device)), np.minimum(n, 0))  # a 0-d bound broadcasts
    close(x.clamp(min=-1, max=f64(hi, device)), np.minimum(np.maximum(n, -1), hi))  # mixed: number and tensor
    close(x.clamp(np.float64(-1.0), np.array(1.0)), np.clip(n, -1, 1))  # NumPy scalars
    close(x.clamp(1, -1), [-1.0] * 5)  # min > max gives max everywhere, as PyTorch
    close(x.clamp(NAN, 1), [NAN] * 5)  # a NaN bound gives NaN
    close(f64([NAN, 2.0], device).clamp(0, 1), [NAN, 1.0])  # NaN stays NaN
    with pytest.raises(porta.InvalidArgumentError, match="at least one of min and max"):
        x.clamp()
    with pytest.raises(TypeError, match="min must be a number, a tensor or None"):
        x.clamp(min="0")


def test_clamp_dtypes(device):
    i = porta.tensor([1, 5, 9], device=device)
    assert i.clamp(2, 6).tolist() == [2, 5, 6] and i.clamp(2, 6).dtype is porta.int64
    assert i.clamp(max=2.5).tolist() == [1.0, 2.5, 2.5] and i.clamp(max=2.5).dtype is porta.float32
    assert i.clamp(2.0).dtype is porta.float32  # a float bound makes a float, even integral (as PyTorch)
    assert i.clamp(min=porta.tensor(2.5, device=device)).tolist() == [2.5, 5.0, 9.0]
    u = porta.tensor([0, 100, 255], dtype=porta.uint8, device=device)
    assert u.clamp(10, 200).tolist() == [10, 100, 200] and u.clamp(10, 200).dtype is porta.uint8
    big = porta.tensor([2**62 + 1, 2**62 + 3], device=device)
    assert big.clamp(max=2**62 + 2).tolist() == [2**62 + 1, 2**62 + 2]  # exact beyond 2**53
    with pytest.raises(porta.DtypeError, match="bool"):
        porta.tensor([True, False], device=device).clamp(0, 1)


def test_clamp_in_place(device):
    x = f64([-2.0, 0.5, 3.0], device)
    assert x.clamp_(0, 1) is x and x.tolist() == [0.0, 0.5, 1.0]
    x.clamp_min_(0.75)
    assert x.tolist() == [0.75, 0.75, 1.0]
    x.clamp_max_(f64([0.8, 0.7, 0.9], device))
    assert x.tolist() == [0.75, 0.7, 0.9]
    x.clip_(max=0.5)
    assert x.tolist() == [0.5, 0.5, 0.5]
    i = porta.tensor([1, 5], device=device)
    with pytest.raises(TypeError, match="can't be cast"):
        i.clamp_(min=1.5)
    with pytest.raises(TypeError, match="can't be cast"):
        i.clamp_(max=porta.tensor(2.5, device=device))
    assert i.tolist() == [1, 5]
    assert i.clamp_(2, 4).tolist() == [2, 4]


# ------------------------------------------------------------ float classes, nan_to_num


def test_isnan_isinf_isfinite_against_numpy(device):
    n = np.array([NAN, INF, -INF, 0.0, -1.5, 1e308])
    x = f64(n, device)
    for name, ref in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)):
        got = getattr(x, name)()
        assert got.dtype is porta.bool_ and got.tolist() == ref(n).tolist()
        n32 = np.array([NAN, INF, -INF, 0.0, -1.5, 3e38], dtype=np.float32)
        assert getattr(porta, name)(porta.tensor(n32, device=device)).tolist() == ref(n32).tolist()
        for ints in (porta.tensor([0, -3, 7], device=device), porta.tensor([True, False], device=device),
                     porta.tensor([1, 2], dtype=porta.uint8, device=device)):
            assert getattr(ints, name)().tolist() == [name == "isfinite"] * ints.numel()


def test_nan_to_num_against_numpy(device):
    n = np.array([NAN, INF, -INF, 1.5, -0.25])
    close(f64(n, device).nan_to_num(), np.nan_to_num(n))
    close(porta.nan_to_num(f64(n, device), nan=1.0, posinf=2.0, neginf=-3.0),
          np.nan_to_num(n, nan=1.0, posinf=2.0, neginf=-3.0))
    close(f64(n, device).nan_to_num(posinf=9.0), np.nan_to_num(n, posinf=9.0))
    close(f64(n, device).nan_to_num(nan=None), np.nan_to_num(n))  # None: the default, as PyTorch
    n32 = n.astype(np.float32)
    got = porta.tensor(n32, device=device).nan_to_num()
    assert got.dtype is porta.float32 and got.tolist() == np.nan_to_num(n32).tolist()  # float32's max/lowest
    i = porta.tensor([1, -2], device=device)
    assert i.nan_to_num(nan=5.0).tolist() == [1, -2] and i.nan_to_num().dtype is porta.int64
    y = f64(n, device)
    assert y.nan_to_num_(0.5, 1.0, -1.0) is y and y.tolist() == [0.5, 1.0, -1.0, 1.5, -0.25]
    with pytest.raises(TypeError, match="posinf must be a number or None"):
        y.nan_to_num(posinf="big")


# ------------------------------------------------------------ logical ops


def test_logical_ops_on_every_dtype_against_numpy(device):
    a = np.array([0.0, 1.0, NAN, -2.0, 0.0, 3.0])
    b = np.array([0, 1, 1, 0, 0, 2])
    ta, tb = f64(a, device), porta.tensor(b, device=device)
    for name, ref in (("logical_and", np.logical_and), ("logical_or", np.logical_or),
                      ("logical_xor", np.logical_xor)):
        got = getattr(ta, name)(tb)
        assert got.dtype is porta.bool_ and got.tolist() == ref(a, b).tolist(), name  # NaN is true
        assert getattr(porta, name)(tb, ta).tolist() == ref(b, a).tolist()
        u = porta.tensor([0, 5], dtype=porta.uint8, device=device)
        assert getattr(u, name)(porta.tensor([True, True], device=device)).tolist() == ref([0, 5], [1, 1]).tolist()
    assert ta.logical_not().tolist() == np.logical_not(a).tolist()
    assert porta.logical_not(tb).tolist() == np.logical_not(b).tolist()
    assert ta.logical_and(porta.tensor([[1.0], [0.0]], device=device)).shape == (2, 6)  # broadcast
    x = f64([0.0, 2.0, NAN], device)
    assert x.logical_not_() is x and x.tolist() == [1.0, 0.0, 0.0] and x.dtype is porta.float64
    x.logical_or_(f64([0.0, 0.0, 1.0], device))
    assert x.tolist() == [1.0, 0.0, 1.0]
    with pytest.raises(TypeError, match=r"argument 'other' \(position 2\) must be Tensor, not object"):
        ta.logical_and(object())
    with pytest.raises(TypeError, match=r"argument 'other' \(position 2\) must be Tensor, not int"):
        ta.logical_and(1)  # as PyTorch: a number is not a tensor here


def test_bool_operators(device):
    m = porta.tensor([True, True, False, False], device=device)
    k = porta.tensor([True, False, True, False], device=device)
    assert (m & k).tolist() == [True, False, False, False]
    assert (m | k).tolist() == [True, True, True, False]
    assert (m ^ k).tolist() == [False, True, True, False]
    assert (~m).tolist() == [False, False, True, True]
    assert (m & True).tolist() == m.tolist() and (False | m).tolist() == m.tolist()
    assert (True ^ m).tolist() == (~m).tolist() and (m & [True, False, True, False]).tolist() == (m & k).tolist()
    same = m
    m &= k
    assert m is same and m.tolist() == [True, False, False, False]
    m |= porta.tensor(True, device=device)
    assert m.tolist() == [True] * 4
    # integers: bitwise, as PyTorch's (bool beside an integer promotes to it); floating operands are refused
    i = porta.tensor([12, -3], device=device)
    assert (i & 10).tolist() == [8, 8] and (i | 1).tolist() == [13, -3] and (i ^ True).tolist() == [13, -4]
    assert (~i).tolist() == [-13, 2] and (i << 2).tolist() == [48, -12] and (i >> 1).tolist() == [6, -2]
    assert (1 << porta.tensor([0, 3], device=device)).tolist() == [1, 8]
    for c in (lambda: m | porta.tensor([1.0] * 4, device=device), lambda: ~porta.tensor([1.0], device=device),
              lambda: m << 1.5):
        with pytest.raises(porta.DtypeError, match="not defined for float32 tensors"):
            c()
    with pytest.raises(TypeError):
        m & "x"


# ------------------------------------------------------------ lerp, logsumexp


def test_lerp(device):
    s, e = np.array([0.0, 1.0, -2.0, 5.0]), np.array([10.0, 3.0, 2.0, -1.0])
    ts, te = f64(s, device), f64(e, device)
    for w in (0.0, 0.25, 0.5, 0.9, 1.0, -0.5, 2.0):
        close(ts.lerp(te, w), s + w * (e - s), rtol=1e-15, atol=1e-15)
    assert ts.lerp(te, 1.0).tolist() == e.tolist()  # weight 1 gives end exactly
    w = np.array([0.1, 0.6, 1.0, 0.0])
    close(porta.lerp(ts, te, f64(w, device)), s + w * (e - s), rtol=1e-15, atol=1e-15)
    assert porta.lerp(ts, te, f64(w, device)).tolist()[2:] == [2.0, 5.0]
    f = porta.tensor([0.0, 1.0], device=device)
    assert f.lerp(porta.tensor([1.0, 3.0], device=device), 0.5).tolist() == [0.5, 2.0]  # a number: start's dtype
    assert f.lerp(porta.tensor([1.0], device=device), 0.5).dtype is porta.float32
    y = ts.clone()
    assert y.lerp_(te, 0.5) is y and y.tolist() == ((s + e) / 2).tolist()
    with pytest.raises(porta.DtypeError, match="one dtype"):
        ts.lerp(te.float(), 0.5)
    with pytest.raises(porta.DtypeError, match="floating"):
        porta.tensor([1, 2], device=device).lerp(porta.tensor([3, 4], device=device), 0.5)
    with pytest.raises(TypeError, match="end must be a Tensor"):
        ts.lerp(1.0, 0.5)
    with pytest.raises(TypeError, match="weight must be a number or a Tensor"):
        ts.lerp(te, "half")


def _np_logsumexp(a, axis, keepdims=False):
    m = np.max(a, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def test_logsumexp_against_numpy(device):
    a = np.arange(12.0).reshape(3, 4) / 3 - 1
    x = f64(a, device)
    close(x.logsumexp(1), _np_logsumexp(a, 1))
    close(x.logsumexp(-2), _np_logsumexp(a, 0))
    close(porta.logsumexp(x, (0, 1)), _np_logsumexp(a, (0, 1)))
    got = x.logsumexp(0, keepdim=True)
    assert got.shape == (1, 4)
    close(got, _np_logsumexp(a, 0, keepdims=True))
    big = f64([1000.0, 1000.0, -INF], device)  # no overflow; -inf terms add nothing
    close(big.logsumexp(0), 1000.0 + math.log(2))
    assert f64([-INF, -INF], device).logsumexp(0).item() == -INF
    i = porta.tensor([1, 2, 3], device=device).logsumexp(0)
    assert i.dtype is porta.float32
    close(i, math.log(math.e + math.e ** 2 + math.e ** 3), rtol=1e-6)
    with pytest.raises(TypeError):
        x.logsumexp()  # dim is required, as in PyTorch
    with pytest.raises(TypeError, match="dim must be an int or a tuple"):
        x.logsumexp(None)
    with pytest.raises(IndexError):
        x.logsumexp(2)


# ------------------------------------------------------------ activations (nn.functional)


def _gelu(v):
    return 0.5 * v * (1 + math.erf(v / math.sqrt(2)))


_K = math.sqrt(2 / math.pi)


def _gelu_tanh(v):
    return 0.5 * v * (1 + math.tanh(_K * (v + 0.044715 * v ** 3)))


def _softplus(v, beta=1.0, threshold=20.0):
    return v if beta * v > threshold else math.log1p(math.exp(beta * v)) / beta


def _sigmoid(v):
    return 1 / (1 + math.exp(-v))


XS = [-25.0, -3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0, 5.0, 30.0]


def test_activations_in_float64_against_math(device):
    x = f64(XS, device)
    cases = [
        (F.gelu(x), [_gelu(v) for v in XS]),
        (F.gelu(x, approximate="none"), [_gelu(v) for v in XS]),
        (F.gelu(x, approximate="tanh"), [_gelu_tanh(v) for v in XS]),
        (F.silu(x), [v * _sigmoid(v) for v in XS]),
        (F.softplus(x), [_softplus(v) for v in XS]),
        (F.softplus(x, beta=2.0, threshold=5.0), [_softplus(v, 2.0, 5.0) for v in XS]),
        (F.softplus(x, 0.5), [_softplus(v, 0.5) for v in XS]),
        (F.leaky_relu(x), [v if v > 0 else 0.01 * v for v in XS]),
        (F.leaky_relu(x, 0.2), [v if v > 0 else 0.2 * v for v in XS]),
        (F.elu(x), [v if v > 0 else math.expm1(v) for v in XS]),
        (F.elu(x, alpha=0.5), [v if v > 0 else 0.5 * math.expm1(v) for v in XS]),
        (F.hardtanh(x), [min(max(v, -1.0), 1.0) for v in XS]),
        (F.hardtanh(x, -2.0, 3.0), [min(max(v, -2.0), 3.0) for v in XS]),
        (F.relu6(x), [min(max(v, 0.0), 6.0) for v in XS]),
        (F.logsigmoid(x), [-math.log1p(math.exp(-v)) if v > -20 else v - math.log1p(math.exp(v)) for v in XS]),
    ]
    for got, want in cases:
        assert got.dtype is porta.float64 and got.device == x.device
        close(got, want, rtol=1e-12, atol=1e-15)
    f = F.gelu(porta.tensor(XS, device=device))
    assert f.dtype is porta.float32
    close(f, [_gelu(v) for v in XS], rtol=1e-6, atol=1e-6)


def test_activations_refuse_bad_arguments():
    x = f64([1.0, -1.0])
    with pytest.raises(ValueError, match=r"gelu\(\): approximate must be 'none' or 'tanh', got 'fast'"):
        F.gelu(x, approximate="fast")
    with pytest.raises(ValueError, match="approximate must be 'none' or 'tanh', got None"):
        F.gelu(x, approximate=None)
    with pytest.raises(TypeError, match=r"softplus\(\): beta must be a number"):
        F.softplus(x, beta="2")
    with pytest.raises(TypeError, match=r"leaky_relu\(\): negative_slope must be a number"):
        F.leaky_relu(x, negative_slope=None)
    with pytest.raises(TypeError, match=r"elu\(\): alpha must be a number"):
        F.elu(x, alpha=[1.0])
    with pytest.raises(TypeError, match=r"hardtanh\(\): max_val must be a number"):
        F.hardtanh(x, max_val="1")
    with pytest.raises(ValueError, match="min_val .* must not exceed max_val"):
        F.hardtanh(x, 2.0, 1.0)
    with pytest.raises(ValueError, match="beta must not be 0"):
        F.softplus(x, beta=0)
    for f in (F.gelu, F.silu, F.softplus, F.leaky_relu, F.elu, F.hardtanh, F.relu6, F.logsigmoid):
        with pytest.raises(porta.DtypeError, match="floating"):  # as PyTorch: floating tensors only
            f(porta.tensor([1, 2]))
    with pytest.raises(TypeError):
        F.silu(x, beta=1.0)  # an argument PyTorch lacks is not silently taken


def test_activations_in_place(device):
    for name, make, want in [
        ("silu", lambda h: F.silu(h, inplace=True), lambda v: v * _sigmoid(v)),
        ("leaky_relu", lambda h: F.leaky_relu(h, 0.1, inplace=True), lambda v: v if v > 0 else 0.1 * v),
        ("leaky_relu_", lambda h: F.leaky_relu_(h, 0.1), lambda v: v if v > 0 else 0.1 * v),
        ("elu", lambda h: F.elu(h, inplace=True), lambda v: v if v > 0 else math.expm1(v)),
        ("elu_", F.elu_, lambda v: v if v > 0 else math.expm1(v)),
        ("hardtanh", lambda h: F.hardtanh(h, -0.5, 0.5, inplace=True), lambda v: min(max(v, -0.5), 0.5)),
        ("hardtanh_", F.hardtanh_, lambda v: min(max(v, -1.0), 1.0)),
        ("relu6", lambda h: F.relu6(h, inplace=True), lambda v: min(max(v, 0.0), 6.0)),
    ]:
        x = f64([-2.0, -0.1, 0.6, 4.0], device, requires_grad=True)
        h = x * 2
        out = make(h)
        assert out is h, name  # the input itself, changed
        close(h, [want(2 * v) for v in [-2.0, -0.1, 0.6, 4.0]])
        # the gradient flows through the write into h, as PyTorch's in-place activations (by finite differences)
        h.sum().backward()
        eps = 1e-6
        numeric = [(want(2 * (v + eps)) - want(2 * (v - eps))) / (2 * eps) for v in [-2.0, -0.1, 0.6, 4.0]]
        close(x.grad, numeric, rtol=1e-6, atol=1e-6)
        with pytest.raises(porta.InvalidArgumentError, match="leaf tensor that requires grad"):
            make(x)  # as PyTorch: a leaf that requires grad cannot be written
        with porta.no_grad():
            make(x)
        close(x, [want(v) for v in [-2.0, -0.1, 0.6, 4.0]])


# ------------------------------------------------------------ gradients


def _grad(f, values, device="cpu"):
    x = f64(values, device, requires_grad=True)
    f(x).sum().backward()
    return x.grad


def test_relu_gradient_is_pytorchs_threshold_backward(device):
    # 0 where the output is <= 0, the incoming gradient elsewhere: an infinite gradient at x <= 0 gives 0
    # (not inf * 0 = NaN), and a NaN input passes its gradient on (NaN <= 0 is false), as PyTorch's.
    x = f64([-1.0, 0.0, 2.0, float("nan")], device, requires_grad=True)
    porta.relu(x).backward(f64([float("inf"), float("inf"), 3.0, 5.0], device))
    assert x.grad.tolist() == [0.0, 0.0, 3.0, 5.0]


def test_gradients_of_the_activations(device):
    xs = [-3.0, -1.0, -0.2, 0.3, 1.0, 2.5]
    phi = [math.exp(-v * v / 2) / math.sqrt(2 * math.pi) for v in xs]
    close(_grad(F.gelu, xs, device), [0.5 * (1 + math.erf(v / math.sqrt(2))) + v * p for v, p in zip(xs, phi)])

    def gelu_tanh_grad(v):
        t = math.tanh(_K * (v + 0.044715 * v ** 3))
        return 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * _K * (1 + 3 * 0.044715 * v * v)
    close(_grad(lambda x: F.gelu(x, approximate="tanh"), xs, device), [gelu_tanh_grad(v) for v in xs])
    close(_grad(F.silu, xs, device), [_sigmoid(v) * (1 + v * (1 - _sigmoid(v))) for v in xs])
    close(_grad(lambda x: F.softplus(x, beta=2.0, threshold=3.0), xs, device),
          [1.0 if 2 * v > 3 else _sigmoid(2 * v) for v in xs])
    close(_grad(lambda x: F.elu(x, alpha=0.7), xs, device), [1.0 if v > 0 else 0.7 * math.exp(v) for v in xs])
    close(_grad(lambda x: F.leaky_relu(x, 0.05), xs, device), [1.0 if v > 0 else 0.05 for v in xs])
    close(_grad(F.logsigmoid, xs, device), [1 - _sigmoid(v) for v in xs])
    # hardtanh and clamp with number bounds: no gradient at or beyond the bounds; a tensor bound is maximum's
    # (the tie at the bound splits the gradient): PyTorch 2.15's rules, the oracle's
    b = [-2.0, -1.0, 0.0, 0.5, 1.0, 3.0]
    assert _grad(F.hardtanh, b, device).tolist() == [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert _grad(lambda x: x.clamp(-1, 1), b, device).tolist() == [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert _grad(lambda x: x.clamp(min=f64(0.0, device)), b, device).tolist() == [0.0, 0.0, 0.5, 1.0, 1.0, 1.0]


def test_gradients_of_lerp_logsumexp_nan_to_num_atan2(device):
    s = f64([0.0, 1.0, -2.0], device, requires_grad=True)
    e = f64([4.0, -1.0, 2.0], device, requires_grad=True)
    w = f64([0.25, 0.75, 1.0], device, requires_grad=True)
    porta.lerp(s, e, w).sum().backward()
    close(s.grad, [0.75, 0.25, 0.0])
    close(e.grad, [0.25, 0.75, 1.0])
    close(w.grad, [4.0, -2.0, 4.0])  # end - start
    a = np.array([[0.5, -1.0, 2.0], [3.0, 0.0, -4.0]])
    x = f64(a, device, requires_grad=True)
    x.logsumexp(1).sum().backward()
    close(x.grad, np.exp(a) / np.exp(a).sum(axis=1, keepdims=True))  # the softmax
    close(_grad(lambda t: t.nan_to_num(), [NAN, 2.0, INF, -1.0], device), [0.0, 1.0, 0.0, 1.0])
    y = f64([1.0, -2.0], device, requires_grad=True)
    q = f64([3.0, 0.5], device, requires_grad=True)
    y.atan2(q).sum().backward()
    r2 = [1.0 + 9.0, 4.0 + 0.25]
    close(y.grad, [3.0 / r2[0], 0.5 / r2[1]])
    close(q.grad, [-1.0 / r2[0], 2.0 / r2[1]])
    close(_grad(lambda t: t.sin() * t.exp2(), [0.5, -1.0], device),
          [math.cos(v) * 2 ** v + math.sin(v) * 2 ** v * math.log(2) for v in [0.5, -1.0]])
    close(_grad(lambda t: t.erfinv(), [0.0, 0.5], device),
          [math.sqrt(math.pi) / 2 * math.exp(v ** 2) for v in f64([0.0, 0.5]).erfinv().tolist()])
    close(_grad(lambda t: t % 2.0, [3.5, -0.5], device), [1.0, 1.0])
    assert _grad(lambda t: (t // 2.0) + t.floor() + t.round() + t.sign(), [3.5, -0.5], device).tolist() == [0, 0]


# ------------------------------------------------------------ nn modules


def test_modules_repr_as_torch():
    assert [repr(m) for m in (nn.GELU(), nn.GELU("tanh"), nn.SiLU(), nn.SiLU(inplace=True), nn.Softplus(),
                              nn.Softplus(beta=2, threshold=10), nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True),
                              nn.ELU(), nn.ELU(alpha=0.5, inplace=True), nn.Hardtanh(),
                              nn.Hardtanh(-2.0, 2.0, True), nn.ReLU6(), nn.ReLU6(inplace=True),
                              nn.LogSigmoid())] == [
        "GELU(approximate='none')", "GELU(approximate='tanh')", "SiLU()", "SiLU(inplace=True)",
        "Softplus(beta=1.0, threshold=20.0)", "Softplus(beta=2, threshold=10)", "LeakyReLU(negative_slope=0.01)",
        "LeakyReLU(negative_slope=0.2, inplace=True)", "ELU(alpha=1.0)", "ELU(alpha=0.5, inplace=True)",
        "Hardtanh(min_val=-1.0, max_val=1.0)", "Hardtanh(min_val=-2.0, max_val=2.0, inplace=True)", "ReLU6()",
        "ReLU6(inplace=True)", "LogSigmoid()"]
    assert "(1): GELU(approximate='tanh')" in repr(nn.Sequential(nn.Linear(2, 2), nn.GELU("tanh")))


def test_modules_forward_and_refuse_bad_arguments(device):
    x = f64(XS, device)
    for m, f in [(nn.GELU(), F.gelu), (nn.GELU("tanh"), lambda t: F.gelu(t, approximate="tanh")),
                 (nn.SiLU(), F.silu), (nn.Softplus(2.0, 4.0), lambda t: F.softplus(t, 2.0, 4.0)),
                 (nn.LeakyReLU(0.3), lambda t: F.leaky_relu(t, 0.3)), (nn.ELU(0.5), lambda t: F.elu(t, 0.5)),
                 (nn.Hardtanh(-2, 2), lambda t: F.hardtanh(t, -2, 2)), (nn.ReLU6(), F.relu6),
                 (nn.LogSigmoid(), F.logsigmoid)]:
        assert m(x).tolist() == f(x).tolist(), repr(m)
    h = f64([-1.0, 7.0], device)
    assert nn.ReLU6(inplace=True)(h) is h and h.tolist() == [0.0, 6.0]
    h = f64([-1.0, 7.0], device)
    assert nn.LeakyReLU(0.5, inplace=True)(h) is h and h.tolist() == [-0.5, 7.0]
    model = nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.Linear(4, 2), nn.ELU()).to(device)
    out = model(porta.randn(5, 3, device=device))
    out.sum().backward()
    assert out.shape == (5, 2) and all(p.grad is not None for p in model.parameters())
    with pytest.raises(ValueError, match=r"GELU\(\): approximate must be 'none' or 'tanh', got 'fast'"):
        nn.GELU("fast")
    for lo, hi in ((2, 1), (1, 1)):  # PyTorch asserts max_val > min_val
        with pytest.raises(ValueError, match=rf"Hardtanh: max_val \({hi}\) must be greater than min_val \({lo}\)"):
            nn.Hardtanh(lo, hi)
    with pytest.raises(TypeError):
        nn.SiLU(approximate="tanh")


# ------------------------------------------------------------ against PyTorch, when installed


@needs_torch
def test_against_torch():
    rng = np.random.default_rng(5)
    a = rng.normal(size=(4, 5)) * 3
    b = rng.normal(size=(4, 5)) * 2 + 0.1
    pa, pb, ta, tb = f64(a), f64(b), torch.tensor(a), torch.tensor(b)
    pairs = [(pa.sin(), ta.sin()), (pa.erf(), ta.erf()), (pa.exp2(), ta.exp2()), (pa.sign(), ta.sign()),
             (pa.round(), ta.round()), (pa.atan2(pb), ta.atan2(tb)), (pa % pb, ta % tb), (pa // pb, ta // tb),
             (pa.fmod(pb), ta.fmod(tb)), (pa.clamp(-1, 1), ta.clamp(-1, 1)), (pa.clamp(pb), ta.clamp(tb)),
             (pa.lerp(pb, 0.3), ta.lerp(tb, 0.3)), (pa.logsumexp(1), ta.logsumexp(1)),
             (F.gelu(pa), torch.nn.functional.gelu(ta)),
             (F.gelu(pa, approximate="tanh"), torch.nn.functional.gelu(ta, approximate="tanh")),
             (F.silu(pa), torch.nn.functional.silu(ta)), (F.softplus(pa, 2, 3), torch.nn.functional.softplus(ta, 2, 3)),
             (F.leaky_relu(pa, 0.2), torch.nn.functional.leaky_relu(ta, 0.2)), (F.elu(pa), torch.nn.functional.elu(ta)),
             (F.hardtanh(pa), torch.nn.functional.hardtanh(ta)), (F.relu6(pa), torch.nn.functional.relu6(ta)),
             (F.logsigmoid(pa), torch.nn.functional.logsigmoid(ta)), (pa.logical_xor(pb > 0), ta.logical_xor(tb > 0))]
    for got, want in pairs:
        close(got, want.double().numpy(), rtol=1e-12, atol=1e-14)
    ints = list(itertools.product(range(-6, 7), [-3, -2, 2, 3]))
    pi, pd = porta.tensor([p for p, _ in ints]), porta.tensor([q for _, q in ints])
    ti, td = torch.tensor([p for p, _ in ints]), torch.tensor([q for _, q in ints])
    assert (pi % pd).tolist() == (ti % td).tolist() and (pi // pd).tolist() == (ti // td).tolist()
    assert pi.fmod(pd).tolist() == ti.fmod(td).tolist()
    for m, tm in [(nn.GELU("tanh"), torch.nn.GELU("tanh")), (nn.Softplus(), torch.nn.Softplus()),
                  (nn.LeakyReLU(0.2, True), torch.nn.LeakyReLU(0.2, True)), (nn.ELU(), torch.nn.ELU()),
                  (nn.Hardtanh(-2.0, 2.0), torch.nn.Hardtanh(-2.0, 2.0)), (nn.ReLU6(), torch.nn.ReLU6()),
                  (nn.SiLU(), torch.nn.SiLU()), (nn.LogSigmoid(), torch.nn.LogSigmoid())]:
        assert repr(m) == repr(tm)
    x, tx = f64(a[0], requires_grad=True), torch.tensor(a[0], requires_grad=True)
    (F.gelu(x) * F.softplus(x)).sum().backward()
    (torch.nn.functional.gelu(tx) * torch.nn.functional.softplus(tx)).sum().backward()
    close(x.grad, tx.grad.numpy(), rtol=1e-12)
