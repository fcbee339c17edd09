"""default_collate: how the DataLoader turns a list of samples into a batch, as torch.utils.data's."""
import collections.abc

import numpy as np

from .. import _dtype, _factories, _index_ops
from .._tensor import Tensor


def _stack(samples, pin_for):
    first = samples[0]
    if pin_for is None:
        return _index_ops.stack(samples)
    out = _factories.empty_pinned((len(samples),) + tuple(first.shape), dtype=first.dtype, for_device=pin_for)
    for i, s in enumerate(samples):
        out[i] = s
    return out


def default_collate(batch, pin_for=None):
    """Stacks a list of samples into a batch: tensors and arrays are stacked, numbers become a
    tensor (ints int64, floats float64, bools bool), tuples/lists/dicts are collated field by field."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _stack(batch, pin_for)
    if isinstance(elem, np.ndarray):
        return _stack([_factories.tensor(b) for b in batch], pin_for)
    if isinstance(elem, bool):
        return _factories.tensor(batch, dtype=_dtype.bool_)
    if isinstance(elem, (int, np.integer)):
        return _factories.tensor([int(b) for b in batch], dtype=_dtype.int64)
    if isinstance(elem, (float, np.floating)):
        return _factories.tensor([float(b) for b in batch], dtype=_dtype.float64)
    if isinstance(elem, (str, bytes)):
        return list(batch)
    if isinstance(elem, collections.abc.Mapping):
        return {k: default_collate([b[k] for b in batch], pin_for) for k in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(list(s), pin_for) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        return [default_collate(list(s), pin_for) for s in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, NumPy arrays, numbers, dicts or lists; "
                    f"found {type(elem).__name__}")
