"""porta.utils.data, as torch.utils.data: datasets, samplers, default_collate and the DataLoader.
The loader's workers are threads of this process (see _workers: map-style datasets are shared, an
IterableDataset is replicated per worker); pin_memory puts batches in page-locked memory for the
accelerator. Random orders come from Porta's generators: a seed gives the same order in every run and
binding, though not PyTorch's (another RNG)."""
import collections
import itertools

from .. import _device
from .._generator import Generator
from . import _workers
from ._collate import default_collate
from ._datasets import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset,
                        random_split)
from ._samplers import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                        WeightedRandomSampler)
from ._workers import WorkerInfo, get_worker_info

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "WorkerInfo", "default_collate", "get_worker_info",
           "random_split"]


class _InfiniteConstantSampler(Sampler):
    """An IterableDataset's sampler: None forever (the dataset's stream decides what comes)."""

    def __iter__(self):
        return itertools.repeat(None)


class DataLoader:
    """Iterates a dataset in batches: DataLoader(dataset, batch_size=1, shuffle=None, sampler=None,
    batch_sampler=None, num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, worker_init_fn=None,
    generator=None, prefetch_factor=None, persistent_workers=False, pin_memory_device=""). shuffle=True makes a
    RandomSampler(dataset, generator=generator). Workers are threads of this process; with persistent_workers=True
    they live as long as the loader (worker_init_fn runs once per worker, not once per epoch). The combinations
    PyTorch refuses are refused with its messages."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, prefetch_factor=None, persistent_workers=False, pin_memory_device=""):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
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
        if generator is not None and not isinstance(generator, Generator):
            raise TypeError(f"DataLoader: generator must be a porta.Generator, got {type(generator).__name__}")
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in {False, None}:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.collate_fn, self.pin_memory = num_workers, collate_fn, pin_memory
        self.prefetch_factor = prefetch_factor if prefetch_factor is not None or num_workers == 0 else 2
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        self._workers = None  # the persistent workers' pool (map-style), made at the first epoch
        self._replicas = None  # the persistent workers' (replicas, seed) of an IterableDataset
        self._pin_device = pin_memory_device or None

    def __len__(self):
        if self._iterable:  # the dataset's own length, if it has one (TypeError otherwise, as in PyTorch)
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)

    def _pin_for(self):
        if not self.pin_memory:
            return None
        dev = _device.device(self._pin_device) if self._pin_device else _device.try_gpu()
        return None if dev.type == "cpu" else dev

    def _collate(self, samples, pin_for):
        return default_collate(samples, pin_for) if self.collate_fn is None else self.collate_fn(samples)

    def _make(self, indices, pin_for):
        if self.batch_sampler is None:  # no batching: collate_fn, when given, gets each sample (as in PyTorch)
            sample = self.dataset[indices[0]]
            return sample if self.collate_fn is None else self.collate_fn(sample)
        fetch = getattr(self.dataset, "__getitems__", None)
        samples = fetch(indices) if callable(fetch) else [self.dataset[i] for i in indices]
        return self._collate(samples, pin_for)

    def __iter__(self):
        pin_for = self._pin_for()
        if self._iterable:
            return self._stream(pin_for)
        batches = iter(self.batch_sampler) if self.batch_sampler is not None else ([i] for i in self.sampler)
        if self.num_workers == 0:
            return (self._make(b, pin_for) for b in batches)
        return self._threaded(batches, pin_for)

    def _stream_batches(self, dataset, pin_for):
        """One pass over an IterableDataset, batch_size items at a time (each item when batch_size is None)."""
        items = iter(dataset)
        if self.batch_size is None:
            yield from (items if self.collate_fn is None else map(self.collate_fn, items))
            return
        while True:
            batch = list(itertools.islice(items, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self._collate(batch, pin_for)

    def _stream(self, pin_for):
        if self.num_workers == 0:
            return self._stream_batches(self.dataset, pin_for)
        fresh = self._replicas is None
        if fresh:  # a new replica per worker each epoch, unless the workers persist
            replicas = (_workers.replicas(self.dataset, self.num_workers), _workers.base_seed(self.generator))
            if self.persistent_workers:
                self._replicas = replicas
        else:
            replicas = self._replicas
        return _workers.iterable_epoch(replicas[0], lambda d: self._stream_batches(d, pin_for), replicas[1],
                                       self.worker_init_fn if fresh else None, max(1, self.prefetch_factor))

    def _threaded(self, batches, pin_for):
        ahead = max(1, self.num_workers * self.prefetch_factor)
        if self.persistent_workers:
            if self._workers is None:
                self._workers = _workers.map_style_pool(self, _workers.base_seed(self.generator))
            pool, owned = self._workers, False
        else:
            pool, owned = _workers.map_style_pool(self, _workers.base_seed(self.generator)), True
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
