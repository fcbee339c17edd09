"""ConvTranspose1d/2d (F.conv_transpose1d/2d: stride, padding, output_padding, dilation, groups, output_size) and
MaxPool2d/AvgPool2d with ceil_mode (ABI 1.7), on every device, against loop references in NumPy (values and
gradients); and against torch when it is installed."""
import numpy as np
import pytest

import porta
from porta import nn
import porta.nn.functional as F

R = np.random.RandomState(11)


def arr(t):
    return np.asarray(t.tolist())


def ref_conv_transpose2d(x, w, b, stride, padding, output_padding, dilation, groups):
    n, c, h, wd = x.shape
    fg, kh, kw = w.shape[1:]
    (sh, sw), (ph, pw), (oph, opw), (dh, dw) = stride, padding, output_padding, dilation
    oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1
    ow = (wd - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1
    full = np.zeros((n, fg * groups, oh + 2 * ph + kh * dh + sh, ow + 2 * pw + kw * dw + sw))
    cg = c // groups
    for ci in range(c):
        g = ci // cg
        for i in range(h):
            for j in range(wd):
                for a in range(kh):
                    for e in range(kw):
                        full[:, g * fg:(g + 1) * fg, i * sh + a * dh, j * sw + e * dw] += (
                            x[:, ci, i, j][:, None] * w[ci, :, a, e][None, :])
    y = full[:, :, ph:ph + oh, pw:pw + ow]
    return y + (0 if b is None else b[None, :, None, None])


CASES = [dict(stride=1, padding=0, output_padding=0, dilation=1, groups=1),
         dict(stride=2, padding=1, output_padding=1, dilation=1, groups=1),
         dict(stride=(2, 3), padding=(0, 2), output_padding=(1, 2), dilation=(1, 2), groups=1),
         dict(stride=2, padding=0, output_padding=0, dilation=2, groups=2)]


@pytest.mark.parametrize("kw", CASES)
def test_conv_transpose2d_matches_the_loop_reference(device, kw):
    pair = lambda v: (v, v) if isinstance(v, int) else v  # noqa: E731
    x, w, b = R.uniform(-1, 1, (2, 4, 3, 5)), R.uniform(-1, 1, (4, 3, 3, 2)), R.uniform(-1, 1, 3 * kw["groups"])
    want = ref_conv_transpose2d(x, w, b, pair(kw["stride"]), pair(kw["padding"]), pair(kw["output_padding"]),
                                pair(kw["dilation"]), kw["groups"])
    px, pw_, pb = (porta.tensor(v, device=device, requires_grad=True) for v in (x, w, b))
    y = F.conv_transpose2d(px, pw_, pb, **kw)
    np.testing.assert_allclose(arr(y), want, atol=1e-12)
    up = R.uniform(-1, 1, want.shape)
    (y * porta.tensor(up, device=device)).sum().backward()
    eps, flat = 1e-6, lambda a: a.reshape(-1)  # noqa: E731
    for t, v, which in ((px, x, 0), (pw_, w, 1)):
        g = arr(t.grad)
        for k in R.choice(v.size, 4, replace=False):
            d = np.zeros(v.size)
            d[k] = eps
            moved = [x, w]
            moved[which] = v + d.reshape(v.shape)
            hi = ref_conv_transpose2d(moved[0], moved[1], b, pair(kw["stride"]), pair(kw["padding"]),
                                      pair(kw["output_padding"]), pair(kw["dilation"]), kw["groups"])
            np.testing.assert_allclose(flat(g)[k], ((hi - want) * up).sum() / eps, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(arr(pb.grad), up.sum(axis=(0, 2, 3)), atol=1e-12)


def test_conv_transpose_layers_shapes_output_size_and_unbatched(device):
    m = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, device=device)
    assert tuple(m.weight.shape) == (4, 6, 3, 3) and tuple(m.bias.shape) == (6,)
    x = porta.randn(2, 4, 5, 5, device=device)
    assert tuple(m(x).shape) == (2, 6, 9, 9)
    assert tuple(m(x, output_size=[10, 10]).shape) == (2, 6, 10, 10)
    assert tuple(m(x[0]).shape) == (6, 9, 9)
    with pytest.raises(ValueError, match="valid sizes range from 9 to 10"):
        m(x, output_size=(11, 11))
    down = nn.Conv2d(6, 4, 3, stride=2, padding=1, device=device)
    y = porta.randn(2, 6, 10, 10, device=device)  # output_size undoes the conv's rounding, as PyTorch's
    assert tuple(m(down(y), output_size=y.shape).shape) == tuple(y.shape)
    one = nn.ConvTranspose1d(3, 2, 4, stride=3, output_padding=2, groups=1, bias=False, device=device)
    s = porta.randn(2, 3, 7, device=device)
    assert tuple(one(s).shape) == (2, 2, (7 - 1) * 3 + 3 + 2 + 1) and one.bias is None
    want = ref_conv_transpose2d(arr(s)[:, :, None, :], arr(one.weight)[:, :, None, :], None, (1, 3), (0, 0), (0, 2),
                                (1, 1), 1)[:, :, 0, :]
    np.testing.assert_allclose(arr(one(s)), want, atol=1e-5)
    with pytest.raises(ValueError, match='Only "zeros" padding mode'):
        nn.ConvTranspose2d(1, 1, 2, padding_mode="reflect")
    with pytest.raises(porta.PortaError, match="output padding must be smaller than either stride or dilation"):
        F.conv_transpose2d(x, m.weight, None, stride=2, output_padding=2)


def ref_pool(x, k, s, p, ceil, op, count_include_pad=True):
    n, c, h, w = x.shape

    def size(n_in):
        span = n_in + 2 * p - k
        out = -(-span // s) + 1 if ceil else span // s + 1
        if ceil and (out - 1) * s >= n_in + p:
            out -= 1
        return out
    oh, ow = size(h), size(w)
    y = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * s - p, j * s - p
            h1, w1 = min(h0 + k, h + p), min(w0 + k, w + p)
            win = x[:, :, max(h0, 0):min(h1, h), max(w0, 0):min(w1, w)]
            if op == "max":
                y[:, :, i, j] = win.max(axis=(2, 3))
            else:
                div = (h1 - h0) * (w1 - w0) if count_include_pad else win.shape[2] * win.shape[3]
                y[:, :, i, j] = win.sum(axis=(2, 3)) / div
    return y


@pytest.mark.parametrize("k,s,p", [(3, 2, 0), (2, 2, 0), (3, 2, 1), (3, 3, 1), (2, 1, 1)])
def test_ceil_mode_pools_match_pytorchs_windows(device, k, s, p):
    x = R.uniform(-1, 1, (2, 3, 6, 7))
    t = porta.tensor(x, device=device)
    np.testing.assert_allclose(arr(F.max_pool2d(t, k, s, p, ceil_mode=True)), ref_pool(x, k, s, p, True, "max"))
    np.testing.assert_allclose(arr(nn.MaxPool2d(k, s, p, ceil_mode=True)(t)), ref_pool(x, k, s, p, True, "max"))
    for cip in (True, False):
        np.testing.assert_allclose(arr(F.avg_pool2d(t, k, s, p, ceil_mode=True, count_include_pad=cip)),
                                   ref_pool(x, k, s, p, True, "avg", cip), atol=1e-12)
    np.testing.assert_allclose(arr(nn.AvgPool2d(k, s, p, ceil_mode=True)(t)), ref_pool(x, k, s, p, True, "avg"),
                               atol=1e-12)
    np.testing.assert_allclose(arr(F.max_pool2d(t, k, s, p)), ref_pool(x, k, s, p, False, "max"))


def test_ceil_mode_gradients(device):
    x = R.uniform(-1, 1, (1, 2, 5, 5))
    for pool in (lambda t: F.max_pool2d(t, 2, 2, ceil_mode=True),
                 lambda t: F.avg_pool2d(t, 3, 2, 1, ceil_mode=True, count_include_pad=False)):
        t = porta.tensor(x, device=device, requires_grad=True)
        y = pool(t)
        up = R.uniform(-1, 1, tuple(y.shape))
        (y * porta.tensor(up, device=device)).sum().backward()
        g = arr(t.grad)
        for k in (0, 12, 24, 49):
            d = np.zeros(x.size)
            d[k] = 1e-6
            moved = porta.tensor(x + d.reshape(x.shape), device=device)
            np.testing.assert_allclose(g.reshape(-1)[k], ((arr(pool(moved)) - arr(y)) * up).sum() / 1e-6,
                                       atol=1e-5)


def test_values_and_gradients_match_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    x, w = R.uniform(-1, 1, (2, 4, 5, 6)), R.uniform(-1, 1, (4, 3, 3, 3))
    fs = [lambda m, a, b: m.nn.functional.conv_transpose2d(a, b, None, 2, 1, 1, 2, 1),
          lambda m, a, b: m.nn.functional.max_pool2d(a, 3, 2, 1, ceil_mode=True) * b.sum(),
          lambda m, a, b: m.nn.functional.avg_pool2d(a, 3, 2, 0, ceil_mode=True) * b.sum()]
    for f in fs:
        p = [porta.tensor(v, requires_grad=True) for v in (x, w)]
        q = [torch.tensor(v, requires_grad=True) for v in (x, w)]
        a, b = f(porta, *p), f(torch, *q)
        np.testing.assert_allclose(arr(a), b.detach().numpy(), atol=1e-10)
        up = R.uniform(-1, 1, tuple(b.shape))
        (a * porta.tensor(up)).sum().backward()
        (b * torch.tensor(up)).sum().backward()
        for u, v in zip(p, q):
            np.testing.assert_allclose(arr(u.grad), v.grad.numpy(), atol=1e-9)
