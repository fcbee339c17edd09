"""Shape ops and statistics of ABI 1.7 as PyTorch spells them: movedim / moveaxis, diagonal, diag, meshgrid,
repeat_interleave, Tensor.unfold, einsum, var_mean / std_mean, median / nanmedian, histc. Each is a C entry
point of porta.h (porta_movedim, ...), composed in the core."""
from ctypes import c_int32, c_void_p

from . import _tensor_ops
from ._errors import error
from ._lib import fn, int_arg, int_array
from ._reduction_shape_ops import make_spread
from ._tensor import Tensor, call, call_outs, wrap
from ._tensor_ops import _numpy_names, values_indices

_ALL_DIMS = -2**31
_MESHGRID_INDEXING = {"ij": 0, "xy": 1}


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
        from ._factories import arange
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


def einsum(equation, *operands):
    """torch.einsum(equation, *operands) (or a list of operands): PyTorch's subscripts, ellipsis and implicit
    output. The sublist form einsum(a, [0, 1], ...) is refused."""
    if not isinstance(equation, str):
        raise NotImplementedError("einsum: the sublist form einsum(op, [dims], ...) is not supported by Porta; "
                                  "pass an equation string")
    if len(operands) == 1 and not isinstance(operands[0], Tensor):
        operands = tuple(operands[0])
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): expected a Tensor as operand {i}, got {type(t).__name__}")
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    handles = (c_void_p * len(operands))(*[t._h.value for t in operands])
    return call(fn.porta_einsum, equation.encode(), handles, len(operands))


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


_METHODS = dict(movedim=movedim, moveaxis=movedim, diagonal=diagonal, diag=diag, repeat_interleave=repeat_interleave,
                median=median, nanmedian=nanmedian, histc=histc)
for _name, _method in _METHODS.items():
    setattr(Tensor, _name, _method)
Tensor.unfold = unfold  # torch.unfold is another op (nn.functional.unfold, im2col): the method only
_tensor_ops.namespace.update(_METHODS)
_tensor_ops.namespace.update(meshgrid=meshgrid, einsum=einsum, var_mean=var_mean, std_mean=std_mean)
