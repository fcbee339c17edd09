"""How porta.tensor types Python data, as torch.tensor does: every leaf has a dtype (a Python bool, int or
float: bool, int64, the default float; a NumPy scalar or array: its own; a one-element tensor: its own) and
the data's dtype is their promotion. A tensor inside a list is a number (one element, or ValueError).
A Python or NumPy number stored in an integer dtype must fit it (RuntimeError otherwise, as PyTorch: an
integer in [min, max], a uint8 also -255..-1, wrapping; a float in [min, max + 1), truncated); NumPy arrays
convert as NumPy casts them."""
import numpy as np

from . import _dtype
from ._tensor import Tensor
from ._type_rules import get_default_dtype, promote_types

_ONE_ELEMENT = "only one element tensors can be converted to Python scalars"


def _python_number_dtype(kind):
    if kind is bool:
        return _dtype.bool_
    if kind is int:
        return _dtype.int64
    if kind is float:
        return get_default_dtype()
    return None


def _leaf_dtype(x):
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, (np.ndarray, np.generic)):
        return _dtype.from_numpy(x.dtype)
    for kind in (bool, int, float):
        if isinstance(x, kind):
            return _python_number_dtype(kind)
    raise TypeError(f"porta.tensor(): could not infer a dtype from {type(x).__name__} (expected numbers, nested "
                    "lists of numbers, NumPy arrays or one-element tensors)")


def _number_of(t):
    if t.numel() != 1:
        raise ValueError(f"porta.tensor(): {_ONE_ELEMENT} (a tensor of shape {list(t.shape)} inside a list; "
                         "use porta.stack for tensors)")
    return t.item()


def normalize(data):
    """(data with every tensor inside a list replaced by its number, the dtype torch.tensor infers for it)."""
    dtypes = set()

    def walk(x):
        if isinstance(x, (list, tuple)):
            kinds = set(map(type, x))
            if kinds and kinds <= {bool, int, float}:  # the common flat list: one pass in C
                dtypes.update(_python_number_dtype(k) for k in kinds)
                return x
            return [walk(v) for v in x]
        dtypes.add(_leaf_dtype(x))
        return _number_of(x) if isinstance(x, Tensor) else x

    data = walk(data)
    result = None
    for dt in dtypes:
        result = dt if result is None else promote_types(result, dt)
    return data, (result if result is not None else get_default_dtype())


def _out_of_range(arr, dt):
    """Whether a number in `arr` (NumPy's typing of Python numbers) does not fit integer dtype `dt`."""
    info = np.iinfo(np.dtype(dt.numpy_name))
    low = -info.max if info.min == 0 else info.min  # uint8 wraps -255..-1 as PyTorch
    if arr.dtype == object:
        return any(not (low <= int(v) <= info.max) for v in arr.flat)
    if arr.dtype.kind == "f":
        finite = np.isfinite(arr)
        if not finite.all():
            return True
        return bool((arr < info.min).any() or (arr >= info.max + 1.0).any())  # PyTorch's bounds
    if arr.dtype.kind in "iu":
        return bool(arr.size) and (int(arr.min()) < low or int(arr.max()) > info.max)
    return False


def check_fits(arr, dt, op="porta.tensor()"):
    """RuntimeError naming `op` when a number of `arr` does not fit integer dtype `dt` (floats truncate toward
    zero): PyTorch's checked conversion of a Python number."""
    if dt.is_floating_point or dt is _dtype.bool_:
        return
    if _out_of_range(arr, dt):
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow ({op}: a number is "
                           f"outside {dt.name}'s range; pick a wider dtype)")
