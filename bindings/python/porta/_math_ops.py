"""Tensor methods and free functions for every op of the op table, by kind,
plus Python's arithmetic, comparison and matmul operators.

  UNARY      t.exp()                porta.exp(t)
  BINARY     t.add(u), t.add(2.0)   porta.add(t, u)     (COMPARE too: t.lt(u))
  WHERE      porta.where(cond, a, b), a.where(cond, b)
  REDUCE     t.sum(), t.sum(dim=(0, 1), keepdim=True)
  ARGREDUCE  t.argmax(), t.argmax(dim=1, keepdim=True)
  MATMUL     a.matmul(b), a @ b
  SCAN       t.cumsum(1), t.cumsum(1, dtype=porta.float64), in place t.cumsum_(1)
Then the composite ops of porta.h (clamp, lerp, logsumexp, isnan/isinf/isfinite,
nan_to_num, logical_*), their in-place forms (computed, then written with
copy_), Python's % and // (remainder, floor_divide) and PyTorch's aliases
(arctan2, fix, ...). Each op's meaning is documented on its C function in
porta/porta.h.
"""
from collections import namedtuple
from types import SimpleNamespace
from ctypes import byref, c_double, c_int32, c_void_p

from . import _abi, _dtype, _ops, _scaled_sums
from ._errors import error
from ._factories import full
from ._grad_mode import is_grad_enabled
from ._lib import fn, int_array, raw
from ._scalars import number, operand, scalar_tensor
from ._tensor import Tensor, call, call_outs
from ._type_rules import category, result_type

_new = object.__new__
_ALL_DIMS = _abi.PORTA_ALL_DIMS

FUNCTIONS = {}  # free functions, exported by porta/__init__.py
T = SimpleNamespace()  # the Tensor methods, by name: METHODS, attached by _methods.py


# PyTorch's signatures of these take a tensor `other`, never a number (torch.maximum(t, 3) is a TypeError).
_TENSOR_OTHER = frozenset(("maximum", "minimum", "atan2"))


def _tensor_only(name, other, position=2):
    raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not {type(other).__name__}")


def _make_binary(name):
    tensor_fn = raw("porta_" + name)
    tensor_only = name in _TENSOR_OTHER

    def op(self, other):
        out = c_void_p()
        if other.__class__ is not Tensor and not isinstance(other, Tensor):
            if tensor_only:
                _tensor_only(name, other)
            other = operand(other, self)
            if other is None:
                return NotImplemented
        status = tensor_fn(self._h, other._h, byref(out))
        if status:
            raise error(status)
        t = _new(Tensor)
        t._h = out
        return t

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"porta_{name}: elementwise, with broadcasting (a tensor or a scalar operand)."
    return op


def _make_unary(name):
    c = raw("porta_" + name)

    def op(self):
        out = c_void_p()
        status = c(self._h, byref(out))
        if status:
            raise error(status)
        t = _new(Tensor)
        t._h = out
        return t

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"porta_{name}, elementwise."
    return op


def _make_unary_inplace(op_id, name):
    c = fn.porta_unary_inplace

    def op(self):
        status = c(op_id, self._h)
        if status:
            raise error(status)
        return self

    op.__name__ = op.__qualname__ = name + "_"
    op.__doc__ = f"In place: self = {name}(self) (porta_unary_inplace, recorded by autograd); returns self."
    return op


def _make_binary_inplace(op_id, name):
    c = fn.porta_binary_inplace
    tensor_only = name in _TENSOR_OTHER

    def op(self, other):
        if not isinstance(other, Tensor):
            if tensor_only:
                _tensor_only(name + "_", other, 1)
            other = operand(other, self)
            if other is None:
                return NotImplemented
        status = c(op_id, self._h, other._h)
        if status:
            raise error(status)
        return self

    op.__name__ = op.__qualname__ = name + "_"
    op.__doc__ = (f"In place: self = {name}(self, other) (porta_binary_inplace, recorded by autograd); "
                  "returns self.")
    return op


