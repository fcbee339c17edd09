"""Sorting and counting from Python (ABI 1.5), on every device: sort / argsort / msort (stable, NaN last,
descending), topk, kthvalue, unique / unique_consecutive (return_inverse, return_counts), bincount (weights,
minlength), against NumPy; sort's and topk's gradients; refused arguments."""
import numpy as np
import pytest

import porta


def arr(t):
    return np.asarray(t.tolist())


R = np.random.RandomState(3).randint(-4, 5, size=(3, 7, 5)).astype(np.float64)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_is_numpys_stable_sort(device, dim):
    t = porta.tensor(R, device=device)
    values, indices = porta.sort(t, dim=dim)
    np.testing.assert_array_equal(arr(values), np.sort(R, axis=dim, kind="stable"))
    np.testing.assert_array_equal(arr(indices), np.argsort(R, axis=dim, kind="stable"))
    down = t.sort(dim=dim, descending=True, stable=True)  # with stable=, every argument by keyword
    np.testing.assert_array_equal(arr(down.indices), np.argsort(-R, axis=dim, kind="stable"))
    np.testing.assert_array_equal(arr(t.argsort(dim=dim)), np.argsort(R, axis=dim, kind="stable"))
    np.testing.assert_array_equal(arr(t.msort()), np.sort(R, axis=0, kind="stable"))


def test_sort_puts_nan_last_ascending_and_first_descending(device):
    t = porta.tensor([1.0, float("nan"), -2.0, float("inf")], device=device)
    assert arr(t.sort().indices).tolist() == [2, 0, 3, 1]
    assert arr(t.sort(descending=True).indices).tolist() == [1, 3, 0, 2]


def test_topk_and_kthvalue(device):
    t = porta.tensor(R, device=device)
    values, indices = t.topk(3, dim=1)
    np.testing.assert_array_equal(arr(values), -np.sort(-R, axis=1, kind="stable")[:, :3])
    np.testing.assert_array_equal(arr(indices), np.argsort(-R, axis=1, kind="stable")[:, :3])
    low = porta.topk(t, 2, largest=False)
    np.testing.assert_array_equal(arr(low.values), np.sort(R, axis=-1)[..., :2])
    k = t.kthvalue(4, dim=1, keepdim=True)
    np.testing.assert_array_equal(arr(k.values), np.sort(R, axis=1)[:, 3:4])
    assert k.indices.shape == (3, 1, 5)
    with pytest.raises(porta.InvalidArgumentError, match="k out of range"):
        t.topk(8, dim=1)
    with pytest.raises(porta.InvalidArgumentError, match="out of range"):
        t.kthvalue(0)


def test_sort_and_topk_gradients_flow_to_the_sources(device):
    x = porta.tensor([3.0, 1.0, 2.0], device=device, requires_grad=True)
    v, _ = x.sort(descending=True)
    (v * porta.tensor([1.0, 10.0, 100.0], device=device)).sum().backward()
    assert arr(x.grad).tolist() == [1.0, 100.0, 10.0]
    y = porta.tensor([[3.0, 1.0, 2.0]], device=device, requires_grad=True)
    y.topk(2).values.sum().backward()
    assert arr(y.grad).tolist() == [[1.0, 0.0, 1.0]]


