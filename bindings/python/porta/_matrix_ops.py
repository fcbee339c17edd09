"""Products of matrices and vectors as PyTorch spells them: outer / ger, mm, mv, dot, bmm, addmm, baddbmm
(and addmm_ / baddbmm_), einsum. Each is a C entry point of porta.h (porta_mm, ...), composed in the core
(matmul and @ are the op table's, in _math_ops.py)."""
from ctypes import c_void_p

from ._lib import fn
from ._tensor import Tensor, call
from ._math_ops import in_place_method


def _binary(c, doc):
    def op(self, other):
        return call(c, self._h, other._h)
    op.__doc__ = doc
    return op


outer = _binary(fn.porta_outer, "torch.outer of two 1-D tensors.")
mm = _binary(fn.porta_mm, "torch.mm: 2-D @ 2-D.")
mv = _binary(fn.porta_mv, "torch.mv: 2-D @ 1-D.")
dot = _binary(fn.porta_dot, "torch.dot: the inner product of two 1-D tensors.")
bmm = _binary(fn.porta_bmm, "torch.bmm: [B, n, k] @ [B, k, m].")


def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    """torch.addmm: beta * self + alpha * (mat1 @ mat2) (beta=0 ignores self's values)."""
    return call(fn.porta_addmm, self._h, mat1._h, mat2._h, float(beta), float(alpha))


def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    """torch.baddbmm: beta * self + alpha * bmm(batch1, batch2)."""
    return call(fn.porta_baddbmm, self._h, batch1._h, batch2._h, float(beta), float(alpha))


def einsum(equation, *operands):
    """torch.einsum(equation, *operands) (or a list of operands): PyTorch's subscripts, ellipsis and implicit
    output. The sublist form einsum(a, [0, 1], ...) is refused."""
    if not isinstance(equation, str):
        raise NotImplementedError("einsum: the sublist form einsum(op, [dims], ...) is not supported by Porta; "
                                  "pass an equation string")
    if len(operands) == 1 and not isinstance(operands[0], Tensor):
        operands = tuple(operands[0])
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): expected a Tensor as operand {i}, got {type(t).__name__}")
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    handles = (c_void_p * len(operands))(*[t._h.value for t in operands])
    return call(fn.porta_einsum, equation.encode(), handles, len(operands))


# The Tensor methods defined here (attached by _methods.py) and the free functions porta/__init__.py exports.
FUNCTIONS = dict(outer=outer, ger=outer, mm=mm, mv=mv, dot=dot, bmm=bmm, addmm=addmm, baddbmm=baddbmm)
METHODS = dict(FUNCTIONS, addmm_=in_place_method(addmm, "addmm_"),
               baddbmm_=in_place_method(baddbmm, "baddbmm_"))
FUNCTIONS.update(einsum=einsum)
