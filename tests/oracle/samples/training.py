"""Training: optimizers (several steps with seeded gradients, their state, parameter groups, the base class's
API), learning-rate schedulers (the lr sequence of 10 to 30 steps, and momentum/betas where they cycle), mixed
precision (autocast's output dtypes, GradScaler), autograd's grad modes and backward API, and gradient clipping.

Each case is a small program (Case.program): it makes seeded parameters and gradients the same way in both
libraries (programs.seeded), runs the steps, and returns what a training script would read back."""
from encoding import dtype_name
from spec import DTYPES, FLOATS, Case, D, T

from .programs import backward, seeded

# ---------------------------------------------------------------------------------------------- optimizers

# the state names any optimizer keeps, read from state_dict()["state"][i] (None where absent; "keys" lists them)
STATE_KEYS = ("step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq", "momentum_buffer", "sum", "square_avg", "grad_avg",
              "mu_product", "exp_inf", "acc_delta", "mu", "eta")
PLAIN_SHAPES = ((3, 4), (5,), ())
ZERO_SIZE_SHAPES = ((0, 3), (2,))
STEPS = 4


def _leaf(L, device, shape, dt, seed):
    return seeded(L, device, shape, dt, seed=seed).requires_grad_()


def _grad_for(L, device, p, dt, seed, kind="random"):
    return seeded(L, device, tuple(p.shape), dt, kind, seed=seed)


def _state(opt, n):
    """Each parameter's optimizer state by index: None when it has none, else its keys and every STATE_KEYS value."""
    st = opt.state_dict()["state"]
    out = []
    for i in range(n):
        if i not in st:
            out.append(None)
            continue
        entry = st[i]
        out.append({"keys": sorted(entry), **{k: entry.get(k) for k in STATE_KEYS}})
    return out


def _snapshot(params):
    return [p.detach().clone() for p in params]


def _optim_program(cls, scenario):
    """A program stepping optim.<cls>(..., **kwargs) STEPS times in one scenario, on parameters of dtype dt."""

    def program(L, device, dt, **kwargs):
        d = dtype_name(dt)
        make = getattr(L.optim, cls)
        history = []
        if scenario in ("plain", "sparse", "lr_change", "zero-size"):
            shapes = ZERO_SIZE_SHAPES if scenario == "zero-size" else PLAIN_SHAPES
            params = [_leaf(L, device, s, d, f"p{i}") for i, s in enumerate(shapes)]
            opt = make(params, **kwargs)
            for step in range(STEPS):
                for i, p in enumerate(params):
                    g = _grad_for(L, device, p, d, f"g{i}/{step}")
                    if scenario == "sparse":
                        mask = _grad_for(L, device, p, d, f"m{i}/{step}", "grid").abs() >= 1
                        g = g * mask
                        if i == 1 and step == 1:
                            g = L.zeros_like(g)
                    p.grad = g
                if scenario == "lr_change" and step == 2:
                    for group in opt.param_groups:
                        group["lr"] = group["lr"] * 0.25
                opt.step()
                history.append(_snapshot(params))
        elif scenario == "groups":
            params = [_leaf(L, device, s, d, f"p{i}") for i, s in enumerate(((3, 4), (5,), (2, 2)))]
            opt = make([{"params": [params[0]], "lr": 0.003}, {"params": [params[1], params[2]]}], **kwargs)
            for step in range(STEPS):
                for i, p in enumerate(params):
                    p.grad = _grad_for(L, device, p, d, f"g{i}/{step}")
                opt.step()
                history.append(_snapshot(params))
            history.append([g["lr"] for g in opt.param_groups])
        elif scenario == "none_grad":
            # p0 always has a gradient, p1 never, p2 only at the first two steps (then its grad is set to None)
            params = [_leaf(L, device, s, d, f"p{i}") for i, s in enumerate(((3, 4), (5,), (2, 2)))]
            opt = make(params, **kwargs)
            for step in range(STEPS):
                params[0].grad = _grad_for(L, device, params[0], d, f"g0/{step}")
                params[2].grad = _grad_for(L, device, params[2], d, f"g2/{step}") if step < 2 else None
                opt.step()
                history.append(_snapshot(params))
        elif scenario == "module":  # optimizer(model.parameters()): a two-layer model on a seeded batch
            model = L.nn.Sequential(L.nn.Linear(4, 5), L.nn.Tanh(), L.nn.Linear(5, 2)).to(device).to(dt)
            with L.no_grad():
                for pname, q in sorted(model.named_parameters()):
                    q.copy_(seeded(L, device, tuple(q.shape), d, seed=pname) * 0.5)
            x, y = seeded(L, device, (6, 4), d, seed="x"), seeded(L, device, (6, 2), d, seed="y")
            opt = make(model.parameters(), **kwargs)
            params = [q for _, q in sorted(model.named_parameters())]
            for _ in range(STEPS):
                opt.zero_grad()
                loss = L.nn.functional.mse_loss(model(x), y)
                loss.backward()
                opt.step()
                history.append(_snapshot(params) + [loss.detach()])
            return {"params": history, "state": _state(opt, len(params))}
        else:  # "loss", "closure": a seeded least-squares loss through autograd
            w, b = _leaf(L, device, (3, 4), d, "w"), _leaf(L, device, (3,), d, "b")
            x, y = seeded(L, device, (5, 4), d, seed="x"), seeded(L, device, (5, 3), d, seed="y")
            params = [w, b]
            opt = make(params, **kwargs)

            def closure():
                opt.zero_grad()
                loss = ((x @ w.t() + b - y) ** 2).mean()
                loss.backward()
                return loss

            for _ in range(STEPS):
                if scenario == "closure":
                    loss = opt.step(closure)
                else:
                    loss = closure()
                    opt.step()
                history.append(_snapshot(params) + [loss.detach()])
        return {"params": history, "state": _state(opt, len(params))}

    return program


def _construct(cls, params="list"):
    """Only makes the optimizer (for arguments PyTorch refuses): returns its number of param groups."""

    def program(L, device, **kwargs):
        p = _leaf(L, device, (3,), "float32", "p0")
        if params == "list":
            arg = [p]
        elif params == "tensor":
            arg = p
        elif params == "empty":
            arg = []
        elif params == "non-leaf":
            arg = [p * 2]
        elif params == "int":
            arg = [seeded(L, device, (3,), "int64", seed="i")]
        elif params == "no grad":
            arg = [seeded(L, device, (3,), "float32", seed="n")]
        elif params == "twice":
            arg = [{"params": [p]}, {"params": [p]}]
        else:  # "generator"
            arg = (q for q in [p])
        opt = getattr(L.optim, cls)(arg, **kwargs)
        return len(opt.param_groups)

    return program


SCENARIOS = ("plain", "groups", "none_grad", "sparse", "lr_change", "loss", "closure", "module")

OPTIMIZERS = {
    "SGD": [{"lr": 0.1}, {"lr": 0.1, "momentum": 0.9}, {"lr": 0.1, "momentum": 0.9, "dampening": 0.5},
            {"lr": 0.1, "momentum": 0.9, "nesterov": True}, {"lr": 0.1, "weight_decay": 0.01},
            {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1, "nesterov": True}, {"lr": 0.1, "maximize": True},
            {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1, "maximize": True}, {}],
    "Adam": [{}, {"lr": 0.01}, {"lr": 0.01, "betas": (0.8, 0.99)}, {"lr": 0.01, "betas": (0.0, 0.5)},
             {"lr": 0.01, "eps": 1e-3}, {"lr": 0.01, "weight_decay": 0.1}, {"lr": 0.01, "amsgrad": True},
             {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}, {"lr": 0.01, "maximize": True},
             {"lr": 0.01, "amsgrad": True, "maximize": True}],
    "AdamW": [{}, {"lr": 0.01}, {"lr": 0.01, "weight_decay": 0}, {"lr": 0.01, "weight_decay": 0.5},
              {"lr": 0.01, "betas": (0.5, 0.9), "eps": 1e-4}, {"lr": 0.01, "amsgrad": True},
              {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}, {"lr": 0.01, "maximize": True}],
    "Adagrad": [{}, {"lr": 0.1}, {"lr": 0.1, "lr_decay": 0.1}, {"lr": 0.1, "initial_accumulator_value": 0.5},
                {"lr": 0.1, "weight_decay": 0.1}, {"lr": 0.1, "eps": 1e-3}, {"lr": 0.1, "maximize": True},
                {"lr": 0.1, "lr_decay": 0.05, "initial_accumulator_value": 0.1, "weight_decay": 0.01}],
    "RMSprop": [{}, {"lr": 0.01, "alpha": 0.9}, {"lr": 0.01, "centered": True}, {"lr": 0.01, "momentum": 0.9},
                {"lr": 0.01, "momentum": 0.9, "centered": True}, {"lr": 0.01, "weight_decay": 0.1},
                {"lr": 0.01, "eps": 1e-3}, {"lr": 0.01, "maximize": True},
                {"lr": 0.01, "alpha": 0.5, "momentum": 0.5, "centered": True, "weight_decay": 0.01}],
}
# PyTorch's optimizers that Porta may lack: fewer variants, the same programs
OTHER_OPTIMIZERS = {
    "RAdam": [{}, {"lr": 0.01, "weight_decay": 0.1}, {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}],
    "NAdam": [{}, {"lr": 0.01, "momentum_decay": 0.01},
              {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}],
    "Adamax": [{}, {"lr": 0.01, "weight_decay": 0.1}, {"lr": 0.01, "betas": (0.5, 0.9)}],
    "Adadelta": [{}, {"lr": 1.0, "rho": 0.5}, {"lr": 1.0, "weight_decay": 0.1, "eps": 1e-3}],
}
# arguments PyTorch refuses (or accepts) at construction
INVALID = {
    "SGD": [{"lr": -0.1}, {"lr": 0.1, "momentum": -0.5}, {"lr": 0.1, "weight_decay": -0.1},
            {"lr": 0.1, "nesterov": True}, {"lr": 0.1, "momentum": 0.9, "dampening": 0.5, "nesterov": True},
            {"lr": 0.1, "fused": True, "foreach": True}],
    "Adam": [{"lr": -0.1}, {"betas": (1.0, 0.9)}, {"betas": (0.9, 1.0)}, {"betas": (-0.1, 0.9)}, {"eps": -1.0},
             {"weight_decay": -0.1}, {"fused": True, "foreach": True}, {"lr": 0.01, "decoupled_weight_decay": True},
             {"differentiable": True, "fused": True}],
    "AdamW": [{"lr": -0.1}, {"betas": (1.0, 0.9)}, {"eps": -1.0}, {"weight_decay": -0.1},
              {"fused": True, "foreach": True}],
    "Adagrad": [{"lr": -0.1}, {"lr_decay": -0.1}, {"weight_decay": -0.1}, {"initial_accumulator_value": -0.1},
                {"eps": -1.0}, {"fused": True, "foreach": True}],
    "RMSprop": [{"lr": -0.1}, {"alpha": -0.1}, {"eps": -1.0}, {"momentum": -0.1}, {"weight_decay": -0.1}],
}
# keywords that choose an implementation (the same numbers expected, or PyTorch's refusal)
IMPLEMENTATION = {
    "SGD": {"lr": 0.1, "momentum": 0.9},
    "Adam": {"lr": 0.01},
    "AdamW": {"lr": 0.01},
    "Adagrad": {"lr": 0.1},
    "RMSprop": {"lr": 0.01, "momentum": 0.5},
}


