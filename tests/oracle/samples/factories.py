"""Tensor creation and conversion: torch.tensor / as_tensor / from_numpy / from_dlpack, the size
factories (zeros, ones, full, empty, arange, linspace, logspace, eye) and their *_like forms, the
random factories and in-place samplers, dtype and device conversions (Tensor.to, .float(), .type(),
.cpu(), .item(), .tolist(), .numpy()), detach / clone / fill_ / zero_ / copy_, the dtype rules
(promote_types, result_type, can_cast, finfo, iinfo, the default dtype), torch.dtype, torch.device,
torch.Size, torch.Tensor(...), generators and the global random state, threads, save / load and
OutOfMemoryError.

Random draws differ between the libraries, so a draw is compared by its dtype, shape, device and
requires_grad only (random=True); a draw whose value is certain (p in {0, 1}, std 0, one class with
all the probability, a range of one integer) is compared by value; what PyTorch guarantees of its
random state (a seed replays the same draw, get_rng_state/set_rng_state replays it, a Generator is
independent of the global one) is checked by programs that return booleans.

A factory call without device= makes its tensor on the CPU whatever the case's device: such cases
are host=True; the others pass device=Dev().

Two helpers stand in for what the engine does not do yet: _zero_d makes the T(..., ()) arguments of a
case 0-d (the engine makes them 1-element 1-d tensors), and _out_resized makes an out= tensor that
PyTorch may resize (the engine's tensors come from from_numpy, whose storage PyTorch cannot resize).
"""
import dataclasses
import os
import tempfile

import numpy as np

try:
    import ml_dtypes  # noqa: F401 - registers NumPy's bfloat16, which NP("bfloat16", ...) makes
except ImportError:
    pass

from engine import invoke
from spec import DTYPES, FLOATS, NP, Case, D, Dev, Seq, T

from .common import SCALARS, SHAPES_0, SMALL_SCALARS, every_dtype, layouts

NUMPY_DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")
# NumPy dtypes PyTorch reads (from_numpy, tensor) that Porta has no dtype for, and ones PyTorch refuses too
NUMPY_OTHER = ("uint16", "uint32", "uint64", "complex64", "complex128", "longdouble")
TYPE_NAMES = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
              "bfloat16": "BFloat16Tensor", "int8": "CharTensor", "int16": "ShortTensor", "int32": "IntTensor",
              "int64": "LongTensor", "uint8": "ByteTensor", "bool": "BoolTensor"}
CONVERSIONS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16", "int": "int32",
               "long": "int64", "short": "int16", "char": "int8", "byte": "uint8", "bool": "bool"}
FILLS = (True, False, 0, 3, -3, 300, 3_000_000_000, 2**60 + 1, -2**63, 2**63, 2.5, -1.5, 2.0, -0.0, float("nan"),
         float("inf"), float("-inf"))
SMALL_FILLS = (True, 3, -3, 300, 2**60 + 1, 2.5, -0.0, float("nan"), float("inf"))


# ---------------------------------------------------------------------------------------------------------------
# torch.tensor, torch.as_tensor

TENSOR_DATA = (
    # 0-d from each Python kind (SCALARS: bool, small and huge ints, floats, -0.0, NaN, infinities)
    *SCALARS, 2**63 - 1, 2**63, -2**63 - 1, 2**64, 1e300, 1e-300, 2**53 + 1,
    # nested lists of one kind
    [True, False, True], [1, 2, 3], [1.5, -2.0, 3.25], [[1, 2], [3, 4]], [[True], [False]], [[1.5, 2.5, 3.5]],
    [[[1], [2]], [[3], [4]]], (1, 2, 3), ((1.5, 2.5), (3.5, 4.5)), [(1, 2), (3, 4)], ([1, 2], [3, 4]),
    # mixed kinds: the widest kind wins
    [True, 2], [True, 2.5], [1, 2.5], [[1, 2], [3.5, 4]], [[True, False], [2, 3]], [False, 0, 0.0],
    [1, float("nan")], [2, float("inf")], [-0.0, 0],
    # huge ints in lists
    [1, 2**60 + 1], [2**63 - 1, -2**63], [1, 2**63], [2**64], [0.5, 2**63], [2**53 + 1, 1],
    # empty and ragged
    [], [[]], [[], []], [[[]]], [[], [1]], [[1, 2], [3]], [1, [2]], [[1], 2],
    # not numbers
    "abc", ["a"], [None], None, [1, None],
)
# NumPy scalars and arrays: their dtype is kept
NP_DATA = (
    NP("float64", 1.5), NP("float32", 1.5), NP("float16", 1.5), NP("int64", 7), NP("int32", -7), NP("int16", 300),
    NP("int8", -5), NP("uint8", 200), NP("bool", True), NP("float64", float("nan")), NP("int64", 2**62),
    NP("uint16", 7), NP("uint32", 7), NP("uint64", 2**63), NP("complex64", 1.0), NP("bfloat16", 1.5),
    *(NP(d, (1, 0, 3)) for d in NUMPY_DTYPES + NUMPY_OTHER), NP("bfloat16", (1.5, -2.0)),
    NP("float64", ((1.5, 2.5), (3.5, 4.5))), NP("int32", ((1, 2, 3),)), NP("float32", ()), NP("int64", ((),)),
    NP("float64", (float("nan"), float("inf"), -0.0)),
)
NP_LISTS = (
    Seq((NP("float64", 1.5), NP("float64", 2.0))), Seq((NP("float32", 1.5), NP("float32", 2.0))),
    Seq((NP("int32", 1), NP("int32", 2))), Seq((NP("float64", 1.5), 2)), Seq((1, NP("float64", 2.5))),
    Seq((NP("float16", 1.5), NP("float32", 2.5))), Seq((NP("bool", True), NP("bool", False))),
    Seq((NP("uint8", 1), NP("int8", 2))), Seq((NP("int64", 1), 2.5)), Seq((True, NP("int16", 3))),
    Seq((NP("float64", (1.5, 2.5)), NP("float64", (3.5, 4.5)))), Seq((NP("float32", (1.5, 2.5)), (3, 4))),
)
DTYPE_DATA = ([1.5, -2.7, 300.0, 0.5], [1, -1, 300, 2**31], [True, False], [float("nan"), float("inf"), -0.0],
              [2**60 + 1, -2**60], 2.5, -1, [], [[1, 2.5], [True, 4]])


def tensor_cases():
    for i, data in enumerate(TENSOR_DATA):
        yield Case("torch.tensor", (data,), host=True)
        if i % 3 == 0:
            yield Case("torch.tensor", (data,), {"device": Dev()})
    for data in NP_DATA + NP_LISTS:
        yield Case("torch.tensor", (data,), host=True)
    for d in DTYPES:
        for data in DTYPE_DATA:
            yield Case("torch.tensor", (data,), {"dtype": D(d), "device": Dev()})
        yield Case("torch.tensor", (NP("float64", (1.5, -2.5, 300.0)),), {"dtype": D(d)}, host=True)
        yield Case("torch.tensor", (NP("int64", (1, -1, 300)),), {"dtype": D(d)}, host=True)
        yield Case("torch.tensor", (NP("float64", 1.5),), {"dtype": D(d)}, host=True)
        yield Case("torch.tensor", (T(d, (2, 3)),))
        yield Case("torch.tensor", (T(d, (2, 3)),), {"dtype": D("float64")})
        yield Case("torch.tensor", (Seq((T(d, ()), T(d, ()))),), host=True)
        yield Case("torch.tensor", ([1.5, 2.5],), {"dtype": D(d), "requires_grad": True, "device": Dev()})
    for data in (Seq((T("float32", ()), 2.5)), Seq((T("int64", ()), 2.5)),
                 Seq((T("float32", (2,)), T("float32", (2,)))),
                 Seq((T("float32", (1,)), T("float32", (1,)))), Seq((T("float32", ()), T("int64", ())))):
        yield Case("torch.tensor", (data,), host=True)
    for t in layouts() + [T("float32", (3,), grad=True), T("float64", (12,), "special")]:
        yield Case("torch.tensor", (t,))
    for kw in ({"requires_grad": True}, {"requires_grad": False}, {"dtype": float}, {"dtype": int}, {"dtype": bool},
               {"dtype": "float32"}, {"dtype": None}, {"device": "cpu"}, {"pin_memory": False}):
        yield Case("torch.tensor", ([1, 2],), kw, host=True)
        yield Case("torch.tensor", (2.5,), kw, host=True)
    yield Case("torch.tensor", ([1.5, 2.5],), {"requires_grad": True}, grad=True, host=True)
    yield Case("torch.tensor", (1.5,), {"requires_grad": True}, program=_tensor_grad, tag="leaf grad")
    # as_tensor: copies Python data, keeps a tensor or an array of the right dtype
    for data in TENSOR_DATA[:40] + NP_DATA[:16]:
        yield Case("torch.as_tensor", (data,), host=True)
    for data in ([1, 2, 3], [1.5, 2.5], NP("float64", (1.5, 2.5)), NP("int32", (1, 2)), NP("float64", 1.5)):
        for d in ("float32", "float64", "float16", "bfloat16", "int32", "int64", "uint8", "bool"):
            yield Case("torch.as_tensor", (data,), {"dtype": D(d)}, host=True)
        yield Case("torch.as_tensor", (data,), {"device": Dev()})
    for d in DTYPES:
        yield Case("torch.as_tensor", (T(d, (2, 3)),))
        yield Case("torch.as_tensor", (T(d, (2, 3)),), {"dtype": D("float32")})
        yield Case("torch.as_tensor", (T(d, (2, 3)),), {"device": Dev(), "dtype": D("int64")})
    for t in layouts() + [T("float32", (3,), grad=True)]:
        yield Case("torch.as_tensor", (t,))
    yield Case("torch.as_tensor", (T("float32", (3,), grad=True),), grad=True)
    yield Case("torch.as_tensor", (T("float32", (3,), grad=True),), {"dtype": D("float64")}, grad=True)
    for d in ("float32", "int64"):
        yield Case("torch.as_tensor", (T(d, (3,)),), program=_as_tensor_shares, tag="shares a tensor")
        yield Case("torch.as_tensor", (T(d, (3,)), D("float64")), program=_as_tensor_shares, tag="copies to a dtype")
    for d in ("float32", "float64", "int64", "uint8", "bool"):
        yield Case("torch.as_tensor", (d,), program=_as_tensor_shares_numpy, tag="shares an array")
    yield Case("torch.as_tensor", ("float32", D("float64")), program=_as_tensor_shares_numpy, tag="copies an array")
    yield Case("torch.as_tensor", ([1.5, 2.5],), program=_as_tensor_list_copy, tag="copies a list")


def _tensor_grad(L, device, v, **kw):
    t = L.tensor(v, **kw)
    (t * 3).backward()
    return {"t": t, "leaf": t.is_leaf, "grad": t.grad}


def _as_tensor_shares(L, device, x, dtype=None):
    t = L.as_tensor(x) if dtype is None else L.as_tensor(x, dtype=dtype)
    t[0] = 5
    return {"source": x, "result": t, "same object": t is x}


def _as_tensor_shares_numpy(L, device, dtype, to=None):
    arr = np.arange(4).astype(dtype)
    t = L.as_tensor(arr) if to is None else L.as_tensor(arr, dtype=to)
    arr[0] = 1
    return {"result": t, "array": arr.tolist()}


def _as_tensor_list_copy(L, device, data):
    data = list(data)  # the case's own list stays as it is
    t = L.as_tensor(data)
    data[0] = 9.0
    return t


# ---------------------------------------------------------------------------------------------------------------
# torch.from_numpy, torch.from_dlpack

def _array(dtype, shape, kind="arange"):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return (np.arange(n) % 3 == 0).reshape(shape)
    if dtype == "longdouble":
        return (np.arange(n) - 2.5).astype(np.longdouble).reshape(shape)
    if kind == "special" and np.dtype(dtype).kind == "f":
        return np.resize(np.array([np.nan, np.inf, -np.inf, -0.0, 1.0, 0.5], dtype=dtype), n).reshape(shape)
    base = np.arange(n) - (2 if np.dtype(dtype).kind in "ifc" else 0)
    return base.astype(dtype).reshape(shape)


