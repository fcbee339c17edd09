"""porta.optim.lr_scheduler: torch.optim.lr_scheduler's schedulers, with PyTorch's formulas in PyTorch's
order of operations (the recursive forms where PyTorch steps recursively), so the learning rates are the
same floats. A scheduler writes each param_groups[i]["lr"]; the optimizer applies it at its next step().

What differs, and why:
- Porta's optimizers fix every option but lr at creation, so OneCycleLR's cycle_momentum=True (PyTorch's
  default) is refused: pass cycle_momentum=False.
- verbose= (deprecated by PyTorch, then removed) is accepted as "deprecated" or False; verbose=True is refused.
- step(epoch) is deprecated as in PyTorch: it warns and uses the closed form where the scheduler has one.
- CyclicLR, CosineAnnealingWarmRestarts and PolynomialLR are not here yet.
"""
import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from functools import wraps

from . import Optimizer

__all__ = ["LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
           "ExponentialLR", "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau",
           "OneCycleLR"]

_EPOCH_DEPRECATED = ("scheduler.step(epoch) is deprecated (as in PyTorch): call scheduler.step() once per epoch; "
                     "with an epoch the closed form is used where the scheduler has one")


def _refuse_verbose(name, verbose):
    if verbose not in ("deprecated", False):
        raise NotImplementedError(f"{name}: verbose={verbose!r} is not supported by Porta (PyTorch deprecated and "
                                  "then removed it); print scheduler.get_last_lr() after step() instead")


