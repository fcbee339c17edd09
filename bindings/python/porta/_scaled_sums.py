"""Sums with a scalar factor as PyTorch spells them: add/sub(..., alpha=) and addcmul/addcdiv(..., value=), through
porta_add_alpha and porta_addcmul. The factor goes as a wrapped number (an int64 stays exact); the core converts
it to the result dtype by PyTorch's rules and refuses what PyTorch refuses."""
from . import _ops
from ._lib import fn
from ._scalars import number, operand, scalar_tensor
from ._tensor import Tensor, call

_ID = {op.name: op.id for op in _ops.OPS}


def _factor(value, like, name, arg):
    if isinstance(value, Tensor) or number(value) is None:
        raise TypeError(f"{name}(): argument '{arg}' must be a number, not {type(value).__name__}")
    return scalar_tensor(value, like)


def _is_one(alpha):
    return alpha.__class__ is int and alpha == 1


def with_alpha(plain, name):
    """plain(self, other) (add or sub) with PyTorch's alpha= keyword: self + alpha * other (or -)."""
    op_id = _ID[name]

    def op(self, other, *, alpha=1):
        if _is_one(alpha):
            return plain(self, other)
        o = operand(other, self)
        if o is None:
            raise TypeError(f"{name}(): argument 'other' must be a Tensor or a number, not {type(other).__name__}")
        factor = _factor(alpha, self, name, "alpha")  # names keep the temporaries alive during the call
        return call(fn.porta_add_alpha, op_id, self._h, o._h, factor._h)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"torch.{name}: self {'+' if name == 'add' else '-'} alpha * other (porta_add_alpha); alpha "
                  "converts to the result dtype as PyTorch's (an integral result refuses a floating alpha).")
    return op


def _make_addc(name, op_name):
    op_id = _ID[op_name]

    def op(self, tensor1, tensor2, *, value=1):
        for arg, t in (("tensor1", tensor1), ("tensor2", tensor2)):
            if not isinstance(t, Tensor):
                raise TypeError(f"{name}(): argument '{arg}' must be Tensor, not {type(t).__name__}")
        factor = _factor(value, self, name, "value")
        return call(fn.porta_addcmul, op_id, self._h, tensor1._h, tensor2._h, factor._h)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"torch.{name}: self + value * tensor1 {'*' if op_name == 'mul' else '/'} tensor2 "
                  "(porta_addcmul), broadcast; float16/bfloat16 computed in float32.")
    return op


addcmul, addcdiv = _make_addc("addcmul", "mul"), _make_addc("addcdiv", "div")
