"""Reductions, scans and products: sum, mean, prod, max/min (full, with dim, and elementwise), amax/amin,
argmax/argmin, all/any, count_nonzero, std/var (and _mean), norm, logsumexp, median/nanmedian, mode, kthvalue,
cumsum/cumprod/cummax/cummin, softmax/log_softmax, histc, bincount, equal, allclose, and the matrix products
(matmul, mm, bmm, mv, dot, outer/ger, addmm, baddbmm, einsum); nansum and nanmean too.

Besides the sweeps over dtypes, dims, 0-d and 0-size inputs and layouts, the cases look at the accumulation
dtype (float16/bfloat16 data around 100, whose sums overflow or stall if accumulated in the dtype itself), the
result dtype of integer and bool sums and products, NaN propagation, ties (indices, and the gradient at ties,
which max(dim) gives to the returned index and amax splits evenly), the gradient of a constant's std/var, and
dtype= keywords that must not be accepted and ignored."""
import dataclasses

from engine import invoke
from spec import DTYPES, FLOATS, INTS, Case, D, Seq, T

from .common import SHAPES_0, every_dtype, grad_inputs, layouts

NAN, INF = float("nan"), float("inf")
# ordinary data around 100: 400 of them sum to about 40000 (fine in float16), but their squares do not fit
HUNDREDS = (100.0, 99.5, 101.25, 98.75, 100.5, 99.0, 100.25, 101.0)
NAN_MID = (1.0, NAN, 3.0, NAN, -2.0, 0.5)  # NaN not first, twice
TIES = (1.0, 3.0, 3.0, -1.0, 3.0, 0.0)  # the maximum three times


def _pair(values, indices):
    """An out= pair (values, indices)."""
    return Seq((values, indices), "tuple")


def _out_from_empty(fn, *dtypes):
    """A program: torch.fn(*args, out=...) into out tensors made empty (L.empty(0)), which the call must resize;
    the result and the out tensors come back. (A case's T tensors come from NumPy arrays, whose storage PyTorch
    cannot resize, so an out= T of the wrong size tests that instead.)"""
    def program(L, device, *args, **kw):
        outs = [L.empty(0, dtype=getattr(L, d), device=device) for d in dtypes]
        result = getattr(L, fn)(*args, out=outs[0] if len(outs) == 1 else tuple(outs), **kw)
        return {"result": result, "out": outs}
    return program


def _on_nonleaf(name):
    """An in-place op on a non-leaf (x * 1), so autograd records it; the leaf's gradient is compared."""
    return lambda L, device, x, *rest, **kw: getattr(x * 1, name)(*rest, **kw)


# ---------------------------------------------------------------------------------------------------------
# the plain reductions: a dim (int, tuple or None) and keepdim

# name: (the dtypes PyTorch answers for, whether dim may be a tuple, whether the op takes keepdim, dtype=)
PLAIN = {
    "sum": (DTYPES, True, True, True),
    "nansum": (DTYPES, True, True, True),
    "mean": (FLOATS, True, True, True),
    "nanmean": (FLOATS, True, True, True),
    "prod": (DTYPES, False, True, True),
    "amax": (DTYPES, True, True, False),
    "amin": (DTYPES, True, True, False),
    "argmax": (DTYPES, False, True, False),
    "argmin": (DTYPES, False, True, False),
    "all": (DTYPES, True, True, False),
    "any": (DTYPES, True, True, False),
    "count_nonzero": (DTYPES, True, False, False),
    "logsumexp": (DTYPES, True, True, False),
    "std": (FLOATS, True, True, False),
    "var": (FLOATS, True, True, False),
    "norm": (FLOATS, True, True, True),
}
NEEDS_DIM = ("logsumexp",)
DIFFERENTIABLE = ("sum", "nansum", "mean", "nanmean", "prod", "amax", "amin", "logsumexp", "std", "var", "norm")


# mirrors of another name's implementation (amin of amax, ...) and names Porta lacks get the shorter sweep
LIGHT = ("nansum", "nanmean", "amin", "argmin", "any", "var", "norm")


def plain(name):
    _, tuples, keepdim, _ = PLAIN[name]
    light = name in LIGHT
    fn = f"torch.{name}"
    full = () if name not in NEEDS_DIM else (1,)
    one = full and (0,)

    def positional(x, *dim_keepdim):
        # norm's second positional argument is p
        return (x,) + dim_keepdim if name != "norm" else (x, 2) + dim_keepdim

    # every dtype: the result's dtype (int and bool sums, uint8 all/any, ...) and where PyTorch raises
    for t in every_dtype((2, 3)):
        yield Case(fn, (t,) + full)
        if not light or t.dtype in ("float32", "float16", "int64", "bool"):
            yield Case(fn, (t,), {"dim": 1})
    for d in ("float32", "int64", "bool", "float16"):
        yield Case(f"Tensor.{name}", (T(d, (2, 3)),) + full)
    for t in every_dtype((12,), values="special"):
        yield Case(fn, (t,) + one)
    for t in every_dtype((3, 4), values="special", dtypes=FLOATS + ("int64",) if not light else FLOATS):
        yield Case(fn, (t,), {"dim": 1})
    for d in FLOATS if not light else ("float32",):
        yield Case(fn, (T(d, (2, 3), NAN_MID),), {"dim": 1})
        yield Case(fn, (T(d, (6,), NAN_MID),) + one)
        yield Case(fn, (T(d, (2, 3), TIES),), {"dim": 1})
    # ints at their extremes (the sum wraps in int64)
    yield Case(fn, (T("int64", (4,), (2**62, 2**62, 2**62, 7)),) + one)
    yield Case(fn, (T("int32", (4,), (2**31 - 1, 2**31 - 1, 5, -3)),) + one)
    # dims
    x = T("float32", (2, 3, 4))
    dims = [0, 2, -1, -3, 3, -4] + ([(0, 2), (-1, 0), (2, 1, 0), (0, 0), (), [0, 1]] if tuples else [(0, 2)])
    for dim in dims if not light else dims[:4] + dims[6:8]:
        yield Case(fn, (x,), {"dim": dim})
    for dim in (1, -1, (0, 2)) if not light else (1,):
        yield Case(f"Tensor.{name}", positional(x, dim))
    yield Case(fn, (x,), {"dim": None})
    if keepdim:
        for dim in (1, -1, (0, 2), None) if not light else (1,):
            yield Case(fn, (x,), {"dim": dim, "keepdim": True})
        yield Case(fn, positional(x, 1, True))
        yield Case(fn, (x,), {"keepdim": True})
    else:
        yield Case(fn, (x,), {"dim": 1, "keepdim": True})
    yield Case(fn, (T("int64", (2, 3, 4)),), {"dim": (0, 2) if tuples else 2})
    yield Case(fn, (T("bool", (2, 3, 4)),), {"dim": -1})
    if not light:
        yield Case(fn, (x,), {"dim": 1.0})
        yield Case(fn, (x,), {"dim": True})
    # 0-d and 0-size
    for shape in SHAPES_0:
        yield Case(fn, (T("float32", shape),) + full)
        yield Case(fn, (T("int64", shape),) + full)
        yield Case(fn, (T("float32", shape),), {"dim": 0})
        if not light:
            yield Case(fn, (T("float32", shape),), {"dim": -1})
            if keepdim:
                yield Case(fn, (T("float32", shape),), {"dim": -1, "keepdim": True})
    yield Case(fn, (T("float32", ()),), {"dim": 1})
    yield Case(fn, (T("float32", (2, 0, 3)),), {"dim": 1})
    if not light:
        yield Case(fn, (T("float32", (2, 0, 3)),), {"dim": 2})
        yield Case(fn, (T("int32", (2, 0, 3)),), {"dim": 0})
        if tuples:
            yield Case(fn, (T("float32", (2, 0, 3)),), {"dim": (0, 2)})
            yield Case(fn, (T("float32", ()),), {"dim": ()})
    # layouts
    for t in layouts():
        yield Case(fn, (t,), {"dim": 0})
        if not light:
            yield Case(fn, (t,) + full)
    yield Case(fn, (T("int64", (3, 4), layout="transposed"),), {"dim": -1})
    # accumulation: float16/bfloat16 data around 100
    for d in ("float16", "bfloat16", "float32"):
        yield Case(fn, (T(d, (400,), HUNDREDS),) + one)
        yield Case(fn, (T(d, (2, 200), HUNDREDS),), {"dim": 1})
    yield Case(fn, (T("int8", (400,), (100, 99, 101, 98)),) + one)
    # gradients
    if name in DIFFERENTIABLE:
        for g in grad_inputs():
            yield Case(fn, (g,) + one, grad=True)
            yield Case(fn, (g,), {"dim": 0}, grad=True)
        yield Case(fn, (T("float32", (3, 4), grad=True),), {"dim": -1, "keepdim": True}, grad=True)
        yield Case(fn, (T("float64", (2, 3), TIES, grad=True),) + full, grad=True)
        yield Case(fn, (T("float64", (2, 3), TIES, grad=True),), {"dim": 1}, grad=True)
        yield Case(fn, (T("float64", (2, 3), NAN_MID, grad=True),), {"dim": 1}, grad=True)
        yield Case(fn, (T("float64", (2, 3), (1.5,), grad=True),) + full, grad=True, tag="constant")
        yield Case(fn, (T("float64", (2, 3), (0.0,), grad=True),) + full, grad=True, tag="zeros")
        yield Case(fn, (T("float32", (0, 3), grad=True),), {"dim": 0}, grad=True)
        yield Case(fn, (T("float32", (), grad=True),) + one, grad=True)
        if not light:
            yield Case(fn, (T("float64", (2, 3), (1.5,), grad=True),), {"dim": 0}, grad=True, tag="constant")
            yield Case(fn, (T("float32", (2, 3), "grid", layout="transposed", grad=True),), {"dim": 1}, grad=True)
            if tuples:
                yield Case(fn, (T("float32", (2, 3, 4), grad=True),), {"dim": (0, 2)}, grad=True)
            yield Case(f"Tensor.{name}", positional(T("float32", (3, 4), grad=True), 1), grad=True)


