"""porta.utils.data, as torch.utils.data: datasets, samplers, default_collate and the DataLoader.
The loader's workers are processes, as PyTorch's (see _workers); pin_memory puts batches in page-locked
memory for the accelerator. Random orders come from Porta's generators: a seed gives the same order in every run and
binding, though not PyTorch's (another RNG)."""
import itertools
import multiprocessing

from .. import _device
from .._generator import Generator
from . import _workers
from ._collate import default_collate
from ._fetch import Fetcher, pin
from ._datasets import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset,
                        random_split)
from ._samplers import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                        WeightedRandomSampler)
from ._distributed_sampler import DistributedSampler
from ._workers import WorkerInfo, get_worker_info

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "DistributedSampler",
           "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler", "StackDataset", "Subset",
           "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler", "WorkerInfo", "default_collate",
           "get_worker_info", "random_split"]


class _InfiniteConstantSampler(Sampler):
    """An IterableDataset's sampler: None forever (the dataset's stream decides what comes)."""

    def __iter__(self):
        return itertools.repeat(None)


class DataLoader:
    """Iterates a dataset in batches: DataLoader(dataset, batch_size=1, shuffle=None, sampler=None,
    batch_sampler=None, num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
    worker_init_fn=None, multiprocessing_context=None, generator=None, prefetch_factor=None,
    persistent_workers=False, pin_memory_device="", in_order=True). shuffle=True makes a
    RandomSampler(dataset, generator=generator). num_workers > 0 loads in that many worker processes (see
    _workers); with persistent_workers=True they live as long as the loader (worker_init_fn runs once per worker,
    not once per epoch). The combinations PyTorch refuses are refused with its messages."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError(f"multiprocessing_context can only be used with multi-process loading (num_workers > "
                             f"0), but got num_workers={num_workers}")
        methods = multiprocessing.get_all_start_methods()
        if isinstance(multiprocessing_context, str) and multiprocessing_context not in methods:
            raise ValueError(f"multiprocessing_context option should specify a valid start method in {methods!r}, "
                             f"but got multiprocessing_context={multiprocessing_context!r}")
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
        self.timeout, self.worker_init_fn = timeout, worker_init_fn
        self.multiprocessing_context, self.persistent_workers = multiprocessing_context, persistent_workers
        self.in_order = in_order
        self._fetcher = Fetcher(dataset, batch_size is not None or batch_sampler is not None, batch_size, drop_last,
                                collate_fn)
        self._workers = None  # the persistent workers' pool, made at the first epoch
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

    def __iter__(self):
        pin_for = self._pin_for()
        if self.num_workers == 0:
            if self._iterable:
                return self._fetcher.stream(pin_for)
            return (self._fetcher.fetch(b, pin_for) for b in self._index_batches())
        return self._from_workers(pin_for)

    def _index_batches(self):
        return iter(self.batch_sampler) if self.batch_sampler is not None else ([i] for i in self.sampler)

    def _from_workers(self, pin_for):
        """One epoch's batches from the worker processes: a new pool per epoch, or the persistent one, drained of
        an earlier epoch left early and (an IterableDataset's) told to start its streams again."""
        ahead = max(1, self.prefetch_factor)
        workers = self._workers
        if workers is None:
            workers = _workers.pool(self, self._fetcher)
            if self.persistent_workers:
                self._workers = workers
        else:
            workers.drain()
            if self._iterable:
                for w in range(len(workers)):
                    workers.request(w, "reset")
        epoch = (_workers.iterable_epoch(workers, ahead) if self._iterable else
                 _workers.map_epoch(workers, self._index_batches(), ahead, self.in_order))
        try:
            for batch in epoch:
                yield batch if pin_for is None else pin(batch, pin_for)
        finally:
            epoch.close()
            if not self.persistent_workers:
                workers.close()

    def __del__(self):
        workers = self.__dict__.get("_workers")
        if workers is not None:
            workers.close()
