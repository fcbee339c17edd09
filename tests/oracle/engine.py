"""Runs one case through a library (the `torch` or the `porta` module: the same code drives
both, as Porta's Python API is PyTorch's) on a device, and writes down what came back:
the result, the tensor arguments after the call when the case mutates them, and the
gradients of its grad leaves after a backward with seeded cotangents; or the error.
"""
import copy
import operator
import warnings
import zlib

import numpy as np

from encoding import encode
from spec import FLOATS, D, Dev, NP, Seq, T

_SPECIAL = {
    "float": lambda fi: [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, float(fi.tiny), float(fi.max),
                         -float(fi.max), 3.0],
    "int": lambda ii: [ii.min, ii.max, 0, -1, 1, 7, ii.min + 1, 3],
    "uint": lambda ii: [0, 255, 1, 128, 127, 7, 254, 3],
    "bool": lambda _: [True, False, True, True, False, False, True, False],
}


def _finfo(dtype):
    import ml_dtypes
    return ml_dtypes.finfo(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.finfo(dtype)


def _round_to(arr, dtype):
    """float64 values rounded to `dtype` (float16/bfloat16 through their own rounding), kept as float64."""
    if dtype == "bfloat16":
        import ml_dtypes
        return arr.astype(ml_dtypes.bfloat16).astype(np.float64)
    return arr.astype(dtype).astype(np.float64)


def values(spec, shape, rng):
    """The NumPy array (float64, int64 or bool) of a tensor spec's values, of `shape`."""
    n = int(np.prod(shape, dtype=np.int64))
    kind, dtype = spec.values, spec.dtype
    if isinstance(kind, tuple):
        flat = np.resize(np.array(kind), n)
    elif kind.startswith("index:") or kind.startswith("neg_index:"):
        bound = int(kind.split(":")[1])
        flat = rng.integers(-bound if kind.startswith("neg") else 0, bound, n)
    elif dtype == "bool":
        flat = rng.random(n) < 0.5 if kind != "special" else np.resize(_SPECIAL["bool"](None), n)
    elif dtype in FLOATS:
        if kind == "special":
            flat = np.resize(np.array(_SPECIAL["float"](_finfo(dtype))), n)
        elif kind == "grid":
            flat = rng.integers(-8, 9, n) / 4
        elif kind == "positive":
            flat = np.abs(rng.standard_normal(n)) + 0.25
        elif kind == "unit":
            flat = rng.uniform(-0.95, 0.95, n)
        else:
            flat = rng.standard_normal(n) * 2
    else:
        ii = np.iinfo(dtype)
        if kind == "special":
            flat = np.resize(np.array(_SPECIAL["uint" if dtype == "uint8" else "int"](ii), dtype=np.int64), n)
        elif kind == "positive":
            flat = rng.integers(1, 10, n)
        else:
            flat = rng.integers(0, 19, n) if dtype == "uint8" else rng.integers(-9, 10, n)
    if dtype == "bool":
        return flat.astype(bool).reshape(shape)
    if dtype in FLOATS:
        return _round_to(flat.astype(np.float64), dtype).reshape(shape)
    return flat.astype(dtype).astype(np.int64).reshape(shape)


def _numpy_dtype(dtype):
    return np.float32 if dtype in ("float16", "bfloat16") else np.dtype(dtype)


class Run:
    """One case's run in one library: makes its arguments and remembers its tensors."""

    def __init__(self, L, device, case_id):
        self.L, self.device = L, device
        self.rng = np.random.default_rng(zlib.crc32(case_id.encode()))
        self.tensors, self.leaves = [], []

    def tensor(self, arr, dtype):
        L = self.L
        # np.array keeps a 0-d array 0-d (np.ascontiguousarray makes it 1-d); clone(): a tensor of its own
        # storage, resizable as an out= argument, not one borrowing NumPy's memory
        t = L.from_numpy(np.array(arr.astype(_numpy_dtype(dtype)), order="C")).clone()
        if dtype in ("float16", "bfloat16"):
            t = t.to(getattr(L, dtype))
        return t if self.device == "cpu" else t.to(self.device)

    def make(self, spec):
        shape = tuple(spec.shape)
        if spec.layout == "expanded":
            arr = values(spec, (1,) + shape[1:], self.rng)
            base = self.tensor(arr, spec.dtype)
        elif spec.layout == "transposed":
            arr = values(spec, shape, self.rng)
            base = self.tensor(np.swapaxes(arr, -1, -2), spec.dtype)
        elif spec.layout == "stepped":
            arr = values(spec, shape, self.rng)
            wide = np.zeros(shape[:-1] + (2 * shape[-1],), dtype=arr.dtype)
            wide[..., ::2] = arr
            base = self.tensor(wide, spec.dtype)
        else:
            base = self.tensor(values(spec, shape, self.rng), spec.dtype)
        if spec.grad:
            base.requires_grad_()
            self.leaves.append(base)
        if spec.layout == "expanded":
            t = base.expand(*shape)
        elif spec.layout == "transposed":
            t = base.transpose(-1, -2)
        elif spec.layout == "stepped":
            t = base[..., ::2]
        else:
            t = base
        self.tensors.append(t)
        return t

    def arg(self, a):
        if isinstance(a, T):
            return self.make(a)
        if isinstance(a, D):
            return getattr(self.L, a.name)
        if isinstance(a, Dev):
            return self.device
        if isinstance(a, NP):
            return np.array(a.value, dtype=a.dtype)[()]
        if isinstance(a, Seq):
            items = [self.arg(i) for i in a.items]
            return items if a.kind == "list" else tuple(items)
        if isinstance(a, dict):
            return {k: self.arg(v) for k, v in a.items()}
        return copy.deepcopy(a)  # a call that changes a list argument must not change the case

    def cotangent(self, t):
        name = str(t.dtype).replace("torch.", "").replace("porta.", "")
        return self.tensor(values(T(name, tuple(t.shape)), tuple(t.shape), self.rng), name)


_BINARY = {n: getattr(operator, n if n not in ("and", "or") else n + "_") for n in
           ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift",
            "rshift", "eq", "ne", "lt", "le", "gt", "ge")}
