"""Helpers for cases that are small programs rather than one call (Case.program): seeded
values made the same way in both libraries, a module's parameters set from them, a
backward with seeded cotangents, and a module's forward-and-backward as one program."""
import zlib

import numpy as np

from encoding import dtype_name
from engine import values
from spec import T


def seeded(L, device, shape, dtype="float32", kind="random", seed=0):
    """A tensor of `shape` whose values depend only on (shape, dtype, kind, seed): the same in both libraries."""
    rng = np.random.default_rng(zlib.crc32(repr((tuple(shape), dtype, kind, seed)).encode()))
    arr = values(T(dtype, tuple(shape), kind), tuple(shape), rng)
    t = L.from_numpy(np.array(arr.astype(np.float32 if dtype in ("float16", "bfloat16") else dtype), order="C")).clone()
    return t.to(getattr(L, dtype)).to(device)


def set_parameters(L, module, device, scale=0.5):
    """Every parameter of `module` set to seeded values (by its name and shape), so both libraries start alike."""
    with L.no_grad():
        for name, p in sorted(module.named_parameters()):
            p.copy_(seeded(L, device, tuple(p.shape), dtype_name(p.dtype), seed=name) * scale)
    return module


def backward(L, device, outputs):
    """backward() through every tensor of `outputs` that requires grad, with seeded cotangents."""
    flat = []

    def walk(x):
        if isinstance(x, L.Tensor):
            if x.requires_grad:
                flat.append(x)
        elif isinstance(x, (list, tuple)):
            for i in x:
                walk(i)
    walk(outputs)
    if flat:
        L.autograd.backward(flat, [seeded(L, device, tuple(t.shape), dtype_name(t.dtype), seed=f"cotangent{i}")
                                   for i, t in enumerate(flat)])


def module_program(build, train=True, grads=True):
    """A program that builds a module with build(L), moves it to the device, sets its parameters, runs it on the
    case's arguments (in train or eval mode), and returns its output, then (grads) every parameter's gradient after a
    backward through the output, every tensor argument's gradient, and the module's buffers after the call."""
    def program(L, device, *inputs, **kwargs):
        m = set_parameters(L, build(L).to(device), device)
        m.train(train)
        out = m(*inputs, **kwargs)
        result = {"out": out}
        if grads:
            backward(L, device, out)
            result["grads"] = {n: p.grad for n, p in sorted(m.named_parameters())}
            result["input_grads"] = [t.grad for t in inputs if isinstance(t, L.Tensor) and t.is_leaf]
        result["buffers"] = {n: b for n, b in sorted(m.named_buffers())}
        return result
    return program
