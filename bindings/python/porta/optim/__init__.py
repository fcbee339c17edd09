"""porta.optim: SGD, Adam and AdamW over Porta's fused optimizer kernels; RMSprop, Adagrad and amsgrad
composed from elementwise ops in the core.

Each parameter group becomes one porta_optimizer. Its state lives on each
parameter's device and follows the parameter when it moves, so an optimizer
has no .to(). Changing group["lr"] takes effect at the next step().
"""
from ctypes import byref, c_int32, c_int64, c_void_p

from .._errors import InvalidArgumentError, check
from .._factories import full, tensor
from .._lib import AdagradOptions, AdamOptions, RmspropOptions, SgdOptions, fn, sized
from .._tensor import Tensor, wrap
from ..autograd import enable_grad, no_grad

_release = fn.porta_optimizer_release


class Optimizer:
    """Base class: param_groups, step(), zero_grad()."""

    def __init__(self, params, defaults):
        self.defaults = dict(defaults)
        groups = list(params) if not isinstance(params, Tensor) else None
        if groups is None:
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got a Tensor")
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        self.param_groups = []
        self._handles = []
        self._created = []
        for g in groups:
            self.add_param_group(g)
        self.state = {}

    def add_param_group(self, param_group):
        """Adds a group {'params': [...], 'lr': ...} (missing options from the defaults)."""
        group = dict(param_group)
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        taken = {q._h.value for g in self.param_groups for q in g["params"]}
        if any(p._h.value in taken for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        group["params"] = params
        for k, v in self.defaults.items():
            group.setdefault(k, v)
        for k, supported in self._FIXED.items():  # options PyTorch honours per group that Porta's kernels lack
            if k in group and bool(group[k]) != supported:
                raise NotImplementedError(f"{type(self).__name__}: {k}={group[k]!r} is not supported by Porta "
                                          f"(in a parameter group); leave it out or set it to {supported}")
        handle = c_void_p()
        handles = (c_void_p * len(params))(*[p._h.value for p in params])
        check(self._create(handles, len(params), group, byref(handle)), type(self).__name__)
        if group.get("maximize"):  # ascent: every step takes the negated gradient (porta_optimizer_set_maximize)
            check(fn.porta_optimizer_set_maximize(handle, 1))
        self.param_groups.append(group)
        self._handles.append(handle)
        self._created.append({k: v for k, v in group.items() if k != "params"})

    def _create(self, handles, n, group, out):
        raise NotImplementedError

    def _sync(self):
        """Applies lr changes made through param_groups; other options are fixed at creation."""
        for group, created, handle in zip(self.param_groups, self._created, self._handles):
            for k, v in created.items():
                if group.get(k) == v:
                    continue
                if k != "lr":
                    raise InvalidArgumentError(f"{type(self).__name__}: only 'lr' can change after creation "
                                               f"(param_groups[...]['{k}'] changed); create a new optimizer")
                check(fn.porta_optimizer_set_lr(handle, float(group["lr"])))
                created["lr"] = group["lr"]

    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns closure()'s loss if given."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        self._sync()
        for handle in self._handles:
            check(fn.porta_optimizer_step(handle))
        return loss

    def set_master_weights(self, enabled=True):
        """Float32 master weights for float16/bfloat16 parameters (a Porta extension; off by default, as
        PyTorch): each steps a float32 copy with float32 state and takes its rounding, so that updates
        below the parameter's precision accumulate. Returns self."""
        for handle in self._handles:
            check(fn.porta_optimizer_set_master_weights(handle, int(bool(enabled))))
        self._master_weights = bool(enabled)
        return self

    def zero_grad(self, set_to_none=True):
        """Clears every parameter's gradient (or zeroes it in place when set_to_none=False)."""
        if set_to_none:
            for handle in self._handles:
                check(fn.porta_optimizer_zero_grad(handle))
            return
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    g = p.grad
                    if g is not None:
                        g.zero_()

    @property
    def to(self):
        raise AttributeError(
            f"'{type(self).__name__}' object has no attribute 'to': an optimizer has no device. Its state is "
            "created on each parameter's device at the first step and follows the parameter when it moves, "
            "so move the model (model.to(device)) and drop the optimizer's .to(...)")

    # Options PyTorch reads from each parameter group that Porta supports at one value only.
    _FIXED = {"differentiable": False}

    @staticmethod
    def _choices(foreach, **flags):
        """The options PyTorch keeps in every group that choose an implementation (foreach, fused, ...: Porta
        gives the same numbers whichever is chosen) or a behaviour Porta has at one value (maximize, ...)."""
        if foreach and flags.get("fused"):
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        return dict(foreach=foreach, **flags)

    # Names of the state tensors per parameter, in the C API's slot order, and whether
    # PyTorch's state_dict carries a "step" (Adam's bias correction needs it; SGD's does not).
    _STATE_NAMES = ()
    _HAS_STEP = False

    def _state_names(self, group, handle):
        n = c_int32()
        check(fn.porta_optimizer_state_slots(handle, byref(n)))
        return self._STATE_NAMES[:n.value]

    def state_dict(self):
        """PyTorch's layout: {"state": {index: {"step", "exp_avg", "exp_avg_sq"} or {"momentum_buffer"}},
        "param_groups": [options and "params": indices]}, parameters numbered across groups. The state
        tensors are copies; parameters without a step yet have no entry."""
        state, groups, index = {}, [], 0
        for group, handle in zip(self.param_groups, self._handles):
            names = self._state_names(group, handle)
            ids = []
            for i in range(len(group["params"])):
                entry = {}
                for slot, name in enumerate(names):
                    out = c_void_p()
                    check(fn.porta_optimizer_get_state(handle, i, slot, byref(out)))
                    if out.value:
                        entry[name] = wrap(out)
                master = c_void_p()
                check(fn.porta_optimizer_get_master_weight(handle, i, byref(master)))
                if master.value:  # a Porta extension: the float32 copy a float16/bfloat16 parameter steps
                    entry[self._MASTER] = wrap(master)
                steps = c_int64()
                check(fn.porta_optimizer_get_step(handle, i, byref(steps)))
                if self._HAS_STEP and steps.value:  # on the parameter's device when fused or capturable, as PyTorch's
                    on = group["params"][i].device if group.get("fused") or group.get("capturable") else None
                    entry["step"] = tensor(float(steps.value), device=on)
                if not entry:
                    entry = self._initial_state(group, group["params"][i])
                if entry:
                    state[index] = entry
                ids.append(index)
                index += 1
            groups.append({k: v for k, v in group.items() if k != "params"} | {"params": ids})
        return {"state": state, "param_groups": groups}

    # The state key of a parameter's float32 master weight (set_master_weights; PyTorch has none).
    _MASTER = "master_weight"

    def _initial_state(self, group, param):
        """The state PyTorch's optimizer gives a parameter before its first step: none here (Adagrad's has one)."""
        return {}

    def load_state_dict(self, state_dict):
        """Restores what state_dict() saved: each group's options (only "lr" may differ from this
        optimizer's: Porta fixes the others at creation) and every parameter's state and step count."""
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for saved, group in zip(saved_groups, self.param_groups):
            if len(saved["params"]) != len(group["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                 "optimizer's group")
            for k, v in saved.items():
                if k in ("params", "lr"):
                    continue
                if k not in self.defaults:  # not an option of the kernels: a scheduler's (initial_lr, ...)
                    continue
                if k not in group or (tuple(group[k]) if isinstance(group[k], (list, tuple)) else group[k]) != \
                        (tuple(v) if isinstance(v, (list, tuple)) else v):
                    raise InvalidArgumentError(
                        f"load_state_dict: the saved group has {k}={v!r} but this optimizer {group.get(k)!r}; Porta "
                        "fixes every option but lr at creation: create the optimizer with the saved options")
        saved_state = state_dict.get("state", {})
        if not getattr(self, "_master_weights", False) and any(
                self._MASTER in entry for entry in saved_state.values()):
            raise InvalidArgumentError("load_state_dict: the saved state has float32 master weights but this "
                                       "optimizer has master weights off; call set_master_weights() before "
                                       "load_state_dict() (nothing was loaded)")
        for saved, group, handle in zip(saved_groups, self.param_groups, self._handles):
            group["lr"] = saved.get("lr", group["lr"])
            group.update({k: v for k, v in saved.items() if k not in self.defaults and k not in ("params", "lr")})
            names = self._state_names(group, handle)
            for i, index in enumerate(saved["params"]):
                entry = saved_state.get(index, {})
                unknown = set(entry) - set(names) - {"step", self._MASTER}
                if unknown:
                    raise InvalidArgumentError(f"load_state_dict: parameter {index} has state {sorted(unknown)} "
                                               f"this {type(self).__name__} does not keep")
                for slot, name in enumerate(names):
                    if entry.get(name) is not None:
                        check(fn.porta_optimizer_set_state(handle, i, slot, entry[name]._h))
                if entry.get(self._MASTER) is not None:
                    check(fn.porta_optimizer_set_master_weight(handle, i, entry[self._MASTER]._h),
                          "load_state_dict(): the saved state has float32 master weights")
                step = entry.get("step", 0)
                check(fn.porta_optimizer_set_step(handle, i, int(step.item() if isinstance(step, Tensor) else step)))
        self._sync()

    def __del__(self, _release=_release):
        for handle in self.__dict__.get("_handles", ()):
            _release(handle)
        self.__dict__["_handles"] = []

    def __repr__(self):
        lines = [f"{type(self).__name__} ("]
        for i, g in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            lines += [f"    {k}: {v}" for k, v in sorted(g.items()) if k != "params"]
        return "\n".join(lines) + "\n)"


class SGD(Optimizer):
    """torch.optim.SGD: momentum, dampening, Nesterov and weight decay. foreach= and fused= are accepted
    (implementation choices with the same numbers: Porta always runs its fused kernel); differentiable=True is
    refused."""

    _STATE_NAMES = ("momentum_buffer",)

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        if differentiable:
            raise NotImplementedError("SGD: differentiable=True is not supported by Porta (its steps are not "
                                      "recorded by autograd)")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, **self._choices(foreach, fused=fused, maximize=maximize,
                                                                         differentiable=differentiable)))

    def _create(self, handles, n, g, out):
        o = sized(SgdOptions, lr=g["lr"], momentum=g["momentum"], dampening=g["dampening"],
                  weight_decay=g["weight_decay"], nesterov=1 if g["nesterov"] else 0)
        return fn.porta_sgd_create(handles, n, byref(o), out)


class Adam(Optimizer):
    """torch.optim.Adam (L2 weight decay added to the gradient), with amsgrad. foreach=, capturable= and
    fused= are accepted (the same numbers: Porta always runs its fused kernel, or without one for amsgrad
    its composed update); differentiable=True is refused."""

    _decoupled = False
    _FIXED = dict(Optimizer._FIXED, decoupled_weight_decay=False)
    _STATE_NAMES = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")
    _HAS_STEP = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        if lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= betas[0] < 1.0 or not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameters: {betas}")
        if differentiable:
            raise NotImplementedError(f"{type(self).__name__}: differentiable=True is not supported by Porta (its "
                                      "steps are not recorded by autograd)")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=bool(amsgrad),
                                      **self._choices(foreach, fused=fused, maximize=maximize, capturable=capturable,
                                                      differentiable=differentiable,
                                                      decoupled_weight_decay=self._decoupled)))
        if capturable and any(p.device.type == "cpu" for g in self.param_groups for p in g["params"]):
            raise AssertionError("If capturable=True, params and state_steps must be on supported devices (an "
                                 "accelerator, as PyTorch's CUDA graphs); leave capturable out on the cpu")

    def _create(self, handles, n, g, out):
        o = sized(AdamOptions, lr=g["lr"], beta1=g["betas"][0], beta2=g["betas"][1], eps=g["eps"],
                  weight_decay=g["weight_decay"], amsgrad=1 if g["amsgrad"] else 0)
        create = fn.porta_adamw_create if self._decoupled else fn.porta_adam_create
        return create(handles, n, byref(o), out)


