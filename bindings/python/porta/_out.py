"""out= on the free functions (porta.matmul(a, b, out=y), porta.max(x, 1, out=(values, indices))), as PyTorch:
the result is computed, then written into `out` with copy_ (cast to out's dtype where PyTorch's casting
rules allow), and `out` is returned."""
import functools

from . import _dtype, _type_rules
from ._grad_mode import is_grad_enabled
from ._tensor import Tensor


def _torch_name(dt):
    """PyTorch's name of a dtype in its messages ("result type Float can't be cast to ... Long")."""
    return _dtype.TENSOR_TYPE_NAMES[dt][:-len("Tensor")]


def write_out(out, result, name, casts=True):
    """Writes result (a tensor or a tuple of them) into out; returns out. casts: out may have another dtype the
    result casts to (PyTorch's elementwise ops and sums); else it must have the result's dtype."""
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"{name}(): out= must be a tuple of {len(result)} tensors for this call")
        for o, r in zip(out, result):
            write_out(o, r, name, casts)
        return type(result)(*out) if hasattr(result, "_fields") else tuple(out)
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be a Tensor, not {type(out).__name__}")
    if is_grad_enabled() and (result.requires_grad or out.requires_grad):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad; call it without out= (or under no_grad)")
    if out.device != result.device:
        raise RuntimeError(f"{name}(): expected out tensor to have device {result.device}, but got {out.device} "
                           "instead")
    if not casts and isinstance(out, Tensor) and out.dtype is not result.dtype:
        raise RuntimeError(f"{name}(): Expected out tensor to have dtype {_torch_name(result.dtype).lower()}, but "
                           f"got {_torch_name(out.dtype).lower()} instead")
    if not _type_rules.can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"{name}(): result type {_torch_name(result.dtype)} can't be cast to the desired "
                           f"output type {_torch_name(out.dtype)}")
    if out.shape != result.shape:
        if out.numel() != 0:
            raise RuntimeError(f"{name}(): out= has shape {list(out.shape)} but the result has shape "
                               f"{list(result.shape)}; Porta does not resize a non-empty out= tensor (PyTorch "
                               "deprecates it): pass one of the result's shape, or an empty one")
        out.data = result.to(out.dtype)  # an empty out takes the result's shape, as PyTorch resizes it
        return out
    out.copy_(result)
    return out


def with_out(f, casts):
    """f with PyTorch's out= keyword; casts: whether out may have another dtype (write_out). A reduction given
    dtype= wants out of that dtype."""
    @functools.wraps(f)
    def g(*args, out=None, **kwargs):
        result = f(*args, **kwargs)
        if out is None:
            return result
        return write_out(out, result, f.__name__, casts and kwargs.get("dtype") is None)
    return g
