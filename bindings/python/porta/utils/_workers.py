"""The DataLoader's workers: processes, as PyTorch's (multiprocessing, its default start method unless the loader is
given multiprocessing_context=). Each worker has a duplex pipe to the loader: requests go one way, batches come back
the other (see _transport). A worker is seeded as PyTorch seeds one (Porta's global generator and `random` with
base_seed + id, NumPy's legacy global RNG from the same seed) and then runs worker_init_fn(id); get_worker_info() answers in
it (None in the loading process). A map-style dataset is the worker's own copy (forked, or unpickled); an
IterableDataset too, so each worker iterates its own replica and the loader takes the workers' batches in turn,
skipping a worker once its stream ends. Failures are loud: a worker's exception is raised in the loop naming the
worker and carrying its traceback; a worker that dies or a timeout= that passes raises RuntimeError; the workers
stop with the iterator (or with the loader, when they persist) and when the loader's process exits."""
import collections
import itertools
import multiprocessing
import multiprocessing.connection
import random
import traceback
import weakref

import numpy as np

from .. import _factories
from . import _transport

_info = None  # this process's WorkerInfo, set when it is a worker


class WorkerInfo:
    """What get_worker_info() returns: id, num_workers, seed (base seed + id) and dataset (this worker's copy)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __setattr__(self, key, value):
        raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")

    def __repr__(self):
        return f"WorkerInfo({', '.join(f'{k}={v}' for k, v in self.__dict__.items())})"


def get_worker_info():
    """This worker process's WorkerInfo; None in a process that is not a DataLoader worker."""
    return _info


def base_seed(generator):
    """The epoch's base seed for the workers, drawn from `generator` (None: the global generator), as PyTorch draws
    it at every iterator: each epoch's workers get new seeds, so random augmentations differ between epochs."""
    return int(_factories.randint(0, 2 ** 53, (1,), generator=generator).item())


class _Failure:
    """A worker's exception, as the loader raises it: its type when that can be rebuilt with one message, else
    RuntimeError, the message naming the worker and holding the worker's traceback (PyTorch's ExceptionWrapper)."""

    def __init__(self, worker_id, exc):
        self.type_name = type(exc).__name__
        self.exc_type = type(exc) if _picklable(type(exc)) else None
        self.message = (f"Caught {self.type_name} in DataLoader worker process {worker_id}.\nOriginal "
                        + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))

    def exception(self):
        try:
            return self.exc_type(self.message) if self.exc_type is not None else RuntimeError(self.message)
        except Exception:  # noqa: BLE001 - a type that needs other arguments: PyTorch falls back the same way
            return RuntimeError(self.message)


def _picklable(obj):
    try:
        multiprocessing.reduction.ForkingPickler.dumps(obj)
        return True
    except Exception:  # noqa: BLE001 - a local class, say: the loader then gets a RuntimeError
        return False


def _seed(seed):
    _factories.manual_seed(seed)
    random.seed(seed)
    np.random.seed([seed & 0xFFFFFFFF, seed >> 32])


def _loop(conn, fetcher, iterable, worker_id, num_workers, base, init_fn):
    """A worker process's life: answers ("batch", task, indices) with the batch (a map-style dataset) or the next
    batch of its stream (an IterableDataset; "end" once the stream is over), ("reset", ...) by starting a new pass
    over its stream, and stops at None or when the loader's end of the pipe closes."""
    global _info
    seed = base + worker_id
    _info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=fetcher.dataset)
    failure, stream = None, None
    try:
        _seed(seed)
        if init_fn is not None:
            init_fn(worker_id)
    except Exception as e:  # noqa: BLE001 - reported at the first request, as PyTorch reports it
        failure = _Failure(worker_id, e)
    try:
        while True:
            try:
                request = conn.recv()
            except (EOFError, OSError):
                return  # the loader is gone
            if request is None:
                return
            kind, task, indices = request
            if kind == "reset":
                stream = None
                continue
            if failure is not None:
                _transport.send(conn, "error", task, failure)
                continue
            try:
                if iterable:
                    if stream is None:
                        stream = fetcher.stream()
                    batch = next(stream, _END)
                    if batch is _END:
                        _transport.send(conn, "end", task, None)
                        continue
                else:
                    batch = fetcher.fetch(indices)
                _transport.send(conn, "ok", task, batch)
            except Exception as e:  # noqa: BLE001 - raised in the loader's loop
                _transport.send(conn, "error", task, _Failure(worker_id, e))
    except KeyboardInterrupt:
        return  # the loading process got it too and stops the workers


_END = object()


def _stop(conns, procs, patience=5):
    """Asks each worker to stop, waits up to `patience` seconds for it, then terminates what is left."""
    for c in conns:
        try:
            c.send(None)
        except OSError:
            pass
    for p in procs:
        p.join(timeout=patience)
        if p.is_alive():
            p.terminate()
            p.join(timeout=5)
    for c in conns:
        c.close()


