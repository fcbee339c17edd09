"""Python data <-> tensors: porta.tensor's inputs, .tolist(), .item(), .numpy().

Python data (nested lists, scalars) goes through NumPy and is typed as
PyTorch types it: floats -> float32, ints -> int64, bools -> bool; NumPy
arrays and scalars keep their dtype. .numpy() shares memory (DLPack);
.tolist() and .item() copy.
"""
import ctypes
from ctypes import byref, c_void_p

import numpy as np

from . import _data_dtype, _device, _dtype
from ._abi import kDLCPU
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
    """ValueError for Python integers no int64 holds (NumPy made them uint64 or objects), as PyTorch."""
    if arr.dtype.kind in "uf" or (arr.dtype == object and all(isinstance(v, int) for v in arr.flat)):
        return ValueError("porta.tensor(): Overflow when unpacking long long (an integer is out of range for "
                          "int64, Porta's and PyTorch's widest integer; pass dtype=porta.float32 for a float)")
    return None


def _python_array(data, dtype=None):
    """(a NumPy array, its porta dtype) of Python data (numbers, nested lists, NumPy scalars, one-element
    tensors), typed as torch.tensor types it (_data_dtype), or converted straight to `dtype` (a porta dtype:
    float64 data is not rounded through float32 first) after checking that every number fits it."""
    data, inferred = _data_dtype.normalize(data)
    arr = np.asarray(data)
    if dtype is None:
        overflow = _int_overflow(arr) if inferred is _dtype.int64 else None
        if overflow is not None:
            raise overflow
        dtype = inferred
    else:
        _data_dtype.check_fits(arr, dtype)
    if arr.dtype == object and not all(isinstance(v, (int, float)) for v in arr.flat):
        raise TypeError("porta.tensor(): could not infer a dtype from the data (ragged nested lists, or "
                        "objects that are not numbers?)")
    with np.errstate(over="ignore", invalid="ignore"):  # floats beyond float32's range become inf, as PyTorch
        return arr.astype(numpy_dtype(_wire_dtype(dtype))), dtype


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
    if isinstance(data, np.ndarray):  # NumPy's own cast, as PyTorch (no range check)
        return upload(data, dt if dt is not None else _dtype.from_numpy(data.dtype), device)
    arr, dt = _python_array(data, dt)
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
    force=True also converts what cannot be shared, by a copy (from another device, or of a tensor that
    requires grad); a cpu tensor that can be shared still is, as PyTorch's."""
    if force:
        if self.dl_device.device_type != kDLCPU or self.requires_grad:
            return host_array(self)
        return _numpy(self)
    dl = self.dl_device
    if dl.device_type != kDLCPU:
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
    if self.dl_device.device_type != kDLCPU:
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


def _float(self):
    return float(self.item())


def _int(self):
    return int(self.item())