def optimizer_cases():
    for cls, variants in OPTIMIZERS.items():
        for kw in variants:
            for scenario in SCENARIOS:
                for d in ("float32", "float64"):
                    yield Case(f"optim.{cls}", (D(d),), dict(kw), program=_optim_program(cls, scenario), tag=scenario)
            for d in ("float16", "bfloat16"):
                yield Case(f"optim.{cls}", (D(d),), dict(kw), program=_optim_program(cls, "plain"), tag="plain")
            yield Case(f"optim.{cls}", (D("float32"),), dict(kw), program=_optim_program(cls, "zero-size"),
                       tag="zero-size")
        base = IMPLEMENTATION[cls]
        for fused in (None, True, False):
            for foreach in (None, True, False):
                if fused is None and foreach is None:
                    continue
                kw = dict(base, fused=fused, foreach=foreach) if cls != "RMSprop" else dict(base, foreach=foreach)
                if cls == "RMSprop" and fused is not None:
                    continue
                for d in ("float32", "float64", "float16"):
                    yield Case(f"optim.{cls}", (D(d),), kw, program=_optim_program(cls, "plain"), tag="plain")
                yield Case(f"optim.{cls}", (D("float32"),), kw, program=_optim_program(cls, "none_grad"),
                           tag="none_grad")
        if cls in ("Adam", "AdamW"):
            for kw in ({"lr": 0.01, "amsgrad": True, "fused": True}, {"lr": 0.01, "capturable": True},
                       {"lr": 0.01, "differentiable": False, "foreach": False}):
                # capturable: PyTorch's CPU answer (refused) is not its accelerators' (accepted)
                yield Case(f"optim.{cls}", (D("float32"),), kw, program=_optim_program(cls, "plain"), tag="plain",
                           cpu_only="capturable" in kw)
        for kw in INVALID[cls]:
            yield Case(f"optim.{cls}", (), kw, program=_construct(cls), tag="construct")
        for params in ("tensor", "empty", "non-leaf", "int", "no grad", "twice", "generator"):
            yield Case(f"optim.{cls}", (), dict(base), program=_construct(cls, params), tag=f"params {params}")
    for cls, variants in OTHER_OPTIMIZERS.items():
        for kw in variants:
            for scenario in ("plain", "groups", "none_grad", "loss"):
                for d in ("float32", "float64"):
                    yield Case(f"optim.{cls}", (D(d),), dict(kw), program=_optim_program(cls, scenario), tag=scenario)


# the base class's API, read the way scripts read it
def _sgd_pair(L, device, d="float32", **kw):
    params = [_leaf(L, device, (3, 4), d, "p0"), _leaf(L, device, (5,), d, "p1")]
    return params, L.optim.SGD(params, **(kw or {"lr": 0.1, "momentum": 0.9}))


def _step_all(L, device, params, opt, d, seed):
    for i, p in enumerate(params):
        p.grad = _grad_for(L, device, p, d, f"g{i}/{seed}")
    opt.step()


def _base_param_groups(L, device, cls, **kw):
    params = [_leaf(L, device, (3, 4), "float32", "p0"), _leaf(L, device, (5,), "float32", "p1")]
    opt = getattr(L.optim, cls)(params, **kw)
    group = opt.param_groups[0]
    return {"n": len(opt.param_groups), "options": {k: v for k, v in group.items() if k != "params"},
            "same params": [a is b for a, b in zip(group["params"], params)]}


def _base_defaults(L, device, cls, **kw):
    params = [_leaf(L, device, (3,), "float32", "p0")]
    return dict(getattr(L.optim, cls)(params, **kw).defaults)


def _base_state_dict(L, device, cls, **kw):
    params = [_leaf(L, device, (3, 4), "float32", "p0"), _leaf(L, device, (5,), "float32", "p1"),
              _leaf(L, device, (2,), "float32", "p2")]
    opt = getattr(L.optim, cls)([{"params": params[:2]}, {"params": params[2:], "lr": 0.5}], **kw)
    before = opt.state_dict()
    params[0].grad = _grad_for(L, device, params[0], "float32", "g0")
    params[2].grad = _grad_for(L, device, params[2], "float32", "g2")
    opt.step()
    after = opt.state_dict()
    return {"keys": sorted(after), "groups": [sorted(g) for g in after["param_groups"]],
            "params": [g["params"] for g in after["param_groups"]], "state ids": sorted(after["state"]),
            "state keys": [sorted(after["state"][i]) for i in sorted(after["state"])],
            "state before": sorted(before["state"]), "lr": [g["lr"] for g in after["param_groups"]]}


def _base_zero_grad(L, device, **kw):
    params, opt = _sgd_pair(L, device)
    params[0].grad = seeded(L, device, (3, 4), seed="g")
    grad_object = params[0].grad
    opt.zero_grad(**kw)
    return {"grads": [p.grad for p in params], "same object": params[0].grad is grad_object}


def _base_add_param_group(L, device, **group_kw):
    params, opt = _sgd_pair(L, device)
    extra = _leaf(L, device, (2, 2), "float32", "extra")
    opt.add_param_group({"params": extra, **group_kw})
    for step in range(3):
        _step_all(L, device, params + [extra], opt, "float32", step)
    return {"groups": [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups],
            "params": _snapshot(params + [extra]), "state": _state(opt, 3)}


def _base_add_again(L, device):
    params, opt = _sgd_pair(L, device)
    opt.add_param_group({"params": [params[0]]})
    return len(opt.param_groups)


def _base_load_state_dict(L, device, cls, **kw):
    """A second optimizer loads the first's state_dict() after two steps and takes two more (the first stops)."""
    a = [_leaf(L, device, (3, 4), "float32", "p0"), _leaf(L, device, (5,), "float32", "p1")]
    b = [_leaf(L, device, (3, 4), "float32", "p0"), _leaf(L, device, (5,), "float32", "p1")]
    oa, ob = getattr(L.optim, cls)(a, **kw), getattr(L.optim, cls)(b, **kw)
    for step in range(2):
        _step_all(L, device, a, oa, "float32", step)
    with L.no_grad():
        for p, q in zip(a, b):
            q.copy_(p)
    ob.load_state_dict(oa.state_dict())
    for step in range(2, 4):
        _step_all(L, device, b, ob, "float32", step)
    return {"b": _snapshot(b), "state": _state(ob, 2)}


def _base_state_dict_live(L, device):
    """Whether the tensors state_dict() returns are the optimizer's own (PyTorch's are: writing them changes the
    next step)."""
    params, opt = _sgd_pair(L, device)
    _step_all(L, device, params, opt, "float32", 0)
    opt.state_dict()["state"][0]["momentum_buffer"].zero_()
    _step_all(L, device, params, opt, "float32", 1)
    return _snapshot(params)


def _base_state_attr(L, device):
    params, opt = _sgd_pair(L, device)
    _step_all(L, device, params, opt, "float32", 0)
    return {"n": len(opt.state), "keys": sorted(opt.state[params[0]]), "buf": opt.state[params[0]]["momentum_buffer"]}


def _base_subclass(L, device):
    class Momentum(L.optim.Optimizer):
        def __init__(self, params, lr=0.1, beta=0.5):
            super().__init__(params, {"lr": lr, "beta": beta})

        def step(self, closure=None):
            with L.no_grad():
                for group in self.param_groups:
                    for p in group["params"]:
                        if p.grad is None:
                            continue
                        state = self.state[p]
                        buf = state.get("buf")
                        buf = p.grad.clone() if buf is None else buf * group["beta"] + p.grad
                        state["buf"] = buf
                        p.add_(buf, alpha=-group["lr"])

    params = [_leaf(L, device, (3, 4), "float32", "p0"), _leaf(L, device, (5,), "float32", "p1")]
    opt = Momentum(params, lr=0.05)
    for step in range(3):
        _step_all(L, device, params, opt, "float32", step)
    return {"params": _snapshot(params), "groups": [sorted(g) for g in opt.param_groups],
            "state": sorted(opt.state_dict()["state"])}


def _base_from_numpy_params(L, device):
    """Parameters made by from_numpy (a 0-size one among them), as when loading saved weights."""
    import numpy as np
    arrays = [np.arange(12, dtype=np.float32).reshape(3, 4) / 8, np.zeros((0, 3), dtype=np.float32)]
    params = [L.from_numpy(a).to(device).requires_grad_() for a in arrays]
    opt = L.optim.SGD(params, lr=0.1, momentum=0.9)
    for step in range(2):
        _step_all(L, device, params, opt, "float32", step)
    return _snapshot(params)


def _base_step_returns(L, device):
    params, opt = _sgd_pair(L, device)
    no_closure = opt.step()
    with_closure = opt.step(lambda: L.ones(()) * 3)
    return [no_closure, with_closure]


def base_optimizer_cases():
    name = "optim.Optimizer"
    for cls, kw in (("SGD", {"lr": 0.1, "momentum": 0.9}), ("SGD", {}), ("Adam", {}),
                    ("Adam", {"lr": 0.01, "amsgrad": True}), ("AdamW", {}), ("Adagrad", {}), ("RMSprop", {}),
                    ("RMSprop", {"momentum": 0.9, "centered": True})):
        args = (cls,)
        yield Case(name, args, kw, program=_base_param_groups, tag="param_groups")
        yield Case(name, args, kw, program=_base_defaults, tag="defaults")
        yield Case(name, args, kw, program=_base_state_dict, tag="state_dict")
        yield Case(name, args, kw, program=_base_load_state_dict, tag="load_state_dict")
    for kw in ({}, {"set_to_none": True}, {"set_to_none": False}):
        yield Case(name, (), kw, program=_base_zero_grad, tag="zero_grad")
    for kw in ({}, {"lr": 0.5}, {"lr": 0.5, "momentum": 0.0}, {"momentum": 0.5, "nesterov": True}):
        yield Case(name, (), kw, program=_base_add_param_group, tag="add_param_group")
    yield Case(name, (), program=_base_add_again, tag="add_param_group twice")
    yield Case(name, (), program=_base_state_attr, tag="state")
    yield Case(name, (), program=_base_state_dict_live, tag="state_dict tensors are live")
    yield Case(name, (), program=_base_subclass, tag="subclass")
    yield Case(name, (), program=_base_step_returns, tag="step returns")
    yield Case(name, (), program=_base_from_numpy_params, tag="from_numpy parameters")



# ---------------------------------------------------------------------------------------------- schedulers

# lr_lambda functions by name (a case's kwargs name them, so that its id prints alike in every run)
LAMBDAS = {"0.95**e": lambda e: 0.95 ** e, "1/(e+1)": lambda e: 1.0 / (e + 1),
           "warmup5": lambda e: min(1.0, (e + 1) / 5), "0.9": lambda e: 0.9,
           "1.05 until 4": lambda e: 1.05 if e < 4 else 0.8, "0": lambda e: 0.0}


def _sched_optimizer(L, device, kind):
    p = _leaf(L, device, (2,), "float32", "s0")
    q = _leaf(L, device, (3,), "float32", "s1")
    if kind == "sgd":
        return L.optim.SGD([p], lr=0.1, momentum=0.9)
    if kind == "sgd2":
        return L.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.02, "momentum": 0.5}], lr=0.1, momentum=0.9)
    if kind == "adam":
        return L.optim.Adam([p], lr=0.01, betas=(0.9, 0.999))
    if kind == "adam2":
        return L.optim.Adam([{"params": [p]}, {"params": [q], "lr": 0.002, "betas": (0.8, 0.99)}], lr=0.01)
    if kind == "sgd0":  # no momentum
        return L.optim.SGD([p], lr=0.1)
    return L.optim.AdamW([p], lr=0.01)


def _momenta(opt):
    return [g["momentum"] if "momentum" in g else list(g["betas"]) if "betas" in g else None for g in opt.param_groups]


def _params_of(opt):
    return [p for g in opt.param_groups for p in g["params"]]


def _lambda_arg(v):
    return [LAMBDAS[i] for i in v] if isinstance(v, (list, tuple)) else LAMBDAS[v]


def _build_scheduler(L, opt, cls, kwargs):
    """lr_scheduler.<cls>(opt, **kwargs), with lr_lambda names resolved and child scheduler specs built."""
    S = L.optim.lr_scheduler
    kw = dict(kwargs)
    if "lr_lambda" in kw:
        kw["lr_lambda"] = _lambda_arg(kw["lr_lambda"])
    if "schedulers" in kw:
        kw["schedulers"] = [_build_scheduler(L, opt, c, k) for c, k in kw["schedulers"]]
    if cls == "ChainedScheduler":
        with_opt = kw.pop("with_optimizer", False)
        return S.ChainedScheduler(kw["schedulers"], opt) if with_opt else S.ChainedScheduler(kw["schedulers"])
    return getattr(S, cls)(opt, **kw)