def _dims_array(dim):
    if dim is None:
        return None, 0
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return int_array(c_int32, dims, "dim"), len(dims)


_NO_ARGUMENT = object()  # an argument left out, where None is a value PyTorch treats differently


def check_dim_arg(name, dim):
    """TypeError for a dim that is not an int or a sequence of ints (a bool: True is not dim 1, as PyTorch)."""
    if isinstance(dim, bool) or (isinstance(dim, (tuple, list)) and any(isinstance(d, bool) for d in dim)):
        raise TypeError(f"{name}(): argument 'dim' must be int or tuple of ints, not bool")


def _numpy_names(name, dim, keepdim, axis, keepdims):
    """PyTorch takes NumPy's names too: axis= for dim=, keepdims= for keepdim=."""
    if axis is not None:
        if dim is not None:
            raise TypeError(f"{name}() got both dim and axis (they are the same argument)")
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    check_dim_arg(name, dim)
    return dim, keepdim


def with_dtype(result, dtype):
    """A reduction's or scan's result in the dtype= the caller gave (PyTorch's: sum(dtype=int32) is int32, its
    integer sum wrapping as int32's does)."""
    return result if dtype is None or result.dtype is dtype else result.to(dtype)


def _make_reduce(name):
    c = getattr(fn, "porta_" + name)
    takes_dtype = name in ("sum", "mean", "nansum", "nanmean")  # PyTorch's max and min take no dtype=

    def reduce(self, dim, keepdim, axis, keepdims, dtype=None):
        if dim is _NO_ARGUMENT:
            if keepdim and name in ("sum", "mean") and axis is None:
                raise TypeError(f"{name}(): keepdim=True needs dim= (as PyTorch's {name}); give dim (None: every "
                                "dim)")
            dim = None
        dim, keepdim = _numpy_names(name, dim, keepdim, axis, keepdims)
        # nanmean refuses integer input whatever dtype= says (the core's error), as PyTorch's
        converts = dtype is not None and (name != "nanmean" or self.dtype.is_floating_point)
        t = self.to(dtype) if converts else self
        dims, n = _dims_array(dim)
        return with_dtype(call(c, t._h, dims, n, 1 if keepdim else 0), dtype)

    if takes_dtype:
        def op(self, dim=_NO_ARGUMENT, keepdim=False, *, dtype=None, axis=None, keepdims=None):
            return reduce(self, dim, keepdim, axis, keepdims, None if dtype is None else _dtype.resolve(dtype))
    else:
        def op(self, dim=_NO_ARGUMENT, keepdim=False, *, axis=None, keepdims=None):
            return reduce(self, dim, keepdim, axis, keepdims)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"porta_{name} over `dim` (an int, a sequence or None for all), keeping reduced dims if keepdim."
    return op