def _from_numpy_program(how):
    def program(L, device, dtype, shape=(2, 3), **kw):
        arr = _array(dtype, shape)
        if how == "transposed":
            arr = arr.T
        elif how == "stepped":
            arr = arr[..., ::2]
        elif how == "negative strides":
            arr = arr[..., ::-1]
        elif how == "read-only":
            arr.flags.writeable = False
        elif how == "big-endian":
            arr = arr.astype(arr.dtype.newbyteorder(">"))
        elif how == "fortran":
            arr = np.asfortranarray(arr)
        elif how == "broadcast":
            arr = np.broadcast_to(arr[:1], shape)
        elif how == "special":
            arr = _array(dtype, shape, "special")
        t = L.from_numpy(arr)
        if how == "shares":
            arr.flat[0] = 1
            t.view(-1)[1] = 0
            return {"tensor": t, "array": arr.tolist()}
        return t
    return program


FROM_NUMPY_HOW = ("plain", "shares", "transposed", "stepped", "negative strides", "read-only", "big-endian", "fortran",
                  "broadcast", "special")


def from_numpy_cases():
    for d in NUMPY_DTYPES + NUMPY_OTHER:
        for shape in ((2, 3), (), (0,), (2, 0, 3)):
            yield Case("torch.from_numpy", (d, shape), program=_from_numpy_program("plain"), host=True)
    for how in FROM_NUMPY_HOW[1:]:
        for d in ("float32", "float64", "int64", "uint8", "bool", "float16"):
            if how == "special" and d in ("int64", "uint8", "bool"):
                continue
            yield Case("torch.from_numpy", (d,), program=_from_numpy_program(how), tag=how, host=True)
    for arg in ([1.0, 2.0], NP("float64", 1.5), NP("float32", (1.5, 2.5)), NP("int64", ((1, 2), (3, 4))), 1.5,
                T("float32", (3,)), NP("bfloat16", (1.5, 2.5))):
        yield Case("torch.from_numpy", (arg,), host=True)
    # from_dlpack: a NumPy array, a tensor of the same library, a raw capsule
    for d in NUMPY_DTYPES:
        yield Case("torch.from_dlpack", (d,), program=_from_dlpack_numpy, tag="a numpy array", host=True)
    for d in DTYPES:
        yield Case("torch.from_dlpack", (T(d, (2, 3)),))
        yield Case("torch.from_dlpack", (T(d, (2, 3)),), program=_from_dlpack_capsule, tag="a capsule")
    for t in layouts() + [T("float32", ()), T("float32", (0,)), T("float32", (2, 0, 3))]:
        yield Case("torch.from_dlpack", (t,))
    for d in ("float32", "int64"):
        yield Case("torch.from_dlpack", (T(d, (3,)),), program=_from_dlpack_shares, tag="shares")
    yield Case("torch.from_dlpack", (T("float32", (3,), grad=True),))
    yield Case("torch.from_dlpack", (T("float32", (3,), grad=True),), program=_from_dlpack_detached, tag="detached",
               grad=True)
    yield Case("torch.from_dlpack", ([1.0, 2.0],))
    yield Case("torch.from_dlpack", ("float32",), program=_from_dlpack_readonly, tag="read-only array", host=True)


def _from_dlpack_numpy(L, device, dtype):
    arr = _array(dtype, (2, 3))
    t = L.from_dlpack(arr)
    arr.flat[0] = 1
    return {"tensor": t, "dtype": t.dtype, "shape": t.shape}


def _from_dlpack_capsule(L, device, x):
    return L.from_dlpack(x.__dlpack__())


def _from_dlpack_shares(L, device, x):
    t = L.from_dlpack(x)
    t[1] = 7
    return {"source": x, "result": t}


def _from_dlpack_detached(L, device, x):
    return L.from_dlpack(x.detach()) * x


def _from_dlpack_readonly(L, device, dtype):
    arr = _array(dtype, (3,))
    arr.flags.writeable = False
    return L.from_dlpack(arr)


# ---------------------------------------------------------------------------------------------------------------
# zeros, ones, empty, full; the *_like forms

SIZE_ARGS = ((2, 3), ((2, 3),), ([2, 3],), ((),), ((0,),), ((2, 0, 3),), (0,), (4,), (), (1, 1, 1, 1))
BAD_SIZES = ((-1,), ((2, -3),), (2.5,), ((2.0, 3),), ("3",), ((2, None),), (None,), (2**62, 2**62))


def _size_program(name):
    def program(L, device, *shape, **kw):
        return getattr(L, name)(L.Size(shape), **kw)
    return program


def size_factory_cases():
    for name in ("zeros", "ones", "empty"):
        random = name == "empty"
        fn = f"torch.{name}"
        for args in SIZE_ARGS:
            yield Case(fn, args, random=random, host=True)
            yield Case(fn, args, {"device": Dev()}, random=random)
        for args in BAD_SIZES:
            yield Case(fn, args, random=random, host=True)
        for d in DTYPES:
            yield Case(fn, (2, 3), {"dtype": D(d), "device": Dev()}, random=random)
            yield Case(fn, ((0, 3),), {"dtype": D(d)}, random=random, host=True)
            yield Case(fn, (3,), {"dtype": D(d), "requires_grad": True}, random=random, host=True)
        for dt in (float, int, bool, "float64", None):
            yield Case(fn, (2,), {"dtype": dt}, random=random, host=True)
        yield Case(fn, (), {"size": (2, 3)}, random=random, host=True)
        yield Case(fn, (2, 3), {"size": (2, 3)}, random=random, host=True)
        yield Case(fn, (2, 3), {"out": T("float32", (2, 3))}, mutates=True, random=random)
        yield Case(fn, (2, 3), {"out": ("int64", (6,))}, program=_out_resized(name), random=random,
                   tag="out= resized")
        yield Case(fn, (2, 3), {"requires_grad": True, "device": Dev()}, random=random, grad=True)
        yield Case(fn, (2, 3), program=_size_program(name), random=random, tag="torch.Size", host=True)
        yield Case(fn, (2, 3), {"pin_memory": False}, random=random, host=True)
        yield Case(fn, (2, 3), {"layout": None}, random=random, host=True)
    # full
    for size in ((2, 3), ()):
        for v in FILLS:
            yield Case("torch.full", (size, v), {"device": Dev()})
    for size in ([2, 3], (0,), (2, 0, 3)):
        for v in (True, 3, 2.5, float("nan")):
            yield Case("torch.full", (size, v), {"device": Dev()})
    for v in (NP("float64", 1.5), NP("float32", 1.5), NP("int32", 7), NP("int64", 2**40), NP("bool", True),
              NP("float16", 0.5), NP("uint8", 200), NP("float64", float("nan"))):
        yield Case("torch.full", ((3,), v), host=True)
    for d in DTYPES:
        yield Case("torch.full", ((3,), T(d, ())), host=True)
        yield Case("torch.full", ((3,), T(d, (1,))), host=True)
        for v in SMALL_FILLS + (2**63, -1.5, False):
            yield Case("torch.full", ((2, 3), v), {"dtype": D(d), "device": Dev()})
        yield Case("torch.full", ((3,), 1.5), {"dtype": D(d), "requires_grad": True}, host=True)
    yield Case("torch.full", ((3,), 2.5), {"requires_grad": True}, host=True)
    yield Case("torch.full", (), {"size": (2, 3), "fill_value": 1.5}, host=True)
    yield Case("torch.full", ((2, 3), 1.5), {"out": T("float32", (2, 3))}, mutates=True)
    yield Case("torch.full", ((2, 3), 7), {"out": T("int64", (2, 3))}, mutates=True)
    yield Case("torch.full", ((2, 3), 1.5), {"dtype": float}, host=True)
    yield Case("torch.full", ((2, 3), 1.5), {"dtype": int}, host=True)
    yield Case("torch.full", (2, 1.5), host=True)
    yield Case("torch.full", ((2, -1), 1.5), host=True)
    yield Case("torch.full", ((2, 3), "a"), host=True)
    yield Case("torch.full", ((2, 3), None), host=True)
    yield Case("torch.full", (2, 3), program=_size_full, tag="torch.Size", host=True)


def _out_resized(name):
    """torch.<name>(*args, out=) into an out= tensor of another shape, which PyTorch resizes. The program makes that
    tensor: the engine's come from from_numpy, whose storage PyTorch cannot resize ("Trying to resize storage that is
    not resizable")."""
    def program(L, device, *args, out):
        out_dtype, out_shape = out
        out = L.zeros(out_shape, dtype=getattr(L, out_dtype), device=device)
        r = getattr(L, name)(*args, out=out)
        return {"result": r, "out": out, "is out": r is out}
    return program


def _size_full(L, device, *shape):
    return L.full(L.Size(shape), 2.5)


LIKE = {"zeros_like": (), "ones_like": (), "empty_like": (), "full_like": (2.5,), "rand_like": (), "randn_like": (),
        "randint_like": (10,)}
RANDOM_LIKE = ("empty_like", "rand_like", "randn_like", "randint_like")


def like_cases():
    for name, extra in LIKE.items():
        fn, random = f"torch.{name}", name in RANDOM_LIKE
        for t in every_dtype((2, 3)) + [T("float32", s) for s in SHAPES_0] + layouts() + layouts("int64"):
            yield Case(fn, (t,) + extra, random=random)
        for d in DTYPES:
            yield Case(fn, (T("float32", (2, 3)),) + extra, {"dtype": D(d)}, random=random)
            if not random or d in FLOATS:
                yield Case(fn, (T("int64", (2, 3)),) + extra, {"dtype": D(d), "device": Dev()}, random=random)
        yield Case(fn, (T("float32", (2, 3), grad=True),) + extra, random=random)
        yield Case(fn, (T("float32", (2, 3)),) + extra, {"requires_grad": True}, random=random)
        yield Case(fn, (T("int64", (2, 3)),) + extra, {"requires_grad": True}, random=random)
        yield Case(fn, (T("float32", (2, 3)),) + extra, {"device": Dev(), "dtype": None}, random=random)
        yield Case(fn, (T("float32", (2, 3)),) + extra, {"device": "cpu"}, random=random, host=True)
        yield Case(fn, (T("float32", (2, 3)),) + extra, {"dtype": float}, random=random)
        yield Case(fn, (T("float32", (2, 3)),) + extra, {"memory_format": None}, random=random)
        yield Case(fn, ([1.0, 2.0],) + extra, random=random)
    for d in DTYPES:
        for v in SMALL_FILLS + (2**63, -1.5):
            yield Case("torch.full_like", (T(d, (4,)), v))
        yield Case("torch.full_like", (T(d, (3,)), T("float32", ())))
        yield Case("torch.full_like", (T(d, (3,)), NP("float64", 1.5)))
        yield Case("torch.full_like", (T(d, (3,)), 2.5), {"dtype": D("float64")}, tag="override")
    yield Case("torch.full_like", (T("float32", (2, 3)),), {"fill_value": 1.5})
    for args in ((3,), (-2, 3), (5, 5), (5, 3), (0, 300), (2**40,)):
        for d in ("float32", "int64", "uint8", "bool"):
            yield Case("torch.randint_like", (T(d, (2, 3)),) + args, random=True)
    yield Case("torch.randint_like", (T("float32", (2, 3)),), {"high": 5}, random=True)
    yield Case("torch.randint_like", (T("float32", (2, 3)),), {"low": 2, "high": 5}, random=True)
    yield Case("torch.randint_like", (T("int64", (2, 3)), 3, 4), tag="certain")
    yield Case("torch.randint_like", (T("float64", (2, 3)), -1, 0), tag="certain")
    yield Case("torch.randint_like", (T("int64", (2, 3)), 1), tag="certain")


# ---------------------------------------------------------------------------------------------------------------
# arange, linspace, logspace, eye

