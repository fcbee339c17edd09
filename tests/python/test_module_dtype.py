"""Module.to(dtype), .double(), .float() and .type(): floating parameters, buffers and gradients are cast in
place, keeping their identity (so optimizers made after the cast hold them), on every device; integer
buffers stay; integer targets and the dtypes Porta lacks are refused, and an optimizer that stepped before the
cast refuses to step after it."""
import copy

import numpy as np
import pytest

import porta
import porta.nn as nn


def model(device):
    porta.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)).to(device)


def test_double_casts_in_place_and_computes_in_float64(device):
    m = model(device)
    x = porta.randn(5, 3, device=device)
    m(x).sum().backward()
    params = list(m.parameters())
    before = [p.tolist() for p in params]
    grads = [p.grad.tolist() for p in params]
    want = m.eval()(x).tolist()
    assert m.double() is m
    assert [p is q for p, q in zip(m.parameters(), params)] == [True] * len(params)
    assert all(p.dtype is porta.float64 and p.grad.dtype is porta.float64 for p in params)
    assert [p.tolist() for p in params] == before and [p.grad.tolist() for p in params] == grads
    bn = m[1]
    assert bn.running_mean.dtype is porta.float64 and bn.running_var.dtype is porta.float64
    assert bn.num_batches_tracked.dtype is porta.int64
    got = m(x.double())
    assert got.dtype is porta.float64
    np.testing.assert_allclose(got.tolist(), want, rtol=1e-5, atol=1e-6)
    assert str(m[0].weight.device) == device


def test_to_float_type_and_the_spellings_of_to(device):
    m = model(device)
    m.to(porta.float64)
    assert m[0].weight.dtype is porta.float64
    m.to(device, porta.float32)
    assert m[0].weight.dtype is porta.float32
    m.to(dtype=porta.float64)
    assert m[3].bias.dtype is porta.float64
    assert m.float() is m and m[3].bias.dtype is porta.float32
    m.type(porta.float64)
    assert m[1].num_batches_tracked.dtype is porta.float64  # type() casts every tensor, as PyTorch's


def test_an_optimizer_made_after_the_cast_steps_one_made_before_refuses():
    m = model("cpu")
    stale = porta.optim.Adam(m.parameters())
    m(porta.randn(5, 3)).sum().backward()
    stale.step()
    m.double()
    fresh = porta.optim.Adam(m.parameters())
    m(porta.randn(5, 3, dtype=porta.float64)).sum().backward()
    fresh.step()
    assert m[0].weight.dtype is porta.float64
    with pytest.raises(Exception, match="make a new optimizer"):
        stale.step()


def test_half_and_bfloat16_modules_and_master_weights(device):
    for cast, dt in ((lambda m: m.half(), porta.float16), (lambda m: m.bfloat16(), porta.bfloat16)):
        m = cast(model(device))
        assert m[0].weight.dtype is dt and m[0].bias.dtype is dt
        assert m(porta.randn(8, 3, device=device).to(dt)).dtype is dt  # BatchNorm in training, too
    for master in (False, True):
        w = porta.ones(3, device=device).bfloat16().requires_grad_()
        opt = porta.optim.SGD([w], lr=1.0)
        if master:
            opt.set_master_weights()
        for _ in range(100):  # each update, 1e-4, is below bfloat16's half spacing at 1.0 (2^-9)
            w.grad = porta.full((3,), 1e-4, device=device).bfloat16()
            opt.step()
        got = w.float().tolist()
        # in bfloat16 every update is rounded away; a float32 master copy accumulates them to 0.99
        assert got == ([1.0] * 3 if not master else [float(porta.tensor(0.99).bfloat16())] * 3), (master, got)


def test_refuses_integer_targets_and_missing_dtypes():
    m = model("cpu")
    with pytest.raises(TypeError, match="only accepts floating point or complex dtypes, but got desired "
                                        "dtype=porta.int64"):
        m.to(porta.int64)
    assert m[0].weight.dtype is porta.float32


def test_assigning_data_updates_the_shape_and_dtype_it_reports():
    t = porta.zeros(2)
    assert t.shape == (2,) and t.dtype is porta.float32  # read once, so both are cached
    t.data = porta.zeros(3, dtype=porta.float64)
    assert t.shape == (3,) and t.dtype is porta.float64


def _bf16_run(model_, opt, steps, first):
    for k in range(first, first + steps):
        g = porta.Generator().manual_seed(k)
        x = porta.randn(4, 3, generator=g).bfloat16()
        opt.zero_grad()
        (model_(x).float() ** 2).mean().backward()
        opt.step()


@pytest.mark.parametrize("make", [lambda ps: porta.optim.Adam(ps, lr=1e-3), lambda ps: porta.optim.SGD(ps, lr=0.01, momentum=0.9)],
                         ids=["Adam", "SGD"])
def test_master_weights_resume_bit_exact(make):
    # Issue 49 item 7: the state is float32 under master weights and the master copy itself is saved, so a resumed
    # run is the uninterrupted one, bit for bit (load_state_dict cast the state to bfloat16 and the next step failed).
    porta.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2)).bfloat16()
    opt = make(net.parameters()).set_master_weights()
    _bf16_run(net, opt, 3, 0)
    saved_model = copy.deepcopy(net.state_dict())
    saved = copy.deepcopy(opt.state_dict())
    assert all(v.dtype is porta.float32 for entry in saved["state"].values() for v in entry.values()
               if isinstance(v, porta.Tensor) and v.dim() > 0)
    assert all("master_weight" in entry for entry in saved["state"].values())
    _bf16_run(net, opt, 3, 3)

    resumed = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2)).bfloat16()
    resumed.load_state_dict(saved_model)
    ropt = make(resumed.parameters()).set_master_weights()
    ropt.load_state_dict(saved)
    _bf16_run(resumed, ropt, 3, 3)
    for a, b in zip(net.parameters(), resumed.parameters()):
        assert a.float().tolist() == b.float().tolist()
    for a, b in zip(opt.state_dict()["state"].values(), ropt.state_dict()["state"].values()):
        assert a["master_weight"].tolist() == b["master_weight"].tolist()

    plain = make(nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2)).bfloat16().parameters())
    with pytest.raises(porta.InvalidArgumentError, match="call set_master_weights\\(\\) before load_state_dict"):
        plain.load_state_dict(saved)
    assert plain.state_dict()["state"] == {}  # nothing was loaded
