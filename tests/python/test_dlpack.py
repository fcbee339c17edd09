"""DLPack: the Python protocol (capsules, dl_device, copy), and zero-copy
exchange with NumPy and PyTorch in both directions."""
import ctypes
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import porta
from porta import _lib
from conftest import needs_dlpack

pytestmark = needs_dlpack

_name = ctypes.pythonapi.PyCapsule_GetName
_name.restype, _name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_pointer.restype, _pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_new = ctypes.pythonapi.PyCapsule_New
_new.restype, _new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def _flags(capsule):
    return _lib.DLManagedTensorVersioned.from_address(_pointer(capsule, b"dltensor_versioned")).flags


def _allocated(device="cpu"):
    porta._dlpack.collect_exported()
    gc.collect()
    return porta.memory_allocated(device)


# ------------------------------------------------------------------ protocol


def test_capsule_names_and_device(device):
    x = porta.arange(4.0, device=device)
    assert _name(x.__dlpack__()) == b"dltensor"
    assert _name(x.__dlpack__(max_version=(1, 0))) == b"dltensor_versioned"
    assert _name(x.__dlpack__(max_version=(1, 5))) == b"dltensor_versioned"
    assert _name(x.__dlpack__(max_version=(0, 8))) == b"dltensor"
    dl = x.dl_device
    assert x.__dlpack_device__() == (dl.device_type, dl.device_id)
    if device == "cpu":
        assert x.__dlpack_device__() == (1, 0)


def test_unconsumed_capsule_frees_storage(device):
    before = _allocated(device)
    x = porta.ones(1024, device=device)
    capsule = x.__dlpack__(max_version=(1, 0))
    del x
    assert _allocated(device) > before  # the capsule keeps the storage alive
    del capsule
    assert _allocated(device) == before  # dropped unconsumed: the deleter ran


def test_import_renames_and_refuses_reuse(device):
    x = porta.arange(3.0, device=device)
    for max_version, used in (((1, 0), b"used_dltensor_versioned"), (None, b"used_dltensor")):
        capsule = x.__dlpack__(max_version=max_version)
        y = porta.from_dlpack(capsule)
        assert _name(capsule) == used
        assert y.tolist() == [0, 1, 2] and y.device == x.device
        with pytest.raises(BufferError, match="already consumed"):
            porta.from_dlpack(capsule)


def test_dl_device_and_copy(device):
    x = porta.arange(3.0, device=device)
    here = x.__dlpack_device__()
    assert _flags(x.__dlpack__(max_version=(1, 0), dl_device=here, copy=False)) == 0
    assert _flags(x.__dlpack__(max_version=(1, 0), copy=True)) & 2  # IS_COPIED
    copied = porta.from_dlpack(x.__dlpack__(max_version=(1, 0), copy=True))
    copied[0] = 10.0
    assert x[0].item() == 0.0
    if device != "cpu":
        with pytest.raises(BufferError, match="copy=False"):
            x.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=False)
        capsule = x.__dlpack__(max_version=(1, 0), dl_device=(1, 0))
        assert _flags(capsule) & 2
        assert porta.from_dlpack(capsule).device == porta.device("cpu")
    else:
        with pytest.raises(BufferError, match="stream"):
            x.__dlpack__(stream=1)


def test_read_only_export_and_legacy_refusal():
    ro = np.arange(3.0)
    ro.flags.writeable = False
    t = porta.from_dlpack(ro)
    assert t.is_read_only
    assert _flags(t.__dlpack__(max_version=(1, 0))) & 1  # READ_ONLY
    with pytest.raises(BufferError, match="read-only"):
        t.__dlpack__()  # the legacy struct cannot say read-only


