"""Mixed precision: autocast regions (the op lists of docs/api.md) and GradScaler, on every device, and
against torch.autocast / torch.amp.GradScaler where PyTorch is installed."""
import threading

import pytest

import porta
import porta.nn.functional as F


def _type(device):
    return porta.device(device).type


def test_autocast_lowers_matmuls_and_keeps_float32_ops(device):
    x = porta.randn(4, 8, device=device)
    w = porta.randn(3, 8, device=device, requires_grad=True)
    with porta.autocast(_type(device), dtype=porta.bfloat16):
        assert porta.is_autocast_enabled(_type(device)) and porta.get_autocast_dtype(_type(device)) is porta.bfloat16
        y = F.linear(x, w)
        assert y.dtype is porta.bfloat16
        assert (x @ w.t()).dtype is porta.bfloat16 and porta.mm(x, w.t()).dtype is porta.bfloat16
        # PyTorch's float32 lists differ by device type: the CPU's holds the losses and prod; CUDA's, which
        # the other device types follow, also softmax, sums, exp, log, norms
        wide = porta.bfloat16 if _type(device) == "cpu" else porta.float32
        assert F.softmax(y, dim=1).dtype is wide and y.sum().dtype is wide and y.exp().dtype is wide
        assert y.prod().dtype is porta.float32
        assert F.relu(y).dtype is porta.bfloat16 and (y + 1).dtype is porta.bfloat16  # others keep their dtype
        assert (y + x[:, :3]).dtype is porta.float32  # and promote
        assert x.double().matmul(x.double().t()).dtype is porta.float64  # float64 is never lowered
        loss = F.cross_entropy(y, porta.tensor([0, 1, 2, 0], device=device))
        assert loss.dtype is porta.float32
    assert not porta.is_autocast_enabled(_type(device))
    loss.backward()
    assert w.grad.dtype is porta.float32 and w.grad.shape == w.shape  # through the recorded conversion


def test_regions_nest_disable_and_are_per_thread():
    x = porta.randn(2, 2)
    with porta.autocast("cpu"):
        assert (x @ x).dtype is porta.bfloat16  # the CPU's default is bfloat16, as torch's
        with porta.autocast("cpu", enabled=False):
            assert (x @ x).dtype is porta.float32
        with porta.autocast("cpu", dtype=porta.float16):
            assert (x @ x).dtype is porta.float16
        assert (x @ x).dtype is porta.bfloat16
        seen = []
        t = threading.Thread(target=lambda: seen.append((x @ x).dtype))
        t.start()
        t.join()
        assert seen == [porta.float32]  # another thread is outside the region

    @porta.autocast("cpu")
    def forward(a):
        return a @ a

    assert forward(x).dtype is porta.bfloat16 and (x @ x).dtype is porta.float32


def test_autocast_refuses_what_it_does_not_do():
    with pytest.raises(porta.DtypeError, match="float32 is not a lower-precision dtype"):
        porta.autocast("cpu", dtype=porta.float32).__enter__()
    with pytest.raises(NotImplementedError, match="cache_enabled"):
        porta.autocast("cpu", cache_enabled=False)
    with pytest.raises(porta.NoSuchDeviceError, match="gpu"):
        porta.autocast("gpu").__enter__()
    with pytest.raises(ValueError, match="device type"):
        porta.autocast("cuda:0")
    with pytest.raises(porta.InvalidArgumentError, match="no autocast region is open"):
        porta.autocast("cpu").__exit__(None, None, None)
    p = porta.rand(3, device="mock:0")
    with porta.autocast("mock"):  # as on CUDA: unsafe to autocast, refused
        with pytest.raises(porta.InvalidArgumentError, match="binary_cross_entropy_with_logits"):
            F.binary_cross_entropy(p, p)
    with porta.autocast("cpu"):  # the CPU's float32 list has it
        assert F.binary_cross_entropy(p.cpu().bfloat16(), p.cpu()).dtype is porta.float32


def test_a_parameter_is_converted_once_per_region_and_again_after_a_step():
    w = porta.randn(3, 3, requires_grad=True)
    x = porta.randn(2, 3)
    with porta.autocast("cpu"):
        a = F.linear(x, w)
        with porta.no_grad():
            w.add_(1.0)  # an in-place update: the cached bfloat16 copy is stale
        b = F.linear(x, w)
    want = F.linear(x.bfloat16(), w.detach().bfloat16())
    assert porta.equal(b, want) and not porta.equal(a, b)


def _model(device):
    porta.manual_seed(0)
    return porta.nn.Sequential(porta.nn.Linear(4, 8), porta.nn.ReLU(), porta.nn.Linear(8, 2)).to(device)


def test_grad_scaler_skips_a_step_with_an_inf_and_backs_off(device):
    model = _model(device)
    opt = porta.optim.SGD(model.parameters(), lr=0.1)
    scaler = porta.amp.GradScaler(device=_type(device), init_scale=2.0**16, growth_interval=2)
    x = porta.randn(5, 4, device=device)
    before = [p.detach().clone() for p in model.parameters()]

    loss = model(x).float().pow(2).mean()
    scaler.scale(loss).backward()
    model[0].weight.grad[0, 0] = float("inf")  # injected
    assert scaler.step(opt) is None  # skipped
    scaler.update()
    assert scaler.get_scale() == 2.0**15
    assert all(porta.equal(p, q) for p, q in zip(model.parameters(), before))

    for _ in range(2):  # two good steps: the scale grows back at growth_interval
        opt.zero_grad()
        loss = model(x).float().pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    assert scaler.get_scale() == 2.0**16
    assert not porta.equal(model[0].bias, before[1])
    state = scaler.state_dict()
    assert state["scale"] == 2.0**16 and state["_growth_tracker"] == 0 and state["growth_interval"] == 2