_UNARY = {"neg": operator.neg, "pos": operator.pos, "abs": operator.abs, "invert": operator.invert,
          "bool": bool, "int": int, "float": float, "len": len, "index": operator.index}


def operator_call(name, args):
    """Tensor.__add__(a, b) as `a + b`, __radd__ as `b + a`, __iadd__ as `a += b`; None when not an operator."""
    if not (name.startswith("__") and name.endswith("__")):
        return None
    core = name[2:-2]
    if core in _UNARY:
        return _UNARY[core](*args)
    if core == "getitem":
        return args[0][args[1]]
    if core == "setitem":
        args[0][args[1]] = args[2]
        return args[0]
    if core in _BINARY:
        return _BINARY[core](*args)
    if core[0] == "r" and core[1:] in _BINARY:
        return _BINARY[core[1:]](args[1], args[0])
    if core[0] == "i" and core[1:] in _BINARY:
        return getattr(operator, "i" + ("and" if core == "iand" else "or" if core == "ior" else core[1:]))(*args)
    return None


NAMESPACES = {"torch": lambda L: L, "F": lambda L: L.nn.functional, "nn": lambda L: L.nn,
              "optim": lambda L: L.optim, "lr_scheduler": lambda L: L.optim.lr_scheduler,
              "linalg": lambda L: L.linalg, "amp": lambda L: L.amp, "init": lambda L: L.nn.init}


def invoke(case, L, device, args, kwargs):
    if case.program is not None:
        return case.program(L, device, *args, **kwargs)
    space, _, attr = case.name.partition(".")
    if space == "Tensor":
        result = operator_call(attr, args)
        if result is not None or attr.startswith("__"):
            return result
        if case.attr:
            return getattr(args[0], attr)
        return getattr(args[0], attr)(*args[1:], **kwargs)
    target = NAMESPACES[space](L)
    for part in attr.split("."):
        target = getattr(target, part)
    return target(*args, **kwargs)


def _flat_tensors(x, L, out):
    if isinstance(x, L.Tensor):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for i in x:
            _flat_tensors(i, L, out)
    elif isinstance(x, dict):
        for i in x.values():
            _flat_tensors(i, L, out)
    return out


def _error(e):
    return {"error": type(e).__name__, "msg": str(e).split("\n")[0][:300]}


def run(case, L, device, read_values=True):
    """The record of running `case` with library L on `device` (see the module's doc); read_values=False
    leaves the values out (PyTorch's meta device, which has none)."""
    r = Run(L, device, case.id)
    meta_only = case.random or not read_values
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            args = [r.arg(a) for a in case.args]
            kwargs = {k: r.arg(v) for k, v in case.kwargs.items()}
            result = invoke(case, L, device, args, kwargs)
            record = {"r": encode(result, L, device, meta_only)}
        except Exception as e:  # noqa: BLE001 - any error is an answer to compare
            return _error(e)
        if case.mutates:
            record["after"] = [encode(t, L, device, meta_only) for t in r.tensors]
        if case.grad:
            outs = [t for t in _flat_tensors(result, L, []) if t.requires_grad]
            try:
                if outs:
                    L.autograd.backward(outs, [r.cotangent(t) for t in outs])
                record["g"] = [encode(leaf.grad, L, device, not read_values) for leaf in r.leaves]
            except Exception as e:  # noqa: BLE001
                record["g"] = _error(e)
    return record


def mark_host_results(record, elsewhere):
    """Answers are recorded on the CPU, where "the case's device" and "the CPU" look alike: where the same case
    run on another device (`elsewhere`, PyTorch's meta device) left a result on the CPU (an optimizer's step
    count, a module made inside a program, tolist()), that result's device becomes "cpu" in `record`."""
    if isinstance(record, dict) and isinstance(elsewhere, dict):
        if record.get("dev") == "@" and elsewhere.get("dev") == "cpu":
            record["dev"] = "cpu"
        if record.get("device") == "@" and elsewhere.get("device") == "cpu":
            record["device"] = "cpu"
        for key, value in record.items():
            if key in elsewhere:
                mark_host_results(value, elsewhere[key])
    elif isinstance(record, list) and isinstance(elsewhere, list) and len(record) == len(elsewhere):
        for a, b in zip(record, elsewhere):
            mark_host_results(a, b)
