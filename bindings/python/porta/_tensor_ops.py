"""Tensor methods and free functions for every op of the op table, by kind,
plus Python's arithmetic, comparison and matmul operators.

  UNARY      t.exp()                porta.exp(t)
  BINARY     t.add(u), t.add(2.0)   porta.add(t, u)     (COMPARE too: t.lt(u))
  WHERE      porta.where(cond, a, b), a.where(cond, b)
  REDUCE     t.sum(), t.sum(dim=(0, 1), keepdim=True)
  ARGREDUCE  t.argmax(), t.argmax(dim=1, keepdim=True)
  MATMUL     a.matmul(b), a @ b
Each op's meaning is documented on its C function in porta/porta.h.
"""
from collections import namedtuple
from ctypes import byref, c_double, c_int32, c_void_p

from . import _dtype, _ops
from ._errors import error
from ._lib import fn, int_array, raw
from ._tensor import Tensor, call

_new = object.__new__
_ALL_DIMS = -2**31  # PORTA_ALL_DIMS

namespace = {}  # free functions, exported by porta/__init__.py


def _other_tensor(value, like):
    """A non-tensor operand (NumPy array, list) as a tensor on `like`'s device."""
    from ._factories import tensor
    return tensor(value, device=like.device)


def _scalar(value):
    """A Python number for a scalar operand (bool, int, float, NumPy scalar, 0-d array), else None."""
    if isinstance(value, (int, float)):
        return value
    if hasattr(value, "item") and getattr(value, "ndim", None) == 0 and not isinstance(value, Tensor):
        return value.item()
    return None


_EXACT = 2**53  # integers a double holds exactly


def _scalar_operand(self, s):
    """A 0-d tensor for scalar `s` when the C scalar form (a double) would change its meaning: a Python
    float beside an integer tensor (a float, even when integral: int_tensor * 2.0 is float32) or an
    integer beyond 2**53 (every bit kept). None when the double form is exact."""
    cls = s.__class__
    if cls is int and not -2**63 <= s < 2**63:
        raise OverflowError(f"the scalar {s} is out of range for int64 (Porta's and PyTorch's widest integer)")
    if cls is float:
        return None if self.dtype.is_floating_point else _scalar_like(s, self)
    if cls is int and not -_EXACT <= s <= _EXACT and not self.dtype.is_floating_point:
        return _scalar_like(s, self)
    return None


def _make_binary(name):
    tensor_fn = raw("porta_" + name)
    scalar_fn = raw("porta_" + name + "_scalar")

    def op(self, other):
        out = c_void_p()
        if other.__class__ is Tensor or isinstance(other, Tensor):
            status = tensor_fn(self._h, other._h, byref(out))
        elif other.__class__ is float or other.__class__ is int or other.__class__ is bool:
            t = _scalar_operand(self, other)
            status = scalar_fn(self._h, c_double(other), byref(out)) if t is None else \
                tensor_fn(self._h, t._h, byref(out))
        else:
            s = _scalar(other)
            t = None if s is None else _scalar_operand(self, s)
            if t is not None:
                status = tensor_fn(self._h, t._h, byref(out))
            elif s is not None:
                status = scalar_fn(self._h, c_double(s), byref(out))
            elif hasattr(other, "__array__") or isinstance(other, (list, tuple)):
                other = _other_tensor(other, self)
                status = tensor_fn(self._h, other._h, byref(out))
            else:
                return NotImplemented
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
    tensor_fn, scalar_fn = fn.porta_binary_inplace, fn.porta_binary_scalar_inplace

    def op(self, other):
        if isinstance(other, Tensor):
            status = tensor_fn(op_id, self._h, other._h)
        else:
            s = _scalar(other)
            t = None if s is None else _scalar_operand(self, s)
            if t is not None:
                status = tensor_fn(op_id, self._h, t._h)
            elif s is not None:
                status = scalar_fn(op_id, self._h, c_double(s))
            elif hasattr(other, "__array__") or isinstance(other, (list, tuple)):
                other = _other_tensor(other, self)
                status = tensor_fn(op_id, self._h, other._h)
            else:
                return NotImplemented
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


def _numpy_names(name, dim, keepdim, axis, keepdims):
    """PyTorch takes NumPy's names too: axis= for dim=, keepdims= for keepdim=."""
    if axis is not None:
        if dim is not None:
            raise TypeError(f"{name}() got both dim and axis (they are the same argument)")
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    return dim, keepdim


def _make_reduce(name):
    c = getattr(fn, "porta_" + name)

    def op(self, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):
        dim, keepdim = _numpy_names(name, dim, keepdim, axis, keepdims)
        t = self if dtype is None else self.to(_dtype.resolve(dtype))
        dims, n = _dims_array(dim)
        return call(c, t._h, dims, n, 1 if keepdim else 0)

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
            other = _other_tensor(other, self)
        return call(c, self._h, other._h)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = "porta_matmul: matrix product with NumPy's rules."
    return op


