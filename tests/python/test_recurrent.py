"""nn.RNN, LSTM, GRU and their cells (porta_rnn / porta_rnn_cell, ABI 1.6), on every device: outputs, h_n
and c_n against a NumPy transcription of PyTorch's formulas in float64 (layers, directions, batch_first,
unbatched inputs, with and without biases and initial states); parameter names as PyTorch's; dropout
between layers; refused arguments; and, when PyTorch is installed, outputs and every gradient against
torch's with the same weights."""
import numpy as np
import pytest

import porta
from porta import nn

RNG = np.random.RandomState(7)


def arr(t):
    return np.asarray(t.tolist())


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def ref_step(mode, x, h, c, w_ih, w_hh, b_ih, b_hh):
    """One step of PyTorch's cell formulas (torch.nn.RNN/LSTM/GRU docs)."""
    gi = x @ w_ih.T + (b_ih if b_ih is not None else 0)
    gh = h @ w_hh.T + (b_hh if b_hh is not None else 0)
    hs = h.shape[-1]
    if mode == "RNN_TANH":
        return np.tanh(gi + gh), None
    if mode == "RNN_RELU":
        return np.maximum(gi + gh, 0), None
    if mode == "LSTM":
        g = gi + gh
        i, f, gg, o = (g[..., k * hs:(k + 1) * hs] for k in range(4))
        c1 = sigmoid(f) * c + sigmoid(i) * np.tanh(gg)
        return sigmoid(o) * np.tanh(c1), c1
    r = sigmoid(gi[..., :hs] + gh[..., :hs])
    z = sigmoid(gi[..., hs:2 * hs] + gh[..., hs:2 * hs])
    n = np.tanh(gi[..., 2 * hs:] + r * gh[..., 2 * hs:])
    return (1 - z) * n + z * h, None


