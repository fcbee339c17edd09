"""porta.PortaError and its subclasses, one per porta_status.

Each also derives from the built-in exception Python code expects for that
kind of failure (ShapeError is a ValueError, DtypeError a TypeError, ...),
and all are RuntimeErrors, as PyTorch's errors are.
"""
from ._lib import fn


class PortaError(RuntimeError):
    """A failed Porta call; ``status`` is the porta_status, ``status_name`` its name."""

    status = 0

    @property
    def status_name(self):
        """The status code's stable name, e.g. 'PORTA_ERROR_DEVICE_MISMATCH'."""
        name = fn.porta_status_name(self.status)
        return name.decode() if name else str(self.status)


class InvalidArgumentError(PortaError, ValueError):
    """PORTA_ERROR_INVALID_ARGUMENT: an argument was malformed or out of range."""
    status = 1


class DimensionError(InvalidArgumentError, IndexError):
    """A dimension out of range (PORTA_ERROR_INVALID_ARGUMENT from the core's wrap_dim): an IndexError,
    as PyTorch's "Dimension out of range" is."""


# The phrase wrap_dim in core/src/ops/views.cpp writes, the one source of that error.
_DIMENSION_OUT_OF_RANGE = ": dimension "
_DIMENSION_OUT_OF_RANGE_TAIL = " is out of range for a tensor of "


class DeviceMismatchError(PortaError):
    """PORTA_ERROR_DEVICE_MISMATCH: tensors given to one op live on different devices."""
    status = 2


class ShapeError(PortaError, ValueError):
    """PORTA_ERROR_SHAPE_MISMATCH: shapes cannot be broadcast, reshaped or multiplied."""
    status = 3


class DtypeError(PortaError, TypeError):
    """PORTA_ERROR_UNSUPPORTED_DTYPE: the op (or plugin) does not support the dtype."""
    status = 4


class NoSuchDeviceError(PortaError):
    """PORTA_ERROR_NO_SUCH_DEVICE: unknown device type or missing device index."""
    status = 5


class NotImplementedByBackendError(PortaError, NotImplementedError):
    """PORTA_ERROR_NOT_IMPLEMENTED: the backend lacks this op, dtype or slot."""
    status = 6


class OutOfMemoryError(PortaError):
    """PORTA_ERROR_OUT_OF_MEMORY: an allocation failed even after freeing the cache (a RuntimeError, as
    torch.OutOfMemoryError)."""
    status = 7


class BackendError(PortaError):
    """PORTA_ERROR_BACKEND: a plugin failed to load or its backend failed."""
    status = 8


class InvalidHandleError(PortaError):
    """PORTA_ERROR_INVALID_HANDLE: a handle was NULL or already released."""
    status = 9


class PortaIOError(PortaError, OSError):
    """PORTA_ERROR_IO: a file could not be read or written, or was malformed."""
    status = 10


class PortaFileNotFoundError(PortaIOError, FileNotFoundError):
    """A file to read does not exist: a FileNotFoundError, as torch.load's."""


class InternalError(PortaError):
    """PORTA_ERROR_INTERNAL: a bug in Porta; please report it with the message."""
    status = 11


class PortaTimeoutError(PortaError, TimeoutError):
    """PORTA_ERROR_TIMEOUT: an operation did not complete in its time limit (a collective, a rendezvous)."""
    status = 12


_BY_STATUS = {cls.status: cls for cls in (
    InvalidArgumentError, DeviceMismatchError, ShapeError, DtypeError, NoSuchDeviceError,
    NotImplementedByBackendError, OutOfMemoryError, BackendError, InvalidHandleError, PortaIOError,
    InternalError, PortaTimeoutError)}
_last_error = fn.porta_last_error


def error(status, context=None):
    """The exception for a failed call, carrying porta_last_error()."""
    raw = _last_error()
    message = raw.decode("utf-8", "replace") if raw else ""
    if not message:
        message = f"Porta call failed with status {status}"
    if context and not message.startswith(context.removesuffix("()") + ":"):  # the core may name it already
        message = f"{context}: {message}"
    cls = _BY_STATUS.get(status)
    if cls is InvalidArgumentError and _DIMENSION_OUT_OF_RANGE in message and _DIMENSION_OUT_OF_RANGE_TAIL in message:
        cls = DimensionError
    if cls is None:
        e = PortaError(message)
        e.status = status
        return e
    return cls(message)


def check(status, context=None):
    """Raises the PortaError subclass for `status` unless it is PORTA_OK (0)."""
    if status:
        raise error(status, context)