def _where(condition, input, other):  # noqa: A002 - torch's names
    """porta.where(condition, input, other): input where condition else other (scalars allowed)."""
    from ._factories import full
    like = input if isinstance(input, Tensor) else other if isinstance(other, Tensor) else condition

    def as_tensor(v, dtype):
        if isinstance(v, Tensor):
            return v
        return full((), v, dtype=dtype, device=like.device)

    tensor_dt = input.dtype if isinstance(input, Tensor) else other.dtype if isinstance(other, Tensor) else None
    a = input if isinstance(input, Tensor) else as_tensor(input, _where_scalar_dtype(input, tensor_dt, other))
    b = other if isinstance(other, Tensor) else as_tensor(other, _where_scalar_dtype(other, tensor_dt, input))
    # names keep temporaries alive during the call
    return call(fn.porta_where, condition._h, a._h, b._h)


def _where_scalar_dtype(s, tensor_dt, peer):
    """where()'s dtype for a scalar branch: as beside the tensor branch; two scalars promote as
    PyTorch's Python numbers do (bool < int64 < float32)."""
    if tensor_dt is not None:
        return _scalar_dtype(s, tensor_dt)
    kinds = (s, peer)
    if any(isinstance(v, float) for v in kinds):
        return _dtype.float32
    if all(isinstance(v, bool) for v in kinds):
        return _dtype.bool_
    return _dtype.int64


_MAKERS = {"UNARY": _make_unary, "BINARY": _make_binary, "COMPARE": _make_binary,
           "REDUCE": _make_reduce, "ARGREDUCE": _make_argreduce, "MATMUL": _make_matmul}

for _op in _ops.of_kind(*_ops.USER_KINDS):
    if _op.kind == "WHERE":
        setattr(Tensor, _op.name, lambda self, condition, other: _where(condition, self, other))
        namespace[_op.name] = _where
        continue
    _method = _MAKERS[_op.kind](_op.name)
    setattr(Tensor, _op.name, _method)
    namespace[_op.name] = _method
    if _op.kind == "UNARY":
        setattr(Tensor, _op.name + "_", _make_unary_inplace(_op.id, _op.name))
    elif _op.kind in ("BINARY", "COMPARE"):
        setattr(Tensor, _op.name + "_", _make_binary_inplace(_op.id, _op.name))

# ------------------------------------------------------------ max/min like torch

values_indices = namedtuple("values_indices", "values indices")
_reduce_max, _reduce_min = Tensor.max, Tensor.min