def _per_group(name, optimizer, value):
    """One value per param group: a list of that length, or one value for all."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups: {name} has {len(value)} "
                             f"values, param_groups has {len(optimizer.param_groups)}")
        return list(value)
    return [value] * len(optimizer.param_groups)


def _group_lrs(optimizer):
    return [group["lr"] for group in optimizer.param_groups]


def _track_optimizer_steps(optimizer):
    """Wraps optimizer.step so the scheduler can warn when it is stepped before the optimizer (as PyTorch)."""
    if getattr(optimizer.step, "_wrapped_by_lr_sched", False):
        return
    step, ref = optimizer.step.__func__, weakref.ref(optimizer)  # weak: no cycle through the instance attribute

    @wraps(step)
    def wrapper(*args, **kwargs):
        opt = ref()
        opt._opt_called = True
        return step(opt, *args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


class LRScheduler:
    """Base class: last_epoch, base_lrs (each group's "initial_lr", set on the group when last_epoch=-1),
    step(), get_last_lr(), state_dict() / load_state_dict(). Subclasses implement get_lr()."""

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1, verbose="deprecated"):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        _refuse_verbose(type(self).__name__, verbose)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming a "
                                   f"scheduler with last_epoch={last_epoch}: create the scheduler with last_epoch=-1, "
                                   "or load the optimizer's state_dict (which carries initial_lr) first")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _track_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self):
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self):
        """The learning rates for last_epoch (called by step(); read get_last_lr() instead)."""
        raise NotImplementedError

    def get_last_lr(self):
        """The learning rates the last step() set, one per param group."""
        return self._last_lr

    def _warn_if_outside_step(self):
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)

    def step(self, epoch=None):
        """Advances one epoch (call it after optimizer.step()) and writes each group's lr."""
        if self._step_count == 1:
            if not getattr(self.optimizer.step, "_wrapped_by_lr_sched", False):
                warnings.warn("optimizer.step() was replaced after the learning rate scheduler was created: call "
                              "optimizer.step() before lr_scheduler.step()", UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn("lr_scheduler.step() was called before optimizer.step(): since PyTorch 1.1.0 call "
                              "optimizer.step() first, or the first value of the schedule is skipped",
                              UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_EPOCH_DEPRECATED, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = _group_lrs(self.optimizer)

    def state_dict(self):
        """Every attribute but the optimizer (as PyTorch's)."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict):
        """Restores what state_dict() returned."""
        self.__dict__.update(state_dict)


class _LRScheduler(LRScheduler):
    """PyTorch's old name for LRScheduler."""


class _LambdaState:
    """state_dict / load_state_dict for schedulers holding lr_lambdas: a lambda is not saved, a callable
    object's __dict__ is (as PyTorch)."""

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(f, types.FunctionType) else f.__dict__.copy()
                               for f in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        saved = state.pop("lr_lambdas")
        self.__dict__.update(state)
        for f, d in zip(self.lr_lambdas, saved):
            if d is not None:
                f.__dict__.update(d)


def _lambdas(optimizer, lr_lambda):
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


class LambdaLR(_LambdaState, LRScheduler):
    """lr = initial_lr * lr_lambda(epoch), one lambda or one per group."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose="deprecated"):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        return [base_lr * f(self.last_epoch) for f, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    """lr *= lr_lambda(epoch) at every step after the first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1, verbose="deprecated"):
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for f in self.lr_lambdas:
            if not callable(f):
                raise TypeError(f"lr_lambda should be a function, but got {type(f).__name__}")
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self._is_initial:
            return _group_lrs(self.optimizer)
        return [g["lr"] * f(self.last_epoch) for f, g in zip(self.lr_lambdas, self.optimizer.param_groups)]


class StepLR(LRScheduler):
    """lr *= gamma every step_size epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1, verbose="deprecated"):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _group_lrs(self.optimizer)
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr *= gamma at each milestone (twice at a milestone listed twice)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1, verbose="deprecated"):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch not in self.milestones:
            return _group_lrs(self.optimizer)
        return [g["lr"] * self.gamma ** self.milestones[self.last_epoch] for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """lr * factor until total_iters, then lr."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1, verbose="deprecated"):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [g["lr"] * self.factor for g in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _group_lrs(self.optimizer)
        return [g["lr"] * (1.0 / self.factor) for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        done = self.last_epoch >= self.total_iters
        return [base_lr * (self.factor + done * (1 - self.factor)) for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """lr * a factor going linearly from start_factor to end_factor over total_iters epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1,
                 verbose="deprecated"):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [g["lr"] * self.start_factor for g in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _group_lrs(self.optimizer)
        delta = self.end_factor - self.start_factor
        ratio = 1.0 + delta / (self.total_iters * self.start_factor + (self.last_epoch - 1) * delta)
        return [g["lr"] * ratio for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        delta = self.end_factor - self.start_factor
        return [base_lr * (self.start_factor + delta * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr *= gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1, verbose="deprecated"):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        if self._is_initial:
            return _group_lrs(self.optimizer)
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from initial_lr to eta_min over T_max epochs, in PyTorch's recursive form (each lr
    from the previous one, so a change made to group["lr"] carries on, and the numbers are PyTorch's)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1, verbose="deprecated"):  # noqa: N803
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch, verbose)

    def get_lr(self):
        self._warn_if_outside_step()
        t, T, lo = self.last_epoch, self.T_max, self.eta_min
        groups = self.optimizer.param_groups
        if self._is_initial:
            return _group_lrs(self.optimizer)
        if self._step_count == 1 and t > 0:  # resumed at last_epoch > 0: the closed form once
            return [lo + (base_lr - lo) * (1 + math.cos(t * math.pi / T)) / 2 for base_lr in self.base_lrs]
        if (t - 1 - T) % (2 * T) == 0:  # past the minimum: climbing back by the cosine's first step
            return [g["lr"] + (base_lr - lo) * (1 - math.cos(math.pi / T)) / 2
                    for base_lr, g in zip(self.base_lrs, groups)]
        ratio = (1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
        return [ratio * (g["lr"] - lo) + lo for g in groups]

    def _get_closed_form_lr(self):
        lo = self.eta_min
        return [lo + (base_lr - lo) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


def _check_children(owner, optimizer, schedulers):
    for i, s in enumerate(schedulers):
        if not hasattr(s, "optimizer"):
            raise TypeError(f"{owner} at index {i} should have `optimizer` as its attribute.")
        if isinstance(s, ReduceLROnPlateau):
            raise ValueError(f"{owner} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                             f"kwargs to be specified when calling `step`, but got one at index {i} in the given "
                             "schedulers sequence.")
        if s.optimizer is not optimizer:
            raise ValueError(f"{owner} expects all schedulers to belong to the same optimizer, but got scheduler "
                             f"{type(s).__name__} at index {i} that has another optimizer")


class _ChildrenState:
    """state_dict / load_state_dict that nest the children's."""

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        children = state.pop("_schedulers")
        self.__dict__.update(state)
        for s, d in zip(self._schedulers, children):
            s.load_state_dict(d)


class SequentialLR(_ChildrenState, LRScheduler):
    """schedulers[i] runs from milestones[i - 1] on; at each milestone the next one starts at its epoch 0."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1, verbose="deprecated"):
        name = type(self).__name__
        _refuse_verbose(name, verbose)
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        _check_children(name, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be one more than the "
                             f"number of milestone points, but got number of schedulers {len(schedulers)} and the "
                             f"number of milestones to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # undo what the schedulers' first steps did
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched=None):
        """Takes back the first step of every scheduler inside (nested ones included)."""
        s = self if sched is None else sched
        if hasattr(s, "_schedulers"):
            for child in s._schedulers:
                self.recursive_undo(child)
        elif hasattr(s, "last_epoch"):
            s.last_epoch -= 1

    def step(self):
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        s = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            s._update_lr(0)
        else:
            s.step()
        self._last_lr = s.get_last_lr()


class ChainedScheduler(_ChildrenState, LRScheduler):
    """Steps every scheduler in order at each step()."""

    def __init__(self, schedulers, optimizer=None):
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler to be chained, but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_children(name, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _group_lrs(schedulers[-1].optimizer)

    def step(self):
        for s in self._schedulers:
            s.step()
        self._last_lr = _group_lrs(self._schedulers[-1].optimizer)


class ReduceLROnPlateau(LRScheduler):
    """lr = max(lr * factor, min_lr) when the metric given to step(metrics) has not improved (by threshold,
    relative or absolute) for more than patience epochs; then waits cooldown epochs. Changes below eps are
    skipped."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8, verbose="deprecated"):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        _refuse_verbose(type(self).__name__, verbose)
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _group_lrs(optimizer)
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def step(self, metrics, epoch=None):  # noqa: D417 - PyTorch's signature
        """Records this epoch's metric (a number or a one-element tensor) and reduces lr on a plateau."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(_EPOCH_DEPRECATED, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _group_lrs(self.optimizer)

    def _reduce_lr(self):
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(f"ReduceLROnPlateau: the optimizer has {len(groups)} param groups but min_lrs "
                                   f"{len(self.min_lrs)} (a group was added after the scheduler was made); set "
                                   "scheduler.min_lrs to one value per group")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old = float(group["lr"])
            new = max(old * self.factor, min_lr)
            if old - new > self.eps:
                group["lr"] = new

    def _is_better(self, a, best):
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min":
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in ("min", "max"):
            raise ValueError(f"mode {mode} is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"threshold mode {threshold_mode} is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


class OneCycleLR(LRScheduler):
    """The 1cycle policy: lr from max_lr / div_factor up to max_lr over pct_start of total_steps, then down to
    initial_lr / final_div_factor (three_phase: back to initial_lr first), by cosine or linear annealing.
    cycle_momentum=True (PyTorch's default) is refused: Porta's optimizers cannot change momentum or betas
    after creation, so pass cycle_momentum=False."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3,
                 anneal_strategy="cos", cycle_momentum=True, base_momentum=0.85, max_momentum=0.95, div_factor=25.0,
                 final_div_factor=1e4, three_phase=False, last_epoch=-1, verbose="deprecated"):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        _refuse_verbose(type(self).__name__, verbose)
        self.optimizer = optimizer
        if total_steps is not None:
            if not isinstance(total_steps, int) or total_steps <= 0:
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        n = self.total_steps
        if three_phase:
            self._schedule_phases = [
                dict(end_step=float(pct_start * n) - 1, start_lr="initial_lr", end_lr="max_lr"),
                dict(end_step=float(2 * pct_start * n) - 2, start_lr="max_lr", end_lr="initial_lr"),
                dict(end_step=n - 1, start_lr="initial_lr", end_lr="min_lr"),
            ]
        else:
            self._schedule_phases = [
                dict(end_step=float(pct_start * n) - 1, start_lr="initial_lr", end_lr="max_lr"),
                dict(end_step=n - 1, start_lr="max_lr", end_lr="min_lr"),
            ]
        if not isinstance(pct_start, float) or pct_start < 0 or pct_start > 1:
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
            raise NotImplementedError(
                f"OneCycleLR: cycle_momentum=True (PyTorch's default) is not supported by Porta: "
                f"{type(optimizer).__name__}'s momentum/betas are fixed when it is created; pass "
                "cycle_momentum=False (the learning rate still follows the one-cycle schedule)")
        if last_epoch == -1:
            for group, top in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        super().__init__(optimizer, last_epoch, verbose)

    @staticmethod
    def _annealing_cos(start, end, pct):
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _annealing_linear(start, end, pct):
        return (end - start) * pct + start

    def get_lr(self):
        self._warn_if_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps is "
                             f"{self.total_steps}")
        anneal = self._annealing_cos if self._anneal_func_type == "cos" else self._annealing_linear
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end = phase["end_step"]
                if step <= end or i == len(self._schedule_phases) - 1:
                    lrs.append(anneal(group[phase["start_lr"]], group[phase["end_lr"]], (step - start) / (end - start)))
                    break
                start = end
        return lrs