ARANGE_ARGS = ((5,), (0,), (-3,), (1, 5), (5, 1), (1, 1), (5, 1, -1), (0, 5, 2), (0, 10, 3), (10, 0, -3),
               (0, 5, -1), (5, 0, 1), (0, 5, 0), (0, 5, 0.0), (2.5,), (0.5,), (-2.5,), (0, 1, 0.1), (1, 0, -0.1),
               (-1.5, 2.5, 0.5), (0, 5, 1.5), (0, 1, 0.3), (1, 2.5), (1.0, 4), (0, 3, 1.0), (0, 1, 1e-7 * 2**20),
               (2**60, 2**60 + 5), (-2**63, -2**63 + 3), (2**60, 2**60 + 10, 3), (0, 2**53 + 4, 2**52),
               (0, float("inf")), (0, float("nan")), (float("-inf"), 0), (0, 1, float("inf")), (True,), (0, 3, True),
               (-0.0, 2), (0, 5.5, 0.5), (0, 5, 1e-300), (0, 2**40, 2**37), (0.1, 0.7, 0.2), (3, -3, -1.5))


def arange_cases():
    for args in ARANGE_ARGS:
        yield Case("torch.arange", args, host=True)
    for args in ((5,), (0, 5, 1.5), (-3, 3), (0.5, 3), (0, 300, 50), (-1.5, 2.5, 0.5), (5, 0, -1),
                 (2**60, 2**60 + 3), (0, 0)):
        for d in DTYPES:
            yield Case("torch.arange", args, {"dtype": D(d), "device": Dev()})
    for d in ("int64", "int32", "float32", "float64"):
        for v in ((5,), (2.5,), (-3,)):
            yield Case("torch.arange", (T(d, (), v),), host=True)
        yield Case("torch.arange", (T(d, (), (1,)), T(d, (), (7,)), T(d, (), (2,))), host=True)
        yield Case("torch.arange", (T(d, (2,), (1, 2)),), host=True)
    for args in ((NP("float64", 2.5),), (NP("int64", 5),), (NP("int32", 1), 5), (0, NP("float32", 2.0)),
                 (NP("int64", 0), NP("int64", 6), NP("int64", 2))):
        yield Case("torch.arange", args, host=True)
    yield Case("torch.arange", (5,), {"end": 7}, host=True)
    yield Case("torch.arange", (), {"end": 5}, host=True)
    yield Case("torch.arange", (), {"start": 1, "end": 5, "step": 2}, host=True)
    yield Case("torch.arange", (1, 5), {"step": 2}, host=True)
    yield Case("torch.arange", (5,), {"requires_grad": True}, host=True)
    yield Case("torch.arange", (5.0,), {"requires_grad": True}, host=True)
    yield Case("torch.arange", (5.0,), {"dtype": D("float64"), "requires_grad": True, "device": Dev()})
    yield Case("torch.arange", (5,), {"dtype": float}, host=True)
    yield Case("torch.arange", (5,), {"device": Dev()})
    yield Case("torch.arange", (5,), {"out": T("int64", (5,))}, mutates=True)
    yield Case("torch.arange", (5,), {"out": ("float32", (3,))}, program=_out_resized("arange"),
               tag="out= resized")
    yield Case("torch.arange", (0, 1, 0.25), {"out": T("float64", (4,))}, mutates=True)
    yield Case("torch.arange", ("5",), host=True)
    yield Case("torch.arange", (None,), host=True)


LINSPACE_ARGS = ((0, 1, 5), (0, 1, 1), (0, 1, 0), (0, 1, 2), (1, 0, 5), (0, 10, 7), (-1, 1, 2), (0, 10, 4),
                 (0, 5, 4), (-5, 5, 4), (10, 0, 4), (0, 255, 7), (0.5, 2.5, 3), (0, 1, 33), (3, 3, 4), (0, 1, -1),
                 (0, 1, 2.5), (0.0, 1e-8, 3), (-0.0, 0.0, 2), (float("nan"), 1, 3), (0, float("inf"), 3),
                 (2**60, 2**60 + 8, 3), (-2.5, 2.5, 6), (1, 2, True))


def space_cases():
    for name in ("linspace", "logspace"):
        fn = f"torch.{name}"
        for args in LINSPACE_ARGS if name == "linspace" else LINSPACE_ARGS[::2] + ((0, 1, 1), (2, 0, 5)):
            yield Case(fn, args, host=True)
        for args in ((0, 10, 5), (-1.5, 2.5, 6), (0, 5, 4), (10, 0, 4), (0, 300, 4), (-5, 5, 3), (0, 1, 1)):
            if name == "logspace" and args not in ((0, 10, 5), (-1.5, 2.5, 6), (0, 1, 1)):
                continue
            for d in DTYPES:
                yield Case(fn, args, {"dtype": D(d), "device": Dev()})
        yield Case(fn, (0, 1), {"steps": 5}, host=True)
        yield Case(fn, (), {"start": 0, "end": 1, "steps": 3}, host=True)
        yield Case(fn, (0, 1, 5), {"requires_grad": True}, host=True)
        yield Case(fn, (0, 1, 5), {"dtype": D("int64"), "requires_grad": True}, host=True)
        yield Case(fn, (0, 1, 5), {"device": Dev()})
        yield Case(fn, (0, 1, 5), {"dtype": float}, host=True)
        yield Case(fn, (0, 1, 5), {"out": T("float32", (5,))}, mutates=True)
        yield Case(fn, (0, 1, 5), {"out": ("float64", (2,))}, program=_out_resized(name),
                   tag="out= resized")
        for d in ("float32", "float64", "int64"):
            yield Case(fn, (T(d, (), (1,)), T(d, (), (3,)), 5), host=True)
            yield Case(fn, (T(d, (), (1,)), 3, 5), host=True)
            yield Case(fn, (0, T(d, (), (3,)), 5), host=True)
        yield Case(fn, (T("float32", (2,), (0, 1)), 3, 5), host=True)
        yield Case(fn, (NP("float64", 0.5), NP("float64", 2.5), 5), host=True)
        yield Case(fn, (0, 1, NP("int64", 5)), host=True)
    for base in (2, 2.0, 10.0, 0.5, -2, 0, 1, float("inf"), True, 1e10):
        yield Case("torch.logspace", (0, 3, 4), {"base": base}, host=True)
        yield Case("torch.logspace", (-2, 2, 5), {"base": base, "dtype": D("float64")}, host=True)
    for d in DTYPES:
        yield Case("torch.logspace", (0, 3, 4), {"base": 2, "dtype": D(d)}, host=True)
    yield Case("torch.logspace", (0, 3, 4, 2.0), host=True)
    # eye
    for args in ((3,), (2, 3), (3, 2), (0,), (0, 3), (3, 0), (1,), (1, 1), (-1,), (3, -1), (2.5,), (3, None)):
        yield Case("torch.eye", args, host=True)
        yield Case("torch.eye", args, {"device": Dev()})
    for d in DTYPES:
        yield Case("torch.eye", (3,), {"dtype": D(d)}, host=True)
        yield Case("torch.eye", (2, 4), {"dtype": D(d), "device": Dev()})
    yield Case("torch.eye", (3,), {"m": 4}, host=True)
    yield Case("torch.eye", (), {"n": 3}, host=True)
    yield Case("torch.eye", (), {"n": 2, "m": 3}, host=True)
    yield Case("torch.eye", (3,), {"requires_grad": True}, host=True)
    yield Case("torch.eye", (3,), {"dtype": D("int64"), "requires_grad": True}, host=True)
    yield Case("torch.eye", (3,), {"dtype": float}, host=True)
    yield Case("torch.eye", (3,), {"out": T("float32", (3, 3))}, mutates=True)
    yield Case("torch.eye", (2, 3), {"out": ("int64", (2, 2))}, program=_out_resized("eye"),
               tag="out= resized")


# ---------------------------------------------------------------------------------------------------------------
# random factories and in-place samplers

