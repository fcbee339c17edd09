"""Elementwise ops: unary and binary functions, their methods, in-place and out= forms,
Python's operators, and the composites (clamp, lerp, where, nan_to_num, addcmul, ...)."""
from spec import DTYPES, FLOATS, Case, T

from .common import SCALARS, SHAPES_0, SMALL_SCALARS, every_dtype, grad_inputs, layouts

UNARY = ("abs", "acos", "asin", "atan", "asinh", "ceil", "cos", "cosh", "erf", "erfinv", "exp", "exp2", "expm1",
         "floor", "log", "log10", "log1p", "log2", "neg", "reciprocal", "round", "rsqrt", "sigmoid", "sign", "sin",
         "sinh", "sqrt", "square", "tan", "tanh", "trunc", "relu", "bitwise_not", "logical_not", "isnan", "isinf",
         "isfinite")
UNARY_ALIASES = ("absolute", "arccos", "arcsin", "arctan", "arcsinh", "fix", "negative")
BINARY = ("add", "sub", "mul", "div", "floor_divide", "remainder", "fmod", "pow", "atan2", "maximum", "minimum",
          "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift")
NO_INPLACE = ("maximum", "minimum")  # PyTorch has no Tensor.maximum_ (Porta's is its own, not compared)
BINARY_ALIASES = ("true_divide", "divide", "multiply", "subtract", "arctan2")
# Python operators with the binary function they are
OPERATORS = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div", "floordiv": "floor_divide",
             "mod": "remainder", "pow": "pow", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
             "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}


def _on_nonleaf(name):
    """An in-place op on a non-leaf (x * 1), so autograd records it; the leaf's gradient is compared."""
    return lambda L, device, x, *rest, **kw: getattr(x * 1, name)(*rest, **kw)


def unary(name, full=True):
    fn = f"torch.{name}"
    for t in every_dtype((2, 3)) + every_dtype((12,), values="special"):
        yield Case(fn, (t,))
    if not full:
        yield Case(f"Tensor.{name}", (T("float32", (2, 3)),))
        yield Case(f"Tensor.{name}_", (T("float32", (2, 3)),), mutates=True)
        return
    for shape in SHAPES_0:
        yield Case(fn, (T("float32", shape),))
    for t in layouts():
        yield Case(fn, (t,))
    for t in grad_inputs():
        yield Case(fn, (t,), grad=True)
    for d in ("float32", "int64", "bool"):
        yield Case(f"Tensor.{name}", (T(d, (2, 3)),))
    for t in every_dtype((2, 3)):
        yield Case(f"Tensor.{name}_", (t,), mutates=True)
    yield Case(f"Tensor.{name}_", (T("float32", (2, 3), layout="expanded"),), mutates=True)
    yield Case(f"Tensor.{name}_", (T("float32", (2, 3), grad=True),), tag="leaf")
    yield Case(f"Tensor.{name}_", (T("float32", (2, 3), grad=True),), program=_on_nonleaf(name + "_"), grad=True)
    for out in ("float32", "float64", "int32", "bool"):
        yield Case(fn, (T("float32", (2, 3)),), {"out": T(out, (2, 3))}, mutates=True)
    yield Case(fn, (T("int64", (2, 3)),), {"out": T("float32", (2, 3))}, mutates=True)


