"""DistributedSampler as torch.utils.data's: each rank's share is disjoint from the others', together they cover the
dataset (padded with its first indices so every rank runs the same number of steps, or its tail dropped with
drop_last), the order is the same on every rank for an epoch and another for the next, and a bad rank is refused.
No process group is needed when num_replicas and rank are given."""
import math

import pytest

import porta
from porta.utils.data import DataLoader, DistributedSampler, TensorDataset


def shares(n, replicas, **kw):
    return [list(DistributedSampler(range(n), num_replicas=replicas, rank=r, **kw)) for r in range(replicas)]


@pytest.mark.parametrize("n,replicas", [(10, 4), (12, 4), (3, 4), (7, 1)])
def test_shares_pad_to_equal_lengths_and_cover_the_dataset(n, replicas):
    for shuffle in (False, True):
        parts = shares(n, replicas, shuffle=shuffle, seed=3)
        per = math.ceil(n / replicas)
        assert all(len(p) == per for p in parts)
        assert len(DistributedSampler(range(n), num_replicas=replicas, rank=0)) == per
        merged = [i for step in zip(*parts) for i in step]  # rank r's k-th index is position k * replicas + r
        assert sorted(set(merged)) == list(range(n))
        assert merged[n:] == merged[:len(merged) - n]  # the padding repeats the order's first indices
        if not shuffle:
            assert merged[:n] == list(range(n))


def test_the_order_is_the_seeded_permutation_of_seed_plus_epoch():
    s = DistributedSampler(range(10), num_replicas=1, rank=0, seed=7)
    s.set_epoch(2)
    assert list(s) == porta.randperm(10, generator=porta.Generator().manual_seed(9)).tolist()


def test_drop_last_drops_the_uneven_tail():
    parts = shares(10, 4, shuffle=False, drop_last=True)
    assert parts == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert len(DistributedSampler(range(10), num_replicas=4, rank=0, drop_last=True)) == 2


def test_set_epoch_draws_a_new_order_the_same_on_every_rank():
    a = [DistributedSampler(range(50), num_replicas=2, rank=r, seed=7) for r in range(2)]
    first = [list(s) for s in a]
    assert sorted(first[0] + first[1]) == list(range(50))
    assert [list(s) for s in a] == first  # the same epoch: the same order
    for s in a:
        s.set_epoch(1)
    second = [list(s) for s in a]
    assert second != first and sorted(second[0] + second[1]) == list(range(50))


def test_a_data_loader_walks_one_share():
    data = TensorDataset(porta.arange(10))
    loader = DataLoader(data, batch_size=2, sampler=DistributedSampler(data, num_replicas=2, rank=1, shuffle=False))
    assert [b[0].tolist() for b in loader] == [[1, 3], [5, 7], [9]]


def test_bad_ranks_and_a_missing_group_are_refused():
    with pytest.raises(ValueError, match=r"Invalid rank 4, rank should be in the interval \[0, 3\]"):
        DistributedSampler(range(8), num_replicas=4, rank=4)
    with pytest.raises(ValueError, match="num_replicas"):
        DistributedSampler(range(8), num_replicas=0, rank=0)
    with pytest.raises(RuntimeError, match="init_process_group"):
        DistributedSampler(range(8))
