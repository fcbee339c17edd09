"""Sorting and counting as PyTorch spells them: sort / argsort / msort, topk, kthvalue, unique /
unique_consecutive (flattened or along a dim), bincount. Every one is a C entry point of porta.h
(porta_sort, ...), defined in the core. Sorts are stable (equal elements keep their order, so `stable=` changes nothing and every device
gives the same indices); NaN sorts after every number ascending and before it descending, as in PyTorch."""
from ._lib import fn, int_arg
from ._tensor import Tensor, call, call_outs
from ._math_ops import values_indices


def _dim(dim, name):
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    return dim


def _sort_args(name, args, dim, descending, stable):
    """(dim, descending) as PyTorch's two signatures take them: sort(x, dim=-1, descending=False), or with
    stable= every argument by keyword (sort(x, 0, stable=True) is a TypeError there)."""
    if len(args) > 2:
        raise TypeError(f"{name}() takes at most 3 positional arguments ({len(args) + 1} given)")
    if args and stable is not None:
        raise TypeError(f"{name}(): with stable=, dim and descending are keywords too (as PyTorch's signature): "
                        f"{name}(x, dim=..., descending=..., stable=...)")
    given = dict(zip(("dim", "descending"), args))
    for key, value in (("dim", dim), ("descending", descending)):
        if value is not None:
            if key in given:
                raise TypeError(f"{name}() got multiple values for argument '{key}'")
            given[key] = value
    return _dim(given.get("dim", -1), name), bool(given.get("descending", False))


def sort(self, *args, dim=None, descending=None, stable=None, out=None):
    """torch.sort: (values, indices) along dim, stable (NaN last ascending, first descending)."""
    if out is not None:
        raise NotImplementedError("sort: out= is not supported by Porta; assign the result instead")
    d, desc = _sort_args("sort", args, dim, descending, stable)
    return values_indices(*call_outs(fn.porta_sort, self._h, d, 1 if desc else 0, n=2))


def argsort(self, *args, dim=None, descending=None, stable=None):
    """torch.argsort: the indices that sort self along dim (stable)."""
    d, desc = _sort_args("argsort", args, dim, descending, stable)
    return call(fn.porta_argsort, self._h, d, 1 if desc else 0)


def msort(self):
    """torch.msort: sort(dim=0)'s values."""
    return sort(self, 0).values


def topk(self, k, dim=-1, largest=True, sorted=True, *, out=None):
    """torch.topk: the k largest (smallest: largest=False) along dim as (values, indices), in order; ties in
    input order. sorted=False is accepted: sorted results are one of the orders PyTorch allows then."""
    if out is not None:
        raise NotImplementedError("topk: out= is not supported by Porta; assign the result instead")
    return values_indices(*call_outs(fn.porta_topk, self._h, int(k), _dim(dim, "topk"), 1 if largest else 0, n=2))


def kthvalue(self, k, dim=-1, keepdim=False, *, out=None):
    """torch.kthvalue: the k-th smallest along dim (k from 1) as (values, indices)."""
    if out is not None:
        raise NotImplementedError("kthvalue: out= is not supported by Porta; assign the result instead")
    return values_indices(*call_outs(fn.porta_kthvalue, self._h, int_arg(k, "k", "kthvalue"), _dim(dim, "kthvalue"),
                                     1 if keepdim else 0,
                                 n=2))


def _unique_result(values, inverse, counts, return_inverse, return_counts):
    if not return_inverse and not return_counts:
        return values
    return (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique: sorted values of the flattened tensor (dim=None) or the distinct slices along dim, and
    optionally where each element (slice) went (inverse) and their counts. NaNs are distinct. sorted=False
    gives sorted values too (an order PyTorch allows)."""
    if dim is None:
        parts = call_outs(fn.porta_unique, self._h, n=3)
    else:
        parts = call_outs(fn.porta_unique_dim, self._h, _dim(dim, "unique"), n=3)
    return _unique_result(*parts, return_inverse, return_counts)


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """torch.unique_consecutive: one value per run of equal neighbours of the flattened tensor, or one slice
    per run of equal neighbouring slices along dim."""
    if dim is None:
        parts = call_outs(fn.porta_unique_consecutive, self._h, n=3)
    else:
        parts = call_outs(fn.porta_unique_consecutive_dim, self._h, _dim(dim, "unique_consecutive"), n=3)
    return _unique_result(*parts, return_inverse, return_counts)


def bincount(self, weights=None, minlength=0):
    """torch.bincount: counts of each value of a 1-D non-negative integer tensor (or sums of weights)."""
    if weights is not None and not isinstance(weights, Tensor):
        raise TypeError(f"bincount(): argument 'weights' must be Tensor, not {type(weights).__name__}")
    return call(fn.porta_bincount, self._h, weights._h if weights is not None else None, int(minlength))


METHODS = dict(sort=sort, argsort=argsort, msort=msort, topk=topk, kthvalue=kthvalue, unique=unique,
                unique_consecutive=unique_consecutive, bincount=bincount)
FUNCTIONS = dict(METHODS)  # porta.sort, ...: attached by _methods.py
