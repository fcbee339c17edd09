"""porta.optim: SGD, Adam, AdamW against their PyTorch formulas (in NumPy)."""
import copy

import numpy as np
import pytest

import porta
import porta.nn as nn


def _param(device, values):
    return nn.Parameter(porta.tensor(values, device=device))


def test_sgd_momentum_weight_decay(device):
    p = _param(device, [1.0, -2.0])
    opt = porta.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.01)
    w, buf = np.array([1.0, -2.0]), None
    for _ in range(3):
        opt.zero_grad()
        (p * p).sum().backward()
        opt.step()
        d = 2 * w + 0.01 * w
        buf = d if buf is None else 0.9 * buf + d
        w = w - 0.1 * buf
    np.testing.assert_allclose(p.numpy(force=True), w, rtol=1e-5)


@pytest.mark.parametrize("cls", ["Adam", "AdamW"])
def test_adam(device, cls):
    p = _param(device, [0.5, -1.5, 2.0])
    opt = getattr(porta.optim, cls)([p], lr=0.01, betas=(0.9, 0.99), weight_decay=0.1)
    w, m, v = np.array([0.5, -1.5, 2.0]), 0, 0
    for step in range(1, 4):
        opt.zero_grad()
        (p * p * p).sum().backward()
        opt.step()
        g = 3 * w ** 2
        if cls == "Adam":
            g = g + 0.1 * w
        else:
            w = w * (1 - 0.01 * 0.1)
        m = 0.9 * m + 0.1 * g
        v = 0.99 * v + 0.01 * g * g
        w = w - 0.01 / (1 - 0.9 ** step) * m / (np.sqrt(v) / np.sqrt(1 - 0.99 ** step) + 1e-8)
    np.testing.assert_allclose(p.numpy(force=True), w, rtol=1e-5)


def test_param_groups_lr_and_zero_grad():
    a, b = _param("cpu", [1.0]), _param("cpu", [1.0])
    opt = porta.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    (a + b).sum().backward()
    opt.step()
    assert a.item() == pytest.approx(0.9) and b.item() == pytest.approx(0.5)
    opt.param_groups[0]["lr"] = 1.0
    opt.step()
    assert a.item() == pytest.approx(-0.1)
    opt.zero_grad()
    assert a.grad is None and b.grad is None
    opt.param_groups[0]["momentum"] = 0.9
    with pytest.raises(porta.InvalidArgumentError, match="only 'lr'"):
        opt.step()


def test_optimizer_has_no_to():
    opt = porta.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.01)
    with pytest.raises(AttributeError, match="no attribute 'to': an optimizer has no device"):
        opt.to("cpu")
    assert not hasattr(opt, "to")


def test_optimizer_argument_errors():
    with pytest.raises(ValueError, match="empty parameter list"):
        porta.optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match="non-leaf"):
        porta.optim.SGD([porta.ones(1, requires_grad=True) * 2], lr=0.1)
    with pytest.raises(ValueError, match="learning rate"):
        porta.optim.Adam(nn.Linear(1, 1).parameters(), lr=-1)


def test_training_reduces_loss(device):
    porta.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
    x, y = porta.randn(32, 4, device=device), porta.randn(32, 1, device=device)
    opt = porta.optim.Adam(model.parameters(), lr=0.05)
    losses = []
    for _ in range(30):
        loss = nn.MSELoss()(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.7 * losses[0]


def test_duplicate_parameters_are_refused():
    lin = nn.Linear(2, 2)
    with pytest.raises(porta.InvalidArgumentError, match="parameter 1 is parameter 0 again"):
        porta.optim.SGD([lin.weight, lin.weight], lr=0.1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        porta.optim.SGD([{"params": [lin.weight]}, {"params": [lin.weight, lin.bias]}], lr=0.1)
    tied = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(tied.parameters())) == 2


@pytest.mark.parametrize("make", [lambda p: porta.optim.Adam([p], lr=0.1), lambda p: porta.optim.AdamW([p], lr=0.1),
                                  lambda p: porta.optim.SGD([p], lr=0.1, momentum=0.9)])
def test_state_dict_holds_the_state_and_load_state_dict_restores_it(make):
    def loss(p):
        return (p * p * porta.tensor([1.0, 2.0, 3.0])).sum()
    w = porta.nn.Parameter(porta.tensor([1.0, -2.0, 3.0]))
    opt = make(w)
    for _ in range(3):
        opt.zero_grad()
        loss(w).backward()
        opt.step()
    sd = opt.state_dict()
    assert set(sd["state"]) == {0} and sd["param_groups"][0]["params"] == [0]
    entry = sd["state"][0]
    assert set(entry) in ({"exp_avg", "exp_avg_sq", "step"}, {"momentum_buffer"})
    if "step" in entry:
        assert entry["step"].item() == 3.0
    # A new model and optimizer restored from the checkpoint take the same next step.
    w2 = porta.nn.Parameter(w.detach().clone())
    opt2 = make(w2)
    opt2.load_state_dict(copy.deepcopy(sd))
    for o, p in ((opt, w), (opt2, w2)):
        o.zero_grad()
        loss(p).backward()
        o.step()
    assert w2.tolist() == w.tolist()


def test_adam_state_values_match_pytorch():
    # torch 2.15: Adam(lr=0.1) on sum(w^2 * [1, 2, 3]) from [1, -2, 3], three steps.
    w = porta.nn.Parameter(porta.tensor([1.0, -2.0, 3.0]))
    opt = porta.optim.Adam([w], lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        (w * w * porta.tensor([1.0, 2.0, 3.0])).sum().backward()
        opt.step()
    s = opt.state_dict()["state"][0]
    assert s["exp_avg"].tolist() == pytest.approx([0.4840825, -2.0520666, 4.7040620], rel=1e-5)
    assert s["exp_avg_sq"].tolist() == pytest.approx([0.0097914, 0.1734239, 0.9080704], rel=1e-5)


def test_load_state_dict_refuses_what_it_cannot_restore():
    w = porta.nn.Parameter(porta.ones(2))
    sd = porta.optim.Adam([w], lr=0.1, eps=1e-6).state_dict()
    with pytest.raises(porta.InvalidArgumentError, match="eps=1e-06 but this optimizer 1e-08"):
        porta.optim.Adam([w], lr=0.1).load_state_dict(sd)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        porta.optim.Adam([w]).load_state_dict({"state": {}, "param_groups": []})
    opt = porta.optim.Adam([w], lr=0.1, eps=1e-6)
    opt.load_state_dict(sd | {"param_groups": [sd["param_groups"][0] | {"lr": 0.5}]})
    assert opt.param_groups[0]["lr"] == 0.5


def test_assigning_data_shares_storage():
    p = porta.nn.Parameter(porta.ones(2))
    q = porta.zeros(3)
    p.data = q.data
    q.add_(1)
    assert p.tolist() == [1, 1, 1] and p.shape == (3,) and p.requires_grad and p.is_leaf
    w = porta.nn.Parameter(porta.ones(2))
    opt = porta.optim.SGD([w], lr=0.1)
    w.data = w.data - 0.5  # the tutorials' manual update: a new tensor, shared
    (w * 2).sum().backward()
    opt.step()
    assert w.tolist() == pytest.approx([0.3, 0.3])
