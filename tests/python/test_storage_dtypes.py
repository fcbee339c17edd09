"""float16, bfloat16, int8 and int16 from Python: conversions bit for bit with NumPy's float16 and
ml_dtypes.bfloat16 (the references the issue names), promotion as PyTorch's table, NumPy and DLPack
exchange, safetensors files, and PyTorch and JAX themselves where they are installed (build/venv-bench)."""
import os
import struct
import sys

import numpy as np
import pytest

import porta

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed (scripts/install-deps.sh installs "
                                "it into build/venv): pip install ml_dtypes")


def _float32_patterns():
    """Every 4099th float32 pattern, and the ties and neighbours of every float16 and bfloat16 value."""
    sweep = np.arange(0, 2**32, 4099, dtype=np.uint64).astype(np.uint32)
    h = np.arange(65536, dtype=np.uint32)
    bf = (h << 16)[:, None] + np.array([0, 0x7fff, 0x8000, 0x8001], dtype=np.uint32)
    f16 = h.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
    f16_edges = f16[:, None] + np.array([-1, 0, 1, 0xfff, 0x1000, 0x1001], dtype=np.int64).astype(np.uint32)
    return np.concatenate([sweep, bf.ravel(), f16_edges.ravel()])


REFERENCE = {"float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_every_pattern_widens_as_the_reference(name, device):
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    want = bits.view(REFERENCE[name]).astype(np.float32).view(np.uint32)
    t = porta.tensor(bits.view(np.int16), device=device)  # the patterns, then reinterpreted on the device
    got = porta.tensor(t.cpu().numpy().view(REFERENCE[name])).to(device).float().cpu().numpy().view(np.uint32)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_float32_narrows_bit_for_bit_as_the_reference(name, device):
    bits = _float32_patterns()
    with np.errstate(all="ignore"):
        want = bits.view(np.float32).astype(REFERENCE[name]).view(np.uint16)
    got = porta.tensor(bits.view(np.float32), device=device).to(getattr(porta, name)).cpu().numpy().view(np.uint16)
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, [(hex(bits[i]), hex(got[i]), hex(want[i])) for i in bad[:5]]


def test_dtypes_names_and_aliases():
    assert porta.half is porta.float16 and porta.short is porta.int16
    assert porta.float16.is_floating_point and porta.bfloat16.is_floating_point
    assert porta.bfloat16.itemsize == 2 and porta.int8.itemsize == 1
    x = porta.tensor([1.5, -2.25])
    assert x.half().dtype is porta.float16 and x.bfloat16().dtype is porta.bfloat16
    assert x.char().dtype is porta.int8 and x.short().dtype is porta.int16
    assert x.to(porta.bfloat16).type() == "torch.BFloat16Tensor"
    assert porta.finfo(porta.bfloat16).eps == 2.0**-7 and porta.finfo(porta.float16).max == 65504.0
    assert porta.iinfo(porta.int8).min == -128 and porta.iinfo(porta.int16).max == 32767


@pytest.mark.parametrize("a,b,want", [
    ("uint8", "int8", "int16"), ("int8", "int16", "int16"), ("int8", "int32", "int32"), ("uint8", "int16", "int16"),
    ("float16", "bfloat16", "float32"), ("float16", "float32", "float32"), ("bfloat16", "float64", "float64"),
    ("int64", "float16", "float16"), ("bool", "int8", "int8"), ("int16", "bfloat16", "bfloat16")])
def test_promotion_is_pytorchs_table(a, b, want):
    x, y = porta.ones(2, dtype=getattr(porta, a)), porta.ones(2, dtype=getattr(porta, b))
    assert (x + y).dtype is getattr(porta, want)
    assert porta.promote_types(getattr(porta, a), getattr(porta, b)) is getattr(porta, want)


def test_scalars_meet_half_floats_in_float32(device):
    x = porta.tensor([-3.0, 1.0, 7.0], device=device).half()
    want = (np.array([-3.0, 1.0, 7.0], dtype=np.float32) * np.float32(0.1)).astype(np.float16)
    np.testing.assert_array_equal((x * 0.1).cpu().numpy(), want)  # never 0.1 rounded to float16 first
    assert (x * 0.1).dtype is porta.float16 and (x > 0.1).dtype is porta.bool


def test_integer_overflow_wraps_as_the_storage_width(device):
    x = porta.tensor([100, 120, -128], dtype=porta.int8, device=device)
    assert (x + x).tolist() == [-56, -16, 0]
    assert x.sum().dtype is porta.int64 and x.sum().item() == 92


def test_item_tolist_and_repr():
    x = porta.tensor([0.1, 2.5]).bfloat16()
    assert x[0].item() == float(np.float32(0.1).astype(ml_dtypes.bfloat16))
    assert x.tolist() == [float(v) for v in np.array([0.1, 2.5], dtype=np.float32).astype(ml_dtypes.bfloat16)]
    assert "dtype=bfloat16" in repr(x)
    assert repr(porta.tensor([1, 2], dtype=porta.int8)) == "tensor([1, 2], dtype=int8)"


def test_numpy_exchange():
    for name, np_type in (("float16", np.float16), ("int8", np.int8), ("int16", np.int16)):
        a = np.arange(6, dtype=np_type).reshape(2, 3)
        t = porta.from_numpy(a)  # zero-copy, through DLPack
        assert t.dtype is getattr(porta, name)
        a[0, 0] = 5
        assert t[0, 0].item() == 5
        back = t.numpy()
        assert back.dtype == np_type and np.shares_memory(back, a)
    b = porta.tensor(np.array([1.5, -0.1], dtype=ml_dtypes.bfloat16))
    assert b.dtype is porta.bfloat16
    arr = b.numpy()
    assert arr.dtype == ml_dtypes.bfloat16 and arr.tolist() == [1.5, float(ml_dtypes.bfloat16(-0.1))]
    arr[0] = 3.0  # numpy() shares the tensor's memory
    assert b[0].item() == 3.0
    with pytest.raises(TypeError, match="porta.tensor"):
        porta.from_numpy(np.zeros(2, dtype=ml_dtypes.bfloat16))


def test_numpy_of_bfloat16_without_ml_dtypes_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)  # import ml_dtypes now fails
    x = porta.tensor([1.0]).bfloat16()
    with pytest.raises(TypeError, match="install ml_dtypes"):
        x.numpy()
    assert x.tolist() == [1.0] and x.item() == 1.0  # no NumPy bfloat16 needed for these


