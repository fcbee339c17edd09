"""Scalar operands. A Python or NumPy number beside a tensor becomes the core's wrapped-number tensor
(porta_scalar_tensor: bool, int or float, exactly as typed), and every op takes it as a tensor operand,
so PyTorch's promotion and conversion rules for scalars live in the core alone, shared with the C and
C++ APIs: int_tensor * 2 stays an integer, int_tensor * 2.0 is float32, uint8_tensor + 300 wraps."""
from ctypes import byref, c_void_p

import numpy as np

from ._convert import from_data
from ._abi import PORTA_SCALAR_BOOL, PORTA_SCALAR_FLOAT, PORTA_SCALAR_INT
from ._errors import error
from ._lib import fn
from ._tensor import Tensor

_scalar_tensor = fn.porta_scalar_tensor
_new = object.__new__


def number(value):
    """value as a Python bool, int or float when it is a scalar (a Python or NumPy number, a 0-d array), else
    None. Tensors are not numbers here."""
    cls = value.__class__
    if cls is bool or cls is int or cls is float:
        return value
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value.item()
    return None


def scalar_tensor(value, like):
    """The Python number `value` as a wrapped-number tensor on the device of tensor `like`."""
    cls = value.__class__
    if cls is bool:
        kind, i, f = PORTA_SCALAR_BOOL, int(value), 0.0
    elif cls is int:
        if not -2**63 <= value < 2**63:
            raise OverflowError(f"the scalar {value} is out of range for int64 (Porta's and PyTorch's widest "
                                "integer)")
        kind, i, f = PORTA_SCALAR_INT, value, 0.0
    else:
        kind, i, f = PORTA_SCALAR_FLOAT, 0, float(value)
    out = c_void_p()
    status = _scalar_tensor(kind, i, f, like.dl_device, byref(out))
    if status:
        raise error(status)
    t = _new(Tensor)
    t._h = out
    return t


def operand(value, like):
    """A tensor for an op's operand beside tensor `like`: the tensor itself, a number as a wrapped-number
    tensor, an array or list as a tensor on like's device; None for anything else."""
    if isinstance(value, Tensor):
        return value
    s = number(value)
    if s is not None:
        return scalar_tensor(s, like)
    if hasattr(value, "__array__") or isinstance(value, (list, tuple)):
        return from_data(value, None, like.device)
    return None
