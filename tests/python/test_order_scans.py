"""cummax / cummin, mode, searchsorted and bucketize (ABI 1.7), on every device, against NumPy-built
references with PyTorch's tie and NaN rules (the expectations were read off torch 2.15's CPU); values,
indices, gradients and errors; and against torch when it is installed."""
import numpy as np
import pytest

import porta

R = np.random.RandomState(5)
NAN = float("nan")


def arr(t):
    return np.asarray(t.tolist())


def ref_running(x, is_max):
    """PyTorch's cummax / cummin of a 1-D x: a later equal element takes over, NaN wins, a later NaN too."""
    values, indices = [], []
    for i, v in enumerate(x):
        if not indices:
            best = i
        else:
            b = x[best]
            if np.isnan(v) or (not np.isnan(b) and (v >= b if is_max else v <= b)):
                best = i
        values.append(x[best])
        indices.append(best)
    return np.array(values), np.array(indices)


@pytest.mark.parametrize("is_max", [True, False])
def test_cummax_cummin_ties_and_nans(device, is_max):
    x = np.array([1.0, 3, 3, 2, NAN, 5, NAN, 1, 0, 0, 9])
    v, i = (porta.cummax if is_max else porta.cummin)(porta.tensor(x, device=device), 0)
    want_v, want_i = ref_running(x, is_max)
    np.testing.assert_array_equal(arr(v), want_v)
    np.testing.assert_array_equal(arr(i), want_i)
    m = R.randint(0, 4, size=(3, 37)).astype(np.float64)  # many ties, more than one doubling pass
    t = porta.tensor(m, device=device)
    v, i = t.cummax(1) if is_max else t.cummin(1)
    for r in range(3):
        want_v, want_i = ref_running(m[r], is_max)
        np.testing.assert_array_equal(arr(v)[r], want_v)
        np.testing.assert_array_equal(arr(i)[r], want_i)
    v0, _ = (t.cummax(0) if is_max else t.cummin(0))
    np.testing.assert_array_equal(arr(v0), (np.maximum if is_max else np.minimum).accumulate(m, axis=0))


def test_cummax_integers_gradients_and_shapes(device):
    v, i = porta.tensor([[1, 5], [3, 2]], device=device).cummax(0)
    assert v.tolist() == [[1, 5], [3, 5]] and i.tolist() == [[0, 0], [1, 0]]
    x = porta.tensor([[1.0, 3, 2], [4, 0, 5]], device=device, requires_grad=True)
    v, _ = porta.cummax(x, 1)
    v.sum().backward()
    assert x.grad.tolist() == [[1.0, 2.0, 0.0], [2.0, 0.0, 1.0]]
    s, j = porta.tensor(5.0, device=device).cummin(0)
    assert s.item() == 5.0 and j.item() == 0 and s.ndim == 0
    e, k = porta.zeros(2, 0, device=device).cummax(1)
    assert tuple(e.shape) == (2, 0) and tuple(k.shape) == (2, 0)
    with pytest.raises(porta.PortaError, match="cummax: dimension 2 is out of range"):
        x.cummax(2)


def ref_mode(row):
    """The smallest of the most frequent values (each NaN once) and its last index (PyTorch's rule for rows
    without NaN; with NaN, PyTorch's CPU result follows where its sort left the NaNs: docs/api.md)."""
    counts = {}
    for v in row:
        if not np.isnan(v):
            counts[v] = counts.get(v, 0) + 1
    nan_count = int(np.isnan(row).sum())
    top = max(list(counts.values()) + [1 if nan_count else 0])
    value = min(v for v, c in counts.items() if c == top) if any(c == top for c in counts.values()) else NAN
    index = max(k for k, v in enumerate(row) if v == value) if not np.isnan(value) else None
    return value, index