def random_factory_cases():
    for name in ("rand", "randn"):
        fn = f"torch.{name}"
        for args in SIZE_ARGS:
            yield Case(fn, args, random=True, host=True)
            yield Case(fn, args, {"device": Dev()}, random=True)
        for args in BAD_SIZES:
            yield Case(fn, args, random=True, host=True)
        for d in DTYPES:
            yield Case(fn, (2, 3), {"dtype": D(d), "device": Dev()}, random=True)
        yield Case(fn, (2, 3), {"requires_grad": True}, random=True, host=True)
        yield Case(fn, (2, 3), {"dtype": D("int64"), "requires_grad": True}, random=True, host=True)
        yield Case(fn, (), {"size": (2, 3)}, random=True, host=True)
        yield Case(fn, (2, 3), {"dtype": float}, random=True, host=True)
        yield Case(fn, (2, 3), {"out": T("float32", (2, 3))}, random=True, mutates=True)
        yield Case(fn, (2, 3), {"out": ("float64", (4,))}, program=_out_resized(name), random=True,
                   tag="out= resized")
        yield Case(fn, (2, 3), {"pin_memory": False}, random=True, host=True)
        yield Case(fn, (2, 3), program=_size_program(name), random=True, tag="torch.Size", host=True)
        yield Case(fn, (2, 3), program=_with_generator(name), random=True, tag="generator", host=True)
    # randint
    for args in ((10, (3,)), (-5, 5, (2, 3)), (0, 2**40, (3,)), (5, 5, (3,)), (5, 3, (3,)), (10, ()), (10, (0,)),
                 (0, 2**63 - 1, (3,)), (-2**63, 0, (3,)), (0, 2**63, (3,)), (2.5, (3,)), (0, 2.5, (3,)), (10, 3),
                 (10,), (10, [2, 3]), (-3, (3,))):
        yield Case("torch.randint", args, random=True, host=True)
    for d in DTYPES:
        for args in ((0, 2, (2, 3)), (-5, 5, (3,)), (0, 300, (3,))):
            yield Case("torch.randint", args, {"dtype": D(d), "device": Dev()}, random=True)
        yield Case("torch.randint", (3, 4, (2, 3)), {"dtype": D(d)}, tag="certain", host=True)
    yield Case("torch.randint", (0, 1, (2, 3)), tag="certain", host=True)
    yield Case("torch.randint", (1, (4,)), tag="certain", host=True)
    yield Case("torch.randint", (10,), {"size": (2, 3)}, random=True, host=True)
    yield Case("torch.randint", (), {"low": 2, "high": 10, "size": (2, 3)}, random=True, host=True)
    yield Case("torch.randint", (), {"high": 10, "size": (2,)}, random=True, host=True)
    yield Case("torch.randint", (10, (3,)), {"requires_grad": True}, random=True, host=True)
    yield Case("torch.randint", (10, (3,)), {"dtype": D("float32"), "requires_grad": True}, random=True, host=True)
    yield Case("torch.randint", (10, (3,)), {"dtype": float}, random=True, host=True)
    yield Case("torch.randint", (10, (3,)), {"out": T("int64", (3,))}, random=True, mutates=True)
    yield Case("torch.randint", (10, (3,)), program=_with_generator("randint"), random=True, tag="generator",
               host=True)
    for lo, hi in ((0, 10), (-5, 5), (250, 256)):
        yield Case("torch.randint", (lo, hi), program=_randint_bounds, tag="bounds", host=True)
    # normal
    for args in ((T("float32", (2, 3)), T("float32", (2, 3), "positive")), (T("float32", (2, 3)), 1.0),
                 (0.0, T("float32", (2, 3), "positive")), (0.0, 1.0, (2, 3)), (2.0, 3.0, (0,)), (2.0, 3.0, ()),
                 (T("float32", (2, 3)), T("float32", (3,), "positive")), (T("float32", (3,)), T("float32", (2, 3))),
                 (T("float32", (6,)), T("float32", (2, 3), "positive")), (T("float32", (2, 3)), -1.0),
                 (0.0, -1.0, (3,)), (T("float32", (3,)), T("float32", (3,), (-1.0, 1.0, 1.0))),
                 (T("float32", (3,)), T("float64", (3,), "positive")), (T("float32", (3,)), float("nan")),
                 (float("nan"), 1.0, (3,)), (0.0, float("inf"), (3,)), (0, 1, (3,)), (T("float32", (3,)),),
                 (T("float32", ()), 1.0), (T("float32", (0,)), 1.0), (0.0, 1.0, [2, 3]), (0.0, 1.0)):
        yield Case("torch.normal", args, random=True, host=not any(isinstance(a, T) for a in args))
    for d in DTYPES:
        yield Case("torch.normal", (T(d, (4,)), 1.0), random=True)
        yield Case("torch.normal", (0.0, 1.0, (2, 3)), {"dtype": D(d), "device": Dev()}, random=True)
    yield Case("torch.normal", (0.0, 1.0), {"size": (2, 3)}, random=True, host=True)
    yield Case("torch.normal", (T("float32", (3,)), 1.0), {"size": (3,)}, random=True)
    yield Case("torch.normal", (0.0, 1.0, (3,)), {"requires_grad": True}, random=True, host=True)
    yield Case("torch.normal", (T("float32", (3,)), 1.0), {"out": T("float32", (3,))}, random=True, mutates=True)
    yield Case("torch.normal", (0.0, 1.0, (3,)), program=_with_generator("normal"), random=True, tag="generator",
               host=True)
    yield Case("torch.normal", (T("float32", (2, 3)), 0.0), tag="certain")
    yield Case("torch.normal", (2.5, 0.0, (2, 3)), tag="certain", host=True)
    yield Case("torch.normal", (T("float64", (2, 3)), T("float64", (3,), (0.0,))), tag="certain")
    yield Case("torch.normal", (T("float32", (2, 3), grad=True), 0.0), grad=True, tag="certain")
    yield Case("torch.normal", (T("float32", (2, 3), grad=True), 1.0), grad=True, random=True)
    yield Case("torch.normal", (T("float32", (2, 3), grad=True), T("float32", (2, 3), "positive")), grad=True,
               random=True)
    yield Case("torch.normal", (T("float32", (2, 3)), T("float32", (2, 3), "positive", grad=True)), random=True,
               tag="std requires grad")
    # bernoulli
    probs = (0.0, 1.0, 0.5, 0.25, 1.0, 0.0)
    for d in DTYPES:
        yield Case("torch.bernoulli", (T(d, (2, 3), probs),), random=True)
        yield Case("torch.bernoulli", (T(d, (2, 3), (0.0, 1.0, 1.0, 0.0, 0.0, 1.0)),), tag="certain")
        yield Case("torch.bernoulli", (T(d, (2, 3)),), {"p": 0.5}, random=True)
        yield Case("torch.bernoulli", (T(d, (2, 3)),), {"p": 1.0}, tag="certain")
        yield Case("Tensor.bernoulli", (T(d, (2, 3), probs),), random=True)
        yield Case("Tensor.bernoulli", (T(d, (2, 3)), 0.0), tag="certain")
        for p in (0.5, 0.0, 1.0, T("float32", (2, 3), probs), T("float64", (3,), (1.0, 0.0, 1.0))):
            yield Case("Tensor.bernoulli_", (T(d, (2, 3)), p), mutates=True, random=p == 0.5 or
                       (isinstance(p, T) and p.shape == (2, 3)))
        yield Case("Tensor.bernoulli_", (T(d, (2, 3)),), mutates=True, random=True)
    for bad in ((1.5,), (-0.5,), (float("nan"),), (float("inf"),)):
        yield Case("torch.bernoulli", (T("float32", (3,), bad),), random=True)
        yield Case("torch.bernoulli", (T("float32", (3,)),), {"p": bad[0]}, random=True)
        yield Case("Tensor.bernoulli_", (T("float32", (3,)), bad[0]), mutates=True, random=True)
    for shape in SHAPES_0:
        yield Case("torch.bernoulli", (T("float32", shape, "unit"),), random=True)
    for t in layouts(values=(0.0, 1.0, 0.0)):
        yield Case("torch.bernoulli", (t,), tag="certain")
    yield Case("torch.bernoulli", (T("float32", (2, 3), probs),), {"out": T("float32", (2, 3))}, random=True,
               mutates=True)
    yield Case("torch.bernoulli", (T("float32", (2, 3), probs, grad=True),), random=True, tag="input requires grad")
    yield Case("torch.bernoulli", (T("float32", (2, 3), probs),), program=_with_generator("bernoulli"),
               random=True, tag="generator")
    yield Case("Tensor.bernoulli_", (T("float32", (2, 3), grad=True), 0.5), mutates=True, random=True,
               tag="leaf requires grad")
    yield Case("Tensor.bernoulli_", (T("float32", (2, 3)), T("float32", (4,), "unit")), mutates=True, random=True,
               tag="p mismatch")
    yield Case("Tensor.bernoulli_", (T("float32", (2, 3)),), {"p": 0.0}, mutates=True)
    # multinomial
    for fn in ("torch.multinomial", "Tensor.multinomial"):
        for args in ((T("float32", (4,), "positive"), 2), (T("float32", (4,), "positive"), 4),
                     (T("float32", (4,), "positive"), 5), (T("float32", (4,), "positive"), 5, True),
                     (T("float32", (2, 4), "positive"), 3), (T("float32", (2, 4), "positive"), 6, True),
                     (T("float32", (4,), (0.0, 0.0, 0.0, 0.0)), 1), (T("float32", (4,), (1.0, -1.0, 2.0, 1.0)), 1),
                     (T("float32", (4,), (1.0, float("nan"), 2.0, 1.0)), 1),
                     (T("float32", (4,), (1.0, float("inf"), 2.0, 1.0)), 1), (T("float32", (4,), "positive"), 0),
                     (T("float32", (4,), "positive"), -1), (T("float32", (), "positive"), 1),
                     (T("float32", (2, 2, 2), "positive"), 1), (T("float32", (0,)), 1),
                     (T("float32", (0, 4), "positive"), 2), (T("float32", (4,), (0.0, 0.0, 1.0, 0.0)), 2),
                     (T("float32", (4,), "positive"), 2.0)):
            yield Case(fn, args, random=True)
        for d in DTYPES:
            yield Case(fn, (T(d, (4,), "positive"), 1), random=True)
        yield Case(fn, (T("float32", (4,), "positive"), 3), {"replacement": True}, random=True)
        yield Case(fn, (T("float32", (4,), (0.0, 0.0, 1.0, 0.0)), 1), tag="certain")
        yield Case(fn, (T("float32", (4,), (0.0, 0.0, 1.0, 0.0)), 3, True), tag="certain")
        yield Case(fn, (T("float64", (3, 3), (0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 5.0, 0.0, 0.0)), 1), tag="certain")
        yield Case(fn, (T("float32", (2, 4), "positive", layout="transposed"), 2), random=True)
    yield Case("torch.multinomial", (T("float32", (4,), "positive"), 2), {"out": T("int64", (2,))}, random=True,
               mutates=True)
    yield Case("torch.multinomial", (T("float32", (4,), "positive"), 2), program=_with_generator("multinomial"),
               random=True, tag="generator")
    yield Case("torch.multinomial", (T("float32", (2, 6), "positive"), 6), program=_multinomial_distinct,
               tag="distinct")
    # randperm
    for n in (0, 1, 5, 2**20, -1, 2.5):
        yield Case("torch.randperm", (n,), random=n not in (0, 1), host=True)
    for d in DTYPES:
        yield Case("torch.randperm", (5,), {"dtype": D(d), "device": Dev()}, random=True)
        yield Case("torch.randperm", (300,), {"dtype": D(d)}, random=True, host=True)
    yield Case("torch.randperm", (5,), {"dtype": D("float32"), "requires_grad": True}, random=True, host=True)
    yield Case("torch.randperm", (5,), {"requires_grad": True}, random=True, host=True)
    yield Case("torch.randperm", (5,), {"out": T("int64", (5,))}, random=True, mutates=True)
    yield Case("torch.randperm", (5,), program=_with_generator("randperm"), random=True, tag="generator", host=True)
    for n in (1, 7, 64):
        yield Case("torch.randperm", (n,), program=_randperm_is_permutation, tag="a permutation")
    for name in ("rand", "randn", "randint", "normal", "bernoulli", "multinomial", "randperm", "uniform_",
                 "normal_", "bernoulli_"):
        yield Case(f"torch.{name}" if not name.endswith("_") else f"Tensor.{name}", (name,),
                   program=_random_properties, tag="properties")


def _draw(L, name, generator=None, device="cpu"):
    kw = {} if generator is None else {"generator": generator}
    if name == "rand":
        return L.rand(64, device=device, **kw)
    if name == "randn":
        return L.randn(64, device=device, **kw)
    if name == "randint":
        return L.randint(-5, 5, (64,), device=device, **kw)
    if name == "normal":
        return L.normal(2.0, 3.0, (64,), device=device, **kw)
    if name == "bernoulli":
        return L.bernoulli(L.full((64,), 0.5, device=device), **kw)
    if name == "multinomial":
        return L.multinomial(L.ones(8, device=device), 8, **kw)
    if name == "randperm":
        return L.randperm(16, device=device, **kw)
    if name == "uniform_":
        return L.zeros(64, device=device).uniform_(-2.0, 3.0, **kw)
    if name == "normal_":
        return L.zeros(64, device=device).normal_(1.0, 2.0, **kw)
    if name == "bernoulli_":
        return L.zeros(64, device=device).bernoulli_(0.5, **kw)
    if name == "rand_like":
        return L.rand_like(L.zeros(64, device=device))
    raise ValueError(name)


def _with_generator(name):
    def program(L, device, *args, **kw):
        g = L.Generator()
        g.manual_seed(3)
        return getattr(L, name)(*args, generator=g, **kw)
    return program


def _randint_bounds(L, device, lo, hi):
    x = L.randint(lo, hi, (256,))
    return {"dtype": x.dtype, "low": bool((x >= lo).all()), "high": bool((x < hi).all()),
            "reaches both ends": bool((x == lo).any()) and bool((x == hi - 1).any())}


def _multinomial_distinct(L, device, probs, n):
    x = L.multinomial(probs, n)
    return [sorted(row) for row in x.tolist()]


def _randperm_is_permutation(L, device, n):
    x = L.randperm(n, device=device)
    return {"sorted": sorted(x.tolist()) == list(range(n)), "dtype": x.dtype, "device": x.device}


def _random_properties(L, device, name):
    """What PyTorch guarantees of one sampler: the same seed replays the same draw (globally and with a Generator),
    get_rng_state/set_rng_state replays it, a Generator's draws leave the global stream alone, and the values
    lie where the distribution puts them."""
    L.manual_seed(1234)
    a = _draw(L, name, device=device)
    L.manual_seed(1234)
    b = _draw(L, name, device=device)
    state = L.get_rng_state()
    c = _draw(L, name, device=device)
    L.set_rng_state(state)
    d = _draw(L, name, device=device)
    e = _draw(L, name, device=device)
    g = L.Generator()
    g.manual_seed(1234)
    f = _draw(L, name, g, device=device)
    L.manual_seed(1234)
    g.manual_seed(99)
    _draw(L, name, g, device=device)
    h = _draw(L, name, device=device)
    zero_one = lambda x: bool(((x == 0) | (x == 1)).all())  # noqa: E731
    ok = {"rand": lambda x: bool(((x >= 0) & (x < 1)).all()), "uniform_": lambda x: bool(((x >= -2) & (x < 3)).all()),
          "randint": lambda x: bool(((x >= -5) & (x < 5)).all()), "bernoulli": zero_one, "bernoulli_": zero_one,
          "randperm": lambda x: sorted(x.tolist()) == list(range(16)),
          "multinomial": lambda x: sorted(x.tolist()) == list(range(8))}.get(name, lambda x: bool(x.isfinite().all()))
    return {"seed replays": bool(L.equal(a, b)), "state replays": bool(L.equal(c, d)),
            "state moves on": not bool(L.equal(d, e)) if name not in ("multinomial", "randperm") else True,
            "generator seed replays": bool(L.equal(a, f)), "generator leaves the global stream": bool(L.equal(a, h)),
            "values in range": ok(a), "dtype": a.dtype, "shape": a.shape, "device": a.device}


