"""Finds libporta.so and declares every C function of porta/porta.h once.

The C structs below mirror porta.h and dlpack.h field for field; each
versioned struct's ``struct_size`` is set by :func:`sized`. Op entry points
(porta_add, porta_add_scalar, porta_sum, ...) are declared from the op table
the library itself reports (porta_op_get_info: ops.h's PORTA_OP_DESCRIPTORS,
read by ``op_table()``), by their kind, so a new op of an existing kind needs
no edit here.
"""
import ctypes
import ctypes.util
import os
import sysconfig
from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int, c_int32, c_int64,
                    c_size_t, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)

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


class DLDevice(Structure):
    """DLPack's DLDevice: {device_type, device_id}."""
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(Structure):
    """DLPack's DLDataType: {code, bits, lanes}."""
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class OpInfo(Structure):
    """porta_op_info: one row of the op table."""
    _fields_ = [("struct_size", c_size_t), ("name", c_char_p), ("id", c_int32), ("kind", c_int32),
                ("inputs", c_int32), ("dtypes", c_int32), ("result", c_int32), ("differentiable", c_int32),
                ("doc", c_char_p), ("kind_name", c_char_p)]


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


class PluginInfo(Structure):
    """porta_plugin_info."""
    _fields_ = [("struct_size", c_size_t), ("path", c_char_p), ("name", c_char_p), ("version", c_char_p),
                ("reason", c_char_p), ("state", c_int32), ("device_type", c_int32), ("device_count", c_int32),
                ("abi_major", c_uint32), ("abi_minor", c_uint32)]


class DeviceInfo(Structure):
    """porta_device_info."""
    _fields_ = [("struct_size", c_size_t), ("name", c_char * 128), ("memory_total", c_uint64),
                ("memory_free", c_uint64), ("compute_units", c_int32), ("kind", c_int32),
                ("capability_major", c_int32), ("capability_minor", c_int32)]


class MemoryStats(Structure):
    """porta_memory_stats."""
    _fields_ = [("struct_size", c_size_t)] + [(n, c_uint64) for n in (
        "allocated_bytes", "reserved_bytes", "peak_allocated_bytes", "allocations", "cache_hits",
        "device_allocations", "device_frees", "bytes_to_device", "bytes_from_device", "peak_reserved_bytes")]


class Conv2dOptions(Structure):
    """porta_conv2d_options."""
    _fields_ = [("struct_size", c_size_t), ("stride", c_int32 * 2), ("padding", c_int32 * 2),
                ("dilation", c_int32 * 2)]


class Pool2dOptions(Structure):
    """porta_pool2d_options."""
    _fields_ = [("struct_size", c_size_t), ("kernel", c_int32 * 2), ("stride", c_int32 * 2),
                ("padding", c_int32 * 2), ("dilation", c_int32 * 2), ("count_include_pad", c_int32)]


class SgdOptions(Structure):
    """porta_sgd_options."""
    _fields_ = [("struct_size", c_size_t), ("lr", c_double), ("momentum", c_double), ("dampening", c_double),
                ("weight_decay", c_double), ("nesterov", c_int32)]


class AdamOptions(Structure):
    """porta_adam_options."""
    _fields_ = [("struct_size", c_size_t), ("lr", c_double), ("beta1", c_double), ("beta2", c_double),
                ("eps", c_double), ("weight_decay", c_double)]


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