def dtype_keyword():
    """dtype=: an accumulation and result dtype where PyTorch takes it; a TypeError where it does not."""
    for name in ("sum", "nansum", "mean", "nanmean", "prod"):
        fn = f"torch.{name}"
        srcs = ("float32", "float16", "bfloat16", "int8", "int32", "bool", "uint8")
        for src in srcs if name == "sum" else srcs[::2] if name not in LIGHT else srcs[::3]:
            for dt in ("float64", "float32", "int64", "int32", "float16"):
                yield Case(fn, (T(src, (2, 3)),), {"dtype": D(dt)})
        yield Case(fn, (T("float32", (2, 3)),), {"dim": 1, "dtype": D("float64")})
        yield Case(fn, (T("int8", (2, 3)),), {"dim": 0, "keepdim": True, "dtype": D("int8")})
        yield Case(f"Tensor.{name}", (T("int16", (2, 3)),), {"dtype": D("float32")})
        yield Case(f"Tensor.{name}", (T("float16", (2, 3)),), {"dim": 1, "dtype": D("float32")})
        yield Case(fn, (T("float16", (400,), HUNDREDS),), {"dtype": D("float32")})
        yield Case(fn, (T("float64", (400,), HUNDREDS),), {"dtype": D("float16")})
        yield Case(fn, (T("float32", (2, 3), grad=True),), {"dtype": D("float64")}, grad=True)
        yield Case(fn, (T("float32", (2, 3), grad=True),), {"dim": 0, "dtype": D("float16")}, grad=True)
        yield Case(fn, (T("int64", (2, 3)),), {"dtype": "float32"}, tag="a string")
    yield Case("torch.prod", (T("int64", (4,), (2**40, 2**30, 3, -1)),), {"dtype": D("int32")})
    yield Case("torch.sum", (T("int64", (4,), (2**40, 2**30, 3, -1)),), {"dtype": D("int32")})
    for d in ("float64", "float16", "int64"):
        yield Case("torch.norm", (T("float32", (2, 3)),), {"dtype": D(d)})
        yield Case("torch.norm", (T("float32", (2, 3)),), {"p": 1, "dim": 1, "dtype": D(d)})
    yield Case("torch.norm", (T("float16", (400,), HUNDREDS),), {"dtype": D("float32")})
    # keywords PyTorch does not take: must raise, not be accepted and ignored
    for name in ("amax", "amin", "max", "min", "argmax", "std", "var", "logsumexp", "all", "any", "count_nonzero",
                 "median", "cummax"):
        yield Case(f"torch.{name}", (T("float32", (2, 3)),), {"dim": 1, "dtype": D("float64")})
    yield Case("torch.max", (T("float32", (2, 3)),), {"dtype": D("float64")})
    yield Case("torch.sum", (T("float32", (2, 3)),), {"dim": 1, "out_dtype": D("float64")})


def numpy_spellings():
    """axis= and keepdims=, which PyTorch takes for most reductions."""
    x = T("float32", (2, 3, 4))
    for name in ("sum", "mean", "prod", "amax", "amin", "argmax", "argmin", "all", "any", "std", "var", "nansum",
                 "nanmean", "logsumexp", "max", "min", "median", "norm", "count_nonzero"):
        yield Case(f"Tensor.{name}", (x,), {"axis": 1})
        yield Case(f"torch.{name}", (x,), {"axis": -1, "keepdims": True})
        yield Case(f"torch.{name}", (x,), {"dim": 1, "keepdims": True})
    yield Case("Tensor.sum", (x,), {"axis": (0, 2), "keepdims": True})
    yield Case("Tensor.sum", (x,), {"axis": 1, "dim": 1})
    for name in ("cumsum", "cumprod", "cummax", "cummin", "softmax", "log_softmax"):
        yield Case(f"Tensor.{name}", (x,), {"axis": 0})
        yield Case(f"torch.{name}", (x,), {"axis": -1})
    yield Case("Tensor.cumsum_", (x,), {"axis": 0}, mutates=True)


def outs():
    """out= forms: the right dtype and shape, another dtype, a shape to resize."""
    x = T("float32", (2, 3))
    for name in ("sum", "nansum", "mean", "nanmean", "prod", "amax", "amin", "logsumexp", "std", "var", "norm"):
        fn = f"torch.{name}"
        for out in (T("float32", (2,)), T("float64", (2,)), T("float32", (5,)), T("int64", (2,)),
                    T("float16", (2,)))[:None if name not in LIGHT else 2]:
            yield Case(fn, (x, 1), {"out": out}, mutates=True)
        yield Case(fn, (x, 1), program=_out_from_empty(name, "float32"), tag="out from empty")
        yield Case(fn, (x, 1), {"keepdim": True, "out": T("float32", (2, 1))}, mutates=True)
        yield Case(fn, (T("float32", (2, 3), grad=True), 1), {"out": T("float32", (2,))}, mutates=True, tag="grad")
    for name in ("sum", "mean", "prod", "nansum"):
        yield Case(f"torch.{name}", (x, 1), {"dtype": D("float64"), "out": T("float64", (2,))}, mutates=True)
        yield Case(f"torch.{name}", (x, 1), {"dtype": D("float64"), "out": T("float32", (2,))}, mutates=True)
        yield Case(f"torch.{name}", (T("int32", (2, 3)), 1), {"out": T("int32", (2,))}, mutates=True)
        yield Case(f"torch.{name}", (T("int32", (2, 3)), 1), {"out": T("int64", (2,))}, mutates=True)
    for name in ("argmax", "argmin", "count_nonzero", "all", "any"):
        for out in (T("int64", (2,)), T("int32", (2,)), T("bool", (2,)), T("uint8", (2,))):
            yield Case(f"torch.{name}", (x, 1), {"out": out}, mutates=True)
    yield Case("torch.all", (T("uint8", (2, 3)), 1), {"out": T("uint8", (2,))}, mutates=True)
    yield Case("torch.any", (T("uint8", (2, 3)), 1), {"out": T("bool", (2,))}, mutates=True)
    for name in ("max", "min", "median", "nanmedian", "mode"):
        for vals, idx in (("float32", "int64"), ("float64", "int64"), ("float32", "int32"), ("float32", "float32")):
            yield Case(f"torch.{name}", (x, 1), {"out": _pair(T(vals, (2,)), T(idx, (2,)))}, mutates=True)
        yield Case(f"torch.{name}", (x, 1, True), program=_out_from_empty(name, "float32", "int64"),
                   tag="out from empty")
    yield Case("torch.kthvalue", (x, 2, 1), {"out": _pair(T("float32", (2,)), T("int64", (2,)))}, mutates=True)
    yield Case("torch.kthvalue", (x, 2, 1), {"out": _pair(T("float64", (2,)), T("int64", (2,)))}, mutates=True)
    yield Case("torch.max", (x,), {"out": T("float32", ())}, mutates=True)
    yield Case("torch.max", (x, T("float32", (3,))), {"out": T("float32", (2, 3))}, mutates=True)
    yield Case("torch.amax", (x, (0, 1)), {"out": T("float32", ())}, mutates=True)
    for name in ("cummax", "cummin"):
        yield Case(f"torch.{name}", (x, 1), {"out": _pair(T("float32", (2, 3)), T("int64", (2, 3)))}, mutates=True)
        yield Case(f"torch.{name}", (x, 1), program=_out_from_empty(name, "float32", "int64"), tag="out from empty")
    for name in ("cumsum", "cumprod"):
        for out in (T("float32", (2, 3)), T("float64", (2, 3)), T("int64", (2, 3))):
            yield Case(f"torch.{name}", (x, 1), {"out": out}, mutates=True)
        yield Case(f"torch.{name}", (x, 1), program=_out_from_empty(name, "float32"), tag="out from empty")
        yield Case(f"torch.{name}", (T("int8", (2, 3)), 1), {"out": T("int8", (2, 3))}, mutates=True)
        yield Case(f"torch.{name}", (x, 1), {"dtype": D("float64"), "out": T("float64", (2, 3))}, mutates=True)
    for name in ("softmax", "log_softmax"):
        yield Case(f"torch.{name}", (x, 1), {"out": T("float32", (2, 3))}, mutates=True)
        yield Case(f"torch.{name}", (x, 1), {"out": T("float64", (2, 3))}, mutates=True)
    yield Case("torch.std_mean", (x, 1), {"out": _pair(T("float32", (2,)), T("float32", (2,)))}, mutates=True)