def binary(name, full=True):
    fn = f"torch.{name}"
    for a in DTYPES:
        for b in DTYPES:
            yield Case(fn, (T(a, (2, 3)), T(b, (3,))))
    if not full:
        for a in ("float32", "int64"):
            yield Case(fn, (T(a, (3,)), 2))
            yield Case(f"Tensor.{name}", (T(a, (3,)), T(a, (3,))))
            yield Case(f"Tensor.{name}_", (T(a, (3,)), T(a, (3,))), mutates=True)
        return
    for a in DTYPES:
        for b in DTYPES:
            yield Case(fn, (T(a, (3,)), T(b, ())), tag="0-d")
    for a in DTYPES:
        for s in SCALARS:
            yield Case(fn, (T(a, (3,)), s))
    for a in ("float32", "int64", "bool"):
        for s in SMALL_SCALARS:
            yield Case(fn, (s, T(a, (3,))))
    for d in DTYPES:
        yield Case(fn, (T(d, (12,), "special"), T(d, (12, 1), "special")))
    for t in layouts():
        yield Case(fn, (t, T("float32", (3, 4), layout="transposed")))
    for shape in SHAPES_0:
        yield Case(fn, (T("float32", shape), T("float32", shape[-1:])))
    yield Case(fn, (T("float32", (2, 3)), T("float32", (4,))), tag="mismatch")
    for a, b in zip(grad_inputs(), grad_inputs((12, 1))):
        yield Case(fn, (a, b), grad=True)
    yield Case(fn, (T("float32", (3,), grad=True), 2.5), grad=True)
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float64", (3,), grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (), grad=True)), grad=True)
    for a in DTYPES:
        yield Case(f"Tensor.{name}", (T(a, (2, 3)), T(a, (2, 3))))
    if name in NO_INPLACE:
        return
    for a in DTYPES:
        for b in DTYPES:
            yield Case(f"Tensor.{name}_", (T(a, (2, 3)), T(b, (3,))), mutates=True)
        for s in SMALL_SCALARS:
            yield Case(f"Tensor.{name}_", (T(a, (3,)), s), mutates=True)
    yield Case(f"Tensor.{name}_", (T("float32", (3,)), T("float32", (2, 3))), mutates=True, tag="grows")
    yield Case(f"Tensor.{name}_", (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True)),
               program=_on_nonleaf(name + "_"), grad=True)
    for out in ("float32", "float64", "int64", "bool"):
        yield Case(fn, (T("float32", (2, 3)), T("float32", (3,))), {"out": T(out, (2, 3))}, mutates=True)
    yield Case(fn, (T("int32", (2, 3)), 3), {"out": T("int64", (2, 3))}, mutates=True)


def alpha_and_rounding():
    for name in ("add", "sub"):
        for d in DTYPES:
            for alpha in (2, 0.5, True, -1):
                yield Case(f"torch.{name}", (T(d, (2, 3)), T(d, (3,))), {"alpha": alpha})
                yield Case(f"Tensor.{name}_", (T(d, (2, 3)), T(d, (3,))), {"alpha": alpha}, mutates=True)
            yield Case(f"torch.{name}", (T(d, (3,)), 3), {"alpha": 2})
        yield Case(f"torch.{name}", (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True)),
                   {"alpha": -2.5}, grad=True)
        yield Case(f"torch.{name}", (T("float32", (3,)), T("float32", (3,))), {"alpha": 2, "out": T("float32", (3,))},
                   mutates=True)
    for mode in (None, "trunc", "floor"):
        for d in DTYPES:
            yield Case("torch.div", (T(d, (2, 3)), T(d, (3,), "positive")), {"rounding_mode": mode})
            yield Case("torch.div", (T(d, (12,), "special"), T(d, (12, 1), "special")), {"rounding_mode": mode})
            yield Case("torch.div", (T(d, (3,)), -3), {"rounding_mode": mode})
            yield Case("Tensor.div_", (T(d, (3,)), 2), {"rounding_mode": mode}, mutates=True)
        yield Case("torch.div", (T("float32", (3, 4), grad=True), T("float32", (4,), "positive", grad=True)),
                   {"rounding_mode": mode}, grad=True)
    yield Case("torch.div", (T("float32", (3,)), 2), {"rounding_mode": "round"})


