"""t[key] and t[key] = value with ints, slices (step > 0), None, Ellipsis and
negative indices. Results are views on t's device; assignment writes through
porta_copy_into (broadcast, cast, from any device). Keys with tensors, masks,
lists or ranges go to _advanced_indexing.py."""
import operator
from ctypes import byref, c_void_p

from . import _advanced_indexing as _advanced
from ._errors import error
from ._factories import tensor
from ._lib import fn
from ._tensor import Tensor, wrap

_BIG = 2**62
_release = fn.porta_tensor_release
_select, _slice, _unsqueeze = fn.porta_select, fn.porta_slice, fn.porta_unsqueeze


def _as_int(item):
    try:
        return operator.index(item)
    except TypeError:
        return None


def _unsupported(item):
    return IndexError("only integers, slices (:), ellipsis (...), None and long, int or bool tensors (or lists, "
                      f"ranges and arrays of them) are valid indices (got {type(item).__name__})")


def _step(out, h, status):
    """Releases intermediate handle `h` (not the user's) and checks the call."""
    if h is not None:
        _release(h)
    if status:
        raise error(status)
    return out


def index(self, key):
    """self[key] as a view."""
    if key.__class__ is int:  # fast path: x[i]
        shape = self.shape
        if not shape:
            raise IndexError("invalid index of a 0-dim tensor. Use tensor.item() to get the number")
        if not -shape[0] <= key < shape[0]:
            raise IndexError(f"index {key} is out of bounds for dimension 0 with size {shape[0]}")
        out = c_void_p()
        status = _select(self._h, 0, key, byref(out))
        if status:
            raise error(status)
        return wrap(out)
    items = key if isinstance(key, tuple) else (key,)
    if any(_advanced.is_advanced(it) for it in items):
        return _advanced.get(self, items)
    shape = self.shape
    consumed = sum(1 for it in items if it is not None and it is not Ellipsis)
    if consumed > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    if sum(1 for it in items if it is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    h, owned = self._h, None  # owned: the intermediate handle we must release
    dim, src_dim = 0, 0       # dim in the result so far; dim of `shape` being consumed
    for it in items:
        if it is None:
            out = c_void_p()
            owned = _step(out, owned, _unsqueeze(h, dim, byref(out)))
            h, dim = out, dim + 1
        elif it is Ellipsis:
            skip = len(shape) - consumed
            dim, src_dim = dim + skip, src_dim + skip
        elif isinstance(it, slice):
            start, stop, step = it.start, it.stop, it.step
            step = 1 if step is None else operator.index(step)
            if step <= 0:
                raise ValueError("step must be greater than zero")
            start = 0 if start is None else operator.index(start)
            stop = _BIG if stop is None else operator.index(stop)
            out = c_void_p()
            owned = _step(out, owned, _slice(h, dim, start, stop, step, byref(out)))
            h, dim, src_dim = out, dim + 1, src_dim + 1
        else:
            i = _as_int(it)
            if i is None or isinstance(it, bool):
                raise _unsupported(it)
            size = shape[src_dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {src_dim} with size {size}")
            out = c_void_p()
            owned = _step(out, owned, _select(h, dim, i, byref(out)))
            h, src_dim = out, src_dim + 1
    if owned is None:  # x[...], x[()]: the same elements, a new view
        return self.view(shape)
    return wrap(owned)


def assign(self, key, value):
    """self[key] = value: writes into the view (value broadcast and cast; any device)."""
    items = key if isinstance(key, tuple) else (key,)
    if any(_advanced.is_advanced(it) for it in items):
        return _advanced.put(self, items, value)
    target = index(self, key) if not (key is Ellipsis or (isinstance(key, tuple) and not key)) else self
    if isinstance(value, Tensor):
        target.copy_(value)
    elif isinstance(value, (int, float)) or (hasattr(value, "item") and getattr(value, "ndim", None) == 0):
        target.fill_(value.item() if hasattr(value, "item") else value)
    else:
        target.copy_(tensor(value, dtype=target.dtype))

