"""Module full backward hooks and backward pre-hooks (register_full_backward_hook / _pre_hook), on every device:
what the hooks see (grad_input per positional tensor argument, None where none flows; grad_output), replacing
gradients (of every input, and of a tuple's outputs), order, removal, several backward passes, and what is
refused; and against torch when it is installed."""
import numpy as np
import pytest

import porta
from porta import nn


def arr(t):
    return None if t is None else np.asarray(t.tolist())


class Scale(nn.Module):
    """y = a * x * w: two tensor inputs (a, x) and a parameter w."""

    def __init__(self, device):
        super().__init__()
        self.w = nn.Parameter(porta.tensor([2.0, 3.0], device=device))

    def forward(self, a, x, note="not a tensor"):
        return a * x * self.w


def test_the_hooks_see_input_and_output_gradients(device):
    layer = nn.Linear(3, 2, device=device)
    seen = []
    layer.register_full_backward_pre_hook(lambda m, go: seen.append(("pre", m, arr(go[0]))))
    layer.register_full_backward_hook(lambda m, gi, go: seen.append(("full", m, [arr(g) for g in gi], arr(go[0]))))
    x = porta.randn(4, 3, device=device, requires_grad=True)
    y = layer(x)
    up = porta.randn(4, 2, device=device)
    y.backward(up)
    assert [s[0] for s in seen] == ["pre", "full"] and seen[0][1] is layer
    np.testing.assert_allclose(seen[0][2], arr(up))
    np.testing.assert_allclose(seen[1][2][0], arr(up) @ arr(layer.weight), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(seen[1][3], arr(up))
    np.testing.assert_allclose(arr(x.grad), seen[1][2][0])
    np.testing.assert_allclose(arr(layer.weight.grad), arr(up).T @ arr(x), rtol=1e-5, atol=1e-6)


def test_inputs_without_gradients_give_none_and_the_hook_still_runs(device):
    layer = nn.Linear(3, 2, device=device)
    seen = []
    layer.register_full_backward_hook(lambda m, gi, go: seen.append((gi, arr(go[0]))))
    layer(porta.randn(4, 3, device=device)).sum().backward()  # a data batch: no input gradient
    assert len(seen) == 1 and seen[0][0] == (None,)
    np.testing.assert_allclose(seen[0][1], np.ones((4, 2)))
    scale, got = Scale(device), []
    scale.register_full_backward_hook(lambda m, gi, go: got.append([arr(g) for g in gi]))
    a = porta.tensor([1.0, 1.0], device=device)
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    scale(a, x, "note").sum().backward()
    assert got[0][0] is None
    np.testing.assert_allclose(got[0][1], [2.0, 3.0])


def test_hooks_replace_gradients(device):
    layer = nn.Linear(2, 2, bias=False, device=device)
    layer.register_full_backward_pre_hook(lambda m, go: (go[0] * 10,))
    layer.register_full_backward_hook(lambda m, gi, go: (gi[0] + 1,))
    x = porta.tensor([[1.0, -1.0]], device=device, requires_grad=True)
    layer(x).sum().backward()
    w = arr(layer.weight)
    np.testing.assert_allclose(arr(x.grad), 10 * w.sum(axis=0, keepdims=True) + 1, rtol=1e-6)
    np.testing.assert_allclose(arr(layer.weight.grad), 10 * np.array([[1.0, -1.0], [1.0, -1.0]]), rtol=1e-6)


def test_order_prepend_removal_and_repeated_passes(device):
    layer, order = nn.Linear(2, 1, device=device), []
    layer.register_full_backward_hook(lambda m, gi, go: order.append("b"))
    first = layer.register_full_backward_hook(lambda m, gi, go: order.append("a"), prepend=True)
    x = porta.randn(3, 2, device=device, requires_grad=True)
    y = layer(x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert order == ["a", "b", "a", "b"]
    first.remove()
    layer(x).sum().backward()
    assert order[-1] == "b" and len(order) == 5
    with porta.no_grad():
        layer(x)
    assert len(order) == 5


class Pair(nn.Module):
    """Two outputs, a tuple: (x * w, (x + w).sum()), and a constant tensor that takes no gradient."""

    def __init__(self, device):
        super().__init__()
        self.w = nn.Parameter(porta.tensor([2.0, 3.0], device=device))

    def forward(self, x):
        return x * self.w, (x + self.w).sum(), porta.zeros(1, device=x.device)


def test_hooks_replace_every_inputs_gradient_and_see_tuple_outputs(device):
    scale = Scale(device)
    scale.register_full_backward_hook(lambda m, gi, go: tuple(g * 2 for g in gi))
    a = porta.tensor([1.0, 1.0], device=device, requires_grad=True)
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    scale(a, x).sum().backward()  # both inputs' gradients doubled
    np.testing.assert_allclose(arr(a.grad), 2 * np.array([1.0, 2.0]) * [2.0, 3.0])
    np.testing.assert_allclose(arr(x.grad), 2 * np.array([1.0, 1.0]) * [2.0, 3.0])
    pair, seen = Pair(device), []
    pair.register_full_backward_pre_hook(lambda m, go: seen.append(("pre", [arr(g) for g in go])) or
                                         (go[0] * 10, go[1], go[2]))
    pair.register_full_backward_hook(lambda m, gi, go: seen.append(("full", arr(gi[0]), [arr(g) for g in go])))
    x = porta.tensor([1.0, -1.0], device=device, requires_grad=True)
    y, total, _ = pair(x)
    (y.sum() + 5 * total).backward()
    assert [k for k, *_ in seen] == ["pre", "full"]
    np.testing.assert_allclose(seen[0][1][0], [1.0, 1.0])
    np.testing.assert_allclose(seen[0][1][1], 5.0)
    assert seen[0][1][2] is None  # the constant output takes no gradient
    np.testing.assert_allclose(arr(x.grad), 10 * np.array([2.0, 3.0]) + 5)  # grad_output[0] replaced
    np.testing.assert_allclose(seen[1][1], arr(x.grad))
    lstm, got = nn.LSTM(2, 3), []
    lstm.to(device)
    lstm.register_full_backward_hook(lambda m, gi, go: got.append((arr(gi[0]).shape, len(go), go[1])))
    out, (h, c) = lstm(porta.randn(4, 1, 2, device=device, requires_grad=True))
    out.sum().backward()
    assert got == [((4, 1, 2), 2, None)]  # PyTorch's grad_output: the output tensor, None for the (h, c) tuple


def test_what_porta_refuses(device):
    class ListOut(nn.Module):
        def forward(self, x):
            return [x * 2]
    listed = ListOut()
    listed.register_full_backward_hook(lambda m, gi, go: None)
    with pytest.raises(NotImplementedError, match="returns a list of tensors are not supported"):
        listed(porta.ones(2, device=device, requires_grad=True))
    scale = Scale(device)
    scale.register_full_backward_hook(lambda m, gi, go: (gi[0],))
    a = porta.tensor([1.0, 1.0], device=device, requires_grad=True)
    with pytest.raises(RuntimeError, match="invalid number of grad_input, got 1, but expected 2"):
        scale(a, a).sum().backward()
    with pytest.raises(TypeError, match="must be callable"):
        scale.register_full_backward_pre_hook(3)


def test_hooks_match_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    x = np.random.RandomState(3).uniform(-1, 1, (4, 3)).astype(np.float32)
    results = []
    for lib in (porta, torch):
        lib.manual_seed(0)
        layer = lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.Tanh(), lib.nn.Linear(5, 2))
        with lib.no_grad():
            for i, p in enumerate(layer.parameters()):
                p.copy_(lib.tensor(np.linspace(-1, 1, int(np.prod(tuple(p.shape)))).reshape(tuple(p.shape)) * (i + 1)))
        seen = []
        layer[1].register_full_backward_pre_hook(lambda m, go: (go[0] * 3,))
        layer[1].register_full_backward_hook(lambda m, gi, go, seen=seen: seen.append((gi[0].tolist(),
                                                                                     go[0].tolist())))
        t = lib.tensor(x, requires_grad=True)
        layer(t).pow(2).sum().backward()
        results.append((seen, t.grad.tolist()))
    (ps, pg), (ts, tg) = results
    np.testing.assert_allclose(np.array(ps[0][0]), np.array(ts[0][0]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.array(ps[0][1]), np.array(ts[0][1]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.array(pg), np.array(tg), rtol=1e-5, atol=1e-6)
    grads = []
    for lib in (porta, torch):  # several inputs replaced, a tuple output: the same gradients
        class TwoIn(lib.nn.Module):
            def forward(self, a, b):
                return a * b, a + b
        m = TwoIn()
        m.register_full_backward_pre_hook(lambda mod, go: (go[0] * 2, go[1]))
        m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 3, gi[1] - 1))
        a, b = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, -1.0], requires_grad=True)
        p, q = m(a, b)
        (p.sum() + (q * q).sum()).backward()
        grads.append((a.grad.tolist(), b.grad.tolist()))
    np.testing.assert_allclose(np.array(grads[0]), np.array(grads[1]), rtol=1e-6)
