"""Views (they share storage and stay on the tensor's device): view, reshape,
permute, transpose, t/T, unsqueeze, squeeze, flatten, expand, narrow, select
(split/chunk/unbind: _index_ops.py)."""
from ctypes import c_int32
from types import SimpleNamespace

from ._lib import fn, int_array
from ._tensor import Tensor, call, normalize_shape, shape_array


def view(self, *shape):
    """A view with `shape` (one entry may be -1); fails when the strides cannot express it."""
    arr, n = shape_array(normalize_shape(shape, "view"))
    return call(fn.porta_view, self._h, arr, n)


def reshape(self, *shape):
    """A view with `shape` when possible, else a contiguous copy."""
    arr, n = shape_array(normalize_shape(shape, "reshape"))
    return call(fn.porta_reshape, self._h, arr, n)


def permute(self, *dims):
    """Dimensions reordered: output dim i is input dim dims[i]."""
    dims = normalize_shape(dims, "permute")
    return call(fn.porta_permute, self._h, int_array(c_int32, dims, "permute"), len(dims))


def transpose(self, dim0, dim1):
    """Dimensions dim0 and dim1 swapped."""
    return call(fn.porta_transpose, self._h, dim0, dim1)


def swapaxes(self, axis0, axis1):
    """transpose, as NumPy spells it (torch.swapaxes)."""
    return transpose(self, axis0, axis1)


def t(self):
    """The transpose of a 2-D tensor (0-D and 1-D tensors as they are)."""
    n = self.ndim
    if n > 2:
        raise ValueError(f"t() expects a tensor with <= 2 dimensions, but self is {n}D; use transpose()")
    return self if n < 2 else transpose(self, 0, 1)


def _T(self):
    n = self.ndim
    return self if n < 2 else permute(self, *reversed(range(n)))


def unsqueeze(self, dim):
    """A size-1 dimension inserted at `dim`."""
    return call(fn.porta_unsqueeze, self._h, dim)


def squeeze(self, dim=None):
    """Size-1 dimensions removed: all of them, or `dim` (an int or tuple) when it has size 1."""
    shape = self.shape
    if dim is None:
        dims = [d for d, s in enumerate(shape) if s == 1]
    else:
        dims = [self._wrap_dim(d, "squeeze") for d in ((dim,) if isinstance(dim, int) else dim)]
        repeated = [d for d in dims if dims.count(d) > 1]
        if repeated:
            raise RuntimeError(f"squeeze: dim {repeated[0]} appears multiple times in the list of dims")
        dims = [d for d in dims if shape and shape[d] == 1]
    out = self
    for d in sorted(dims, reverse=True):
        out = call(fn.porta_squeeze, out._h, d)
    return out


def flatten(self, start_dim=0, end_dim=-1):
    """Dims start_dim..end_dim merged into one (a 0-d tensor becomes 1-D)."""
    return call(fn.porta_flatten, self._h, start_dim, end_dim)


def ravel(self):
    """The elements as a 1-D tensor: a view of a contiguous tensor, else a copy (PyTorch's contiguous().view(-1),
    where flatten makes a view whenever the strides allow)."""
    return flatten(self.contiguous())


def expand(self, *sizes):
    """Broadcast to `sizes` without copying (-1 keeps a dimension)."""
    arr, n = shape_array(normalize_shape(sizes, "expand"))
    return call(fn.porta_expand, self._h, arr, n)


def narrow(self, dim, start, length):
    """Elements start .. start+length-1 along `dim`; out-of-range bounds raise, as in torch (no clamping)."""
    if isinstance(start, Tensor):
        if start.ndim != 0 or start.dtype.is_floating_point:
            raise RuntimeError("narrow(): start must be an 0-dim integral Tensor.")
        start = start.item()
    size = self.shape[self._wrap_dim(dim, "narrow")]
    if not -size <= start <= size:
        raise IndexError(f"narrow(): start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if length < 0:
        raise RuntimeError(f"narrow(): length must be non-negative, got {length}")
    if start + length > size:
        raise RuntimeError(f"narrow(): start ({start}) + length ({length}) exceeds dimension size ({size})")
    return call(fn.porta_slice, self._h, dim, start, start + length, 1)


def select(self, dim, index):
    """Index `index` along `dim`, removing that dimension."""
    return call(fn.porta_select, self._h, dim, index)


T = SimpleNamespace()  # the Tensor methods defined here, by name: METHODS, attached by _methods.py
T.view, T.reshape, T.permute, T.transpose, T.t = view, reshape, permute, transpose, t
T.swapaxes = swapaxes
T.T = property(_T)
T.mT = property(lambda self: transpose(self, -2, -1))
T.unsqueeze, T.squeeze, T.flatten, T.ravel, T.expand = unsqueeze, squeeze, flatten, ravel, expand
T.narrow, T.select = narrow, select
T.view_as = lambda self, other: view(self, other.shape)
T.reshape_as = lambda self, other: reshape(self, other.shape)
T.expand_as = lambda self, other: expand(self, other.shape)
FUNCTIONS = dict(  # porta.reshape, ...: attached by _methods.py
    reshape=reshape, permute=permute, transpose=transpose, swapaxes=swapaxes, t=t, unsqueeze=unsqueeze,
    squeeze=squeeze, flatten=flatten, ravel=ravel, narrow=narrow, select=select)
METHODS = vars(T)
