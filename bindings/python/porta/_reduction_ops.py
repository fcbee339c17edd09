"""Reductions and statistics as PyTorch spells them: var / std (correction=, unbiased=) and var_mean /
std_mean, prod, any / all / count_nonzero, norm / linalg.vector_norm, median / nanmedian, histc. Each is a C
entry point of porta.h (porta_var, ...), composed in the core (the op table's sum, mean, amax, ... are in
_math_ops.py)."""
from . import _abi, _dtype
from ._lib import fn, int_arg
from ._tensor import call, call_outs
from ._math_ops import _NO_ARGUMENT, _dims_array, _numpy_names, check_dim_arg, values_indices, with_dtype

_ALL_DIMS = _abi.PORTA_ALL_DIMS


def _dims(dim):
    dims, n = _dims_array(dim)
    return (dims if n else None), n


def _correction(name, correction, unbiased):
    if unbiased is not None:
        if correction is not None:
            raise TypeError(f"{name}(): got both unbiased and correction (use correction)")
        return 1.0 if unbiased else 0.0
    return 1.0 if correction is None else float(correction)


def make_spread(name, c, outputs=1):
    """var / std (one output) and var_mean / std_mean (two) with PyTorch's signatures: (dim, unbiased, keepdim,
    *, correction), or one positional bool, the old unbiased; a bool given as dim= is refused, as there."""
    def spread(self, dim=None, unbiased=None, keepdim=False, *, correction=None, axis=None, keepdims=None):
        if isinstance(dim, bool):  # var(True): torch's old positional unbiased
            dim, unbiased = None, dim
        dim, keepdim = _numpy_names(name, dim, keepdim, axis, keepdims)
        dims, n = _dims(dim)
        args = (self._h, dims, n, _correction(name, correction, unbiased), 1 if keepdim else 0)
        return call(c, *args) if outputs == 1 else tuple(call_outs(c, *args, n=outputs))

    def op(self, *args, **kwargs):
        if isinstance(kwargs.get("dim"), bool):
            raise TypeError(f"{name}(): argument 'dim' must be int or tuple of ints, not bool (a bool in first "
                            f"position is unbiased: {name}(True), or pass unbiased=)")
        return spread(self, *args, **kwargs)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"torch.{name} over dim (None: all) with Bessel's correction (default 1; unbiased=False: 0)"
                  + ("." if outputs == 1 else ", and the mean."))
    return op


var, std = make_spread("var", fn.porta_var), make_spread("std", fn.porta_std)


def prod(self, dim=_NO_ARGUMENT, keepdim=False, *, dtype=None, axis=None, keepdims=None):
    """torch.prod over every element, or along dim (integers and bool give int64, or dtype=)."""
    if dim is None or (dim is _NO_ARGUMENT and keepdim):
        raise TypeError("prod(): argument 'dim' must be int (leave dim and keepdim out to multiply every element)")
    dim, keepdim = _numpy_names("prod", None if dim is _NO_ARGUMENT else dim, keepdim, axis, keepdims)
    dt = None if dtype is None else _dtype.resolve(dtype)
    t = self if dt is None else self.to(dt)
    return with_dtype(call(fn.porta_prod, t._h, _ALL_DIMS if dim is None else dim, 1 if keepdim else 0), dt)


def _make_truth(name, c):
    def op(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(name, dim, keepdim, axis, keepdims)
        if isinstance(dim, (tuple, list)) and not dim:  # over no dim: each element's truth, as PyTorch's
            out = self != 0                              # (porta_any's empty dim list means every dim)
        else:
            dims, n = _dims(dim)
            out = call(c, self._h, dims, n, 1 if keepdim else 0)
        return out.to(_dtype.uint8) if self.dtype is _dtype.uint8 else out  # PyTorch's uint8 all/any are uint8
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"torch.{name} over dim (None: all): a bool tensor (uint8 for a uint8 tensor, as PyTorch's)."
    return op


any_, all_ = _make_truth("any", fn.porta_any), _make_truth("all", fn.porta_all)


def count_nonzero(self, dim=None):
    """torch.count_nonzero over dim (None: all): int64."""
    check_dim_arg("count_nonzero", dim)
    dims, n = _dims(dim)
    return call(fn.porta_count_nonzero, self._h, dims, n)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - torch's name
    """torch.linalg.vector_norm: (sum |x|^ord)^(1/ord) over dim (None: all); inf / -inf the largest / smallest
    |x|, 0 the count of nonzeros."""
    if dtype is not None:
        dt = _dtype.resolve(dtype)
        if dt.is_floating_point and x.dtype.is_floating_point and dt.itemsize < x.dtype.itemsize:
            raise RuntimeError(f"linalg.vector_norm: the dtype of the input ({x.dtype}) should be convertible "
                               f"without narrowing to the specified dtype ({dt})")
    t = x if dtype is None else x.to(_dtype.resolve(dtype))
    dims, n = _dims(dim)
    return call(fn.porta_vector_norm, t._h, float(ord), dims, n, 1 if keepdim else 0)


def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    """torch.norm / Tensor.norm: a vector norm over dim (None: all); 'fro' is the 2-norm of the elements."""
    if p == "fro" or p is None:
        if p == "fro" and dim is not None and not isinstance(dim, int) and len(dim) > 2:
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
        p = 2
    elif isinstance(p, str):
        raise NotImplementedError(f"norm: p={p!r} is not supported by Porta (matrix norms); use 'fro' or a number")
    return vector_norm(self, p, dim, keepdim, dtype=dtype)


var_mean = make_spread("var_mean", fn.porta_var_mean, outputs=2)


std_mean = make_spread("std_mean", fn.porta_std_mean, outputs=2)


def _make_median(name, c):
    def op(self, dim=None, keepdim=False, *, out=None):
        if out is not None:
            raise NotImplementedError(f"{name}: out= is not supported by Porta; assign the result instead")
        if dim is None:
            if keepdim:  # PyTorch's median(input) has no keepdim: refused as its signature refuses it
                raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
            return call_outs(c, self._h, _ALL_DIMS, 0, n=2)[0]
        return values_indices(*call_outs(c, self._h, int(dim), 1 if keepdim else 0, n=2))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"torch.{name}: the lower middle value of all elements, or (values, indices) along dim"
                  + (" ignoring NaNs." if name == "nanmedian" else " (NaN where a row has one)."))
    return op


median, nanmedian = _make_median("median", fn.porta_median), _make_median("nanmedian", fn.porta_nanmedian)


def histc(self, bins=100, min=0, max=0, *, out=None):  # noqa: A002 - torch's names
    """torch.histc: counts in `bins` equal bins over [min, max] (both 0 or equal: the data's range)."""
    if out is not None:
        raise NotImplementedError("histc: out= is not supported by Porta; assign the result instead")
    return call(fn.porta_histc, self._h, int_arg(bins, "bins", "histc"), float(min), float(max))


# The Tensor methods defined here (attached by _methods.py) and the free functions porta/__init__.py exports.
METHODS = dict(var=var, std=std, prod=prod, any=any_, all=all_, count_nonzero=count_nonzero, norm=norm,
               median=median, nanmedian=nanmedian, histc=histc)
FUNCTIONS = dict(METHODS, var_mean=var_mean, std_mean=std_mean)
