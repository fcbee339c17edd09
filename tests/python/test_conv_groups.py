"""Grouped and depthwise Conv2d, Conv1d, unbatched inputs and padding_mode (ABI 1.6), on every device, against a
NumPy cross-correlation in float64; and against torch (values and gradients) when it is installed."""
import numpy as np
import pytest

import porta
from porta import nn
import porta.nn.functional as F

RNG = np.random.RandomState(9)


def arr(t):
    return np.asarray(t.tolist())


def ref_conv2d(x, w, b, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, f, oh, ow))
    per = f // groups
    for o in range(f):
        g = o // per
        for i in range(oh):
            for j in range(ow):
                rows = i * stride[0] + dilation[0] * np.arange(kh)
                cols = j * stride[1] + dilation[1] * np.arange(kw)
                patch = xp[:, g * cg:(g + 1) * cg][:, :, rows][:, :, :, cols]
                out[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3))
    return out + (0 if b is None else b[None, :, None, None])


@pytest.mark.parametrize("groups,kw", [(2, dict(stride=2, padding=1)), (4, dict(dilation=2)), (1, dict(padding=2))])
def test_grouped_conv2d_matches_numpy(device, groups, kw):
    x, w, b = RNG.uniform(-1, 1, (2, 4, 7, 6)), RNG.uniform(-1, 1, (8, 4 // groups, 3, 3)), RNG.uniform(-1, 1, 8)
    t = lambda a: porta.tensor(a, device=device)  # noqa: E731
    got = F.conv2d(t(x), t(w), t(b), groups=groups, **kw)
    pair = {k: (v, v) for k, v in kw.items()}
    np.testing.assert_allclose(arr(got), ref_conv2d(x, w, b, groups=groups, **pair), atol=1e-12)
    np.testing.assert_allclose(arr(F.conv2d(t(x[0]), t(w), t(b), groups=groups, **kw)),
                               ref_conv2d(x[:1], w, b, groups=groups, **pair)[0], atol=1e-12)  # unbatched


def test_conv1d_matches_numpy(device):
    x, w = RNG.uniform(-1, 1, (2, 6, 11)), RNG.uniform(-1, 1, (3, 2, 4))
    t = lambda a: porta.tensor(a, device=device)  # noqa: E731
    got = F.conv1d(t(x), t(w), stride=2, padding=1, dilation=2, groups=3)
    want = ref_conv2d(x[:, :, None], w[:, :, None], None, (1, 2), (0, 1), (1, 2), groups=3)[:, :, 0]
    np.testing.assert_allclose(arr(got), want, atol=1e-12)
    np.testing.assert_allclose(arr(F.conv1d(t(x[1]), t(w), groups=3)),
                               ref_conv2d(x[1:, :, None], w[:, :, None], None, groups=3)[0, :, 0], atol=1e-12)
    assert tuple(F.conv1d(t(x), t(w)[:, :, :3], groups=3, padding="same").shape) == (2, 3, 11)


def test_modules_groups_depthwise_and_padding_modes(device):
    porta.manual_seed(0)
    dw = nn.Conv2d(4, 4, 3, padding=1, groups=4, device=device, dtype=porta.float64)
    assert tuple(dw.weight.shape) == (4, 1, 3, 3)
    x = RNG.uniform(-1, 1, (1, 4, 5, 5))
    got = dw(porta.tensor(x, device=device))
    np.testing.assert_allclose(arr(got), ref_conv2d(x, arr(dw.weight), arr(dw.bias), padding=(1, 1), groups=4),
                               atol=1e-12)
    refl = nn.Conv2d(4, 2, 3, padding=1, padding_mode="reflect", device=device, dtype=porta.float64)
    xr = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="reflect")
    np.testing.assert_allclose(arr(refl(porta.tensor(x, device=device))), ref_conv2d(xr, arr(refl.weight),
                                                                                      arr(refl.bias)), atol=1e-12)
    c1 = nn.Conv1d(4, 6, 3, padding=1, groups=2, padding_mode="circular", device=device, dtype=porta.float64)
    assert tuple(c1(porta.tensor(x[:, :, 0], device=device)).shape) == (1, 6, 5)
    assert "groups=2" in repr(c1) and "padding_mode=circular" in repr(c1)


def test_refused_arguments():
    with pytest.raises(ValueError, match="divisible by groups"):
        nn.Conv2d(4, 6, 3, groups=4)
    with pytest.raises(ValueError, match="padding_mode"):
        nn.Conv1d(2, 2, 3, padding_mode="mirror")
    with pytest.raises(RuntimeError, match=r"must both be divisible by groups \(3\)"):
        F.conv2d(porta.zeros(1, 4, 5, 5), porta.zeros(6, 1, 3, 3), groups=3)
    for groups in (0, -1):
        with pytest.raises(RuntimeError, match="groups must be >= 1"):
            F.conv2d(porta.zeros(1, 4, 5, 5), porta.zeros(6, 4, 3, 3), groups=groups)


def test_values_and_gradients_match_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    for groups, dims in ((2, 2), (4, 2), (2, 1)):
        x = RNG.uniform(-1, 1, (2, 4, 7, 6) if dims == 2 else (2, 4, 9))
        w = RNG.uniform(-1, 1, (8, 4 // groups, 3, 3) if dims == 2 else (8, 4 // groups, 3))
        b = RNG.uniform(-1, 1, 8)
        ours = [porta.tensor(a, requires_grad=True) for a in (x, w, b)]
        theirs = [torch.tensor(a, requires_grad=True) for a in (x, w, b)]
        conv_p, conv_t = (F.conv2d, torch.nn.functional.conv2d) if dims == 2 else (F.conv1d, torch.nn.functional.conv1d)
        a = conv_p(*ours, stride=2, padding=1, groups=groups)
        c = conv_t(*theirs, stride=2, padding=1, groups=groups)
        np.testing.assert_allclose(arr(a), c.detach().numpy(), atol=1e-12)
        (a * a).sum().backward()
        (c * c).sum().backward()
        for p, q in zip(ours, theirs):
            np.testing.assert_allclose(arr(p.grad), q.grad.numpy(), atol=1e-11)
