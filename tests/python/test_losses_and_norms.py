"""The losses and normalization layers of ABI 1.4 from Python, on every device, against NumPy formulas in
float64 (PyTorch's definitions): nll_loss, cross_entropy (weights, ignore_index, label smoothing, [N, C, d]
inputs, probability targets), binary_cross_entropy (with logits), l1, smooth_l1, huber, kl_div; layer_norm,
group_norm, batch_norm and their modules (running statistics, train/eval, state_dict)."""
import numpy as np
import pytest

import porta
from porta import nn
from porta.nn import functional as F

RNG = np.random.default_rng(7)
LOGITS = RNG.normal(size=(5, 4))
TARGET = np.array([0, 3, 1, 3, 2])
W = np.array([0.5, 1.0, 2.0, 1.5])


def arr(t):
    return np.asarray(t.tolist())


def f64(values, device, **kw):
    return porta.tensor(values, dtype=porta.float64, device=device, **kw)


def i64(values, device):
    return porta.tensor(values, dtype=porta.int64, device=device)


def log_softmax(x, axis=1):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


def test_nll_and_weighted_cross_entropy(device):
    logp = log_softmax(LOGITS)
    picked = -logp[np.arange(5), TARGET] * W[TARGET]
    got = F.nll_loss(f64(logp, device), i64(TARGET, device), weight=f64(W, device))
    np.testing.assert_allclose(got.item(), picked.sum() / W[TARGET].sum(), rtol=1e-12)
    got = F.cross_entropy(f64(LOGITS, device), i64(TARGET, device), weight=f64(W, device), reduction="none")
    np.testing.assert_allclose(arr(got), picked, rtol=1e-12)
    ignored = np.where(TARGET == 3, -100, TARGET)
    got = F.cross_entropy(f64(LOGITS, device), i64(ignored, device), weight=f64(W, device))
    keep = ignored != -100
    np.testing.assert_allclose(got.item(), picked[keep].sum() / W[TARGET][keep].sum(), rtol=1e-12)


def test_cross_entropy_label_smoothing_and_spatial(device):
    eps, c = 0.1, 4
    logp = log_softmax(LOGITS)
    want = (1 - eps) * -logp[np.arange(5), TARGET] + eps / c * -logp.sum(1)
    got = F.cross_entropy(f64(LOGITS, device), i64(TARGET, device), label_smoothing=eps)
    np.testing.assert_allclose(got.item(), want.mean(), rtol=1e-12)
    x = RNG.normal(size=(2, 4, 3))  # [N, C, d]
    t = np.array([[0, 1, 3], [2, 2, 0]])
    lp = log_softmax(x, 1)
    want = -np.take_along_axis(lp, t[:, None, :], 1)[:, 0, :]
    np.testing.assert_allclose(arr(F.cross_entropy(f64(x, device), i64(t, device), reduction="none")), want,
                               rtol=1e-12)
    probs = np.exp(log_softmax(RNG.normal(size=(5, 4))))
    got = nn.CrossEntropyLoss()(f64(LOGITS, device), f64(probs, device))
    np.testing.assert_allclose(got.item(), (-(probs * logp).sum(1)).mean(), rtol=1e-12)


def test_cross_entropy_gradient_matches_softmax_minus_onehot(device):
    x = f64(LOGITS, device, requires_grad=True)
    F.cross_entropy(x, i64(TARGET, device), label_smoothing=0.0, weight=f64(np.ones(4), device)).backward()
    want = (np.exp(log_softmax(LOGITS)) - np.eye(4)[TARGET]) / 5
    np.testing.assert_allclose(arr(x.grad), want, rtol=1e-10, atol=1e-12)


def test_binary_cross_entropy(device):
    p = np.array([0.1, 0.5, 0.9, 1.0])
    y = np.array([0.0, 1.0, 1.0, 0.0])
    with np.errstate(divide="ignore"):  # log(0) is -inf before the clamp, as in PyTorch
        want = -(y * np.maximum(np.log(p), -100) + (1 - y) * np.maximum(np.log1p(-p), -100))
    np.testing.assert_allclose(arr(F.binary_cross_entropy(f64(p, device), f64(y, device), reduction="none")), want,
                               rtol=1e-12)
    with pytest.raises(porta.InvalidArgumentError, match="between 0 and 1"):
        F.binary_cross_entropy(f64([1.5], device), f64([1.0], device))
    x = np.array([-30.0, -1.0, 0.0, 2.0, 40.0])
    y = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    pw = 3.0
    sp = np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)
    want = (1 - y) * x + (1 + (pw - 1) * y) * sp
    got = nn.BCEWithLogitsLoss(reduction="none", pos_weight=f64([pw], device))(f64(x, device), f64(y, device))
    np.testing.assert_allclose(arr(got), want, rtol=1e-12)