class AdamW(Adam):
    """torch.optim.AdamW (decoupled weight decay, default 1e-2)."""

    _decoupled = True
    _FIXED = dict(Adam._FIXED, decoupled_weight_decay=True)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, **kwargs):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, **kwargs)


class RMSprop(Optimizer):
    """torch.optim.RMSprop: alpha, eps, weight decay, momentum and centered, composed from elementwise ops
    on each parameter's device. foreach= is accepted; capturable=True and differentiable=True are refused."""

    _HAS_STEP = True

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        for name, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                            ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not value >= 0.0:
                raise ValueError(f"Invalid {name}: {value}")
        for name, value in (("capturable", capturable), ("differentiable", differentiable)):
            if value:
                raise NotImplementedError(f"RMSprop: {name}=True is not supported by Porta")
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                                      centered=bool(centered),
                                      **self._choices(foreach, maximize=maximize, capturable=capturable,
                                                      differentiable=differentiable)))

    def _state_names(self, group, handle):
        return ("square_avg",) + (("momentum_buffer",) if group["momentum"] > 0 else ()) + \
            (("grad_avg",) if group["centered"] else ())

    def _create(self, handles, n, g, out):
        o = sized(RmspropOptions, lr=g["lr"], alpha=g["alpha"], eps=g["eps"], weight_decay=g["weight_decay"],
                  momentum=g["momentum"], centered=1 if g["centered"] else 0)
        return fn.porta_rmsprop_create(handles, n, byref(o), out)