# ---------------------------------------------------------------------------------------------------------
# max and min: the full reduction, (values, indices) with a dim, and the elementwise form


def max_min(name):
    fn = f"torch.{name}"
    for t in every_dtype((2, 3)):
        yield Case(fn, (t,))
        yield Case(fn, (t, 1))
        yield Case(f"Tensor.{name}", (t,))
        yield Case(f"Tensor.{name}", (t,), {"dim": 0})
    for t in every_dtype((12,), values="special"):
        yield Case(fn, (t,))
        yield Case(fn, (t, 0))
    for t in every_dtype((3, 4), values="special", dtypes=FLOATS + ("int64",)):
        yield Case(fn, (t, 1))
        yield Case(fn, (t, 0, True))
    for d in FLOATS if name == "max" else ("float32", "bfloat16"):
        for v in (NAN_MID, TIES, "grid"):
            yield Case(fn, (T(d, (2, 3), v),))
            yield Case(fn, (T(d, (2, 3), v), 1))
            yield Case(fn, (T(d, (2, 3), v), 0))
        yield Case(fn, (T(d, (4,), (-0.0, 0.0, -0.0, 0.0)), 0))
    x = T("float32", (2, 3, 4))
    for dim in (0, 1, 2, -1, -3, 3, (0, 1), None):
        yield Case(fn, (x,), {"dim": dim})
        yield Case(fn, (x, dim, True))
    yield Case(fn, (x,), {"dim": 1, "keepdim": True})
    yield Case(f"Tensor.{name}", (x, -2, True))
    yield Case(fn, (x,), {"keepdim": True})
    # 0-d and 0-size: the full reduction of nothing raises, a dim of size > 0 does not
    for shape in SHAPES_0:
        yield Case(fn, (T("float32", shape),))
        yield Case(fn, (T("int64", shape),))
        yield Case(fn, (T("float32", shape), 0))
        yield Case(fn, (T("float32", shape), -1, True))
    yield Case(fn, (T("float32", ()), 1))
    yield Case(fn, (T("float32", (2, 0, 3)), 1))
    yield Case(fn, (T("float32", (2, 0, 3)), 2))
    for t in layouts():
        yield Case(fn, (t,))
        yield Case(fn, (t, 0))
        yield Case(fn, (t, 1))
    # the elementwise form
    for d in ("float32", "int64", "bool", "float16"):
        yield Case(fn, (T(d, (2, 3)), T(d, (3,))))
        yield Case(f"Tensor.{name}", (T(d, (2, 3)), T(d, (2, 3))))
    yield Case(fn, (T("float32", (2, 3)), T("float64", (3,))))
    yield Case(fn, (T("int32", (2, 3)), T("float32", (3,))))
    yield Case(fn, (T("float32", (12,), "special"), T("float32", (12,), "grid")))
    yield Case(fn, (T("float32", (2, 3)), 0.5))
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (3,), "grid", grad=True)), grad=True)
    yield Case(fn, (T("float64", (2, 3), TIES, grad=True), T("float64", (3,), (3.0,), grad=True)), grad=True,
               tag="ties")
    # gradients: the full reduction splits ties evenly, the dim form gives all to the returned index
    for g in grad_inputs():
        yield Case(fn, (g,), grad=True)
        yield Case(fn, (g, 0), grad=True)
        yield Case(fn, (g, -1, True), grad=True)
    for v in (TIES, NAN_MID, (2.0,)):
        yield Case(fn, (T("float64", (2, 3), v, grad=True),), grad=True)
        yield Case(fn, (T("float64", (2, 3), v, grad=True), 1), grad=True)
        yield Case(fn, (T("float64", (2, 3), v, grad=True), 0), grad=True)
    yield Case(fn, (T("float32", (3, 4), "grid", layout="transposed", grad=True), 1), grad=True)
    yield Case(fn, (T("float32", (), grad=True), 0), grad=True)
    yield Case(fn, (T("float32", (0, 3), grad=True), 0), grad=True)
    yield Case(f"Tensor.{name}", (T("float64", (2, 3), TIES, grad=True), 1), grad=True)


def amax_ties():
    """amax/amin at ties split the gradient evenly; over several dims too."""
    for name in ("amax", "amin"):
        v = TIES if name == "amax" else (-1.0, 0.0, -1.0, 2.0, -1.0, 3.0)
        yield Case(f"torch.{name}", (T("float64", (6,), v, grad=True),), grad=True, tag="ties")
        yield Case(f"torch.{name}", (T("float64", (2, 3), v, grad=True), (0, 1)), grad=True, tag="ties")
        yield Case(f"torch.{name}", (T("float64", (3, 2), v, grad=True), 0, True), grad=True, tag="ties")
        yield Case(f"Tensor.{name}", (T("float64", (2, 3), v, grad=True), -1), grad=True, tag="ties")


def arg_ties():
    """argmax/argmin: the first index at ties, NaN wins."""
    for name in ("argmax", "argmin"):
        for d in DTYPES:
            yield Case(f"torch.{name}", (T(d, (3, 4), "grid"), 1))
            yield Case(f"torch.{name}", (T(d, (12,), "grid"),))
        for d in FLOATS:
            yield Case(f"torch.{name}", (T(d, (6,), NAN_MID),))
            yield Case(f"torch.{name}", (T(d, (6,), (-0.0, 0.0, 0.0, -0.0, 0.0, -0.0)),))
        yield Case(f"torch.{name}", (T("float32", (2, 3)), None, True))
        yield Case(f"Tensor.{name}", (T("float32", (2, 3)),), {"keepdim": True})


# ---------------------------------------------------------------------------------------------------------
# std, var, std_mean, var_mean: correction= and unbiased=

def moments():
    for name in ("std", "var", "std_mean", "var_mean"):
        fn = f"torch.{name}"
        x = T("float32", (3, 4))
        for kw in ({"correction": 0}, {"correction": 1}, {"correction": 2}, {"correction": 0.5}, {"correction": 4},
                   {"correction": 5}, {"correction": -1}, {"correction": True}, {"unbiased": True},
                   {"unbiased": False}, {"correction": None}, {"unbiased": False, "correction": 0}):
            yield Case(fn, (x,), kw)
            if name in ("std", "var_mean"):
                yield Case(fn, (x,), {"dim": 1, **kw})
        for kw in ({"correction": 0}, {"correction": 2}, {"unbiased": False}):
            yield Case(fn, (x,), {"dim": (0, 1), "keepdim": True, **kw})
        # the positional forms: (unbiased), (dim, unbiased, keepdim)
        yield Case(fn, (x, False))
        yield Case(fn, (x, 1, False))
        yield Case(fn, (x, 1, False, True))
        yield Case(fn, (x, [0, 1], True))
        yield Case(fn, (x, 0))
        for t in every_dtype((2, 3)):
            if name in ("std_mean", "var_mean"):
                yield Case(fn, (t,))
        for t in every_dtype((12,), values="special", dtypes=FLOATS):
            if name in ("std_mean", "var_mean"):
                yield Case(fn, (t,))
        for shape in ((), (1,), (0,), (2, 0, 3), (1, 3)):
            yield Case(fn, (T("float32", shape),))
            yield Case(fn, (T("float32", shape),), {"correction": 0})
            yield Case(fn, (T("float32", shape),), {"dim": 0})
        for d in ("float16", "bfloat16", "float32"):
            yield Case(fn, (T(d, (400,), HUNDREDS),))
            yield Case(fn, (T(d, (2, 200), HUNDREDS),), {"dim": 1, "correction": 0})
            yield Case(fn, (T(d, (400,), (1e4 + 1, 1e4 - 1)),), tag="large mean")
        yield Case(fn, (T("float32", (4,), (1e8, 1e8 + 8, 1e8 - 8, 1e8)),), tag="large mean")
        for g in grad_inputs():
            yield Case(fn, (g,), grad=True)
            yield Case(fn, (g,), {"dim": 0, "correction": 0}, grad=True)
        for v in ((2.0,), (0.0,)):
            yield Case(fn, (T("float64", (2, 3), v, grad=True),), grad=True, tag="constant")
            yield Case(fn, (T("float64", (2, 3), v, grad=True),), {"dim": 1}, grad=True, tag="constant")
            yield Case(fn, (T("float64", (2, 3), v, grad=True),), {"correction": 0}, grad=True, tag="constant")
        yield Case(fn, (T("float64", (1, 3), grad=True),), {"dim": 0}, grad=True, tag="one sample")
        yield Case(fn, (T("float64", (3,), grad=True),), {"correction": 3}, grad=True, tag="N - correction = 0")
        yield Case(fn, (T("float32", (3, 4), layout="stepped", grad=True),), {"dim": 1}, grad=True)
        yield Case(fn, (T("float32", (2, 3, 4), grad=True),), {"dim": (0, 2), "unbiased": False}, grad=True)
    for name in ("std", "var"):
        for kw in ({}, {"correction": 0}, {"unbiased": False}):
            yield Case(f"Tensor.{name}", (T("float32", (3, 4)),), {"dim": 1, **kw})
        yield Case(f"Tensor.{name}", (T("float32", (3, 4)), 1, False))
        yield Case(f"Tensor.{name}", (T("float64", (2, 3), (2.0,), grad=True),), grad=True, tag="constant")


