"""porta.device, device counts, try_gpu, and what happens without CUDA."""
import pytest

import porta


def test_device_strings_like_torch():
    assert repr(porta.device("cpu")) == "device(type='cpu')"
    assert repr(porta.device("cuda")) == "device(type='cuda')"
    d = porta.device("cuda:1")
    assert (d.type, d.index, str(d), repr(d)) == ("cuda", 1, "cuda:1", "device(type='cuda', index=1)")
    assert porta.device("cuda", 1) == d and d != "cuda:1"  # never equal to a string, as PyTorch's
    assert porta.device(d) is d
    assert porta.device("mock:0") != porta.device("mock:1")
    assert len({porta.device("mock:0"), porta.device("mock", 0)}) == 1


@pytest.mark.parametrize("bad", ["", "CUDA", "cuda:", "cuda:01", "cuda:-1", "cu da", ":1"])
def test_malformed_device_strings(bad):
    with pytest.raises(porta.InvalidArgumentError, match="device"):
        porta.device(bad)


def test_unknown_device_fails_when_used():
    d = porta.device("xpu:3")  # naming is fine; using it is not
    with pytest.raises(porta.NoSuchDeviceError, match="unknown device type 'xpu'"):
        porta.ones(2, device=d)
    with pytest.raises(porta.NoSuchDeviceError, match="mock:7 does not exist"):
        porta.ones(2, device="mock:7")


def test_counts_and_try_gpu():
    assert porta.device_count("cpu") == 1
    assert porta.device_count("mock") == 2
    assert porta.device_count("no_such_type") == 0
    n = porta.cuda.device_count()
    assert porta.cuda.is_available() == (n > 0)
    accelerators = porta.accelerator_count()
    assert porta.try_gpu() == (porta.device("cpu") if accelerators == 0 else porta.try_all_gpus()[0])
    assert porta.try_gpu(accelerators) == porta.device("cpu")
    assert porta.try_all_gpus() == ([porta.device("cpu")] if accelerators == 0 else porta.try_all_gpus())


def test_device_info(device):
    info = porta.device_info(device)
    assert info["name"] and info["kind"] in ("cpu", "gpu", "accelerator", "virtual")
    if device.startswith("mock"):
        assert info["kind"] == "virtual"


def test_available_devices_lists_loaded_plugins():
    names = [str(d) for d in porta.available_devices()]
    assert names[0] == "cpu"
    assert {"mock:0", "mock:1"} <= set(names)
    assert any(p["name"] == "mock" and p["state"] == "loaded" for p in porta.plugins())


@pytest.mark.skipif(porta.cuda.is_available(), reason="CUDA is available here")
def test_cuda_without_cuda_raises_with_reason():
    x = porta.tensor([1, 2, 3])
    with pytest.raises(porta.NoSuchDeviceError, match=r"x\.cuda\(\): no CUDA devices \(.+\)"):
        x.cuda()
    with pytest.raises(RuntimeError, match="no CUDA devices"):
        porta.nn.Linear(2, 1).cuda()
    assert porta.cuda.unavailable_reason()


@pytest.mark.skipif(not porta.cuda.is_available(), reason="no CUDA device")
def test_cuda_with_cuda():
    x = porta.tensor([1, 2, 3]).cuda()
    assert x.device == porta.device("cuda:0") and x.is_cuda
    assert x.cuda() is x and x.cuda(0) is x


def test_tensor_device_objects(device):
    x = porta.ones(2, device=device)
    assert x.device == porta.device(device)
    assert str(x.device) == device
    assert x.device is x.device  # cached objects
    if device == "cpu":
        assert x.device.index is None and x.is_cpu
