"""porta.PortaError and its subclasses, one per porta_status.

Each also derives from the built-in exception Python code expects for that
kind of failure (ShapeError is a ValueError, DtypeError a TypeError, ...),
and all are RuntimeErrors, as PyTorch's errors are. An error is classified by
its status and the machine-readable detail porta_last_error_detail() gives,
never by its message; both come from the generated _abi.py.
"""
from . import _abi
from ._lib import fn


class PortaError(RuntimeError):
    """A failed Porta call; ``status`` is the porta_status, ``status_name`` its name."""

    status = _abi.PORTA_OK

    @property
    def status_name(self):
        """The status code's stable name, e.g. 'PORTA_ERROR_DEVICE_MISMATCH'."""
        name = fn.porta_status_name(self.status)
        return name.decode() if name else str(self.status)


class InvalidArgumentError(PortaError, ValueError):
    """PORTA_ERROR_INVALID_ARGUMENT: an argument was malformed or out of range."""
    status = _abi.PORTA_ERROR_INVALID_ARGUMENT


class DimensionError(InvalidArgumentError, IndexError):
    """A dimension out of range (PORTA_ERROR_INVALID_ARGUMENT with PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE):
    an IndexError, as PyTorch's "Dimension out of range" is."""
    detail = _abi.PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE


class DeviceMismatchError(PortaError):
    """PORTA_ERROR_DEVICE_MISMATCH: tensors given to one op live on different devices."""
    status = _abi.PORTA_ERROR_DEVICE_MISMATCH


class ShapeError(PortaError, ValueError):
    """PORTA_ERROR_SHAPE_MISMATCH: shapes cannot be broadcast, reshaped or multiplied."""
    status = _abi.PORTA_ERROR_SHAPE_MISMATCH


class DtypeError(PortaError, TypeError):
    """PORTA_ERROR_UNSUPPORTED_DTYPE: the op (or plugin) does not support the dtype."""
    status = _abi.PORTA_ERROR_UNSUPPORTED_DTYPE


class NoSuchDeviceError(PortaError):
    """PORTA_ERROR_NO_SUCH_DEVICE: unknown device type or missing device index."""
    status = _abi.PORTA_ERROR_NO_SUCH_DEVICE


class NotImplementedByBackendError(PortaError, NotImplementedError):
    """PORTA_ERROR_NOT_IMPLEMENTED: the backend lacks this op, dtype or slot."""
    status = _abi.PORTA_ERROR_NOT_IMPLEMENTED


class OutOfMemoryError(PortaError):
    """PORTA_ERROR_OUT_OF_MEMORY: an allocation failed even after freeing the cache (a RuntimeError, as
    torch.OutOfMemoryError)."""
    status = _abi.PORTA_ERROR_OUT_OF_MEMORY


class BackendError(PortaError):
    """PORTA_ERROR_BACKEND: a plugin failed to load or its backend failed."""
    status = _abi.PORTA_ERROR_BACKEND


class InvalidHandleError(PortaError):
    """PORTA_ERROR_INVALID_HANDLE: a handle was NULL or already released."""
    status = _abi.PORTA_ERROR_INVALID_HANDLE


class PortaIOError(PortaError, OSError):
    """PORTA_ERROR_IO: a file could not be read or written, or was malformed."""
    status = _abi.PORTA_ERROR_IO


class PortaFileNotFoundError(PortaIOError, FileNotFoundError):
    """A file to read does not exist: a FileNotFoundError, as torch.load's."""


class InternalError(PortaError):
    """PORTA_ERROR_INTERNAL: a bug in Porta; please report it with the message."""
    status = _abi.PORTA_ERROR_INTERNAL


class PortaTimeoutError(PortaError, TimeoutError):
    """PORTA_ERROR_TIMEOUT: an operation did not complete in its time limit (a collective, a rendezvous)."""
    status = _abi.PORTA_ERROR_TIMEOUT


_BY_STATUS = {cls.status: cls for cls in (
    InvalidArgumentError, DeviceMismatchError, ShapeError, DtypeError, NoSuchDeviceError,
    NotImplementedByBackendError, OutOfMemoryError, BackendError, InvalidHandleError, PortaIOError,
    InternalError, PortaTimeoutError)}
# Errors the status alone does not name: (status, porta_error_detail) -> class.
_BY_DETAIL = {(cls.status, cls.detail): cls for cls in (DimensionError,)}
_last_error = fn.porta_last_error
_last_error_detail = getattr(fn, "porta_last_error_detail", None)  # None before ABI 1.15


def error(status, context=None):
    """The exception for a failed call, carrying porta_last_error()."""
    raw = _last_error()
    message = raw.decode("utf-8", "replace") if raw else ""
    if not message:
        message = f"Porta call failed with status {status}"
    if context and not message.startswith(context.removesuffix("()") + ":"):  # the core may name it already
        message = f"{context}: {message}"
    detail = _last_error_detail() if _last_error_detail is not None else _abi.PORTA_ERROR_DETAIL_NONE
    cls = _BY_DETAIL.get((status, detail)) or _BY_STATUS.get(status)
    if cls is None:
        e = PortaError(message)
        e.status = status
        return e
    return cls(message)


def check(status, context=None):
    """Raises the PortaError subclass for `status` unless it is PORTA_OK."""
    if status:
        raise error(status, context)

