"""Finds libporta.so and declares every C function of porta/porta.h once.

The signatures come from _signatures.py, which generate_signatures.py derives
from porta.h (tests/python/test_lib_matches_header.py fails when it is stale).
The porta_* structs (PluginInfo, DeviceInfo, SgdOptions, ...) are _abi.py's,
which the same script generates from porta.h, re-exported here; the DLPack
structs below mirror dlpack.h (not part of this repository) field for field,
as porta.h's FFI section gives their layout. Each versioned struct's
``struct_size`` is set by :func:`sized`. ``op_table()`` reads the op table the
library itself reports (porta_op_get_info: ops.h's PORTA_OP_DESCRIPTORS).
"""
import ctypes
import ctypes.util
import operator
import os
import sysconfig
from ctypes import (POINTER, Structure, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint8, c_uint16,
                    c_uint32, c_uint64, c_void_p)

from ._abi import (STRUCTS, AdagradOptions, AdamOptions, BackwardOptions, Conv2dOptions,  # noqa: F401 (re-exported)
                   DeviceInfo, GeneratorState, InitOptions, MemoryStats, OpInfo, PluginInfo, Pool2dOptions,
                   ReducerOptions, RmspropOptions, RnnOptions, SgdOptions)
from ._signatures import SIGNATURES

# ----------------------------------------------------------------- locating

_LIB_NAMES = ("libporta.so.0", "libporta.so")
_REPO_BUILD_DIRS = ("build", "build-release", "build-py")


def _candidates():
    """(description, path) pairs in lookup order; see _load."""
    env = os.environ.get("PORTA_LIBRARY")
    if env:
        yield "$PORTA_LIBRARY", env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    # The wheel carries the library inside the package: porta/lib/libporta.so.0.
    yield "the package's own", os.path.join(here, "lib", "libporta.so.0")
    # Installed beside a CMake install: <prefix>/lib/pythonX.Y/site-packages/porta -> <prefix>/lib*.
    prefix = os.path.abspath(os.path.join(here, "..", "..", "..", ".."))
    multiarch = sysconfig.get_config_var("MULTIARCH")
    for libdir in ("lib", "lib64") + ((os.path.join("lib", multiarch),) if multiarch else ()):
        for name in _LIB_NAMES:
            yield "install prefix", os.path.join(prefix, libdir, name)
    # A checkout: <repo>/bindings/python/porta -> <repo>/build*/lib.
    repo = os.path.abspath(os.path.join(here, "..", "..", ".."))
    if os.path.isfile(os.path.join(repo, "abi", "porta", "porta.h")):
        for build in _REPO_BUILD_DIRS:
            yield "source checkout", os.path.join(repo, build, "lib", "libporta.so")
    found = ctypes.util.find_library("porta")
    if found:
        yield "ctypes.util.find_library", found
    yield "system loader", "libporta.so.0"


def _load():
    tried = []
    for how, path in _candidates():
        if os.path.isabs(path) and not os.path.exists(path):
            tried.append(f"{path} ({how}: not found)")
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path} ({how}: {e})")
    raise ImportError(
        "porta: cannot load the Porta C library (libporta.so). Tried:\n  " + "\n  ".join(tried) +
        "\nBuild it (cmake -S . -B build && cmake --build build) or install it, then set "
        "PORTA_LIBRARY=/path/to/libporta.so if it is somewhere else.")


lib, path = _load()

# ------------------------------------------------------------------ structs
# porta.h's own structs come from _abi.py (generated); DLPack's are dlpack.h's.


class DLDevice(Structure):
    """DLPack's DLDevice: {device_type, device_id}."""
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(Structure):
    """DLPack's DLDataType: {code, bits, lanes}."""
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


