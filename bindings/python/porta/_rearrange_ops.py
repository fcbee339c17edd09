"""Rearranging ops as PyTorch spells them: movedim / moveaxis, diagonal, diag, meshgrid, repeat_interleave,
Tensor.unfold, flip / fliplr / flipud, roll, repeat / tile, tril / triu (and tril_ / triu_). Each is a C entry
point of porta.h (porta_movedim, ...), composed in the core (views and reshapes are in _views.py)."""
from ctypes import c_int32, c_int64, c_void_p

from . import _abi
from ._errors import error
from ._factories import arange
from ._lib import fn, int_array
from ._tensor import Tensor, call, wrap
from ._math_ops import _dims_array, in_place_method

_ALL_DIMS = _abi.PORTA_ALL_DIMS
_MESHGRID_INDEXING = {"ij": _abi.PORTA_MESHGRID_IJ, "xy": _abi.PORTA_MESHGRID_XY}  # porta_meshgrid_indexing


def _int_list(value, name):
    values = [value] if isinstance(value, int) else list(value)
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"movedim(): argument '{name}' must be int or tuple of ints, not {type(v).__name__}")
    return values


def movedim(self, source, destination):
    """torch.movedim / moveaxis: dims source[i] moved to destination[i], the others in their order (a view)."""
    src, dst = _int_list(source, "source"), _int_list(destination, "destination")
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src}) and destination ({dst}) "
                           "must have the same number of elements")
    return call(fn.porta_movedim, self._h, int_array(c_int32, src, "source"), int_array(c_int32, dst, "destination"),
                len(src))


def diagonal(self, offset=0, dim1=0, dim2=1):
    """torch.diagonal: a view of the (dim1, dim2) diagonal `offset` above the main one, as the last dim."""
    return call(fn.porta_diagonal, self._h, int(offset), int(dim1), int(dim2))


def diag(self, diagonal=0):
    """torch.diag: a 1-D tensor's square matrix, or a 2-D tensor's diagonal (a copy)."""
    return call(fn.porta_diag, self._h, int(diagonal))


def meshgrid(*tensors, indexing=None):
    """torch.meshgrid: one view of the grid per 0-D or 1-D input; indexing "ij" (the default) or "xy"."""
    if len(tensors) == 1 and not isinstance(tensors[0], Tensor):
        tensors = tuple(tensors[0])
    mode = _MESHGRID_INDEXING.get("ij" if indexing is None else indexing)
    if mode is None:
        raise ValueError(f"meshgrid: indexing must be one of 'xy' or 'ij', but received: {indexing!r}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"meshgrid(): expected a sequence of Tensors, but item {i} is {type(t).__name__}")
    if not tensors:
        raise RuntimeError("meshgrid: expects a non-empty TensorList")
    outs = (c_void_p * len(tensors))()
    status = fn.porta_meshgrid((c_void_p * len(tensors))(*[t._h.value for t in tensors]), len(tensors), mode, outs)
    if status:
        raise error(status)
    return tuple(wrap(c_void_p(h)) for h in outs)


def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    """torch.repeat_interleave: each element repeated (an int, or one count per element along dim; dim None:
    the flattened tensor). repeat_interleave(counts) alone repeats each index i counts[i] times."""
    if repeats is None:  # torch.repeat_interleave(repeats): the indices
        counts = self
        if counts.ndim != 1:
            raise RuntimeError(f"repeat_interleave: repeats must be 1-dimensional, got shape {tuple(counts.shape)}")
        self, repeats, dim = arange(counts.shape[0], dtype=counts.dtype, device=counts.device), counts, 0
    d = _ALL_DIMS if dim is None else int(dim)
    size = -1 if output_size is None else int(output_size)
    if isinstance(repeats, Tensor):
        return call(fn.porta_repeat_interleave, self._h, repeats._h, d, size)
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        raise TypeError(f"repeat_interleave(): argument 'repeats' must be int or Tensor, not {type(repeats).__name__}")
    out = call(fn.porta_repeat_interleave_int, self._h, repeats, d)
    if size >= 0 and out.shape[0 if dim is None else d] != size:
        raise RuntimeError(f"repeat_interleave: output_size {size} does not match the repeated size "
                           f"{out.shape[0 if dim is None else d]}")
    return out


def unfold(self, dimension, size, step):
    """torch.Tensor.unfold: windows of `size` every `step` along dimension as a new last dim (a view of self;
    windows overlap when step < size)."""
    return call(fn.porta_unfold, self._h, int(dimension), int(size), int(step))


def _dims(dim):
    dims, n = _dims_array(dim)
    return (dims if n else None), n


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


def _flip_along(dim, name):
    def flipped(input):  # noqa: A002
        if input.ndim <= dim:
            raise RuntimeError(f"{name}: Input must be >= {dim + 1}-d.")
        return flip(input, dim)
    flipped.__name__ = name
    flipped.__doc__ = f"torch.{name}: flip along dim {dim} (the input needs at least {dim + 1} dims)."
    return flipped


fliplr, flipud = _flip_along(1, "fliplr"), _flip_along(0, "flipud")

# The Tensor methods defined here (attached by _methods.py) and the free functions porta/__init__.py exports.
_BOTH = dict(movedim=movedim, moveaxis=movedim, diagonal=diagonal, diag=diag, repeat_interleave=repeat_interleave,
             flip=flip, fliplr=fliplr, flipud=flipud, roll=roll, tile=tile, tril=tril, triu=triu)
METHODS = dict(_BOTH, unfold=unfold,  # torch.unfold is another op (nn.functional.unfold, im2col): the method only
               repeat=repeat,  # torch.repeat does not exist: the method only
               tril_=in_place_method(tril, "tril_"), triu_=in_place_method(triu, "triu_"))
FUNCTIONS = dict(_BOTH, meshgrid=meshgrid)