class Adagrad(Optimizer):
    """torch.optim.Adagrad: lr_decay, weight decay, initial_accumulator_value and eps, composed from
    elementwise ops on each parameter's device. foreach= and fused= are accepted; differentiable=True is
    refused. As PyTorch's, every parameter has a state from the start: state_dict() before its first step
    gives step 0 and the initial sum."""

    _STATE_NAMES = ("sum",)
    _HAS_STEP = True

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay), ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value),
                            ("epsilon value", eps)):
            if not value >= 0.0:
                raise ValueError(f"Invalid {name}: {value}")
        if differentiable:
            raise NotImplementedError("Adagrad: differentiable=True is not supported by Porta")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, eps=eps,
                                      **self._choices(foreach, fused=fused, maximize=maximize,
                                                      differentiable=differentiable)))

    # The state key of a parameter's float32 master weight (set_master_weights; PyTorch has none).
    _MASTER = "master_weight"

    def _initial_state(self, group, param):
        return {"sum": full(tuple(param.shape), float(group["initial_accumulator_value"]), dtype=param.dtype,
                            device=param.device),
                "step": tensor(0.0, device=param.device if group.get("fused") else None)}  # as PyTorch's

    def _create(self, handles, n, g, out):
        o = sized(AdagradOptions, lr=g["lr"], lr_decay=g["lr_decay"], weight_decay=g["weight_decay"],
                  initial_accumulator_value=g["initial_accumulator_value"], eps=g["eps"])
        return fn.porta_adagrad_create(handles, n, byref(o), out)


from . import lr_scheduler  # noqa: E402 - last: it imports Optimizer from here