def _sched_program(cls, kind, steps, epochs=None, momentum=False):
    """Steps the optimizer (seeded gradients) and the scheduler `steps` times; returns get_last_lr() and each group's
    lr after every step (and the momenta/betas when momentum), last_epoch and the parameters at the end."""

    def program(L, device, **kwargs):
        opt = _sched_optimizer(L, device, kind)
        sched = _build_scheduler(L, opt, cls, kwargs)
        params = _params_of(opt)
        last, lrs, moms = [list(sched.get_last_lr())], [[g["lr"] for g in opt.param_groups]], [_momenta(opt)]
        for step in range(steps):
            for i, p in enumerate(params):
                p.grad = _grad_for(L, device, p, "float32", f"g{i}/{step}")
            opt.step()
            if epochs is None:
                sched.step()
            else:
                sched.step(epochs[step])
            last.append(list(sched.get_last_lr()))
            lrs.append([g["lr"] for g in opt.param_groups])
            moms.append(_momenta(opt))
        out = {"last_lr": last, "lr": lrs, "last_epoch": getattr(sched, "last_epoch", None),
               "params": _snapshot(params)}
        if momentum:
            out["momentum"] = moms
        return out

    return program


def _sched_resume(cls, kind, first, then):
    """state_dict() after `first` steps, loaded into a new scheduler (and the optimizer's into a new optimizer),
    which runs `then` more steps: its lrs, and the saved state's keys."""

    def program(L, device, **kwargs):
        opt_a = _sched_optimizer(L, device, kind)
        a = _build_scheduler(L, opt_a, cls, kwargs)
        for _ in range(first):
            opt_a.step()
            a.step()
        saved, saved_opt = a.state_dict(), opt_a.state_dict()
        opt_b = _sched_optimizer(L, device, kind)
        b = _build_scheduler(L, opt_b, cls, kwargs)
        opt_b.load_state_dict(saved_opt)
        b.load_state_dict(saved)
        lrs = [list(b.get_last_lr())]
        for _ in range(then):
            opt_b.step()
            b.step()
            lrs.append(list(b.get_last_lr()))
        return {"lrs": lrs, "keys": sorted(k for k in saved)}

    return program


def _sched_resume_at(cls, kind):
    """A scheduler made with last_epoch=3 on an optimizer that has no initial_lr (PyTorch raises KeyError), and one
    made after another scheduler set initial_lr."""

    def program(L, device, fresh, **kwargs):
        opt = _sched_optimizer(L, device, kind)
        if not fresh:
            _build_scheduler(L, opt, cls, {k: v for k, v in kwargs.items() if k != "last_epoch"})
        sched = _build_scheduler(L, opt, cls, kwargs)
        lrs = [list(sched.get_last_lr())]
        for _ in range(5):
            opt.step()
            sched.step()
            lrs.append(list(sched.get_last_lr()))
        return lrs

    return program


METRICS = {"falling": (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05, 0.02),
           "plateau": (1.0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9),
           "tiny gains": (1.0, 0.99995, 0.9999, 0.99985, 0.9998, 0.99975, 0.9997, 0.99965, 0.9996, 0.99955, 0.9995,
                          0.99945),
           "noisy": (1.0, 1.2, 0.8, 0.85, 0.81, 0.9, 0.79, 0.8, 0.8, 0.78, 1.5, 0.7, 0.71, 0.7, 0.72, 0.69),
           "rising": (0.1, 0.2, 0.3, 0.3, 0.31, 0.3, 0.3, 0.3, 0.35, 0.35, 0.35, 0.35),
           "negative": (-1.0, -1.0001, -1.0, -0.5, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0001),
           "nan": (1.0, float("nan"), 0.9, float("nan"), float("nan"), float("nan"), 0.8, 0.8, 0.8, 0.8)}


def _plateau_program(kind, metrics, as_tensor=False):
    def program(L, device, **kwargs):
        opt = _sched_optimizer(L, device, kind)
        sched = L.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
        out = []
        for m in METRICS[metrics]:
            opt.step()
            sched.step(L.tensor(m) if as_tensor else m)
            out.append([list(sched.get_last_lr()), [g["lr"] for g in opt.param_groups], sched.num_bad_epochs,
                        sched.cooldown_counter, sched.best, sched.last_epoch])
        return out

    return program


def _subclass_program(variant, steps=12):
    """A scheduler defined in the program, as a subclass of LRScheduler."""

    def program(L, device, **kwargs):
        class Warmup(L.optim.lr_scheduler.LRScheduler):
            def __init__(self, optimizer, warmup=4, decay=0.8, last_epoch=-1):
                self.warmup, self.decay = warmup, decay
                super().__init__(optimizer, last_epoch)

            def get_lr(self):
                e = self.last_epoch
                if variant == "closed":
                    return [b * min(1.0, (e + 1) / self.warmup) * (self.decay ** max(0, e - self.warmup))
                            for b in self.base_lrs]
                # recursive: from each group's current lr
                if e == 0:
                    return [g["lr"] / self.warmup for g in self.optimizer.param_groups]
                if e < self.warmup:
                    return [b * (e + 1) / self.warmup for b in self.base_lrs]
                return [g["lr"] * self.decay for g in self.optimizer.param_groups]

        class NoGetLr(L.optim.lr_scheduler.LRScheduler):
            pass

        opt = _sched_optimizer(L, device, "sgd2")
        if variant == "no get_lr":
            sched = NoGetLr(opt)
        else:
            sched = Warmup(opt, **kwargs)
        lrs = [list(sched.get_last_lr())]
        for _ in range(steps):
            opt.step()
            sched.step()
            lrs.append(list(sched.get_last_lr()))
        return {"lrs": lrs, "last_epoch": sched.last_epoch, "base_lrs": list(sched.base_lrs),
                "initial_lr": [g["initial_lr"] for g in opt.param_groups], "step_count": sched._step_count}

    return program


def _onecycle_overrun(L, device, **kwargs):
    opt = _sched_optimizer(L, device, "sgd")
    sched = L.optim.lr_scheduler.OneCycleLR(opt, **kwargs)
    lrs = []
    for _ in range(kwargs["total_steps"] + 1):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    return lrs