def _make_argreduce(name):
    c = getattr(fn, "porta_" + name)

    def op(self, dim=None, keepdim=False, *, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(name, dim, keepdim, axis, keepdims)
        return call(c, self._h, _ALL_DIMS if dim is None else dim, 1 if keepdim else 0)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"porta_{name}: int64 index along `dim` (None: into the flattened tensor)."
    return op


def _make_matmul(name):
    c = getattr(fn, "porta_" + name)

    def op(self, other):
        if not isinstance(other, Tensor):
            if not hasattr(other, "__array__") and not isinstance(other, (list, tuple)):
                return NotImplemented
            other = operand(other, self)
        return call(c, self._h, other._h)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = "porta_matmul: matrix product with NumPy's rules."
    return op


def _make_scan(name):
    c = getattr(fn, "porta_" + name)

    def op(self, dim=None, *, dtype=None, axis=None):
        dim, _ = _numpy_names(name, dim, False, axis, None)
        if dim is None:
            raise TypeError(f"{name}(): missing the required argument 'dim'")
        dt = None if dtype is None else _dtype.resolve(dtype)
        t = self if dt is None else self.to(dt)
        return with_dtype(call(c, t._h, dim), dt)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"porta_{name} along dim (integers and bool accumulate in int64; dtype= converts first)."
    return op


def _where(condition, input=_NO_ARGUMENT, other=_NO_ARGUMENT):  # noqa: A002 - torch's names
    """porta.where(condition, input, other): input where condition else other (numbers allowed, promoted as
    PyTorch's: beside a tensor a number only lifts the category; two numbers give int64 or float32).
    porta.where(condition) alone is condition.nonzero(as_tuple=True), as PyTorch's."""
    if input is _NO_ARGUMENT and other is _NO_ARGUMENT:
        return condition.nonzero(as_tuple=True)
    if input is _NO_ARGUMENT or other is _NO_ARGUMENT:
        raise TypeError("where() takes a condition alone, or a condition, input and other")
    like = input if isinstance(input, Tensor) else other if isinstance(other, Tensor) else condition
    a, b = operand(input, like), operand(other, like)  # names keep temporaries alive during the call
    return call(fn.porta_where, condition._h, a._h, b._h)


def _same_dtype(t, dtype, op):
    """An in-place op's dtype= must be the tensor's own (PyTorch: "Bad in-place call")."""
    if dtype is not None and _dtype.resolve(dtype) is not t.dtype:
        raise RuntimeError(f"{op}: Bad in-place call: input tensor dtype {t.dtype} and output tensor dtype "
                           f"{_dtype.resolve(dtype)} should match")
    return dtype


_MAKERS = {"UNARY": _make_unary, "BINARY": _make_binary, "COMPARE": _make_binary,
           "REDUCE": _make_reduce, "ARGREDUCE": _make_argreduce, "MATMUL": _make_matmul, "SCAN": _make_scan}

for _op in _ops.of_kind(*_ops.USER_KINDS):
    if _op.kind == "WHERE":
        setattr(T, _op.name, lambda self, condition, other: _where(condition, self, other))
        FUNCTIONS[_op.name] = _where
        continue
    _method = _MAKERS[_op.kind](_op.name)
    setattr(T, _op.name, _method)
    FUNCTIONS[_op.name] = _method
    if _op.kind == "UNARY":
        setattr(T, _op.name + "_", _make_unary_inplace(_op.id, _op.name))
    elif _op.kind in ("BINARY", "COMPARE"):
        setattr(T, _op.name + "_", _make_binary_inplace(_op.id, _op.name))
    elif _op.kind == "SCAN":
        setattr(T, _op.name + "_", lambda self, dim, *, dtype=None, _m=_method, _n=_op.name:
                in_place(self, lambda s: _m(s, dim, dtype=_same_dtype(s, dtype, _n + "_")), _n + "_"))

# the composite reductions of porta.h with porta_sum's signature
for _name in ("nansum", "nanmean"):
    setattr(T, _name, _make_reduce(_name))
    FUNCTIONS[_name] = getattr(T, _name)

# ------------------------------------------------------------ max/min like torch

values_indices = namedtuple("values_indices", "values indices")
_reduce_max, _reduce_min = T.max, T.min


def _make_extreme(reduce, with_indices, pairwise):
    def op(self, dim=_NO_ARGUMENT, keepdim=False):
        if isinstance(dim, Tensor):
            return pairwise(self, dim)
        if dim is None:
            raise TypeError(f"{reduce.__name__}(): argument 'dim' must be int, not None (leave dim out to reduce "
                            "every element)")
        if dim is _NO_ARGUMENT:
            if keepdim:
                raise TypeError(f"{reduce.__name__}(): keepdim=True needs dim= (PyTorch's {reduce.__name__} "
                                f"takes keepdim only with dim); use a{reduce.__name__}(keepdim=True) or "
                                f"{reduce.__name__}(dim, keepdim=True)")
            if self.dtype.is_floating_point:  # the gradient shared among the equal elements, NaNs too
                return call_outs(with_indices, self._h, _ALL_DIMS, 0, n=2)[0]
            return reduce(self)
        if dim.__class__ is not int:
            raise TypeError(f"{reduce.__name__}(): argument 'dim' must be int, not {type(dim).__name__}")
        return values_indices(*call_outs(with_indices, self._h, dim, 1 if keepdim else 0, n=2))
    op.__name__ = op.__qualname__ = reduce.__name__
    op.__doc__ = (f"{reduce.__name__}() over all elements; {reduce.__name__}(dim) -> (values, indices); "
                  f"{reduce.__name__}(other) elementwise.")
    return op


T.max = _make_extreme(_reduce_max, fn.porta_max_dim, T.maximum)
T.min = _make_extreme(_reduce_min, fn.porta_min_dim, T.minimum)
FUNCTIONS["max"], FUNCTIONS["min"] = T.max, T.min
T.amax, T.amin = _reduce_max, _reduce_min
FUNCTIONS["amax"], FUNCTIONS["amin"] = _reduce_max, _reduce_min

# ------------------------------------------------------------ operators


def _reflected(name):
    forward = getattr(T, name)

    def op(self, other):
        o = operand(other, self)
        return NotImplemented if o is None else forward(o, self)
    return op


def _grad_enabled():
    return is_grad_enabled()


T.__add__ = T.__radd__ = T.add
T.__sub__, T.__rsub__ = T.sub, _reflected("sub")
T.__mul__ = T.__rmul__ = T.mul
T.__truediv__, T.__rtruediv__ = T.div, _reflected("div")
T.__pow__, T.__rpow__ = T.pow, _reflected("pow")
T.__matmul__ = T.matmul
T.__rmatmul__ = _reflected("matmul")
T.__eq__, T.__ne__, T.__lt__, T.__le__, T.__gt__, T.__ge__ = T.eq, T.ne, T.lt, T.le, T.gt, T.ge
T.__neg__ = T.neg
T.__abs__ = T.abs
def _pos(self):
    if self.dtype is _dtype.bool_:
        raise NotImplementedError("The `+` operator, on a bool tensor is not supported (as PyTorch).")
    return self


T.__pos__ = _pos
T.__iadd__, T.__isub__, T.__imul__, T.__itruediv__ = T.add_, T.sub_, T.mul_, T.div_
T.__ipow__ = T.pow_
T.true_divide = T.divide = T.div
T.multiply, T.subtract = T.mul, T.sub


# ------------------------------------------------------------ % and //, aliases

T.__mod__, T.__rmod__, T.__imod__ = T.remainder, _reflected("remainder"), T.remainder_
T.__floordiv__, T.__rfloordiv__, T.__ifloordiv__ = T.floor_divide, _reflected("floor_divide"), T.floor_divide_
# PyTorch's NumPy-style names for the same ops
_ALIASES = {"arctan2": "atan2", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh",
            "fix": "trunc", "absolute": "abs", "negative": "neg"}
for _alias, _target in _ALIASES.items():
    if hasattr(T, _target):  # (asinh: a newer op table's)
        setattr(T, _alias, getattr(T, _target))
        setattr(T, _alias + "_", getattr(T, _target + "_"))
        FUNCTIONS[_alias] = getattr(T, _target)

_round, _round_ = T.round, T.round_


def _check_decimals(decimals, name):
    if not isinstance(decimals, int):
        raise TypeError(f"{name}(): decimals must be an int, got {type(decimals).__name__}")
    if decimals != 0:
        raise NotImplementedError(f"{name}(): decimals={decimals} is not supported by Porta (only decimals=0: "
                                  "the nearest integer, halves to even); scale first, e.g. (x * 100).round() / 100")


def _round_method(self, *, decimals=0):
    """porta_round: the nearest integer, halves to even (2.5 -> 2), as torch.round; decimals != 0 is refused."""
    if decimals.__class__ is not int or decimals:
        _check_decimals(decimals, "round")
    return _round(self)


def _round_method_(self, *, decimals=0):
    """In place round (porta_unary_inplace); decimals != 0 is refused."""
    if decimals.__class__ is not int or decimals:
        _check_decimals(decimals, "round_")
    return _round_(self)


T.round, T.round_ = _round_method, _round_method_
FUNCTIONS["round"] = _round_method

# ------------------------------------------------------------ in-place composites


def in_place(self, compute, name):
    """self = compute(self), written with copy_ (porta_copy_into: recorded by autograd as every in-place write,
    so a non-leaf is rebased onto compute's graph and a leaf that requires grad is refused). When autograd
    records, compute reads a clone of self, so that nothing its graph saved for backward is the memory
    overwritten. A result of a higher dtype category than self's (float into an integer tensor, a number into
    bool) is refused, as PyTorch refuses it."""
    src = self.clone() if self.requires_grad and _grad_enabled() else self
    out = compute(src)
    if category(out.dtype) > category(self.dtype):
        raise TypeError(f"{name}: result type {out.dtype.name} can't be cast to the desired output type "
                        f"{self.dtype.name} (an in-place op keeps the tensor's dtype)")
    status = fn.porta_copy_into(self._h, out._h)
    if status:
        raise error(status, name)
    return self


def in_place_method(f, name):
    """The in-place method `name` (tril_, addmm_, ...) of the out-of-place f: f's result written into self."""
    def op(self, *args, **kwargs):
        return in_place(self, lambda s: f(s, *args, **kwargs), name)
    op.__name__ = op.__qualname__ = name
    return op


# ------------------------------------------------------------ logical ops (porta_logical_*)


def _make_logical(name):
    c = getattr(fn, "porta_logical_" + name)

    def op(self, other):
        if not isinstance(other, Tensor):
            _tensor_only(f"logical_{name}", other)
        return call(c, self._h, other._h)

    def op_(self, other):
        if not isinstance(other, Tensor):
            _tensor_only(f"logical_{name}_", other, 1)
        return in_place(self, lambda x: op(x, other), f"logical_{name}_")

    op.__name__ = op.__qualname__ = "logical_" + name
    op.__doc__ = (f"porta_logical_{name}: a bool tensor, on every dtype (nonzero and NaN are true); "
                  "broadcast.")
    op_.__name__ = op_.__qualname__ = f"logical_{name}_"
    op_.__doc__ = f"In place logical_{name} (the bool result cast to self's dtype); returns self."
    return op, op_


for _name in ("and", "or", "xor"):
    _lop, _lop_ = _make_logical(_name)
    setattr(T, "logical_" + _name, _lop)
    setattr(T, f"logical_{_name}_", _lop_)
    FUNCTIONS["logical_" + _name] = _lop

for _op, _bitwise in (("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                      ("lshift", "bitwise_left_shift"), ("rshift", "bitwise_right_shift")):
    setattr(T, f"__{_op}__", getattr(T, _bitwise))  # PyTorch's & | ^ << >> are its bitwise ops
    setattr(T, f"__r{_op}__", _reflected(_bitwise))
    setattr(T, f"__i{_op}__", getattr(T, _bitwise + "_"))


def _logical_not(self):
    """porta_logical_not: self == 0 as a bool tensor, on every dtype."""
    return call(fn.porta_logical_not, self._h)


def _logical_not_(self):
    """In place logical_not (the bool result cast to self's dtype); returns self."""
    return in_place(self, _logical_not, "logical_not_")


T.__invert__ = T.bitwise_not  # porta_bitwise_not: ~ of integers, logical not of bool
T.logical_not, T.logical_not_ = _logical_not, _logical_not_
FUNCTIONS.update(logical_not=_logical_not)

# ------------------------------------------------------------ composites of porta.h (defined in the core)


def _clamp_bound(self, bound, name):
    """A clamp bound as a tensor operand: None, a tensor, a number (a wrapped number) or an array/list."""
    if bound is None:
        return None
    t = operand(bound, self)
    if t is None:
        raise TypeError(f"clamp(): {name} must be a number, a tensor or None, got {type(bound).__name__}")
    return t


def _clamp(self, min=None, max=None):  # noqa: A002 - torch's names
    """porta_clamp_tensor: elements limited to [min, max], number or tensor bounds (either may be None, not
    both; min > max gives max everywhere; a NaN bound gives NaN). The gradient is 1 where min <= x <= max
    and 0 elsewhere, as PyTorch's. An integer tensor with a float bound gives float32."""
    lo, hi = _clamp_bound(self, min, "min"), _clamp_bound(self, max, "max")
    return call(fn.porta_clamp_tensor, self._h, None if lo is None else lo._h, None if hi is None else hi._h)


def _clamp_(self, min=None, max=None):  # noqa: A002
    """In place clamp (recorded by autograd); an integer tensor refuses a float bound. Returns self."""
    return in_place(self, lambda x: _clamp(x, min, max), "clamp_")


def _clamp_min(self, min):  # noqa: A002
    """clamp(min=min)."""
    return _clamp(self, min=min)


def _clamp_max(self, max):  # noqa: A002
    """clamp(max=max)."""
    return _clamp(self, max=max)


def _clamp_min_(self, min):  # noqa: A002
    """In place clamp(min=min); returns self."""
    return _clamp_(self, min=min)


def _clamp_max_(self, max):  # noqa: A002
    """In place clamp(max=max); returns self."""
    return _clamp_(self, max=max)


T.clamp = T.clip = _clamp
T.clamp_ = T.clip_ = _clamp_
T.clamp_min, T.clamp_max, T.clamp_min_, T.clamp_max_ = _clamp_min, _clamp_max, _clamp_min_, _clamp_max_
FUNCTIONS.update(clamp=_clamp, clip=_clamp, clamp_min=_clamp_min, clamp_max=_clamp_max)


def _isnan(self):
    """porta_isnan: a bool tensor, true where NaN (never for integer and bool tensors)."""
    return call(fn.porta_isnan, self._h)


def _isinf(self):
    """porta_isinf: a bool tensor, true where +-inf."""
    return call(fn.porta_isinf, self._h)


def _isfinite(self):
    """porta_isfinite: a bool tensor, true where neither NaN nor +-inf (always for integer and bool tensors)."""
    return call(fn.porta_isfinite, self._h)


def _optional_double(value, name, op):
    if value is None:
        return None
    s = number(value)
    if s is None:
        raise TypeError(f"{op}(): {name} must be a number or None, got {type(value).__name__}")
    return byref(c_double(s))


def _nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    """porta_nan_to_num: NaN, +inf and -inf replaced by nan, posinf and neginf (None: 0, the dtype's largest
    finite value, its lowest, as PyTorch's). Integer and bool tensors are copied. The gradient passes where
    self is finite."""
    return call(fn.porta_nan_to_num, self._h, _optional_double(nan, "nan", "nan_to_num"),
                _optional_double(posinf, "posinf", "nan_to_num"), _optional_double(neginf, "neginf", "nan_to_num"))


def _nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    """In place nan_to_num; returns self."""
    return in_place(self, lambda x: _nan_to_num(x, nan, posinf, neginf), "nan_to_num_")


def _lerp(self, end, weight):
    """porta_lerp: self + weight * (end - self), computed from end where |weight| >= 0.5 (weight 1 gives end
    exactly), as torch.lerp. end is a tensor; weight a tensor or a number (a 0-d tensor of self's dtype). One
    floating dtype for all three; all broadcast."""
    if not isinstance(end, Tensor):
        raise TypeError(f"lerp(): end must be a Tensor, got {type(end).__name__}")
    if not isinstance(weight, Tensor):
        s = number(weight)
        if s is None:
            raise TypeError(f"lerp(): weight must be a number or a Tensor, got {type(weight).__name__}")
        dt = self.dtype if self.dtype.is_floating_point else _dtype.float32  # the core refuses integer starts
        weight = full((), s, dtype=dt, device=self.device)
    return call(fn.porta_lerp, self._h, end._h, weight._h)


def _lerp_(self, end, weight):
    """In place lerp; returns self."""
    return in_place(self, lambda x: _lerp(x, end, weight), "lerp_")


def _logsumexp(self, dim, keepdim=False):
    """porta_logsumexp: log(sum(exp(self))) over `dim` (an int or a tuple, required as in torch), without
    overflow; integer inputs give float32."""
    if dim is None:
        raise TypeError("logsumexp(): dim must be an int or a tuple of ints (it is required, as in PyTorch), "
                        "got None")
    check_dim_arg("logsumexp", dim)
    if not isinstance(dim, int) and len(dim) == 0 and self.ndim > 0:
        raise RuntimeError("logsumexp(): dim=() names no dimension (PyTorch refuses it); give the dims to reduce")
    dims, n = _dims_array(dim)
    return call(fn.porta_logsumexp, self._h, dims if n else None, n, 1 if keepdim else 0)


T.isnan, T.isinf, T.isfinite = _isnan, _isinf, _isfinite
T.nan_to_num, T.nan_to_num_ = _nan_to_num, _nan_to_num_
T.lerp, T.lerp_ = _lerp, _lerp_
T.logsumexp = _logsumexp
FUNCTIONS.update(isnan=_isnan, isinf=_isinf, isfinite=_isfinite, nan_to_num=_nan_to_num, lerp=_lerp,
                 logsumexp=_logsumexp)

# ------------------------------------------------------------ a few more composites

T.square = lambda self: (self.long() if self.dtype is _dtype.bool_ else self).mul(self)  # bool: int64, as pow
T.rsqrt = lambda self: self.sqrt().reciprocal()
T.reciprocal = lambda self: scalar_tensor(1.0, self).div(self)
T.softmax = lambda self, dim: call(fn.porta_softmax, self._h, dim)
T.log_softmax = lambda self, dim: call(fn.porta_log_softmax, self._h, dim)
FUNCTIONS.update(softmax=T.softmax, log_softmax=T.log_softmax, square=T.square, rsqrt=T.rsqrt,
                 reciprocal=T.reciprocal, true_divide=T.div, divide=T.div, multiply=T.mul,
                 subtract=T.sub)

# ------------------------------------------------------------ div(rounding_mode=)

_true_div = T.div


def _div(self, other, *, rounding_mode=None):
    """self / other: true division (rounding_mode=None), rounded toward minus infinity ("floor", as //) or
    toward zero ("trunc"); integer operands keep their integer dtype under both roundings, as PyTorch's."""
    if rounding_mode is None:
        return _true_div(self, other)
    if rounding_mode == "floor":
        return self.floor_divide(other)
    if rounding_mode != "trunc":
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                         f"{rounding_mode!r}")
    other = operand(other, self)
    dt = result_type(self, other)
    if dt.is_floating_point:
        return _true_div(self, other).trunc()
    a, b = self.to(dt), other.to(dt)  # in the common dtype, as PyTorch divides (a number wraps into it)
    quotient = a.floor_divide(b)  # trunc differs from floor where the remainder is not 0 and signs differ
    inexact = (quotient * b).ne(a)
    return quotient + (inexact & (a < 0).logical_xor(b < 0))


def _div_(self, other, *, rounding_mode=None):
    return in_place(self, lambda s: _div(s, other, rounding_mode=rounding_mode), "div_")


T.div = T.divide = _div  # (true_divide stays true division: PyTorch's takes no rounding_mode)
T.div_ = T.divide_ = _div_
T.__truediv__ = _true_div
FUNCTIONS.update(div=_div, divide=_div)


# ------------------------------------------------------------ alpha= and value= (porta_add_alpha, porta_addcmul)



def _with_alpha_inplace(plain_, scaled, name):
    """plain_ (add_ or sub_) with alpha=: the out-of-place `scaled` written back into self."""
    def op(self, other, *, alpha=1):
        if _scaled_sums._is_one(alpha):
            return plain_(self, other)
        return in_place(self, lambda s: scaled(s, other, alpha=alpha), name + "_")
    op.__name__ = op.__qualname__ = name + "_"
    op.__doc__ = f"In place: self = {name}(self, other, alpha=alpha); returns self."
    return op


for _name in ("add", "sub"):
    _scaled = _scaled_sums.with_alpha(getattr(T, _name), _name)
    setattr(T, _name + "_", _with_alpha_inplace(getattr(T, _name + "_"), _scaled, _name))
    setattr(T, _name, _scaled)
    FUNCTIONS[_name] = _scaled
T.subtract = T.sub  # (the operators keep the plain methods: no alpha to look at)
T.addcmul, T.addcdiv = _scaled_sums.addcmul, _scaled_sums.addcdiv
T.addcmul_ = lambda self, tensor1, tensor2, *, value=1: in_place(
    self, lambda s: _scaled_sums.addcmul(s, tensor1, tensor2, value=value), "addcmul_")
T.addcdiv_ = lambda self, tensor1, tensor2, *, value=1: in_place(
    self, lambda s: _scaled_sums.addcdiv(s, tensor1, tensor2, value=value), "addcdiv_")
FUNCTIONS.update(addcmul=_scaled_sums.addcmul, addcdiv=_scaled_sums.addcdiv, subtract=T.sub)


def _number_first(method, name):
    """torch.add(2, t): PyTorch's arithmetic functions take a number as input beside a tensor other."""
    def f(input, other, *args, **kwargs):  # noqa: A002 - torch's names
        if not isinstance(input, Tensor) and isinstance(other, Tensor):
            wrapped = operand(input, other)
            if wrapped is None:
                raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
            return method(wrapped, other, *args, **kwargs)
        return method(input, other, *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = method.__doc__
    return f


# PyTorch's comparisons, fmod and the tensor-only ops take no number as input.
for _name in [op.name for op in _ops.of_kind("BINARY") if op.name not in _TENSOR_OTHER and op.name != "fmod"] + [
        "div", "true_divide", "divide", "multiply", "subtract"]:
    if _name in FUNCTIONS:
        FUNCTIONS[_name] = _number_first(FUNCTIONS[_name], _name)


# ------------------------------------------------------------ out=, as PyTorch's signatures take it


def _functions(*names):
    return {FUNCTIONS[n] for n in names if n in FUNCTIONS}


# The functions PyTorch takes out= of another dtype for (its elementwise ops, whose result casts into out, and
# the sums); the others want out of the result's dtype. Unary ops that keep their operand's dtype (abs, floor,
# ...: porta_op_result PORTA_RESULT_SAME) want it too.
CASTS_INTO_OUT = _functions(*(op.name for op in _ops.OPS if op.kind in ("BINARY", "COMPARE", "SCAN") or
                              (op.kind == "UNARY" and op.result != _abi.PORTA_RESULT_SAME)),
                            "clamp", "clip", "clamp_min", "clamp_max", "lerp", "where", "logical_and", "logical_or",
                            "logical_xor", "logical_not", "sum", "mean", "prod", "nansum", "nanmean", "logsumexp",
                            "std", "var", "cat", "concat", "concatenate", "stack", "square", "rsqrt", "reciprocal",
                            "true_divide", "divide", "multiply", "subtract", "arctan2", "arcsin", "arccos", "arctan",
                            "arcsinh", "div", "floor_divide", "remainder", "fmod", "float_power", "addcmul", "addcdiv")
# PyTorch's isnan, isinf, isfinite, relu, count_nonzero, std_mean and var_mean take no out= at all (by name:
# some are other modules' functions, in _methods.FUNCTIONS).
WITHOUT_OUT_NAMES = ("isnan", "isinf", "isfinite", "relu", "count_nonzero", "std_mean", "var_mean")
METHODS = vars(T)