def operators():
    for op, fn in OPERATORS.items():
        for d in DTYPES:
            for s in SCALARS:
                yield Case(f"Tensor.__{op}__", (T(d, (3,)), s))
                yield Case(f"Tensor.__r{op}__", (T(d, (3,)), s))
            yield Case(f"Tensor.__i{op}__", (T(d, (3,)), 2), mutates=True)
            yield Case(f"Tensor.__i{op}__", (T(d, (3,)), 2.5), mutates=True)
            yield Case(f"Tensor.__{op}__", (T(d, (2, 3)), T("int64", (3,))))
            yield Case(f"Tensor.__{op}__", (T(d, (2, 3)), T("float32", (3,))))
            yield Case(f"Tensor.__{op}__", (T(d, (2, 3)), T("bool", (3,))))
            yield Case(f"Tensor.__i{op}__", (T(d, (2, 3)), T(d, (3,))), mutates=True)
    for cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
        for d in DTYPES:
            for s in (True, 3, -3, 300, 2**60 + 1, 2.5, float("nan"), float("inf")):
                yield Case(f"Tensor.__{cmp}__", (T(d, (3,)), s))
            yield Case(f"Tensor.__{cmp}__", (T(d, (2, 3)), T("float32", (3,))))
    for d in DTYPES:
        for op in ("neg", "pos", "abs", "invert"):
            yield Case(f"Tensor.__{op}__", (T(d, (2, 3)),))
        yield Case("Tensor.__matmul__", (T(d, (2, 3)), T(d, (3, 2))))
        yield Case("Tensor.__rmatmul__", (T(d, (2, 3)), T(d, (3, 2))))
        yield Case("Tensor.__imatmul__", (T(d, (2, 2)), T(d, (2, 2))), mutates=True)
        for op in ("bool", "int", "float", "index"):
            yield Case(f"Tensor.__{op}__", (T(d, ()),))
            yield Case(f"Tensor.__{op}__", (T(d, (1,)),))
        yield Case("Tensor.__len__", (T(d, (2, 3)),))
    yield Case("Tensor.__bool__", (T("float32", (2,)),))
    yield Case("Tensor.__len__", (T("float32", ()),))
    for op in ("add", "sub", "mul", "truediv", "pow"):
        yield Case(f"Tensor.__{op}__", (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True)), grad=True)
        yield Case(f"Tensor.__r{op}__", (T("float32", (2, 3), grad=True), 2.5), grad=True)


def clamp_family():
    bounds = ((-0.5, 0.5), (None, 0.5), (-0.5, None), (1, 2), (0.5, -0.5), (float("nan"), 1.0), (-3, 3),
              (300, None), (True, None))
    for name in ("clamp", "clip"):
        for d in DTYPES if name == "clamp" else ("float32", "int64"):
            for lo, hi in bounds:
                yield Case(f"torch.{name}", (T(d, (2, 3)),), {"min": lo, "max": hi})
            yield Case(f"torch.{name}", (T(d, (12,), "special"),), {"min": -1, "max": 1})
            yield Case(f"torch.{name}", (T(d, (2, 3)), T(d, (3,)), T(d, (3,))))
            yield Case(f"torch.{name}", (T(d, (2, 3)),), {"min": T("float32", (3,))})
            yield Case(f"Tensor.{name}_", (T(d, (2, 3)),), {"min": -1, "max": 1}, mutates=True)
            yield Case(f"Tensor.{name}", (T(d, (2, 3)), -1, 1))
        yield Case(f"torch.{name}", (T("float32", (3,)),))
        for g in grad_inputs():
            yield Case(f"torch.{name}", (g,), {"min": -0.5, "max": 1.0}, grad=True)
        yield Case(f"torch.{name}", (T("float32", (2, 3), "grid", grad=True),), {"min": -0.5, "max": 0.5}, grad=True,
                   tag="at the bounds")
        yield Case(f"torch.{name}", (T("float32", (2, 3), "grid", grad=True), T("float32", (3,), "grid", grad=True),
                                     T("float32", (3,), "grid", grad=True)), grad=True)
    for name in ("clamp_min", "clamp_max"):
        for d in DTYPES:
            for b in (0.5, -3, 300, True, float("nan")):
                yield Case(f"torch.{name}", (T(d, (2, 3)), b))
            yield Case(f"torch.{name}", (T(d, (2, 3)), T(d, (3,))))
            yield Case(f"Tensor.{name}", (T(d, (2, 3)), 1))
            yield Case(f"Tensor.{name}_", (T(d, (2, 3)), 1), mutates=True)
        yield Case(f"torch.{name}", (T("float32", (2, 3), "grid", grad=True), 0.5), grad=True)


