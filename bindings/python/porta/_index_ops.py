"""Indexing along a dim, joins and splits, as PyTorch spells them: gather,
scatter / scatter_add / scatter_reduce, index_select / index_add /
index_copy / index_fill, masked_fill / masked_select, nonzero / argwhere,
take, cat / stack / split / chunk / unbind, and the in-place forms (computed
by the core, then written with copy_, so autograd records them). Every one is
a C entry point of porta.h (porta_gather, ...), defined in the core."""
from ctypes import c_int64, c_void_p

from . import _abi
from ._errors import error
from ._factories import full
from ._lib import fn, int_array
from ._tensor import Tensor, call, wrap
from ._scalars import operand
from ._math_ops import in_place

_REDUCE = {"sum": _abi.PORTA_SCATTER_SUM, "prod": _abi.PORTA_SCATTER_PROD, "amax": _abi.PORTA_SCATTER_AMAX,
           "amin": _abi.PORTA_SCATTER_AMIN, "mean": _abi.PORTA_SCATTER_MEAN}  # porta_scatter's reduce values
_LEGACY_REDUCE = {"add": _abi.PORTA_SCATTER_SUM, "multiply": _abi.PORTA_SCATTER_PROD}  # scatter(..., reduce=)


def _full_like_index(value, index, like):
    return full(tuple(index.shape), value, dtype=like.dtype, device=like.device)


def _value_tensor(self, value, name):
    """A scalar `value` (a number or a 0-d tensor) as a Python number."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"{name}: only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.ndim} dimension(s)")
        return value.item()
    return value


def gather(self, dim, index, *, sparse_grad=False):
    """torch.gather: out[p] = self[p with p[dim] := index[p]] (index int64, out of index's shape)."""
    if sparse_grad:
        raise NotImplementedError("gather: sparse_grad=True is not supported by Porta (gradients are dense)")
    return call(fn.porta_gather, self._h, dim, index._h)


def _scatter(self, dim, index, src=None, value=None, reduce=None):
    if reduce is None:
        code = _abi.PORTA_SCATTER_ASSIGN
    elif reduce in _LEGACY_REDUCE:
        code = _LEGACY_REDUCE[reduce]
    else:
        raise RuntimeError(f"scatter: reduce argument must be either 'add' or 'multiply', got {reduce!r}")
    if src is None:
        src = value
    if not isinstance(src, Tensor):
        src = _full_like_index(_value_tensor(self, src, "scatter"), index, self)
    return call(fn.porta_scatter, self._h, dim, index._h, src._h, code, 1)


def scatter(self, dim, index, src=None, *, value=None, reduce=None):
    """torch.scatter (out of place): src's values (or a scalar value) written at index along dim; a repeated
    index keeps the last along dim. reduce='add' or 'multiply' combines instead."""
    return _scatter(self, dim, index, src, value, reduce)


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    return in_place(self, lambda s: _scatter(s, dim, index, src, value, reduce), "scatter_")


def scatter_add(self, dim, index, src):
    """torch.scatter_add (out of place): src's values added at index along dim."""
    return call(fn.porta_scatter, self._h, dim, index._h, src._h, _abi.PORTA_SCATTER_SUM, 1)


def scatter_add_(self, dim, index, src):
    return in_place(self, lambda s: scatter_add(s, dim, index, src), "scatter_add_")


def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
    """torch.scatter_reduce: reduce is 'sum', 'prod', 'mean', 'amax' or 'amin'."""
    if reduce not in _REDUCE:
        raise RuntimeError(f"scatter_reduce: reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce!r}")
    return call(fn.porta_scatter, self._h, dim, index._h, src._h, _REDUCE[reduce], 1 if include_self else 0)


def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    return in_place(self, lambda s: scatter_reduce(s, dim, index, src, reduce, include_self=include_self),
                    "scatter_reduce_")


def index_select(self, dim, index):
    """torch.index_select: the slices `index` (1-D int64 or int32) along dim."""
    return call(fn.porta_index_select, self._h, dim, index._h)


def index_add(self, dim, index, source, *, alpha=1):
    """torch.index_add (out of place): alpha * source's slices added into the slices index along dim."""
    return call(fn.porta_index_add, self._h, dim, index._h, source._h, float(alpha))


def index_add_(self, dim, index, source, *, alpha=1):
    return in_place(self, lambda s: index_add(s, dim, index, source, alpha=alpha), "index_add_")


def index_copy(self, dim, index, source):
    """torch.index_copy (out of place): source's slices written into the slices index along dim."""
    return call(fn.porta_index_copy, self._h, dim, index._h, source._h)


def index_copy_(self, dim, index, source):
    return in_place(self, lambda s: index_copy(s, dim, index, source), "index_copy_")


def _fill_value(self, value, name):
    """A fill value as a tensor operand: a 0-d tensor (autograd records its gradient) or a number (a wrapped
    number: an int64 keeps every bit)."""
    v = operand(value, self) if not isinstance(value, (list, tuple)) else None
    if v is None:
        raise TypeError(f"{name}(): value must be a number or a 0-dimensional tensor, got {type(value).__name__}")
    return v


def index_fill(self, dim, index, value):
    """torch.index_fill (out of place): the slices index along dim set to value."""
    v = _fill_value(self, value, "index_fill")  # held: the call only gets its handle
    return call(fn.porta_index_fill_tensor, self._h, dim, index._h, v._h)


def index_fill_(self, dim, index, value):
    return in_place(self, lambda s: index_fill(s, dim, index, value), "index_fill_")


def masked_fill(self, mask, value):
    """torch.masked_fill (out of place): value where the bool mask (broadcast to self) is true."""
    v = _fill_value(self, value, "masked_fill")  # held: the call only gets its handle
    return call(fn.porta_masked_fill_tensor, self._h, mask._h, v._h)


def masked_fill_(self, mask, value):
    return in_place(self, lambda s: masked_fill(s, mask, value), "masked_fill_")


def masked_select(self, mask):
    """torch.masked_select: the 1-D elements where the bool mask is true (reads the count back)."""
    return call(fn.porta_masked_select, self._h, mask._h)


def nonzero(self, *, as_tuple=False):
    """torch.nonzero: int64 [count, ndim] coordinates of the nonzero elements; as_tuple: one 1-D tensor per dim."""
    coords = call(fn.porta_nonzero, self._h)
    if not as_tuple:
        return coords
    if self.ndim == 0:  # PyTorch treats a 0-d tensor as 1-D here
        flat = self.reshape(1)  # held: the call only gets its handle
        coords = call(fn.porta_nonzero, flat._h)
    return coords.unbind(1)


def argwhere(self):
    """torch.argwhere: nonzero()."""
    return call(fn.porta_nonzero, self._h)


def take(self, index):
    """torch.take: elements at the row-major positions index (negative ones count from the end)."""
    return call(fn.porta_take, self._h, index._h)


def _handles(tensors, name):
    if isinstance(tensors, Tensor) or not hasattr(tensors, "__len__"):
        raise TypeError(f"{name}(): argument 'tensors' must be a tuple or list of Tensors, not "
                        f"{type(tensors).__name__}")
    tensors = list(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}(): expected a sequence of Tensors, but item {i} is {type(t).__name__}")
    if not tensors:
        raise RuntimeError(f"{name}: expected a non-empty list of tensors")
    return tensors, (c_void_p * len(tensors))(*[t._h.value for t in tensors])


def cat(tensors, dim=0, *, axis=None, out=None):
    """torch.cat: tensors of one device joined along dim (dtypes promote; 1-D empty tensors skipped)."""
    if out is not None:
        raise NotImplementedError("cat: out= is not supported by Porta; assign the result instead")
    tensors, handles = _handles(tensors, "cat")
    return call(fn.porta_cat, handles, len(tensors), dim if axis is None else axis)


def stack(tensors, dim=0, *, out=None):
    """torch.stack: tensors of one shape joined along a new dim."""
    if out is not None:
        raise NotImplementedError("stack: out= is not supported by Porta; assign the result instead")
    tensors, handles = _handles(tensors, "stack")
    return call(fn.porta_stack, handles, len(tensors), dim)


def _split_sizes(size, split_size_or_sections):
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step < 0 or (step == 0 and size != 0):
            raise RuntimeError(f"split(): split_size can only be 0 if dimension size is 0, and never negative, but "
                               f"got split_size={step} and dimension size {size}")
        return [min(step, size - s) for s in range(0, size, step)] if size else [0]  # an empty dim: one piece
    sizes = list(split_size_or_sections)
    if sum(sizes) != size:
        raise ValueError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at "
                         f"the dimension), but got split_sizes={sizes}")
    return sizes


