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
    with pytest.raises(RuntimeError, match="does not fit dimension 2 of size 3"):
        F.pad(porta.zeros(1, 2, 3), (3, 0), mode="reflect")
    with pytest.raises(NotImplementedError, match="padding size 2 is not supported for 4D input"):
        F.pad(t, (1, 1), mode="reflect")  # one padded dim takes [C, L] or [N, C, L], as PyTorch
    with pytest.raises(RuntimeError, match="not implemented for bool"):
        F.pad(porta.zeros(1, 2, 3, dtype=porta.bool), (1, 1), mode="replicate")
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


def ref_nearest(x, out_h, out_w, scales=(None, None), exact=False):
    def src(n, out, sf):
        scale = np.float32(1.0 / sf) if sf else np.float32(n) / np.float32(out)
        if not exact and out == n:
            return np.arange(out)
        if not exact and out == 2 * n:
            return np.arange(out) >> 1
        pos = (np.arange(out, dtype=np.float32) + np.float32(0.5 if exact else 0)) * scale
        return np.minimum(np.floor(pos).astype(np.int64), n - 1)
    return x[:, :, src(x.shape[2], out_h, scales[0])][:, :, :, src(x.shape[3], out_w, scales[1])]


def ref_bilinear(x, out_h, out_w, align_corners):
    def weights(n, out):
        if align_corners:
            scale = (n - 1) / (out - 1) if out > 1 else 0.0
            pos = scale * np.arange(out)
        else:
            pos = np.maximum(n / out * (np.arange(out) + 0.5) - 0.5, 0)
        i0 = pos.astype(np.int64)
        i1 = np.where(i0 < n - 1, i0 + 1, i0)
        lam = pos - i0
        return i0, i1, 1 - lam, lam
    h0, h1, a0, a1 = weights(x.shape[2], out_h)
    w0, w1, b0, b1 = weights(x.shape[3], out_w)
    y = x[..., w0] * b0 + x[..., w1] * b1
    return y[:, :, h0] * a0[:, None] + y[:, :, h1] * a1[:, None]


@pytest.mark.parametrize("size", [(10, 14), (3, 4), (5, 7), (8, 3)])
def test_interpolate_nearest_and_bilinear_match_numpy(device, size):
    t = porta.tensor(X, device=device)
    np.testing.assert_array_equal(arr(F.interpolate(t, size=size)), ref_nearest(X, *size))
    np.testing.assert_array_equal(arr(F.interpolate(t, size=size, mode="nearest-exact")),
                                  ref_nearest(X, *size, exact=True))
    for corners in (False, True):
        np.testing.assert_allclose(arr(F.interpolate(t, size=size, mode="bilinear", align_corners=corners)),
                                   ref_bilinear(X, *size, corners), atol=1e-12)


def test_interpolate_scale_factor_uses_pytorchs_scale(device):
    t = porta.tensor(X, device=device)  # H 5, W 7: 1.5 gives 7 x 10, read at 1 / 1.5, not 5 / 7
    got = F.interpolate(t, scale_factor=1.5)
    assert tuple(got.shape) == (2, 3, 7, 10)
    np.testing.assert_array_equal(arr(got), ref_nearest(X, 7, 10, scales=(1.5, 1.5)))
    np.testing.assert_array_equal(arr(nn.Upsample(scale_factor=2)(t)), X.repeat(2, axis=2).repeat(2, axis=3))
    np.testing.assert_allclose(arr(nn.UpsamplingBilinear2d(size=(9, 4))(t)), ref_bilinear(X, 9, 4, True), atol=1e-12)
    np.testing.assert_allclose(arr(F.interpolate(t, size=(2, 3), mode="area")), ref_adaptive(X, 2, 3), atol=1e-12)


def test_interpolate_refuses_what_it_does_not_do():
    t = porta.zeros(1, 1, 4, 4)
    with pytest.raises(NotImplementedError, match="bicubic"):
        F.interpolate(t, size=3, mode="bicubic")
    with pytest.raises(NotImplementedError, match="4-D"):
        F.interpolate(porta.zeros(1, 1, 4), size=3)
    with pytest.raises(NotImplementedError, match="antialias"):
        F.interpolate(t, size=3, mode="bilinear", antialias=True)
    with pytest.raises(ValueError, match="align_corners"):
        F.interpolate(t, size=3, align_corners=True)
    with pytest.raises(ValueError, match="only one of size or scale_factor"):
        F.interpolate(t)


def test_interpolate_matches_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    x32 = X.astype(np.float32)
    cases = [dict(size=(9, 4)), dict(scale_factor=1.7), dict(scale_factor=(0.6, 2.3)),
             dict(size=(11, 13), mode="nearest-exact"), dict(size=(3, 9), mode="bilinear"),
             dict(scale_factor=2.5, mode="bilinear"), dict(size=(8, 8), mode="bilinear", align_corners=True),
             dict(scale_factor=1.3, mode="bilinear", recompute_scale_factor=True)]
    for kw in cases:
        for x in (X, x32):
            p, q = porta.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
            a, b = F.interpolate(p, **kw), torch.nn.functional.interpolate(q, **kw)
            tol = 1e-12 if x.dtype == np.float64 else 2e-6
            np.testing.assert_allclose(arr(a), b.detach().numpy(), atol=tol, err_msg=str(kw))
            up = np.random.RandomState(1).uniform(-1, 1, size=tuple(b.shape)).astype(x.dtype)
            (a * porta.tensor(up)).sum().backward()
            (b * torch.tensor(up)).sum().backward()
            np.testing.assert_allclose(arr(p.grad), q.grad.numpy(), atol=tol * 10, err_msg=str(kw))