_SIGNATURES = {
    "porta_last_error": (c_char_p, ()),
    "porta_status_name": (c_char_p, (INT,)),
    "porta_version": (STATUS, (P_I32, P_I32, P_I32, P_I32, P_I32)),
    "porta_dtype_by_name": (STATUS, (c_char_p, POINTER(DLDataType))),
    "porta_op_count": (STATUS, (P_I32,)),
    "porta_op_get_info": (STATUS, (I32, POINTER(OpInfo))),
    "porta_load_plugin": (STATUS, (c_char_p,)),
    "porta_add_plugin_path": (STATUS, (c_char_p,)),
    "porta_plugin_count": (STATUS, (P_I32,)),
    "porta_set_log_callback": (STATUS, (LOG_CALLBACK, c_void_p)),
    "porta_set_log_level": (STATUS, (I32,)),
    "porta_get_log_level": (STATUS, (P_I32,)),
    "porta_set_num_threads": (STATUS, (I32,)),
    "porta_get_num_threads": (STATUS, (P_I32,)),
    "porta_plugin_get_info": (STATUS, (I32, POINTER(PluginInfo))),
    "porta_device_parse": (STATUS, (c_char_p, POINTER(DLDevice))),
    "porta_device_count": (STATUS, (c_char_p, P_INT)),
    "porta_device_to_string": (STATUS, (DEV, c_char_p, SZ)),
    "porta_device_get_info": (STATUS, (DEV, POINTER(DeviceInfo))),
    "porta_accelerator_count": (STATUS, (P_I32,)),
    "porta_accelerator_get": (STATUS, (I32, POINTER(DLDevice))),
    "porta_synchronize": (STATUS, (DEV,)),
    "porta_device_memory_stats": (STATUS, (DEV, POINTER(MemoryStats))),
    "porta_device_empty_cache": (STATUS, (DEV,)),
    # tensors: life and data
    "porta_tensor_retain": (None, (T,)),
    "porta_tensor_release": (None, (T,)),
    "porta_tensor_empty": (STATUS, (DT, P_I64, I32, DEV, OUT)),
    "porta_tensor_from_host": (STATUS, (c_void_p, DT, P_I64, I32, DEV, OUT)),
    "porta_tensor_to_host": (STATUS, (T, c_void_p, SZ)),
    "porta_tensor_from_host_into": (STATUS, (T, c_void_p, SZ)),
    "porta_tensor_to": (STATUS, (T, DEV, OUT)),
    "porta_tensor_to_non_blocking": (STATUS, (T, DEV, OUT)),
    "porta_copy_into": (STATUS, (T, T)),
    "porta_unary_inplace": (STATUS, (I32, T)),
    "porta_binary_inplace": (STATUS, (I32, T, T)),
    "porta_binary_scalar_inplace": (STATUS, (I32, T, D)),
    "porta_full_int64": (STATUS, (P_I64, I32, I64, DT, DEV, OUT)),
    "porta_arange_int64": (STATUS, (I64, I64, I64, DT, DEV, OUT)),
    "porta_tensor_dtype": (STATUS, (T, POINTER(DLDataType))),
    "porta_tensor_ndim": (STATUS, (T, P_I32)),
    "porta_tensor_shape": (STATUS, (T, P_I64)),
    "porta_tensor_strides": (STATUS, (T, P_I64)),
    "porta_tensor_byte_offset": (STATUS, (T, POINTER(c_uint64))),
    "porta_tensor_device": (STATUS, (T, POINTER(DLDevice))),
    "porta_tensor_numel": (STATUS, (T, P_I64)),
    "porta_tensor_is_contiguous": (STATUS, (T, P_INT)),
    "porta_tensor_format": (STATUS, (T, c_char_p, SZ, POINTER(SZ))),
    # views
    "porta_view": (STATUS, (T, P_I64, I32, OUT)),
    "porta_reshape": (STATUS, (T, P_I64, I32, OUT)),
    "porta_slice": (STATUS, (T, I32, I64, I64, I64, OUT)),
    "porta_select": (STATUS, (T, I32, I64, OUT)),
    "porta_transpose": (STATUS, (T, I32, I32, OUT)),
    "porta_permute": (STATUS, (T, P_I32, I32, OUT)),
    "porta_expand": (STATUS, (T, P_I64, I32, OUT)),
    "porta_unsqueeze": (STATUS, (T, I32, OUT)),
    "porta_squeeze": (STATUS, (T, I32, OUT)),
    "porta_contiguous": (STATUS, (T, OUT)),
    "porta_clone": (STATUS, (T, OUT)),
    # factories
    "porta_full": (STATUS, (P_I64, I32, D, DT, DEV, OUT)),
    "porta_zeros": (STATUS, (P_I64, I32, DT, DEV, OUT)),
    "porta_ones": (STATUS, (P_I64, I32, DT, DEV, OUT)),
    "porta_arange": (STATUS, (D, D, D, DT, DEV, OUT)),
    "porta_manual_seed": (STATUS, (U64,)),
    "porta_randperm": (STATUS, (I64, DEV, OUT)),
    "porta_randperm_at": (STATUS, (I64, U64, U64, DEV, OUT)),
    "porta_generator_get_state": (STATUS, (POINTER(c_uint64), POINTER(c_uint64))),
    "porta_generator_set_state": (STATUS, (U64, U64)),
    "porta_rand": (STATUS, (P_I64, I32, DT, DEV, OUT)),
    "porta_randn": (STATUS, (P_I64, I32, DT, DEV, OUT)),
    "porta_cast": (STATUS, (T, DT, OUT)),
    # composite ops (porta.h "composite ops"): defined in the core from the kernel ops
    "porta_clamp": (STATUS, (T, P_D, P_D, OUT)),
    "porta_clamp_tensor": (STATUS, (T, T, T, OUT)),
    "porta_lerp": (STATUS, (T, T, T, OUT)),
    "porta_logsumexp": (STATUS, (T, P_I32, I32, INT, OUT)),
    "porta_gelu": (STATUS, (T, I32, OUT)),
    "porta_silu": (STATUS, (T, OUT)),
    "porta_softplus": (STATUS, (T, D, D, OUT)),
    "porta_leaky_relu": (STATUS, (T, D, OUT)),
    "porta_elu": (STATUS, (T, D, OUT)),
    "porta_hardtanh": (STATUS, (T, D, D, OUT)),
    "porta_isnan": (STATUS, (T, OUT)),
    "porta_isinf": (STATUS, (T, OUT)),
    "porta_isfinite": (STATUS, (T, OUT)),
    "porta_nan_to_num": (STATUS, (T, P_D, P_D, P_D, OUT)),
    "porta_logical_not": (STATUS, (T, OUT)),
    "porta_logical_and": (STATUS, (T, T, OUT)),
    "porta_logical_or": (STATUS, (T, T, OUT)),
    "porta_logical_xor": (STATUS, (T, T, OUT)),
    # autograd
    "porta_tensor_set_requires_grad": (STATUS, (T, INT)),
    "porta_tensor_requires_grad": (STATUS, (T, P_INT)),
    "porta_tensor_is_leaf": (STATUS, (T, P_INT)),
    "porta_tensor_grad": (STATUS, (T, OUT)),
    "porta_tensor_set_grad": (STATUS, (T, T)),
    "porta_backward": (STATUS, (T, T)),
    "porta_detach": (STATUS, (T, OUT)),
    "porta_set_grad_enabled": (STATUS, (INT,)),
    "porta_is_grad_enabled": (STATUS, (P_INT,)),
    "porta_tensor_move_to": (STATUS, (T, DEV)),
    "porta_tensor_set_data": (STATUS, (T, T)),
    # nn
    "porta_linear": (STATUS, (T, T, T, OUT)),
    "porta_conv2d": (STATUS, (T, T, T, POINTER(Conv2dOptions), OUT)),
    "porta_max_pool2d": (STATUS, (T, POINTER(Pool2dOptions), OUT)),
    "porta_avg_pool2d": (STATUS, (T, POINTER(Pool2dOptions), OUT)),
    "porta_softmax": (STATUS, (T, I32, OUT)),
    "porta_log_softmax": (STATUS, (T, I32, OUT)),
    "porta_cross_entropy": (STATUS, (T, T, INT, OUT)),
    "porta_cross_entropy_ignore": (STATUS, (T, T, INT, I64, OUT)),
    "porta_mse_loss": (STATUS, (T, T, INT, OUT)),
    "porta_dropout": (STATUS, (T, D, INT, OUT)),
    "porta_flatten": (STATUS, (T, I32, I32, OUT)),
    "porta_init_uniform_": (STATUS, (T, D, D)),
    "porta_init_normal_": (STATUS, (T, D, D)),
    "porta_init_kaiming_uniform_": (STATUS, (T, D)),
    "porta_init_layer_default_": (STATUS, (T, T)),
    "porta_init_fan_in": (STATUS, (T, P_I64)),
    # optimizers
    "porta_sgd_create": (STATUS, (POINTER(c_void_p), I32, POINTER(SgdOptions), POINTER(c_void_p))),
    "porta_adam_create": (STATUS, (POINTER(c_void_p), I32, POINTER(AdamOptions), POINTER(c_void_p))),
    "porta_adamw_create": (STATUS, (POINTER(c_void_p), I32, POINTER(AdamOptions), POINTER(c_void_p))),
    "porta_optimizer_step": (STATUS, (c_void_p,)),
    "porta_optimizer_zero_grad": (STATUS, (c_void_p,)),
    "porta_optimizer_set_lr": (STATUS, (c_void_p, D)),
    "porta_optimizer_state_slots": (STATUS, (c_void_p, P_I32)),
    "porta_optimizer_get_state": (STATUS, (c_void_p, I32, I32, OUT)),
    "porta_optimizer_set_state": (STATUS, (c_void_p, I32, I32, T)),
    "porta_optimizer_get_step": (STATUS, (c_void_p, I32, P_I64)),
    "porta_optimizer_set_step": (STATUS, (c_void_p, I32, I64)),
    "porta_optimizer_get_lr": (STATUS, (c_void_p, POINTER(c_double))),
    "porta_optimizer_release": (None, (c_void_p,)),
    # files and datasets
    "porta_safetensors_save": (STATUS, (c_char_p, POINTER(c_char_p), POINTER(c_void_p), I32)),
    "porta_safetensors_load": (STATUS, (c_char_p, DEV, POINTER(c_void_p))),
    "porta_tensor_list_size": (STATUS, (c_void_p, P_I32)),
    "porta_tensor_list_get": (STATUS, (c_void_p, I32, POINTER(c_char_p), OUT)),
    "porta_tensor_list_release": (None, (c_void_p,)),
    "porta_read_idx": (STATUS, (c_char_p, OUT)),
    "porta_read_cifar10": (STATUS, (c_char_p, OUT, OUT)),
    "porta_tensor_empty_pinned": (STATUS, (DT, P_I64, I32, DEV, OUT)),
    "porta_tensor_is_pinned": (STATUS, (T, P_INT)),
    # DLPack
    "porta_to_dlpack_versioned": (STATUS, (T, U64, POINTER(c_void_p))),
    "porta_to_dlpack": (STATUS, (T, POINTER(c_void_p))),
    "porta_from_dlpack_versioned": (STATUS, (c_void_p, OUT)),
    "porta_from_dlpack": (STATUS, (c_void_p, OUT)),
    "porta_tensor_is_read_only": (STATUS, (T, P_INT)),
    "porta_tensor_data_ptr": (STATUS, (T, POINTER(c_void_p))),
}

# C entry points of each op kind (see porta.h): name pattern -> argtypes.
_KIND_SIGNATURES = {
    "UNARY": {"{}": (T, OUT)},
    "BINARY": {"{}": (T, T, OUT), "{}_scalar": (T, D, OUT)},
    "COMPARE": {"{}": (T, T, OUT), "{}_scalar": (T, D, OUT)},
    "WHERE": {"{}": (T, T, T, OUT)},
    "REDUCE": {"{}": (T, P_I32, I32, INT, OUT)},
    "ARGREDUCE": {"{}": (T, I32, INT, OUT)},
    "MATMUL": {"{}": (T, T, OUT)},
}
for _NAME, _name, _id, _kind, *_rest in op_table():
    for _pattern, _args in _KIND_SIGNATURES.get(_kind, {}).items():
        _SIGNATURES["porta_" + _pattern.format(_name)] = (STATUS, _args)

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
