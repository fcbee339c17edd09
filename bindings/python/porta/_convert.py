"""Python data <-> tensors: porta.tensor's inputs, .tolist(), .item(), .numpy().

Python data (nested lists, scalars) goes through NumPy and is typed as
PyTorch types it: floats -> float32, ints -> int64, bools -> bool; NumPy
arrays and scalars keep their dtype. .numpy() shares memory (DLPack);
.tolist() and .item() copy.
"""
import ctypes
from ctypes import byref, c_void_p

import numpy as np

from . import _device, _dtype
from ._errors import error
from ._lib import fn
from ._tensor import Tensor, wrap

_ITEM_TYPES = {_dtype.float32: ctypes.c_float, _dtype.float64: ctypes.c_double, _dtype.int32: ctypes.c_int32,
               _dtype.int64: ctypes.c_int64, _dtype.uint8: ctypes.c_uint8, _dtype.bool_: ctypes.c_bool,
               _dtype.int8: ctypes.c_int8, _dtype.int16: ctypes.c_int16}
_HALF_FLOATS = (_dtype.float16, _dtype.bfloat16)


def _ml_dtypes(why):
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError(f"{why}: NumPy has no bfloat16; install ml_dtypes (pip install ml_dtypes), whose "
                        "ml_dtypes.bfloat16 Porta uses, or convert first with .float()") from None
    return ml_dtypes


def numpy_dtype(dt, why="bfloat16 as a NumPy array"):
    """The NumPy dtype of a porta dtype (bfloat16: ml_dtypes.bfloat16, TypeError saying what to install without)."""
    if dt is _dtype.bfloat16:
        return np.dtype(_ml_dtypes(why).bfloat16)
    return np.dtype(dt.numpy_name)


def _wire_dtype(dt):
    """The dtype host data travels in: float16 and bfloat16 are made from float32 on the device, so every
    value rounds once, by Porta's rule (float64 data through float32, as PyTorch), with or without ml_dtypes."""
    return _dtype.float32 if dt in _HALF_FLOATS else dt


def _int_overflow(arr):
    """OverflowError for Python integers no int64 holds (NumPy made them uint64 or objects)."""
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) >= 2**63:
        return OverflowError(f"porta.tensor(): {int(arr.max())} is out of range for int64 (Porta's and PyTorch's "
                             "widest integer)")
    if arr.dtype == object and all(isinstance(v, int) for v in arr.flat):
        return OverflowError("porta.tensor(): an integer is out of range for int64 (Porta's and PyTorch's widest "
                             "integer)")
    return None


def _python_array(data, dtype=None):
    """A NumPy array of Python data, typed as torch.tensor would type it; with `dtype` (a porta dtype),
    converted straight to it (float64 data is not rounded through float32 first)."""
    arr = np.asarray(data)
    overflow = _int_overflow(arr)
    if overflow is not None:
        raise overflow
    if dtype is not None and arr.dtype != object:
        return arr.astype(numpy_dtype(_wire_dtype(dtype)))
    if arr.dtype == np.float64:
        arr = arr.astype(np.float32)
    elif arr.dtype.kind in "iu" and arr.dtype != np.uint8:
        arr = arr.astype(np.int64)
    elif arr.dtype == object:
        raise TypeError("porta.tensor(): could not infer a dtype from the data (ragged nested lists, or "
                        "objects that are not numbers?)")
    return arr


def as_array(data, dtype=None):
    """`data` as a NumPy array with a Porta dtype (no copy when already one); Python data goes
    straight to `dtype` when one is given."""
    if isinstance(data, np.ndarray):
        return data
    if isinstance(data, np.generic):
        return np.asarray(data)
    if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in data):
        data = [x.tolist() if isinstance(x, Tensor) else x for x in data]
    return _python_array(data, dtype)


def upload(arr, dt, dev):
    """A new tensor on `dev` holding a copy of NumPy array `arr` cast to porta dtype `dt`."""
    if dt in _HALF_FLOATS and arr.dtype.name != dt.numpy_name:
        return upload(arr, _dtype.float32, dev).to(dt)
    arr = arr.astype(numpy_dtype(dt), order="C", copy=False)  # (ascontiguousarray makes 0-d arrays 1-d)
    shape = (ctypes.c_int64 * arr.ndim)(*arr.shape)
    out = c_void_p()
    status = fn.porta_tensor_from_host(arr.ctypes.data if arr.size else None, dt.dl, shape, arr.ndim,
                                       _device.resolve(dev), byref(out))
    if status:
        raise error(status, "tensor()")
    return wrap(out)


