"""Indexing, joins and scans from Python (ABI 1.4), on every device: gather / scatter / scatter_reduce,
index_select / index_add / index_copy / index_fill, masked_fill / masked_select, nonzero, take, cat / stack /
split / chunk / unbind, cumsum / cumprod, advanced indexing (t[idx], t[mask], t[[0, 2], :, idx]) in reading,
assignment and index_put_, nn.Embedding and F.one_hot. Values are checked against NumPy, gradients against
their analytic values."""
import numpy as np
import pytest

import porta
from porta import nn
from porta.nn import functional as F


def arr(t):
    return np.asarray(t.tolist())


def f64(values, device, **kw):
    return porta.tensor(values, dtype=porta.float64, device=device, **kw)


def i64(values, device):
    return porta.tensor(values, dtype=porta.int64, device=device)


X = np.arange(24, dtype=np.float64).reshape(2, 3, 4) * 0.5 - 3


# ------------------------------------------------------------ gather / scatter


def test_gather_matches_take_along_axis(device):
    x = f64(X, device)
    idx = np.array([[[0, 2, 1, 0]], [[2, 2, 0, 1]]])  # [2, 1, 4]: smaller than x outside dim 1
    got = x.gather(1, i64(idx, device))
    np.testing.assert_array_equal(arr(got), np.take_along_axis(X[:, :1 + 2, :], idx, 1))
    assert porta.gather(x, -2, i64(idx, device)).tolist() == got.tolist()


def test_gather_gradient_adds_repeats(device):
    x = f64([1.0, 2.0, 3.0], device, requires_grad=True)
    x.gather(0, i64([2, 2, 0], device)).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 2.0]


def test_gather_refuses_bad_indices(device):
    x = f64([1.0, 2.0, 3.0], device)
    with pytest.raises(porta.InvalidArgumentError, match="index 3 is out of bounds for dimension 0 with size 3"):
        x.gather(0, i64([0, 3], device))
    with pytest.raises(porta.InvalidArgumentError, match="index -1 is out of bounds"):
        x.gather(0, i64([-1], device))
    with pytest.raises(porta.DtypeError, match="int64 or int32 index"):
        x.gather(0, porta.tensor([0], dtype=porta.uint8, device=device))
    assert x.gather(0, porta.tensor([2, 0], dtype=porta.int32, device=device)).tolist() == [3, 1]  # as PyTorch


def test_scatter_keeps_the_last_repeat_and_adds_for_scatter_add(device):
    base = porta.zeros(2, 4, dtype=porta.float64, device=device)
    idx = i64([[1, 1, 3]], device)
    src = f64([[5.0, 6.0, 7.0]], device)
    assert base.scatter(1, idx, src).tolist() == [[0, 6, 0, 7], [0, 0, 0, 0]]
    assert base.scatter_add(1, idx, src).tolist() == [[0, 11, 0, 7], [0, 0, 0, 0]]
    assert base.scatter(1, idx, 2.5).tolist() == [[0, 2.5, 0, 2.5], [0, 0, 0, 0]]
    assert base.scatter(1, idx, src, reduce="add").tolist() == [[0, 11, 0, 7], [0, 0, 0, 0]]


@pytest.mark.parametrize("reduce,include_self,want", [
    ("sum", True, [1, 12, 3]), ("sum", False, [1, 10, 3]), ("prod", True, [1, 42, 3]), ("prod", False, [1, 21, 3]),
    ("amax", True, [1, 7, 3]), ("amin", True, [1, 2, 3]), ("amin", False, [1, 3, 3]),
    ("mean", True, [1, 4, 3]), ("mean", False, [1, 5, 3])])
def test_scatter_reduce(device, reduce, include_self, want):
    self_ = f64([1.0, 2.0, 3.0], device)
    got = self_.scatter_reduce(0, i64([1, 1], device), f64([3.0, 7.0], device), reduce, include_self=include_self)
    assert got.tolist() == want


def test_scatter_reduce_mean_of_integers_floors(device):
    got = i64([0, 9], device).scatter_reduce(0, i64([1, 1], device), i64([1, 2], device), "mean")
    assert got.tolist() == [0, 4]  # (9 + 1 + 2) // 3


def test_scatter_gradients(device):
    self_ = f64([1.0, 2.0, 3.0], device, requires_grad=True)
    src = f64([4.0, 5.0], device, requires_grad=True)
    (self_.scatter(0, i64([0, 2], device), src) * f64([1.0, 2.0, 3.0], device)).sum().backward()
    assert self_.grad.tolist() == [0.0, 2.0, 0.0]
    assert src.grad.tolist() == [1.0, 3.0]
    with pytest.raises(porta.NotImplementedByBackendError, match="amax"):
        self_.scatter_reduce(0, i64([0], device), src[:1], "amax")


def test_inplace_scatter_and_index_forms(device):
    t = porta.zeros(3, dtype=porta.float64, device=device)
    t.scatter_(0, i64([2], device), f64([1.5], device))
    t.index_fill_(0, i64([0], device), -1)
    t.index_add_(0, i64([2, 2], device), f64([1.0, 2.0], device), alpha=2)
    assert t.tolist() == [-1.0, 0.0, 7.5]