def _make_extreme(reduce, arg, pairwise):
    def op(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            return pairwise(self, dim)
        if dim is None:
            if keepdim:
                raise TypeError(f"{reduce.__name__}(): keepdim=True needs dim= (PyTorch's {reduce.__name__} "
                                f"takes keepdim only with dim); use a{reduce.__name__}(keepdim=True) or "
                                f"{reduce.__name__}(dim, keepdim=True)")
            return reduce(self)
        return values_indices(reduce(self, dim, keepdim), arg(self, dim, keepdim))
    op.__name__ = op.__qualname__ = reduce.__name__
    op.__doc__ = (f"{reduce.__name__}() over all elements; {reduce.__name__}(dim) -> (values, indices); "
                  f"{reduce.__name__}(other) elementwise.")
    return op


Tensor.max = _make_extreme(_reduce_max, Tensor.argmax, Tensor.maximum)
Tensor.min = _make_extreme(_reduce_min, Tensor.argmin, Tensor.minimum)
namespace["max"], namespace["min"] = Tensor.max, Tensor.min
Tensor.amax, Tensor.amin = _reduce_max, _reduce_min
namespace["amax"], namespace["amin"] = _reduce_max, _reduce_min

# ------------------------------------------------------------ operators


def _scalar_dtype(s, dt):
    """The dtype a Python scalar takes beside a tensor of dtype dt (PyTorch's rule): the tensor's when it
    is floating or the scalar a bool; float32 for a float (even an integral one: 2.0 * int tensor is
    float); int64 for an int beside bool."""
    if dt.is_floating_point or isinstance(s, bool):
        return dt
    if isinstance(s, float):
        return _dtype.float32
    return _dtype.int64 if dt is _dtype.bool_ else dt


_INT_BITS = {"uint8": (8, False), "int32": (32, True), "int64": (64, True)}


def _wrapped(s, dt):
    """Integer s stored into integer dtype dt as PyTorch's scalar operands are: two's complement
    (uint8_tensor + 300 adds 44)."""
    bits, signed = _INT_BITS[dt.name]
    s &= (1 << bits) - 1
    return s - (1 << bits) if signed and s >= 1 << (bits - 1) else s


def _scalar_like(s, t):
    """Scalar s as a 0-d tensor beside t, typed by _scalar_dtype (integers exactly, wrapped into the dtype)."""
    from ._factories import full
    dt = _scalar_dtype(s, t.dtype)
    if s.__class__ is int and dt.name in _INT_BITS:
        s = _wrapped(s, dt)
    return full((), s, dtype=dt, device=t.device)


def _reflected(name):
    forward = getattr(Tensor, name)

    def op(self, other):
        s = _scalar(other)
        if s is not None:
            return forward(_scalar_like(s, self), self)
        if hasattr(other, "__array__") or isinstance(other, (list, tuple)):
            return forward(_other_tensor(other, self), self)
        return NotImplemented
    return op


def _grad_enabled():
    from .autograd import is_grad_enabled
    return is_grad_enabled()


T = Tensor
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
T.__pos__ = lambda self: self
T.__iadd__, T.__isub__, T.__imul__, T.__itruediv__ = T.add_, T.sub_, T.mul_, T.div_
T.__ipow__ = T.pow_
T.true_divide = T.divide = T.div
T.multiply, T.subtract = T.mul, T.sub
T.mm = T.matmul


def _logical(combine, name):
    def op(self, other):
        if not isinstance(other, Tensor):
            other = _other_tensor(other, self) if not isinstance(other, bool) else \
                _scalar_like(other, self).bool()
        if self.dtype is not _dtype.bool_ or other.dtype is not _dtype.bool_:
            raise TypeError(f"{name}: Porta supports {name} on bool tensors only (got {self.dtype} and "
                            f"{other.dtype}); compare first, e.g. (x > 0)")
        return combine(self, other)
    return op


T.__and__ = T.__rand__ = T.logical_and = _logical(lambda a, b: b.where(a, a), "&")  # a ? b : a
T.__or__ = T.__ror__ = T.logical_or = _logical(lambda a, b: a.where(a, b), "|")  # a ? a : b
T.__xor__ = T.__rxor__ = T.logical_xor = _logical(lambda a, b: a.ne(b), "^")


def _invert(self):
    if self.dtype is not _dtype.bool_:
        raise TypeError(f"~: Porta supports bitwise not on bool tensors only, got {self.dtype}")
    return self.eq(False)


T.__invert__ = T.logical_not = _invert

# ------------------------------------------------------------ a few composites


def _clamp(self, min=None, max=None):  # noqa: A002 - torch's names
    """Elements limited to [min, max] (either may be None; min > max gives max everywhere). The
    gradient is 1 where min <= x <= max and 0 elsewhere, as PyTorch's; NaN stays NaN."""
    if min is None and max is None:
        raise ValueError("clamp: at least one of min and max must not be None")
    out = self
    bounds = [b for b in (min, max) if b is not None]
    if not out.dtype.is_floating_point and any(isinstance(b, float) or (isinstance(b, Tensor) and
                                                b.dtype.is_floating_point) for b in bounds):
        out = out.float()  # an integer tensor clamped to a float bound is float, as in PyTorch
    if min is not None:
        out = _where(out.lt(min), min, out)
    if max is not None:
        out = _where(out.gt(max), max, out)
    return out


def _clamp_(self, min=None, max=None):  # noqa: A002
    """In place clamp (recorded by autograd); returns self."""
    out = _clamp(self, min, max)
    if out.dtype.is_floating_point and not self.dtype.is_floating_point:
        raise TypeError(f"clamp_: result type {out.dtype.name} can't be cast to the desired output type "
                        f"{self.dtype.name} (an in-place op keeps the tensor's dtype)")
    return self.copy_(out)


T.clamp = T.clip = _clamp
T.clamp_ = T.clip_ = _clamp_
T.clamp_min = lambda self, m: _clamp(self, min=m)
T.clamp_max = lambda self, m: _clamp(self, max=m)
T.clamp_min_ = lambda self, m: _clamp_(self, min=m)
T.clamp_max_ = lambda self, m: _clamp_(self, max=m)
T.square = lambda self: self.mul(self)
T.rsqrt = lambda self: self.sqrt().reciprocal()
T.reciprocal = lambda self: _scalar_like(1.0, self).div(self)
T.softmax = lambda self, dim: call(fn.porta_softmax, self._h, dim)
T.log_softmax = lambda self, dim: call(fn.porta_log_softmax, self._h, dim)
namespace.update(clamp=_clamp, clip=_clamp, softmax=T.softmax, log_softmax=T.log_softmax,
                 square=T.square, rsqrt=T.rsqrt, reciprocal=T.reciprocal, mm=T.matmul,
                 logical_and=T.logical_and, logical_or=T.logical_or, logical_xor=T.logical_xor,
                 logical_not=_invert, true_divide=T.div, divide=T.div, multiply=T.mul, subtract=T.sub)


def _all(self, dim=None, keepdim=False):
    """Whether every element (along `dim`) is nonzero, as a bool tensor."""
    return self.ne(0).eq(False).sum(dim, keepdim).eq(0)


def _any(self, dim=None, keepdim=False):
    """Whether any element (along `dim`) is nonzero, as a bool tensor."""
    return self.ne(0).sum(dim, keepdim).gt(0)


T.all, T.any = _all, _any
namespace.update(all=_all, any=_any)