def op_table():
    """The op table of the loaded library (porta_op_count / porta_op_get_info), in id order: tuples of
    (NAME, name, id, kind name, inputs, dtypes, result, differentiable, doc)."""
    count = c_int32()
    lib.porta_op_count.restype = c_int
    lib.porta_op_count.argtypes = (POINTER(c_int32),)
    lib.porta_op_get_info.restype = c_int
    lib.porta_op_get_info.argtypes = (c_int32, POINTER(OpInfo))
    if lib.porta_op_count(ctypes.byref(count)):
        raise ImportError(f"porta: porta_op_count failed in {path}")
    rows = []
    for i in range(count.value):
        info = OpInfo(struct_size=ctypes.sizeof(OpInfo))
        if lib.porta_op_get_info(i, ctypes.byref(info)):
            raise ImportError(f"porta: porta_op_get_info({i}) failed in {path}")
        name = info.name.decode()
        rows.append((name.upper(), name, info.id, info.kind_name.decode(), info.inputs, info.dtypes, info.result,
                     bool(info.differentiable), info.doc.decode()))
    return rows


class DLTensor(Structure):
    """DLPack's DLTensor."""
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32), ("dtype", DLDataType),
                ("shape", POINTER(c_int64)), ("strides", POINTER(c_int64)), ("byte_offset", c_uint64)]


class DLManagedTensor(Structure):
    """DLPack's legacy DLManagedTensor (deleter declared below)."""


DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p),
                            ("deleter", ctypes.CFUNCTYPE(None, POINTER(DLManagedTensor)))]


class DLPackVersion(Structure):
    """DLPack's DLPackVersion."""
    _fields_ = [("major", c_uint32), ("minor", c_uint32)]


class DLManagedTensorVersioned(Structure):
    """DLPack's DLManagedTensorVersioned (>= 1.0)."""


DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion), ("manager_ctx", c_void_p),
    ("deleter", ctypes.CFUNCTYPE(None, POINTER(DLManagedTensorVersioned))),
    ("flags", c_uint64), ("dl_tensor", DLTensor)]


def sized(struct_type, **fields):
    """An instance of a versioned porta struct with struct_size set."""
    s = struct_type(**fields)
    s.struct_size = ctypes.sizeof(struct_type)
    return s


# ------------------------------------------------------------- declarations

T = c_void_p                 # porta_tensor*
OUT = POINTER(c_void_p)      # porta_tensor** (new reference)
I32, I64, U64, D, INT, SZ = c_int32, c_int64, c_uint64, c_double, c_int, c_size_t
P_I32, P_I64, P_INT, P_D = POINTER(c_int32), POINTER(c_int64), POINTER(c_int), POINTER(c_double)
DEV, DT = DLDevice, DLDataType
STATUS = c_int               # porta_status
LOG_CALLBACK = ctypes.CFUNCTYPE(None, c_int32, c_char_p, c_void_p)  # porta_log_callback
GRAD_HOOK = ctypes.CFUNCTYPE(STATUS, c_void_p, T, OUT)  # porta_grad_hook
RELEASE_CALLBACK = ctypes.CFUNCTYPE(None, c_void_p)  # porta_release_callback
FUNCTION_BACKWARD = ctypes.CFUNCTYPE(STATUS, c_void_p, T, OUT, c_int32)  # porta_function_backward
FUNCTION_BACKWARD_OUTPUTS = ctypes.CFUNCTYPE(STATUS, c_void_p, POINTER(c_void_p), c_int32, OUT,
                                             c_int32)  # porta_function_backward_outputs


def _resolve(spelling):
    """A ctypes type from its spelling in _signatures.py: an alias or class of this module,
    a ctypes name, or POINTER(...) of one."""
    if spelling is None:
        return None
    if spelling.startswith("POINTER(") and spelling.endswith(")"):
        return POINTER(_resolve(spelling[len("POINTER("):-1]))
    found = globals().get(spelling, getattr(ctypes, spelling, None))
    if found is None:
        raise ImportError(f"porta: _signatures.py spells a type {spelling!r} that _lib.py does not define")
    return found


