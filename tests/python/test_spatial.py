"""F.pad (constant with crops, reflect, replicate, circular), adaptive_avg_pool2d and dropout1d/2d/3d
(porta_pad, porta_adaptive_avg_pool2d, porta_feature_dropout, ABI 1.6) and their modules, on every device,
against NumPy; and against torch (values and gradients) when it is installed."""
import numpy as np
import pytest

import porta
from porta import nn
import porta.nn.functional as F

X = np.random.RandomState(2).uniform(-1, 1, size=(2, 3, 5, 7))


def arr(t):
    return np.asarray(t.tolist())


@pytest.mark.parametrize("mode,np_mode", [("reflect", "reflect"), ("replicate", "edge"), ("circular", "wrap")])
def test_pad_modes_match_numpy(device, mode, np_mode):
    t = porta.tensor(X, device=device)
    got = F.pad(t, (2, 1, 3, 0), mode=mode)
    np.testing.assert_array_equal(arr(got), np.pad(X, ((0, 0), (0, 0), (3, 0), (2, 1)), mode=np_mode))


def test_constant_pad_fills_and_crops(device):
    t = porta.tensor(X, device=device)
    np.testing.assert_array_equal(arr(F.pad(t, (1, 2), value=-3.0)),
                                  np.pad(X, ((0, 0), (0, 0), (0, 0), (1, 2)), constant_values=-3.0))
    np.testing.assert_array_equal(arr(F.pad(t, (-1, 2, 0, -2))),
                                  np.pad(X[:, :, :3, 1:], ((0, 0), (0, 0), (0, 0), (0, 2))))
    assert tuple(nn.ZeroPad2d(1)(t).shape) == (2, 3, 7, 9)
    assert tuple(nn.ConstantPad1d((0, 3), 1.0)(t).shape) == (2, 3, 5, 10)
    np.testing.assert_array_equal(arr(nn.ReflectionPad2d((1, 1, 2, 2))(t)),
                                  np.pad(X, ((0, 0), (0, 0), (2, 2), (1, 1)), mode="reflect"))


def ref_adaptive(x, oh, ow):
    h, w = x.shape[-2:]
    out = np.zeros(x.shape[:-2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0, r1 = i * h // oh, -(-(i + 1) * h // oh)
            c0, c1 = j * w // ow, -(-(j + 1) * w // ow)
            out[..., i, j] = x[..., r0:r1, c0:c1].mean(axis=(-2, -1))
    return out


@pytest.mark.parametrize("size", [(3, 2), (1, 1), (5, 7), (4, None), 6])
def test_adaptive_avg_pool2d_matches_pytorchs_bins(device, size):
    t = porta.tensor(X, device=device)
    oh, ow = (size, size) if isinstance(size, int) else (size[0], size[1] or 7)
    np.testing.assert_allclose(arr(nn.AdaptiveAvgPool2d(size)(t)), ref_adaptive(X, oh, ow), atol=1e-12)
    np.testing.assert_allclose(arr(F.adaptive_avg_pool2d(t[0], 2)), ref_adaptive(X[0], 2, 2), atol=1e-12)


def test_adaptive_avg_pool2d_keeps_a_nan_in_its_bins(device):
    x = X.copy()
    x[0, 0, 0, 0], x[1, 2, 4, 6] = np.nan, np.inf
    got = arr(F.adaptive_avg_pool2d(porta.tensor(x, device=device), (2, 3)))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref_adaptive(x, 2, 3)))
    np.testing.assert_allclose(got, ref_adaptive(x, 2, 3), atol=1e-12)


def test_channel_dropout_zeroes_whole_channels(device):
    x = porta.ones(8, 16, 3, 3, device=device)
    porta.manual_seed(4)
    y = arr(nn.Dropout2d(0.5)(x))
    per_channel = y.reshape(8, 16, 9)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel.min(axis=2) == per_channel.max(axis=2)).all()  # one draw per channel
    assert 0.2 < (per_channel[:, :, 0] == 0).mean() < 0.8
    m = nn.Dropout1d(0.3)
    m.eval()
    np.testing.assert_array_equal(arr(m(porta.ones(2, 4, 5, device=device))), np.ones((2, 4, 5)))
    assert tuple(F.dropout3d(porta.ones(2, 3, 2, 2, 2, device=device), 0.5).shape) == (2, 3, 2, 2, 2)
    with pytest.warns(UserWarning, match="interpreted as shape"):
        z = arr(F.dropout2d(porta.ones(4, 6, 5, device=device), 0.5)).reshape(4, 6, 5)
    assert (z.min(axis=2) == z.max(axis=2)).all()


def test_refused_arguments():
    t = porta.zeros(1, 2, 3, 3)
    with pytest.raises(NotImplementedError, match="mode 'symmetric'"):
        F.pad(t, (1, 1), mode="symmetric")
    with pytest.raises(ValueError, match="doesn't take in value"):
        F.pad(t, (1, 1), mode="reflect", value=2.0)
    with pytest.raises(RuntimeError, match="does not fit dimension 3 of size 3"):
        F.pad(t, (3, 0), mode="reflect")
    with pytest.raises(RuntimeError, match="padding length must be even"):
        F.pad(t, (1, 1, 1))
    with pytest.raises(RuntimeError, match="Expected 4D or 5D input"):
        F.dropout3d(porta.zeros(2, 3, 3), 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        nn.Dropout2d(1.5)


def test_values_and_gradients_match_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    up = np.random.RandomState(5).uniform(-1, 1, size=(2, 3, 8, 10))
    for mode in ("constant", "reflect", "replicate", "circular"):
        p, q = porta.tensor(X, requires_grad=True), torch.tensor(X, requires_grad=True)
        a, b = F.pad(p, (2, 1, 1, 2), mode=mode), torch.nn.functional.pad(q, (2, 1, 1, 2), mode=mode)
        np.testing.assert_array_equal(arr(a), b.detach().numpy())
        (a * porta.tensor(up)).sum().backward()
        (b * torch.tensor(up)).sum().backward()
        np.testing.assert_allclose(arr(p.grad), q.grad.numpy(), atol=1e-12, err_msg=mode)
    p, q = porta.tensor(X, requires_grad=True), torch.tensor(X, requires_grad=True)
    a, b = F.adaptive_avg_pool2d(p, (3, 4)), torch.nn.functional.adaptive_avg_pool2d(q, (3, 4))
    np.testing.assert_allclose(arr(a), b.detach().numpy(), atol=1e-12)
    a.sum().backward()
    b.sum().backward()
    np.testing.assert_allclose(arr(p.grad), q.grad.numpy(), atol=1e-12)
