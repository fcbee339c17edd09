"""porta.optim: SGD, Adam and AdamW over Porta's fused optimizer kernels.

Each parameter group becomes one porta_optimizer. Its state lives on each
parameter's device and follows the parameter when it moves, so an optimizer
has no .to(). Changing group["lr"] takes effect at the next step().
"""
from ctypes import byref, c_void_p

from ._errors import InvalidArgumentError, check
from ._lib import AdamOptions, SgdOptions, fn, sized
from ._tensor import Tensor
from .autograd import enable_grad, no_grad

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
        handle = c_void_p()
        handles = (c_void_p * len(params))(*[p._h.value for p in params])
        check(self._create(handles, len(params), group, byref(handle)), type(self).__name__)
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

    def state_dict(self):
        """The hyperparameters of each group (Porta keeps the moment buffers internally)."""
        return {"state": {}, "param_groups": [{k: v for k, v in g.items() if k != "params"} |
                                              {"params": list(range(len(g["params"])))}
                                              for g in self.param_groups]}

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
    """torch.optim.SGD: momentum, dampening, Nesterov and weight decay."""

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
        if maximize:
            raise NotImplementedError("SGD: maximize=True is not supported by Porta")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov))

    def _create(self, handles, n, g, out):
        o = sized(SgdOptions, lr=g["lr"], momentum=g["momentum"], dampening=g["dampening"],
                  weight_decay=g["weight_decay"], nesterov=1 if g["nesterov"] else 0)
        return fn.porta_sgd_create(handles, n, byref(o), out)


class Adam(Optimizer):
    """torch.optim.Adam (L2 weight decay added to the gradient)."""

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        if lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= betas[0] < 1.0 or not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameters: {betas}")
        if amsgrad or maximize:
            raise NotImplementedError(f"{type(self).__name__}: amsgrad and maximize are not supported by Porta")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay))

    def _create(self, handles, n, g, out):
        o = sized(AdamOptions, lr=g["lr"], beta1=g["betas"][0], beta2=g["betas"][1], eps=g["eps"],
                  weight_decay=g["weight_decay"])
        create = fn.porta_adamw_create if self._decoupled else fn.porta_adam_create
        return create(handles, n, byref(o), out)


class AdamW(Adam):
    """torch.optim.AdamW (decoupled weight decay, default 1e-2)."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, **kwargs):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, **kwargs)