def ternary():
    for d in FLOATS:
        for w in (0.5, 0, 1, 2.5, T(d, (3,), "unit"), T(d, ())):
            yield Case("torch.lerp", (T(d, (2, 3)), T(d, (3,)), w))
        yield Case("Tensor.lerp_", (T(d, (2, 3)), T(d, (3,)), 0.25), mutates=True)
        yield Case("Tensor.lerp", (T(d, (2, 3)), T(d, (3,)), 0.25))
    for d in ("int64", "bool"):
        yield Case("torch.lerp", (T(d, (3,)), T(d, (3,)), 0.5))
    yield Case("torch.lerp", (T("float32", (3,)), T("float64", (3,)), 0.5))
    yield Case("torch.lerp", (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True),
                              T("float32", (2, 3), "unit", grad=True)), grad=True)
    yield Case("torch.lerp", (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True), 0.75), grad=True)
    for name in ("addcmul", "addcdiv"):
        for d in DTYPES:
            yield Case(f"torch.{name}", (T(d, (2, 3)), T(d, (3,)), T(d, (2, 1), "positive")))
            yield Case(f"torch.{name}", (T(d, (2, 3)), T(d, (3,)), T(d, (2, 1), "positive")), {"value": 2})
            yield Case(f"Tensor.{name}_", (T(d, (2, 3)), T(d, (3,)), T(d, (2, 1), "positive")), {"value": 0.5},
                       mutates=True)
            yield Case(f"Tensor.{name}", (T(d, (2, 3)), T(d, (3,)), T(d, (2, 1), "positive")))
        yield Case(f"torch.{name}", (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True),
                                     T("float32", (2, 1), "positive", grad=True)), {"value": -1.5}, grad=True)
        yield Case(f"torch.{name}", (T("float32", (3,)), T("float64", (3,)), T("float32", (3,))))


def where_family():
    for d in DTYPES:
        yield Case("torch.where", (T("bool", (2, 3)), T(d, (2, 3)), T(d, (3,))))
        yield Case("torch.where", (T("bool", (2, 3)), T(d, (3,)), T("float32", ())))
        for s in (0, 2.5, True, -3, 2**60 + 1):
            yield Case("torch.where", (T("bool", (2, 3)), T(d, (3,)), s))
            yield Case("torch.where", (T("bool", (2, 3)), s, T(d, (3,))))
        yield Case("torch.where", (T(d, (2, 3)),))
        yield Case("Tensor.where", (T(d, (2, 3)), T("bool", (3,)), 0))
        yield Case("torch.where", (T(d, (2, 3)), T("float32", (3,)), T("float32", (3,))), tag="non-bool condition")
    for a, b in ((1, 2), (1.5, 2), (True, False), (1, 2.5), (2**60 + 1, 0)):
        yield Case("torch.where", (T("bool", (2, 3)), a, b))
    yield Case("torch.where", (T("bool", ()),))
    yield Case("torch.where", (T("bool", (0, 3)),))
    yield Case("torch.where", (T("bool", (2, 3)), T("float32", (2, 3), grad=True), T("float32", (3,), grad=True)),
               grad=True)
    yield Case("torch.where", (T("bool", (3,)), T("float64", (3,), "special", grad=True), 0.0), grad=True)


def nan_to_num():
    for d in DTYPES:
        for kw in ({}, {"nan": 1.5}, {"posinf": 7.0, "neginf": -7.0}, {"nan": 0.0, "posinf": 1e30}):
            yield Case("torch.nan_to_num", (T(d, (12,), "special"),), kw)
        yield Case("Tensor.nan_to_num_", (T(d, (12,), "special"),), {"nan": 2.0}, mutates=True)
        yield Case("Tensor.nan_to_num", (T(d, (12,), "special"),), {"posinf": 2.0})
    yield Case("torch.nan_to_num", (T("float64", (12,), "special", grad=True),), grad=True)


def cases():
    for name in UNARY:
        yield from unary(name)
    for name in UNARY_ALIASES:
        yield from unary(name, full=False)
    for name in BINARY:
        yield from binary(name)
    for name in BINARY_ALIASES:
        yield from binary(name, full=False)
    yield from alpha_and_rounding()
    yield from operators()
    yield from clamp_family()
    yield from ternary()
    yield from where_family()
    yield from nan_to_num()
    for d in DTYPES:
        yield Case("torch.float_power", (T(d, (3,)), 2))