# Every function of porta.h, from the table generate_signatures.py derives from the header.
_SIGNATURES = {name: (_resolve(ret), tuple(_resolve(a) for a in args)) for name, (ret, args) in SIGNATURES.items()}

missing = []  # functions this libporta.so lacks (e.g. an older build)


class _Functions:
    """The declared C functions as attributes: fn.porta_add(...)."""


fn = _Functions()
# ctypes converts a Python int to a C integer by wrapping it silently
# (zeros(2**64 + 3) became zeros(3)). Every function taking integers is
# declared through one guard that refuses a value its C parameter cannot hold.
_INT_RANGES = {c_int32: (-2**31, 2**31 - 1, "int32"), c_int64: (-2**63, 2**63 - 1, "int64"),
               c_uint32: (0, 2**32 - 1, "uint32"), c_uint64: (0, 2**64 - 1, "uint64"),
               c_size_t: (0, 2**(8 * ctypes.sizeof(c_size_t)) - 1, "size_t")}


def int_out_of_range(value, ctype):
    """An OverflowError when `value` does not fit C type `ctype`, else None."""
    lo, hi, name = _INT_RANGES[ctype]
    if lo <= value <= hi:
        return None
    return OverflowError(f"{value} is out of range for {name} [{lo}, {hi}]")


def _guard_ints(f, name, argtypes):
    checked = [(i, t) for i, t in enumerate(argtypes) if t in _INT_RANGES]
    if not checked:
        return f

    def call(*args):
        for i, t in checked:
            v = args[i]
            if isinstance(v, int):
                e = int_out_of_range(v, t)
                if e is not None:
                    raise OverflowError(f"{name}: argument {i + 1}: {e}")
        return f(*args)

    call.__name__ = name
    return call


def int_arg(value, what, op):
    """An integer argument as PyTorch parses one: an int or anything with __index__, never a bool or a float
    (TypeError naming the argument)."""
    if isinstance(value, bool):
        raise TypeError(f"{op}(): argument '{what}' must be int, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{op}(): argument '{what}' must be int, not {type(value).__name__}") from None


def int_array(ctype, values, what):
    """A C array of `values` (ints), refusing any its C type cannot hold; `what` names them in the error."""
    values = list(values)
    for v in values:
        e = int_out_of_range(v, ctype) if isinstance(v, int) else None
        if e is not None:
            raise OverflowError(f"{what}: {e}")
    return (ctype * len(values))(*values)


for _name, (_restype, _argtypes) in _SIGNATURES.items():
    try:
        _f = getattr(lib, _name)
    except AttributeError:
        missing.append(_name)
        continue
    _f.restype = _restype
    _f.argtypes = list(_argtypes)
    setattr(fn, _name, _guard_ints(_f, _name, _argtypes))


_lib_holding_gil = ctypes.PyDLL(path)


def raw(name, hold_gil=False):
    """A second, undeclared function object for `name`, for hot paths (ops, release):
    callers pass only ctypes instances (c_void_p handles, byref(...), c_double(...)),
    so ctypes converts nothing; this saves about half a microsecond per op. The
    declared function (fn.<name>) stays the reference for its signature.
    hold_gil: for calls that never wait long (porta_tensor_release), skip
    releasing and retaking the GIL."""
    if name not in _SIGNATURES or name in missing:
        return require(name)
    # Indexing makes a new function object; attribute access would return the declared one.
    f = (_lib_holding_gil if hold_gil else lib)[name]
    f.restype = _SIGNATURES[name][0]
    return f


def require(name):
    """The C function `name`, or a clear error when this libporta.so lacks it."""
    f = getattr(fn, name, None)
    if f is None:
        raise NotImplementedError(
            f"{name} is not in {path}: the Porta C library is older than this Python package; "
            "rebuild or reinstall libporta.so, or point PORTA_LIBRARY at a current one")
    return f