# ---------------------------------------------------------------------------------------------------------
# norm

def norms():
    fn = "torch.norm"
    ps = (0, 1, 2, 3, 0.5, 2.5, -1, -2, INF, -INF, "fro", "nuc", None, True, NAN)
    for p in ps:
        yield Case(fn, (T("float32", (3, 4)),), {"p": p})
        yield Case(fn, (T("float32", (3, 4)),), {"p": p, "dim": 1})
        yield Case(fn, (T("float32", (2, 3, 4)),), {"p": p, "dim": (-1, 0), "keepdim": True})
        yield Case(fn, (T("float64", (12,), "special"),), {"p": p})
        yield Case(fn, (T("float32", (0, 3)),), {"p": p, "dim": 1})
        yield Case("Tensor.norm", (T("float32", (3, 4)), p))
        if p not in ("nuc", None, NAN):
            yield Case(fn, (T("float64", (12,), "special", grad=True),), {"p": p}, grad=True)
            yield Case(fn, (T("float64", (3, 4), "grid", grad=True),), {"p": p, "dim": 1}, grad=True)
            yield Case(fn, (T("float64", (2, 3), (0.0,), grad=True),), {"p": p}, grad=True, tag="zeros")
            yield Case(fn, (T("float64", (2, 3), TIES, grad=True),), {"p": p}, grad=True, tag="ties")
    for p in (0, 2, INF, -INF, "fro", 0.5):
        yield Case(fn, (T("float32", (0, 3)),), {"p": p})
        yield Case(fn, (T("float32", ()),), {"p": p})
        yield Case(fn, (T("float32", (3, 4), grad=True),), {"p": p}, grad=True)
    yield Case(fn, (T("float64", (3, 4), grad=True),), {"p": "nuc"}, grad=True)
    for d in DTYPES:
        yield Case(fn, (T(d, (2, 3)),), {"p": 1})
        yield Case(fn, (T(d, (2, 3)),), {"p": INF, "dim": 0})
    for d in ("float16", "bfloat16"):
        for p in (1, INF, 3):
            yield Case(fn, (T(d, (400,), HUNDREDS),), {"p": p})
            yield Case(fn, (T(d, (2, 200), HUNDREDS),), {"p": p, "dim": 1})
    yield Case(fn, (T("float32", (3, 4)), 2, 1))
    yield Case(fn, (T("float32", (3, 4)), "fro", (0, 1), True))
    yield Case(fn, (T("float32", (3, 4)),), {"p": "fro", "dim": 1})
    yield Case(fn, (T("float32", (2, 3, 4)),), {"p": "nuc", "dim": (1, 2)})
    yield Case(fn, (T("float32", (2, 3, 4)),), {"p": "fro", "dim": (0, 1, 2)})
    yield Case(fn, (T("float32", (3, 4)),), {"p": "abc"})
    yield Case(fn, (T("float32", (3, 4), layout="transposed"),), {"p": 1, "dim": 0})
    yield Case(fn, (T("float32", (3,), (3e38, 3e38, 1.0)),))
    yield Case(fn, (T("float32", (3,), (1e-30, 1e-30, 0.0)),))


# ---------------------------------------------------------------------------------------------------------
# median, nanmedian, mode, kthvalue

def order_statistics():
    for name in ("median", "nanmedian"):
        fn = f"torch.{name}"
        for t in every_dtype((2, 3)):
            yield Case(fn, (t,))
            yield Case(fn, (t, 1))
        yield Case(f"Tensor.{name}", (T("float32", (2, 3)),))
        yield Case(f"Tensor.{name}", (T("int64", (2, 3)), 0))
        for t in every_dtype((12,), values="special"):
            yield Case(fn, (t,))
            yield Case(fn, (t, 0))
        for d in ("float32", "float16") if name == "median" else ("float32", "bfloat16"):
            for v in (NAN_MID, TIES, "grid", (NAN,)):
                yield Case(fn, (T(d, (6,), v),))
                yield Case(fn, (T(d, (2, 3), v), 1))
                yield Case(fn, (T(d, (3, 2), v), 0, True))
        for n in (1, 2, 4, 5):
            yield Case(fn, (T("float32", (n,)),))
            yield Case(fn, (T("int64", (n, 3)), 0))
        for shape in SHAPES_0:
            yield Case(fn, (T("float32", shape),))
            yield Case(fn, (T("float32", shape), 0))
            yield Case(fn, (T("float32", shape), -1, True))
        yield Case(fn, (T("float32", (2, 0, 3)), 2))
        yield Case(fn, (T("float32", (2, 3)),), {"dim": 3})
        yield Case(fn, (T("float32", (2, 3)),), {"dim": (0, 1)})
        # PyTorch 2.15's median and nanmedian along dim 0 of an expanded (stride-0) input read garbage (values
        # like 2.7e-36 that change from run to run): the expanded layout is left out, as its answer is not stable
        for t in layouts()[:2]:
            yield Case(fn, (t,))
            yield Case(fn, (t, 0))
        yield Case(fn, (T("float32", (3, 4), layout="expanded"),))
        yield Case(fn, (T("float32", (3, 4), layout="expanded"), 1))
        for g in grad_inputs():
            yield Case(fn, (g,), grad=True)
            yield Case(fn, (g, 0), grad=True)
        for v in (TIES, NAN_MID, (2.0,)):
            yield Case(fn, (T("float64", (2, 3), v, grad=True),), grad=True)
            yield Case(fn, (T("float64", (2, 3), v, grad=True), 1), grad=True)
        yield Case(fn, (T("float32", (), grad=True),), grad=True)
        yield Case(f"Tensor.{name}", (T("float64", (2, 3), grad=True), 1, True), grad=True)
    # mode: dim defaults to the last
    fn = "torch.mode"
    for t in every_dtype((2, 3), values="grid"):
        yield Case(fn, (t,))
        yield Case(fn, (t, 0))
        yield Case("Tensor.mode", (t,))
    for t in every_dtype((12,), values="special"):
        yield Case(fn, (t,))
    for d in FLOATS:
        for v in (NAN_MID, TIES, (1.0, 2.0, 2.0, 1.0, 3.0, 3.0), (NAN, NAN, 1.0, 1.0, 2.0, 2.0)):
            yield Case(fn, (T(d, (6,), v),))
            yield Case(fn, (T(d, (3, 2), v), 0, True))
    for shape in SHAPES_0:
        yield Case(fn, (T("float32", shape),))
        yield Case(fn, (T("float32", shape), 0))
    yield Case(fn, (T("float32", (2, 0, 3)), 1))
    yield Case(fn, (T("float32", (2, 3)), 2))
    for t in layouts(values="grid"):
        yield Case(fn, (t,))
        yield Case(fn, (t, 0))
    for g in grad_inputs():
        yield Case(fn, (g,), grad=True)
        yield Case(fn, (g, 0, True), grad=True)
    yield Case(fn, (T("float64", (2, 3), TIES, grad=True),), grad=True)
    yield Case(fn, (T("float64", (3, 4), "grid", grad=True),), {"dim": 0}, grad=True)
    # kthvalue(k, dim=-1, keepdim=False)
    fn = "torch.kthvalue"
    for t in every_dtype((2, 3)):
        yield Case(fn, (t, 2))
        yield Case("Tensor.kthvalue", (t, 1, 0))
    for t in every_dtype((12,), values="special"):
        yield Case(fn, (t, 1))
        yield Case(fn, (t, 12))
    for d in FLOATS:
        for v in (NAN_MID, TIES):
            for k in (1, 3, 6):
                yield Case(fn, (T(d, (6,), v), k))
            yield Case(fn, (T(d, (3, 2), v), 2, 0, True))
    x = T("float32", (3, 4))
    for k in (0, 1, 4, 5, -1, True):
        yield Case(fn, (x, k))
    for kw in ({"dim": 0}, {"dim": -2, "keepdim": True}, {"dim": 2}, {"keepdim": True}):
        yield Case(fn, (x, 2), kw)
    yield Case(fn, (T("float32", ()), 1))
    yield Case(fn, (T("float32", ()), 1, 0))
    yield Case(fn, (T("float32", ()), 2))
    yield Case(fn, (T("float32", (0,)), 1))
    yield Case(fn, (T("float32", (2, 0, 3)), 1, 2))
    yield Case(fn, (T("float32", (2, 0, 3)), 1, 1))
    for t in layouts(values="grid"):
        yield Case(fn, (t, 2))
        yield Case(fn, (t, 3, 0))
    for g in grad_inputs():
        yield Case(fn, (g, 2), grad=True)
        yield Case(fn, (g, 1, 0, True), grad=True)
    yield Case(fn, (T("float64", (6,), TIES, grad=True), 5), grad=True)
    yield Case(fn, (T("float64", (6,), TIES, grad=True), 4), grad=True)


