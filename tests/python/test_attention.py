"""Attention from Python (ABI 1.4), on every device: F.scaled_dot_product_attention against NumPy (scale,
causal, bool and additive masks), nn.MultiheadAttention against the same computation written out (weights,
key_padding_mask, batch_first), and a TransformerEncoderLayer that trains."""
import math

import numpy as np
import pytest

import porta
from porta import nn
from porta.nn import functional as F

RNG = np.random.default_rng(3)


def arr(t):
    return np.asarray(t.tolist())


def f64(values, device, **kw):
    return porta.tensor(values, dtype=porta.float64, device=device, **kw)


def attention(q, k, v, mask=None, scale=None):
    s = q @ np.swapaxes(k, -1, -2) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if mask is not None:
        s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)) @ v


def test_sdpa_matches_numpy(device):
    q, k, v = RNG.normal(size=(2, 3, 4, 8)), RNG.normal(size=(2, 3, 5, 8)), RNG.normal(size=(2, 3, 5, 6))
    Q, K, V = (f64(x, device) for x in (q, k, v))
    np.testing.assert_allclose(arr(F.scaled_dot_product_attention(Q, K, V)), attention(q, k, v), rtol=1e-10)
    np.testing.assert_allclose(arr(F.scaled_dot_product_attention(Q, K, V, scale=0.3)), attention(q, k, v, scale=0.3),
                               rtol=1e-10)
    causal = np.tril(np.ones((4, 5), dtype=bool))
    np.testing.assert_allclose(arr(F.scaled_dot_product_attention(Q, K, V, is_causal=True)),
                               attention(q, k, v, causal), rtol=1e-10)
    additive = RNG.normal(size=(4, 5))
    np.testing.assert_allclose(arr(F.scaled_dot_product_attention(Q, K, V, attn_mask=f64(additive, device))),
                               attention(q, k, v, additive), rtol=1e-10)
    with pytest.raises(porta.InvalidArgumentError, match="not both"):
        F.scaled_dot_product_attention(Q, K, V, attn_mask=f64(additive, device), is_causal=True)


def test_sdpa_gradient_flows_to_q_k_v(device):
    q = f64(RNG.normal(size=(1, 3, 4)), device, requires_grad=True)
    k = f64(RNG.normal(size=(1, 3, 4)), device, requires_grad=True)
    v = f64(RNG.normal(size=(1, 3, 4)), device, requires_grad=True)
    F.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()
    assert all(t.grad is not None and t.grad.shape == (1, 3, 4) for t in (q, k, v))
    # The first query sees only the first key: value rows 1 and 2 get no gradient from it; the sum's
    # gradient for v is the column sums of the weights.
    assert arr(v.grad)[0, 0, 0] > arr(v.grad)[0, 2, 0]


@pytest.mark.parametrize("l,s", [(130, 130), (200, 70), (129, 300)])
def test_causal_sdpa_by_query_blocks_is_the_masked_formula(device, l, s):
    # From 128 query rows on, causal attention runs by blocks of rows, each over the keys its rows see
    # (core/src/nn/attention.cpp): values and gradients are those of the whole masked product.
    q, k, v = RNG.normal(size=(1, 2, l, 8)), RNG.normal(size=(1, 2, s, 8)), RNG.normal(size=(1, 2, s, 5))
    causal = np.tril(np.ones((l, s), dtype=bool))
    upstream = f64(RNG.normal(size=(1, 2, l, 5)), device)
    grads = []
    for mask in (None, f64(causal, device).bool()):
        Q, K, V = (f64(x, device, requires_grad=True) for x in (q, k, v))
        out = F.scaled_dot_product_attention(Q, K, V, attn_mask=mask, is_causal=mask is None)
        np.testing.assert_allclose(arr(out), attention(q, k, v, causal), rtol=1e-10, atol=1e-12)
        (out * upstream).sum().backward()
        grads.append([arr(t.grad) for t in (Q, K, V)])
    for blocked, whole in zip(*grads):
        np.testing.assert_allclose(blocked, whole, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("batch_first", [True, False])
def test_multihead_attention_matches_the_formula(device, batch_first):
    porta.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2, batch_first=batch_first, dtype=porta.float64).to(device)
    x = RNG.normal(size=(3, 4, 8))  # [N, L, E]
    pad = np.array([[False, False, False, True], [False] * 4, [False, False, True, True]])
    inp = f64(x if batch_first else np.swapaxes(x, 0, 1), device)
    out, weights = mha(inp, inp, inp, key_padding_mask=porta.tensor(pad, device=device))
    w, b = arr(mha.in_proj_weight), arr(mha.in_proj_bias)
    q, k, v = (x @ w[i * 8:(i + 1) * 8].T + b[i * 8:(i + 1) * 8] for i in range(3))
    split = lambda t: t.reshape(3, 4, 2, 4).transpose(0, 2, 1, 3)  # noqa: E731
    allowed = ~pad[:, None, None, :]
    heads = attention(split(q), split(k), split(v), np.broadcast_to(allowed, (3, 2, 4, 4)))
    want = heads.transpose(0, 2, 1, 3).reshape(3, 4, 8) @ arr(mha.out_proj.weight).T + arr(mha.out_proj.bias)
    got = arr(out) if batch_first else np.swapaxes(arr(out), 0, 1)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    assert weights.shape == (3, 4, 4) and np.allclose(arr(weights).sum(-1), 1)
    assert np.all(arr(weights)[0, :, 3] == 0)  # a padded key gets no weight
    out2, none = mha(inp, inp, inp, key_padding_mask=porta.tensor(pad, device=device), need_weights=False)
    assert none is None
    np.testing.assert_allclose(arr(out2), arr(out), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("batch_first", [False, True])
def test_unbatched_input_is_a_batch_of_one(device, batch_first):
    # [L, E] as PyTorch takes it, whatever batch_first: the batched answer of a batch of one, squeezed
    porta.manual_seed(0)
    mha = nn.MultiheadAttention(8, 2, batch_first=batch_first, dtype=porta.float64).to(device)
    x = f64(RNG.normal(size=(4, 8)), device)
    pad = porta.tensor([False, False, True, False], device=device)
    out, weights = mha(x, x, x, key_padding_mask=pad)
    batched = x.unsqueeze(0 if batch_first else 1)
    want, want_weights = mha(batched, batched, batched, key_padding_mask=pad.unsqueeze(0))
    assert out.shape == (4, 8) and weights.shape == (4, 4)
    np.testing.assert_allclose(arr(out), arr(want.squeeze(0 if batch_first else 1)), rtol=1e-12)
    np.testing.assert_allclose(arr(weights), arr(want_weights.squeeze(0)), rtol=1e-12)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=batch_first, dtype=porta.float64).to(device)
    assert layer(x).shape == (4, 8)


def test_transformer_encoder_layer_trains(device):
    porta.manual_seed(1)
    layer = nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, dropout=0.0, batch_first=True,
                                       norm_first=True).to(device)
    head = nn.Linear(16, 1).to(device)
    opt = porta.optim.Adam(list(layer.parameters()) + list(head.parameters()), lr=1e-2)
    x = porta.randn(8, 5, 16, device=device)
    y = x.sum(-1, keepdim=True)  # a function of each token's own features
    losses = []
    for _ in range(30):
        opt.zero_grad()
        causal = porta.ones(5, 5, dtype=porta.bool, device=device).triu(1)  # True: not allowed, as PyTorch
        loss = F.mse_loss(head(layer(x, src_mask=causal, is_causal=True)), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