# ------------------------------------------------------------ index_* and masks


def test_index_select_add_copy(device):
    x = f64(X, device)
    idx = i64([2, 0, 2], device)
    np.testing.assert_array_equal(arr(x.index_select(1, idx)), X[:, [2, 0, 2], :])
    np.testing.assert_array_equal(arr(porta.index_select(x, 2, porta.tensor([3, 1], dtype=porta.int32,
                                                                              device=device))), X[:, :, [3, 1]])
    src = np.ones((2, 3, 2))
    want = X.copy()
    np.add.at(want, (slice(None), slice(None), [1, 1]), 3 * src)
    np.testing.assert_array_equal(arr(x.index_add(2, i64([1, 1], device), f64(src, device), alpha=3)), want)
    want = X.copy()
    want[:, :, 0] = 7
    got = x.index_copy(2, i64([0], device), porta.full((2, 3, 1), 7.0, dtype=porta.float64, device=device))
    np.testing.assert_array_equal(arr(got), want)


def test_index_select_gradient(device):
    w = f64([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], device, requires_grad=True)
    w.index_select(0, i64([2, 0, 2], device)).sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]


def test_masked_fill_select_nonzero_take(device):
    x = f64(X, device)
    mask = x > 0
    np.testing.assert_array_equal(arr(x.masked_fill(mask, 9)), np.where(X > 0, 9, X))
    np.testing.assert_array_equal(arr(x.masked_select(mask)), X[X > 0])
    np.testing.assert_array_equal(arr(mask.nonzero()), np.argwhere(X > 0))
    assert [arr(c).tolist() for c in mask.nonzero(as_tuple=True)] == [c.tolist() for c in np.nonzero(X > 0)]
    assert porta.zeros(3, device=device).nonzero().shape == (0, 1)
    np.testing.assert_array_equal(arr(x.take(i64([[0, -1], [5, 23]], device))), X.reshape(-1)[[[0, -1], [5, 23]]])
    with pytest.raises(porta.InvalidArgumentError, match="index 24 on a tensor of 24 elements"):
        x.take(i64([24], device))
    with pytest.raises(porta.DtypeError, match="bool mask"):
        x.masked_fill(x, 0)


def test_masked_fill_gradient_stops_where_filled(device):
    x = f64([1.0, -2.0, 3.0], device, requires_grad=True)
    x.masked_fill(x < 0, 0.0).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 1.0]


# ------------------------------------------------------------ joins, splits, scans


def test_cat_stack_split_chunk_unbind(device):
    a = f64([[1.0, 2.0]], device, requires_grad=True)
    b = porta.tensor([[3.0, 4.0], [5.0, 6.0]], device=device, requires_grad=True)  # float32: promotes
    c = porta.cat([a, b])
    assert c.dtype == porta.float64 and c.tolist() == [[1, 2], [3, 4], [5, 6]]
    (c * f64([[1.0], [2.0], [3.0]], device)).sum().backward()
    assert a.grad.tolist() == [[1.0, 1.0]] and b.grad.dtype == porta.float32 and b.grad.tolist() == [[2, 2], [3, 3]]
    assert porta.cat([porta.tensor([], device=device), f64([1.0], device)]).tolist() == [1.0]
    s = porta.stack([f64([1.0, 2.0], device), f64([3.0, 4.0], device)], dim=1)
    assert s.tolist() == [[1, 3], [2, 4]]
    x = f64(X, device)
    assert [p.shape[2] for p in x.split(3, dim=2)] == [3, 1]
    assert [p.shape[2] for p in x.split([1, 3], dim=-1)] == [1, 3]
    assert [p.shape[1] for p in x.chunk(2, 1)] == [2, 1]
    parts = x.unbind(1)
    assert len(parts) == 3 and parts[1].tolist() == X[:, 1].tolist()
    with pytest.raises(ValueError, match="sum exactly"):
        x.split([1, 1], dim=2)


def test_unbind_and_split_gradients(device):
    h = f64([[1.0, 2.0], [3.0, 4.0]], device, requires_grad=True)
    first, second = h.unbind(0)
    (first * 2 + second.split(1)[1] * 3).sum().backward()
    assert h.grad.tolist() == [[2.0, 2.0], [0.0, 6.0]]  # second[1:] broadcasts over two elements


