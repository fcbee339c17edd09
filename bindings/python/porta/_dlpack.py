"""The Python DLPack protocol: Tensor.__dlpack__ / __dlpack_device__ and
porta.from_dlpack (https://dmlc.github.io/dlpack/latest/python_spec.html).

Capsules are named "dltensor_versioned" (DLPack >= 1.0) or "dltensor"
(legacy); a consumer renames the capsule "used_..." when it takes ownership,
and the capsule's destructor calls the deleter only when nobody did.
"""
import atexit
import ctypes
import sys
import threading
from ctypes import byref, c_char_p, c_int, c_uint32, c_void_p

from . import _device
from ._abi import (DLPACK_FLAG_BITMASK_IS_COPIED, DLPACK_MAJOR_VERSION, PORTA_DLPACK_MAX_NDIM,
                   PORTA_ERROR_INVALID_ARGUMENT, PORTA_OK, kDLCPU, kDLCUDA)
from ._errors import PortaError, error
from ._lib import DLDevice, DLManagedTensor, DLManagedTensorVersioned, require
from ._tensor import Tensor, wrap

_VERSIONED, _LEGACY = b"dltensor_versioned", b"dltensor"
_USED_VERSIONED, _USED_LEGACY = b"used_dltensor_versioned", b"used_dltensor"

