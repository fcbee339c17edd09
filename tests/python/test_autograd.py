"""backward, .grad, requires_grad, is_leaf, detach and no_grad."""
import threading

import pytest

import porta


def test_backward_accumulates_into_leaves(device):
    w = porta.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    x = porta.tensor([4.0, 5.0, 6.0], device=device)
    assert w.is_leaf and w.grad is None and w.grad_fn is None
    y = (w * x).sum()
    assert y.requires_grad and not y.is_leaf and y.grad_fn is not None
    y.backward()
    assert w.grad.tolist() == [4, 5, 6] and w.grad.device == w.device
    (w * 2).sum().backward()
    assert w.grad.tolist() == [6, 7, 8]  # accumulates
    w.grad = None
    assert w.grad is None
    z = w * w
    z.backward(porta.ones(3, device=device))
    assert w.grad.tolist() == [2, 4, 6]
    with pytest.raises(porta.PortaError):
        porta.ones(2, device=device).backward()  # nothing requires grad


def test_requires_grad_and_detach(device):
    x = porta.ones(2, device=device)
    assert not x.requires_grad
    x.requires_grad_()
    assert x.requires_grad
    x.requires_grad = False
    assert not x.requires_grad
    y = porta.ones(2, device=device, requires_grad=True) * 2
    d = y.detach()
    assert not d.requires_grad and d.is_leaf and d.tolist() == [2, 2]
    with pytest.raises(porta.InvalidArgumentError):
        y.requires_grad_(False)  # not a leaf
    with pytest.raises(RuntimeError, match="detach"):
        porta.ones(2, requires_grad=True).numpy()


def test_no_grad_context_and_decorator(device):
    w = porta.ones(2, device=device, requires_grad=True)
    assert porta.is_grad_enabled()
    with porta.no_grad():
        assert not porta.is_grad_enabled()
        assert not (w * 2).requires_grad
        with porta.enable_grad():
            assert (w * 2).requires_grad
    assert porta.is_grad_enabled()

    @porta.no_grad()
    def f():
        return w * 2
    assert not f().requires_grad and porta.is_grad_enabled()

    @porta.no_grad
    def g():
        return w * 2
    assert not g().requires_grad and porta.is_grad_enabled()
    with porta.set_grad_enabled(False):
        assert not porta.is_grad_enabled()
    assert porta.is_grad_enabled()


def test_grad_mode_is_per_thread():
    seen = []
    with porta.no_grad():
        t = threading.Thread(target=lambda: seen.append(porta.is_grad_enabled()))
        t.start()
        t.join()
    assert seen == [True]


def test_in_place_on_graph_tensors():
    w = porta.ones(2, requires_grad=True)
    with pytest.raises(porta.InvalidArgumentError, match="requires grad"):
        w += 1  # as PyTorch: a leaf that requires grad cannot change in place
    y = w * 2
    y += 1  # not a leaf: rebinds to y + 1, keeping the graph
    y.sum().backward()
    assert w.grad.tolist() == [2, 2]
    with porta.no_grad():
        w -= 0.5 * w.grad
    assert w.tolist() == [0, 0] and w.requires_grad
