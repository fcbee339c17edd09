"""Memory statistics and cache control of a device's caching allocator."""
from ctypes import byref

from . import _device
from ._errors import check
from ._lib import MemoryStats, fn, sized

_FIELDS = [name for name, _ in MemoryStats._fields_[1:]]


def memory_stats(device=None):
    """The allocator and transfer counters of `device` (default cpu) as a dict."""
    s = sized(MemoryStats)
    check(fn.porta_device_memory_stats(_device.resolve(device), byref(s)))
    return {name: getattr(s, name) for name in _FIELDS}


def memory_allocated(device=None):
    """Bytes held by live tensors on `device`."""
    return memory_stats(device)["allocated_bytes"]


def memory_reserved(device=None):
    """Bytes held by live tensors plus bytes cached for reuse on `device`."""
    return memory_stats(device)["reserved_bytes"]


def max_memory_allocated(device=None):
    """The most bytes live tensors have held on `device` at once."""
    return memory_stats(device)["peak_allocated_bytes"]


def max_memory_reserved(device=None):
    """The most bytes the caching allocator has held on `device` at once (tensors plus cache)."""
    return memory_stats(device)["peak_reserved_bytes"]


def empty_cache(device=None):
    """Returns every cached, unused block of `device` to its plugin."""
    check(fn.porta_device_empty_cache(_device.resolve(device)))