def test_from_dlpack_arguments(device):
    x = porta.ones(2)
    assert porta.from_dlpack(x) is x
    with pytest.raises(TypeError, match="DLPack"):
        porta.from_dlpack([1, 2])
    a = np.arange(4.0)
    t = porta.from_dlpack(a, device=device)
    assert t.device == porta.device(device) and t.tolist() == [0, 1, 2, 3]
    if device != "cpu":
        with pytest.raises(BufferError, match="copy=False"):
            porta.from_dlpack(a, device=device, copy=False)
    c = porta.from_dlpack(a, copy=True)
    a[0] = 5
    assert c[0].item() == 0


def _managed(major, dtype_code=2, deleted=None):
    """A hand-made DLManagedTensorVersioned over a float64 buffer, with a counting deleter."""
    buf = (ctypes.c_double * 3)(1, 2, 3)
    shape = (ctypes.c_int64 * 1)(3)
    m = _lib.DLManagedTensorVersioned()
    m.version.major, m.version.minor = major, 0
    m.dl_tensor.data = ctypes.addressof(buf)
    m.dl_tensor.device = _lib.DLDevice(1, 0)
    m.dl_tensor.ndim = 1
    m.dl_tensor.dtype = _lib.DLDataType(dtype_code, 64, 1)
    m.dl_tensor.shape = shape

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    def deleter(ptr):
        deleted.append(ptr)
    m.deleter = ctypes.cast(deleter, dict(_lib.DLManagedTensorVersioned._fields_)["deleter"])
    return m, (buf, shape, deleter)


def test_import_contract_with_foreign_producers():
    deleted = []
    m, keep = _managed(1, deleted=deleted)
    capsule = _new(ctypes.addressof(m), b"dltensor_versioned", None)
    t = porta.from_dlpack(capsule)
    assert t.tolist() == [1, 2, 3] and t.dtype is porta.float64 and deleted == []
    del t
    gc.collect()
    assert deleted == [ctypes.addressof(m)]  # once, when the last porta tensor went

    deleted.clear()
    m, keep = _managed(1, dtype_code=99, deleted=deleted)
    capsule = _new(ctypes.addressof(m), b"dltensor_versioned", None)
    with pytest.raises(BufferError, match="dtype"):
        porta.from_dlpack(capsule)
    assert deleted == [] and _name(capsule) == b"dltensor_versioned"  # rejected: still the caller's

    m, keep = _managed(2, deleted=deleted)
    capsule = _new(ctypes.addressof(m), b"dltensor_versioned", None)
    with pytest.raises(BufferError, match="version"):
        porta.from_dlpack(capsule)
    assert deleted == [ctypes.addressof(m)]  # a foreign major version: porta called the deleter
    assert _name(capsule) == b"used_dltensor_versioned"  # so nobody calls it again


# ------------------------------------------------------------------ NumPy


def test_numpy_to_porta_shares_memory():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = porta.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data == a.__array_interface__["data"][0]
    a[1, 2] = 100
    assert t[1, 2].item() == 100
    t[0, 0] = -7
    assert a[0, 0] == -7
    assert porta.from_numpy(a).data_ptr() == a.ctypes.data and porta.as_tensor(a).data_ptr() == a.ctypes.data


def test_porta_to_numpy_shares_memory():
    t = porta.arange(6.0).view(2, 3)
    n = np.from_dlpack(t)
    assert n.ctypes.data == t.data_ptr()
    n[1, 1] = 42
    assert t[1, 1].item() == 42
    t[0, 2] = 9
    assert n[0, 2] == 9
    v = t.numpy()
    assert v.ctypes.data == t.data_ptr() and v.flags.writeable
    assert np.asarray(t).ctypes.data == t.data_ptr()