def test_regression_losses_and_kl(device):
    a, b = RNG.normal(size=6) * 2, RNG.normal(size=6)
    d = np.abs(a - b)
    x, y = f64(a, device), f64(b, device)
    np.testing.assert_allclose(F.l1_loss(x, y).item(), d.mean(), rtol=1e-12)
    np.testing.assert_allclose(nn.SmoothL1Loss(beta=0.5)(x, y).item(),
                               np.where(d < 0.5, 0.5 * d * d / 0.5, d - 0.25).mean(), rtol=1e-12)
    np.testing.assert_allclose(nn.HuberLoss(delta=0.7, reduction="sum")(x, y).item(),
                               np.where(d < 0.7, 0.5 * d * d, 0.7 * (d - 0.35)).sum(), rtol=1e-12)
    logq = log_softmax(LOGITS)
    p = np.exp(log_softmax(RNG.normal(size=(5, 4))))
    p[0, 0] = 0.0  # 0 log 0 = 0
    want = np.where(p > 0, p * (np.log(np.where(p > 0, p, 1)) - logq), 0).sum() / 5
    np.testing.assert_allclose(F.kl_div(f64(logq, device), f64(p, device), reduction="batchmean").item(), want,
                               rtol=1e-12)
    np.testing.assert_allclose(nn.KLDivLoss(reduction="sum", log_target=True)(f64(logq, device), f64(logq, device))
                               .item(), 0.0, atol=1e-12)


def test_layer_and_group_norm(device):
    x = RNG.normal(size=(2, 6, 3))
    w, b = RNG.normal(size=3), RNG.normal(size=3)
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    want = (x - mean) / np.sqrt(var + 1e-5) * w + b
    got = F.layer_norm(f64(x, device), (3,), f64(w, device), f64(b, device))
    np.testing.assert_allclose(arr(got), want, rtol=1e-10, atol=1e-12)
    g = x.reshape(2, 3, 6)
    want = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    np.testing.assert_allclose(arr(nn.GroupNorm(3, 6, dtype=porta.float64).to(device)(f64(x, device))), want, rtol=1e-10, atol=1e-12)
    ln = nn.LayerNorm([6, 3]).to(device)
    assert ln.weight.tolist() == np.ones((6, 3)).tolist() and "LayerNorm((6, 3)" in repr(ln)
    with pytest.raises(porta.ShapeError, match="normalized_shape"):
        F.layer_norm(f64(x, device), (4,))


def test_batch_norm_running_statistics(device):
    porta.manual_seed(0)
    bn = nn.BatchNorm2d(3, momentum=0.2).to(device)
    x = RNG.normal(size=(4, 3, 2, 2))
    y = bn(f64(x, device).float())
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    want = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(arr(y), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(arr(bn.running_mean), 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(arr(bn.running_var), 0.8 + 0.2 * x.var((0, 2, 3), ddof=1), rtol=1e-5)
    assert bn.num_batches_tracked.item() == 1
    assert set(bn.state_dict()) == {"weight", "bias", "running_mean", "running_var", "num_batches_tracked"}
    bn.eval()
    y = bn(f64(x, device).float())
    rm, rv = arr(bn.running_mean), arr(bn.running_var)
    np.testing.assert_allclose(arr(y), (x - rm[None, :, None, None]) / np.sqrt(rv[None, :, None, None] + 1e-5),
                               rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="expected 4D input"):
        bn(porta.ones(2, 3, device=device))
    with pytest.raises(porta.InvalidArgumentError, match="more than 1 value per channel"):
        nn.BatchNorm1d(3).to(device)(porta.ones(1, 3, device=device))


def test_batch_norm_gradient(device):
    x0, c = RNG.normal(size=(4, 2)), RNG.normal(size=(4, 2))
    x = f64(x0, device, requires_grad=True)
    (F.batch_norm(x, None, None, training=True) * f64(c, device)).sum().backward()
    sigma = np.sqrt(x0.var(0) + 1e-5)
    y = (x0 - x0.mean(0)) / sigma
    want = (c - c.mean(0) - y * (c * y).mean(0)) / sigma  # d/dx of sum(c * y) through the batch statistics
    np.testing.assert_allclose(arr(x.grad), want, rtol=1e-9, atol=1e-12)