def test_mode_matches_pytorchs_choice(device):
    x = np.array([[3.0, 1, 3, 1, 2], [5, 5, 7, 7, 7], [2, NAN, NAN, 1, 4], [9, 9, 9, 9, 9]])
    v, i = porta.tensor(x, device=device).mode(1)
    for r in range(4):
        want_v, want_i = ref_mode(x[r])
        assert arr(v)[r] == want_v and arr(i)[r] == want_i
    m = R.randint(0, 5, size=(4, 23)).astype(np.float64)
    v, i = porta.mode(porta.tensor(m, device=device), 1, keepdim=True)
    assert tuple(v.shape) == (4, 1)
    for r in range(4):
        assert (arr(v)[r, 0], arr(i)[r, 0]) == ref_mode(m[r])
    v, i = porta.tensor([[1, 2], [1, 3], [2, 2]], device=device).mode(0)
    assert v.tolist() == [1, 2] and i.tolist() == [1, 2]
    t = porta.tensor([[4.0, 1, 4], [2, 2, 0]], device=device, requires_grad=True)
    t.mode(1).values.sum().backward()
    assert t.grad.tolist() == [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    assert porta.tensor(3.0, device=device).mode().values.item() == 3.0
    with pytest.raises(porta.PortaError, match=r"mode\(\): Expected reduction dim 1 to have non-zero size"):
        porta.zeros(2, 0, device=device).mode(1)


def ref_searchsorted(seq, v, right):
    """PyTorch's loop, NaN comparisons included."""
    lo, hi = 0, len(seq)
    while lo < hi:
        mid = (lo + hi) // 2
        if not (seq[mid] > v if right else seq[mid] >= v):
            lo = mid + 1
        else:
            hi = mid
    return lo


@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_and_bucketize_follow_pytorchs_search(device, right):
    seq = np.array([1.0, 2, 2, 3, NAN])
    vals = np.array([2.0, NAN, 0, 5, 2.5, 1, 3])
    got = porta.searchsorted(porta.tensor(seq, device=device), porta.tensor(vals, device=device), right=right)
    assert got.tolist() == [ref_searchsorted(seq, v, right) for v in vals]
    assert got.dtype == porta.int64
    side = "right" if right else "left"
    s = np.sort(R.randint(0, 9, size=40)).astype(np.float64)
    q = R.uniform(-1, 10, size=(3, 5))
    got = arr(porta.searchsorted(porta.tensor(s, device=device), porta.tensor(q, device=device), side=side))
    np.testing.assert_array_equal(got, np.searchsorted(s, q, side=side))
    b = arr(porta.bucketize(porta.tensor(q, device=device), porta.tensor(s, device=device), right=right,
                            out_int32=True))
    np.testing.assert_array_equal(b, np.searchsorted(s, q, side=side))


def test_searchsorted_batched_sorter_scalars_and_errors(device):
    seq = porta.tensor([[1.0, 3], [2, 4]], device=device)
    assert porta.searchsorted(seq, porta.tensor([[2.0, 3, 4], [1, 2, 5]], device=device)).tolist() == [[1, 1, 2],
                                                                                                      [0, 0, 2]]
    ints = porta.tensor([1, 3, 5], device=device)
    assert porta.searchsorted(ints, porta.tensor([2.5, 3.0], device=device)).tolist() == [1, 1]
    one = porta.searchsorted(ints, 3)
    assert one.ndim == 0 and one.item() == 1
    assert porta.bucketize(3, porta.tensor([1, 5], device=device)).item() == 1
    shuffled = porta.tensor([3.0, 1, 2], device=device)
    order = porta.tensor([1, 2, 0], device=device)
    assert porta.searchsorted(shuffled, porta.tensor([2.0], device=device), sorter=order).tolist() == [1]
    assert porta.searchsorted(porta.tensor([], device=device), porta.tensor([1.0], device=device)).tolist() == [0]
    assert porta.searchsorted(ints, porta.tensor([[0, 9]], device=device), out_int32=True).dtype == porta.int32
    with pytest.raises(porta.PortaError, match="first N-1 dimensions of boundaries tensor and input value tensor"):
        porta.searchsorted(seq, porta.tensor([2.0, 3], device=device))
    with pytest.raises(porta.PortaError, match="boundaries tensor must be 1 dimension, but got dim"):
        porta.bucketize(porta.tensor([1.0], device=device), seq)
    with pytest.raises(RuntimeError, match="side and right can't be set to opposites"):
        porta.searchsorted(ints, 3, side="left", right=True)
    with pytest.raises(porta.PortaError, match="boundary and sorter must have the same size"):
        porta.searchsorted(ints, 3, sorter=porta.tensor([0], device=device))


def test_values_and_indices_match_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    x = R.randint(0, 4, size=(5, 19)).astype(np.float64)
    x[1, 3] = x[2, 7] = x[2, 9] = NAN
    for name in ("cummax", "cummin"):
        for d in (0, 1):
            a, b = getattr(porta.tensor(x), name)(d), getattr(torch.tensor(x), name)(d)
            np.testing.assert_array_equal(arr(a.values), b.values.numpy())
            np.testing.assert_array_equal(arr(a.indices), b.indices.numpy())
    clean = np.nan_to_num(x, nan=5.0)  # PyTorch's mode of a row with NaN depends on how its sort moved the NaNs
    for d in (0, 1):
        a, b = porta.tensor(clean).mode(d), torch.tensor(clean).mode(d)
        np.testing.assert_array_equal(arr(a.values), b.values.numpy())
        # which occurrence PyTorch points at is unspecified (its sort of a long row is unstable): both name one
        at = np.take_along_axis(clean, np.expand_dims(arr(a.indices).astype(int), d), d).squeeze(d)
        np.testing.assert_array_equal(at, b.values.numpy())
    short = np.array([[3.0, 1, 3, 1, 2], [5, 5, 7, 7, 7]])  # short rows: PyTorch's last occurrence, as Porta's
    np.testing.assert_array_equal(arr(porta.tensor(short).mode(1).indices), torch.tensor(short).mode(1).indices)
    s = np.sort(R.uniform(0, 1, size=(5, 8)), axis=1)
    s[0, -1] = NAN
    q = R.uniform(-0.2, 1.2, size=(5, 6))
    q[1, 2] = NAN
    for right in (False, True):
        a = porta.searchsorted(porta.tensor(s), porta.tensor(q), right=right)
        np.testing.assert_array_equal(arr(a), torch.searchsorted(torch.tensor(s), torch.tensor(q), right=right).numpy())