# ---------------------------------------------------------------------------------------------------------
# logsumexp specialties, all/any/count_nonzero specialties

def logsumexp_extra():
    fn = "torch.logsumexp"
    for v in ((-INF,), (INF,), (INF, -INF, 1.0), (NAN, 1.0, 2.0), (1000.0, 1000.0, -1000.0), (-1000.0, -1001.0)):
        yield Case(fn, (T("float32", (2, 3), v), 1))
        yield Case(fn, (T("float64", (2, 3), v, grad=True), 1), grad=True)
    yield Case(fn, (T("float32", (2, 3)), (0, 1)))
    yield Case(fn, (T("float32", (2, 3)), ()), tag="empty dims")
    yield Case(fn, (T("float32", (2, 3)),))
    yield Case(fn, (T("float16", (2, 3), (10.0, 11.0, 12.0)), 1))
    yield Case(fn, (T("bfloat16", (2, 3), (80.0, 81.0, 82.0)), 1))


def truth():
    for name in ("all", "any"):
        for t in every_dtype((2, 3), values="grid"):
            yield Case(f"torch.{name}", (t,))
            yield Case(f"Tensor.{name}", (t, 0))
        for v in ((True,), (False,), (NAN,), (-0.0, 0.0), (0.0, 1e-45)):
            yield Case(f"torch.{name}", (T("float32", (4,), v),))
        for d in ("uint8", "bool", "int64"):
            yield Case(f"torch.{name}", (T(d, (0,)),))
            yield Case(f"torch.{name}", (T(d, (2, 0)), 1))
        yield Case(f"torch.{name}", (T("float32", (2, 3), grad=True),), grad=True)
    for d in DTYPES:
        yield Case("torch.count_nonzero", (T(d, (12,), "special"),))
        yield Case("torch.count_nonzero", (T(d, (3, 4), "grid"), 0))
    yield Case("torch.count_nonzero", (T("float32", (4,), (-0.0, NAN, 0.0, 1.0)),))
    yield Case("torch.count_nonzero", (T("float32", (2, 3)), (0, 1)))
    yield Case("torch.count_nonzero", (T("float32", (2, 3)), [1]))
    yield Case("Tensor.count_nonzero", (T("float32", (2, 3)), -1))


# ---------------------------------------------------------------------------------------------------------
# scans: cumsum, cumprod (and their in-place forms), cummax, cummin

def scans():
    for name in ("cumsum", "cumprod", "cummax", "cummin"):
        fn = f"torch.{name}"
        for t in every_dtype((2, 3)):
            yield Case(fn, (t, 1))
            yield Case(fn, (t,), {"dim": 0})
        for d in ("float32", "int64", "bool"):
            yield Case(f"Tensor.{name}", (T(d, (2, 3)), -1))
        for t in every_dtype((12,), values="special"):
            yield Case(fn, (t, 0))
        for d in FLOATS if name in ("cumsum", "cummax") else ("float32", "float16"):
            for v in (NAN_MID, TIES, "grid"):
                yield Case(fn, (T(d, (2, 3), v), 1))
        x = T("float32", (2, 3, 4))
        for dim in (0, 1, 2, -1, -3, 3, None, (0, 1)):
            yield Case(fn, (x, dim))
        yield Case(fn, (x,))
        for shape in SHAPES_0:
            for dim in (0, -1, 1):
                yield Case(fn, (T("float32", shape), dim))
            yield Case(fn, (T("int64", shape), 0))
        yield Case(fn, (T("float32", (2, 0, 3)), 2))
        for t in layouts():
            yield Case(fn, (t, 0))
            yield Case(fn, (t, 1))
        for d in ("float16", "bfloat16", "float32"):
            yield Case(fn, (T(d, (400,), HUNDREDS), 0))
        yield Case(fn, (T("int8", (40,), (100, 99, 101, 98)), 0))
        yield Case(fn, (T("int64", (3,), (2**62, 2**62, 7)), 0))
        for g in grad_inputs():
            yield Case(fn, (g, 0), grad=True)
            yield Case(fn, (g, -1), grad=True)
        yield Case(fn, (T("float64", (2, 3), TIES, grad=True), 1), grad=True)
        yield Case(fn, (T("float64", (2, 3), NAN_MID, grad=True), 1), grad=True)
        yield Case(fn, (T("float32", (), grad=True), 0), grad=True)
        yield Case(fn, (T("float32", (0, 3), grad=True), 0), grad=True)
        yield Case(fn, (T("float32", (3, 4), "grid", layout="transposed", grad=True), 1), grad=True)
    for name in ("cumsum", "cumprod"):
        fn = f"torch.{name}"
        for src in ("float32", "float16", "int8", "bool"):
            for dt in ("float64", "int64", "int8", "float16"):
                yield Case(fn, (T(src, (2, 3)), 1), {"dtype": D(dt)})
        yield Case(f"Tensor.{name}", (T("int16", (2, 3)), 0), {"dtype": D("float32")})
        yield Case(fn, (T("float16", (400,), HUNDREDS), 0), {"dtype": D("float32")})
        yield Case(fn, (T("float32", (2, 3), grad=True), 1), {"dtype": D("float64")}, grad=True)
        # cumprod's gradient at zeros: one zero, two zeros in a row
        for v in ((2.0, 0.0, 3.0, 4.0), (2.0, 0.0, 0.0, 3.0), (0.0, 2.0, 3.0, 0.0), (0.0,)):
            yield Case(fn, (T("float64", (2, 4), v, grad=True), 1), grad=True)
        # in place
        inplace = f"Tensor.{name}_"
        for t in every_dtype((2, 3)):
            yield Case(inplace, (t, 1), mutates=True)
        yield Case(inplace, (T("int8", (2, 3)), 0), {"dtype": D("int8")}, mutates=True)
        yield Case(inplace, (T("int8", (2, 3)), 0), {"dtype": D("int64")}, mutates=True)
        yield Case(inplace, (T("float32", (2, 3)), 0), {"dtype": D("float64")}, mutates=True)
        yield Case(inplace, (T("float32", (2, 3)), 2), mutates=True)
        yield Case(inplace, (T("float32", ()), 0), mutates=True)
        yield Case(inplace, (T("float32", (0, 3)), 1), mutates=True)
        yield Case(inplace, (T("float32", (2, 3), layout="transposed"), 1), mutates=True)
        yield Case(inplace, (T("float32", (2, 3), layout="stepped"), 1), mutates=True)
        yield Case(inplace, (T("float32", (2, 3), layout="expanded"), 0), mutates=True)
        yield Case(inplace, (T("float32", (2, 3), grad=True), 1), tag="leaf")
        yield Case(inplace, (T("float32", (2, 3), "grid", grad=True), 1), program=_on_nonleaf(name + "_"),
                   grad=True)
        yield Case(inplace, (T("float16", (400,), HUNDREDS), 0), mutates=True)
    for name in ("cummax", "cummin"):
        for d in ("bool", "uint8", "int64"):
            yield Case(f"torch.{name}", (T(d, (12,), "special"), 0))
        yield Case(f"torch.{name}", (T("float32", (6,), (-0.0, 0.0, -0.0, 0.0, 1.0, 1.0)), 0))


# ---------------------------------------------------------------------------------------------------------
# softmax and log_softmax

def softmaxes():
    for name in ("softmax", "log_softmax"):
        fn = f"torch.{name}"
        for t in every_dtype((2, 3)):
            yield Case(fn, (t, 1))
            yield Case(f"Tensor.{name}", (t, -1))
        for t in every_dtype((12,), values="special"):
            yield Case(fn, (t, 0))
        for t in every_dtype((3, 4), values="special", dtypes=FLOATS):
            yield Case(fn, (t, 1))
        for v in ((-INF,), (INF,), (-INF, 0.0, 1.0), (INF, 1.0, 2.0), (NAN, 1.0, 2.0), (1000.0, 0.0, -1000.0),
                  (88.0, 89.0, 90.0)):
            yield Case(fn, (T("float32", (2, 3), v), 1))
            yield Case(fn, (T("float16", (2, 3), v), 1))
            yield Case(fn, (T("float64", (2, 3), v, grad=True), 1), grad=True)
        x = T("float32", (2, 3, 4))
        for dim in (0, 1, 2, -1, -3, 3, None, (0, 1)):
            yield Case(fn, (x, dim))
        yield Case(fn, (x,))
        yield Case(fn, (x,), {"dim": 1})
        yield Case(f"Tensor.{name}", (x,), {"dim": 1})
        for src in FLOATS + ("int64", "bool"):
            for dt in ("float64", "float16", "int64"):
                yield Case(fn, (T(src, (2, 3)), 1), {"dtype": D(dt)})
        yield Case(f"Tensor.{name}", (T("float16", (2, 3)), 1), {"dtype": D("float64")})
        yield Case(f"Tensor.{name}", (T("float16", (2, 3)), 1, D("float64")))
        for shape in SHAPES_0:
            for dim in (0, -1):
                yield Case(fn, (T("float32", shape), dim))
        yield Case(fn, (T("float32", ()), 1))
        yield Case(fn, (T("float32", (2, 0, 3)), 2))
        for t in layouts():
            yield Case(fn, (t, 0))
            yield Case(fn, (t, 1))
        for d in ("float16", "bfloat16"):
            yield Case(fn, (T(d, (2, 200), HUNDREDS), 1))
            yield Case(fn, (T(d, (2, 200), HUNDREDS), 1), {"dtype": D("float32")})
        for g in grad_inputs():
            yield Case(fn, (g, 0), grad=True)
            yield Case(fn, (g, -1), grad=True)
        yield Case(fn, (T("float32", (2, 3), grad=True), 1), {"dtype": D("float64")}, grad=True)
        yield Case(fn, (T("float32", (), grad=True), 0), grad=True)
        yield Case(fn, (T("float32", (0, 3), grad=True), 1), grad=True)
        yield Case(fn, (T("float32", (3, 4), layout="transposed", grad=True), 1), grad=True)
        yield Case(fn, (T("float64", (2, 3), TIES, grad=True), 1), grad=True)


