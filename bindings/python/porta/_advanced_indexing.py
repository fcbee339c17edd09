"""PyTorch's advanced indexing: t[idx], t[mask], t[[0, 2]], t[:, idx1, idx2],
mixed with ints, slices, None and ..., and the same keys in t[key] = value
and index_put_. Basic items (ints, slices, None, ...) are applied first as a
view, as PyTorch does; the advanced ones (int64 tensors, bool masks, lists,
ranges, arrays) broadcast together, and their dims (moved to the front when
they are not adjacent, as in NumPy and PyTorch) are flattened into one, so
that one index_select (reading) or index_copy / index_add (writing) on the
device does the work. A bool mask becomes its nonzero() coordinates, which
reads the count back from the device, as in PyTorch."""
import math

from . import _dtype
from ._factories import full, tensor
from ._scalars import number
from ._tensor import Tensor


def is_advanced(item):
    """Whether an index item is an advanced one (a tensor, a list, a range, an array)."""
    if isinstance(item, (Tensor, list, range)):
        return True
    return hasattr(item, "__array__") and getattr(item, "ndim", 0) > 0


def _as_index_tensor(item, like):
    """An advanced item as an int64 or bool tensor on `like`'s device."""
    if not isinstance(item, Tensor):
        if isinstance(item, range):
            item = list(item)
        item = tensor(item, device=like.device)
        if item.numel() == 0:
            item = item.long()
    elif item.device != like.device:
        item = item.to(like.device)  # PyTorch takes cpu indices for cuda data too
    if item.dtype in (_dtype.uint8, _dtype.bool_):
        return item.bool()
    if item.dtype not in (_dtype.int64, _dtype.int32):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors, got "
                         f"{item.dtype.name}")
    return item.long()


