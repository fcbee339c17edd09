"""The autograd engine beyond backward(): retain_graph, backward(inputs=), autograd.grad (allow_unused,
create_graph and a second derivative), tensor hooks, retain_grad and custom autograd.Function. Expected
values are the calculus (PyTorch's answers); where torch is installed the same programs also run on it."""
import math

import pytest

import porta
from porta import autograd


def test_retain_graph_lets_a_graph_run_twice(device):
    x = porta.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4, 8, 12]
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()  # the second call freed the graph


def test_backward_inputs_accumulates_only_into_the_named_leaves(device):
    a = porta.tensor([2.0], device=device, requires_grad=True)
    b = porta.tensor([3.0], device=device, requires_grad=True)
    (a * b).sum().backward(inputs=[a])
    assert a.grad.tolist() == [3] and b.grad is None


def test_grad_returns_gradients_without_touching_dot_grad(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    unused = porta.tensor([5.0], device=device, requires_grad=True)
    y = (x ** 3).sum()
    (gx,) = autograd.grad(y, x, retain_graph=True)
    assert gx.tolist() == [3, 12] and x.grad is None and not gx.requires_grad
    with pytest.raises(RuntimeError, match="allow_unused"):
        autograd.grad(y, [x, unused], retain_graph=True)
    gx, gu = autograd.grad(y, [x, unused], allow_unused=True, retain_graph=True)
    assert gu is None
    _, gu = autograd.grad(y, [x, unused], allow_unused=True, materialize_grads=True)
    assert gu.tolist() == [0]


def test_create_graph_gives_second_and_third_derivatives(device):
    x = porta.tensor([0.5, 2.0], device=device, requires_grad=True)
    (dx,) = autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert dx.requires_grad and dx.tolist() == [0.75, 12]
    (ddx,) = autograd.grad(dx.sum(), x, create_graph=True)
    assert ddx.tolist() == [3, 12]
    (dddx,) = autograd.grad(ddx.sum(), x)
    assert dddx.tolist() == [6, 6]


def test_create_graph_through_matmul_reductions_and_views(device):
    """A gradient penalty (WGAN-GP's): its gradient by autograd against central differences of the penalty,
    which itself needs only first derivatives."""
    def penalty(w, create_graph):
        v = porta.tensor([1.0, -0.5], dtype=porta.float64, device=device)
        y = (w @ v).tanh().pow(2).mean() + (w.t() * w).sum() / 3
        (g,) = autograd.grad(y, w, create_graph=create_graph)
        return (g.reshape(4) ** 2).sum()

    start = [[0.3, -0.2], [0.7, 0.1]]
    w = porta.tensor(start, dtype=porta.float64, device=device, requires_grad=True)
    penalty(w, create_graph=True).backward()
    eps = 1e-6
    for i in range(2):
        for j in range(2):
            shifted = []
            for sign in (1, -1):
                values = [row[:] for row in start]
                values[i][j] += sign * eps
                shifted.append(penalty(porta.tensor(values, dtype=porta.float64, device=device,
                                                    requires_grad=True), create_graph=False).item())
            numeric = (shifted[0] - shifted[1]) / (2 * eps)
            assert abs(w.grad[i, j].item() - numeric) < 1e-6 * max(1.0, abs(numeric)), (i, j, numeric)


def test_create_graph_refuses_a_node_without_a_recorded_backward(device):
    x = porta.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    y = x[1] * x[1]
    with pytest.raises(NotImplementedError, match="create_graph"):
        autograd.grad(y, x, create_graph=True)
    (g,) = autograd.grad(x[1] * x[1], x)  # a first derivative through the same node works
    assert g.tolist() == [0, 4, 0]


def test_tensor_hooks_see_replace_and_are_removable(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.tolist()))
    doubling = x.register_hook(lambda g: g * 2)
    (x * 3).sum().backward()
    assert seen == [[3, 3]] and x.grad.tolist() == [6, 6]
    handle.remove()
    doubling.remove()
    x.grad = None
    (x * 3).sum().backward()
    assert seen == [[3, 3]] and x.grad.tolist() == [3, 3]


