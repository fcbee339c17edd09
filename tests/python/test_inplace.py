"""In-place ops under autograd, as PyTorch records them: the tensor changes and its history is
rebased onto the write; leaves that require grad are refused; a tensor an op saved for backward
and then changed in place makes backward raise, naming the op. Expected gradients are PyTorch
2.15's for the same programs."""
import pytest

import porta
import porta.nn as nn
import porta.nn.functional as F


def leaf(values, device):
    return porta.tensor(values, device=device, requires_grad=True)


def test_inplace_ops_on_a_non_leaf_are_recorded(device):
    x, y = leaf([1.0, 2.0, 3.0], device), leaf([4.0, 5.0, 6.0], device)
    a = x * 1
    assert a.mul_(y) is a
    assert a.tolist() == [4, 10, 18] and not a.is_leaf
    a.sum().backward()
    assert x.grad.tolist() == [4, 5, 6] and y.grad.tolist() == [1, 2, 3]

    x.grad = None
    b = x * 2
    b += 1
    b -= x
    b /= 2
    b.sum().backward()
    assert b.tolist() == [1, 1.5, 2] and x.grad.tolist() == [0.5, 0.5, 0.5]


def test_activations_in_place(device):
    x = leaf([-1.0, 0.0, 2.0], device)
    for make in (lambda h: h.relu_(), lambda h: F.relu(h, inplace=True), nn.ReLU(inplace=True)):
        x.grad = None
        h = x * 3
        out = make(h)
        assert out is h or out.tolist() == h.tolist()
        assert h.tolist() == [0, 0, 6]  # the tensor itself changed
        h.sum().backward()
        assert x.grad.tolist() == [0, 0, 3]


def test_clamp_in_place_and_its_gradient_at_the_bounds(device):
    x = leaf([-1.0, 0.0, 1.0, 1.5, 3.0], device)
    h = x * 1
    h.clamp_(0.0, 1.5)
    assert h.tolist() == [0, 0, 1, 1.5, 1.5]
    h.sum().backward()
    assert x.grad.tolist() == [0, 0, 1, 0, 0]  # 1 where min < x < max, as PyTorch 2.15's
    ints = porta.tensor([1, 5])
    with pytest.raises(TypeError, match="can't be cast"):
        ints.clamp_(min=1.5)
    assert porta.tensor([1, 5]).clamp(max=2.5).tolist() == [1.0, 2.5]


def test_item_assignment_into_a_non_leaf_rebases_it(device):
    x, y = leaf([1.0, 2.0, 3.0], device), leaf([4.0, 5.0, 6.0], device)
    h = x * 2
    h[1] = y[0] * 10
    assert h.tolist() == [2, 40, 6]
    h.sum().backward()
    assert x.grad.tolist() == [2, 0, 2] and y.grad.tolist() == [10, 0, 0]

    x.grad = None
    h = x * 2
    tail = h[1:]
    h.mul_(3)
    tail.sum().backward()  # a view made before the write follows its base
    assert x.grad.tolist() == [0, 6, 6]


def test_a_buffer_that_needs_no_grad_absorbs_one(device):
    y = leaf([1.0, 2.0], device)
    buf = porta.zeros(2, 2, device=device)
    buf[0] = y
    buf[1] = y * y
    assert buf.requires_grad and not buf.is_leaf
    buf.sum().backward()
    assert y.grad.tolist() == [3, 5]


def test_leaves_that_require_grad_are_refused(device):
    x = leaf([1.0, 2.0], device)
    with pytest.raises(RuntimeError, match="a leaf tensor that requires grad is being used in an in-place"):
        x.add_(1)
    with pytest.raises(RuntimeError, match="a leaf tensor that requires grad"):
        x += 1
    with pytest.raises(RuntimeError, match="a view of a leaf tensor that requires grad"):
        x[0] = 5
    assert x.tolist() == [1, 2]
    with porta.no_grad():
        x.mul_(2)
        x[0] = 7
    assert x.tolist() == [7, 4] and x.is_leaf


@pytest.mark.parametrize("how", ["in place", "no_grad", "view", "detach", ".data"])
def test_a_changed_saved_tensor_makes_backward_raise(device, how):
    x, y = leaf([1.0, 2.0], device), leaf([3.0, 4.0], device)
    a = x * 1
    loss = (a * y).sum()
    if how == "in place":
        a.add_(1)
    elif how == "no_grad":
        with porta.no_grad():
            a.add_(1)
    elif how == "view":
        a[0] = 0
    elif how == "detach":
        a.detach().zero_()
    else:
        a.data.mul_(2)  # Porta's .data shares the version counter (PyTorch's does not, and computes silently)
    with pytest.raises(RuntimeError, match=r"modified by an in-place operation.*MulBackward"):
        loss.backward()
    assert x.grad is None and y.grad is None


def test_an_optimizer_step_between_forward_and_backward_is_caught(device):
    w = leaf([1.0, 2.0], device)
    opt = porta.optim.SGD([w], lr=0.1)
    loss = (w * w).sum()
    loss.backward()
    second = (w * w).sum()
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        second.backward()


def test_what_a_formula_does_not_read_may_change(device):
    x = leaf([0.0, 0.0], device)
    a = x * 1
    s = a.sigmoid() + a  # sigmoid reads its output, add nothing
    a.mul_(5)
    s.sum().backward()
    assert x.grad.tolist() == [1.25, 1.25]


def test_refused_writes(device):
    with pytest.raises(TypeError, match="result type float32 can't be cast to the desired output type int64"):
        porta.tensor([1, 2], device=device).add_(0.5)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        porta.ones(3, device=device).add_(porta.ones(2, 3, device=device))
    e = porta.zeros(1, device=device).expand(3)
    with pytest.raises(RuntimeError, match="refers to a single memory location"):
        e.add_(1)
    with pytest.raises(RuntimeError, match="refers to a single memory location"):
        e.copy_(porta.ones(3, device=device))


def test_dropout_in_place(device):
    porta.manual_seed(0)
    x = leaf([1.0] * 64, device)
    h = x * 1
    out = nn.Dropout(0.5, inplace=True)(h)
    assert out.tolist() == h.tolist() and set(h.tolist()) <= {0.0, 2.0}
    h.sum().backward()
    assert x.grad.tolist() == h.tolist()  # scale 2 where kept, 0 where dropped


def test_a_deep_graph_is_dropped_without_backward(device):
    x = leaf([1.0], device)
    y = x
    for _ in range(20000):
        y = y * 1.0
    del y  # freed in a loop, not 20000 nested destructors
    assert x.grad is None
