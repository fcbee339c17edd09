"""DataLoader(num_workers > 0) loads in worker processes, as PyTorch's: each worker its own process, seeded per
worker and per epoch, batches of any structure sent back intact, in the sampler's order; a worker's exception,
death or a timeout is raised in the loop, and the workers go away with the iterator."""
import collections
import os
import time

import pytest

import porta
from porta.utils import data as D

Pair = collections.namedtuple("Pair", "x label")


class Numbers(D.Dataset):
    def __init__(self, n=12):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return porta.tensor([float(i), float(2 * i)]), i


class Seen(D.Dataset):
    """Each item tells which process made it, with which WorkerInfo, and one draw of the global generator."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = D.get_worker_info()
        return {"pid": os.getpid(), "id": info.id, "num_workers": info.num_workers, "seed": info.seed,
                "mine": info.dataset is self, "draw": porta.rand(()).item(), "i": i}


def test_workers_are_processes_seeded_per_worker_and_per_epoch():
    assert D.get_worker_info() is None
    loader = D.DataLoader(Seen(), batch_size=None, num_workers=2)

    def epoch():
        return list(loader)
    porta.manual_seed(0)
    first, second = epoch(), epoch()
    porta.manual_seed(0)
    again = epoch()
    assert [s["i"] for s in first] == list(range(8))  # the sampler's order
    pids = {s["pid"] for s in first}
    assert len(pids) == 2 and os.getpid() not in pids
    assert all(s["id"] == s["i"] % 2 and s["num_workers"] == 2 and s["mine"] for s in first)  # task k: worker k % 2
    seeds = {s["id"]: s["seed"] for s in first}
    assert seeds[1] == seeds[0] + 1
    draws = [s["draw"] for s in first]
    assert draws[0] != draws[1] and draws[0::2] != draws[1::2]  # each worker its own stream
    assert [s["draw"] for s in again] == draws  # the same seed gives the same worker streams
    assert [s["draw"] for s in second] != draws  # a new epoch, new worker seeds (PyTorch's base_seed per iterator)


def test_batches_of_any_structure_arrive_intact():
    class Mixed(D.Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            grid = porta.arange(12.0).view(3, 4)
            return {"t": grid.t()[i],  # a non-contiguous view
                    "pair": Pair(porta.tensor(i, dtype=porta.int32), f"item{i}"),
                    "mask": porta.tensor([True, i % 2 == 0]), "bytes": porta.tensor([i, 255], dtype=porta.uint8),
                    "empty": porta.zeros(0, 3, dtype=porta.float64), "scalar": 1.5 * i,
                    "mock": porta.full((2,), float(i), device="mock:0")}
    plain, loaded = list(D.DataLoader(Mixed(), batch_size=3)), list(D.DataLoader(Mixed(), batch_size=3,
                                                                                    num_workers=2))
    assert len(plain) == len(loaded) == 1
    p, q = plain[0], loaded[0]
    assert q["t"].tolist() == p["t"].tolist() == [[0, 4, 8], [1, 5, 9], [2, 6, 10]]
    assert isinstance(q["pair"], Pair) and q["pair"].x.dtype is porta.int32 and q["pair"].label == p["pair"].label
    assert q["mask"].dtype is porta.bool and q["mask"].tolist() == p["mask"].tolist()
    assert q["bytes"].dtype is porta.uint8 and q["bytes"].tolist() == [[0, 255], [1, 255], [2, 255]]
    assert q["empty"].shape == (3, 0, 3) and q["empty"].dtype is porta.float64
    assert q["scalar"].dtype is porta.float64 and q["scalar"].tolist() == [0.0, 1.5, 3.0]
    assert q["mock"].device == porta.device("mock:0") and q["mock"].tolist() == p["mock"].tolist()
    one = next(iter(D.DataLoader(Numbers(), batch_size=None, num_workers=1)))
    assert one[0].shape == (2,) and one[1] == 0
    leaf = next(iter(D.DataLoader([porta.ones(2, requires_grad=True)], batch_size=None, num_workers=1)))
    assert leaf.requires_grad and leaf.is_leaf and leaf.tolist() == [1, 1]


def test_a_non_leaf_that_requires_grad_is_refused_by_name():
    class Graph(D.Dataset):
        def __len__(self):
            return 1

        def __getitem__(self, i):
            return porta.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="non-leaf tensor that requires grad.*detach"):
        list(D.DataLoader(Graph(), batch_size=None, num_workers=1))


class Fails(D.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == 3:
            raise KeyError(f"record {i} is missing")
        return i


def test_a_workers_exception_is_raised_with_its_worker_and_traceback():
    loader = D.DataLoader(Fails(), batch_size=None, num_workers=2)
    got = []
    with pytest.raises(KeyError, match=r"(?s)Caught KeyError in DataLoader worker process 1\..*record 3 is missing"):
        for x in loader:
            got.append(int(x))
    assert got == [0, 1, 2]

    class Local(Exception):  # cannot be pickled back: the loader raises RuntimeError with the same message
        pass

    class Raises(D.Dataset):
        def __len__(self):
            return 1

        def __getitem__(self, i):
            raise Local("made in a worker")
    with pytest.raises(RuntimeError, match="(?s)Caught Local in DataLoader worker process 0.*made in a worker"):
        list(D.DataLoader(Raises(), batch_size=None, num_workers=1))


def _bad_init(worker_id):
    raise ValueError(f"init of worker {worker_id} failed")


def test_worker_init_fn_runs_in_the_worker_and_its_failure_is_raised():
    with pytest.raises(ValueError, match="init of worker 0 failed"):
        list(D.DataLoader(Numbers(), batch_size=2, num_workers=1, worker_init_fn=_bad_init))


DIED_WITH_3 = r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly with exit code 3"


class ExitsAt(D.Dataset):
    """Four items; the worker asked for item `fatal` exits with code 3."""

    def __init__(self, fatal):
        self.fatal = fatal

    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == self.fatal:
            os._exit(3)
        return i


def test_asking_a_worker_that_already_died_raises_its_death():
    # The order the test below may take: the worker dies right after an answer, before the loader's next request,
    # whose send then finds the pipe closed. That is the worker's death too, not a BrokenPipeError.
    from porta.utils import _workers

    loader = D.DataLoader(ExitsAt(1), batch_size=None, num_workers=1)
    workers = _workers.pool(loader, loader._fetcher)
    try:
        workers.request(0, "batch", 0, [1])
        workers.procs[0].join(timeout=30)
        assert workers.procs[0].exitcode == 3
        with pytest.raises(RuntimeError, match=DIED_WITH_3):
            workers.request(0, "batch", 1, [2])
    finally:
        workers.close()


def test_a_dying_worker_and_a_timeout_raise_instead_of_hanging():
    with pytest.raises(RuntimeError, match=DIED_WITH_3):
        list(D.DataLoader(ExitsAt(2), batch_size=None, num_workers=1))

    class Slow(D.Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            time.sleep(30 if i == 1 else 0)
            return i
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.5 seconds"):
        list(D.DataLoader(Slow(), batch_size=None, num_workers=1, timeout=0.5))
    assert time.monotonic() - start < 20  # the slow worker was terminated, not waited for


def test_workers_stop_with_the_iterator_and_persistent_ones_resume_cleanly():
    loader = D.DataLoader(Numbers(), batch_size=2, num_workers=2, persistent_workers=True, prefetch_factor=3)
    it = iter(loader)
    first = next(it)
    assert first[1].tolist() == [0, 1]
    del it  # left early with requests in flight: the next epoch drains them and starts from the beginning
    assert [b[1].tolist() for b in loader] == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]]
    procs = loader._workers.procs
    assert all(p.is_alive() for p in procs)
    del loader
    assert all(not p.is_alive() for p in procs)
    it = iter(D.DataLoader(Numbers(), batch_size=2, num_workers=2))
    next(it)
    procs = it.gi_frame.f_locals["workers"].procs
    it.close()  # a non-persistent epoch's workers go with its iterator
    assert len(procs) == 2 and all(not p.is_alive() for p in procs)


def test_an_iterable_datasets_persistent_workers_restart_their_streams():
    class Stream(D.IterableDataset):
        def __iter__(self):
            info = D.get_worker_info()
            return iter(range(info.id, 10, info.num_workers))
    loader = D.DataLoader(Stream(), batch_size=2, num_workers=2, persistent_workers=True)
    epochs = [[b.tolist() for b in loader] for _ in range(2)]
    assert epochs[0] == epochs[1] == [[0, 2], [1, 3], [4, 6], [5, 7], [8], [9]]


def test_pin_memory_pins_in_the_loading_process():
    # Only CUDA has page-locked memory here (mock's "pinned" memory is plain), so is_pinned() is checked there.
    cuda = porta.cuda.is_available()
    x, i = next(iter(D.DataLoader(Numbers(), batch_size=4, num_workers=1, pin_memory=True,
                                  pin_memory_device="cuda:0" if cuda else "mock:0")))
    assert x.device == porta.device("cpu") and x.tolist()[3] == [3, 6] and i.tolist() == [0, 1, 2, 3]
    assert x.is_pinned() == i.is_pinned() == cuda


@pytest.mark.parametrize("workers", [0, 1])
@pytest.mark.parametrize("collate", ["custom", "none"])
def test_pin_memory_pins_what_any_collate_fn_returns(monkeypatch, workers, collate):
    # mock's pinned memory is plain, so the pinning step itself is watched.
    from porta.utils import _fetch
    pinned = []
    real_pin = _fetch.pin
    monkeypatch.setattr(_fetch, "pin", lambda batch, dev: pinned.append(dev) or real_pin(batch, dev))
    monkeypatch.setattr(D, "pin", _fetch.pin)
    options = (dict(batch_size=4, collate_fn=lambda s: [porta.stack([x for x, _ in s])]) if collate == "custom" else
               dict(batch_size=None))
    batch = next(iter(D.DataLoader(Numbers(), num_workers=workers, pin_memory=True, pin_memory_device="mock:0",
                                   **options)))
    assert pinned and all(d == porta.device("mock:0") for d in pinned)
    if collate == "custom":
        assert batch[0].device == porta.device("cpu") and batch[0].tolist()[3] == [3, 6]
    else:
        assert batch[0].tolist() == [0, 0] and batch[1] == 0


def test_spawned_workers_receive_the_dataset_pickled():
    loader = D.DataLoader(Numbers(6), batch_size=3, num_workers=1, multiprocessing_context="spawn")
    assert [b[1].tolist() for b in loader] == [[0, 1, 2], [3, 4, 5]]


class WaitsForMarker(D.Dataset):
    """Item 0 waits (at most `patience` seconds) for a file the test makes once it has received another item."""

    def __init__(self, marker, patience=10):
        self.marker, self.patience = marker, patience

    def __len__(self):
        return 4

    def __getitem__(self, i):
        deadline = time.monotonic() + self.patience
        while i == 0 and not os.path.exists(self.marker) and time.monotonic() < deadline:
            time.sleep(0.01)
        return i


def test_in_order_false_hands_over_batches_as_workers_finish_them(tmp_path):
    marker = str(tmp_path / "received")
    got = []
    for i in D.DataLoader(WaitsForMarker(marker), batch_size=None, num_workers=2, in_order=False):
        got.append(int(i))
        open(marker, "w").close()
    assert got[0] != 0 and sorted(got) == [0, 1, 2, 3]  # item 0 came after one the slow worker did not hold up
    os.remove(marker)
    in_order = D.DataLoader(WaitsForMarker(marker, patience=0.3), batch_size=None, num_workers=2)
    assert [int(i) for i in in_order] == [0, 1, 2, 3]  # in order, item 0 first, however long it takes


def test_worker_options_pytorch_refuses_are_refused():
    with pytest.raises(ValueError, match="multiprocessing_context can only be used with multi-process loading"):
        D.DataLoader(Numbers(), multiprocessing_context="fork")
    with pytest.raises(ValueError, match="should specify a valid start method in .*'spawn'.*, but got multiprocessing_context='thread'"):
        D.DataLoader(Numbers(), num_workers=1, multiprocessing_context="thread")


def test_pytorchs_loader_gives_the_same_orders_and_messages():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (the side-by-side half)")
    from torch.utils import data as T

    class TorchStream(T.IterableDataset):
        def __iter__(self):
            info = T.get_worker_info()
            return iter(range(info.id, 10, info.num_workers))

    class TorchFails(T.Dataset):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            if i == 3:
                raise KeyError(f"record {i} is missing")
            return torch.tensor([float(i)])
    loader = T.DataLoader(TorchStream(), batch_size=2, num_workers=2, persistent_workers=True)
    assert [[b.tolist() for b in loader] for _ in range(2)] == [[[0, 2], [1, 3], [4, 6], [5, 7], [8], [9]]] * 2
    got = []
    with pytest.raises(KeyError, match=r"(?s)Caught KeyError in DataLoader worker process 1\..*record 3 is missing"):
        for x in T.DataLoader(TorchFails(), batch_size=None, num_workers=2):
            got.append(int(x))
    assert got == [0, 1, 2]
