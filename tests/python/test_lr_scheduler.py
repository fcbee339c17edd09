"""porta.optim.lr_scheduler: each schedule against its closed form, against torch's schedulers when torch is
importable (the same floats), state_dict round trips, ReduceLROnPlateau, and what Porta refuses."""
import math
import warnings
from bisect import bisect_right

import pytest

import porta
from porta import nn
from porta.optim import lr_scheduler as L

LRS = (0.1, 0.05)  # two param groups, so per-group handling is exercised


def _porta_opt(lrs=LRS, cls=porta.optim.SGD, **kw):
    return cls([{"params": [nn.Parameter(porta.zeros(1))], "lr": lr} for lr in lrs], lr=lrs[0], **kw)


def _torch_opt(torch, lrs=LRS):
    return torch.optim.SGD([{"params": [torch.zeros(1, requires_grad=True)], "lr": lr} for lr in lrs], lr=lrs[0])


def _lrs(opt, make, steps):
    """The lrs of every group after construction and after each of `steps` steps."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the step order is PyTorch's: no warning
        s = make(opt)
        out = [list(s.get_last_lr())]
        for _ in range(steps):
            opt.step()
            s.step()
            out.append(list(s.get_last_lr()))
    assert out[-1] == [g["lr"] for g in opt.param_groups]
    return out


def _one_cycle(t, n, top, pct=0.3, div=25.0, final=1e4, cos=True, three=False):
    lo = top / div
    phases = ([(pct * n - 1, lo, top), (2 * pct * n - 2, top, lo), (n - 1, lo, lo / final)] if three else
              [(pct * n - 1, lo, top), (n - 1, top, lo / final)])
    start = 0.0
    for i, (end, a, b) in enumerate(phases):
        if t <= end or i == len(phases) - 1:
            x = (t - start) / (end - start)
            return b + (a - b) / 2 * (math.cos(math.pi * x) + 1) if cos else a + (b - a) * x
        start = end


# name: (constructor over a lr_scheduler module, closed form lr(initial_lr, epoch), steps)
CASES = {
    "StepLR": (lambda M, o: M.StepLR(o, step_size=3, gamma=0.5), lambda b, t: b * 0.5 ** (t // 3), 10),
    "MultiStepLR": (lambda M, o: M.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1),
                    lambda b, t: b * 0.1 ** bisect_right([2, 5, 5], t), 8),
    "ExponentialLR": (lambda M, o: M.ExponentialLR(o, gamma=0.9), lambda b, t: b * 0.9 ** t, 6),
    "CosineAnnealingLR": (lambda M, o: M.CosineAnnealingLR(o, T_max=5, eta_min=0.01),
                          lambda b, t: 0.01 + (b - 0.01) * (1 + math.cos(math.pi * t / 5)) / 2, 17),
    "LambdaLR": (lambda M, o: M.LambdaLR(o, lambda e: 1 / (e + 1)), lambda b, t: b / (t + 1), 5),
    "MultiplicativeLR": (lambda M, o: M.MultiplicativeLR(o, lambda e: 0.95), lambda b, t: b * 0.95 ** t, 5),
    "LinearLR": (lambda M, o: M.LinearLR(o, start_factor=0.25, end_factor=0.75, total_iters=4),
                 lambda b, t: b * (0.25 + 0.5 * min(t, 4) / 4), 7),
    "ConstantLR": (lambda M, o: M.ConstantLR(o, factor=0.5, total_iters=3), lambda b, t: b * (0.5 if t < 3 else 1), 5),
    # b is initial_lr = max_lr / div_factor
    "OneCycleLR-cos": (lambda M, o: M.OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=10, cycle_momentum=False),
                       lambda b, t: _one_cycle(t, 10, b * 25.0), 10),
    "OneCycleLR-linear-3": (lambda M, o: M.OneCycleLR(o, max_lr=1.0, epochs=2, steps_per_epoch=6, pct_start=0.25,
                                                      anneal_strategy="linear", three_phase=True, div_factor=10.0,
                                                      final_div_factor=100.0, cycle_momentum=False),
                            lambda b, t: _one_cycle(t, 12, b * 10.0, 0.25, 10.0, 100.0, cos=False, three=True), 12),
    "SequentialLR": (lambda M, o: M.SequentialLR(o, [M.ConstantLR(o, factor=0.1, total_iters=2),
                                                     M.ExponentialLR(o, gamma=0.9)], milestones=[3]),
                     lambda b, t: b * 0.1 if t < 2 else b if t < 3 else b * 0.9 ** (t - 3), 6),
    "ChainedScheduler": (lambda M, o: M.ChainedScheduler([M.ConstantLR(o, factor=0.1, total_iters=2),
                                                          M.ExponentialLR(o, gamma=0.9)]),
                         lambda b, t: b * 0.9 ** t * (0.1 if t < 2 else 1), 5),
}


@pytest.mark.parametrize("name", CASES)
def test_schedule_matches_its_closed_form(name):
    make, closed, steps = CASES[name]
    opt = _porta_opt()
    got = _lrs(opt, lambda o: make(L, o), steps)
    bases = [g["initial_lr"] for g in opt.param_groups]
    for t, lrs in enumerate(got):
        assert lrs == pytest.approx([closed(b, t) for b in bases], rel=1e-12, abs=1e-15), f"epoch {t}"


@pytest.mark.parametrize("name", CASES)
def test_schedule_is_torchs_to_the_last_bit(name):
    torch = pytest.importorskip("torch", reason="compares with torch.optim.lr_scheduler; torch is not installed")
    make, _, steps = CASES[name]
    mine = _lrs(_porta_opt(), lambda o: make(L, o), steps)
    theirs = _lrs(_torch_opt(torch), lambda o: make(torch.optim.lr_scheduler, o), steps)
    assert mine == theirs


def test_optimizer_uses_the_scheduled_lr():
    p = nn.Parameter(porta.tensor([1.0]))
    opt = porta.optim.SGD([p], lr=1.0)
    s = L.StepLR(opt, step_size=1, gamma=0.5)
    for _ in range(3):  # lr 1, 0.5, 0.25 with gradient 1
        opt.zero_grad()
        p.sum().backward()
        opt.step()
        s.step()
    assert p.item() == pytest.approx(1.0 - 1.75)


def test_a_change_to_the_groups_lr_carries_on_in_recursive_schedules():
    opt = _porta_opt()
    s = L.ExponentialLR(opt, gamma=0.5)
    opt.param_groups[0]["lr"] = 1.0
    opt.step()
    s.step()
    assert s.get_last_lr() == [0.5, 0.025]
    assert s.base_lrs == list(LRS) and [g["initial_lr"] for g in opt.param_groups] == list(LRS)


class _Halving:  # a callable object: its __dict__ is saved, as PyTorch saves it
    def __init__(self):
        self.factor = 0.5

    def __call__(self, epoch):
        return self.factor ** epoch


def _checkpoint_round_trip(make, steps=3, more=4):
    opt = _porta_opt()
    s = make(opt)
    for _ in range(steps):
        opt.step()
        s.step()
    opt_state, state = opt.state_dict(), s.state_dict()
    opt2 = _porta_opt()
    s2 = make(opt2)  # PyTorch's order: the scheduler first, then the optimizer's state (it carries initial_lr)
    opt2.load_state_dict(opt_state)
    s2.load_state_dict(state)
    assert s2.last_epoch == s.last_epoch and s2.get_last_lr() == s.get_last_lr()
    for _ in range(more):
        opt.step(), opt2.step()
        s.step(), s2.step()
        assert s2.get_last_lr() == s.get_last_lr()
    return s, s2


def test_state_dict_round_trip():
    s, s2 = _checkpoint_round_trip(lambda o: L.CosineAnnealingLR(o, T_max=4, eta_min=0.001))
    assert "optimizer" not in s.state_dict() and s.state_dict()["base_lrs"] == list(LRS)
    _checkpoint_round_trip(lambda o: L.SequentialLR(o, [L.LinearLR(o, 0.5, total_iters=2), L.StepLR(o, 2)], [2]))
    _checkpoint_round_trip(lambda o: L.OneCycleLR(o, max_lr=1.0, total_steps=9, cycle_momentum=False))

    opt = _porta_opt()
    fn = _Halving()
    s = L.LambdaLR(opt, [fn, lambda e: 1.0])
    state = s.state_dict()
    assert state["lr_lambdas"] == [{"factor": 0.5}, None]
    fn2 = _Halving()
    fn2.factor = 0.1
    s2 = L.LambdaLR(_porta_opt(), [fn2, lambda e: 1.0])
    s2.load_state_dict(state)
    assert fn2.factor == 0.5


def test_reduce_lr_on_plateau():
    opt = _porta_opt(lrs=(0.1,))
    s = L.ReduceLROnPlateau(opt, factor=0.5, patience=1, threshold=0.1, cooldown=1, min_lr=0.03)
    metrics = [1.0, 0.95, 0.99, 0.98, 0.97, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6]
    # 0.95 and 0.99 are not 10% better than 1.0: the second bad epoch (> patience) halves lr, then a
    # cooldown epoch; 0.5 is a new best; then 0.05 -> max(0.025, min_lr) and nothing below min_lr.
    expected = [0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.05, 0.03, 0.03, 0.03, 0.03]
    got = []
    for m in metrics:
        s.step(porta.tensor(m) if m == 0.5 else m)  # a one-element tensor works too
        got.append(s.get_last_lr()[0])
    assert got == pytest.approx(expected, rel=1e-15)
    assert s.best == 0.5 and s.last_epoch == len(metrics)

    s = L.ReduceLROnPlateau(_porta_opt(lrs=(1.0,)), mode="max", threshold_mode="abs", threshold=0.5, patience=0)
    for m in (1.0, 1.4, 2.0):  # 1.4 is not 0.5 better than 1.0: reduced at once (patience 0)
        s.step(m)
    assert s.get_last_lr() == [pytest.approx(0.1)] and s.best == 2.0
    state = s.state_dict()
    s2 = L.ReduceLROnPlateau(_porta_opt(lrs=(1.0,)))
    s2.load_state_dict(state)
    assert (s2.mode, s2.threshold_mode, s2.best, s2.mode_worse) == ("max", "abs", 2.0, -math.inf)


def test_reduce_lr_on_plateau_is_torchs():
    torch = pytest.importorskip("torch", reason="compares with torch's ReduceLROnPlateau; torch is not installed")
    metrics = [5.0, 4.0, 4.0, 3.99, 4.5, 4.0, 4.0, 2.0, 2.0, 2.1, 2.0, 2.0, 2.0]
    kw = dict(mode="min", factor=0.3, patience=1, threshold=0.01, cooldown=2, min_lr=[0.001, 0.02], eps=1e-4)
    s, t = L.ReduceLROnPlateau(_porta_opt(), **kw), torch.optim.lr_scheduler.ReduceLROnPlateau(_torch_opt(torch), **kw)
    for m in metrics:
        s.step(m)
        t.step(m)
        assert s.get_last_lr() == t.get_last_lr()


def test_refused_and_invalid_arguments():
    with pytest.raises(NotImplementedError, match=r"cycle_momentum=True.*pass cycle_momentum=False"):
        L.OneCycleLR(_porta_opt(), max_lr=1.0, total_steps=10)  # PyTorch's default cycles SGD's momentum
    opt = _porta_opt(cls=porta.optim.Adam)
    with pytest.raises(NotImplementedError, match=r"OneCycleLR: cycle_momentum=True .*Adam"):
        L.OneCycleLR(opt, max_lr=1.0, total_steps=10)
    assert "initial_lr" not in opt.param_groups[0] and "max_lr" not in opt.param_groups[0]
    with pytest.raises(NotImplementedError, match=r"StepLR: verbose=True"):
        L.StepLR(_porta_opt(), 2, verbose=True)
    with pytest.raises(NotImplementedError, match=r"ReduceLROnPlateau: verbose=True"):
        L.ReduceLROnPlateau(_porta_opt(), verbose=True)
    L.StepLR(_porta_opt(), 2, verbose=False)  # PyTorch's deprecated default and False print nothing: accepted

    opt = _porta_opt()
    s = L.OneCycleLR(opt, max_lr=1.0, total_steps=2, cycle_momentum=False)
    opt.step()
    s.step(), s.step()
    with pytest.raises(ValueError, match="Tried to step 3 times"):
        s.step()
    with pytest.raises(ValueError, match="pct_start"):
        L.OneCycleLR(_porta_opt(), max_lr=1.0, total_steps=2, pct_start=1.5, cycle_momentum=False)
    with pytest.raises(ValueError, match="total_steps OR"):
        L.OneCycleLR(_porta_opt(), max_lr=1.0, cycle_momentum=False)
    with pytest.raises(KeyError, match="initial_lr"):
        L.StepLR(_porta_opt(), 2, last_epoch=3)
    with pytest.raises(TypeError, match="is not an Optimizer"):
        L.StepLR(object(), 2)
    opt = _porta_opt()
    with pytest.raises(ValueError, match="ReduceLROnPlateau"):
        L.ChainedScheduler([L.ReduceLROnPlateau(opt)])
    with pytest.raises(ValueError, match="same optimizer"):
        L.SequentialLR(opt, [L.StepLR(opt, 2), L.StepLR(_porta_opt(), 2)], milestones=[2])


def test_warnings_as_pytorchs():
    opt = _porta_opt()
    s = L.StepLR(opt, 2)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`|before optimizer.step\\(\\)"):
        s.step()
    with pytest.warns(UserWarning, match="get_last_lr"):
        s.get_lr()
    with pytest.warns(UserWarning, match="deprecated"):
        s.step(4)  # the closed form at epoch 4
    assert s.get_last_lr() == [pytest.approx(lr * 0.01) for lr in LRS]
