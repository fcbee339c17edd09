"""porta.nn: modules, layers (vs NumPy references), devices, state dicts."""
import math

import numpy as np
import pytest

import porta
import porta.nn as nn
import porta.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, kernel_size=3, padding=1)
        self.body = nn.Sequential(nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(2 * 2 * 2, 3))
        self.scale = 2.0

    def forward(self, x):
        return self.body(self.conv(x)) * self.scale


def test_registration_and_parameters():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["conv.weight", "conv.bias", "body.3.weight", "body.3.bias"]
    assert [type(p) for p in net.parameters()] == [nn.Parameter] * 4
    assert all(p.requires_grad and p.is_leaf for p in net.parameters())
    assert [n for n, _ in net.named_children()] == ["conv", "body"] and len(list(net.modules())) == 7
    assert net.scale == 2.0 and isinstance(net.body[3], nn.Linear) and len(net.body) == 4
    assert list(net.state_dict()) == names
    assert "(conv): Conv2d(1, 2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))" in repr(net)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        net.nope

    class Broken(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(1, 1)
    with pytest.raises(AttributeError, match="super"):
        Broken()


def test_init_like_torch():
    porta.manual_seed(0)
    lin = nn.Linear(100, 50)
    bound = 1 / math.sqrt(100)  # kaiming_uniform(a=sqrt(5)) and the bias both give 1/sqrt(fan_in)
    w = lin.weight.detach().numpy()
    assert w.shape == (50, 100) and np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(lin.bias.detach().numpy()).max() <= bound
    porta.manual_seed(0)
    assert nn.Linear(100, 50, device="mock:1").weight.tolist() == lin.weight.tolist()  # same model on any device


def test_module_to_keeps_identity(device, other_device):
    net = Net()
    params = list(net.parameters())
    opt = porta.optim.SGD(net.parameters(), lr=0.1)
    assert net.to(device) is net
    assert [p is q for p, q in zip(params, net.parameters())] == [True] * 4
    assert all(p.device == porta.device(device) for p in net.parameters())
    x = porta.randn(2, 1, 4, 4, device=device)
    net(x).sum().backward()
    assert all(p.grad.device == porta.device(device) for p in net.parameters())
    opt.step()
    net.to(other_device)
    assert all(p.grad.device == porta.device(other_device) for p in net.parameters())  # grads follow
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    assert net.cpu() is net and params[0].device == porta.device("cpu")


def test_layer_device_errors_name_the_layer(device, other_device):
    if device == other_device:
        pytest.skip("one device only")
    net = Net().to(device)
    with pytest.raises(porta.DeviceMismatchError) as e:
        net(porta.randn(1, 1, 4, 4, device=other_device))
    msg = str(e.value)
    assert msg.startswith("Conv2d(1, 2, kernel_size=(3, 3)") and "'conv'" in msg
    assert f"the input is on {other_device} but the layer's parameters are on {device}" in msg
    assert f"x.to('{device}')" in msg and f"model.to('{other_device}')" in msg


def test_layers_against_numpy(device):
    porta.manual_seed(3)
    x = porta.randn(2, 3, 6, 6, device=device)
    xn = x.numpy(force=True).astype(np.float64)
    conv = nn.Conv2d(3, 4, 3, stride=1, padding=1).to(device)
    w, b = conv.weight.numpy(force=True), conv.bias.numpy(force=True)
    pad = np.pad(xn, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = np.zeros((2, 4, 6, 6))
    for i in range(6):
        for j in range(6):
            ref[:, :, i, j] = np.einsum("ncij,fcij->nf", pad[:, :, i:i + 3, j:j + 3], w) + b
    np.testing.assert_allclose(conv(x).numpy(force=True), ref, rtol=1e-4, atol=1e-5)
    mp = nn.MaxPool2d(2)(x).numpy(force=True)
    np.testing.assert_allclose(mp, xn.reshape(2, 3, 3, 2, 3, 2).max(axis=(3, 5)), rtol=1e-6)
    ap = nn.AvgPool2d(2, stride=2)(x).numpy(force=True)
    np.testing.assert_allclose(ap, xn.reshape(2, 3, 3, 2, 3, 2).mean(axis=(3, 5)), rtol=1e-5)
    assert nn.Flatten()(x).shape == (2, 108)
    lin = nn.Linear(6, 2).to(device)
    np.testing.assert_allclose(lin(x).numpy(force=True),
                               xn @ lin.weight.numpy(force=True).T + lin.bias.numpy(force=True), rtol=1e-4)
    logits = porta.tensor([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]], device=device)
    target = porta.tensor([2, 0], device=device)
    ln = logits.numpy(force=True)
    lse = np.log(np.exp(ln).sum(1))
    assert nn.CrossEntropyLoss()(logits, target).item() == pytest.approx(np.mean(lse - ln[[0, 1], [2, 0]]), 1e-5)
    assert nn.CrossEntropyLoss(reduction="sum")(logits, target).item() == pytest.approx(
        np.sum(lse - ln[[0, 1], [2, 0]]), 1e-5)
    np.testing.assert_allclose(F.softmax(logits, dim=1).numpy(force=True),
                               np.exp(ln) / np.exp(ln).sum(1, keepdims=True), rtol=1e-5)
    assert nn.MSELoss()(logits, logits * 0).item() == pytest.approx(np.mean(ln ** 2))


def test_dropout_train_eval(device):
    drop = nn.Dropout(0.5)
    x = porta.ones(1000, device=device)
    y = drop(x).numpy(force=True)
    assert set(np.unique(y)) <= {0.0, 2.0} and 300 < (y == 0).sum() < 700
    assert drop.eval() is drop and not drop.training
    assert drop(x).tolist() == x.tolist()
    seq = nn.Sequential(nn.Linear(2, 2), nn.Dropout()).eval()
    assert not seq[1].training and seq.train().training and seq[1].training


def test_losses_move_and_return_self(device):
    for loss in (nn.MSELoss(), nn.CrossEntropyLoss()):
        assert loss.to(device) is loss and loss.to(porta.device(device)) is loss


def test_batch_size_changed_before_the_loss():
    with pytest.raises(porta.ShapeError, match=r"batch size \(16\).*\(4\)"):
        nn.CrossEntropyLoss()(porta.zeros(16, 10), porta.zeros(4, dtype=porta.int64))


def test_state_dict_round_trip(tmp_path, device, other_device):
    src = Net().to(device)
    dst = Net().to(other_device)
    result = dst.load_state_dict(src.state_dict())
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert [p.tolist() for p in dst.parameters()] == [p.tolist() for p in src.parameters()]
    assert all(p.device == porta.device(other_device) for p in dst.parameters())
    path = tmp_path / "net.safetensors"
    porta.save(src.state_dict(), path)
    loaded = porta.load(path, map_location=other_device)
    assert list(loaded) == list(src.state_dict()) and loaded["conv.weight"].device == porta.device(other_device)
    fresh = Net()
    fresh.load_state_dict(porta.load(str(path)))
    assert fresh.conv.weight.tolist() == src.conv.weight.tolist()
    bad = dict(src.state_dict())
    bad.pop("conv.bias")
    with pytest.raises(porta.InvalidArgumentError, match='Missing key.*"conv.bias"'):
        fresh.load_state_dict(bad)
    assert fresh.load_state_dict(bad, strict=False).missing_keys == ["conv.bias"]
    bad["conv.bias"] = porta.zeros(5)
    with pytest.raises(porta.ShapeError, match="conv.bias"):
        fresh.load_state_dict(bad)
    porta.save(porta.arange(3), tmp_path / "t.safetensors")
    assert porta.load(tmp_path / "t.safetensors").tolist() == [0, 1, 2]
    with pytest.raises(TypeError, match="state_dict"):
        porta.save(src, tmp_path / "model.pt")
    with pytest.raises(porta.PortaIOError):
        porta.load(tmp_path / "missing.safetensors")


def test_functional_conv_options():
    x = porta.randn(1, 2, 7, 7)
    w = porta.randn(3, 2, 3, 3)
    assert F.conv2d(x, w, stride=2, padding=1).shape == (1, 3, 4, 4)
    assert F.conv2d(x, w, padding="same").shape == (1, 3, 7, 7)
    assert F.conv2d(x, w, dilation=2).shape == (1, 3, 3, 3)
    assert F.max_pool2d(x, 3, stride=2, padding=1).shape == (1, 2, 4, 4)
    with pytest.raises(RuntimeError, match="divisible by groups"):
        F.conv2d(x, w, groups=2)


def test_non_persistent_buffers_are_not_saved():
    class WithBuffers(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("kept", porta.ones(2))
            self.register_buffer("scratch", porta.zeros(3), persistent=False)

    m = WithBuffers()
    assert list(m.state_dict()) == ["kept"]
    assert [name for name, _ in m.named_buffers()] == ["kept", "scratch"]
    m.load_state_dict({"kept": porta.full((2,), 5.0)})
    assert m.kept.tolist() == [5.0, 5.0]