def test_safetensors_round_trip_and_a_file_as_pytorch_writes_it(tmp_path):
    tensors = {"h": porta.tensor([0.1, -2.0, 65504.0]).half(), "b": porta.tensor([[0.1, 3e38]]).bfloat16(),
               "c": porta.tensor([-128, 127], dtype=porta.int8), "s": porta.tensor([-32768, 5], dtype=porta.int16)}
    path = str(tmp_path / "m.safetensors")
    porta.save(tensors, path)
    loaded = porta.load(path)
    for k, t in tensors.items():
        assert loaded[k].dtype is t.dtype
        assert loaded[k].float().tolist() == t.float().tolist()
    # A file laid out as torch/safetensors writes one: BF16 bits, little endian, header padded to 8 bytes.
    bits = np.array([0x3f80, 0xbfc0, 0x7f80, 0x0001, 0x7fc1], dtype="<u2")
    header = b'{"w":{"dtype":"BF16","shape":[5],"data_offsets":[0,10]}}'
    header += b" " * (-len(header) % 8)
    handmade = tmp_path / "torch.safetensors"
    handmade.write_bytes(struct.pack("<Q", len(header)) + header + bits.tobytes())
    w = porta.load(str(handmade))["w"]
    assert w.dtype is porta.bfloat16
    np.testing.assert_array_equal(w.numpy().view(np.uint16), bits)  # bit-exact, NaN payload included


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed: pip install torch (CPU) to compare with it")


def test_dlpack_and_safetensors_with_pytorch(tmp_path):
    torch = _torch()
    for tdt, pdt in ((torch.float16, porta.float16), (torch.bfloat16, porta.bfloat16), (torch.int8, porta.int8),
                     (torch.int16, porta.int16)):
        src = torch.arange(-6, 6).to(tdt).view(3, 4)
        src = src / 3 if tdt.is_floating_point else src
        t = porta.from_dlpack(src)
        assert t.dtype is pdt
        back = torch.from_dlpack(t)
        assert back.dtype == tdt and torch.equal(back, src)
    x = torch.randn(64, 33).bfloat16()
    y = porta.from_dlpack(x)
    for op in (lambda a: a * 0.1, lambda a: a.exp(), lambda a: a + a, lambda a: a.sum(1), lambda a: a.softmax(1)):
        want = op(x)
        got = torch.from_dlpack(op(y))
        assert got.dtype == want.dtype
        torch.testing.assert_close(got.float(), want.float(), rtol=2**-7, atol=1e-6)


def test_a_bfloat16_checkpoint_written_by_pytorch_loads_bit_exactly(tmp_path):
    torch = _torch()
    safetensors_torch = pytest.importorskip("safetensors.torch", reason="safetensors is not installed: pip install "
                                            "safetensors to write a checkpoint with PyTorch's own writer")
    x = torch.randn(64, 33).bfloat16()
    path = str(tmp_path / "t.safetensors")
    save_file = safetensors_torch.save_file
    save_file({"x": x}, path)
    assert torch.equal(torch.from_dlpack(porta.load(path)["x"]), x)


def test_dlpack_with_jax():
    jax = pytest.importorskip("jax", reason="JAX is not installed: pip install jax (CPU) to compare with it")
    jnp = jax.numpy
    pairs = ((jnp.float16, porta.float16), (jnp.bfloat16, porta.bfloat16), (jnp.int8, porta.int8),
             (jnp.int16, porta.int16), (jnp.float32, porta.float32))
    for jdt, pdt in pairs:
        src = jnp.arange(-6, 6).astype(jdt).reshape(3, 4)
        src = src / 3 if jnp.issubdtype(jdt, jnp.floating) else src
        t = porta.from_dlpack(src)  # zero-copy: the same memory
        assert t.dtype is pdt and t.shape == (3, 4)
        assert t.data_ptr() == src.unsafe_buffer_pointer()
        back = jnp.from_dlpack(t)
        assert back.dtype == src.dtype and back.unsafe_buffer_pointer() == t.data_ptr()
        assert np.array_equal(np.asarray(back).view(np.uint8), np.asarray(src).view(np.uint8))  # bit for bit
    # bfloat16 results computed by Porta (float32 inside, rounded once) are JAX's: bit for bit where
    # float32 rounds exactly (products, sums), within one bfloat16 ulp for exp (each its own float32 exp).
    x = jax.random.normal(jax.random.key(0), (64, 33), dtype=jnp.float32).astype(jnp.bfloat16)
    y = porta.from_dlpack(x)
    for jop, pop in ((lambda a: a * 3, lambda a: a * 3), (lambda a: a + a, lambda a: a + a)):
        want, got = np.asarray(jop(x)), np.asarray(jnp.from_dlpack(pop(y)))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    want, got = np.asarray(jnp.exp(x)), np.asarray(jnp.from_dlpack(y.exp()))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=2**-8, atol=0)
