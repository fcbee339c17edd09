#!/usr/bin/env python3
"""Porta through its C ABI from Python's ctypes alone: no `import porta`, no
header parser, nothing beyond the standard library. This is what a binding in
another language (Rust `extern "C"`, Go cgo without the header, ...) does:
restate the numbers and layouts of porta.h's "For other languages (FFI)"
section, read the dtypes from the data symbols libporta.so exports, declare
the few functions it calls, and check every status.

  ffi_ctypes_example.py [path/to/libporta.so]   (default: $PORTA_LIBRARY)

ctest runs it as abi.FfiCtypesExample with the build's libporta.so; the cpu
plugin is found beside the library (<libdir>/porta/plugins).
"""
import ctypes
import os
import sys

if not __debug__:
    sys.exit("ffi_ctypes_example.py checks with assert: run it without -O")

# ---- numbers from porta.h's "For other languages (FFI)" section

STATUS_NAMES = {  # porta_status
    0: "PORTA_OK", 1: "PORTA_ERROR_INVALID_ARGUMENT", 2: "PORTA_ERROR_DEVICE_MISMATCH",
    3: "PORTA_ERROR_SHAPE_MISMATCH", 4: "PORTA_ERROR_UNSUPPORTED_DTYPE", 5: "PORTA_ERROR_NO_SUCH_DEVICE",
    6: "PORTA_ERROR_NOT_IMPLEMENTED", 7: "PORTA_ERROR_OUT_OF_MEMORY", 8: "PORTA_ERROR_BACKEND",
    9: "PORTA_ERROR_INVALID_HANDLE", 10: "PORTA_ERROR_IO", 11: "PORTA_ERROR_INTERNAL", 12: "PORTA_ERROR_TIMEOUT",
}
PORTA_OK, PORTA_ERROR_INVALID_ARGUMENT, PORTA_ERROR_SHAPE_MISMATCH, PORTA_ERROR_INVALID_HANDLE = 0, 1, 3, 9
kDLCPU = 1
kDLInt, kDLFloat = 0, 2


class DLDevice(ctypes.Structure):  # passed by value
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):  # passed by value
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


assert ctypes.sizeof(DLDevice) == 8 and ctypes.alignment(DLDevice) == 4
assert ctypes.sizeof(DLDataType) == 4 and ctypes.alignment(DLDataType) == 2

Status = ctypes.c_int32          # porta_status: a C enum, 32 bits
Tensor = ctypes.c_void_p         # porta_tensor*: opaque
Out = ctypes.POINTER(Tensor)     # porta_tensor** out
I32P, I64P = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_int64)