def test_cumsum_cumprod(device):
    x = f64(X, device)
    np.testing.assert_allclose(arr(x.cumsum(1)), np.cumsum(X, 1))
    np.testing.assert_allclose(arr(porta.cumprod(x, dim=-1)), np.cumprod(X, -1))
    ints = porta.tensor([1, 2, 3], dtype=porta.int32, device=device)
    assert ints.cumsum(0).dtype == porta.int64 and ints.cumsum(0).tolist() == [1, 3, 6]
    assert ints.cumsum(0, dtype=porta.float64).dtype == porta.float64
    assert porta.tensor([True, False, True], device=device).cumsum(0).tolist() == [1, 1, 2]
    t = f64([1.0, 2.0, 3.0], device, requires_grad=True)
    t.cumsum(0).sum().backward()
    assert t.grad.tolist() == [3.0, 2.0, 1.0]
    t.grad = None
    t.cumprod(0).sum().backward()  # d/dt of t0 + t0 t1 + t0 t1 t2
    assert t.grad.tolist() == [1 + 2 + 6, 1 + 3, 2]
    u = porta.ones(3, dtype=porta.float64, device=device)
    u.cumsum_(0)
    assert u.tolist() == [1.0, 2.0, 3.0]


# ------------------------------------------------------------ advanced indexing


@pytest.mark.parametrize("key", [
    "i", "mask", "list", "range", "i2", "slice_i", "i_slice_i", "none_i", "ellipsis_i", "int_i", "mask2",
    "neg", "scalar_tensor"])
def test_advanced_indexing_matches_numpy(device, key):
    x = f64(X, device)
    keys = {
        "i": (i64([1, 0, 1], device), [1, 0, 1]),
        "mask": (x[:, 0, 0] > -3, X[:, 0, 0] > -3),
        "list": ([0, 1, 1], [0, 1, 1]),
        "range": (range(1, 2), list(range(1, 2))),
        "i2": ((i64([[0], [1]], device), i64([0, 2], device)), (np.array([[0], [1]]), np.array([0, 2]))),
        "slice_i": ((slice(None), i64([2, 0], device)), (slice(None), [2, 0])),
        "i_slice_i": ((i64([0, 1], device), slice(None), i64([3, 1], device)), ([0, 1], slice(None), [3, 1])),
        "none_i": ((None, slice(None), [2]), (None, slice(None), [2])),
        "ellipsis_i": ((Ellipsis, [3, 3]), (Ellipsis, [3, 3])),
        "int_i": ((1, [2, 0]), (1, [2, 0])),
        "mask2": ((0, x[0] > 0), (0, X[0] > 0)),
        "neg": ([-1, -2], [-1, -2]),
        "scalar_tensor": (i64(1, device), 1),
    }
    ours, theirs = keys[key]
    got, want = x[ours], X[theirs]
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(arr(got), want)


def test_advanced_index_out_of_range_is_an_index_error(device):
    with pytest.raises(IndexError, match="index 3 is out of bounds"):
        f64([1.0, 2.0, 3.0], device)[[0, 3]]
    with pytest.raises(IndexError, match="shape of the mask"):
        f64([1.0, 2.0, 3.0], device)[porta.tensor([True, False], device=device)]


def test_advanced_assignment_and_index_put(device):
    x = f64(X, device)
    want = X.copy()
    x[x > 0] = 0
    want[want > 0] = 0
    x[:, [0, 2], 1] = f64([[5.0, 6.0]], device)
    want[:, [0, 2], 1] = [[5.0, 6.0]]
    x[[1], 1] = 7
    want[[1], 1] = 7
    np.testing.assert_array_equal(arr(x), want)
    t = porta.zeros(3, dtype=porta.float64, device=device)
    t.index_put_((i64([0, 0, 2], device),), f64([1.0, 2.0, 3.0], device), accumulate=True)
    assert t.tolist() == [3.0, 0.0, 3.0]


def test_advanced_indexing_gradients(device):
    w = f64([[1.0, 2.0], [3.0, 4.0]], device, requires_grad=True)
    w[[1, 1, 0]].sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0], [2.0, 2.0]]
    h = f64([1.0, 2.0, 3.0], device, requires_grad=True)
    y = h * 1
    y[porta.tensor([True, False, True], device=device)] = f64([0.0, 0.0], device)
    (y * f64([1.0, 2.0, 3.0], device)).sum().backward()
    assert h.grad.tolist() == [0.0, 2.0, 0.0]


# ------------------------------------------------------------ nn


def test_embedding_with_padding(device):
    porta.manual_seed(0)
    emb = nn.Embedding(5, 3, padding_idx=1).to(device)
    assert emb.weight[1].tolist() == [0.0, 0.0, 0.0]
    idx = i64([[1, 4], [4, 0]], device)
    out = emb(idx)
    assert tuple(out.shape) == (2, 2, 3)
    np.testing.assert_array_equal(arr(out), arr(emb.weight)[[[1, 4], [4, 0]]])
    out.sum().backward()
    assert emb.weight.grad[:, 0].tolist() == [1.0, 0.0, 0.0, 0.0, 2.0]
    with pytest.raises(NotImplementedError, match="max_norm"):
        nn.Embedding(5, 3, max_norm=1.0)
    assert "Embedding(5, 3, padding_idx=1)" in repr(emb)


def test_one_hot(device):
    got = F.one_hot(i64([0, 2, 1], device))
    assert got.dtype == porta.int64 and got.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert F.one_hot(i64([1], device), num_classes=4).tolist() == [[0, 1, 0, 0]]
