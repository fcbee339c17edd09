"""porta.utils.data's samplers, composite datasets and IterableDataset loading, against torch.utils.data's rules.
Orders come from Porta's generator, so they are compared with porta.randperm, not with PyTorch's orders."""
import collections

import pytest

import porta
from porta.utils import data as D


def seeded(seed=7):
    return porta.Generator().manual_seed(seed)


class Stream(D.IterableDataset):
    """range(start, end); in a worker, only the items i with i % num_workers == id (PyTorch's doc pattern)."""

    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        info = D.get_worker_info()
        step, first = (1, 0) if info is None else (info.num_workers, info.id)
        return iter(range(self.start + first, self.end, step))


def test_permutation_samplers_give_every_index_once_and_repeat_with_a_seed():
    ds = list(range(10))
    order = list(D.RandomSampler(ds, generator=seeded()))
    assert sorted(order) == ds and len(D.RandomSampler(ds)) == 10
    assert order == list(D.RandomSampler(ds, generator=seeded())) == porta.randperm(10, generator=seeded()).tolist()
    assert order != list(D.RandomSampler(ds, generator=seeded(8)))
    porta.manual_seed(3)  # no generator: the global one, which manual_seed makes reproducible
    first = list(D.RandomSampler(ds))
    porta.manual_seed(3)
    assert list(D.RandomSampler(ds)) == first
    counts = collections.Counter(D.RandomSampler(ds, num_samples=25, generator=seeded()))
    assert len(D.RandomSampler(ds, num_samples=25)) == 25 and sorted(counts.values()) == [2] * 5 + [3] * 5
    drawn = list(D.RandomSampler(ds, replacement=True, num_samples=50, generator=seeded()))
    assert len(drawn) == 50 and set(drawn) <= set(ds)
    assert drawn == list(D.RandomSampler(ds, replacement=True, num_samples=50, generator=seeded()))
    subset = [4, 8, 15, 16, 23, 42]
    picked = list(D.SubsetRandomSampler(subset, generator=seeded()))
    assert sorted(picked) == subset and picked == list(D.SubsetRandomSampler(subset, generator=seeded()))
    assert list(D.SequentialSampler(ds)) == ds and len(D.SubsetRandomSampler(subset)) == 6


def test_weighted_random_sampler_follows_the_weights():
    draws = list(D.WeightedRandomSampler([1.0, 2.0, 0.0, 7.0], 4000, generator=seeded()))
    freq = collections.Counter(draws)
    assert len(draws) == 4000 and freq[2] == 0
    for i, p in ((0, 0.1), (1, 0.2), (3, 0.7)):  # the standard error is < 0.008; 0.04 cannot flake at one seed
        assert abs(freq[i] / 4000 - p) < 0.04, (i, freq)
    once = list(D.WeightedRandomSampler(porta.tensor([1.0, 1.0, 0.0, 1.0]), 3, replacement=False, generator=seeded()))
    assert sorted(once) == [0, 1, 3]
    assert draws == list(D.WeightedRandomSampler([1.0, 2.0, 0.0, 7.0], 4000, generator=seeded()))


