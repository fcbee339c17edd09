"""Running and order statistics as PyTorch spells them: cummax / cummin, mode, searchsorted and
bucketize. Each is a C entry point of porta.h (porta_cummax, ...), composed in the core: ties, NaNs and
indices as PyTorch's CPU gives them."""
from ._factories import tensor
from ._lib import fn
from ._tensor import Tensor, call, call_outs
from ._math_ops import values_indices


def _no_out(name, out):
    if out is not None:
        raise NotImplementedError(f"{name}: out= is not supported by Porta; assign the result instead")


def _make_cumulative(name, c):
    def op(self, dim, *, out=None):
        _no_out(name, out)
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
        return values_indices(*call_outs(c, self._h, dim, n=2))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"torch.{name}: (values, indices) of the running {name[3:]}imum along dim; a later equal element "
                  "takes over and NaN wins, as PyTorch's.")
    return op


cummax, cummin = _make_cumulative("cummax", fn.porta_cummax), _make_cumulative("cummin", fn.porta_cummin)


def mode(self, dim=-1, keepdim=False, *, out=None):
    """torch.mode: (values, indices) of the most frequent value along dim (the smallest of those tied), at its
    last occurrence."""
    _no_out("mode", out)
    return values_indices(*call_outs(fn.porta_mode, self._h, int(dim), 1 if keepdim else 0, n=2))


def _as_values(values, like, name):
    if isinstance(values, Tensor):
        return values
    if isinstance(values, bool) or not isinstance(values, (int, float)):
        raise TypeError(f"{name}(): argument 'input' must be a Tensor or a number, not {type(values).__name__}")
    return tensor(values, device=like.device)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None,  # noqa: A002
                 out=None):
    """torch.searchsorted: where each element of input goes in the last dim of sorted_sequence ("left":
    before equal elements, "right": after them); sorter orders an unsorted sequence."""
    _no_out("searchsorted", out)
    if side not in (None, "left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                           "while right was True")
    right = bool(right) or side == "right"
    v = _as_values(input, sorted_sequence, "searchsorted")
    return call(fn.porta_searchsorted, sorted_sequence._h, v._h, 1 if right else 0, 1 if out_int32 else 0,
                None if sorter is None else sorter._h)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):  # noqa: A002
    """torch.bucketize: the bucket of each element among the 1-D boundaries (right=False: boundaries[i-1] <
    x <= boundaries[i])."""
    _no_out("bucketize", out)
    v = _as_values(input, boundaries, "bucketize")
    return call(fn.porta_bucketize, v._h, boundaries._h, 1 if right else 0, 1 if out_int32 else 0)


METHODS = dict(cummax=cummax, cummin=cummin, mode=mode)
FUNCTIONS = dict(METHODS, searchsorted=searchsorted, bucketize=bucketize)  # porta.cummax, ...: attached by _methods.py