def test_unique_and_unique_consecutive(device):
    x = np.array([[2, 1, 2], [5, 1, 1]])
    t = porta.tensor(x, device=device)
    values, inverse, counts = porta.unique(t, return_inverse=True, return_counts=True)
    u, inv, cnt = np.unique(x, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(arr(values), u)
    np.testing.assert_array_equal(arr(inverse), inv.reshape(x.shape))
    np.testing.assert_array_equal(arr(counts), cnt)
    assert arr(t.unique()).tolist() == [1, 2, 5]
    values, counts = t.unique_consecutive(return_counts=True)
    assert arr(values).tolist() == [2, 1, 2, 5, 1] and arr(counts).tolist() == [1, 1, 1, 1, 2]
    nan = porta.tensor([1.0, float("nan"), float("nan")], device=device).unique()
    assert arr(nan)[0] == 1.0 and np.isnan(arr(nan)[1:]).all() and nan.shape == (3,)  # NaNs are distinct


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unique_along_a_dim_matches_numpy(device, dim):
    x = np.array([[1, 2, 1, 0], [3, 4, 3, 9], [1, 2, 1, 0], [0, 9, 0, 9]])
    values, inverse, counts = porta.tensor(x, device=device).unique(dim=dim, return_inverse=True, return_counts=True)
    u, inv, cnt = np.unique(x, axis=dim, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(arr(values), u)
    np.testing.assert_array_equal(arr(inverse), inv.reshape(-1))
    np.testing.assert_array_equal(arr(counts), cnt)
    r = np.random.RandomState(dim + 2).randint(0, 2, size=(2, 9, 3)).astype(np.float64)
    got = porta.unique(porta.tensor(r, device=device), dim=1, return_inverse=True)
    u, inv = np.unique(r, axis=1, return_inverse=True)
    np.testing.assert_array_equal(arr(got[0]), u)
    np.testing.assert_array_equal(arr(got[1]), inv.reshape(-1))


def test_unique_consecutive_along_a_dim_and_edges(device):
    x = porta.tensor([[1, 1], [1, 1], [2, 2], [1, 1]], device=device)
    values, inverse, counts = x.unique_consecutive(return_inverse=True, return_counts=True, dim=0)
    assert values.tolist() == [[1, 1], [2, 2], [1, 1]] and inverse.tolist() == [0, 0, 1, 2]
    assert counts.tolist() == [2, 1, 1]
    nan = porta.tensor([[1.0, float("nan")], [1.0, float("nan")]], device=device).unique(dim=0, return_counts=True)
    assert tuple(nan[0].shape) == (2, 2) and nan[1].tolist() == [1, 1]  # a slice with NaN equals no other
    empty, inv, cnt = porta.zeros(0, 2, device=device).unique(dim=0, return_inverse=True, return_counts=True)
    assert tuple(empty.shape) == (0, 2) and inv.tolist() == [] and cnt.tolist() == []
    with pytest.raises(porta.PortaError, match="There are 0 sized dimensions, and they aren't selected"):
        porta.zeros(3, 0, device=device).unique(dim=0)
    with pytest.raises(porta.PortaError, match="but tensor has no dimensions"):
        porta.tensor(5.0, device=device).unique(dim=0)


def test_bincount(device):
    x = porta.tensor([0, 1, 1, 4], device=device)
    assert arr(x.bincount()).tolist() == [1, 2, 0, 0, 1]
    assert arr(porta.bincount(x, minlength=7)).tolist() == [1, 2, 0, 0, 1, 0, 0]
    w = x.bincount(weights=porta.tensor([0.5, 1.0, 2.0, 3.0], device=device))
    assert w.dtype == porta.float32 and arr(w).tolist() == [0.5, 3.0, 0.0, 0.0, 3.0]
    assert x.bincount(weights=porta.tensor([1, 2, 3, 4], device=device)).dtype == porta.float64
    with pytest.raises(porta.InvalidArgumentError, match="non-negative"):
        porta.tensor([1, -1], device=device).bincount()
    with pytest.raises(porta.InvalidArgumentError, match="1-d non-negative integral"):
        porta.tensor([1.0], device=device).bincount()


def test_unique_along_a_dim_matches_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    r = np.random.RandomState(0)
    for shape, d in [((6, 3), 0), ((4, 7, 2), 1), ((5, 2, 3), 2), ((9, 2), -2)]:
        x = r.randint(0, 2, size=shape).astype(np.float32)
        for name in ("unique", "unique_consecutive"):
            a = getattr(porta.tensor(x), name)(dim=d, return_inverse=True, return_counts=True)
            b = getattr(torch.tensor(x), name)(dim=d, return_inverse=True, return_counts=True)
            for mine, theirs in zip(a, b):
                np.testing.assert_array_equal(arr(mine), theirs.numpy())