def test_batch_sampler_batches_and_drops_the_last():
    assert list(D.BatchSampler(range(7), 3, False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(D.BatchSampler(range(7), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(D.BatchSampler(range(7), 3, False)) == 3 and len(D.BatchSampler(range(7), 3, True)) == 2
    assert list(D.BatchSampler(range(6), 3, True)) == [[0, 1, 2], [3, 4, 5]]


def test_samplers_refuse_bad_arguments():
    with pytest.raises(ValueError, match="batch_size should be a positive integer value, but got batch_size=0"):
        D.BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value"):
        D.BatchSampler(range(3), 2, 1)
    with pytest.raises(TypeError, match="replacement should be a boolean value"):
        D.RandomSampler(range(3), replacement=1)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but got num_samples=0"):
        D.RandomSampler([])
    with pytest.raises(ValueError, match=r"weights should be a 1d sequence but given weights have shape \(1, 2\)"):
        D.WeightedRandomSampler([[1.0, 2.0]], 2)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        D.WeightedRandomSampler([1.0], True)
    with pytest.raises(TypeError, match="porta.Generator"):
        D.SubsetRandomSampler([1], generator=3)


def test_loader_takes_samplers_and_batch_samplers():
    ds = D.TensorDataset(porta.arange(10))
    sampler = D.SubsetRandomSampler([1, 3, 5, 7, 9], generator=seeded())
    loader = D.DataLoader(ds, batch_size=2, sampler=sampler)
    got = [b[0].tolist() for b in loader]
    assert len(loader) == 3 and [len(b) for b in got] == [2, 2, 1] and sorted(sum(got, [])) == [1, 3, 5, 7, 9]
    batches = D.BatchSampler(D.SequentialSampler(ds), 4, True)
    loader = D.DataLoader(ds, batch_sampler=batches, num_workers=2)
    assert len(loader) == 2 and loader.batch_size is None and [b[0].tolist() for b in loader] == [[0, 1, 2, 3],
                                                                                                  [4, 5, 6, 7]]
    assert [b[0].tolist() for b in D.DataLoader(ds, batch_sampler=[[9, 0], [5]])] == [[9, 0], [5]]
    # shuffle=True makes a RandomSampler over the loader's generator: epoch by epoch, that generator's permutations
    loader = D.DataLoader(ds, batch_size=10, shuffle=True, generator=seeded())
    assert isinstance(loader.sampler, D.RandomSampler) and loader.sampler.generator is loader.generator
    assert next(iter(loader))[0].tolist() == porta.randperm(10, generator=seeded()).tolist()
    for bad in ({"batch_size": 2}, {"shuffle": True}, {"sampler": [0]}, {"drop_last": True}):
        with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive with batch_size, shuffle"):
            D.DataLoader(ds, batch_sampler=batches, **bad)
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        D.DataLoader(ds, batch_size=0)


def test_map_style_workers_answer_get_worker_info():
    assert D.get_worker_info() is None

    class Who(D.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            info = D.get_worker_info()
            return (info.id, info.num_workers, info.dataset is self)

    seen = [tuple(b) for b in D.DataLoader(Who(), batch_size=None, num_workers=2)]
    assert {s[0] for s in seen} <= {0, 1} and all(s[1:] == (2, True) for s in seen)


def test_random_split_distributes_the_remainder_round_robin():
    def lengths(n, fractions):
        return [len(s) for s in D.random_split(range(n), fractions, generator=seeded())]
    assert lengths(11, [0.25] * 4) == [3, 3, 3, 2]  # floors 2, 2, 2, 2; remainder 3 to splits 0, 1, 2
    assert lengths(10, [0.3, 0.3, 0.4]) == [3, 3, 4]
    assert lengths(7, [0.1, 0.1, 0.8]) == [1, 1, 5]  # floors 0, 0, 5; remainder 2
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        assert lengths(2, [0.1, 0.1, 0.8]) == [1, 0, 1]  # floors 0, 0, 1; remainder 1
    parts = D.random_split(range(10), [0.5, 0.5], generator=seeded())
    assert sorted(list(parts[0]) + list(parts[1])) == list(range(10))
    with pytest.raises(ValueError, match="Sum of input lengths does not equal the length of the input dataset"):
        D.random_split(range(10), [0.5, 0.6])
    with pytest.raises(ValueError, match="Fraction at index 0 is not between 0 and 1"):
        D.random_split(range(10), [1.5, -0.5])


def test_concat_stack_and_chain_datasets():
    a, b = D.TensorDataset(porta.arange(3)), D.TensorDataset(porta.arange(10, 14))
    both = a + b
    assert isinstance(both, D.ConcatDataset) and len(both) == 7 and both.cumulative_sizes == [3, 7]
    assert [int(both[i][0]) for i in range(7)] == [0, 1, 2, 10, 11, 12, 13]
    assert [int(both[i][0]) for i in range(-7, 0)] == [0, 1, 2, 10, 11, 12, 13]
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        both[-8]
    with pytest.raises(IndexError, match="index 7 is out of range for length 7"):
        both[7]
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        D.ConcatDataset([Stream(0, 2)])
    assert [b[0].tolist() for b in D.DataLoader(both, batch_size=4)] == [[0, 1, 2, 10], [11, 12, 13]]
    chain = Stream(0, 2) + Stream(5, 7)
    assert isinstance(chain, D.ChainDataset) and list(chain) == [0, 1, 5, 6]
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(D.ChainDataset([[1, 2]]))
    stack = D.StackDataset(x=[1, 2], y=["a", "b"])
    assert len(stack) == 2 and stack[1] == {"x": 2, "y": "b"} and D.StackDataset([1], [2])[0] == (1, 2)
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        D.StackDataset([1], [1, 2])


def _start_at_100(worker_id):
    info = D.get_worker_info()
    assert info.id == worker_id
    info.dataset.start = 100  # a worker's replica only; the loader's dataset keeps its start


def test_iterable_dataset_batches_its_stream():
    def run(**kw):
        return [b.tolist() for b in D.DataLoader(Stream(0, 7), **kw)]
    assert run(batch_size=3) == [[0, 1, 2], [3, 4, 5], [6]] and run(batch_size=3, drop_last=True) == [[0, 1, 2],
                                                                                                     [3, 4, 5]]
    assert list(D.DataLoader(Stream(0, 3), batch_size=None)) == [0, 1, 2]
    with pytest.raises(TypeError, match="has no len"):
        len(D.DataLoader(Stream(0, 3)))
    # Workers replicate the stream, each its own copy: worker w yields w, w + 2, ..., batched on its own, and the
    # loader takes the workers' batches in turn (PyTorch's order for this dataset).
    assert run(batch_size=2, num_workers=2) == [[0, 2], [1, 3], [4, 6], [5]]
    loader = D.DataLoader(Stream(0, 104), batch_size=None, num_workers=2, worker_init_fn=_start_at_100)
    assert sorted(loader) == [100, 101, 102, 103] and loader.dataset.start == 0
    for bad, msg in (({"shuffle": True}, "expected unspecified shuffle option"),
                     ({"sampler": [0]}, "expected unspecified sampler option"),
                     ({"batch_sampler": [[0]]}, "expected unspecified batch_sampler option")):
        with pytest.raises(ValueError, match="DataLoader with IterableDataset: " + msg):
            D.DataLoader(Stream(0, 3), **bad)


def test_an_iterable_workers_error_reaches_the_loop():
    class Broken(D.IterableDataset):
        def __iter__(self):
            yield 1
            raise KeyError("bad record")
    with pytest.raises(KeyError, match="bad record"):
        list(D.DataLoader(Broken(), batch_size=None, num_workers=2))
