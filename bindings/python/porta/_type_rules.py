"""PyTorch's type rules as functions: promote_types, result_type, can_cast, finfo, iinfo, and the default
dtype (float32; Porta's core types Python floats and integer true division as float32, so float64 as the
default is refused rather than half applied)."""
from ctypes import byref

import numpy as np

from . import _dtype
from ._errors import check
from ._lib import DLDataType, fn
from ._tensor import Tensor



def category(dt):
    """0 bool, 1 integer, 2 floating."""
    return 2 if dt.is_floating_point else 0 if dt is _dtype.bool_ else 1


def promote_types(type1, type2):
    """The smallest dtype both convert to without leaving their categories (torch.promote_types)."""
    a, b = _dtype.resolve(type1), _dtype.resolve(type2)
    out = DLDataType()
    check(fn.porta_promote_types(a.dl, b.dl, byref(out)))  # the core's table, PyTorch's
    return _dtype.from_dl(out)


def can_cast(from_, to):
    """Whether PyTorch's casting rules allow from_ -> to: no floating to integer, no number to bool."""
    return category(_dtype.resolve(from_)) <= category(_dtype.resolve(to))


def _scalar_dtype(value):
    if isinstance(value, bool):
        return _dtype.bool_
    if isinstance(value, int):
        return _dtype.int64
    if isinstance(value, float):
        return get_default_dtype()
    raise TypeError(f"result_type(): expected a tensor or a Python number, got {type(value).__name__}")


def result_type(tensor1, tensor2):
    """The dtype an elementwise op of the two operands returns (torch.result_type): tensors with dimensions
    decide within a category; a 0-dim tensor or a Python number only lifts the category (a number to the
    category's default: int64, float32)."""
    classes = {0: None, 1: None, 2: None}  # dimensioned tensors, 0-dim tensors, Python numbers
    for operand in (tensor1, tensor2):
        if isinstance(operand, Tensor):
            rank, dt = (0 if operand.dim() else 1), operand.dtype
        else:
            rank, dt = 2, _scalar_dtype(operand)
        classes[rank] = dt if classes[rank] is None else promote_types(classes[rank], dt)
    result = None
    for rank in (0, 1, 2):
        dt = classes[rank]
        if dt is None:
            continue
        if result is None:
            result = dt
        elif category(dt) > category(result):
            result = dt if rank < 2 else (get_default_dtype() if dt.is_floating_point else _dtype.int64)
    return result


def get_default_dtype():
    """porta.float32: the dtype of tensors made from Python floats."""
    return _dtype.float32


def set_default_dtype(d):
    """torch.set_default_dtype: Porta's default stays float32. float32 is accepted; float64 is refused, because
    the core types float literals and integer true division as float32 and a half-changed default would give
    other dtypes than PyTorch's."""
    d = _dtype.resolve(d)
    if d is _dtype.float32:
        return
    if d.is_floating_point:
        raise NotImplementedError("set_default_dtype(float64) is not supported by Porta: the default dtype is "
                                  "float32; pass dtype=porta.float64 to factories, or call .double() on a module")
    raise TypeError(f"set_default_dtype(): only floating-point types are supported as the default type, got {d}")


class _BFLOAT16_INFO:
    """bfloat16's limits (NumPy has no bfloat16): float32's exponent with 8 significant bits."""
    bits, eps, max, min = 16, 2.0**-7, 3.3895313892515355e38, -3.3895313892515355e38
    smallest_normal, precision = 2.0**-126, 2


class finfo:
    """Limits of a floating dtype, as torch.finfo: bits, eps, max, min, tiny (= smallest_normal), resolution."""

    def __init__(self, type=None):  # noqa: A002 - torch's name
        dt = get_default_dtype() if type is None else _dtype.resolve(type)
        if not dt.is_floating_point:
            raise TypeError(f"finfo(): {dt} is not a floating-point dtype; use iinfo for integers")
        info = _BFLOAT16_INFO if dt is _dtype.bfloat16 else np.finfo(dt.numpy_name)
        self.dtype, self.bits = dt.name, info.bits
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, eps={self.eps}, "
                f"smallest_normal={self.smallest_normal}, tiny={self.tiny}, dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype, as torch.iinfo: bits, max, min."""

    def __init__(self, type):  # noqa: A002 - torch's name
        dt = _dtype.resolve(type)
        if dt.is_floating_point or dt is _dtype.bool_:
            raise TypeError(f"iinfo(): {dt} is not an integer dtype; use finfo for floating point")
        info = np.iinfo(dt.numpy_name)
        self.dtype, self.bits, self.max, self.min = dt.name, info.bits, int(info.max), int(info.min)

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"