def sampler_cases():
    for d in DTYPES:
        every = d in ("float32", "float16", "int64")
        for args, kw in (((), {}), ((-2, 3), {}), ((), {"from": -1, "to": 1}), ((), {"a": -1, "b": 1}), ((2, 1), {}),
                         ((float("-inf"), float("inf")), {}), ((0, float("nan")), {}))[:7 if every else 3]:
            yield Case("Tensor.uniform_", (T(d, (2, 3)),) + args, kw, mutates=True, random=True)
        yield Case("Tensor.uniform_", (T(d, (2, 3)), 3, 3), mutates=True, tag="certain")
        for args, kw in (((), {}), ((2, 0.5), {}), ((), {"mean": -1, "std": 2}), ((0, -1), {}),
                         ((float("nan"), 1), {}), ((0, float("inf")), {}))[:6 if every else 3]:
            yield Case("Tensor.normal_", (T(d, (2, 3)),) + args, kw, mutates=True, random=True)
        yield Case("Tensor.normal_", (T(d, (2, 3)), 1.5, 0), mutates=True, tag="certain")
    for name in ("uniform_", "normal_"):
        for t in layouts() + [T("float32", s) for s in SHAPES_0]:
            yield Case(f"Tensor.{name}", (t,), mutates=True, random=True)
        yield Case(f"Tensor.{name}", (T("float32", (2, 3), grad=True),), mutates=True, random=True,
                   tag="leaf requires grad")
        yield Case(f"Tensor.{name}", (T("float32", (2, 3), grad=True),), program=_on_nonleaf(name), grad=True,
                   random=True, tag="non-leaf")
        yield Case(f"Tensor.{name}", (T("float32", (2, 3)),), program=_inplace_generator(name), random=True,
                   tag="generator")
        yield Case(f"Tensor.{name}", (T("float32", (2, 3)),), program=_inplace_returns_self(name), tag="returns self")


def _on_nonleaf(name):
    return lambda L, device, x, *rest, **kw: getattr(x * 1, name)(*rest, **kw)


def _inplace_generator(name):
    def program(L, device, x):
        g = L.Generator()
        g.manual_seed(7)
        return getattr(x, name)(generator=g)
    return program


def _inplace_returns_self(name):
    def program(L, device, x, *rest):
        return getattr(x, name)(*rest) is x
    return program


# ---------------------------------------------------------------------------------------------------------------
# conversions: to, float, double, ..., type, cpu, item, tolist, numpy

def conversion_cases():
    for src in DTYPES:
        for dst in DTYPES:
            yield Case("Tensor.to", (T(src, (2, 3)), D(dst)))
            yield Case("Tensor.to", (T(src, (12,), "special"), D(dst)))
        yield Case("Tensor.to", (T(src, (2, 3)),), {"dtype": D("float64")})
        yield Case("Tensor.to", (T(src, (2, 3)), Dev()))
        yield Case("Tensor.to", (T(src, (2, 3)), Dev(), D("int32")))
        yield Case("Tensor.to", (T(src, (2, 3)),), {"device": Dev(), "dtype": D("float16")})
        yield Case("Tensor.to", (T(src, (2, 3)), T("float64", (1,))))
        yield Case("Tensor.to", (T(src, (2, 3)), "cpu"), host=True)
        yield Case("Tensor.to", (T(src, (2, 3)), "cpu", D("float32")), host=True)
        for method, dst in CONVERSIONS.items():
            yield Case(f"Tensor.{method}", (T(src, (2, 3)),))
            if src in FLOATS or dst in ("bool", "int8", "float16"):
                yield Case(f"Tensor.{method}", (T(src, (12,), "special"),))
        yield Case("Tensor.type", (T(src, (2, 3)),))
        for dst in DTYPES if src == "float32" else ("float64", "int64", "bool", "bfloat16"):
            yield Case("Tensor.type", (T(src, (2, 3)), "torch." + TYPE_NAMES[dst]))
        yield Case("Tensor.type", (T(src, (2, 3)), D("int64")))
        yield Case("Tensor.type", (T(src, (2, 3)),), {"dtype": D("float64")})
        yield Case("Tensor.cpu", (T(src, (2, 3)),), host=True)
        yield Case("Tensor.cpu", (T(src, (12,), "special"),), host=True)
    for kw in ({"copy": True}, {"copy": False}, {"non_blocking": True}, {"non_blocking": False, "copy": True},
               {"memory_format": None}, {"device": None}, {"dtype": None}):
        yield Case("Tensor.to", (T("float32", (2, 3)),), kw)
        yield Case("Tensor.to", (T("float32", (2, 3)), D("float64")), kw)
        yield Case("Tensor.to", (T("float32", (2, 3)), Dev()), kw)
        yield Case("Tensor.to", (T("float32", (2, 3)),), kw, program=_to_aliases, tag="aliases")
    yield Case("Tensor.to", (T("float32", (2, 3)),), program=_to_aliases, tag="aliases")
    for args in (("int64",), (D("float64"), D("float32")), (3,), (None,), ("nonsense",), (float,), (int,)):
        yield Case("Tensor.to", (T("float32", (2, 3)),) + args, host=args == ("int64",))
    for t in layouts() + layouts("int64") + [T("float32", s) for s in SHAPES_0]:
        yield Case("Tensor.to", (t, D("float64")))
        yield Case("Tensor.to", (t, D("float32")))
        yield Case("Tensor.float", (t,))
        yield Case("Tensor.cpu", (t,), host=True)
        yield Case("Tensor.type", (t, "torch.DoubleTensor"))
    for src, dst in (("float32", "float64"), ("float64", "float32"), ("float32", "float16"), ("float32", "bfloat16"),
                     ("float32", "float32"), ("float64", "int64"), ("float32", "bool")):
        yield Case("Tensor.to", (T(src, (2, 3), grad=True), D(dst)), grad=True)
    yield Case("Tensor.to", (T("float64", (12,), "special", grad=True), D("float32")), grad=True)
    yield Case("Tensor.to", (T("float32", (2, 3), grad=True), Dev()), grad=True)
    yield Case("Tensor.to", (T("float32", (2, 3), grad=True), D("float32")), {"copy": True}, grad=True)
    for method in CONVERSIONS:
        yield Case(f"Tensor.{method}", (T("float32", (2, 3), grad=True),), grad=True)
        yield Case(f"Tensor.{method}", (T("float64", (2, 3), grad=True),), grad=True)
        yield Case(f"Tensor.{method}", (T("float32", (2, 3)),), {"memory_format": None})
        yield Case(f"Tensor.{method}", (T("float32", (2, 3)),), program=_method_aliases(method), tag="aliases")
    for name in TYPE_NAMES.values():
        yield Case("Tensor.type", (T("float32", (2, 3)), name), tag="bare name")
        yield Case("Tensor.type", (T("float32", (2, 3)), f"torch.cuda.{name}"))
    for args in (("torch.Nonsense",), ("float32",), (float,), ("torch.float64",)):
        yield Case("Tensor.type", (T("float32", (2, 3)),) + args)
    yield Case("Tensor.type", (T("float32", (2, 3), grad=True), "torch.DoubleTensor"), grad=True)
    yield Case("Tensor.type", (T("float32", (2, 3)), "torch.FloatTensor"), program=_type_same_is_self, tag="is self")
    yield Case("Tensor.cpu", (T("float32", (2, 3), grad=True),), grad=True, host=True)
    # Tensor.cuda: PyTorch raises where no CUDA device is present (as where it records its answers)
    for args, kw in (((), {}), ((0,), {}), ((), {"non_blocking": True}), (("cuda:0",), {}), ((-1,), {})):
        yield Case("Tensor.cuda", (T("float32", (2, 3)),) + args, kw)
    yield Case("Tensor.cpu", (T("float32", (2, 3)),), {"memory_format": None}, host=True)
    yield Case("Tensor.cpu", (T("float32", (2, 3)),), program=_cpu_aliases, tag="aliases")
    # item
    for d in DTYPES:
        for shape in ((), (1,), (1, 1)):
            yield Case("Tensor.item", (T(d, shape),))
        yield Case("Tensor.item", (T(d, (2,)),))
        yield Case("Tensor.item", (T(d, (0,)),))
        for v in dict.fromkeys(_special_values(d)):
            yield Case("Tensor.item", (T(d, (), (v,)),))
        yield Case("Tensor.item", (T(d, (1,), layout="expanded"),))
    yield Case("Tensor.item", (T("float32", (), grad=True),))
    yield Case("Tensor.item", (T("float32", (3,), "random"),), program=_item_of_element, tag="an element")
    # tolist
    for d in DTYPES:
        for t in (T(d, (2, 3)), T(d, (12,), "special"), T(d, ()), T(d, (0,)), T(d, (2, 0, 3)), T(d, (1, 2, 1))):
            yield Case("Tensor.tolist", (t,), host=True)
    for t in layouts() + [T("float32", (3,), grad=True)]:
        yield Case("Tensor.tolist", (t,), host=True)
    yield Case("Tensor.tolist", (T("float32", (3,)),), program=_tolist_types, tag="python types")
    # numpy
    for d in DTYPES:
        for t in (T(d, (2, 3)), T(d, ()), T(d, (0,)), T(d, (2, 0, 3))):
            yield Case("Tensor.numpy", (t,), host=True)
            if t.shape in ((2, 3), ()):
                yield Case("Tensor.numpy", (t,), {"force": True}, host=True)
        yield Case("Tensor.numpy", (T(d, (12,), "special"),), program=_numpy_values, tag="values", host=True)
        yield Case("Tensor.numpy", (T(d, (12,), "special"),), {"force": True}, program=_numpy_values, tag="values",
                   host=True)
    for t in layouts() + layouts("int64"):
        yield Case("Tensor.numpy", (t,), host=True)
    yield Case("Tensor.numpy", (T("float32", (3,), grad=True),), host=True)
    yield Case("Tensor.numpy", (T("float32", (3,), grad=True),), {"force": True}, host=True)
    yield Case("Tensor.numpy", (T("float32", (3,), grad=True),), {"force": False}, host=True)
    yield Case("Tensor.numpy", (T("float32", (3,)),), program=_numpy_shares, tag="shares", host=True)
    yield Case("Tensor.numpy", (T("float32", (3,)),), {"force": True}, program=_numpy_shares, tag="shares", host=True,
               cpu_only=True)  # force=True copies an accelerator's tensor to the host, in PyTorch too
    yield Case("Tensor.numpy", (T("float32", (2, 3)),), program=_numpy_strides, tag="strides", host=True)
    yield Case("Tensor.numpy", (T("float32", (2, 3), layout="transposed"),), program=_numpy_strides, tag="strides",
               host=True)


def _special_values(d):
    if d == "bool":
        return (True, False)
    if d in FLOATS:
        return (float("nan"), float("inf"), float("-inf"), -0.0, 0.1, 65504.0, 1e30)
    ii = np.iinfo(d)
    return (int(ii.min), int(ii.max), -1, 0)


def _to_aliases(L, here, x, **kw):
    y = x.to(**kw) if kw else x.to(x.dtype)
    return {"is self": y is x, "same data": y.data_ptr() == x.data_ptr(), "result": y}


def _method_aliases(method):
    def program(L, device, x, **kw):
        y = getattr(x, method)()
        return {"is self": y is x, "same data": y.data_ptr() == x.data_ptr(), "dtype": y.dtype}
    return program


def _type_same_is_self(L, device, x, name):
    return x.type(name) is x


def _cpu_aliases(L, device, x):
    y = x.cpu()
    return {"is self": (y is x) == (device == "cpu"), "device": str(y.device)}


def _item_of_element(L, device, x):
    return [x[0].item(), type(x[1].item()).__name__, x.sum().item()]