class WorkerPool:
    """num_workers worker processes of one loader. request(w, ...) sends worker w a request; receive(w) waits for
    its next answer (each worker answers in the order it was asked), raising the worker's exception, a timeout or
    the worker's death. Requests not yet answered are counted per worker, so a pool can be drained and reused."""

    def __init__(self, fetcher, iterable, num_workers, seed, init_fn, context, timeout):
        if context is None or isinstance(context, str):
            context = multiprocessing.get_context(context)
        self.timeout, self.conns, self.procs = timeout, [], []
        self.pending = [0] * num_workers
        try:
            for w in range(num_workers):
                mine, theirs = context.Pipe(duplex=True)
                p = context.Process(target=_loop, args=(theirs, fetcher, iterable, w, num_workers, seed, init_fn),
                                    name=f"porta-dataloader-{w}", daemon=True)
                self.conns.append(mine)
                p.start()
                self.procs.append(p)
                theirs.close()
        except BaseException:
            _stop(self.conns, self.procs)
            raise
        self._stop = weakref.finalize(self, _stop, self.conns, self.procs)

    def __len__(self):
        return len(self.conns)

    def request(self, w, kind, task=None, indices=None):
        try:
            self.conns[w].send((kind, task, indices))
        except OSError:  # its end of the pipe is closed: the worker died (after answering what it was asked)
            self._died(w)
        if kind != "reset":
            self.pending[w] += 1

    def receive(self, w):
        """(status, payload) of worker w's oldest unanswered request, status "ok" or "end"; the worker's
        exception is raised here."""
        status, payload = self._answer(w)
        if status == "error":
            raise payload.exception() from None
        return status, payload

    def first_ready(self):
        """A worker owing an answer whose answer (or death) has come; the first one to, when none has yet."""
        owing = [w for w, n in enumerate(self.pending) if n]
        ready = set(self._wait([h for w in owing for h in (self.conns[w], self.procs[w].sentinel)]))
        return next(w for w in owing if self.conns[w] in ready or self.procs[w].sentinel in ready)

    def _wait(self, handles):
        ready = multiprocessing.connection.wait(handles, timeout=self.timeout or None)
        if not ready:
            self._stop.detach()
            _stop(self.conns, self.procs, patience=0)  # a worker that is stuck is not waited for
            raise RuntimeError(f"DataLoader timed out after {self.timeout} seconds")
        return ready

    def _answer(self, w):
        conn, proc = self.conns[w], self.procs[w]
        ready = self._wait([conn, proc.sentinel])
        try:
            if conn not in ready:
                raise EOFError
            status, _, payload = _transport.receive(conn)
        except (EOFError, OSError):
            self._died(w)
        self.pending[w] -= 1
        return status, payload

    def _died(self, w):
        """Raises worker w's death, as PyTorch words it, after stopping the pool."""
        proc = self.procs[w]
        proc.join(timeout=5)
        self.close()
        raise RuntimeError(f"DataLoader worker (pid(s) {proc.pid}) exited unexpectedly with exit code "
                           f"{proc.exitcode}") from None

    def drain(self):
        """Receives and drops every answer still owed (an epoch left early), so the next epoch starts clean."""
        for w, n in enumerate(self.pending):
            for _ in range(n):
                self._answer(w)

    def close(self):
        self._stop()


def pool(loader, fetcher):
    """A new pool for `loader`'s next epoch (or for all its epochs, when its workers persist)."""
    return WorkerPool(fetcher, loader._iterable, loader.num_workers, base_seed(loader.generator),
                      loader.worker_init_fn, loader.multiprocessing_context, loader.timeout)


def map_epoch(workers, batches, ahead, in_order=True):
    """The batches of one epoch of a map-style dataset, up to `ahead` requests per worker in flight. In order:
    request k goes to worker k % num_workers and the batches come in the sampler's order. in_order=False: each
    batch as soon as a worker has it, that worker then given the next request (a slow item delays only itself)."""
    n, order, tasks = len(workers), collections.deque(), itertools.count()
    batches = iter(batches)

    def ask(w):
        indices = next(batches, None)
        if indices is None:
            return False
        workers.request(w, "batch", next(tasks), indices)
        order.append(w)
        return True

    while len(order) < n * ahead and ask(len(order) % n):
        pass
    while order:
        w = order[0] if in_order else workers.first_ready()
        order.remove(w)  # the head, in order; one of w's requests, out of order
        _, batch = workers.receive(w)
        ask(w)
        yield batch


def iterable_epoch(workers, ahead):
    """The batches of one pass over an IterableDataset's replicas: worker by worker in turn, each with up to
    `ahead` requests in flight, a worker left out once its stream has ended."""
    live = list(range(len(workers)))
    for w in live:
        for _ in range(ahead):
            workers.request(w, "batch")
    at = 0
    while live:
        w = live[at]
        status, batch = workers.receive(w)
        if status == "end":
            for _ in range(workers.pending[w]):  # its other requests are answered "end" too
                workers.receive(w)
            del live[at]
        else:
            workers.request(w, "batch")
            at += 1
            yield batch
        if at >= len(live):
            at = 0
