#!/usr/bin/env python3
"""The recorded cases that Porta's C++ API can express, for the C++ replay (tests/oracle/cpp): cpp_cases.json.gz.

The Python replay runs every case through Porta's Python API; this file lets cpp/test_oracle_replay.cpp run the
same cases, with the same input values and PyTorch's same answers, through porta.hpp, so that the two front doors
cannot drift apart. `oracle.py record` writes it after the answers; `export_cpp.py` alone writes it again from
answers.json.gz (no torch needed).

Each entry holds the case id (what the lists of known differences name), the C++ calls that spell it (`calls`:
"porta::add(a, b)", "a.add_(b)", or both "a < b" and "b > a" for a comparison), its operands (`args`: a tensor as
encoding.py writes one, holding the values engine.Run.make fed PyTorch; a Python scalar as {"bool": v}, {"int": v}
or {"float": repr(v)}, which the C++ call takes as bool, int64_t or double), a reduction's dims / dim / keepdim, how
values compare (`exact`, `tol`), and PyTorch's answer (`want`: the result and, for an in-place call, the tensor
arguments after it; or the error it raised). A case the C++ API cannot express is left out rather than
approximated: a name or call form it lacks (a scalar first in a function call, alpha=, out=, dtype=, axis=, max
with a dim, which is a (values, indices) pair in PyTorch), or inputs that are more than plain tensors (a layout
other than contiguous, requires_grad, a program), so that each tensor's values are one draw of the case's RNG.
"""
import base64
import gzip
import json
import os
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import answers  # noqa: E402
import engine  # noqa: E402
from encoding import _STORE  # noqa: E402
from spec import T  # noqa: E402

PATH = os.path.join(HERE, "cpp_cases.json.gz")

# porta.hpp's elementwise ops, by the shape of their C++ spellings (cpp/cpp_calls.cpp has an entry for each spelling)
UNARY = ("abs", "acos", "asin", "atan", "asinh", "ceil", "cos", "cosh", "erf", "erfinv", "exp", "exp2", "expm1",
         "floor", "log", "log10", "log1p", "log2", "neg", "round", "sigmoid", "sign", "sin", "sinh", "sqrt", "tan",
         "tanh", "trunc", "relu", "bitwise_not")  # the op table's UNARY kind: porta::exp(a), a.exp(), a.exp_()
UNARY_COMPOSITE = ("isnan", "isinf", "isfinite", "logical_not")  # no in-place form
BINARY = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2", "remainder", "fmod", "floor_divide",
          "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
          "bitwise_right_shift")  # b a Tensor, bool, int64_t or double; in place a.add_(b)
BINARY_COMPOSITE = ("logical_and", "logical_or", "logical_xor")  # no scalar overload (PyTorch's TypeError), no in place
# Python's operators that C++ has: a op b, b op a for the reflected one, and the compound assignments
OPERATORS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "mod": "%", "eq": "==", "ne": "!=", "lt": "<",
             "le": "<=", "gt": ">", "ge": ">=", "and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>"}
COMPOUND = {"iadd": "+=", "isub": "-=", "imul": "*=", "itruediv": "/=", "iand": "&=", "ior": "|=", "ixor": "^=",
            "ilshift": "<<=", "irshift": ">>="}
MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}  # a < b is b > a
# reductions: the Python name and the C++ spelling (PyTorch's amax is porta.hpp's max over dims; its max with a dim
# returns (values, indices), which porta.hpp has not, so only the full max is exported)
REDUCE = {"sum": "sum", "mean": "mean", "amax": "max", "amin": "min", "max": "max", "min": "min"}
ARGREDUCE = ("argmax", "argmin")
SCAN = ("cumsum", "cumprod")


def _scalar(v):
    if type(v) is bool:
        return {"bool": v}
    if type(v) is int:
        return {"int": v}
    if type(v) is float:
        return {"float": repr(v)}  # repr round-trips, and strtod reads nan, inf, -0.0
    return None


def _dims(dim):
    """A reduction's dim as porta::Dims ([] is every dim, as dim=None and dim=() are in PyTorch), else None."""
    if dim is None:
        return []
    if type(dim) is int:
        return [dim]
    if isinstance(dim, (tuple, list)) and all(type(d) is int for d in dim):
        return list(dim)
    return None


def _reduction(case, kind, args):
    """dims/dim and keepdim of a reduction's call (torch.sum(x, 1, True), x.sum(dim=(0, 2))), or None when porta.hpp
    has no spelling of it."""
    names = ("dim", "keepdim")
    if len(args) > 2 or set(case.kwargs) - set(names) or any(n in case.kwargs for n in names[:len(args)]):
        return None
    given = dict(zip(names, args), **case.kwargs)
    keepdim = given.get("keepdim", False)
    if type(keepdim) is not bool:
        return None
    dim = given.get("dim")
    if kind == "reduce":
        if case.name.endswith((".sum", ".mean")) and "dim" not in given and "keepdim" in given:
            return None  # PyTorch's sum and mean take keepdim only with dim; C++'s sum(a, {}, true) is dim=None's
        dims = _dims(dim)
        return None if dims is None else {"dims": dims, "keepdim": keepdim}
    if kind == "argreduce":
        return {"dim": dim, "keepdim": keepdim} if dim is None or type(dim) is int else None
    return {"dim": dim} if type(dim) is int and "keepdim" not in given else None  # scan: dim only


