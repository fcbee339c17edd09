"""Porta: a plugin-based tensor runtime, with a PyTorch-style Python API.

    import porta
    x = porta.ones(2, 3, device=porta.try_gpu())
    print(x @ x.T)

Everything goes through the stable C ABI of libporta.so (ctypes); see
README.md in this directory for how the library is found.
"""
# isort: skip_file  (plugin folders are added before anything loads a device; the dtype aliases shadow builtins last)
import builtins

from ._errors import (PortaError, InvalidArgumentError, DimensionError, DeviceMismatchError, ShapeError, DtypeError,
                      NoSuchDeviceError, NotImplementedByBackendError, OutOfMemoryError, BackendError,
                      InvalidHandleError, PortaIOError, InternalError, PortaTimeoutError)
from . import _lib
from ._lib import path as library_path
from ._dtype import dtype, float32, float64, int32, int64, uint8, bool_, int8, int16, float16, bfloat16
from ._device import (device, try_gpu, try_all_gpus, available_devices, accelerator_count, synchronize,
                      plugins, device_count, device_info)
from ._runtime import (load_plugin, add_plugin_path, set_num_threads, get_num_threads, set_log_level,
                       get_log_level, set_log_callback)
from . import _plugin_packages
_plugin_packages.add_to_search()
from ._tensor import Tensor, Size
from ._math_ops import values_indices
from . import _methods, _math_ops
_methods.install()  # every Tensor method from outside _tensor.py, from one table grouped by concept
from ._factories import (tensor, as_tensor, from_numpy, empty, zeros, ones, full, arange, linspace, logspace, rand,
                         randn, randint, normal, bernoulli, multinomial, eye, empty_like, zeros_like, ones_like, full_like,
                         rand_like, randn_like, randint_like, manual_seed, get_rng_state, set_rng_state,
                         initial_seed)
from ._dlpack import from_dlpack
from ._generator import Generator, default_generator, randperm
from .autograd import no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode
from ._memory import (memory_stats, memory_allocated, memory_reserved, max_memory_allocated, max_memory_reserved,
                      empty_cache)
from ._serialization import save, load
from ._type_rules import promote_types, result_type, can_cast, finfo, iinfo, get_default_dtype, set_default_dtype
from . import accelerator  # noqa: F401
from . import amp, cuda, linalg, nn, optim, utils, datasets, transforms  # noqa: F401
from .amp import autocast, is_autocast_available, is_autocast_enabled, get_autocast_dtype

from ._out import with_out as _with_out
# porta.add, porta.exp, porta.sum, porta.where, ..., each with out=
globals().update({_name: _f if _name in _math_ops.WITHOUT_OUT_NAMES else _with_out(_f, _f in _math_ops.CASTS_INTO_OUT)
                 for _name, _f in _methods.functions().items()})


def is_tensor(obj):
    """Whether obj is a porta.Tensor."""
    return isinstance(obj, Tensor)


def numel(input):  # noqa: A002 - torch's name
    """Number of elements of a tensor."""
    return input.numel()


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    """Whether |input - other| <= atol + rtol * |other| everywhere (compared on the host); one dtype and
    tolerances >= 0, as PyTorch requires."""
    import numpy as np
    if input.dtype is not other.dtype:
        raise RuntimeError(f"allclose: {input.dtype} did not match {other.dtype} (compare tensors of one dtype)")
    for name, tol in (("rtol", rtol), ("atol", atol)):
        if tol < 0:
            raise RuntimeError(f"allclose: {name} must be greater than or equal to zero, but got {tol}")
    return builtins.bool(np.allclose(input.numpy(force=True), other.numpy(force=True), rtol=rtol, atol=atol,
                            equal_nan=equal_nan))


def equal(input, other):  # noqa: A002
    """Whether two tensors have the same shape and elements."""
    return input.shape == other.shape and builtins.bool((input == other).all())


def _version():
    from ctypes import byref, c_int32
    v = [c_int32() for _ in range(5)]
    _lib.fn.porta_version(*[byref(x) for x in v])
    return ".".join(str(x.value) for x in v[:3]), (v[3].value, v[4].value)


__version__, abi_version = _version()

from ._keyword_aliases import install as _install_keyword_aliases
_install_keyword_aliases(Tensor, globals())  # x.sum(axis=1), x.reshape(shape=...), porta.zeros(size=...)

# PyTorch's dtype aliases, bound last because they shadow builtins in this module.
float = float32  # noqa: A001
double = float64
int = int32  # noqa: A001
long = int64
bool = bool_  # noqa: A001
half = float16
short = int16