_api = ctypes.pythonapi
_DESTRUCTOR = ctypes.CFUNCTYPE(None, c_void_p)
_capsule_new = _api.PyCapsule_New
_capsule_new.restype, _capsule_new.argtypes = ctypes.py_object, [c_void_p, c_char_p, _DESTRUCTOR]
_get_pointer = _api.PyCapsule_GetPointer
_get_pointer.restype, _get_pointer.argtypes = c_void_p, [ctypes.py_object, c_char_p]
_set_name = _api.PyCapsule_SetName
_set_name.restype, _set_name.argtypes = c_int, [ctypes.py_object, c_char_p]
_get_name = _api.PyCapsule_GetName
_get_name.restype, _get_name.argtypes = c_char_p, [ctypes.py_object]
_is_valid = _api.PyCapsule_IsValid
_is_valid.restype, _is_valid.argtypes = c_int, [ctypes.py_object, c_char_p]
# The same functions on a raw PyObject*, for the destructor (which gets one).
_raw_is_valid = ctypes.PYFUNCTYPE(c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", _api))
_DELETER = ctypes.CFUNCTYPE(None, c_void_p)
_DELETER_OFFSET_VERSIONED = DLManagedTensorVersioned.deleter.offset
_DELETER_OFFSET_LEGACY = DLManagedTensor.deleter.offset


def _make_destructor(name, deleter_offset, is_valid=_raw_is_valid, get_pointer=_raw_get_pointer,
                     deleter_type=_DELETER, from_address=c_void_p.from_address):
    """A capsule destructor that calls the DLPack deleter unless a consumer renamed
    (took) the capsule. Everything it needs is bound here, so it still works
    while the interpreter shuts down."""
    def destroy(capsule):
        if is_valid(capsule, name):
            managed = get_pointer(capsule, name)
            if managed:
                deleter = from_address(managed + deleter_offset).value
                if deleter:
                    deleter_type(deleter)(managed)
    return _DESTRUCTOR(destroy)


# Module-level references keep the callbacks alive as long as any capsule.
_destroy_versioned = _make_destructor(_VERSIONED, _DELETER_OFFSET_VERSIONED)
_destroy_legacy = _make_destructor(_LEGACY, _DELETER_OFFSET_LEGACY)

# A capsule destructor written in Python cannot run while a consumer is raising
# (a consumer that rejects a capsule sets its error, then drops the capsule;
# any Python callback then clobbers that error). So we keep a reference to each
# capsule we export and drop it only here, at a safe point, once nobody else
# holds the capsule: its destructor runs then. Called at every export and
# import, and at exit.
_exported = []
_exported_lock = threading.Lock()


def _refcounts(capsules, getrefcount=sys.getrefcount):
    return [getrefcount(c) for c in capsules]


_ONLY_OURS = _refcounts([object()])[0]  # the count of an object only the list holds, measured the same way


def collect_exported():
    """Drops exported capsules no consumer holds any more (running their destructors)."""
    with _exported_lock:
        if _exported:
            counts = _refcounts(_exported)
            _exported[:] = [c for c, n in zip(_exported, counts) if n > _ONLY_OURS]


def _keep(capsule):
    with _exported_lock:
        _exported.append(capsule)
    return capsule


atexit.register(_exported.clear)

# ------------------------------------------------------------------ export


def _function(name):
    """The C function, or one that raises a clear error when this libporta.so lacks it."""
    try:
        return require(name)
    except NotImplementedError as e:
        error_ = e

        def missing(*args):
            raise error_
        return missing


_to_versioned, _to_legacy = _function("porta_to_dlpack_versioned"), _function("porta_to_dlpack")
_from_versioned, _from_legacy = _function("porta_from_dlpack_versioned"), _function("porta_from_dlpack")


def _dlpack_device(self):
    """(device_type, device_id) of the data, as DLPack numbers."""
    dl = self.dl_device
    return (dl.device_type, dl.device_id)


def _dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A PyCapsule holding a DLPack tensor that views (or, when asked, copies) this tensor."""
    collect_exported()
    if self.requires_grad:  # the consumer would not see the gradient: refused, as PyTorch refuses it
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    src = self
    here = self.dl_device
    flags = 0
    if stream is not None and stream != -1 and here.device_type == kDLCPU:
        raise BufferError(f"__dlpack__: stream must be None for a cpu tensor, got {stream!r}")
    if stream == 0 and here.device_type == kDLCUDA:
        raise BufferError("__dlpack__: stream=0 is ambiguous for CUDA and the DLPack spec disallows it; pass None "
                          "or 1 (the legacy default stream), 2 (the per-thread default stream) or a stream handle")
    if dl_device is not None and tuple(dl_device) != (here.device_type, here.device_id):
        if copy is False:
            raise BufferError(f"__dlpack__: the tensor is on {self.device} but dl_device={tuple(dl_device)} was "
                              "asked with copy=False; pass copy=True (or None) to allow a copy")
        target = DLDevice(int(dl_device[0]), int(dl_device[1]))
        try:
            src = src.to(_device.from_dl(target))
        except PortaError as e:
            raise BufferError(f"__dlpack__: cannot copy to dl_device={tuple(dl_device)}: {e}") from None
        flags |= DLPACK_FLAG_BITMASK_IS_COPIED
    elif copy:
        src = src.clone()
        flags |= DLPACK_FLAG_BITMASK_IS_COPIED
    if here.device_type != kDLCPU and stream != -1:
        # The consumer's stream (None/1/2/a handle) may be any: make the data ready
        # for all. stream=-1 asks for no synchronization.
        _device.synchronize(self.device)
    out = c_void_p()
    if max_version is not None and max_version[0] >= 1:
        status = _to_versioned(src._h, flags, byref(out))
        if status:
            raise BufferError(f"__dlpack__: {error(status)}")
        return _keep(_capsule_new(out, _VERSIONED, _destroy_versioned))
    status = _to_legacy(src._h, byref(out))
    if status:
        raise BufferError(f"__dlpack__: {error(status)}")
    return _keep(_capsule_new(out, _LEGACY, _destroy_legacy))


# ------------------------------------------------------------------ import


_CONTIGUOUS_HINT = (". Pass copy=True to import a copy, or make the array contiguous first "
                    "(numpy.ascontiguousarray).")


def _negative_stride(managed, versioned):
    """Whether the DLTensor of the managed tensor at `managed` has a negative stride (which porta's import
    refuses); read before the import, which may consume it."""
    dl = (DLManagedTensorVersioned if versioned else DLManagedTensor).from_address(managed).dl_tensor
    return bool(dl.strides) and any(dl.strides[i] < 0 for i in range(min(dl.ndim, PORTA_DLPACK_MAX_NDIM)))


def _import_capsule(capsule, negative_stride_hint=""):
    """A tensor owning the DLPack tensor in `capsule`, which is marked used. negative_stride_hint is added to
    the error when the import is refused as invalid and the tensor has a negative stride."""
    name = _get_name(capsule)
    if name == _VERSIONED:
        importer, used, versioned = _from_versioned, _USED_VERSIONED, True
    elif name == _LEGACY:
        importer, used, versioned = _from_legacy, _USED_LEGACY, False
    elif name in (_USED_VERSIONED, _USED_LEGACY):
        raise BufferError("from_dlpack: this DLPack capsule was already consumed; ask the producer for a new one")
    else:
        raise BufferError(f"from_dlpack: not a DLPack capsule (its name is {name!r})")
    managed = _get_pointer(capsule, name)
    # A foreign major version makes porta consume it (deleter called) and fail.
    consumed_on_error = versioned and c_uint32.from_address(managed).value != DLPACK_MAJOR_VERSION  # version.major
    negative = bool(negative_stride_hint) and not consumed_on_error and _negative_stride(managed, versioned)
    out = c_void_p()
    status = importer(managed, byref(out))
    if status == PORTA_OK or consumed_on_error:
        _set_name(capsule, used)
    if status:
        hint = negative_stride_hint if negative and status == PORTA_ERROR_INVALID_ARGUMENT else ""
        raise BufferError(f"from_dlpack: {error(status)}{hint}")
    return wrap(out)


def _is_capsule(obj):
    return type(obj).__name__ == "PyCapsule"


def from_dlpack(ext_tensor, *, device=None, copy=None):
    """A tensor viewing `ext_tensor`'s memory (any object with __dlpack__, or a DLPack capsule).

    Zero-copy unless `device` differs from where the data lives or copy=True;
    copy=False forbids copies (BufferError when one would be needed). Read-only
    producers (a read-only NumPy array) give read-only tensors.
    """
    want = None if device is None else _device.resolve(device)
    if isinstance(ext_tensor, Tensor):
        if ext_tensor.requires_grad:
            raise BufferError("from_dlpack: Can't export tensors that require gradient, use tensor.detach()")
        t = ext_tensor
        copied = False
    elif _is_capsule(ext_tensor):
        t, copied = _import_capsule(ext_tensor), False
    else:
        if not hasattr(ext_tensor, "__dlpack__"):
            raise TypeError(f"from_dlpack: {type(ext_tensor).__name__} does not implement the DLPack protocol "
                            "(__dlpack__); use porta.tensor(data) to copy it")
        src_dev = tuple(ext_tensor.__dlpack_device__()) if hasattr(ext_tensor, "__dlpack_device__") else (kDLCPU, 0)
        moving = want is not None and (want.device_type, want.device_id) != src_dev
        # The transfer to `device` copies anyway; otherwise the producer makes the copy.
        kwargs = {"copy": copy} if copy is not None and not (moving and copy) else {}
        if src_dev[0] == kDLCPU:
            kwargs["stream"] = None
        try:
            capsule = ext_tensor.__dlpack__(max_version=(DLPACK_MAJOR_VERSION, 0), **kwargs)
            copied = bool(kwargs.get("copy"))
        except TypeError:  # a producer older than DLPack 1.0 (no max_version or copy)
            capsule, copied = ext_tensor.__dlpack__(), False
        except BufferError as e:
            raise BufferError(f"from_dlpack: {e}") from None
        t = _import_capsule(capsule, _CONTIGUOUS_HINT if copy is not True else "")
    if want is not None:
        have = t.dl_device
        if (have.device_type, have.device_id) != (want.device_type, want.device_id):
            if copy is False:
                raise BufferError(f"from_dlpack: the data is on {t.device} but device={device} was asked with "
                                  "copy=False; moving it needs a copy")
            return t.to(device)
    if copy and not copied:
        t = t.clone()
    return t