def cpp_calls(case):
    """(the C++ spellings of `case`, the reduction's arguments) or None where porta.hpp cannot express it."""
    space, _, name = case.name.partition(".")
    rest = case.args[1:]
    if space == "Tensor" and name.startswith("__"):
        core = name[2:-2]
        if core in ("neg", "invert") and not rest:
            return ["-a" if core == "neg" else "~a"], {}
        if len(rest) != 1 or case.kwargs:
            return None
        if core in OPERATORS:
            op = OPERATORS[core]
            return ([f"a {op} b"] + ([f"b {MIRROR[op]} a"] if op in MIRROR else [])), {}
        if core[0] == "r" and core[1:] in OPERATORS and core[1:] not in ("eq", "ne", "lt", "le", "gt", "ge"):
            return [f"b {OPERATORS[core[1:]]} a"], {}
        if core in COMPOUND:
            return [f"a {COMPOUND[core]} b"], {}
        return None
    fn = space == "torch"
    if space not in ("torch", "Tensor"):
        return None
    inplace = not fn and name.endswith("_")
    base = name[:-1] if inplace else name
    if base in UNARY + UNARY_COMPOSITE and not rest and not case.kwargs:
        if inplace and base not in UNARY:
            return None
        return [f"porta::{base}(a)" if fn else f"a.{name}()"], {}
    if base in BINARY + BINARY_COMPOSITE and len(rest) == 1 and not case.kwargs:
        if inplace and base not in BINARY:
            return None
        return [f"porta::{base}(a, b)" if fn else f"a.{name}(b)"], {}
    if inplace:
        return None
    if base in REDUCE:
        extra = _reduction(case, "reduce", rest)
        if extra is None or (base in ("max", "min") and (rest or case.kwargs)):
            return None
        cpp = REDUCE[base]
        return [f"porta::{cpp}(a, dims, keepdim)" if fn else f"a.{cpp}(dims, keepdim)"], extra
    if base in ARGREDUCE or base in SCAN:
        extra = _reduction(case, "argreduce" if base in ARGREDUCE else "scan", rest)
        if extra is None:
            return None
        what = "dim, keepdim" if base in ARGREDUCE else "dim"
        return [f"porta::{base}(a, {what})" if fn else f"a.{base}({what})"], extra
    return None


def _plain(case):
    """Whether the case's inputs are plain tensors and scalars made the simple way: contiguous, without grad, not a
    program (reductions.py's 0-d workaround, a no-op since the engine keeps 0-d arrays 0-d, aside)."""
    if case.grad or case.random or case.host or case.cpu_only or case.attr:
        return False
    if case.program is not None and not case.program.__qualname__.startswith("_fix_0d."):
        return False
    if not case.args or not isinstance(case.args[0], T):
        return False
    return all((isinstance(a, T) and a.layout == "contiguous" and not a.grad) or _scalar(a) is not None
               for a in case.args)


def _tensor_record(arr, dtype):
    store = np.dtype(_STORE.get(dtype, dtype))
    return {"dt": dtype, "shape": list(arr.shape),
            "v": base64.b64encode(np.ascontiguousarray(arr.astype(store)).tobytes()).decode()}


def _operands(case):
    """The case's operands with the values engine.Run.make draws for them, in its order (one draw per tensor)."""
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    return [_tensor_record(engine.values(a, tuple(a.shape), rng), a.dtype) if isinstance(a, T) else _scalar(a)
            for a in case.args]


def _want(record):
    """PyTorch's answer with what is the same in every exported case (the case's device, no requires_grad) taken
    out; None when a result is not a tensor on the case's device."""
    if "error" in record:
        return {"error": record["error"], "msg": record["msg"]}
    tensors = [record["r"]] + record.get("after", [])
    if not all(isinstance(t, dict) and "dt" in t and t["dev"] == "@" and not t["rg"] for t in tensors):
        return None
    strip = [{k: t[k] for k in ("dt", "shape", "v")} for t in tensors]
    return {"r": strip[0], "after": strip[1:]} if "after" in record else {"r": strip[0]}


def entries(cases, recorded):
    out = []
    for c in cases:
        spelled = cpp_calls(c) if _plain(c) else None
        want = _want(recorded[c.id]) if spelled else None
        if want is None:
            continue
        calls, extra = spelled
        entry = {"id": c.id, "calls": calls, "args": _operands(c), **extra, "want": want}
        if c.exact:
            entry["exact"] = True
        if c.tol != 1.0:
            entry["tol"] = c.tol
        out.append(entry)
    return out


def export(cases, data, path=PATH):
    """Writes the exportable cases of `data` (answers.json.gz's contents, just saved to answers.PATH) to `path`."""
    with open(answers.PATH, "rb") as f:
        crc = zlib.crc32(f.read())
    exported = entries(cases, data["answers"])
    doc = {"torch": data["torch"], "answers_crc32": crc, "cases": exported}
    raw = json.dumps(doc, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0) as z:  # the same cases, the same bytes
            z.write(raw)
    print(f"exported {len(exported)} of {len(cases)} cases for the C++ replay: {os.path.relpath(path)} "
          f"({os.path.getsize(path) / 1e3:.0f} kB)")


def main():
    import samples
    data = answers.load()
    cases = samples.all_cases()
    answers.check_fresh(data, cases)
    export(cases, data)


if __name__ == "__main__":
    main()