def test_grad_scaler_scale_stays_finite_in_float32(device):
    # 2^127 * 2 is finite in double but inf as the float32 scale: the scale must stay (PyTorch's rule), or
    # every later step is skipped forever.
    p = porta.nn.Parameter(porta.ones(2, device=device))
    opt = porta.optim.SGD([p], lr=0.1)
    scaler = porta.amp.GradScaler(device=_type(device), init_scale=2.0**127, growth_interval=1)
    for _ in range(2):
        opt.zero_grad()
        scaler.scale((p * 1).sum()).backward()
        scaler.step(opt)
        scaler.update()
        assert scaler.get_scale() == 2.0**127


def test_unscale_divides_gradients_and_is_checked(device):
    model = _model(device)
    opt = porta.optim.SGD(model.parameters(), lr=0.1)
    scaler = porta.amp.GradScaler(init_scale=1024.0)
    loss = model(porta.randn(3, 4, device=device)).sum()
    scaler.scale(loss).backward()
    scaled = model[2].bias.grad.clone()
    scaler.unscale_(opt)
    assert porta.allclose(model[2].bias.grad * 1024.0, scaled)
    with pytest.raises(RuntimeError, match="already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="already been called"):
        scaler.step(opt)
    scaler.update()
    with pytest.raises(RuntimeError, match="Closure"):
        scaler.step(opt, closure=lambda: loss)


def _unscale(grads, found, inv_scale):
    from ctypes import c_void_p
    from porta._lib import fn
    handles = (c_void_p * len(grads))(*[g._h.value for g in grads])
    assert fn.porta_amp_unscale_(handles, len(grads), found._h, porta.full((), inv_scale, device=found.device)._h) == 0


def test_unscale_of_half_gradients_rounds_once_and_sees_nan(device):
    import numpy as np
    values = np.array([3.0, 5.0, 1e-3, 65504.0], dtype=np.float16)
    g = porta.tensor(values, device=device)
    found = porta.zeros((), device=device)
    _unscale([g], found, 0.1)
    want = (values.astype(np.float32) * np.float32(0.1)).astype(np.float16)  # float32 math, one rounding
    assert found.item() == 0.0 and g.cpu().numpy().tobytes() == want.tobytes()
    n = porta.tensor([1.0, float("nan")], device=device).bfloat16()
    i = porta.tensor([float("-inf")], device=device)
    _unscale([g, n], found, 1.0)
    assert found.item() == 1.0
    found.zero_()
    _unscale([i], found, 1.0)
    assert found.item() == 1.0


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed: pip install torch (CPU) to compare with it")


def test_op_dtypes_match_torch_autocast_on_the_cpu():
    torch = _torch()
    import numpy as np
    a = np.random.default_rng(0).standard_normal((4, 6)).astype(np.float32)
    w = np.random.default_rng(1).standard_normal((5, 6)).astype(np.float32)
    cases = {
        "linear": (lambda m, x, w: m.nn.functional.linear(x, w)),
        "matmul": (lambda m, x, w: x @ w.t()),
        "softmax_of_linear": (lambda m, x, w: m.nn.functional.softmax(m.nn.functional.linear(x, w), dim=1)),
        "sum_of_linear": (lambda m, x, w: m.nn.functional.linear(x, w).sum()),
        "relu_of_linear": (lambda m, x, w: m.nn.functional.relu(m.nn.functional.linear(x, w))),
        "exp_of_linear": (lambda m, x, w: m.nn.functional.linear(x, w).exp()),
        "mixed_add": (lambda m, x, w: m.nn.functional.linear(x, w) + x[:, :5]),
    }
    for name, f in cases.items():
        with torch.autocast("cpu", dtype=torch.bfloat16):
            want = f(torch, torch.from_numpy(a), torch.from_numpy(w))
        with porta.autocast("cpu", dtype=porta.bfloat16):
            got = f(porta, porta.tensor(a), porta.tensor(w))
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1], name
        np.testing.assert_allclose(got.float().numpy(), want.float().numpy(), rtol=2**-7, atol=1e-2, err_msg=name)


def test_grad_scaler_follows_torch_step_for_step():
    torch = _torch()
    scales = {}
    for lib in ("torch", "porta"):
        m = torch if lib == "torch" else porta
        scaler = (torch.amp.GradScaler("cpu", init_scale=8.0, growth_interval=3) if lib == "torch"
                  else porta.amp.GradScaler("cpu", init_scale=8.0, growth_interval=3))
        p = m.ones(2, requires_grad=True)
        opt = m.optim.SGD([p], lr=0.5)
        seen = []
        for step in range(8):
            opt.zero_grad()
            scaler.scale((p * p).sum()).backward()
            if step in (1, 5):
                with m.no_grad():
                    p.grad[0] = float("nan")
            scaler.step(opt)
            scaler.update()
            seen.append((scaler.get_scale(), p.detach().tolist()))
        scales[lib] = seen
    assert scales["porta"] == scales["torch"]