@pytest.mark.parametrize("make", [
    lambda: np.array(3.5, dtype=np.float32),                     # 0-d
    lambda: np.zeros((0, 3), dtype=np.float64),                  # size 0
    lambda: np.arange(24, dtype=np.int32).reshape(4, 6)[:, ::2],  # non-contiguous
    lambda: np.arange(24, dtype=np.int64).reshape(2, 3, 4).transpose(2, 0, 1),
    lambda: np.array([True, False, True]),                       # bool
    lambda: np.arange(5, dtype=np.uint8),
], ids=["0d", "size0", "strided", "transposed", "bool", "uint8"])
def test_numpy_round_trip_kinds(make):
    a = make()
    t = porta.from_dlpack(a)
    assert tuple(t.shape) == a.shape and t.dtype.numpy_name == a.dtype.name
    assert t.tolist() == a.tolist()
    b = np.from_dlpack(t)
    assert b.dtype == a.dtype and b.shape == a.shape and b.strides == a.strides
    if a.size:
        assert b.ctypes.data == a.ctypes.data
    np.testing.assert_array_equal(b, a)


def test_porta_views_to_numpy():
    t = porta.arange(12).view(3, 4)
    for view in (t.T, t[:, 1::2], t[1], t[None, 2:]):
        n = view.numpy()
        assert n.tolist() == view.tolist()
        assert n.base is not None  # a view of porta's memory, not a copy


def test_read_only_numpy_imports_read_only():
    a = np.arange(4.0)
    a.flags.writeable = False
    t = porta.from_numpy(a)
    assert t.is_read_only and t.data_ptr() == a.ctypes.data
    with pytest.raises(porta.InvalidArgumentError, match="read-only"):
        t[0] = 1.0
    with pytest.raises(porta.InvalidArgumentError, match="read-only"):
        t.copy_(porta.zeros(4, dtype=porta.float64))
    assert not np.from_dlpack(t).flags.writeable
    assert (t + 1).tolist() == [1, 2, 3, 4] and not (t + 1).is_read_only
    c = t.clone()
    c[0] = 5.0
    assert c[0].item() == 5.0


def test_negative_strides_rejected_with_a_fix():
    a = np.arange(5.0)[::-1]
    with pytest.raises(BufferError, match="negative strides.*copy=True"):
        porta.from_dlpack(a)
    assert porta.from_dlpack(a, copy=True).tolist() == [4, 3, 2, 1, 0]
    assert porta.tensor(a).tolist() == [4, 3, 2, 1, 0]


def test_exporter_dropped_first():
    a = np.arange(1000, dtype=np.float64)
    t = porta.from_dlpack(a)
    del a
    gc.collect()
    assert t.sum().item() == 499500  # porta keeps NumPy's buffer alive
    x = porta.arange(1000.0, dtype=porta.float64)
    n = np.from_dlpack(x)
    del x
    gc.collect()
    assert n.sum() == 499500  # NumPy keeps porta's storage alive
    p = porta.nn.Parameter(porta.ones(3))
    view = p.detach().numpy()
    p.move_to_("mock:0")  # the parameter's storage moves; the exported view keeps the old one
    assert view.tolist() == [1, 1, 1] and p.device == porta.device("mock:0")


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_100k_round_trips_do_not_grow_memory():
    a = np.ones(256, dtype=np.float32)
    for _ in range(2000):  # warm up allocator caches
        np.from_dlpack(porta.from_dlpack(a))
    rss, allocated = _rss(), _allocated()
    for _ in range(100_000):
        b = np.from_dlpack(porta.from_dlpack(a))
    assert b.ctypes.data == a.ctypes.data
    assert _allocated() == allocated
    assert _rss() - rss < 8 << 20
    assert len(porta._dlpack._exported) <= 1


# ------------------------------------------------------------------ PyTorch


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed: pip install torch (CPU) to run the "
                                               "PyTorch interop tests")


def test_torch_to_porta_shares_memory():
    torch = _torch()
    for src in (torch.arange(12, dtype=torch.float32).view(3, 4), torch.arange(6).view(2, 3).t(),
                torch.tensor(2.5, dtype=torch.float64), torch.tensor([True, False]), torch.zeros(0, 2)):
        t = porta.from_dlpack(src)
        assert t.tolist() == src.tolist() and tuple(t.shape) == tuple(src.shape)
        if src.numel():
            assert t.data_ptr() == src.data_ptr()
    src = torch.zeros(3)
    t = porta.from_dlpack(src)
    src[1] = 5
    t[2] = 7
    assert t.tolist() == [0, 5, 7] and src.tolist() == [0, 5, 7]


