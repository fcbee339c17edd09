"""The DataLoader's workers: threads of this process. get_worker_info() answers inside one (None elsewhere).
Map-style datasets are shared by the workers, which assemble whole batches; an IterableDataset is replicated,
as PyTorch's worker processes replicate it: each worker iterates its own shallow copy (copy.copy), and the epoch
takes the workers' batches in turn, skipping a worker once its stream ends."""
import collections
import copy
import threading
from concurrent.futures import ThreadPoolExecutor

from .. import _factories
from .._generator import Generator

_local = threading.local()


class WorkerInfo:
    """What get_worker_info() returns: id, num_workers, seed (base seed + id) and dataset (this worker's)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __setattr__(self, key, value):
        raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")

    def __repr__(self):
        return f"WorkerInfo({', '.join(f'{k}={v}' for k, v in self.__dict__.items())})"


def get_worker_info():
    """This worker thread's WorkerInfo; None outside the DataLoader's workers."""
    return getattr(_local, "info", None)


def base_seed(generator):
    """A seed for the workers drawn from a copy of `generator`'s state (None: the global generator's), which is
    left where it was, so worker loading never changes the samplers' draws."""
    state = generator.get_state() if generator is not None else _factories.get_rng_state()
    return int(_factories.randint(0, 2 ** 53, (1,), generator=Generator().set_state(state)).item())


def map_style_pool(loader, seed):
    """loader.num_workers threads, each starting with its WorkerInfo set and worker_init_fn(id) run once."""
    ids, lock = iter(range(loader.num_workers)), threading.Lock()

    def initializer():
        with lock:
            w = next(ids)
            _local.info = WorkerInfo(id=w, num_workers=loader.num_workers, seed=seed + w, dataset=loader.dataset)
            if loader.worker_init_fn is not None:
                loader.worker_init_fn(w)

    return ThreadPoolExecutor(loader.num_workers, initializer=initializer, thread_name_prefix="porta-dataloader")


def replicas(dataset, num_workers):
    """One shallow copy of `dataset` per worker: what a worker's worker_init_fn or __iter__ sets on its
    get_worker_info().dataset stays with that worker."""
    return [copy.copy(dataset) for _ in range(num_workers)]


def iterable_epoch(datasets, batches_of, seed, init, ahead):
    """Yields batches_of(datasets[w]) of every worker w in turn, each worker a thread keeping up to `ahead`
    batches ready; init(w) (or None) runs first in worker w. A worker's exception is raised here."""
    n = len(datasets)
    cond, ready, stop = threading.Condition(), [collections.deque() for _ in datasets], [False]

    def work(w):
        _local.info = WorkerInfo(id=w, num_workers=n, seed=seed + w, dataset=datasets[w])
        end = None
        try:
            if init is not None:
                init(w)
            for batch in batches_of(datasets[w]):
                with cond:
                    cond.wait_for(lambda: stop[0] or len(ready[w]) < ahead)
                    if stop[0]:
                        return
                    ready[w].append((True, batch))
                    cond.notify_all()
        except BaseException as e:  # noqa: B036 - handed to the consuming thread
            end = e
        with cond:
            ready[w].append((False, end))
            cond.notify_all()

    threads = [threading.Thread(target=work, args=(w,), name=f"porta-dataloader-{w}", daemon=True) for w in range(n)]
    for t in threads:
        t.start()
    try:
        live, w = [True] * n, 0
        while any(live):
            if live[w]:
                with cond:
                    cond.wait_for(lambda: ready[w])
                    ok, value = ready[w].popleft()
                    cond.notify_all()
                if ok:
                    yield value
                elif value is not None:
                    raise value
                else:
                    live[w] = False
            w = (w + 1) % n
    finally:
        with cond:
            stop[0] = True
            cond.notify_all()
        for t in threads:
            t.join()
