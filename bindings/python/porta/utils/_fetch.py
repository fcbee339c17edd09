"""How the DataLoader makes one batch: the same code in the loading process (num_workers=0) and in each worker
process. A Fetcher is picklable (as long as the dataset and collate_fn are), so a worker started by "spawn" or
"forkserver" receives it whole; a forked worker inherits it."""
import collections.abc
import itertools

from .._tensor import Tensor
from .. import _factories
from ._collate import default_collate


class Fetcher:
    """dataset[i] for a list of indices (map-style) or the next batch_size items of an iterator (an
    IterableDataset), collated by collate_fn (default_collate when None). batched=False: no auto-batching (the
    loader's batch_size=None), collate_fn then gets each sample, as in PyTorch."""

    def __init__(self, dataset, batched, batch_size, drop_last, collate_fn):
        self.dataset, self.batched, self.batch_size = dataset, batched, batch_size
        self.drop_last, self.collate_fn = drop_last, collate_fn

    def collate(self, samples, pin_for=None):
        """The batch of `samples`, in page-locked memory for `pin_for` when it is a device: default_collate
        stacks straight into pinned memory, what another collate_fn (or no auto-batching) returns is pinned
        after it."""
        if self.collate_fn is None and self.batched:
            return default_collate(samples, pin_for)
        batch = samples if self.collate_fn is None else self.collate_fn(samples)
        return batch if pin_for is None else pin(batch, pin_for)

    def fetch(self, indices, pin_for=None):
        """The batch of the dataset's items at `indices` (a one-element list without auto-batching)."""
        if not self.batched:
            return self.collate(self.dataset[indices[0]], pin_for)
        fetch = getattr(self.dataset, "__getitems__", None)
        samples = fetch(indices) if callable(fetch) else [self.dataset[i] for i in indices]
        return self.collate(samples, pin_for)

    def stream(self, pin_for=None):
        """One pass over the IterableDataset, batch_size items at a time (each item without auto-batching)."""
        items = iter(self.dataset)
        if not self.batched:
            yield from (self.collate(item, pin_for) for item in items)
            return
        while True:
            batch = list(itertools.islice(items, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self.collate(batch, pin_for)


def pin(batch, for_device):
    """`batch` with every cpu tensor copied into page-locked memory for `for_device` (what pin_memory does to a
    batch made in a worker process, which cannot pin for an accelerator itself)."""
    if isinstance(batch, Tensor):
        if batch.device.type != "cpu":
            return batch
        out = _factories.empty_pinned(tuple(batch.shape), dtype=batch.dtype, for_device=for_device)
        out.copy_(batch)
        return out
    if isinstance(batch, tuple) and hasattr(batch, "_fields"):
        return type(batch)(*(pin(v, for_device) for v in batch))
    if isinstance(batch, collections.abc.Mapping):
        return _same_type(batch, {k: pin(v, for_device) for k, v in batch.items()})
    if isinstance(batch, (list, tuple)):
        return _same_type(batch, [pin(v, for_device) for v in batch])
    return batch


def _same_type(original, items):
    """`items` (a dict or list) as the container type of `original` when it can be built from them (PyTorch's
    rule for pinning custom containers), else as they are."""
    try:
        return type(original)(items)
    except TypeError:
        return items