def test_porta_to_torch_shares_memory():
    torch = _torch()
    for x in (porta.arange(12.0).view(3, 4), porta.arange(12).view(3, 4).T, porta.tensor(1.5),
              porta.tensor([True, False]), porta.ones(2, 3, dtype=porta.int32), porta.zeros(0, 4)):
        y = torch.from_dlpack(x)
        assert y.tolist() == x.tolist() and tuple(y.shape) == tuple(x.shape)
        if x.numel():
            assert y.data_ptr() == x.data_ptr()
    x = porta.zeros(3)
    y = torch.from_dlpack(x)
    y[0] = 1
    x[1] = 2
    assert y.tolist() == [1, 2, 0]
    w = porta.ones(2, requires_grad=True)
    assert torch.from_dlpack(w).tolist() == [1, 1]  # exported detached


@pytest.mark.skipif(not porta.cuda.is_available(), reason="no CUDA device")
@pytest.mark.parametrize("stream", [None, 1, 2, 0x7F00DEAD, -1])
def test_cuda_capsule_for_every_consumer_stream(stream):
    # DLPack's CUDA streams: None and 1 the legacy default stream, 2 the
    # per-thread one, a handle, or -1 (no synchronization); all give the data.
    x = porta.arange(12, dtype=porta.float32, device="cuda:0").reshape(3, 4) * 2
    y = porta.from_dlpack(x.__dlpack__(stream=stream, max_version=(1, 0)))
    assert y.device == porta.device("cuda:0") and y.data_ptr() == x.data_ptr()
    assert y.cpu().tolist() == x.cpu().tolist()


@pytest.mark.skipif(not porta.cuda.is_available(), reason="no CUDA device")
def test_cuda_capsule_refuses_stream_zero():
    x = porta.ones(3, device="cuda:0")
    with pytest.raises(BufferError, match="stream=0 is ambiguous"):
        x.__dlpack__(stream=0)


@pytest.mark.skipif(not porta.cuda.is_available(), reason="no CUDA device")
def test_cuda_non_blocking_copy_from_pinned_batch():
    loader = porta.utils.data.DataLoader(porta.utils.data.TensorDataset(porta.arange(64, dtype=porta.float32)),
                                         batch_size=16, pin_memory=True)
    got = []
    for (batch,) in loader:
        assert batch.is_pinned()
        got += (batch.to("cuda:0", non_blocking=True) + 1).cpu().tolist()
        assert batch.cuda(0, non_blocking=True).device == porta.device("cuda:0")
    assert got == [float(i + 1) for i in range(64)]


def test_a_consumer_that_calls_the_deleter_without_renaming_the_capsule():
    """PyTorch, refusing a device it does not know, calls the deleter and leaves the capsule as it was
    (pytorch#56789); the capsule's destructor must then not delete again (a crash at exit before)."""
    code = """
import ctypes, gc, porta
api = ctypes.pythonapi
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
for device in [d for d in ('cpu', 'mock:0') if d == 'cpu' or porta.device_count('mock')]:
    capsule = porta.arange(1000.0, device=device).__dlpack__(max_version=(1, 0))
    managed = api.PyCapsule_GetPointer(capsule, b'dltensor_versioned')
    deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(ctypes.c_void_p.from_address(managed + 16).value)
    deleter(managed)          # the careless consumer: deleted, capsule not renamed
    del capsule
    gc.collect()
print('ok')
"""
    env = dict(os.environ)
    if os.environ.get("PORTA_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = os.path.join(os.path.dirname(__file__), "..", "..", "bindings", "python")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert (r.returncode, r.stdout.strip()) == (0, "ok"), r.stderr