def test_a_hook_on_an_intermediate_changes_what_flows_on(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    h = x * x
    h.register_hook(lambda g: g * 0)
    (h + x).sum().backward()
    assert x.grad.tolist() == [1, 1]


def test_an_exception_in_a_hook_reaches_the_caller_and_leaves_grad_alone(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)

    def broken(_):
        raise ValueError("the hook's own error")
    x.register_hook(broken)
    with pytest.raises(ValueError, match="the hook's own error"):
        (x * 2).sum().backward()
    assert x.grad is None


def test_a_hook_returning_the_wrong_shape_is_refused(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    x.register_hook(lambda g: g.sum())
    with pytest.raises(porta.PortaError, match="a hook may only return a gradient like the one it got"):
        (x * 2).sum().backward()


def test_retain_grad_keeps_an_intermediate_gradient(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    h = x * 3
    assert not h.retains_grad
    h.retain_grad()
    assert h.retains_grad
    (h * h).sum().backward()
    assert h.grad.tolist() == [6, 12] and x.grad.tolist() == [18, 36]


def test_version_counts_in_place_writes(device):
    x = porta.zeros(3, device=device)
    v = x._version
    x.add_(1)
    x[0] = 5
    assert x._version == v + 2


class Cube(autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return x ** 3 * scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x * ctx.scale, None


def test_a_custom_function_runs_its_own_backward(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    y = Cube.apply(x, 2.0)
    assert y.tolist() == [2, 16] and y.grad_fn is not None
    y.sum().backward()
    assert x.grad.tolist() == [6, 24]


def test_a_custom_function_sees_needs_input_grad_and_setup_context(device):
    class Mul(autograd.Function):
        @staticmethod
        def forward(a, b):
            return a * b

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            assert ctx.needs_input_grad == (True, False)
            return grad * b, None

    a = porta.tensor([2.0], device=device, requires_grad=True)
    b = porta.tensor([5.0], device=device)
    Mul.apply(a, b).sum().backward()
    assert a.grad.tolist() == [5]


def test_a_custom_backward_returning_the_wrong_count_is_refused(device):
    class Wrong(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    x = porta.tensor([1.0], device=device, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"incorrect number of gradients \(expected 1, got 2\)"):
        Wrong.apply(x).sum().backward()
    assert x.grad is None


def test_a_saved_tensor_written_in_place_is_an_error(device):
    x = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    h = x * 1
    y = Cube.apply(h, 1.0)
    h.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_double_backward_through_a_custom_function_is_refused(device):
    x = porta.tensor([1.0], device=device, requires_grad=True)
    with pytest.raises(NotImplementedError, match="create_graph"):
        autograd.grad(Cube.apply(x, 1.0).sum(), x, create_graph=True)


def _sin_cos_function(lib):
    """A Function with four outputs: two differentiable, an int and a non-differentiable mask; its backward
    checks what PyTorch passes for each (a tensor, a tensor, None, zeros) and uses the first two."""
    class SinCos(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            mask = x > 0
            ctx.mark_non_differentiable(mask)
            return x.sin() * k, x.cos(), 7, mask

        @staticmethod
        def backward(ctx, g_sin, g_cos, g_int, g_mask):
            assert g_int is None and g_mask.tolist() == [False] * len(g_mask)  # zeros of the mask
            (x,) = ctx.saved_tensors
            return g_sin * x.cos() * ctx.k - g_cos * x.sin(), None
    return SinCos


def test_a_custom_function_with_several_outputs_gets_a_gradient_for_each(device):
    SinCos = _sin_cos_function(porta)
    x = porta.tensor([0.1, 0.5, -1.0], device=device, requires_grad=True)
    s, c, seven, mask = SinCos.apply(x, 2.0)
    assert seven == 7 and mask.tolist() == [True, True, False] and not mask.requires_grad
    assert s.requires_grad and c.requires_grad and s.device == c.device == x.device
    (s.sum() + 3 * c.sum()).backward()
    assert x.grad.tolist() == pytest.approx((2 * x.cos() - 3 * x.sin()).detach().tolist(), rel=1e-6)
    x.grad = None
    SinCos.apply(x, 2.0)[0].sum().backward()  # the cos output unused: its gradient is zeros
    assert x.grad.tolist() == pytest.approx((2 * x.cos()).detach().tolist(), rel=1e-6)
    t = porta.tensor([0.3, -0.7], dtype=porta.float64, device=device, requires_grad=True)
    assert autograd.gradcheck(lambda v: SinCos.apply(v, 2.0)[:2], (t,))

    class Mixed(autograd.Function):  # outputs of two float dtypes: each gradient in its output's dtype
        @staticmethod
        def forward(ctx, a):
            return a * 2, (a * 3).float()

        @staticmethod
        def backward(ctx, g1, g2):
            assert g1.dtype is porta.float64 and g2.dtype is porta.float32
            return g1 * 2 + g2.double() * 3
    a = porta.tensor([1.0, 2.0], dtype=porta.float64, device=device, requires_grad=True)
    u, v = Mixed.apply(a)
    assert u.dtype is porta.float64 and v.dtype is porta.float32
    (u.sum() + v.sum()).backward()
    assert a.grad.tolist() == [5.0, 5.0]


def test_several_outputs_as_pytorch_gives_them():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (an optional peer)")
    got = {}
    for lib in (torch, porta):
        x = lib.tensor([0.1, 0.5, -1.0], requires_grad=True)
        s, c, _, _ = _sin_cos_function(lib).apply(x, 2.0)
        (s * s + c).sum().backward()
        got[lib.__name__] = x.grad.tolist()
    assert got["porta"] == pytest.approx(got["torch"], rel=1e-6)


def test_the_same_program_on_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (an optional peer)")
    for lib in (torch, porta):
        x = lib.tensor([0.5, 2.0], requires_grad=True)
        (dx,) = lib.autograd.grad((x ** 3).sum(), x, create_graph=True)
        dx.sum().backward()  # x.grad = 6x
        h = x * 3
        h.retain_grad()
        h.register_hook(lambda g: g * 2)  # PyTorch runs retain_grad's hook after the others
        (h * h).sum().backward()  # h.grad = 2 * 2h = 12x, x.grad += 3 * 12x
        assert h.grad.tolist() == [6, 24] and x.grad.tolist() == [21, 84], lib


def test_module_forward_hooks_see_and_replace_inputs_and_outputs():
    layer = porta.nn.Linear(2, 1)
    seen = []
    pre = layer.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
    post = layer.register_forward_hook(lambda m, args, out: seen.append((m, args[0].tolist())) or out + 100)
    first = layer.register_forward_hook(lambda m, args, out: seen.append("first"), prepend=True)
    x = porta.tensor([[1.0, 1.0]])
    y = layer(x)
    assert seen == ["first", (layer, [[2.0, 2.0]])]
    assert y.item() == (layer.forward(x * 2) + 100).item()
    pre.remove(), post.remove(), first.remove()
    assert layer(x).item() == layer.forward(x).item()
    kw = layer.register_forward_pre_hook(lambda m, args, kwargs: ((args[0] * 0,), kwargs), with_kwargs=True)
    assert layer(x).item() == layer.forward(x * 0).item()
    kw.remove()
    with pytest.raises(NotImplementedError, match="use register_full_backward_hook"):
        layer.register_backward_hook(lambda m, gi, go: None)
    with pytest.raises(NotImplementedError, match="always_call"):
        layer.register_forward_hook(lambda m, a, o: None, always_call=True)


def test_gradcheck_passes_right_gradients_and_catches_a_wrong_one():
    a = porta.tensor([[0.3, -1.2], [0.5, 2.0]], dtype=porta.float64, requires_grad=True)
    b = porta.tensor([0.7, -0.4], dtype=porta.float64, requires_grad=True)
    assert autograd.gradcheck(lambda x, y: ((x @ y).tanh(), x.sum() * y), (a, b))
    assert autograd.gradgradcheck(lambda x, y: (x @ y).sigmoid() * y.sum(), (a, b))

    class WrongCube(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x  # should be 3 x^2

    with pytest.raises(autograd.GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"):
        autograd.gradcheck(WrongCube.apply, (b,))
    assert autograd.gradcheck(WrongCube.apply, (b,), raise_exception=False) is False
    with pytest.raises(NotImplementedError, match="fast_mode=True"):
        autograd.gradcheck(WrongCube.apply, (b,), fast_mode=True)
    with pytest.warns(UserWarning, match="not a double precision"):
        autograd.gradcheck(lambda x: x * 2, (porta.ones(2, requires_grad=True),), eps=1e-2, atol=1e-2)


def test_detect_anomaly_names_the_node_that_made_a_nan(device):
    x = porta.tensor([0.0, 1.0], device=device, requires_grad=True)
    assert not autograd.is_anomaly_enabled()
    with autograd.detect_anomaly():
        assert autograd.is_anomaly_enabled()
        y = (x.sqrt() * 0).sum()  # d sqrt at 0 is inf, times 0: NaN
        with pytest.raises(RuntimeError, match="Function 'SqrtBackward' returned nan values in its 0th output"):
            y.backward()
    assert not autograd.is_anomaly_enabled() and x.grad is None
    (x.sqrt() * 0).sum().backward()  # off: PyTorch's NaN, as PyTorch gives it
    assert math.isnan(x.grad[0].item()) and x.grad[1].item() == 0
    with autograd.set_detect_anomaly(True):
        assert autograd.is_anomaly_enabled()
    assert not autograd.is_anomaly_enabled()