# ---------------------------------------------------------------------------------------------------------
# histc, bincount, equal, allclose

def counting():
    fn = "torch.histc"
    for t in every_dtype((3, 4)):
        yield Case(fn, (t,))
        yield Case(fn, (t,), {"bins": 4, "min": -2, "max": 2})
    for kw in ({}, {"bins": 1}, {"bins": 5}, {"bins": 0}, {"bins": -1}, {"bins": 4, "min": 0, "max": 1},
               {"bins": 4, "min": 1, "max": 0}, {"bins": 4, "min": 1.0, "max": 1.0},
               {"bins": 3, "min": -0.5, "max": 0.5}, {"bins": 4, "min": -1.5, "max": 1.5},
               {"bins": 4, "min": NAN, "max": 1}, {"bins": 4, "min": -INF, "max": 1},
               {"bins": 8, "min": -2, "max": 2}, {"bins": 4.0}, {"bins": True}):
        yield Case(fn, (T("float32", (3, 4), "grid"),), kw)
        yield Case("Tensor.histc", (T("float64", (3, 4), "grid"),), kw)
    for v in ((NAN, 1.0, 2.0), (INF, 1.0, 2.0), (2.0,), (1.0, 2.0, 2.0, 3.0)):
        yield Case(fn, (T("float32", (6,), v),), {"bins": 3})
        yield Case(fn, (T("float32", (6,), v),), {"bins": 3, "min": 0, "max": 4})
    yield Case(fn, (T("float32", (6,), (0.0, 1.0, 2.0, 3.0, 4.0, 4.0)),), {"bins": 4})
    yield Case(fn, (T("float32", (0,)),), {"bins": 3})
    yield Case(fn, (T("float32", (0,)),), {"bins": 3, "min": 0, "max": 1})
    yield Case(fn, (T("float32", ()),), {"bins": 3})
    yield Case(fn, (T("float32", (3, 4), "grid", layout="transposed"),), {"bins": 4})
    yield Case(fn, (T("float32", (3, 4)), 4, -1, 1))
    yield Case(fn, (T("float32", (3, 4)),), {"bins": 4, "out": T("float32", (4,))}, mutates=True)
    yield Case(fn, (T("float32", (3, 4)),), {"bins": 4, "out": T("float64", (4,))}, mutates=True)
    yield Case(fn, (T("float32", (3, 4), grad=True),), {"bins": 4}, grad=True)
    fn = "torch.bincount"
    for d in DTYPES:
        yield Case(fn, (T(d, (8,), "positive"),))
        yield Case(fn, (T("int64", (8,), "index:5"), T(d, (8,))))
    for src in INTS:
        yield Case("Tensor.bincount", (T(src, (8,), "index:5"),))
    for kw in ({"minlength": 0}, {"minlength": 3}, {"minlength": 10}, {"minlength": -1}):
        yield Case(fn, (T("int64", (8,), "index:5"),), kw)
        yield Case(fn, (T("int64", (0,)),), kw)
        yield Case(fn, (T("int64", (8,), "index:5"),), {"weights": T("float32", (8,)), **kw})
    yield Case(fn, (T("int64", (8,), "neg_index:5"),))
    yield Case(fn, (T("int64", (2, 4), "index:5"),))
    yield Case(fn, (T("int64", ()),))
    yield Case(fn, (T("int64", (8,), "index:5"), T("float32", (7,))))
    yield Case(fn, (T("int64", (8,), "index:5"), T("float32", (2, 4))))
    yield Case(fn, (T("int64", (0,)),), {"weights": T("float32", (0,))})
    yield Case(fn, (T("int64", (0,)),), {"weights": T("int32", (0,))})
    yield Case(fn, (T("int64", (8,), "index:5"), T("float64", (8,), "special")))
    yield Case(fn, (T("int64", (8,), "index:5", layout="stepped"),))
    yield Case(fn, (T("int64", (4,), (2**40, 1, 0, 1)),))
    yield Case(fn, (T("int64", (8,), "index:5"), T("float32", (8,), grad=True)), grad=True)
    yield Case("Tensor.bincount", (T("int64", (8,), "index:5"),), {"weights": T("float16", (8,)), "minlength": 6})
    for name in ("equal", "allclose"):
        fn = f"torch.{name}"
        for d in DTYPES:
            yield Case(fn, (T(d, (2, 3)), T(d, (2, 3))), tag="different")
            yield Case(fn, (T(d, (2, 3), "grid"), T(d, (2, 3), "grid")), tag="grid")
            yield Case(fn, (T(d, (12,), "special"), T(d, (12,), "special")))
        for a, b in (("float32", "float64"), ("int64", "float32"), ("int32", "int64"), ("bool", "uint8")):
            yield Case(fn, (T(a, (3,), (1, 2, 3)), T(b, (3,), (1, 2, 3))))
        for sa, sb in (((2, 3), (3,)), ((2, 3), (3, 2)), ((1, 3), (2, 3)), ((0,), (0,)), ((), ()), ((), (1,))):
            yield Case(fn, (T("float32", sa, (1.0,)), T("float32", sb, (1.0,))))
        yield Case(fn, (T("float32", (3, 4), (1.0, 2.0), layout="transposed"), T("float32", (3, 4), (1.0, 2.0))))
        yield Case(fn, (T("float32", (3,), (0.0, -0.0, NAN)), T("float32", (3,), (-0.0, 0.0, NAN))))
        for d in ("float32", "int64", "bool"):
            yield Case(f"Tensor.{name}", (T(d, (2, 3), "grid"), T(d, (2, 3), "grid")))
        yield Case(f"Tensor.{name}", (T("float32", (2, 3), (1.0, 2.0)), T("float32", (2, 3), (1.0, 2.0))))
    fn = "torch.allclose"
    a, b = T("float32", (4,), (1.0, 2.0, INF, -INF)), T("float32", (4,), (1.0 + 1e-6, 2.0, INF, -INF))
    for kw in ({}, {"rtol": 0, "atol": 0}, {"rtol": 0.0, "atol": 1e-5}, {"equal_nan": True}, {"rtol": -1.0},
               {"atol": -1.0}):
        yield Case(fn, (a, b), kw)
        yield Case(fn, (T("float32", (3,), (NAN, 1.0, 2.0)), T("float32", (3,), (NAN, 1.0, 2.0))), kw)
        yield Case(fn, (T("float32", (3,), (INF, 1.0, 2.0)), T("float32", (3,), (-INF, 1.0, 2.0))), kw)
    yield Case(fn, (T("float32", (3,), (1.0, 2.0, 3.0)), T("float32", (3,), (1.1, 2.0, 3.0))), {"rtol": 0.1})
    yield Case(fn, (T("float32", (3,), (1.0, 2.0, 3.0)), T("float32", (1,), (1.0,))))
    yield Case(fn, (T("int64", (3,), (1, 2, 3)), T("int64", (3,), (1, 2, 4))), {"atol": 1})
    yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3))), {"rtol": 1e-5, "atol": 1e-8, "equal_nan": False},
               tag="keywords")
    yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3)), 10.0, 10.0), tag="positional")


# ---------------------------------------------------------------------------------------------------------
# products: matmul, mm, bmm, mv, dot, outer/ger, addmm, baddbmm, einsum

