"""Statistics, shapes and products as PyTorch spells them: var / std (correction=, unbiased=), prod, any /
all / count_nonzero, norm / linalg.vector_norm, flip, roll, repeat / tile, tril / triu, outer, mm, mv, dot,
bmm, addmm, baddbmm. Each is a C entry point of porta.h (porta_var, ...), composed in the core."""
from ctypes import c_int64

from . import _dtype, _tensor_ops
from ._lib import fn, int_array
from ._tensor import Tensor, call, call_outs
from ._tensor_ops import _NO_ARGUMENT, _dims_array, _numpy_names, check_dim_arg, in_place, with_dtype

_ALL_DIMS = -2**31


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


def _ints(values):
    """f(1, 2) and f((1, 2)) alike."""
    if len(values) == 1 and not isinstance(values[0], int):
        values = tuple(values[0])
    return list(values)


def flip(self, *dims):
    """torch.flip: reversed along dims (a copy)."""
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    dims = _ints(dims)
    arr, n = _dims(dims)
    return call(fn.porta_flip, self._h, arr, n)


def roll(self, shifts, dims=None):
    """torch.roll: shifted by shifts along dims (None: the flattened tensor)."""
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dim_list = [] if dims is None else [dims] if isinstance(dims, int) else list(dims)
    arr, n = _dims(dim_list) if dim_list else (None, 0)
    return call(fn.porta_roll, self._h, int_array(c_int64, shifts, "shifts"), len(shifts), arr, n)


def repeat(self, *sizes, repeats=None):
    """torch.Tensor.repeat: tiled sizes[i] times along dim i (len(sizes) >= ndim)."""
    if repeats is not None:
        if sizes:
            raise TypeError("repeat() got multiple values for argument 'repeats'")
        sizes = (repeats,)
    elif not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats" (the times along each dim)')
    return _repeat(self, _ints(sizes))


def _repeat(self, sizes):
    return call(fn.porta_repeat, self._h, int_array(c_int64, sizes, "repeats"), len(sizes))


def tile(self, *dims):
    """torch.tile: repeat with dims padded by leading 1s to the tensor's ndim."""
    dims = _ints(dims)
    return _repeat(self, [1] * (self.ndim - len(dims)) + dims)


def tril(self, diagonal=0):
    """torch.tril over the last two dims."""
    return call(fn.porta_tril, self._h, diagonal)


def triu(self, diagonal=0):
    """torch.triu over the last two dims."""
    return call(fn.porta_triu, self._h, diagonal)


def _binary(c, doc):
    def op(self, other):
        return call(c, self._h, other._h)
    op.__doc__ = doc
    return op


outer = _binary(fn.porta_outer, "torch.outer of two 1-D tensors.")
mm = _binary(fn.porta_mm, "torch.mm: 2-D @ 2-D.")
mv = _binary(fn.porta_mv, "torch.mv: 2-D @ 1-D.")
dot = _binary(fn.porta_dot, "torch.dot: the inner product of two 1-D tensors.")
bmm = _binary(fn.porta_bmm, "torch.bmm: [B, n, k] @ [B, k, m].")


def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    """torch.addmm: beta * self + alpha * (mat1 @ mat2) (beta=0 ignores self's values)."""
    return call(fn.porta_addmm, self._h, mat1._h, mat2._h, float(beta), float(alpha))


def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    """torch.baddbmm: beta * self + alpha * bmm(batch1, batch2)."""
    return call(fn.porta_baddbmm, self._h, batch1._h, batch2._h, float(beta), float(alpha))


def _inplace(f, name):
    def op(self, *args, **kwargs):
        return in_place(self, lambda s: f(s, *args, **kwargs), name)
    op.__name__ = op.__qualname__ = name
    return op


T = Tensor
_METHODS = dict(var=var, std=std, prod=prod, any=any_, all=all_, count_nonzero=count_nonzero, norm=norm, flip=flip,
                roll=roll, repeat=repeat, tile=tile, tril=tril, triu=triu, outer=outer, ger=outer, mm=mm, mv=mv,
                dot=dot, bmm=bmm, addmm=addmm, baddbmm=baddbmm)
for _name, _method in _METHODS.items():
    setattr(T, _name, _method)
for _name in ("tril", "triu", "addmm", "baddbmm"):
    setattr(T, _name + "_", _inplace(_METHODS[_name], _name + "_"))
_tensor_ops.namespace.update({k: v for k, v in _METHODS.items() if k != "repeat"})


def _flip_along(dim, name):
    def flipped(input):  # noqa: A002
        if input.ndim <= dim:
            raise RuntimeError(f"{name}: Input must be >= {dim + 1}-d.")
        return flip(input, dim)
    flipped.__name__ = name
    flipped.__doc__ = f"torch.{name}: flip along dim {dim} (the input needs at least {dim + 1} dims)."
    return flipped


T.fliplr, T.flipud = _flip_along(1, "fliplr"), _flip_along(0, "flipud")
_tensor_ops.namespace.update(fliplr=T.fliplr, flipud=T.flipud)
