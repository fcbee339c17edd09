"""RMSprop, Adagrad and Adam/AdamW with amsgrad (composed from elementwise ops in the core), on every device:
five steps against NumPy transcriptions of PyTorch's update rules in float64, and against torch itself
when it is installed; state_dict names and an exact resume."""
import numpy as np
import pytest

import porta
from porta import nn

GRADS = [np.array([0.5, -1.5, 2.0, 0.0]) * (k + 1) ** 0.5 for k in range(5)]
P0 = np.array([1.0, -2.0, 0.5, 3.0])


def ref_rmsprop(lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False):
    p, sq, buf, ga = P0.copy(), np.zeros(4), np.zeros(4), np.zeros(4)
    for g in GRADS:
        g = g + weight_decay * p
        sq = alpha * sq + (1 - alpha) * g * g
        if centered:
            ga = ga + (1 - alpha) * (g - ga)
            avg = np.sqrt(sq - ga * ga) + eps
        else:
            avg = np.sqrt(sq) + eps
        if momentum > 0:
            buf = momentum * buf + g / avg
            p = p - lr * buf
        else:
            p = p - lr * g / avg
    return p


def ref_adagrad(lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10):
    p, s = P0.copy(), np.full(4, float(initial_accumulator_value))
    for step, g in enumerate(GRADS, 1):
        g = g + weight_decay * p
        clr = lr / (1 + (step - 1) * lr_decay)
        s = s + g * g
        p = p - clr * g / (np.sqrt(s) + eps)
    return p


def ref_amsgrad(lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled=False):
    p, m, v, vmax = P0.copy(), np.zeros(4), np.zeros(4), np.zeros(4)
    b1, b2 = betas
    for step, g in enumerate(GRADS, 1):
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m = m + (1 - b1) * (g - m)
        v = b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        denom = np.sqrt(vmax) / np.sqrt(1 - b2 ** step) + eps
        p = p - lr / (1 - b1 ** step) * m / denom
    return p


CASES = [
    ("RMSprop", {}, ref_rmsprop),
    ("RMSprop", dict(lr=0.05, momentum=0.9, centered=True, weight_decay=0.1), ref_rmsprop),
    ("Adagrad", {}, ref_adagrad),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.05, initial_accumulator_value=0.3), ref_adagrad),
    ("Adam", dict(amsgrad=True, lr=0.01, weight_decay=0.1), lambda amsgrad, **kw: ref_amsgrad(**kw)),
    ("AdamW", dict(amsgrad=True, lr=0.01, weight_decay=0.1), lambda amsgrad, **kw: ref_amsgrad(decoupled=True, **kw)),
]


def run(module, name, options, device, dtype):
    p = module.nn.Parameter(module.tensor(P0, dtype=dtype, device=device))
    opt = getattr(module.optim, name)([p], **options)
    for g in GRADS:
        p.grad = module.tensor(g, dtype=dtype, device=device)
        opt.step()
    return p, opt


@pytest.mark.parametrize("name,options,ref", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_five_steps_match_pytorchs_rule(device, name, options, ref):
    p, _ = run(porta, name, options, device, porta.float64)
    np.testing.assert_allclose(np.asarray(p.tolist()), ref(**options), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name,options,ref", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_float32_steps_match_torch(name, options, ref):
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; the NumPy rule is checked without it")
    p, _ = run(porta, name, options, "cpu", porta.float32)
    q, _ = run(torch, name, options, "cpu", torch.float32)
    np.testing.assert_allclose(np.asarray(p.tolist()), q.detach().numpy(), rtol=2e-6, atol=1e-7)


def test_state_dict_names_and_exact_resume():
    options = dict(lr=0.05, momentum=0.9, centered=True)
    p, opt = run(porta, "RMSprop", options, "cpu", porta.float64)
    state = opt.state_dict()["state"][0]
    assert sorted(state) == ["grad_avg", "momentum_buffer", "square_avg", "step"]
    q = porta.nn.Parameter(p.detach().clone())
    resumed = porta.optim.RMSprop([q], **options)
    resumed.load_state_dict(opt.state_dict())
    for o, t in ((opt, p), (resumed, q)):
        t.grad = porta.tensor(GRADS[0], dtype=porta.float64)
        o.step()
    assert q.tolist() == p.tolist()
    assert sorted(porta.optim.Adam([p], amsgrad=True).state_dict()["param_groups"][0]) == \
        ["amsgrad", "betas", "capturable", "decoupled_weight_decay", "differentiable", "eps", "foreach", "fused", "lr",
         "maximize", "params", "weight_decay"]  # PyTorch's keys


def test_bad_options_are_refused():
    p = porta.nn.Parameter(porta.ones(2))
    with pytest.raises(ValueError, match="Invalid alpha value"):
        porta.optim.RMSprop([p], alpha=-1)
    with pytest.raises(ValueError, match="Invalid lr_decay value"):
        porta.optim.Adagrad([p], lr_decay=-0.1)
    with pytest.raises(NotImplementedError, match="RMSprop: capturable=True"):
        porta.optim.RMSprop([p], capturable=True)
    with pytest.raises(NotImplementedError, match="Adagrad: differentiable=True"):
        porta.optim.Adagrad([p], differentiable=True)


@pytest.mark.parametrize("make", [lambda ps, **k: porta.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.1, **k),
                                  lambda ps, **k: porta.optim.Adam(ps, lr=0.1, weight_decay=0.1, **k),
                                  lambda ps, **k: porta.optim.AdamW(ps, lr=0.1, amsgrad=True, **k),
                                  lambda ps, **k: porta.optim.RMSprop(ps, lr=0.1, weight_decay=0.1, **k),
                                  lambda ps, **k: porta.optim.Adagrad(ps, lr=0.1, weight_decay=0.1, **k)])
def test_maximize_steps_with_the_negated_gradient(make):
    # PyTorch's maximize=: ascent, the gradient negated before weight decay; so maximizing f is minimizing -f
    up, down = nn.Parameter(porta.tensor([1.0, -2.0])), nn.Parameter(porta.tensor([1.0, -2.0]))
    ascend, descend = make([up], maximize=True), make([down])
    for _ in range(3):
        (up * porta.tensor([3.0, 0.5])).sum().backward()
        (down * porta.tensor([-3.0, -0.5])).sum().backward()
        ascend.step(), descend.step()
        ascend.zero_grad(), descend.zero_grad()
    assert up.tolist() == down.tolist() and up.tolist() != [1.0, -2.0]
    assert ascend.param_groups[0]["maximize"] is True