def _tolist_types(L, device, x):
    return [type(L.tensor(v).tolist()).__name__ for v in (1.5, 2, True)] + \
           [type(x.tolist()[0]).__name__, type(x.to(L.float16).tolist()[0]).__name__,
            type(x.to(L.int8).tolist()[0]).__name__, type(x.to(L.bool).tolist()[0]).__name__]


def _numpy_values(L, device, x, **kw):
    """numpy()'s dtype, shape and values (as Python numbers, so NaN compares as NaN)."""
    a = x.numpy(**kw)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "values": a.astype(np.float64).tolist()}


def _numpy_shares(L, device, x, **kw):
    a = x.numpy(**kw)
    a[0] = 42.0
    x[1] = -7.0
    return {"tensor": x, "array": a.tolist(), "writeable": bool(a.flags.writeable)}


def _numpy_strides(L, device, x):
    a = x.numpy()
    return {"strides": list(a.strides), "c": bool(a.flags.c_contiguous), "f": bool(a.flags.f_contiguous)}


# ---------------------------------------------------------------------------------------------------------------
# detach, detach_, clone, fill_, zero_, copy_, data_ptr, is_* and the dtype / device attributes

def copy_fill_cases():
    # (Tensor.clone of every dtype, shape and layout: samples/shapes.py)
    for d in DTYPES:
        yield Case("Tensor.detach", (T(d, (2, 3)),))
        yield Case("Tensor.clone", (T(d, (12,), "special"),), exact=True)
        yield Case("Tensor.zero_", (T(d, (2, 3)),), mutates=True)
        yield Case("Tensor.detach_", (T(d, (2, 3)),))
    for t in layouts() + [T("float32", s) for s in SHAPES_0]:
        yield Case("Tensor.detach", (t,))
        yield Case("Tensor.zero_", (t,), mutates=True)
    for t in (T("float32", (2, 3), grad=True), T("float64", (12,), "special", grad=True)):
        yield Case("Tensor.clone", (t,), grad=True)
        yield Case("Tensor.detach", (t,), grad=True)
        yield Case("Tensor.zero_", (t,), program=_on_nonleaf("zero_"), grad=True)
    yield Case("Tensor.clone", (T("float32", (2, 3)),), {"memory_format": None})
    yield Case("Tensor.clone", (T("float32", (2, 3)),), program=_clone_copies, tag="copies")
    yield Case("Tensor.detach", (T("float32", (2, 3), grad=True),), program=_detach_shares, tag="shares")
    yield Case("Tensor.detach_", (T("float32", (2, 3), grad=True),), tag="leaf")
    yield Case("Tensor.detach_", (T("float32", (2, 3), grad=True),), program=_detach_inplace("non-leaf"),
               tag="non-leaf")
    yield Case("Tensor.detach_", (T("float32", (2, 3), grad=True),), program=_detach_inplace("view"), tag="view")
    yield Case("Tensor.detach_", (T("float32", (2, 3), grad=True),), program=_detach_inplace("returns self"),
               tag="returns self")
    yield Case("Tensor.zero_", (T("float32", (2, 3), grad=True),), tag="leaf requires grad")
    yield Case("Tensor.zero_", (T("float32", (2, 3)),), program=_inplace_returns_self("zero_"), tag="returns self")
    # fill_
    for d in DTYPES:
        for v in FILLS:
            yield Case("Tensor.fill_", (T(d, (2, 3)), v), mutates=True)
        for vd in ("float32", "float64", "float16", "int64", "uint8", "bool"):
            yield Case("Tensor.fill_", (T(d, (2, 3)), T(vd, ())), mutates=True)
        yield Case("Tensor.fill_", (T(d, (2, 3)), T(d, (1,))), mutates=True)
        yield Case("Tensor.fill_", (T(d, (2, 3)), NP("float64", 2.5)), mutates=True)
        yield Case("Tensor.fill_", (T(d, (2, 3)), NP("int64", 7)), mutates=True)
    for t in layouts() + [T("float32", s) for s in SHAPES_0]:
        yield Case("Tensor.fill_", (t, 1.5), mutates=True)
    yield Case("Tensor.fill_", (T("float32", (2, 3)), T("float32", (2,))), mutates=True)
    yield Case("Tensor.fill_", (T("float32", (2, 3)), "a"), mutates=True)
    yield Case("Tensor.fill_", (T("float32", (2, 3)),), {"value": 2.5}, mutates=True)
    yield Case("Tensor.fill_", (T("float32", (2, 3), grad=True), 2.5), tag="leaf requires grad")
    yield Case("Tensor.fill_", (T("float32", (2, 3)), T("float32", (), grad=True)), mutates=True,
               tag="value requires grad")
    for xd, vd in (("float32", "float32"), ("float32", "float64"), ("float64", "float32")):
        yield Case("Tensor.fill_", (T(xd, (2, 3)), T(vd, (), grad=True)), program=_fill_records, grad=True)
    yield Case("Tensor.fill_", (T("float32", (2, 3), grad=True), T("float32", (), grad=True)), program=_fill_records,
               grad=True, tag="both")
    yield Case("Tensor.fill_", (T("float32", (2, 3), grad=True), 2.5), program=_on_nonleaf("fill_"), grad=True)
    yield Case("Tensor.fill_", (T("float32", (2, 3)), 1.0), program=_inplace_returns_self("fill_"),
               tag="returns self")
    # copy_
    for dst in DTYPES:
        for src in DTYPES:
            yield Case("Tensor.copy_", (T(dst, (2, 3)), T(src, (2, 3))), mutates=True)
        yield Case("Tensor.copy_", (T(dst, (12,)), T("float64", (12,), "special")), mutates=True)
        yield Case("Tensor.copy_", (T(dst, (2, 3)), T(dst, (3,))), mutates=True)
        yield Case("Tensor.copy_", (T(dst, (2, 3)), T(dst, ())), mutates=True)
    for dst, src in (((2, 3), (2, 1)), ((2, 3), (1, 3)), ((2, 3), (1,)), ((2, 3), (3, 2)), ((3,), (2, 3)),
                     ((2, 3), (6,)), ((2, 3), (2,)), ((0, 3), (3,)), ((2, 3), (0,)), ((4, 2, 3), (2, 1)),
                     ((), (1,)), ((1,), ()), ((2, 3), (1, 1, 3))):
        yield Case("Tensor.copy_", (T("float32", dst), T("float32", src)), mutates=True)
    for t in layouts():
        yield Case("Tensor.copy_", (t, T("float32", (3, 4))), mutates=True)
        yield Case("Tensor.copy_", (T("float32", (3, 4)), t), mutates=True)
    yield Case("Tensor.copy_", (T("float32", (2, 3)), T("float32", (2, 3))), {"non_blocking": True}, mutates=True)
    yield Case("Tensor.copy_", (T("float32", (2, 3)), [1.0, 2.0, 3.0]), mutates=True)
    yield Case("Tensor.copy_", (T("float32", (2, 3)), 1.5), mutates=True)
    yield Case("Tensor.copy_", (T("float32", (2, 3)), NP("float64", (1.0, 2.0, 3.0))), mutates=True)
    yield Case("Tensor.copy_", (T("float32", (2, 3), grad=True), T("float32", (2, 3))), tag="leaf requires grad")
    yield Case("Tensor.copy_", (T("float32", (2, 3)), T("float32", (2, 3), grad=True)), mutates=True,
               tag="source requires grad")
    for dst, src in (("float32", "float32"), ("float32", "float64"), ("float64", "float16"), ("float32", "int64")):
        yield Case("Tensor.copy_", (T(dst, (2, 3)), T(src, (3,), grad=src in FLOATS)), program=_copy_records,
                   grad=True)
    yield Case("Tensor.copy_", (T("float32", (2, 3), grad=True), T("float32", (2, 3), grad=True)),
               program=_copy_records, grad=True, tag="both")
    yield Case("Tensor.copy_", (T("float32", (2, 3)), T("float32", (2, 3))), program=_copy_returns_self,
               tag="returns self")
    yield Case("Tensor.copy_", (T("float32", (4,)),), program=_copy_overlap, tag="overlap", mutates=True)
    # data_ptr
    for d in DTYPES:
        yield Case("Tensor.data_ptr", (T(d, (4, 3)),), program=_data_ptr_offsets, tag="offsets")
    for shape in SHAPES_0:
        yield Case("Tensor.data_ptr", (T("float32", shape),), program=_data_ptr_offsets, tag="offsets")
    yield Case("Tensor.data_ptr", (T("float32", (2, 3)),), program=_data_ptr_aliases, tag="aliases")
    # is_* and attributes
    for d in DTYPES:
        for attr in ("dtype", "device", "is_cpu", "is_cuda"):
            yield Case(f"Tensor.{attr}", (T(d, (2, 3)),), attr=True)
        yield Case("Tensor.is_floating_point", (T(d, (2, 3)),))
        yield Case("torch.is_floating_point", (T(d, (2, 3)),))
        yield Case("Tensor.is_pinned", (T(d, (2, 3)),))
    for shape in SHAPES_0:
        for attr in ("dtype", "device"):
            yield Case(f"Tensor.{attr}", (T("float32", shape),), attr=True)
    for attr in ("is_cpu", "is_cuda", "device", "dtype"):
        yield Case(f"Tensor.{attr}", (attr,), program=_attribute_consistency, tag="consistent")
    yield Case("Tensor.is_floating_point", (T("float32", (2, 3)), 1))
    yield Case("Tensor.is_pinned", (T("float32", (2, 3)),), {"device": "cpu"})
    yield Case("Tensor.pin_memory", (T("float32", (2, 3)),), program=_pinned, tag="pinned")
    yield Case("Tensor.pin_memory", (T("float32", (2, 3)),), host=True)
    yield Case("Tensor.dtype", (T("float32", (2, 3)),), program=_dtype_read_only, tag="read-only")


def _clone_copies(L, device, x):
    c = x.clone()
    c.zero_()
    return {"source": x, "clone": c, "same data": c.data_ptr() == x.data_ptr()}


def _detach_shares(L, device, x):
    d = x.detach()
    d[0, 0] = 9.0
    return {"detached": d, "source": x.detach(), "leaf": d.is_leaf, "grad_fn": d.grad_fn is None,
            "same data": d.data_ptr() == x.data_ptr()}


def _detach_inplace(how):
    def program(L, device, x):
        y = x * 2
        if how == "view":
            y = y[0]
        if how == "returns self":
            return y.detach_() is y
        out = y.detach_()
        return {"result": out, "requires_grad": y.requires_grad, "grad_fn": y.grad_fn is None, "leaf": y.is_leaf}
    return program


def _fill_records(L, device, x, v):
    y = x * 1 if x.requires_grad else x.clone()
    y.fill_(v)
    return y * 3


def _copy_records(L, device, dst, src):
    y = dst * 1 if dst.requires_grad else dst.clone()
    y.copy_(src)
    return y * 2


def _copy_returns_self(L, device, dst, src):
    return dst.copy_(src) is dst


def _copy_overlap(L, device, x):
    x[1:].copy_(x[:-1])
    return x


def _data_ptr_offsets(L, device, x):
    p = x.data_ptr()
    item = x.element_size()
    out = {"int": isinstance(p, int), "element_size": item}
    if x.numel():
        out["row"] = (x[1:].data_ptr() - p) // item if x.dim() and x.shape[0] > 1 else None
        out["column"] = (x[..., 1:].data_ptr() - p) // item if x.dim() and x.shape[-1] > 1 else None
        out["transposed"] = x.t().data_ptr() == p if x.dim() == 2 else None
        out["zero"] = p == 0
    else:
        out["zero"] = p == 0
    return out


def _data_ptr_aliases(L, device, x):
    p = x.data_ptr()
    return {"clone": x.clone().data_ptr() != p, "detach": x.detach().data_ptr() == p, "view": x.view(6).data_ptr() == p,
            "to same": x.to(x.dtype).data_ptr() == p, "to other": x.to(L.float64).data_ptr() != p,
            "contiguous": x.contiguous().data_ptr() == p, "reshape": x.reshape(3, 2).data_ptr() == p}


