"""porta.utils.data: Dataset, TensorDataset, DataLoader and default_collate,
as torch.utils.data. Workers are threads that assemble batches ahead, in
order; pin_memory puts batches in page-locked memory for the accelerator."""
import collections.abc
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .. import _device, _dtype, _factories, _index_ops
from .._generator import Generator, randperm
from .._tensor import Tensor


class Dataset:
    """A map-style dataset: __getitem__(index) and __len__()."""

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __len__")


class TensorDataset(Dataset):
    """Samples are tuples (t[i] for t in tensors); all tensors share their first dimension."""

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        n = tensors[0].shape[0] if tensors[0].ndim else None
        if any(not t.ndim or t.shape[0] != n for t in tensors):
            raise ValueError("Size mismatch between tensors: every tensor must have the same size in dim 0, got "
                             f"{[list(t.shape) for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The samples of `dataset` at `indices`."""

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, index):
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Subsets of the given lengths (or fractions) over a random permutation drawn from `generator`
    (a porta.Generator) or the global generator."""
    n = len(dataset)
    if all(isinstance(x, float) for x in lengths) and abs(sum(lengths) - 1) < 1e-6:
        counts = [int(n * f) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = randperm(n, generator=generator).tolist()
    out, start = [], 0
    for k in lengths:
        out.append(Subset(dataset, order[start:start + k]))
        start += k
    return out


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


class DataLoader:
    """Iterates a dataset in batches: DataLoader(dataset, batch_size=1, shuffle=False, sampler=None,
    num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, worker_init_fn=None, generator=None,
    prefetch_factor=None, persistent_workers=False, pin_memory_device=""). Workers are threads of this
    process; with persistent_workers=True they live as long as the loader (worker_init_fn runs once per
    worker, not once per epoch). The combinations PyTorch refuses are refused with its messages."""

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, prefetch_factor=None, persistent_workers=False, pin_memory_device=""):
        if batch_size is not None and batch_size < 1:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if batch_sampler is not None:
            raise NotImplementedError("DataLoader: batch_sampler is not supported by Porta")
        if timeout:
            raise NotImplementedError("DataLoader: timeout is not supported by Porta (its workers are threads of "
                                      "this process); leave it at 0")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        if prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if generator is not None and not isinstance(generator, Generator):
            raise TypeError(f"DataLoader: generator must be a porta.Generator, got {type(generator).__name__}")
        self.generator = generator
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, shuffle
        self.sampler, self.num_workers, self.drop_last = sampler, num_workers, drop_last
        self.collate_fn = collate_fn
        self.pin_memory = pin_memory
        self.prefetch_factor = prefetch_factor if prefetch_factor is not None or num_workers == 0 else 2
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        self._workers = None  # the persistent workers' pool, made at the first epoch
        self._pin_device = pin_memory_device or None

    def __len__(self):
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def _order(self):
        if self.sampler is not None:
            return list(self.sampler)
        if self.shuffle:  # a new permutation per epoch, from the loader's generator or the global one
            order = randperm(len(self.dataset), generator=self.generator).tolist()
        else:
            order = list(range(len(self.dataset)))
        return order

    def _batches(self):
        order = self._order()
        if self.batch_size is None:
            return [[i] for i in order]
        bs = self.batch_size
        batches = [order[i:i + bs] for i in range(0, len(order), bs)]
        if self.drop_last and batches and len(batches[-1]) < bs:
            batches.pop()
        return batches

    def _pin_for(self):
        if not self.pin_memory:
            return None
        dev = _device.device(self._pin_device) if self._pin_device else _device.try_gpu()
        return None if dev.type == "cpu" else dev

    def _make(self, indices, pin_for):
        samples = [self.dataset[i] for i in indices]
        if self.batch_size is None:  # no batching: collate_fn, when given, gets each sample (as in PyTorch)
            return samples[0] if self.collate_fn is None else self.collate_fn(samples[0])
        if self.collate_fn is not None:
            return self.collate_fn(samples)
        return default_collate(samples, pin_for)

    def __iter__(self):
        batches, pin_for = self._batches(), self._pin_for()
        if self.num_workers == 0:
            return (self._make(b, pin_for) for b in batches)
        return self._threaded(batches, pin_for)

    def _new_pool(self):
        """num_workers threads, each running worker_init_fn(worker id) once when it starts."""
        init = self.worker_init_fn
        ids = iter(range(self.num_workers))
        lock = threading.Lock()

        def initializer():
            if init is not None:
                with lock:
                    init(next(ids))

        return ThreadPoolExecutor(self.num_workers, initializer=initializer, thread_name_prefix="porta-dataloader")

    def _threaded(self, batches, pin_for):
        ahead = max(1, self.num_workers * self.prefetch_factor)
        if self.persistent_workers:
            if self._workers is None:
                self._workers = self._new_pool()
            pool, owned = self._workers, False
        else:
            pool, owned = self._new_pool(), True
        pending = collections.deque()
        try:
            for b in batches:
                pending.append(pool.submit(self._make, b, pin_for))
                if len(pending) >= ahead:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for f in pending:
                f.cancel()
            if owned:
                pool.shutdown(wait=True)

    def __del__(self):
        workers = self.__dict__.get("_workers")
        if workers is not None:
            workers.shutdown(wait=False)
