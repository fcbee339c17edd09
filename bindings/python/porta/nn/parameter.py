"""nn.Parameter: a leaf tensor that requires grad and that modules register."""
from ctypes import byref, c_void_p

from .._errors import check
from .._factories import empty
from .._lib import fn
from .._tensor import Tensor


class Parameter(Tensor):
    """A tensor that is a module parameter: Parameter(data, requires_grad=True)
    shares data's storage as a new leaf."""

    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): expected a porta.Tensor, got {type(data).__name__}")
        out = c_void_p()
        check(fn.porta_detach(data._h, byref(out)))
        p = object.__new__(cls)
        p._h = out
        if requires_grad:
            p.requires_grad_(True)
        return p

    def __repr__(self):
        return "Parameter containing:\n" + Tensor.__repr__(self)

    def __reduce__(self):
        return (Parameter, (self.detach(), self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        out = Parameter(self.detach().clone(), self.requires_grad)
        memo[id(self)] = out
        if self.grad is not None:
            out.grad = self.grad.detach().clone()
        return out