def _attribute_consistency(L, device, attr):
    on_cpu = L.zeros(2)
    here = L.zeros(2, device=device)
    if attr == "is_cpu":
        return [on_cpu.is_cpu, here.is_cpu == (here.device.type == "cpu")]
    if attr == "is_cuda":
        return [on_cpu.is_cuda, here.is_cuda == (here.device.type == "cuda")]
    if attr == "device":
        return [on_cpu.device, here.device == L.device(device), on_cpu.device.type, on_cpu.device.index,
                isinstance(here.device, L.device)]
    return [on_cpu.dtype, isinstance(on_cpu.dtype, L.dtype), L.zeros(2, dtype=L.int64).dtype is L.int64,
            L.ones(1).dtype == L.float32]


def _pinned(L, device, x):
    p = x.cpu().pin_memory()
    return {"tensor": p, "pinned": p.is_pinned(), "source pinned": x.cpu().is_pinned()}


def _dtype_read_only(L, device, x):
    try:
        x.dtype = L.float64
    except (AttributeError, TypeError):
        return "refused"
    return x


# ---------------------------------------------------------------------------------------------------------------
# dtype rules: promote_types, result_type, can_cast, finfo, iinfo, the default dtype; torch.dtype

def dtype_rule_cases():
    for a in DTYPES:
        for b in DTYPES:
            yield Case("torch.promote_types", (D(a), D(b)))
            yield Case("torch.can_cast", (D(a), D(b)))
            yield Case("torch.result_type", (T(a, (3,)), T(b, ())))
        yield Case("torch.result_type", (T(a, (3,)), T("float32", (3,))), tag="dims")
        yield Case("torch.result_type", (T(a, ()), T("int8", ())), tag="both 0-d")
        for s in SCALARS if a in ("float32", "float16", "int64", "int8", "uint8", "bool") else SMALL_SCALARS:
            yield Case("torch.result_type", (T(a, (3,)), s))
            if s in (True, 3, 2.5):
                yield Case("torch.result_type", (s, T(a, (3,))))
                yield Case("torch.result_type", (T(a, ()), s))
        yield Case("torch.result_type", (T(a, (0,)), 2.5))
    for a, b in ((1, 2), (1, 2.5), (True, False), (True, 2), (2.5, True), (2**60, 1.0)):
        yield Case("torch.result_type", (a, b))
    yield Case("torch.result_type", (T("float32", (3,)),), {"other": 2})
    yield Case("torch.result_type", (T("int32", (3,)), NP("float64", 1.5)))
    yield Case("torch.promote_types", (D("float32"), "float64"))
    yield Case("torch.promote_types", (float, D("int64")))
    yield Case("torch.can_cast", (D("float32"), float))
    # finfo / iinfo
    for d in DTYPES:
        yield Case("torch.finfo", (D(d),), program=_finfo)
        yield Case("torch.iinfo", (D(d),), program=_iinfo)
    yield Case("torch.finfo", (), program=_finfo)
    yield Case("torch.finfo", ("float64",), program=_finfo)
    yield Case("torch.finfo", (float,), program=_finfo)
    yield Case("torch.iinfo", ("int32",), program=_iinfo)
    yield Case("torch.finfo", (D("float32"),), program=_finfo_compare, tag="equality")
    # the default dtype
    yield Case("torch.get_default_dtype", ())
    for d in DTYPES:
        yield Case("torch.set_default_dtype", (D(d),), program=_with_default_dtype)
    yield Case("torch.set_default_dtype", ("float64",), program=_with_default_dtype)
    yield Case("torch.set_default_dtype", (float,), program=_with_default_dtype)
    yield Case("torch.set_default_dtype", (D("float64"),), program=_default_dtype_restored, tag="restored")
    # torch.dtype
    yield Case("torch.dtype", (), program=_dtype_properties, tag="properties")
    yield Case("torch.dtype", (), program=_dtype_aliases, tag="aliases")
    yield Case("torch.dtype", ())
    yield Case("torch.dtype", ("float32",))
    for d in DTYPES:
        yield Case("torch.dtype", (D(d),), program=_dtype_one, tag="one")


def _finfo(L, device, *args):
    f = L.finfo(*args)
    return {"bits": f.bits, "eps": f.eps, "max": f.max, "min": f.min, "tiny": f.tiny,
            "smallest_normal": f.smallest_normal, "resolution": f.resolution, "dtype": str(f.dtype),
            "types": [type(f.eps).__name__, type(f.bits).__name__]}


def _iinfo(L, device, *args):
    i = L.iinfo(*args)
    return {"bits": i.bits, "max": i.max, "min": i.min, "dtype": str(i.dtype),
            "types": [type(i.max).__name__, type(i.bits).__name__]}


def _finfo_compare(L, device, dt):
    return {"eps is float32's": L.finfo(dt).eps == float(np.finfo(np.float32).eps),
            "max": L.finfo(L.float16).max, "tiny": L.finfo(L.bfloat16).tiny, "eps": L.finfo(L.bfloat16).eps,
            "same": L.finfo(dt).max == L.finfo(L.float).max}


def _with_default_dtype(L, device, dt):
    before = L.get_default_dtype()
    try:
        L.set_default_dtype(dt)
        return {"default": L.get_default_dtype(), "tensor": L.tensor([1.5, 2.5]), "tensor of ints": L.tensor([1, 2]),
                "tensor 0-d": L.tensor(2.5), "zeros": L.zeros(2), "ones": L.ones(2), "empty": L.empty(2).dtype,
                "full": L.full((2,), 1.5), "full int": L.full((2,), 2), "arange": L.arange(0, 1, 0.25),
                "arange int": L.arange(3), "linspace": L.linspace(0, 1, 3), "eye": L.eye(2),
                "rand": L.rand(2).dtype, "randn": L.randn(2).dtype, "int + float": L.ones(2, dtype=L.int64) + 1.5,
                "int / int": L.arange(3) / 2, "result_type": L.result_type(L.arange(3), 2.5),
                "Tensor()": L.Tensor([1, 2]), "tensor of np.float64": L.tensor(np.float64(1.5))}
    finally:
        L.set_default_dtype(before)


def _default_dtype_restored(L, device, dt):
    try:
        L.set_default_dtype(dt)
    finally:
        L.set_default_dtype(L.float32)
    return [L.get_default_dtype(), L.tensor([1.5])]


def _dtype_properties(L, device):
    out = {}
    for d in DTYPES:
        dt = getattr(L, d)
        out[d] = [dt.is_floating_point, dt.is_signed, dt.itemsize, dt.is_complex, str(dt).split(".")[-1],
                  repr(dt).split(".")[-1], isinstance(dt, L.dtype)]
    return out


def _dtype_aliases(L, device):
    pairs = (("float", "float32"), ("double", "float64"), ("half", "float16"), ("long", "int64"), ("int", "int32"),
             ("short", "int16"), ("bool", "bool"), ("uint8", "uint8"), ("int8", "int8"), ("bfloat16", "bfloat16"))
    return {a: getattr(L, a) is getattr(L, b) for a, b in pairs} | \
        {"eq": L.float32 == L.float, "ne": L.float32 != L.float64, "hash": hash(L.float32) == hash(L.float),
         "dict": len({L.float32: 1, L.float: 2}),
         "to_complex": L.float32.to_complex() if hasattr(L.float32, "to_complex") else None}


def _dtype_one(L, device, dt):
    return [dt, dt.is_floating_point, dt.itemsize, L.zeros(1, dtype=dt).element_size(), dt.is_signed]


# ---------------------------------------------------------------------------------------------------------------
# torch.device, torch.Size, torch.Tensor(...)

DEVICE_ARGS = (("cpu",), ("cpu:0",), ("cuda",), ("cuda:0",), ("cuda:1",), ("cuda", 0), ("cuda", 1), ("cpu", 0),
               ("meta",), ("foo",), ("cuda:-1",), ("cuda:x",), ("cpu:0:1",), ("",), (0,), (-1,), ("CPU",),
               (" cpu",), ("cuda", -1), ("cuda:01",), ("mps",), ("xpu:0",), (None,), (1.5,))


def device_size_cases():
    for args in DEVICE_ARGS:
        yield Case("torch.device", args, host=True)
        yield Case("torch.device", args, program=_device_fields, tag="fields")
    yield Case("torch.device", (), {"type": "cpu"}, host=True)
    yield Case("torch.device", (), {"type": "cuda", "index": 0}, program=_device_fields, tag="fields")
    yield Case("torch.device", (Dev(),))
    yield Case("torch.device", (Dev(),), program=_device_fields, tag="fields", cpu_only=True)  # cpu's index: None
    yield Case("torch.device", (), program=_device_equality, tag="equality")
    # torch.Size
    for args in (((2, 3),), ([2, 3],), ((),), ([],), ((0,),), ((2.5,),), ((-1,),), (("a",),), ((2, None),),
                 (Seq((T("int64", (), (3,)),), "tuple"),), (Seq((NP("int64", 3), 2), "tuple"),), ((True, 2),)):
        yield Case("torch.Size", args)
    yield Case("torch.Size", ())
    yield Case("torch.Size", ((2, 3, 4),), program=_size_properties, tag="properties")
    yield Case("torch.Size", ((),), program=_size_properties, tag="properties")
    yield Case("torch.Size", ((2, 0),), program=_size_properties, tag="properties")
    # torch.Tensor(...)
    for args, random in (((), False), ((2, 3), True), ((0,), False), (([1, 2],), False), (([True, False],), False),
                         (([1.5, 2.5],), False), (((2, 3),), False), (([[1, 2], [3, 4]],), False),
                         ((NP("float64", (1.5, 2.5)),), False), ((NP("int64", (1, 2)),), False), ((2.5,), False),
                         ((T("float64", (2, 3)),), False), ((T("int64", (3,)),), False), (([],), False),
                         ((-1,), False), ((2**63,), False), (("abc",), False), (([2**60 + 1],), False)):
        yield Case("torch.Tensor", args, random=random, host=not any(isinstance(a, T) for a in args))
    yield Case("torch.Tensor", (2, 3), program=_tensor_class_size, random=True, tag="torch.Size", host=True)
    yield Case("torch.Tensor", (), {"device": Dev()})
    yield Case("torch.Tensor", (), program=_tensor_class_properties, tag="properties")


def _device_fields(L, device, *args, **kw):
    d = L.device(*args, **kw)
    return {"type": d.type, "index": d.index, "str": str(d), "eq str": d == L.device(str(d))}


def _device_equality(L, device):
    cpu = L.device("cpu")
    return {"eq": cpu == L.device("cpu"), "eq index": cpu == L.device("cpu", 0), "ne cuda": cpu != L.device("cuda"),
            "cuda:0 eq cuda": L.device("cuda:0") == L.device("cuda"), "hash": hash(cpu) == hash(L.device("cpu")),
            "eq str": cpu == "cpu", "isinstance": isinstance(cpu, L.device), "repr": repr(cpu).split(".")[-1],
            "from device": L.device(cpu) == cpu, "dict": len({L.device("cpu"): 1, L.device("cpu"): 2})}


def _size_properties(L, device, shape):
    s = L.Size(shape)
    return {"numel": s.numel(), "len": len(s), "tuple": isinstance(s, tuple), "eq tuple": s == tuple(shape),
            "eq shape": L.zeros(shape).shape == s, "is Size": isinstance(L.zeros(shape).shape, L.Size),
            "slice": s[1:], "slice is Size": isinstance(s[1:], L.Size), "add": s + (5,),
            "add is Size": isinstance(s + (5,), L.Size), "repr": repr(s).split(".")[-1], "list": list(s),
            "hash": hash(s) == hash(tuple(shape)), "index": s.index(s[0]) if len(s) else None,
            "count": s.count(0), "mul": s * 2, "mul is Size": isinstance(s * 2, L.Size)}


def _tensor_class_size(L, device, *shape):
    return L.Tensor(L.Size(shape))