def ref_rnn(m, x, h0=None, c0=None):
    """The module m's forward (its weights read back), in NumPy float64."""
    batched = x.ndim == 3
    if not batched:
        x = x[:, None]
    elif m.batch_first:
        x = x.transpose(1, 0, 2)
    steps, n = x.shape[:2]
    dirs = 2 if m.bidirectional else 1
    shape = (m.num_layers * dirs, n, m.hidden_size)
    h0 = np.zeros(shape) if h0 is None else (h0 if batched else h0[:, None])
    c0 = np.zeros(shape) if c0 is None else (c0 if batched else c0[:, None])
    weights = [[arr(w) for w in group] for group in m.all_weights]
    h_n, c_n, layer_in = [], [], x
    for layer in range(m.num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w = weights[k] + ([None, None] if not m.bias else [])
            h, c = h0[k], c0[k]
            out = [None] * steps
            for t in (reversed(range(steps)) if d else range(steps)):
                h, c1 = ref_step(m.mode, layer_in[t], h, c, *w)
                c = c1 if c1 is not None else c
                out[t] = h
            outs.append(np.stack(out))
            h_n.append(h), c_n.append(c)
        layer_in = np.concatenate(outs, axis=-1)
    out, h_n, c_n = layer_in, np.stack(h_n), np.stack(c_n)
    if not batched:
        return out[:, 0], h_n[:, 0], c_n[:, 0]
    return (out.transpose(1, 0, 2) if m.batch_first else out), h_n, c_n


CONFIGS = [
    ("LSTM", dict(num_layers=2, bidirectional=True)),
    ("LSTM", dict(batch_first=True, bias=False)),
    ("GRU", dict(num_layers=2)),
    ("GRU", dict(bidirectional=True, batch_first=True)),
    ("RNN", dict(num_layers=2, nonlinearity="relu")),
    ("RNN", dict(bidirectional=True)),
]


def build(kind, options, device, dtype=porta.float64):
    porta.manual_seed(0)
    return getattr(nn, kind)(3, 4, device=device, dtype=dtype, **options)


@pytest.mark.parametrize("kind,options", CONFIGS)
@pytest.mark.parametrize("states", [False, True])
def test_forward_matches_pytorchs_formulas(device, kind, options, states):
    m = build(kind, options, device)
    x = RNG.uniform(-1, 1, size=(2, 5, 3) if m.batch_first else (5, 2, 3))
    dirs = 2 if m.bidirectional else 1
    h0 = RNG.uniform(-1, 1, size=(m.num_layers * dirs, 2, 4)) if states else None
    c0 = RNG.uniform(-1, 1, size=h0.shape) if states else None
    tensor = lambda a: None if a is None else porta.tensor(a, device=device)  # noqa: E731
    if kind == "LSTM":
        out, (h_n, c_n) = m(tensor(x), None if h0 is None else (tensor(h0), tensor(c0)))
    else:
        out, h_n = m(tensor(x), tensor(h0))
    want_out, want_h, want_c = ref_rnn(m, x, h0, c0 if kind == "LSTM" else None)
    np.testing.assert_allclose(arr(out), want_out, atol=1e-12)
    np.testing.assert_allclose(arr(h_n), want_h, atol=1e-12)
    if kind == "LSTM":
        np.testing.assert_allclose(arr(c_n), want_c, atol=1e-12)
    assert out.device == m.weight_ih_l0.device


def test_unbatched_input(device):
    m = build("LSTM", dict(num_layers=2), device)
    x = RNG.uniform(-1, 1, size=(4, 3))
    out, (h_n, c_n) = m(porta.tensor(x, device=device))
    assert out.shape == (4, 4) and h_n.shape == (2, 4) and c_n.shape == (2, 4)
    want_out, want_h, want_c = ref_rnn(m, x)
    np.testing.assert_allclose(arr(out), want_out, atol=1e-12)
    np.testing.assert_allclose(arr(c_n), want_c, atol=1e-12)


@pytest.mark.parametrize("kind", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cells_match_one_step(device, kind):
    porta.manual_seed(1)
    cell = getattr(nn, kind)(3, 5, device=device, dtype=porta.float64)
    mode = {"RNNCell": "RNN_TANH", "LSTMCell": "LSTM", "GRUCell": "GRU"}[kind]
    x, h, c = RNG.uniform(-1, 1, (2, 3)), RNG.uniform(-1, 1, (2, 5)), RNG.uniform(-1, 1, (2, 5))
    w = [arr(cell.weight_ih), arr(cell.weight_hh), arr(cell.bias_ih), arr(cell.bias_hh)]
    want_h, want_c = ref_step(mode, x, h, c, *w)
    t = lambda a: porta.tensor(a, device=device)  # noqa: E731
    if kind == "LSTMCell":
        h1, c1 = cell(t(x), (t(h), t(c)))
        np.testing.assert_allclose(arr(c1), want_c, atol=1e-12)
        zero_h, _ = cell(t(x))
        np.testing.assert_allclose(arr(zero_h), ref_step(mode, x, 0 * h, 0 * c, *w)[0], atol=1e-12)
    else:
        h1 = cell(t(x), t(h))
        unbatched = cell(t(x[0]), t(h[0]))
        np.testing.assert_allclose(arr(unbatched), want_h[0], atol=1e-12)
    np.testing.assert_allclose(arr(h1), want_h, atol=1e-12)


def test_parameters_carry_pytorchs_names_and_init_bounds():
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    names = [n for n, _ in m.named_parameters()]
    assert names[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l0_reverse"]
    assert names[-1] == "bias_hh_l1_reverse" and len(names) == 16
    assert tuple(m.weight_ih_l1.shape) == (16, 8) and tuple(m.weight_hh_l0.shape) == (16, 4)
    assert max(abs(arr(p)).max() for p in m.parameters()) <= 0.5  # U(-1/sqrt(4), 1/sqrt(4))
    assert [n for n, _ in nn.GRUCell(2, 3, bias=False).named_parameters()] == ["weight_ih", "weight_hh"]
    assert repr(nn.GRU(3, 4, 2, batch_first=True)) == "GRU(3, 4, num_layers=2, batch_first=True)"


def test_dropout_applies_between_layers_only_while_training(device):
    m = build("GRU", dict(num_layers=2, dropout=0.5), device)
    x = porta.tensor(RNG.uniform(-1, 1, (4, 2, 3)), device=device)
    m.eval()
    want, _, _ = ref_rnn(m, arr(x))
    np.testing.assert_allclose(arr(m(x)[0]), want, atol=1e-12)
    m.train()
    porta.manual_seed(5)
    a = arr(m(x)[0])
    porta.manual_seed(5)
    np.testing.assert_array_equal(arr(m(x)[0]), a)
    assert np.abs(a - want).max() > 1e-3
    with pytest.warns(UserWarning, match="num_layers greater than 1"):
        nn.LSTM(3, 4, dropout=0.2)


def test_gradients_reach_input_states_and_weights(device):
    m = build("LSTM", dict(num_layers=2, bidirectional=True), device)
    x = porta.tensor(RNG.uniform(-1, 1, (3, 2, 3)), device=device, requires_grad=True)
    h0 = porta.zeros(4, 2, 4, dtype=porta.float64, device=device, requires_grad=True)
    c0 = porta.zeros(4, 2, 4, dtype=porta.float64, device=device, requires_grad=True)
    out, (h_n, c_n) = m(x, (h0, c0))
    (out.sum() + h_n.sum() + c_n.sum()).backward()
    assert all(p.grad is not None for p in [x, h0, c0, *m.parameters()])


def test_refused_arguments():
    with pytest.raises(NotImplementedError, match="proj_size"):
        nn.LSTM(3, 4, proj_size=2)
    with pytest.raises(NotImplementedError, match="PackedSequence"):
        nn.GRU(3, 4)([porta.zeros(2, 3)])
    with pytest.raises(ValueError, match="dropout"):
        nn.RNN(3, 4, dropout=1.5)
    with pytest.raises(ValueError, match="nonlinearity"):
        nn.RNN(3, 4, nonlinearity="sigmoid")
    m = nn.LSTM(3, 4)
    with pytest.raises(RuntimeError, match=r"w_ih must be \[16, 5\]"):
        m(porta.zeros(2, 1, 5))
    with pytest.raises(RuntimeError, match=r"expected h0 of shape \[1, 2, 4\]"):
        m(porta.zeros(3, 2, 3), (porta.zeros(1, 3, 4), porta.zeros(1, 3, 4)))
    with pytest.raises(RuntimeError, match="tuple"):
        m(porta.zeros(3, 2, 3), porta.zeros(1, 2, 4))
    with pytest.raises(RuntimeError, match="empty"):
        m(porta.zeros(0, 2, 3))


@pytest.mark.parametrize("kind,options", CONFIGS)
def test_outputs_and_gradients_match_torch(kind, options):
    torch = pytest.importorskip("torch",
                                reason="PyTorch is an optional peer; the NumPy formulas are checked without it")
    m = build(kind, options, "cpu")
    ref = getattr(torch.nn, kind)(3, 4, dtype=torch.float64, **options)
    ref.load_state_dict({n: torch.tensor(arr(p)) for n, p in m.named_parameters()})
    x = RNG.uniform(-1, 1, size=(2, 5, 3) if m.batch_first else (5, 2, 3))
    up = RNG.uniform(-1, 1, size=(2, 5, 4 * (2 if m.bidirectional else 1)) if m.batch_first else
                     (5, 2, 4 * (2 if m.bidirectional else 1)))
    px = porta.tensor(x, requires_grad=True)
    tx = torch.tensor(x, requires_grad=True)
    pout, tout = m(px)[0], ref(tx)[0]
    np.testing.assert_allclose(arr(pout), tout.detach().numpy(), atol=1e-12)
    (pout * porta.tensor(up)).sum().backward()
    (tout * torch.tensor(up)).sum().backward()
    np.testing.assert_allclose(arr(px.grad), tx.grad.numpy(), atol=1e-12)
    for (name, p), q in zip(m.named_parameters(), ref.parameters()):
        np.testing.assert_allclose(arr(p.grad), q.grad.numpy(), atol=1e-12, err_msg=name)
