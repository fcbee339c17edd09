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
    down = t.sort(dim, descending=True, stable=True)
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
    with pytest.raises(NotImplementedError, match="dim="):
        t.unique(dim=0)


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