def _broadcast_shape(shapes):
    ndim = max(len(s) for s in shapes)
    out = []
    for i in range(ndim):
        sizes = {s[i - ndim + len(s)] for s in shapes if i - ndim + len(s) >= 0} - {1}
        if len(sizes) > 1:
            raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes " +
                             " ".join(str(list(s)) for s in shapes))
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _plan(self, items):
    """(view, dims, indices): the view the basic items make, the dims of that view the advanced items index,
    and their int64 index tensors (bool masks expanded into one per dim they cover)."""
    items = list(items)
    consumed = 0
    for i, it in enumerate(items):
        if it is None or it is Ellipsis:
            continue
        if isinstance(it, bool):
            raise IndexError("indexing with a Python bool (t[True]) is not supported by Porta; use None to add a "
                             "dimension, or a bool tensor as a mask")
        if is_advanced(it):
            items[i] = it = _as_index_tensor(it, self)
            consumed += it.ndim if it.dtype is _dtype.bool_ else 1  # a 0-d mask consumes no dim
        else:
            consumed += 1
    if consumed > self.ndim:
        raise IndexError(f"too many indices for tensor of dimension {self.ndim}")
    if sum(1 for it in items if it is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    basic, adv = [], []  # adv: (dim in the view, int64 index, size of self's dim)
    dim, src = 0, 0  # dim of the view being built; dim of self being consumed
    for it in items:
        if it is None:
            basic.append(None)
            dim += 1
        elif it is Ellipsis:
            skip = self.ndim - consumed
            basic.append(Ellipsis)
            dim, src = dim + skip, src + skip
        elif isinstance(it, Tensor) and it.dtype is _dtype.bool_ and it.ndim == 0:
            # PyTorch's 0-d mask: a new dim of size 1, kept where the mask is True, emptied where False
            basic.append(None)
            adv.append((dim, it.reshape(1).nonzero().reshape(-1), 1))
            dim += 1
        elif isinstance(it, Tensor) and it.dtype is _dtype.bool_:
            k = it.ndim
            mask = it
            for j in range(k):
                if mask.shape[j] != self.shape[src + j]:
                    raise IndexError(f"The shape of the mask {list(mask.shape)} at index {j} does not match the "
                                     f"shape of the indexed tensor {list(self.shape)} at index {src + j}")
            coords = mask.nonzero().unbind(1)
            for j in range(k):
                basic.append(slice(None))
                adv.append((dim + j, coords[j], self.shape[src + j]))
            dim, src = dim + k, src + k
        elif isinstance(it, Tensor):
            basic.append(slice(None))
            adv.append((dim, it, self.shape[src]))
            dim, src = dim + 1, src + 1
        elif isinstance(it, slice):
            basic.append(it)
            dim, src = dim + 1, src + 1
        else:
            basic.append(it)  # an int: the dim goes away
            src += 1
    view = self[tuple(basic)]  # basic items only: _indexing's view path
    dims = [d for d, _, _ in adv]
    shape = _broadcast_shape([tuple(t.shape) for _, t, _ in adv])
    indices = []
    for _, t, size in adv:
        if t.numel():
            lo, hi = t.min().item(), t.max().item()
            bad = lo if lo < -size else hi if hi >= size else None
            if bad is not None:
                raise IndexError(f"index {bad} is out of bounds for dimension with size {size}")
            t = t.where(t >= 0, t + size)
        indices.append(t.expand(tuple(shape)) if tuple(t.shape) != shape else t)
    return view, dims, indices, shape


def _flattened(view, dims, indices):
    """(permuted view, p, flat, linear): the view with the indexed dims adjacent at p, the same flattened
    there into one dim (a copy when the strides need it), and the linear index into that dim."""
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    p = dims[0] if adjacent else 0
    rest = [d for d in range(view.ndim) if d not in dims]
    order = rest[:p] + dims + rest[p:]
    permuted = view.permute(*order) if order != list(range(view.ndim)) else view
    sizes = [view.shape[d] for d in dims]
    flat = permuted.reshape(*permuted.shape[:p], math.prod(sizes), *permuted.shape[p + len(dims):])
    linear, stride = None, 1
    for t, size in reversed(list(zip(indices, sizes))):
        term = t if stride == 1 else t * stride
        linear = term if linear is None else linear + term
        stride *= size
    return permuted, p, flat, linear.reshape(-1)


def get(self, items):
    """self[items] with at least one advanced item: a new tensor (not a view), recorded by autograd."""
    view, dims, indices, shape = _plan(self, items)
    permuted, p, flat, linear = _flattened(view, dims, indices)
    out = flat.index_select(p, linear)
    return out.reshape((*permuted.shape[:p], *shape, *permuted.shape[p + len(dims):]))


def put(self, items, value, accumulate=False):
    """self[items] = value (accumulate: +=) with at least one advanced item; writes through self's memory and
    is recorded by autograd as an in-place write. A repeated index keeps the last value written."""
    if (not accumulate and len(items) == 1 and isinstance(items[0], Tensor) and items[0].dtype is _dtype.bool_
            and tuple(items[0].shape) == tuple(self.shape) and items[0].device == self.device
            and (isinstance(value, (int, float)) or (isinstance(value, Tensor) and value.ndim == 0))):
        self.masked_fill_(items[0], value)  # no count to read back
        return
    view, dims, indices, shape = _plan(self, items)
    permuted, p, flat, linear = _flattened(view, dims, indices)
    if isinstance(value, Tensor):
        if value.dtype is not self.dtype:  # PyTorch's index_put casts nothing
            raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                               f"{_dtype.TENSOR_TYPE_NAMES[self.dtype][:-6]} for the destination and "
                               f"{_dtype.TENSOR_TYPE_NAMES[value.dtype][:-6]} for the source.")
    elif number(value) is not None:  # converted as PyTorch converts a number: checked, never wrapped
        value = full((), number(value), dtype=self.dtype, device=self.device)
    else:
        value = tensor(value, dtype=self.dtype, device=self.device)
    value = value.to(self.device)
    target = tuple(permuted.shape[:p]) + shape + tuple(permuted.shape[p + len(dims):])
    source = value.expand(tuple(target)).reshape(*permuted.shape[:p], linear.shape[0], *permuted.shape[p + len(dims):])
    written = flat.index_add(p, linear, source) if accumulate else flat.index_copy(p, linear, source)
    permuted.copy_(written.reshape(permuted.shape))


def index_put_(self, indices, values, accumulate=False):
    """torch.Tensor.index_put_: self[indices] = values (accumulate: +=, repeats add up); returns self."""
    put(self, tuple(indices), values, accumulate)
    return self


def index_put(self, indices, values, accumulate=False):
    """torch.index_put: index_put_ on a clone."""
    return index_put_(self.clone(), indices, values, accumulate)