def from_data(data, dtype=None, device=None):
    """A new tensor copying Python data, a NumPy array or a tensor."""
    if isinstance(data, Tensor):
        t = data.detach().clone()
        return t.to(device=device, dtype=dtype) if (device is not None or dtype is not None) else t
    dt = _dtype.resolve(dtype) if dtype is not None else None
    arr = as_array(data, dt)
    dt = dt if dt is not None else _dtype.from_numpy(arr.dtype)
    return upload(arr, dt, device)


def host_array(t):
    """A new contiguous NumPy array holding a copy of t's elements (any device)."""
    arr = np.empty(t.shape, dtype=numpy_dtype(t.dtype))
    if arr.size:
        status = fn.porta_tensor_to_host(t._h, arr.ctypes.data, arr.nbytes)
        if status:
            raise error(status)
    return arr


def _tolist(self):
    """The elements as (nested) Python lists; a Python scalar for a 0-d tensor."""
    if self.dtype in _HALF_FLOATS:  # exact in float32, and no ml_dtypes needed
        return host_array(self.float()).tolist()
    return host_array(self).tolist()


def _item(self):
    """The value of a one-element tensor as a Python number."""
    shape = self.shape
    n = 1
    for s in shape:
        n *= s
    if n != 1:
        raise RuntimeError(f"a Tensor with {n} elements cannot be converted to Scalar (item() needs exactly one "
                         f"element; the shape is {list(shape)})")
    if self.dtype in _HALF_FLOATS:
        return self.float().item()
    v = _ITEM_TYPES[self.dtype]()
    status = fn.porta_tensor_to_host(self._h, byref(v), ctypes.sizeof(v))
    if status:
        raise error(status, "item()")
    return v.value


def _numpy(self, force=False):
    """A NumPy array sharing this cpu tensor's memory (zero-copy through DLPack).
    force=True copies instead: from any device, and for tensors that require grad."""
    if force:
        return host_array(self)
    dl = self.dl_device
    if dl.device_type != 1:
        raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to copy the "
                        "tensor to host memory first.")
    if self.requires_grad:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    if self.dtype is _dtype.bfloat16:  # NumPy's DLPack import has no bfloat16: its bits, viewed as ml_dtypes'
        bfloat16 = numpy_dtype(self.dtype, "numpy() of a bfloat16 tensor")
        return np.asarray(_Uint16Memory(self)).view(bfloat16)
    return np.from_dlpack(self)


class _Uint16Memory:
    """A cpu tensor's 16-bit elements as NumPy's array interface (the array keeps this, and so the tensor, alive)."""

    def __init__(self, t):
        self.tensor = t
        self.__array_interface__ = {"shape": tuple(t.shape), "typestr": "<u2", "version": 3,
                                    "strides": tuple(2 * s for s in t.stride()), "data": (t.data_ptr(), t.is_read_only)}


def _array(self, dtype=None, copy=None):
    if self.dl_device.device_type != 1:
        raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to copy the "
                        "tensor to host memory first.")
    arr = self.detach().numpy()
    if dtype is not None and arr.dtype != dtype:
        if copy is False:  # NumPy's protocol: copy=False forbids a copy, and a dtype change is one
            raise ValueError(f"Unable to avoid copy while creating an array as requested: the tensor is "
                             f"{self.dtype.name}, the array asked for is {np.dtype(dtype)}")
        return arr.astype(dtype)
    return arr.copy() if copy else arr


def _len(self):
    shape = self.shape
    if not shape:
        raise TypeError("len() of a 0-d tensor")
    return shape[0]


def _iter(self):
    shape = self.shape
    if not shape:
        raise TypeError("iteration over a 0-d tensor")
    return (self[i] for i in range(shape[0]))


def _bool(self):
    if self.numel() != 1:
        raise RuntimeError(f"Boolean value of Tensor with more than one value is ambiguous (shape {list(self.shape)})"
                           if self.numel() else "Boolean value of Tensor with no values is ambiguous")
    return bool(self.item())


def _index(self):
    if self.dtype.is_floating_point or self.numel() != 1:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(self.item())


def _format(self, spec):
    if spec and not self.shape:  # f"{loss:.3f}" on a 0-d tensor formats its value, as in PyTorch
        return format(self.item(), spec)
    return format(str(self), spec)


Tensor.__format__ = _format
Tensor.tolist = _tolist
Tensor.item = _item
Tensor.numpy = _numpy
Tensor.__array__ = _array
Tensor.__len__ = _len
Tensor.__iter__ = _iter
Tensor.__bool__ = _bool
Tensor.__float__ = lambda self: float(self.item())
Tensor.__int__ = lambda self: int(self.item())
Tensor.__index__ = _index