SCHEDULERS = {
    "StepLR": [{"step_size": 3, "gamma": 0.5}, {"step_size": 1, "gamma": 0.9}, {"step_size": 4},
               {"step_size": 2, "gamma": 2.0}],
    "MultiStepLR": [{"milestones": [2, 5, 9], "gamma": 0.5}, {"milestones": [3, 3, 7]}, {"milestones": [9, 2]},
                    {"milestones": [0, 4], "gamma": 0.5}],
    "ConstantLR": [{}, {"factor": 0.5, "total_iters": 4}, {"factor": 0.0, "total_iters": 3},
                   {"factor": 1.0, "total_iters": 2}, {"factor": 0.25, "total_iters": 0}],
    "LinearLR": [{}, {"start_factor": 0.25, "end_factor": 1.0, "total_iters": 8},
                 {"start_factor": 1.0, "end_factor": 0.1, "total_iters": 5},
                 {"start_factor": 0.5, "end_factor": 0.0, "total_iters": 6}, {"total_iters": 1}],
    "ExponentialLR": [{"gamma": 0.9}, {"gamma": 1.1}, {"gamma": 0.5}, {"gamma": 1.0}],
    "CosineAnnealingLR": [{"T_max": 10}, {"T_max": 5, "eta_min": 0.001}, {"T_max": 1}, {"T_max": 7, "eta_min": 0.05},
                          {"T_max": 30, "eta_min": 1e-4}],
    "LambdaLR": [{"lr_lambda": "0.95**e"}, {"lr_lambda": "1/(e+1)"}, {"lr_lambda": "warmup5"}, {"lr_lambda": "0"}],
    "MultiplicativeLR": [{"lr_lambda": "0.9"}, {"lr_lambda": "1.05 until 4"}, {"lr_lambda": "0.95**e"}],
    "OneCycleLR": [{"max_lr": 0.5, "total_steps": 20, "cycle_momentum": False},
                   {"max_lr": 0.5, "total_steps": 20, "anneal_strategy": "linear", "cycle_momentum": False},
                   {"max_lr": 0.5, "total_steps": 20, "three_phase": True, "cycle_momentum": False},
                   {"max_lr": 0.5, "total_steps": 20, "three_phase": True, "anneal_strategy": "linear",
                    "cycle_momentum": False},
                   {"max_lr": 0.5, "epochs": 4, "steps_per_epoch": 5, "pct_start": 0.25, "cycle_momentum": False},
                   {"max_lr": 0.5, "total_steps": 20, "div_factor": 10.0, "final_div_factor": 100.0,
                    "cycle_momentum": False},
                   {"max_lr": 0.5, "total_steps": 20},
                   {"max_lr": 0.5, "total_steps": 20, "anneal_strategy": "linear"},
                   {"max_lr": 0.5, "total_steps": 20, "three_phase": True},
                   {"max_lr": 0.5, "total_steps": 20, "base_momentum": 0.7, "max_momentum": 0.99},
                   {"max_lr": 0.5, "total_steps": 20, "pct_start": 0.5, "three_phase": True, "base_momentum": 0.8}],
    "SequentialLR": [{"schedulers": (("LinearLR", {"start_factor": 0.1, "total_iters": 3}),
                                     ("ExponentialLR", {"gamma": 0.9})), "milestones": [3]},
                     {"schedulers": (("ConstantLR", {"factor": 0.5, "total_iters": 2}),
                                     ("StepLR", {"step_size": 2, "gamma": 0.5}),
                                     ("CosineAnnealingLR", {"T_max": 6})), "milestones": [2, 8]},
                     {"schedulers": (("LambdaLR", {"lr_lambda": "warmup5"}),
                                     ("CosineAnnealingLR", {"T_max": 10, "eta_min": 0.001})), "milestones": [5]},
                     {"schedulers": (("ExponentialLR", {"gamma": 0.5}),), "milestones": []}],
    "ChainedScheduler": [{"schedulers": (("ConstantLR", {"factor": 0.1, "total_iters": 2}),
                                         ("ExponentialLR", {"gamma": 0.9}))},
                         {"schedulers": (("LinearLR", {"start_factor": 0.2, "total_iters": 4}),
                                         ("StepLR", {"step_size": 3, "gamma": 0.5})), "with_optimizer": True},
                         {"schedulers": (("CosineAnnealingLR", {"T_max": 8}),
                                         ("MultiplicativeLR", {"lr_lambda": "0.9"}))}],
}
# PyTorch's schedulers that Porta may lack
OTHER_SCHEDULERS = {
    "CyclicLR": [{"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 4},
                 {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3, "mode": "triangular2"},
                 {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3, "step_size_down": 5, "mode": "exp_range",
                  "gamma": 0.9},
                 {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 4, "cycle_momentum": False},
                 {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 4, "base_momentum": 0.5, "max_momentum": 0.95}],
    "CosineAnnealingWarmRestarts": [{"T_0": 5}, {"T_0": 3, "T_mult": 2}, {"T_0": 4, "T_mult": 1, "eta_min": 0.01},
                                    {"T_0": 2, "T_mult": 3, "eta_min": 0.001}],
    "PolynomialLR": [{}, {"total_iters": 8, "power": 1.0}, {"total_iters": 6, "power": 2.0},
                     {"total_iters": 10, "power": 0.5}],
}
INVALID_SCHEDULERS = {
    "ConstantLR": [{"factor": 1.5}, {"factor": -0.1}],
    "LinearLR": [{"start_factor": 0.0}, {"start_factor": 1.5}, {"end_factor": -0.1}, {"end_factor": 1.5}],
    "OneCycleLR": [{"max_lr": 0.5}, {"max_lr": 0.5, "total_steps": 0}, {"max_lr": 0.5, "total_steps": 20,
                                                                        "pct_start": 1.5, "cycle_momentum": False},
                   {"max_lr": 0.5, "total_steps": 20, "anneal_strategy": "exp", "cycle_momentum": False},
                   {"max_lr": [0.5, 0.2], "total_steps": 20, "cycle_momentum": False},
                   {"max_lr": 0.5, "epochs": 2, "cycle_momentum": False}],
    "ReduceLROnPlateau": [{"factor": 1.0}, {"mode": "median"}, {"threshold_mode": "ratio"}, {"min_lr": [0.1, 0.2]}],
    "MultiplicativeLR": [{"lr_lambda": ["0.9", "0.9"]}],
    "LambdaLR": [{"lr_lambda": ["0.9", "0.9"]}],
    "SequentialLR": [{"schedulers": (("StepLR", {"step_size": 2}), ("ExponentialLR", {"gamma": 0.9})),
                      "milestones": [3, 5]},
                     {"schedulers": (), "milestones": []}],
    "ChainedScheduler": [{"schedulers": ()}],
}
# scheduler, kind of optimizer, kwargs: state_dict() and load_state_dict() round trips
RESUME = [("StepLR", "sgd", {"step_size": 3, "gamma": 0.5}), ("MultiStepLR", "sgd", {"milestones": [2, 6]}),
          ("CosineAnnealingLR", "sgd2", {"T_max": 8, "eta_min": 0.01}), ("LambdaLR", "sgd", {"lr_lambda": "0.95**e"}),
          ("LinearLR", "adam", {"start_factor": 0.2, "total_iters": 6}), ("ExponentialLR", "sgd2", {"gamma": 0.8}),
          ("OneCycleLR", "sgd", {"max_lr": 0.5, "total_steps": 20, "cycle_momentum": False}),
          ("OneCycleLR", "sgd", {"max_lr": 0.5, "total_steps": 20}),
          ("SequentialLR", "sgd", SCHEDULERS["SequentialLR"][0]), ("ChainedScheduler", "sgd", SCHEDULERS[
              "ChainedScheduler"][0]), ("ConstantLR", "sgd", {"factor": 0.5, "total_iters": 4})]


def scheduler_cases():
    for cls, variants in list(SCHEDULERS.items()) + list(OTHER_SCHEDULERS.items()):
        cycles = cls in ("OneCycleLR", "CyclicLR")
        for kw in variants:
            kinds = ("sgd", "sgd2", "adam", "adam2") if cycles else ("sgd", "sgd2", "adam")
            for kind in kinds:
                steps = kw.get("total_steps", 20) - 1 if cls == "OneCycleLR" and "total_steps" in kw else \
                    19 if cls == "OneCycleLR" else 25
                yield Case(f"lr_scheduler.{cls}", (), dict(kw), program=_sched_program(cls, kind, steps,
                                                                                      momentum=cycles),
                           tag=f"{kind} x{steps}")
    for cls in ("OneCycleLR", "CyclicLR"):
        yield Case(f"lr_scheduler.{cls}", (), dict(OTHER_SCHEDULERS["CyclicLR"][0] if cls == "CyclicLR" else
                                                   SCHEDULERS["OneCycleLR"][6]),
                   program=_sched_program(cls, "sgd0", 15, momentum=True), tag="sgd0 x15")
    yield Case("lr_scheduler.OneCycleLR", (), {"max_lr": [0.5, 0.1], "total_steps": 12, "cycle_momentum": False},
               program=_sched_program("OneCycleLR", "sgd2", 11), tag="sgd2 x11")
    yield Case("lr_scheduler.OneCycleLR", (), {"max_lr": [0.5, 0.1], "total_steps": 12, "base_momentum": [0.8, 0.4],
                                               "max_momentum": [0.9, 0.6]},
               program=_sched_program("OneCycleLR", "sgd2", 11, momentum=True), tag="sgd2 x11")
    for kw in ({"max_lr": 0.5, "total_steps": 10, "cycle_momentum": False}, {"max_lr": 0.5, "total_steps": 10}):
        yield Case("lr_scheduler.OneCycleLR", (), kw, program=_onecycle_overrun, tag="stepped past total_steps")
    yield Case("lr_scheduler.CyclicLR", (), {"base_lr": [0.01, 0.001], "max_lr": [0.1, 0.05], "step_size_up": 3},
               program=_sched_program("CyclicLR", "sgd2", 15, momentum=True), tag="sgd2 x15")
    # step(epoch): deprecated, with the closed form where there is one
    for cls, kw in (("StepLR", {"step_size": 3, "gamma": 0.5}), ("MultiStepLR", {"milestones": [2, 5]}),
                    ("ExponentialLR", {"gamma": 0.9}), ("CosineAnnealingLR", {"T_max": 10}),
                    ("LinearLR", {"start_factor": 0.25, "total_iters": 4}), ("ConstantLR", {"factor": 0.5}),
                    ("LambdaLR", {"lr_lambda": "0.95**e"}), ("PolynomialLR", {"total_iters": 6})):
        yield Case(f"lr_scheduler.{cls}", (), kw, program=_sched_program(cls, "sgd", 6, epochs=(1, 3, 7, 2, 2, 12)),
                   tag="step(epoch)")
    for cls, kind, kw in RESUME:
        yield Case(f"lr_scheduler.{cls}", (), kw, program=_sched_resume(cls, kind, 5, 6), tag=f"{kind} resumed")
    for cls, kw in (("StepLR", {"step_size": 2, "last_epoch": 3}), ("ExponentialLR", {"gamma": 0.9, "last_epoch": 3}),
                    ("CosineAnnealingLR", {"T_max": 10, "last_epoch": 3})):
        for fresh in (True, False):
            yield Case(f"lr_scheduler.{cls}", (fresh,), kw, program=_sched_resume_at(cls, "sgd"), tag="last_epoch")
    for cls, variants in INVALID_SCHEDULERS.items():
        for kw in variants:
            if cls == "ReduceLROnPlateau":
                yield Case(f"lr_scheduler.{cls}", (), kw, program=_plateau_program("sgd", "falling"), tag="invalid")
            else:
                yield Case(f"lr_scheduler.{cls}", (), kw, program=_sched_program(cls, "sgd", 3), tag="invalid")
    # ReduceLROnPlateau: a sequence of metrics
    plateau = [{}, {"patience": 0}, {"patience": 2}, {"patience": 2, "cooldown": 2}, {"patience": 1, "factor": 0.5},
               {"patience": 1, "factor": 0.5, "min_lr": 0.02}, {"mode": "max", "patience": 1},
               {"threshold_mode": "abs", "threshold": 0.01, "patience": 1},
               {"mode": "max", "threshold_mode": "abs", "threshold": 0.05, "patience": 1, "cooldown": 1},
               {"patience": 0, "factor": 0.5, "eps": 0.05}, {"patience": 1, "threshold": 0.0}]
    for kw in plateau:
        for metrics in METRICS:
            yield Case("lr_scheduler.ReduceLROnPlateau", (), kw, program=_plateau_program("sgd", metrics),
                       tag=metrics)
    for kw in ({"patience": 1, "factor": 0.5, "min_lr": [0.02, 0.015]}, {"patience": 0, "factor": 0.5}):
        yield Case("lr_scheduler.ReduceLROnPlateau", (), kw, program=_plateau_program("sgd2", "plateau"),
                   tag="sgd2 plateau")
    yield Case("lr_scheduler.ReduceLROnPlateau", (), {"patience": 1}, program=_plateau_program("sgd", "noisy", True),
               tag="tensor metrics")
    yield Case("lr_scheduler.ReduceLROnPlateau", (), {"patience": 1}, program=_plateau_program("adam", "plateau"),
               tag="adam plateau")
    for variant, kw in (("closed", {}), ("closed", {"warmup": 2, "decay": 0.5}), ("recursive", {}),
                        ("no get_lr", {})):
        yield Case("lr_scheduler.LRScheduler", (), kw, program=_subclass_program(variant), tag=variant)



# ---------------------------------------------------------------------------------------------- mixed precision

def _F(L):
    return L.nn.functional


# op: (fn(L, *tensors), float tensor shapes, extra specs after them (targets, indices), value kind)
AUTOCAST_OPS = {
    "matmul": (lambda L, a, b: L.matmul(a, b), ((3, 4), (4, 5)), (), "random"),
    "@": (lambda L, a, b: a @ b, ((2, 3, 4), (4, 2)), (), "random"),
    "mm": (lambda L, a, b: L.mm(a, b), ((3, 4), (4, 5)), (), "random"),
    "bmm": (lambda L, a, b: L.bmm(a, b), ((2, 3, 4), (2, 4, 5)), (), "random"),
    "baddbmm": (lambda L, c, a, b: L.baddbmm(c, a, b), ((2, 3, 5), (2, 3, 4), (2, 4, 5)), (), "random"),
    "addmm": (lambda L, c, a, b: L.addmm(c, a, b), ((3, 5), (3, 4), (4, 5)), (), "random"),
    "mv": (lambda L, a, b: L.mv(a, b), ((3, 4), (4,)), (), "random"),
    "dot": (lambda L, a, b: L.dot(a, b), ((4,), (4,)), (), "random"),
    "einsum": (lambda L, a, b: L.einsum("ij,jk->ik", a, b), ((3, 4), (4, 5)), (), "random"),
    "linear": (lambda L, x, w, b: _F(L).linear(x, w, b), ((2, 4), (3, 4), (3,)), (), "random"),
    "linear no bias": (lambda L, x, w: _F(L).linear(x, w), ((2, 4), (3, 4)), (), "random"),
    "conv1d": (lambda L, x, w, b: _F(L).conv1d(x, w, b), ((1, 2, 6), (3, 2, 3), (3,)), (), "random"),
    "conv2d": (lambda L, x, w, b: _F(L).conv2d(x, w, b, padding=1), ((1, 2, 4, 4), (3, 2, 3, 3), (3,)), (), "random"),
    "conv_transpose2d": (lambda L, x, w, b: _F(L).conv_transpose2d(x, w, b), ((1, 2, 3, 3), (2, 3, 2, 2), (3,)), (),
                         "random"),
    "sdpa": (lambda L, q, k, v: _F(L).scaled_dot_product_attention(q, k, v), ((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4)),
             (), "random"),
    "sum": (lambda L, x: x.sum(), ((3, 4),), (), "random"),
    "sum dim": (lambda L, x: L.sum(x, 1), ((3, 4),), (), "random"),
    "mean": (lambda L, x: x.mean(), ((3, 4),), (), "random"),
    "prod": (lambda L, x: L.prod(x, 1), ((3, 4),), (), "random"),
    "cumsum": (lambda L, x: L.cumsum(x, 1), ((3, 4),), (), "random"),
    "softmax": (lambda L, x: _F(L).softmax(x, -1), ((3, 4),), (), "random"),
    "log_softmax": (lambda L, x: _F(L).log_softmax(x, -1), ((3, 4),), (), "random"),
    "Tensor.softmax": (lambda L, x: x.softmax(0), ((3, 4),), (), "random"),
    "exp": (lambda L, x: L.exp(x), ((3, 4),), (), "random"),
    "log": (lambda L, x: L.log(x), ((3, 4),), (), "positive"),
    "pow": (lambda L, x: L.pow(x, 2.5), ((3, 4),), (), "positive"),
    "relu": (lambda L, x: _F(L).relu(x), ((3, 4),), (), "random"),
    "gelu": (lambda L, x: _F(L).gelu(x), ((3, 4),), (), "random"),
    "silu": (lambda L, x: _F(L).silu(x), ((3, 4),), (), "random"),
    "sigmoid": (lambda L, x: L.sigmoid(x), ((3, 4),), (), "random"),
    "tanh": (lambda L, x: L.tanh(x), ((3, 4),), (), "random"),
    "add": (lambda L, a, b: a + b, ((3, 4), (3, 4)), (), "random"),
    "mul": (lambda L, a, b: L.mul(a, b), ((3, 4), (4,)), (), "random"),
    "cat": (lambda L, a, b: L.cat([a, b]), ((2, 3), (1, 3)), (), "random"),
    "stack": (lambda L, a, b: L.stack([a, b]), ((2, 3), (2, 3)), (), "random"),
    "layer_norm": (lambda L, x, w, b: _F(L).layer_norm(x, (4,), w, b), ((2, 4), (4,), (4,)), (), "random"),
    "layer_norm no affine": (lambda L, x: _F(L).layer_norm(x, (4,)), ((2, 4),), (), "random"),
    "group_norm": (lambda L, x, w, b: _F(L).group_norm(x, 2, w, b), ((2, 4, 3), (4,), (4,)), (), "random"),
    "batch_norm": (lambda L, x, m, v: _F(L).batch_norm(x, m, v.abs() + 0.5), ((2, 3, 4), (3,), (3,)), (), "random"),
    "norm": (lambda L, x: x.norm(), ((3, 4),), (), "random"),
    "vector_norm": (lambda L, x: L.linalg.vector_norm(x), ((3, 4),), (), "random"),
    "max_pool2d": (lambda L, x: _F(L).max_pool2d(x, 2), ((1, 2, 4, 4),), (), "random"),
    "avg_pool2d": (lambda L, x: _F(L).avg_pool2d(x, 2), ((1, 2, 4, 4),), (), "random"),
    "cross_entropy": (lambda L, x, t: _F(L).cross_entropy(x, t), ((4, 5),), (T("int64", (4,), "index:5"),), "random"),
    "cross_entropy smoothing": (lambda L, x, t: _F(L).cross_entropy(x, t, label_smoothing=0.1), ((4, 5),),
                                (T("int64", (4,), "index:5"),), "random"),
    "nll_loss": (lambda L, x, t: _F(L).nll_loss(x, t), ((4, 5),), (T("int64", (4,), "index:5"),), "random"),
    "mse_loss": (lambda L, a, b: _F(L).mse_loss(a, b), ((3, 4), (3, 4)), (), "random"),
    "l1_loss": (lambda L, a, b: _F(L).l1_loss(a, b), ((3, 4), (3, 4)), (), "random"),
    "smooth_l1_loss": (lambda L, a, b: _F(L).smooth_l1_loss(a, b), ((3, 4), (3, 4)), (), "random"),
    "bce_with_logits": (lambda L, a, b: _F(L).binary_cross_entropy_with_logits(a, b.sigmoid()), ((3, 4), (3, 4)), (),
                        "random"),
    "kl_div": (lambda L, a, b: _F(L).kl_div(a.log_softmax(-1), b.softmax(-1), reduction="batchmean"),
               ((3, 4), (3, 4)), (), "random"),
    "embedding": (lambda L, w, i: _F(L).embedding(i, w), ((5, 4),), (T("int64", (3,), "index:5"),), "random"),
    "matmul then sum": (lambda L, a, b: (a @ b).sum(), ((3, 4), (4, 5)), (), "random"),
    "linear then softmax": (lambda L, x, w, b: _F(L).softmax(_F(L).linear(x, w, b), -1), ((2, 4), (3, 4), (3,)), (),
                            "random"),
}
AUTOCAST_GRAD = ("matmul", "linear", "conv2d", "sdpa", "layer_norm", "softmax", "sum", "cross_entropy", "mse_loss",
                 "matmul then sum", "addmm", "add")


def _autocast_program(op, enabled=True, grads=False):
    fn = AUTOCAST_OPS[op][0]

    def program(L, device, dt, *xs):
        with L.autocast(device.split(":")[0], dtype=dt, enabled=enabled):
            out = fn(L, *xs)
        if not grads:
            return out
        backward(L, device, out)
        leaves = [x for x in xs if isinstance(x, L.Tensor) and x.requires_grad]
        # the gradients' dtypes, and their values in the autocast dtype (they went through it)
        return {"out": out, "grad dtypes": [None if x.grad is None else x.grad.dtype for x in leaves],
                "grads": [None if x.grad is None else x.grad.to(dt) for x in leaves]}

    return program


def _ac_state(variant):
    """torch.is_autocast_enabled and torch.get_autocast_dtype, in and around autocast regions."""

    def program(L, device, dt):
        dev = device.split(":")[0]
        a = seeded(L, device, (2, 3), seed="a")
        b = seeded(L, device, (3, 2), seed="b")
        if variant == "outside":
            return [L.is_autocast_enabled(dev), L.get_autocast_dtype(dev), (a @ b).dtype]
        if variant == "inside":
            with L.autocast(dev, dtype=dt):
                return [L.is_autocast_enabled(dev), L.get_autocast_dtype(dev), (a @ b).dtype]
        if variant == "after":
            with L.autocast(dev, dtype=dt):
                pass
            return [L.is_autocast_enabled(dev), L.get_autocast_dtype(dev), (a @ b).dtype]
        if variant == "nested disabled":
            with L.autocast(dev, dtype=dt):
                with L.autocast(dev, enabled=False):
                    inner = [L.is_autocast_enabled(dev), L.get_autocast_dtype(dev), (a @ b).dtype]
                return inner + [L.is_autocast_enabled(dev), L.get_autocast_dtype(dev), (a @ b).dtype]
        if variant == "nested dtype":
            other = L.float16 if dt == L.bfloat16 else L.bfloat16
            with L.autocast(dev, dtype=dt):
                with L.autocast(dev, dtype=other):
                    inner = [L.get_autocast_dtype(dev), (a @ b).dtype]
                return inner + [L.get_autocast_dtype(dev), (a @ b).dtype]
        if variant == "disabled region":
            with L.autocast(dev, dtype=dt, enabled=False):
                return [L.is_autocast_enabled(dev), L.get_autocast_dtype(dev), (a @ b).dtype]
        if variant == "after an error":
            try:
                with L.autocast(dev, dtype=dt):
                    raise KeyError("inside")
            except KeyError:
                pass
            return [L.is_autocast_enabled(dev), (a @ b).dtype]
        if variant == "no device_type":
            with L.autocast(dev, dtype=dt):
                return [L.is_autocast_enabled(), (a @ b).dtype]
        if variant == "other device_type":
            other = "cuda" if dev == "cpu" else "cpu"
            with L.autocast(dev, dtype=dt):
                return [L.is_autocast_enabled(other), L.get_autocast_dtype(other)]
        if variant == "decorator":
            @L.autocast(dev, dtype=dt)
            def f(x, y):
                return x @ y, L.is_autocast_enabled(dev)
            return list(f(a, b)) + [L.is_autocast_enabled(dev)]
        if variant == "default dtype":
            with L.autocast(dev):
                return [L.get_autocast_dtype(dev), (a @ b).dtype]
        if variant == "device string":
            with L.autocast(device if ":" in device else dev + ":0", dtype=dt):
                return [(a @ b).dtype]
        if variant == "cache_enabled=False":
            with L.autocast(dev, dtype=dt, cache_enabled=False):
                return [(a @ b).dtype]
        if variant == "grad mode":
            with L.autocast(dev, dtype=dt), L.no_grad():
                w = seeded(L, device, (3, 2), seed="w").requires_grad_()
                return [(a @ w).dtype, (a @ w).requires_grad]
        if variant == "module":
            lin = L.nn.Linear(3, 2).to(device)
            with L.autocast(dev, dtype=dt):
                out = lin(a)
            return [out.dtype, lin.weight.dtype, out.requires_grad]
        raise AssertionError(variant)

    return program


def autocast_cases():
    for op, (fn, shapes, extra, kind) in AUTOCAST_OPS.items():
        for low in ("bfloat16", "float16"):
            variants = [("float32",) * len(shapes), (low,) * len(shapes), ("float64",) * len(shapes)]
            if len(shapes) > 1:
                variants.append(("float32",) + (low,) * (len(shapes) - 1))
            for dts in variants:
                args = tuple(T(d, s, kind) for d, s in zip(dts, shapes)) + extra
                yield Case("torch.autocast", (D(low),) + args, program=_autocast_program(op), tag=op)
            if op in AUTOCAST_GRAD:
                args = tuple(T("float32", s, kind, grad=True) for s in shapes) + extra
                yield Case("torch.autocast", (D(low),) + args, program=_autocast_program(op, grads=True),
                           tag=op + " backward")
        args = tuple(T("float32", s, kind) for s in shapes) + extra
        yield Case("torch.autocast", (D("bfloat16"),) + args, program=_autocast_program(op, enabled=False),
                   tag=op + " enabled=False")
    for op in ("matmul", "mm", "bmm", "add", "sum", "cat"):
        shapes = AUTOCAST_OPS[op][1]
        for d in ("int64", "int32", "bool"):
            yield Case("torch.autocast", (D("bfloat16"),) + tuple(T(d, s) for s in shapes),
                       program=_autocast_program(op), tag=op)
    for dt in ("float32", "float64"):
        yield Case("torch.autocast", (D(dt), T("float32", (3, 4)), T("float32", (4, 5))),
                   program=_autocast_program("matmul"), tag="matmul")
        yield Case("torch.get_autocast_dtype", (D(dt),), program=_ac_state("inside"), tag="inside")
    for variant in ("outside", "inside", "after", "nested disabled", "nested dtype", "disabled region",
                    "after an error", "other device_type", "decorator", "default dtype", "grad mode", "module"):
        for low in ("bfloat16", "float16"):
            yield Case("torch.get_autocast_dtype", (D(low),), program=_ac_state(variant), tag=variant)
            yield Case("torch.is_autocast_enabled", (D(low),), program=_ac_state(variant), tag=variant)
    for variant in ("no device_type", "device string", "cache_enabled=False"):
        yield Case("torch.autocast", (D("bfloat16"),), program=_ac_state(variant), tag=variant)
    yield Case("torch.is_autocast_enabled", (D("bfloat16"),), program=_ac_state("no device_type"),
               tag="no device_type")


def _scaler_program(L, device, dt, pattern="ffiff", unscale_first=False, clip=None, opt="sgd", **kwargs):
    """A GradScaler loop over steps: 'f' a finite loss, 'i' an infinite one, 'n' a NaN one. Records the scaled loss,
    the (scaled, then unscaled) gradient, the parameter, step()'s result and the scale after each update()."""
    dev = device.split(":")[0]
    d = dtype_name(dt)
    w = _leaf(L, device, (3,), d, "w")
    optimizer = L.optim.SGD([w], lr=0.1, momentum=0.5) if opt == "sgd" else L.optim.Adam([w], lr=0.01)
    scaler = L.amp.GradScaler(dev, **kwargs)
    out = {"initial scale": scaler.get_scale(), "steps": []}
    for step, kind in enumerate(pattern):
        optimizer.zero_grad()
        x = seeded(L, device, (3,), d, seed=f"x{step}")
        if kind == "i":
            x = x * float("inf")
        elif kind == "n":
            x = x * float("nan")
        loss = (w * x).sum()
        scaled = scaler.scale(loss)
        scaled.backward()
        rec = {"scaled": scaled.detach(), "grad": w.grad.clone()}
        if unscale_first:
            scaler.unscale_(optimizer)
            rec["unscaled"] = w.grad.clone()
            if clip is not None:
                rec["norm"] = L.nn.utils.clip_grad_norm_([w], clip)
        rec["step"] = scaler.step(optimizer)
        scaler.update()
        rec["w"] = w.detach().clone()
        rec["scale"] = scaler.get_scale()
        out["steps"].append(rec)
    out["state_dict"] = scaler.state_dict()
    return out


def _scaler_misc(variant):
    def program(L, device, **kwargs):
        dev = device.split(":")[0]
        w = _leaf(L, device, (3,), "float32", "w")
        optimizer = L.optim.SGD([w], lr=0.1)
        scaler = L.amp.GradScaler(dev, **kwargs)
        loss = (w * seeded(L, device, (3,), seed="x")).sum()
        if variant == "scale a list":
            return [scaler.scale([loss, loss * 2]), scaler.scale((loss,)), scaler.get_scale()]
        if variant == "step before scale":
            w.grad = seeded(L, device, (3,), seed="g")
            return scaler.step(optimizer)
        if variant == "get_scale before scale":
            return [scaler.get_scale(), scaler.is_enabled(), scaler.state_dict()]
        if variant == "factors":
            scaler.set_growth_factor(4.0)
            scaler.set_backoff_factor(0.25)
            scaler.set_growth_interval(7)
            return [scaler.get_growth_factor(), scaler.get_backoff_factor(), scaler.get_growth_interval()]
        scaler.scale(loss).backward()
        if variant == "unscale twice":
            scaler.unscale_(optimizer)
            scaler.unscale_(optimizer)
            return w.grad
        if variant == "step twice":
            scaler.step(optimizer)
            scaler.step(optimizer)
            return w
        if variant == "update new_scale":
            scaler.step(optimizer)
            scaler.update(new_scale=8.0)
            first = scaler.get_scale()
            scaler.scale(loss)
            scaler.update(new_scale=L.tensor(2.0).to(device))
            return [first, scaler.get_scale(), w]
        if variant == "update without step":
            scaler.update()
            return scaler.get_scale()
        if variant == "load_state_dict":
            scaler.step(optimizer)
            scaler.update()
            other = L.amp.GradScaler(dev)
            other.load_state_dict(scaler.state_dict())
            return [other.get_scale(), other.state_dict()]
        if variant == "closure":
            return scaler.step(optimizer, closure=lambda: loss)
        raise AssertionError(variant)

    return program


def _cuda_amp_scaler(L, device):
    scaler = L.cuda.amp.GradScaler()
    return [scaler.is_enabled(), scaler.get_scale()]


def grad_scaler_cases():
    name = "amp.GradScaler"
    for d in ("float32", "float64"):
        for kw in ({"init_scale": 16.0, "growth_interval": 2}, {"init_scale": 16.0, "growth_interval": 1},
                   {"init_scale": 2.0 ** 16}, {"init_scale": 4.0, "growth_factor": 3.0, "backoff_factor": 0.25,
                                               "growth_interval": 2}):
            for pattern in ("fffff", "ffiff", "iiiff", "fnfif"):
                yield Case(name, (D(d),), dict(kw, pattern=pattern), program=_scaler_program)
        yield Case(name, (D(d),), {"pattern": "ffif", "unscale_first": True, "init_scale": 16.0, "growth_interval": 2},
                   program=_scaler_program)
        yield Case(name, (D(d),), {"pattern": "ffif", "unscale_first": True, "clip": 0.5, "init_scale": 16.0},
                   program=_scaler_program)
        yield Case(name, (D(d),), {"pattern": "fiff", "opt": "adam", "init_scale": 16.0, "growth_interval": 1},
                   program=_scaler_program)
        yield Case(name, (D(d),), {"pattern": "fif", "enabled": False}, program=_scaler_program)
    for d in ("float16", "bfloat16"):
        yield Case(name, (D(d),), {"pattern": "fif", "init_scale": 16.0}, program=_scaler_program)
    for variant in ("scale a list", "step before scale", "get_scale before scale", "factors", "unscale twice",
                    "step twice", "update new_scale", "update without step", "load_state_dict", "closure"):
        yield Case(name, (), {"init_scale": 16.0}, program=_scaler_misc(variant), tag=variant)
    for variant in ("scale a list", "get_scale before scale", "factors", "step twice", "load_state_dict"):
        yield Case(name, (), {"enabled": False}, program=_scaler_misc(variant), tag=variant)
    for kw in ({"growth_factor": 1.0}, {"backoff_factor": 1.0}, {"growth_interval": 0}, {"init_scale": -1.0}):
        yield Case(name, (), kw, program=_scaler_misc("get_scale before scale"), tag="invalid")
    yield Case(name, (), program=_cuda_amp_scaler, tag="torch.cuda.amp.GradScaler")



# ---------------------------------------------------------------------------------------------- autograd

def _cot(L, x, seed="c"):
    """A seeded cotangent for x (its device, dtype and shape)."""
    return seeded(L, str(x.device), tuple(x.shape), dtype_name(x.dtype), seed=seed)


# grad modes: each program returns what a script would read (requires_grad of results, is_grad_enabled)
def _no_grad(variant):
    def program(L, device, x):
        if variant == "with":
            with L.no_grad():
                y = x * 2
                inside = L.is_grad_enabled()
            return [y, y.requires_grad, y.is_leaf, y.grad_fn is None, inside, L.is_grad_enabled()]
        if variant == "decorator()":
            @L.no_grad()
            def f(t):
                return t * 2, L.is_grad_enabled()
            y, inside = f(x)
            return [y.requires_grad, inside, L.is_grad_enabled()]
        if variant == "bare decorator":
            @L.no_grad
            def f(t):
                return t * 2
            y = f(x)
            return [y.requires_grad, L.is_grad_enabled()]
        if variant == "in-place on a leaf":
            with L.no_grad():
                x.mul_(2)
            y = (x * x).sum()
            y.backward()
            return [x, x.requires_grad, x.is_leaf, x.grad]
        if variant == "enable_grad inside":
            with L.no_grad():
                with L.enable_grad():
                    y = x * 2
                z = x * 2
            return [y.requires_grad, z.requires_grad, L.is_grad_enabled()]
        if variant == "after an error":
            try:
                with L.no_grad():
                    raise KeyError("inside")
            except KeyError:
                pass
            return [L.is_grad_enabled(), (x * 2).requires_grad]
        if variant == "factory":
            with L.no_grad():
                y = L.ones(3, requires_grad=True)
                z = y * 2
            return [y.requires_grad, y.is_leaf, z.requires_grad]
        if variant == "backward inside":
            y = (x * x).sum()
            with L.no_grad():
                y.backward()
            return x.grad
        if variant == "view":
            with L.no_grad():
                v = x[0]
                d = x.detach()
            return [v.requires_grad, v.is_leaf, d.requires_grad]
        if variant == "nested":
            with L.no_grad():
                with L.no_grad():
                    pass
                still = L.is_grad_enabled()
            return [still, L.is_grad_enabled()]
        raise AssertionError(variant)

    return program


def _enable_grad(variant):
    def program(L, device, x):
        if variant == "inside no_grad":
            with L.no_grad():
                with L.enable_grad():
                    y = x * 2
                    inside = L.is_grad_enabled()
            return [y.requires_grad, inside, L.is_grad_enabled()]
        if variant == "decorator":
            @L.enable_grad()
            def f(t):
                return t * 2
            with L.no_grad():
                y = f(x)
                after = L.is_grad_enabled()
            return [y.requires_grad, after]
        if variant == "no grad input":
            with L.enable_grad():
                y = x.detach() * 2
            return [y.requires_grad, y.grad_fn is None]
        if variant == "backward":
            with L.no_grad():
                with L.enable_grad():
                    y = (x * x).sum()
                y.backward()
            return x.grad
        raise AssertionError(variant)

    return program


def _set_grad_enabled(variant):
    def program(L, device, x):
        if variant == "call":
            L.set_grad_enabled(False)
            try:
                y = x * 2
                inside = L.is_grad_enabled()
            finally:
                L.set_grad_enabled(True)
            return [y.requires_grad, inside, L.is_grad_enabled()]
        if variant in ("with False", "with True"):
            with L.no_grad():
                with L.set_grad_enabled(variant == "with True"):
                    y = x * 2
                    inside = L.is_grad_enabled()
                after = L.is_grad_enabled()
            return [y.requires_grad, inside, after, L.is_grad_enabled()]
        if variant == "decorator":
            @L.set_grad_enabled(False)
            def f(t):
                return t * 2
            y = f(x)
            return [y.requires_grad, L.is_grad_enabled()]
        if variant in ("int 0", "int 1", "None"):
            mode = {"int 0": 0, "int 1": 1, "None": None}[variant]
            try:
                with L.set_grad_enabled(mode):
                    y = x * 2
            finally:
                L.set_grad_enabled(True)
            return [y.requires_grad]
        if variant == "train flag":
            out = []
            for train in (True, False):
                with L.set_grad_enabled(train):
                    out.append((x * 2).requires_grad)
            return out + [L.is_grad_enabled()]
        raise AssertionError(variant)

    return program


def _inference_mode(variant):
    def program(L, device, x):
        if variant == "with":
            with L.inference_mode():
                y = x * 2
                inside = L.is_grad_enabled()
            return [y, y.requires_grad, y.is_leaf, inside, L.is_grad_enabled()]
        if variant == "False":
            with L.inference_mode(False):
                y = x * 2
            return [y.requires_grad, L.is_grad_enabled()]
        if variant == "decorator()":
            @L.inference_mode()
            def f(t):
                return t * 2
            return [f(x).requires_grad, L.is_grad_enabled()]
        if variant == "bare decorator":
            @L.inference_mode
            def f(t):
                return t * 2
            return [f(x).requires_grad, L.is_grad_enabled()]
        if variant == "result saved for backward":
            with L.inference_mode():
                y = x.detach() * 2
            w = x * 1
            z = (y * w).sum()
            z.backward()
            return x.grad
        if variant == "in-place outside":
            with L.inference_mode():
                y = L.zeros(3)
            y.add_(1)
            return y
        if variant == "inside no_grad":
            with L.no_grad():
                with L.inference_mode(False):
                    y = x * 2
            return [y.requires_grad]
        raise AssertionError(variant)

    return program


def _is_grad_enabled(L, device):
    out = [L.is_grad_enabled()]
    with L.no_grad():
        out.append(L.is_grad_enabled())
        with L.enable_grad():
            out.append(L.is_grad_enabled())
        out.append(L.is_grad_enabled())
    with L.inference_mode():
        out.append(L.is_grad_enabled())
    with L.set_grad_enabled(False):
        out.append(L.is_grad_enabled())
    return out + [L.is_grad_enabled()]


def _backward(variant):
    def program(L, device, x, *rest):
        if variant == "scalar":
            y = (x * x).sum()
            y.backward()
            return x.grad
        if variant == "gradient=":
            y = x * 3 + x * x
            y.backward(gradient=_cot(L, y))
            return x.grad
        if variant == "gradient positional":
            y = x.sin()
            y.backward(_cot(L, y))
            return x.grad
        if variant == "non-scalar without gradient":
            (x * 2).backward()
            return x.grad
        if variant == "retain_graph twice":
            y = (x * x).sum()
            y.backward(retain_graph=True)
            first = x.grad.clone()
            y.backward()
            return [first, x.grad]
        if variant == "twice without retain_graph":
            y = (x * x).sum()
            y.backward()
            y.backward()
            return x.grad
        if variant == "twice, nothing saved":
            y = (x + 1).sum()
            y.backward()
            y.backward()
            return x.grad
        if variant == "accumulates":
            (x * x).sum().backward()
            first = x.grad.clone()
            (x * 3).sum().backward()
            return [first, x.grad]
        if variant == "no grad required":
            y = x.detach().sum()
            y.backward()
            return y
        if variant == "inputs=":
            w = rest[0]
            y = (x * w).sum()
            y.backward(inputs=[x])
            return [x.grad, w.grad]
        if variant == "two leaves, two dtypes":
            w = rest[0]
            y = (x * w).sum()
            y.backward()
            return [x.grad, w.grad]
        if variant == "gradient of another dtype":
            y = x * 2
            y.backward(gradient=_cot(L, y).double() if y.dtype != L.float64 else _cot(L, y).float())
            return x.grad
        if variant == "gradient of another shape":
            y = x * 2
            y.backward(gradient=L.ones(7, dtype=y.dtype))
            return x.grad
        if variant == "create_graph":
            y = (x ** 3).sum()
            y.backward(create_graph=True)
            g = x.grad
            return [g, g.requires_grad]
        if variant == "modified in place":
            y = x.sigmoid()
            z = y * 1
            y.mul_(2)
            z.sum().backward()
            out = (x.exp() * 1)
            e = x.exp()
            e.add_(1)
            e.sum().backward()
            return [x.grad, out]
        if variant == "saved tensor modified":
            y = x.exp()
            y.add_(1)
            y.sum().backward()
            return x.grad
        if variant == "through a view":
            y = x[1:] * 2
            y.sum().backward()
            return x.grad
        if variant == "0-d":
            y = (x * x).sum() * 0.5
            y.backward(gradient=L.tensor(2.0, dtype=y.dtype))
            return x.grad
        if variant == "int leaf":
            return x.requires_grad_()
        raise AssertionError(variant)

    return program


def _grad_attr(variant):
    def program(L, device, x):
        if variant == "before backward":
            return x.grad
        if variant == "after backward":
            (x * x).sum().backward()
            return [x.grad, x.grad.requires_grad, x.grad.is_leaf]
        if variant == "non-leaf":
            y = x * 2
            (y * y).sum().backward()
            return [y.grad, x.grad]
        if variant == "assign":
            g = _cot(L, x)
            x.grad = g
            return [x.grad, x.grad is g]
        if variant == "assign None":
            (x * x).sum().backward()
            x.grad = None
            return x.grad
        if variant == "assign wrong shape":
            x.grad = L.ones(7, dtype=x.dtype)
            return x.grad
        if variant == "assign wrong dtype":
            x.grad = L.ones(tuple(x.shape), dtype=L.float16)
            return x.grad
        if variant == "accumulate into assigned":
            x.grad = L.ones(tuple(x.shape), dtype=x.dtype)
            (x * x).sum().backward()
            return x.grad
        if variant == "zero_ then backward":
            (x * x).sum().backward()
            x.grad.zero_()
            (x * 3).sum().backward()
            return x.grad
        raise AssertionError(variant)

    return program


def _grad_fn(variant):
    def program(L, device, x):
        if variant == "leaf":
            return x.grad_fn is None
        if variant == "op result":
            return [(x * 2).grad_fn is None, x.sum().grad_fn is None, (x + x).grad_fn is None]
        if variant == "no_grad":
            with L.no_grad():
                return (x * 2).grad_fn is None
        if variant == "detach":
            return [x.detach().grad_fn is None, (x * 2).detach().grad_fn is None]
        if variant == "view":
            return [x[0].grad_fn is None, x.view(-1).grad_fn is None, x.t().grad_fn is None]
        if variant == "no requires_grad":
            y = x.detach()
            return [(y * 2).grad_fn is None, y.grad_fn is None]
        if variant == "in-place on non-leaf":
            y = x * 1
            y.add_(1)
            return y.grad_fn is None
        raise AssertionError(variant)

    return program


def _hook(variant):
    def program(L, device, x):
        if variant == "scale leaf grad":
            x.register_hook(lambda g: g * 2)
            (x * x).sum().backward()
            return x.grad
        if variant == "scale intermediate":
            y = x * 3
            y.register_hook(lambda g: g * 0.5)
            (y * y).sum().backward()
            return x.grad
        if variant == "observe":
            seen = []
            y = x.sin()
            y.register_hook(lambda g: seen.append(g.clone()))
            x.register_hook(lambda g: seen.append(g.clone()))
            (y * 2).sum().backward()
            return [seen, x.grad]
        if variant == "remove":
            h = x.register_hook(lambda g: g * 10)
            h.remove()
            (x * x).sum().backward()
            return x.grad
        if variant == "two hooks in order":
            x.register_hook(lambda g: g + 1)
            x.register_hook(lambda g: g * 2)
            (x * x).sum().backward()
            return x.grad
        if variant == "no requires_grad":
            x.detach().register_hook(lambda g: g)
            return x
        if variant == "autograd.grad":
            x.register_hook(lambda g: g * 2)
            return L.autograd.grad((x * x).sum(), x)
        if variant == "fires per backward":
            count = []
            x.register_hook(lambda g: count.append(1))
            (x * 2).sum().backward()
            (x * 3).sum().backward()
            return [len(count), x.grad]
        raise AssertionError(variant)

    return program


def _retain(variant):
    def program(L, device, x):
        if variant == "non-leaf":
            y = x * 2
            before = y.retains_grad
            y.retain_grad()
            (y * y).sum().backward()
            return [y.grad, before, y.retains_grad, x.retains_grad, x.grad]
        if variant == "leaf":
            x.retain_grad()
            (x * x).sum().backward()
            return [x.retains_grad, x.grad]
        if variant == "no requires_grad":
            y = x.detach() * 2
            y.retain_grad()
            return y.retains_grad
        if variant == "accumulates":
            y = x * 2
            y.retain_grad()
            z = (y * y).sum()
            z.backward(retain_graph=True)
            z.backward()
            return y.grad
        if variant == "view":
            y = x * 2
            v = y[1:]
            v.retain_grad()
            (v * v).sum().backward()
            return [v.grad, v.retains_grad]
        raise AssertionError(variant)

    return program


def _requires_grad(variant):
    def program(L, device, x):
        if variant == "op results":
            y = x.detach()
            return [(x * 2).requires_grad, (y * 2).requires_grad, (x * y).requires_grad, (x > 0).requires_grad,
                    x.argmax().requires_grad, x.detach().requires_grad, x.clone().requires_grad,
                    x.to(L.float64).requires_grad, x.sum().requires_grad]
        if variant == "set attribute":
            y = x.detach().clone()
            y.requires_grad = True
            return [y.requires_grad, y.is_leaf]
        if variant == "set False on a non-leaf":
            y = x * 2
            y.requires_grad = False
            return y.requires_grad
        if variant == "set True on a non-leaf":
            y = x * 2
            y.requires_grad_(True)
            return y.requires_grad
        if variant == "requires_grad_(False) on a non-leaf":
            y = x * 2
            y.requires_grad_(False)
            return y.requires_grad
        if variant == "requires_grad_ returns self":
            y = x.detach().clone()
            return [y.requires_grad_() is y, y.requires_grad, y.requires_grad_(False).requires_grad]
        raise AssertionError(variant)

    return program


def _is_leaf(L, device, x):
    y = x.detach()
    with L.no_grad():
        z = x * 2
    return [x.is_leaf, (x * 2).is_leaf, y.is_leaf, (y * 2).is_leaf, z.is_leaf, x[0].is_leaf, y.clone().is_leaf,
            y.clone().requires_grad_().is_leaf, x.sum().is_leaf]


def _data(variant):
    def program(L, device, x):
        if variant == "read":
            d = x.data
            return [d, d.requires_grad, d.is_leaf]
        if variant == "write through":
            x.data.mul_(2)
            return [x, x.requires_grad]
        if variant == "assign":
            x.data = L.ones(5, dtype=x.dtype, device=device)
            y = (x * x).sum()
            y.backward()
            return [x, x.shape, x.requires_grad, x.grad]
        if variant == "modified after use":
            y = x * x
            x.data.add_(1)
            y.sum().backward()
            return x.grad
        raise AssertionError(variant)

    return program


def _autograd_grad(variant):
    def program(L, device, x, *rest):
        if variant == "scalar":
            return L.autograd.grad((x * x).sum(), x)
        if variant == "grad_outputs":
            y = x.sin() * x
            return L.autograd.grad(y, x, grad_outputs=_cot(L, y))
        if variant == "second derivative":
            y = (x ** 3).sum()
            (g,) = L.autograd.grad(y, x, create_graph=True)
            (g2,) = L.autograd.grad(g.sum(), x)
            return [g, g.requires_grad, g2]
        if variant == "third derivative":
            y = (x.sin() * x).sum()
            (g,) = L.autograd.grad(y, x, create_graph=True)
            (g2,) = L.autograd.grad(g.sum(), x, create_graph=True)
            (g3,) = L.autograd.grad(g2.sum(), x)
            return [g, g2, g3]
        if variant == "allow_unused":
            w = rest[0]
            return L.autograd.grad((x * x).sum(), [x, w], allow_unused=True)
        if variant == "unused without allow_unused":
            w = rest[0]
            return L.autograd.grad((x * x).sum(), [x, w])
        if variant == "materialize_grads":
            w = rest[0]
            return L.autograd.grad((x * x).sum(), [x, w], allow_unused=True, materialize_grads=True)
        if variant == "two outputs, two inputs":
            w = rest[0]
            a, b = (x * w).sum(), (x * x).sum()
            return L.autograd.grad([a, b], [x, w])
        if variant == "twice without retain_graph":
            y = (x * x).sum()
            L.autograd.grad(y, x)
            return L.autograd.grad(y, x)
        if variant == "retain_graph":
            y = (x * x).sum()
            first = L.autograd.grad(y, x, retain_graph=True)
            return [first, L.autograd.grad(y, x)]
        if variant == ".grad untouched":
            L.autograd.grad((x * x).sum(), x)
            return x.grad
        if variant == "non-leaf input":
            y = x * 2
            z = (y * y).sum()
            return L.autograd.grad(z, y)
        if variant == "input without grad":
            y = x.detach()
            return L.autograd.grad((x * y).sum(), y)
        if variant == "non-scalar without grad_outputs":
            return L.autograd.grad(x * 2, x)
        if variant == "tuple input":
            return L.autograd.grad((x * x).sum(), (x,))
        raise AssertionError(variant)

    return program


def _autograd_backward(variant):
    def program(L, device, x, w):
        if variant == "two tensors":
            a, b = x * w, (x * x).sum()
            L.autograd.backward([a, b], [_cot(L, a), None])
            return [x.grad, w.grad]
        if variant == "scalar":
            L.autograd.backward((x * w).sum())
            return [x.grad, w.grad]
        if variant == "grad_tensors=":
            a = x * w
            L.autograd.backward(a, grad_tensors=_cot(L, a))
            return [x.grad, w.grad]
        if variant == "inputs=":
            L.autograd.backward((x * w).sum(), inputs=[w])
            return [x.grad, w.grad]
        if variant == "retain_graph":
            y = (x * w).sum()
            L.autograd.backward(y, retain_graph=True)
            L.autograd.backward(y)
            return [x.grad, w.grad]
        if variant == "tuple":
            a, b = (x * w).sum(), (w * w).sum()
            L.autograd.backward((a, b))
            return [x.grad, w.grad]
        if variant == "mismatched grad_tensors":
            a, b = x * w, x * 2
            L.autograd.backward([a, b], [_cot(L, a)])
            return [x.grad, w.grad]
        raise AssertionError(variant)

    return program


GRAD_MODES = {
    "torch.no_grad": (_no_grad, ("with", "decorator()", "bare decorator", "in-place on a leaf", "enable_grad inside",
                                 "after an error", "factory", "backward inside", "view", "nested")),
    "torch.enable_grad": (_enable_grad, ("inside no_grad", "decorator", "no grad input", "backward")),
    "torch.set_grad_enabled": (_set_grad_enabled, ("call", "with False", "with True", "decorator", "int 0", "int 1",
                                                   "None", "train flag")),
    "torch.inference_mode": (_inference_mode, ("with", "False", "decorator()", "bare decorator",
                                               "result saved for backward", "in-place outside", "inside no_grad")),
    "Tensor.grad": (_grad_attr, ("before backward", "after backward", "non-leaf", "assign", "assign None",
                                 "assign wrong shape", "assign wrong dtype", "accumulate into assigned",
                                 "zero_ then backward")),
    "Tensor.grad_fn": (_grad_fn, ("leaf", "op result", "no_grad", "detach", "view", "no requires_grad",
                                  "in-place on non-leaf")),
    "Tensor.register_hook": (_hook, ("scale leaf grad", "scale intermediate", "observe", "remove", "two hooks in order",
                                     "no requires_grad", "autograd.grad", "fires per backward")),
    "Tensor.retain_grad": (_retain, ("non-leaf", "leaf", "no requires_grad", "accumulates", "view")),
    "Tensor.retains_grad": (_retain, ("non-leaf", "leaf")),
    "Tensor.requires_grad": (_requires_grad, ("op results", "set attribute", "set False on a non-leaf")),
    "Tensor.requires_grad_": (_requires_grad, ("set True on a non-leaf", "requires_grad_(False) on a non-leaf",
                                               "requires_grad_ returns self")),
    "Tensor.data": (_data, ("read", "write through", "assign", "modified after use")),
}
BACKWARD_ONE = ("scalar", "gradient=", "gradient positional", "non-scalar without gradient", "retain_graph twice",
                "twice without retain_graph", "twice, nothing saved", "accumulates", "no grad required",
                "gradient of another dtype", "gradient of another shape", "create_graph", "modified in place",
                "saved tensor modified", "through a view", "0-d")
GRAD_ONE = ("scalar", "grad_outputs", "second derivative", "third derivative", "twice without retain_graph",
            "retain_graph", ".grad untouched", "non-leaf input", "input without grad",
            "non-scalar without grad_outputs", "tuple input")
GRAD_TWO = ("allow_unused", "unused without allow_unused", "materialize_grads", "two outputs, two inputs")


def autograd_cases():
    for name, (make, variants) in GRAD_MODES.items():
        for variant in variants:
            for d in ("float32", "float64"):
                yield Case(name, (T(d, (2, 3), grad=True),), program=make(variant), tag=variant)
    for d in ("float16", "bfloat16"):
        yield Case("torch.no_grad", (T(d, (2, 3), grad=True),), program=_no_grad("with"), tag="with")
        yield Case("torch.inference_mode", (T(d, (2, 3), grad=True),), program=_inference_mode("with"), tag="with")
    yield Case("torch.is_grad_enabled", (), program=_is_grad_enabled)
    for d in ("float32", "float64"):
        for variant in BACKWARD_ONE:
            yield Case("Tensor.backward", (T(d, (2, 3), grad=True),), program=_backward(variant), tag=variant)
        for other in ("float32", "float64"):
            yield Case("Tensor.backward", (T(d, (2, 3), grad=True), T(other, (2, 3), grad=True)),
                       program=_backward("two leaves, two dtypes"), tag="two leaves, two dtypes")
        yield Case("Tensor.backward", (T(d, (2, 3), grad=True), T(d, (3,), grad=True)), program=_backward("inputs="),
                   tag="inputs=")
        yield Case("Tensor.backward", (T(d, (2, 3), "grid", grad=True),), program=_backward("scalar"), tag="scalar")
        yield Case("Tensor.backward", (T(d, (6,), "special", grad=True),), program=_backward("gradient="),
                   tag="gradient=")
        for variant in GRAD_ONE:
            yield Case("torch.autograd.grad", (T(d, (2, 3), grad=True),), program=_autograd_grad(variant),
                       tag=variant)
        for variant in GRAD_TWO:
            yield Case("torch.autograd.grad", (T(d, (2, 3), grad=True), T(d, (3,), grad=True)),
                       program=_autograd_grad(variant), tag=variant)
        for variant in ("two tensors", "scalar", "grad_tensors=", "inputs=", "retain_graph", "tuple",
                        "mismatched grad_tensors"):
            yield Case("torch.autograd.backward", (T(d, (2, 3), grad=True), T(d, (3,), grad=True)),
                       program=_autograd_backward(variant), tag=variant)
        yield Case("Tensor.is_leaf", (T(d, (2, 3), grad=True),), program=_is_leaf)
        for variant in ("scalar", "gradient=", "retain_graph twice", "0-d"):
            yield Case("Tensor.backward", (T(d, (), grad=True),), program=_backward(variant), tag=variant)
        for variant in ("scalar", "second derivative", "non-scalar without grad_outputs"):
            yield Case("torch.autograd.grad", (T(d, (), grad=True),), program=_autograd_grad(variant), tag=variant)
        yield Case("torch.autograd.grad", (T(d, (0, 3), grad=True),), program=_autograd_grad("scalar"), tag="scalar")
        yield Case("Tensor.backward", (T(d, (0, 3), grad=True),), program=_backward("scalar"), tag="scalar")
    for d in ("float16", "bfloat16"):
        for variant in ("scalar", "gradient=", "retain_graph twice"):
            yield Case("Tensor.backward", (T(d, (2, 3), grad=True),), program=_backward(variant), tag=variant)
        yield Case("torch.autograd.grad", (T(d, (2, 3), grad=True),), program=_autograd_grad("second derivative"),
                   tag="second derivative")
    for d in DTYPES:
        yield Case("Tensor.requires_grad", (T(d, (2, 3)),), attr=True)
        yield Case("Tensor.is_leaf", (T(d, (2, 3)),), attr=True)
        yield Case("Tensor.grad", (T(d, (2, 3)),), attr=True)
        yield Case("Tensor.data", (T(d, (2, 3)),), attr=True)
        yield Case("Tensor.grad_fn", (T(d, (2, 3)),), program=_grad_fn("leaf"), tag="leaf")
        yield Case("Tensor.retains_grad", (T(d, (2, 3)),), attr=True)
        yield Case("Tensor.requires_grad_", (T(d, (2, 3)),))
        yield Case("Tensor.requires_grad_", (T(d, (2, 3)), False))
        yield Case("Tensor.requires_grad_", (T(d, (2, 3)),), {"requires_grad": True})
        yield Case("Tensor.backward", (T(d, (2, 3)),), program=_backward("int leaf"), tag="requires_grad_ first")
    for d in FLOATS:
        yield Case("Tensor.requires_grad", (T(d, (2, 3), grad=True),), attr=True)
        yield Case("Tensor.is_leaf", (T(d, (2, 3), grad=True),), attr=True)
        yield Case("Tensor.data", (T(d, (2, 3), grad=True),), attr=True)
        yield Case("Tensor.requires_grad_", (T(d, (2, 3), grad=True), False))


# ---------------------------------------------------------------------------------------------- gradient clipping

def _clip_norm_program(L, device, *grads, **kwargs):
    """Parameters whose .grad are the case's tensors (None for a None), clip_grad_norm_(params, **kwargs): the total
    norm it returns and the gradients after."""
    params = []
    for g in grads:
        if g is None:
            params.append(_leaf(L, device, (2,), "float32", "none"))
            continue
        p = L.zeros(tuple(g.shape), dtype=g.dtype, device=g.device).requires_grad_()
        p.grad = g
        params.append(p)
    total = L.nn.utils.clip_grad_norm_(params, **kwargs)
    return {"total": total, "grads": [p.grad for p in params]}


def _clip_value_program(L, device, *grads, **kwargs):
    params = []
    for g in grads:
        p = L.zeros(tuple(g.shape), dtype=g.dtype, device=g.device).requires_grad_()
        p.grad = g
        params.append(p)
    ret = L.nn.utils.clip_grad_value_(params, **kwargs)
    return {"returned": ret, "grads": [p.grad for p in params]}


def _clip_forms(variant):
    def program(L, device, g, **kwargs):
        p = L.zeros(tuple(g.shape), dtype=g.dtype, device=g.device).requires_grad_()
        p.grad = g
        if variant == "one tensor":
            total = L.nn.utils.clip_grad_norm_(p, **kwargs)
        elif variant == "generator":
            total = L.nn.utils.clip_grad_norm_((q for q in [p]), **kwargs)
        elif variant == "empty list":
            total = L.nn.utils.clip_grad_norm_([], **kwargs)
        elif variant == "module parameters":
            lin = L.nn.Linear(3, 2).to(device)
            for q in lin.parameters():
                q.grad = seeded(L, device, tuple(q.shape), seed="lin") * 5
            total = L.nn.utils.clip_grad_norm_(lin.parameters(), **kwargs)
            return {"total": total, "grads": [q.grad for q in lin.parameters()]}
        elif variant == "value one tensor":
            return [L.nn.utils.clip_grad_value_(p, **kwargs), p.grad]
        elif variant == "get_total_norm":
            return L.nn.utils.get_total_norm([g, g * 2], **kwargs)
        else:  # clip_grads_with_norm_
            L.nn.utils.clip_grads_with_norm_([p], total_norm=L.nn.utils.get_total_norm([g]), **kwargs)
            return p.grad
        return {"total": total, "grad": p.grad}

    return program


def clip_cases():
    norm = "torch.nn.utils.clip_grad_norm_"
    for d in ("float32", "float64", "float16", "bfloat16"):
        grads = (T(d, (3, 4)), T(d, (5,)))
        for kw in ({"max_norm": 1.0}, {"max_norm": 100.0}, {"max_norm": 0.5, "norm_type": 1}, {"max_norm": 0.5,
                   "norm_type": float("inf")}, {"max_norm": 0.5, "norm_type": 3.0}, {"max_norm": 0.5, "norm_type": 0.5},
                   {"max_norm": 1.0, "norm_type": 0}, {"max_norm": 1.0, "norm_type": -float("inf")},
                   {"max_norm": 0.0}, {"max_norm": 1.0, "norm_type": "inf"}, {"max_norm": 1, "foreach": False},
                   {"max_norm": 1.0, "foreach": True}, {"max_norm": 1.0, "error_if_nonfinite": True}):
            yield Case(norm, grads, kw, program=_clip_norm_program)
        yield Case(norm, (T(d, (3, 4), "grid"), T(d, (2,), (0.0, 0.0))), {"max_norm": 1.0}, program=_clip_norm_program)
        for kw in ({"max_norm": 1.0}, {"max_norm": 1.0, "error_if_nonfinite": True},
                   {"max_norm": 1.0, "norm_type": float("inf")}, {"max_norm": 1.0, "norm_type": 1}):
            yield Case(norm, (T(d, (12,), "special"), T(d, (3,))), kw, program=_clip_norm_program)
        yield Case(norm, (T(d, (2, 3)), T(d, (3,))), {"max_norm": 1.0}, program=_clip_norm_program)
        # large gradients whose squares overflow float16/bfloat16: PyTorch's norm accumulates in float32
        yield Case(norm, (T(d, (4,), (300.0, -400.0, 250.0, 1000.0)), T(d, (2,), (60000.0, 1.0))), {"max_norm": 1.0},
                   program=_clip_norm_program, tag="large")
        yield Case(norm, (T(d, (64,), (0.001, -0.002, 0.0005)),), {"max_norm": 0.01}, program=_clip_norm_program,
                   tag="small")
    yield Case(norm, (T("float32", (3,)), T("float16", (3,)), T("float64", (2,))), {"max_norm": 1.0},
               program=_clip_norm_program, tag="mixed dtypes")
    yield Case(norm, (T("float32", (3, 4)), None, T("float32", (2,))), {"max_norm": 1.0}, program=_clip_norm_program,
               tag="a None grad")
    for variant in ("one tensor", "generator", "empty list", "module parameters"):
        yield Case(norm, (T("float32", (3, 4)),), {"max_norm": 0.5}, program=_clip_forms(variant), tag=variant)
    value = "torch.nn.utils.clip_grad_value_"
    for d in ("float32", "float64", "float16", "bfloat16"):
        for kw in ({"clip_value": 0.5}, {"clip_value": 0}, {"clip_value": 10.0}, {"clip_value": 1, "foreach": False},
                   {"clip_value": 0.5, "foreach": True}):
            yield Case(value, (T(d, (3, 4)), T(d, (5,))), kw, program=_clip_value_program)
        yield Case(value, (T(d, (12,), "special"),), {"clip_value": 1.0}, program=_clip_value_program)
        yield Case(value, (T(d, (3, 4), "grid"),), {"clip_value": 0.5}, program=_clip_value_program)
    yield Case(value, (T("float32", (3, 4)),), {"clip_value": -1.0}, program=_clip_value_program, tag="negative")
    yield Case(value, (T("float32", (3, 4)),), {"clip_value": 0.5}, program=_clip_forms("value one tensor"),
               tag="one tensor")
    for d in ("float32", "float16"):
        for kw in ({}, {"norm_type": 1}, {"norm_type": float("inf")}):
            yield Case("torch.nn.utils.get_total_norm", (T(d, (3, 4)),), kw, program=_clip_forms("get_total_norm"))
        yield Case("torch.nn.utils.clip_grads_with_norm_", (T(d, (3, 4)),), {"max_norm": 0.5},
                   program=_clip_forms("clip_grads_with_norm_"))


def cases():
    yield from optimizer_cases()
    yield from base_optimizer_cases()
    yield from scheduler_cases()
    for c in autocast_cases():  # PyTorch's answers are its CPU autocast's (cuda's lists and default dtype differ)
        c.cpu_only = True
        yield c
    yield from grad_scaler_cases()
    yield from autograd_cases()
    yield from clip_cases()