def _tensor_class_properties(L, device):
    t = L.Tensor([1, 2])
    return {"isinstance": isinstance(t, L.Tensor), "type": type(t).__name__, "dtype": t.dtype,
            "issubclass": issubclass(L.Tensor, object), "tensor is Tensor": isinstance(L.tensor([1]), L.Tensor),
            "zeros is Tensor": type(L.zeros(1)) is L.Tensor}


# ---------------------------------------------------------------------------------------------------------------
# generators and the global random state; threads; save / load; OutOfMemoryError

def state_cases():
    yield Case("torch.manual_seed", (0,))
    for seed in (0, 1, 2**32, 2**63, 2**64 - 1, -1, 2**64, -2**63 - 1, 1.5, True, "3"):
        yield Case("torch.manual_seed", (seed,), program=_manual_seed, tag="replays")
    yield Case("torch.initial_seed", ())
    for seed in (5, 2**40, -1):
        yield Case("torch.initial_seed", (seed,), program=_initial_seed, tag="after manual_seed")
    yield Case("torch.get_rng_state", (), program=_rng_state_type, tag="a ByteTensor")
    yield Case("torch.get_rng_state", (), program=_rng_state_replays, tag="replays")
    yield Case("torch.set_rng_state", (), program=_rng_state_replays, tag="replays")
    yield Case("torch.set_rng_state", (), program=_rng_state_bad, tag="bad state")
    yield Case("torch.set_rng_state", (), program=_rng_state_copy, tag="a copy")
    # torch.Generator
    yield Case("torch.Generator", ())
    yield Case("torch.Generator", ("cpu",))
    yield Case("torch.Generator", (), {"device": Dev()}, program=_generator_properties, tag="properties")
    yield Case("torch.Generator", ("nonsense",))
    for name in ("rand", "randn", "randint", "normal", "bernoulli", "multinomial", "randperm", "uniform_",
                 "normal_", "bernoulli_"):
        yield Case("torch.Generator", (name,), program=_generator_meta, random=True, tag="draws")
        yield Case("torch.Generator", (name,), program=_generator_replays, tag="replays")
    yield Case("torch.Generator", (), program=_generator_seed_default, tag="default seed")
    yield Case("torch.Generator", (), program=_generator_state, tag="get_state")
    # threads
    yield Case("torch.get_num_threads", (), program=_get_num_threads, tag="an int")
    for n in (1, 2, 0, -1, 2.5):
        yield Case("torch.set_num_threads", (n,), program=_set_num_threads)
    # save / load
    for d in DTYPES:
        yield Case("torch.save", (T(d, (2, 3)),), program=_save_load)
        yield Case("torch.load", (T(d, (12,), "special"),), program=_save_load)
    for t in layouts() + [T("float32", s) for s in SHAPES_0] + [T("float32", (2, 3), grad=True)]:
        yield Case("torch.save", (t,), program=_save_load)
    yield Case("torch.save", ({"a": T("float32", (2,)), "b": T("int64", (3,))},), program=_save_load)
    yield Case("torch.save", (Seq((T("float32", (2,)), T("int64", (3,)))),), program=_save_load)
    yield Case("torch.save", (Seq((T("float32", (2,)), 3), "tuple"),), program=_save_load)
    yield Case("torch.save", ({"model": {"w": T("float32", (2, 2))}, "epoch": 3, "lr": 0.5, "name": "x",
                               "flag": True, "none": None},), program=_save_load)
    yield Case("torch.save", ({"step": 3},), program=_save_load)
    yield Case("torch.save", (T("float32", (4, 3)),), program=_save_load_views, tag="views")
    yield Case("torch.save", (T("float32", (2, 3)),), program=_save_load_buffer, tag="a buffer")
    yield Case("torch.load", (T("float32", (2, 3)),), {"map_location": "cpu"}, program=_save_load, host=True)
    yield Case("torch.load", (T("float32", (2, 3)),), {"map_location": Dev()}, program=_save_load)
    yield Case("torch.load", (T("float32", (2, 3)),), {"weights_only": True}, program=_save_load)
    yield Case("torch.load", ("missing",), program=_load_missing, tag="no file")
    # OutOfMemoryError
    yield Case("torch.OutOfMemoryError", (), program=_oom_class, tag="class")
    yield Case("torch.OutOfMemoryError", (), program=_oom_raised, tag="raised")
    yield Case("torch.OutOfMemoryError", ("out of memory",))


def _manual_seed(L, device, seed):
    g = L.manual_seed(seed)
    a = L.rand(8)
    L.manual_seed(seed)
    b = L.rand(8)
    return {"replays": bool(L.equal(a, b)), "initial_seed": L.initial_seed(),
            "returns a Generator": isinstance(g, L.Generator)}


def _initial_seed(L, device, seed):
    L.manual_seed(seed)
    L.rand(3)
    return L.initial_seed()


def _rng_state_type(L, device):
    s = L.get_rng_state()
    return {"tensor": isinstance(s, L.Tensor), "dtype": s.dtype if isinstance(s, L.Tensor) else type(s).__name__,
            "1-d": s.dim() == 1 if isinstance(s, L.Tensor) else None}


def _rng_state_replays(L, device):
    L.manual_seed(11)
    L.randn(5)
    s = L.get_rng_state()
    a = L.randn(5)
    b = L.rand(3)
    L.set_rng_state(s)
    c = L.randn(5)
    d = L.rand(3)
    L.set_rng_state(L.get_rng_state())
    e = L.randn(5)
    return [bool(L.equal(a, c)), bool(L.equal(b, d)), not bool(L.equal(a, e))]


def _rng_state_bad(L, device):
    L.set_rng_state(L.zeros(3, dtype=L.uint8))
    return "accepted"


def _rng_state_copy(L, device):
    """get_rng_state returns a copy: drawing afterwards does not change it."""
    L.manual_seed(5)
    s = L.get_rng_state()
    before = s.clone() if isinstance(s, L.Tensor) else s
    L.rand(10)
    same = bool(L.equal(s, before)) if isinstance(s, L.Tensor) else s == before
    L.set_rng_state(s)
    a = L.rand(4)
    L.manual_seed(5)
    return [same, bool(L.equal(a, L.rand(4)))]


def _generator_properties(L, here, **kw):
    g = L.Generator(**kw)
    r = g.manual_seed(42)
    return {"returns self": r is g, "initial_seed": g.initial_seed(), "device": g.device,
            "isinstance": isinstance(g, L.Generator)}


def _generator_meta(L, device, name):
    g = L.Generator()
    g.manual_seed(3)
    return _draw(L, name, g, device=device)


def _generator_replays(L, device, name):
    g = L.Generator()
    g.manual_seed(3)
    a = _draw(L, name, g, device=device)
    state = g.get_state()
    b = _draw(L, name, g, device=device)
    g.set_state(state)
    c = _draw(L, name, g, device=device)
    g.manual_seed(3)
    d = _draw(L, name, g, device=device)
    g2 = L.Generator().manual_seed(3)
    e = _draw(L, name, g2, device=device)
    return {"state replays": bool(L.equal(b, c)), "seed replays": bool(L.equal(a, d)),
            "two generators agree": bool(L.equal(a, e))}


def _generator_seed_default(L, device):
    g = L.Generator()
    s = g.initial_seed()
    new = g.seed()
    return {"default": s, "seed is int": isinstance(new, int), "initial_seed follows": g.initial_seed() == new}


def _generator_state(L, device):
    s = L.Generator().get_state()
    return {"tensor": isinstance(s, L.Tensor), "dtype": s.dtype if isinstance(s, L.Tensor) else type(s).__name__}


def _get_num_threads(L, device):
    n = L.get_num_threads()
    return [isinstance(n, int), n >= 1]


def _set_num_threads(L, device, n):
    before = L.get_num_threads()
    try:
        r = L.set_num_threads(n)
        return [r, L.get_num_threads()]
    finally:
        L.set_num_threads(before)


def _save_load(L, device, obj, **kw):
    with tempfile.TemporaryDirectory(prefix="factories-") as tmp:
        path = os.path.join(tmp, "saved.pt")
        L.save(obj, path)
        return L.load(path, **kw)


def _save_load_views(L, device, x):
    """Views saved together come back sharing storage, as PyTorch's serialization keeps storages."""
    with tempfile.TemporaryDirectory(prefix="factories-") as tmp:
        path = os.path.join(tmp, "saved.pt")
        L.save({"x": x, "row": x[1], "column": x[:, 1]}, path)
        back = L.load(path)
    back["x"].zero_()
    return back


def _save_load_buffer(L, device, x):
    import io
    buf = io.BytesIO()
    L.save(x, buf)
    buf.seek(0)
    return L.load(buf)


def _load_missing(L, device, name):
    return L.load(os.path.join(tempfile.gettempdir(), "factories-no-such-dir", name))


def _oom_class(L, device):
    e = L.OutOfMemoryError
    return {"RuntimeError": issubclass(e, RuntimeError), "Exception": issubclass(e, Exception),
            "MemoryError": issubclass(e, MemoryError), "name": e.__name__,
            "cuda alias": L.cuda.OutOfMemoryError is e}


def _oom_raised(L, device):
    try:
        L.empty(2**50, dtype=L.uint8)
    except Exception as e:  # noqa: BLE001 - which kind is the point
        return {"OutOfMemoryError": isinstance(e, L.OutOfMemoryError), "RuntimeError": isinstance(e, RuntimeError),
                "MemoryError": isinstance(e, MemoryError)}
    return "allocated"


# ---------------------------------------------------------------------------------------------------------------

def _is_0d(a):
    return isinstance(a, T) and tuple(a.shape) == ()


def _zero_d(case):
    """The case with its 0-d tensor arguments made 0-d. The engine makes T(..., ()) a 1-element 1-d tensor
    (np.ascontiguousarray turns a 0-d array into a 1-d one), so such a case goes through a program that reshapes
    those arguments to () first (a no-op once the engine makes them 0-d) and then makes the call, or the case's own
    program. Its id gets the tag "0-d"."""
    top = [i for i, a in enumerate(case.args) if _is_0d(a)]
    inner = {i: [j for j, b in enumerate(a.items) if _is_0d(b)] for i, a in enumerate(case.args)
             if isinstance(a, Seq)}
    inner = {i: js for i, js in inner.items() if js}
    keys = [k for k, v in case.kwargs.items() if _is_0d(v)]
    if not (top or inner or keys):
        return case
    plain, own = dataclasses.replace(case, program=None), case.program

    def program(L, device, *args, **kwargs):
        args = list(args)
        for i in top:
            args[i] = args[i].reshape(())
        for i, js in inner.items():
            items = list(args[i])
            for j in js:
                items[j] = items[j].reshape(())
            args[i] = items if case.args[i].kind == "list" else tuple(items)
        for k in keys:
            kwargs[k] = kwargs[k].reshape(())
        if own is not None:
            return own(L, device, *args, **kwargs)
        return invoke(plain, L, device, args, kwargs)
    return dataclasses.replace(case, program=program, tag=(case.tag + " 0-d").strip())


def _all():
    yield from tensor_cases()
    yield from from_numpy_cases()
    yield from size_factory_cases()
    yield from like_cases()
    yield from arange_cases()
    yield from space_cases()
    yield from random_factory_cases()
    yield from sampler_cases()
    yield from conversion_cases()
    yield from copy_fill_cases()
    yield from dtype_rule_cases()
    yield from device_size_cases()
    yield from state_cases()


# The device's own name asked of a tensor on it: PyTorch's recorded answer is a CPU tensor's (True for is_cpu,
# 'torch.FloatTensor'); on another device the answer differs by design. The "consistent" programs check these
# names on every device against the tensor's device instead.
_DEVICE_NAMES = ("Tensor.is_cpu", "Tensor.is_cuda", "Tensor.type", "Tensor.cuda")


def cases():
    for c in _all():
        if c.name in _DEVICE_NAMES and c.program is None:
            c.cpu_only = True
        yield _zero_d(c)
