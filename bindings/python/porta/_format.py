"""repr(tensor) as PyTorch prints it: tensor([[1., 1.]], device='mock:0', dtype=int32).

The text comes from the core (porta_tensor_format), the one printer the C++
binding's operator<< also uses, so both print every tensor alike.
"""
import ctypes

from ._errors import error
from ._lib import fn


def format_tensor(t):
    """The PyTorch-style repr of `t`."""
    # One call (one read from the device) for any text up to 16 KiB; a longer
    # one is asked for its size first.
    needed = ctypes.c_size_t()
    buf = ctypes.create_string_buffer(16384)
    if fn.porta_tensor_format(t._h, buf, len(buf), ctypes.byref(needed)):
        status = fn.porta_tensor_format(t._h, None, 0, ctypes.byref(needed))
        if status:
            raise error(status)
        buf = ctypes.create_string_buffer(needed.value)
        status = fn.porta_tensor_format(t._h, buf, needed.value, ctypes.byref(needed))
        if status:
            raise error(status)
    return buf.value.decode()


def _repr(self):
    try:
        return format_tensor(self)
    except Exception as e:  # noqa: BLE001 - repr must not raise
        return f"<porta.Tensor (unprintable: {e})>"

