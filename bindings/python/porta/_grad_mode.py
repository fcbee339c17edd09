"""Grad mode per thread (no_grad, enable_grad, set_grad_enabled, inference_mode) and anomaly detection:
a leaf module (it needs only the C library), re-exported by porta.autograd."""
import functools
from ctypes import byref, c_int

from ._errors import check
from ._lib import fn

_set = fn.porta_set_grad_enabled
_get = fn.porta_is_grad_enabled


def is_grad_enabled():
    """Whether ops on this thread are recorded for autograd."""
    v = c_int()
    check(_get(byref(v)))
    return v.value != 0


class _GradMode:
    """A context manager and decorator that sets grad mode and restores it."""

    enabled = True

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if callable(func):  # used bare: @porta.no_grad
            return self(func)
        return self

    def __enter__(self):
        self._prev = is_grad_enabled()
        check(_set(1 if self.enabled else 0))
        return self

    def __exit__(self, *exc):
        _set(1 if self._prev else 0)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return func(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    """Stops autograd recording: ``with porta.no_grad():`` or ``@porta.no_grad()``."""

    enabled = False


class enable_grad(_GradMode):
    """Turns autograd recording on inside a no_grad block."""

    enabled = True


class inference_mode(_GradMode):
    """torch.inference_mode(mode=True), as no_grad in Porta (which has no inference tensors):
    ``with porta.inference_mode():``, ``@porta.inference_mode`` or ``@porta.inference_mode()``;
    inference_mode(False) turns grad mode on, as PyTorch's does (its guard sets grad mode to not mode)."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            self = object.__new__(cls)
            self.mode = mode
            return self
        if callable(mode):  # used bare: @porta.inference_mode
            return cls(True)(mode)
        raise TypeError(f"inference_mode(): mode must be a bool or a function, got {type(mode).__name__}")

    def __enter__(self):
        self._prev = is_grad_enabled()
        check(_set(0 if self.mode else 1))
        return self

    def __call__(self, func):
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return func(*args, **kwargs)
        return wrapper


class set_grad_enabled(_GradMode):
    """Sets grad mode now (a function call) or for a ``with`` block."""

    def __init__(self, mode):
        if mode.__class__ is not bool:
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        self._prev = is_grad_enabled()
        self.enabled = mode
        check(_set(1 if self.enabled else 0))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _set(1 if self._prev else 0)
        return False

    def __call__(self, func):
        mode = self.enabled
        _set(1 if self._prev else 0)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return func(*args, **kwargs)
        return wrapper


def is_anomaly_enabled():
    """Whether anomaly detection is on (for the whole process, as PyTorch's)."""
    v = c_int()
    check(fn.porta_is_anomaly_enabled(byref(v)))
    return v.value != 0


def _check_nan_supported(check_nan):
    if not check_nan:
        raise NotImplementedError("detect_anomaly(check_nan=False) is not supported by Porta: without the NaN "
                                  "check it would only keep forward traces, which Porta does not record")


class set_detect_anomaly:  # noqa: N801 - PyTorch's name
    """torch.autograd.set_detect_anomaly(mode): sets anomaly detection now, or for a ``with`` block. While
    on, backward fails with RuntimeError naming the first node whose gradient has a NaN ("Function
    'SqrtBackward' returned nan values in its 0th output"); each check reads a gradient back from its
    device. Porta keeps no forward traces: the node's name is the op."""

    def __init__(self, mode, check_nan=True):
        if mode:
            _check_nan_supported(check_nan)
        self._prev = is_anomaly_enabled()
        check(fn.porta_set_anomaly_enabled(1 if mode else 0))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        fn.porta_set_anomaly_enabled(1 if self._prev else 0)
        return False


class detect_anomaly:  # noqa: N801 - PyTorch's name
    """torch.autograd.detect_anomaly(): anomaly detection on inside a ``with`` block or a decorated function."""

    def __init__(self, check_nan=True):
        _check_nan_supported(check_nan)

    def __enter__(self):
        self._prev = is_anomaly_enabled()
        check(fn.porta_set_anomaly_enabled(1))
        return self

    def __exit__(self, *exc):
        fn.porta_set_anomaly_enabled(1 if self._prev else 0)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with detect_anomaly():
                return func(*args, **kwargs)
        return wrapper