def _matmul_shapes():
    return (((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
            ((2, 3), (5, 3, 4)), ((5, 1, 2, 3), (4, 3, 2)), ((5, 2, 3), (3,)), ((3,), (5, 3, 2)),
            ((0, 3), (3, 4)), ((2, 0), (0, 4)), ((2, 3), (3, 0)), ((0,), (0,)), ((0, 2, 3), (3, 4)),
            ((2, 3), (4, 3)), ((3,), (4,)), ((), (3,)), ((3,), ()), ((2, 3, 4), (5, 4, 2)))


def products():
    # matmul: every shape pair, every dtype, mixed dtypes, layouts
    for i, (sa, sb) in enumerate(_matmul_shapes()):
        yield Case("torch.matmul", (T("float32", sa), T("float32", sb)))
        if i < 9:
            yield Case("Tensor.matmul", (T("float64", sa), T("float64", sb)))
            yield Case("torch.matmul", (T("int64", sa), T("int64", sb)))
    for d in DTYPES:
        for sa, sb in (((2, 3), (3, 4)), ((3,), (3,)), ((2, 2, 3), (3, 2)), ((2, 3), (3,))):
            yield Case("torch.matmul", (T(d, sa), T(d, sb)))
        yield Case("torch.matmul", (T(d, (4, 3), "special"), T(d, (3, 2), "grid")))
    for a, b in (("float32", "float64"), ("int64", "float32"), ("int32", "int64"), ("float16", "float32")):
        yield Case("torch.matmul", (T(a, (2, 3)), T(b, (3, 4))))
    for t in layouts(shape=(3, 3)):
        yield Case("torch.matmul", (t, T("float32", (3, 4), layout="transposed")))
        yield Case("torch.matmul", (T("float32", (2, 3)), t))
    for d in ("float16", "bfloat16", "float32"):
        yield Case("torch.matmul", (T(d, (2, 400), HUNDREDS), T(d, (400, 2), (1.0, 0.5, 1.25))))
        yield Case("torch.matmul", (T(d, (400,), HUNDREDS), T(d, (400,), (1.0, 0.5, 1.25))))
    yield Case("torch.matmul", (T("int8", (2, 40), (100, 99, 101)), T("int8", (40, 2), (100, 98))))
    yield Case("torch.matmul", (T("int32", (2, 3), (2**20,)), T("int32", (3, 2), (2**12,))))
    yield Case("torch.matmul", (T("int64", (2, 3), (2**40,)), T("int64", (3, 2), (2**30,))))
    for sa, sb in (((2, 3), (3, 4)), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((5, 2, 3), (3, 4)),
                   ((2, 1, 2, 3), (3, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 2)), ((5, 2, 3), (3,))):
        yield Case("torch.matmul", (T("float32", sa, grad=True), T("float32", sb, grad=True)), grad=True)
        yield Case("torch.matmul", (T("float64", sa, "grid", grad=True), T("float64", sb, grad=True)), grad=True)
    yield Case("torch.matmul", (T("float64", (4, 3), "special", grad=True), T("float64", (3, 2), grad=True)),
               grad=True)
    yield Case("torch.matmul", (T("float32", (3, 3), layout="transposed", grad=True),
                                T("float32", (3, 3), layout="expanded", grad=True)), grad=True)
    yield Case("torch.matmul", (T("float32", (2, 3)), T("float32", (3, 4))), {"out": T("float32", (2, 4))},
               mutates=True)
    yield Case("torch.matmul", (T("float32", (2, 3)), T("float32", (3, 4))),
               program=_out_from_empty("matmul", "float32"), tag="out from empty")
    yield Case("torch.matmul", (T("float32", (2, 3)), T("float32", (3, 4))), {"out": T("float64", (2, 4))},
               mutates=True)
    yield Case("torch.matmul", (T("float32", (3,)), T("float32", (3,))), {"out": T("float32", ())}, mutates=True)
    # mm, bmm, mv, dot, outer, ger
    two = {"mm": ((2, 3), (3, 4)), "bmm": ((5, 2, 3), (5, 3, 4)), "mv": ((2, 3), (3,)), "dot": ((3,), (3,)),
           "outer": ((3,), (4,)), "ger": ((3,), (4,))}
    wrong = {"mm": (((2, 3), (4, 3)), ((3,), (3, 4)), ((2, 2, 3), (3, 4)), ((0, 3), (3, 2)), ((2, 0), (0, 2))),
             "bmm": (((5, 2, 3), (4, 3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (5, 4, 3)), ((0, 2, 3), (0, 3, 4)),
                     ((1, 2, 3), (5, 3, 4))),
             "mv": (((2, 3), (4,)), ((3,), (3,)), ((2, 3), (1, 3)), ((0, 3), (3,)), ((2, 0), (0,))),
             "dot": (((3,), (4,)), ((2, 3), (2, 3)), ((0,), (0,)), ((), ()), ((1,), (1,))),
             "outer": (((3, 1), (4,)), ((0,), (4,)), ((), (4,)), ((1,), (1,)), ((3,), (0,))),
             "ger": (((0,), (4,)), ((3, 1), (4,)))}
    for name, (sa, sb) in two.items():
        for d in DTYPES:
            yield Case(f"torch.{name}", (T(d, sa), T(d, sb)))
        for d in ("float32", "int64", "bool"):
            yield Case(f"Tensor.{name}", (T(d, sa), T(d, sb)))
        yield Case(f"torch.{name}", (T("float64", sa, "special"), T("float64", sb, "grid")))
        for a, b in (("float32", "float64"), ("int64", "float32"), ("int32", "int64")):
            yield Case(f"torch.{name}", (T(a, sa), T(b, sb)))
        for x, y in wrong[name]:
            yield Case(f"torch.{name}", (T("float32", x), T("float32", y)))
        for g in ((T("float32", sa, grad=True), T("float32", sb, grad=True)),
                  (T("float64", sa, "grid", grad=True), T("float64", sb, "grid", grad=True)),
                  (T("float32", sa, grad=True), T("float32", sb))):
            yield Case(f"torch.{name}", g, grad=True)
        if len(sa) >= 2:
            yield Case(f"torch.{name}", (T("float32", sa, layout="transposed"), T("float32", sb)))
            yield Case(f"torch.{name}", (T("float32", sa, layout="stepped", grad=True),
                                         T("float32", sb, layout="expanded", grad=True)), grad=True)
        else:
            yield Case(f"torch.{name}", (T("float32", sa, layout="stepped"), T("float32", sb, layout="stepped")))
        out = {"mm": (2, 4), "bmm": (5, 2, 4), "mv": (2,), "dot": (), "outer": (3, 4), "ger": (3, 4)}[name]
        yield Case(f"torch.{name}", (T("float32", sa), T("float32", sb)), {"out": T("float32", out)}, mutates=True)
        yield Case(f"torch.{name}", (T("float32", sa), T("float32", sb)), program=_out_from_empty(name, "float32"),
                   tag="out from empty")
        yield Case(f"torch.{name}", (T("float32", sa), T("float32", sb)), {"out": T("float64", out)}, mutates=True)
        for d in ("float16", "bfloat16"):
            if name in ("dot", "mv"):
                big = ((400,), (400,)) if name == "dot" else ((2, 400), (400,))
                yield Case(f"torch.{name}", (T(d, big[0], HUNDREDS), T(d, big[1], (1.0, 0.5, 1.25))))
    yield Case("torch.outer", (T("float32", (3,)), T("int64", (4,))))
    yield Case("torch.outer", (T("bool", (3,)), T("bool", (4,))), tag="bool pair")
    # addmm and baddbmm: beta and alpha, and the in-place forms
    for name, (si, sa, sb) in (("addmm", ((2, 4), (2, 3), (3, 4))), ("baddbmm", ((5, 2, 4), (5, 2, 3), (5, 3, 4)))):
        fn = f"torch.{name}"
        for d in DTYPES:
            yield Case(fn, (T(d, si), T(d, sa), T(d, sb)))
            yield Case(f"Tensor.{name}", (T(d, si), T(d, sa), T(d, sb)), {"beta": 2, "alpha": 3})
            yield Case(f"Tensor.{name}_", (T(d, si), T(d, sa), T(d, sb)), mutates=True)
        for beta, alpha in ((0, 1), (1, 0), (0.5, 2.0), (-1, 0.25), (True, False), (2, 3), (NAN, 1), (1, INF),
                            (0, 0), (0.0, 1)):
            yield Case(fn, (T("float32", si, "special"), T("float32", sa), T("float32", sb)),
                       {"beta": beta, "alpha": alpha})
            yield Case(fn, (T("int64", si), T("int64", sa), T("int64", sb)), {"beta": beta, "alpha": alpha})
            yield Case(f"Tensor.{name}_", (T("float32", si), T("float32", sa), T("float32", sb)),
                       {"beta": beta, "alpha": alpha}, mutates=True)
        yield Case(fn, (T("float32", si), T("float32", sa, "special"), T("float32", sb)), {"alpha": 0},
                   tag="alpha 0 over special")
        bi = si[:-2] + (1, si[-1])
        for inp in (T("float32", bi), T("float32", si[-1:]), T("float32", ()), T("float32", si[:-1] + (1,)),
                    T("float32", (7,))):
            yield Case(fn, (inp, T("float32", sa), T("float32", sb)))
            yield Case(f"Tensor.{name}_", (inp, T("float32", sa), T("float32", sb)), mutates=True)
        for a, b, c in (("float32", "float64", "float32"), ("float64", "float32", "float32"),
                        ("int64", "float32", "float32")):
            yield Case(fn, (T(a, si), T(b, sa), T(c, sb)))
        yield Case(fn, (T("float32", si), T("float32", sa), T("float32", sb)), {"out": T("float32", si)},
                   mutates=True)
        yield Case(fn, (T("float32", si), T("float32", sa), T("float32", sb)), program=_out_from_empty(name, "float32"),
                   tag="out from empty")
        yield Case(fn, (T("float32", si), T("float32", sa), T("float32", sb)), {"out": T("float64", si)},
                   mutates=True)
        yield Case(fn, (T("float32", si), T("float32", sa, layout="transposed"), T("float32", sb, layout="stepped")))
        yield Case(fn, (T("float32", si[:-2] + (0, si[-1])), T("float32", sa[:-2] + (0, sa[-1])), T("float32", sb)))
        yield Case(fn, (T("float32", si), T("float32", sa[:-1] + (0,)), T("float32", sb[:-2] + (0, sb[-1]))),
                   {"beta": 2}, tag="k = 0")
        yield Case(fn, (T("float32", si), T("float32", sa), T("float32", sb[:-2] + (4, sb[-1]))), tag="mismatch")
        for beta, alpha in ((1, 1), (0.5, -2.0), (0, 1)):
            yield Case(fn, (T("float32", si, grad=True), T("float32", sa, grad=True), T("float32", sb, grad=True)),
                       {"beta": beta, "alpha": alpha}, grad=True)
        yield Case(fn, (T("float64", bi, grad=True), T("float64", sa, "grid", grad=True),
                        T("float64", sb, grad=True)), grad=True)
        yield Case(f"Tensor.{name}_", (T("float32", si, grad=True), T("float32", sa, grad=True),
                                       T("float32", sb, grad=True)), {"beta": 0.5, "alpha": 2},
                   program=_on_nonleaf(name + "_"), grad=True)
        yield Case(f"Tensor.{name}_", (T("float32", si, grad=True), T("float32", sa), T("float32", sb)), tag="leaf")
        yield Case(f"Tensor.{name}_", (T("float32", si, layout="expanded"), T("float32", sa), T("float32", sb)),
                   mutates=True, tag="expanded self")
        yield Case(fn, (T("int64", si), T("int64", sa), T("int64", sb)), {"beta": 2, "alpha": 0.5})
        yield Case(fn, (T("float16", si), T("float16", sa[:-1] + (400,), HUNDREDS),
                        T("float16", sb[:-2] + (400, sb[-1]), (1.0, 0.5, 1.25))))
    # einsum
    eqs = (("ij,jk->ik", ((2, 3), (3, 4))), ("ij,jk", ((2, 3), (3, 4))), ("bij,bjk->bik", ((5, 2, 3), (5, 3, 4))),
           ("ii->i", ((3, 3),)), ("ii", ((3, 3),)), ("ij->ji", ((2, 3),)), ("ij->", ((2, 3),)), ("ij->j", ((2, 3),)),
           ("i,i->", ((3,), (3,))), ("i,j->ij", ((3,), (4,))), ("...ij->...ji", ((5, 2, 3),)),
           ("...ij,...jk->...ik", ((5, 2, 3), (1, 3, 4))), ("i j , j k -> i k", ((2, 3), (3, 4))),
           ("ij,ij->ij", ((2, 3), (2, 3))), ("ijk,jl,lk->il", ((2, 3, 4), (3, 5), (5, 4))), ("i,i,i->i", ((3,),) * 3),
           ("ij,jk->ik", ((2, 3), (4, 4))), ("ij->ik", ((2, 3),)), ("ij,jk->ikk", ((2, 3), (3, 4))),
           ("ij", ((2, 3, 4),)), ("iij->j", ((2, 2, 3),)), ("Ab,bC->AC", ((2, 3), (3, 4))), ("i->", ((0,),)),
           ("ij,jk->ik", ((0, 3), (3, 4))), ("ij,jk->ik", ((2, 0), (0, 4))), ("->", ((),)), (",i->i", ((), (3,))),
           ("bn,anm,bm->ba", ((2, 3), (4, 3, 5), (2, 5))), ("i,j", ((3,), (4,))), ("ba", ((2, 3),)))
    for eq, shapes in eqs:
        yield Case("torch.einsum", (eq,) + tuple(T("float32", s) for s in shapes))
        yield Case("torch.einsum", (eq,) + tuple(T("float64", s, grad=True) for s in shapes), grad=True)
    for d in DTYPES:
        yield Case("torch.einsum", ("ij,jk->ik", T(d, (2, 3)), T(d, (3, 4))))
        yield Case("torch.einsum", ("ij->j", T(d, (2, 3))))
    yield Case("torch.einsum", ("ij,jk->ik", T("float32", (2, 3)), T("float64", (3, 4))))
    yield Case("torch.einsum", ("ij,jk->ik", T("float32", (3, 3), layout="transposed"),
                                T("float32", (3, 4), layout="stepped")))
    yield Case("torch.einsum", ("ij,jk->ik", T("float32", (2, 3))), tag="one operand short")
    yield Case("torch.einsum", ("ii->i", T("float64", (3, 3), "grid", grad=True)), grad=True, tag="grid")
    yield Case("torch.einsum", ("i,i->", T("float16", (400,), HUNDREDS), T("float16", (400,), (1.0, 0.5, 1.25))))
    yield Case("torch.einsum", ("ij->", T("bfloat16", (2, 200), HUNDREDS)))
    yield Case("torch.einsum", ("ij,jk->ik", Seq((T("float32", (2, 3)), T("float32", (3, 4))))),
               tag="operands as a list")
    yield Case("torch.einsum", ("ij,jk->ik", Seq((T("float32", (2, 3)), T("float32", (3, 4))), "tuple")), tag="a tuple")
    yield Case("torch.einsum", (T("float32", (2, 3)), [0, 1], T("float32", (3, 4)), [1, 2], [0, 2]),
               tag="sublists")


def sums_of_ints():
    """The result dtype of integer and bool sums and products, and their wraparound."""
    for name in ("sum", "prod", "nansum", "cumsum", "cumprod"):
        dims = (0,) if name.startswith("cum") else ()
        for d in INTS + ("bool",):
            yield Case(f"torch.{name}", (T(d, (12,), "special"),) + dims, tag="ints")
            yield Case(f"Tensor.{name}", (T(d, (0,)),) + dims)
        yield Case(f"torch.{name}", (T("int64", (4,), (2**40, 2**30, 3, -1)),) + dims)
        yield Case(f"torch.{name}", (T("uint8", (4,), (200, 200, 3, 255)),) + dims)
        yield Case(f"torch.{name}", (T("int8", (4,), (127, 127, 3, -128)),) + dims)


# --- the 0-d workaround ------------------------------------------------------------------------------------------
# engine.Run.tensor makes every tensor through np.ascontiguousarray, which turns a 0-d array into a 1-element 1-d
# one: a T(dtype, ()) argument arrives with shape (1,), and the cotangent of a 0-d result (every full reduction's)
# has shape (1,), so the backward fails in both libraries and the gradients are never compared. Until the engine
# keeps 0-d arrays 0-d, a case with a 0-d argument runs as a program that views those arguments as 0-d first, and a
# gradient case returns its 0-d results that require grad viewed as (1,) (their shapes are compared by the
# sibling cases without grad). Both are no-ops once the engine is fixed.

def _has_0d(spec):
    if isinstance(spec, T):
        return spec.shape == ()
    if isinstance(spec, Seq):
        return any(_has_0d(i) for i in spec.items)
    return False


def _to_0d(spec, value):
    if isinstance(spec, T) and spec.shape == ():
        return value.reshape(())
    if isinstance(spec, Seq):
        items = [_to_0d(s, v) for s, v in zip(spec.items, value)]
        return items if spec.kind == "list" else tuple(items)
    return value


def _lift_0d(L, out):
    if isinstance(out, L.Tensor):
        return out.reshape(1) if out.dim() == 0 and out.requires_grad else out
    if isinstance(out, (list, tuple)):
        return [_lift_0d(L, o) for o in out]
    if isinstance(out, dict):
        return {k: _lift_0d(L, v) for k, v in out.items()}
    return out


def _fix_0d(case):
    zero = any(_has_0d(a) for a in case.args) or any(_has_0d(v) for v in case.kwargs.values())
    if not (zero or case.grad):
        return case
    inner = dataclasses.replace(case)

    def program(L, device, *args, **kw):
        args = [_to_0d(s, v) for s, v in zip(case.args, args)]
        kw = {k: _to_0d(case.kwargs.get(k), v) for k, v in kw.items()}
        out = invoke(inner, L, device, args, kw)
        return _lift_0d(L, out) if case.grad else out
    return dataclasses.replace(case, program=program)


def cases():
    """Every case once (the sweeps overlap here and there: a case id that came already is left out), with the
    0-d workaround above."""
    seen = set()
    for c in _all():
        if c.id not in seen:
            seen.add(c.id)
            yield _fix_0d(c)


def _all():
    for name in PLAIN:
        yield from plain(name)
    yield from dtype_keyword()
    yield from numpy_spellings()
    yield from outs()
    yield from max_min("max")
    yield from max_min("min")
    yield from amax_ties()
    yield from arg_ties()
    yield from moments()
    yield from norms()
    yield from order_statistics()
    yield from logsumexp_extra()
    yield from truth()
    yield from scans()
    yield from softmaxes()
    yield from counting()
    yield from products()
    yield from sums_of_ints()