def split(self, split_size_or_sections, dim=0):
    """torch.split: views of consecutive pieces along dim, of split_size each or of the given sizes."""
    d = self._wrap_dim(dim, "split")
    sizes = _split_sizes(self.shape[d], split_size_or_sections)
    outs = (c_void_p * len(sizes))()
    status = fn.porta_split(self._h, int_array(c_int64, sizes, "split_size"), len(sizes), d, outs)
    if status:
        raise error(status)
    return tuple(wrap(c_void_p(h)) for h in outs)


def chunk(self, chunks, dim=0):
    """torch.chunk: at most `chunks` views of (nearly) equal size along dim."""
    if not isinstance(chunks, int) or chunks <= 0:
        raise RuntimeError(f"chunk(): chunks must be greater than 0, got {chunks}")
    size = self.shape[self._wrap_dim(dim, "chunk")]
    if size == 0:  # PyTorch: `chunks` empty pieces
        return split(self, [0] * chunks, dim)
    return split(self, -(-size // chunks), dim)


def unbind(self, dim=0):
    """torch.unbind: every slice along dim, with that dimension removed."""
    d = self._wrap_dim(dim, "unbind")
    outs = (c_void_p * self.shape[d])()
    status = fn.porta_unbind(self._h, d, outs)
    if status:
        raise error(status)
    return tuple(wrap(c_void_p(h)) for h in outs)


# The Tensor methods defined here (attached by _methods.py) and the free functions porta/__init__.py exports.
METHODS = dict(gather=gather, scatter=scatter, scatter_=scatter_, scatter_add=scatter_add, scatter_add_=scatter_add_,
               scatter_reduce=scatter_reduce, scatter_reduce_=scatter_reduce_, index_select=index_select,
               index_add=index_add, index_add_=index_add_, index_copy=index_copy, index_copy_=index_copy_,
               index_fill=index_fill, index_fill_=index_fill_, masked_fill=masked_fill, masked_fill_=masked_fill_,
               masked_select=masked_select, nonzero=nonzero, argwhere=argwhere, take=take, split=split,
               chunk=chunk, unbind=unbind)
FUNCTIONS = {k: v for k, v in METHODS.items() if not k.endswith("_")}
FUNCTIONS.update(cat=cat, concat=cat, concatenate=cat, stack=stack)
