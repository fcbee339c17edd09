"""Random numbers as PyTorch spells them (ABI 1.4), on every device: generator= on rand / randn / randint /
normal / bernoulli / multinomial / uniform_ / normal_ / bernoulli_ / randperm, size=, the normal overloads,
*_like; a Generator's state advances only on success and the same state gives the same numbers on every
device; statistics of the samples are checked with bounds that a wrong distribution fails."""
import numpy as np
import pytest

import porta


def arr(t):
    return np.asarray(t.tolist())


def test_a_generator_repeats_and_leaves_the_global_one_alone(device):
    porta.manual_seed(5)
    before = porta.get_rng_state()
    g = porta.Generator().manual_seed(11)
    a = porta.rand(3, 4, generator=g, device=device)
    b = porta.randn(size=(2,), generator=g, device=device)
    assert g.get_state() == (11, 14)  # one counter per element
    assert porta.get_rng_state() == before
    g.manual_seed(11)
    assert porta.rand(3, 4, generator=g, device=device).tolist() == a.tolist()
    assert porta.randn(2, generator=g, device=device).tolist() == b.tolist()
    on_cpu = porta.rand(3, 4, generator=porta.Generator().manual_seed(11))
    assert on_cpu.tolist() == a.tolist()  # same state, same numbers on every device


def test_failed_draws_do_not_advance_the_generator(device):
    g = porta.Generator().manual_seed(3)
    with pytest.raises(porta.InvalidArgumentError, match="low to be less than high"):
        porta.randint(5, 5, (3,), generator=g, device=device)
    with pytest.raises(porta.InvalidArgumentError, match="0 <= p <= 1"):
        porta.bernoulli(porta.full((2,), 1.5, device=device), generator=g)
    assert g.get_state() == (3, 0)
    with pytest.raises(TypeError, match="porta.Generator"):
        porta.rand(2, generator=42)


def test_randint_forms_and_range(device):
    g = porta.Generator().manual_seed(0)
    x = porta.randint(3, 9, (4000,), generator=g, device=device)
    assert x.dtype == porta.int64 and x.min().item() == 3 and x.max().item() == 8
    counts = np.bincount(arr(x) - 3, minlength=6)
    assert counts.min() > 550 and counts.max() < 800  # 666 each; a skewed draw fails
    assert porta.randint(5, (2, 2), device=device).shape == (2, 2)
    assert porta.randint(low=-2, high=0, size=(3,), dtype=porta.int32, device=device).dtype == porta.int32
    assert porta.randint_like(x, 10).shape == x.shape


def test_normal_overloads(device):
    g = porta.Generator().manual_seed(1)
    x = porta.normal(2.0, 3.0, size=(20000,), generator=g, device=device)
    assert abs(x.mean().item() - 2.0) < 0.1 and abs(x.std().item() - 3.0) < 0.1
    mean = porta.tensor([0.0, 100.0], dtype=porta.float64, device=device)
    y = porta.normal(mean, porta.tensor([1e-9, 1e-9], dtype=porta.float64, device=device))
    np.testing.assert_allclose(arr(y), [0.0, 100.0], atol=1e-6)
    z = porta.normal(mean, 0.5)
    assert z.shape == (2,) and z.dtype == porta.float64
    with pytest.raises(porta.InvalidArgumentError, match="std >= 0"):
        porta.normal(mean, porta.tensor([-1.0, 1.0], dtype=porta.float64, device=device))


def test_bernoulli_and_inplace_fills(device):
    g = porta.Generator().manual_seed(2)
    p = porta.full((10000,), 0.3, device=device)
    draws = porta.bernoulli(p, generator=g)
    assert set(arr(draws).tolist()) <= {0.0, 1.0} and abs(draws.mean().item() - 0.3) < 0.03
    t = porta.empty(5000, device=device)
    t.bernoulli_(0.75, generator=g)
    assert abs(t.mean().item() - 0.75) < 0.04
    t.uniform_(-1, 1, generator=g)
    assert -1 <= t.min().item() and t.max().item() < 1
    t.normal_(5, 0.1, generator=g)
    assert abs(t.mean().item() - 5) < 0.01


def test_multinomial(device):
    g = porta.Generator().manual_seed(4)
    probs = porta.tensor([0.0, 1.0, 3.0], device=device)
    draws = porta.multinomial(probs, 4000, replacement=True, generator=g)
    counts = np.bincount(arr(draws), minlength=3)
    assert counts[0] == 0 and 850 < counts[1] < 1150 and 2850 < counts[2] < 3150
    rows = probs.repeat(2, 1).multinomial(2, generator=g)  # without replacement: distinct classes
    assert rows.shape == (2, 2) and all(sorted(r) == [1, 2] for r in rows.tolist())
    with pytest.raises(porta.InvalidArgumentError, match="without replacement"):
        porta.multinomial(probs, 4)
    with pytest.raises(porta.InvalidArgumentError, match="element < 0"):
        porta.multinomial(porta.tensor([1.0, -1.0], device=device), 1)


def test_loaders_and_random_split_take_generators():
    from porta.utils.data import random_split
    parts = random_split(list(range(10)), [0.5, 0.5], generator=porta.Generator().manual_seed(9))
    again = random_split(list(range(10)), [0.5, 0.5], generator=porta.Generator().manual_seed(9))
    assert [list(p.indices) for p in parts] == [list(p.indices) for p in again]