def load(path):
    lib = ctypes.CDLL(path)
    signatures = {
        "porta_last_error": (ctypes.c_char_p, []),
        "porta_status_name": (ctypes.c_char_p, [Status]),
        "porta_version": (Status, [I32P] * 5),
        "porta_dtype_by_name": (Status, [ctypes.c_char_p, ctypes.POINTER(DLDataType)]),
        "porta_device_parse": (Status, [ctypes.c_char_p, ctypes.POINTER(DLDevice)]),
        "porta_tensor_from_host": (Status, [ctypes.c_void_p, DLDataType, I64P, ctypes.c_int32, DLDevice, Out]),
        "porta_tensor_to_host": (Status, [Tensor, ctypes.c_void_p, ctypes.c_size_t]),
        "porta_tensor_dtype": (Status, [Tensor, ctypes.POINTER(DLDataType)]),
        "porta_tensor_ndim": (Status, [Tensor, I32P]),
        "porta_tensor_shape": (Status, [Tensor, I64P]),
        "porta_add": (Status, [Tensor, Tensor, Out]),
        "porta_matmul": (Status, [Tensor, Tensor, Out]),
        "porta_sum": (Status, [Tensor, I32P, ctypes.c_int32, ctypes.c_int, Out]),
        "porta_argmax": (Status, [Tensor, ctypes.c_int32, ctypes.c_int, Out]),
        "porta_tensor_release": (None, [Tensor]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PORTA_LIBRARY")
    if not path:
        sys.exit(__doc__)
    lib = load(path)
    live = []

    def check(status, call):
        if status != PORTA_OK:
            sys.exit(f"{call}: {lib.porta_status_name(status).decode()}: {lib.porta_last_error().decode()}")

    def make(values, shape, ctype, dtype, device):
        data = (ctype * len(values))(*values)
        dims = (ctypes.c_int64 * len(shape))(*shape)
        t = Tensor()
        check(lib.porta_tensor_from_host(data, dtype, dims, len(shape), device, ctypes.byref(t)), "from_host")
        live.append(t)
        return t

    def op(fn, *args):  # fn(*args, porta_tensor** out): the new reference is ours
        t = Tensor()
        check(fn(*args, ctypes.byref(t)), fn.__name__)
        live.append(t)
        return t

    def read(t, ctype):
        ndim = ctypes.c_int32()
        check(lib.porta_tensor_ndim(t, ctypes.byref(ndim)), "ndim")
        shape = (ctypes.c_int64 * max(ndim.value, 1))()
        check(lib.porta_tensor_shape(t, shape), "shape")
        n = 1
        for d in shape[:ndim.value]:
            n *= d
        out = (ctype * n)()
        check(lib.porta_tensor_to_host(t, out, ctypes.sizeof(out)), "to_host")
        return list(shape[:ndim.value]), list(out)

    # The ABI version: the data symbols below are user ABI 1.2.
    abi = [ctypes.c_int32() for _ in range(5)]
    check(lib.porta_version(*[ctypes.byref(v) for v in abi]), "porta_version")
    abi_major, abi_minor = abi[3].value, abi[4].value
    assert abi_major == 1 and abi_minor >= 2, (abi_major, abi_minor)

    # Status values as documented: the library names each one the same.
    for value, name in STATUS_NAMES.items():
        assert lib.porta_status_name(value).decode() == name, (value, name)

    # Dtypes and limits read from libporta.so, not restated.
    float32 = DLDataType.in_dll(lib, "porta_dtype_float32")
    int64 = DLDataType.in_dll(lib, "porta_dtype_int64")
    assert (float32.code, float32.bits, float32.lanes) == (kDLFloat, 32, 1)
    assert (int64.code, int64.bits, int64.lanes) == (kDLInt, 64, 1)
    for name in ("float32", "float64", "int32", "int64", "uint8", "bool"):
        by_name, symbol = DLDataType(), DLDataType.in_dll(lib, "porta_dtype_" + name)
        check(lib.porta_dtype_by_name(name.encode(), ctypes.byref(by_name)), "porta_dtype_by_name")
        assert bytes(by_name) == bytes(symbol), name
    all_dims = ctypes.c_int32.in_dll(lib, "porta_all_dims").value
    assert all_dims == -2**31 and ctypes.c_int32.in_dll(lib, "porta_max_dims").value == 16

    cpu = DLDevice()
    check(lib.porta_device_parse(b"cpu", ctypes.byref(cpu)), "porta_device_parse")
    assert (cpu.device_type, cpu.device_id) == (kDLCPU, 0)

    # Ops: x = [[1, 2], [3, 4]]
    x = make([1, 2, 3, 4], [2, 2], ctypes.c_float, float32, cpu)
    y = op(lib.porta_add, x, x)
    assert read(y, ctypes.c_float) == ([2, 2], [2, 4, 6, 8])
    m = op(lib.porta_matmul, x, x)
    assert read(m, ctypes.c_float) == ([2, 2], [7, 10, 15, 22])
    dim0 = (ctypes.c_int32 * 1)(0)
    s = op(lib.porta_sum, m, dim0, 1, 0)  # over dim 0, keepdim 0
    assert read(s, ctypes.c_float) == ([2], [22, 32])
    a = op(lib.porta_argmax, m, all_dims, 0)  # over all elements
    dtype = DLDataType()
    check(lib.porta_tensor_dtype(a, ctypes.byref(dtype)), "porta_tensor_dtype")
    assert bytes(dtype) == bytes(int64)
    assert read(a, ctypes.c_int64) == ([], [3])

    # Errors: the documented status, a message naming the problem, out untouched.
    v = make([1, 2, 3], [3], ctypes.c_float, float32, cpu)
    out = Tensor()
    assert lib.porta_add(x, v, ctypes.byref(out)) == PORTA_ERROR_SHAPE_MISMATCH
    message = lib.porta_last_error().decode()
    assert "add" in message and "[2, 2]" in message and "[3]" in message, message
    assert out.value is None
    unknown = DLDataType(7, 7, 7)
    assert lib.porta_dtype_by_name(b"float8", ctypes.byref(unknown)) == PORTA_ERROR_INVALID_ARGUMENT
    assert "unknown dtype name 'float8'" in lib.porta_last_error().decode(), lib.porta_last_error()
    assert (unknown.code, unknown.bits, unknown.lanes) == (7, 7, 7)
    assert lib.porta_tensor_ndim(None, ctypes.byref(ctypes.c_int32())) == PORTA_ERROR_INVALID_HANDLE
    assert "t is NULL" in lib.porta_last_error().decode(), lib.porta_last_error()

    for t in reversed(live):
        lib.porta_tensor_release(t)
    # A released handle is detected, not read after free.
    assert lib.porta_tensor_ndim(x, ctypes.byref(ctypes.c_int32())) == PORTA_ERROR_INVALID_HANDLE
    assert "already released" in lib.porta_last_error().decode(), lib.porta_last_error()

    print(f"ffi_ctypes_example: user ABI {abi_major}.{abi_minor} through ctypes alone: "
          f"add, matmul, sum, argmax on cpu and 4 refusals as documented")


main()
