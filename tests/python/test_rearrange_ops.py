"""movedim, diagonal, diag, meshgrid, repeat_interleave, Tensor.unfold, einsum, var_mean / std_mean, median /
nanmedian and histc (ABI 1.7), on every device, against NumPy: values, gradients, views and errors; and against
torch when it is installed."""
import numpy as np
import pytest

import porta

R = np.random.RandomState(7)
X = R.uniform(-1, 1, size=(2, 3, 4))


def arr(t):
    return np.asarray(t.tolist())


def grad_of(f, x, device):
    """d sum(f(x) * W) / dx for a fixed random W, and W (to build NumPy's answer)."""
    t = porta.tensor(x, device=device, requires_grad=True)
    y = f(t)
    w = R.uniform(-1, 1, size=tuple(y.shape))
    (y * porta.tensor(w, device=device)).sum().backward()
    return arr(t.grad), w


def test_movedim_and_moveaxis_are_views(device):
    t = porta.tensor(X, device=device)
    np.testing.assert_array_equal(arr(t.movedim(0, -1)), np.moveaxis(X, 0, -1))
    np.testing.assert_array_equal(arr(porta.movedim(t, (0, 2), (2, 0))), np.moveaxis(X, (0, 2), (2, 0)))
    np.testing.assert_array_equal(arr(porta.moveaxis(t, [1], [0])), np.moveaxis(X, 1, 0))
    m = porta.zeros(2, 3, device=device)
    m.movedim(1, 0)[2, 1] = 5.0
    assert m.tolist()[1][2] == 5.0
    with pytest.raises(porta.PortaError, match=r"repeated dim in `source`"):
        t.movedim((0, 0), (1, 2))
    with pytest.raises(RuntimeError, match="must have the same number of elements"):
        t.movedim((0, 1), 2)


@pytest.mark.parametrize("offset,dim1,dim2", [(0, 0, 1), (1, 1, 2), (-2, 2, 1), (0, -1, 0), (9, 0, 1)])
def test_diagonal_matches_numpy_and_writes_through(device, offset, dim1, dim2):
    t = porta.tensor(X, device=device)
    np.testing.assert_array_equal(arr(t.diagonal(offset, dim1, dim2)).reshape(-1),
                                  np.diagonal(X, offset, dim1, dim2).reshape(-1))
    g, w = grad_of(lambda a: a.diagonal(offset, dim1, dim2), X, device)
    want = np.zeros_like(X)
    idx = np.arange(X.size).reshape(X.shape)
    np.add.at(want.reshape(-1), np.diagonal(idx, offset, dim1, dim2).reshape(-1), w.reshape(-1))
    np.testing.assert_allclose(g, want, atol=1e-12)


def test_diagonal_fill_reaches_the_base(device):
    m = porta.zeros(3, 3, device=device)
    m.diagonal().fill_(2.0)
    m.diagonal(1).add_(1.0)
    np.testing.assert_array_equal(arr(m), 2 * np.eye(3) + np.eye(3, k=1))


@pytest.mark.parametrize("k", [0, 2, -1])
def test_diag_both_ways(device, k):
    v, m = X[0, 0], X[0]
    np.testing.assert_array_equal(arr(porta.tensor(v, device=device).diag(k)), np.diag(v, k))
    np.testing.assert_array_equal(arr(porta.diag(porta.tensor(m, device=device), k)), np.diag(m, k))
    g, w = grad_of(lambda a: a.diag(k), v, device)
    np.testing.assert_allclose(g, np.diag(w, k), atol=1e-12)
    with pytest.raises(porta.PortaError, match="Supports 1D or 2D tensors. Got 3D"):
        porta.tensor(X, device=device).diag()


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid_matches_numpy(device, indexing):
    a, b, c = np.arange(3.0), np.arange(4.0) * 10, np.array([7.0, 8.0])
    got = porta.meshgrid(*(porta.tensor(v, device=device) for v in (a, b, c)), indexing=indexing)
    for g, want in zip(got, np.meshgrid(a, b, c, indexing=indexing)):
        np.testing.assert_array_equal(arr(g), want)
    pair = porta.meshgrid([porta.tensor(a, device=device), porta.tensor(np.array(5.0), device=device)])
    assert [tuple(p.shape) for p in pair] == [(3, 1), (3, 1)]
    with pytest.raises(ValueError, match="indexing must be one of 'xy' or 'ij'"):
        porta.meshgrid(porta.tensor(a, device=device), indexing="yx")


def test_meshgrid_gradients_sum_over_the_grid(device):
    a = porta.tensor([1.0, 2.0], device=device, requires_grad=True)
    b = porta.tensor([3.0, 4.0, 5.0], device=device, requires_grad=True)
    x, y = porta.meshgrid(a, b, indexing="xy")
    (x * y).sum().backward()
    np.testing.assert_allclose(arr(a.grad), [12.0, 12.0])
    np.testing.assert_allclose(arr(b.grad), [3.0, 3.0, 3.0])


def test_repeat_interleave_matches_numpy(device):
    t = porta.tensor(X[0], device=device)
    np.testing.assert_array_equal(arr(t.repeat_interleave(2)), np.repeat(X[0], 2))
    np.testing.assert_array_equal(arr(t.repeat_interleave(3, dim=1)), np.repeat(X[0], 3, axis=1))
    counts = [2, 0, 1]
    r = porta.tensor(counts, dtype=porta.int64, device=device)
    np.testing.assert_array_equal(arr(porta.repeat_interleave(t, r, dim=0)), np.repeat(X[0], counts, axis=0))
    np.testing.assert_array_equal(arr(t.repeat_interleave(porta.tensor(2, device=device), dim=-1, output_size=8)),
                                  np.repeat(X[0], 2, axis=-1))
    np.testing.assert_array_equal(arr(porta.repeat_interleave(r)), [0, 0, 2])
    g, w = grad_of(lambda a: a.repeat_interleave(porta.tensor([1, 3, 0], device=device), dim=0), X[0], device)
    np.testing.assert_allclose(g, np.stack([w[0], w[1:4].sum(0), np.zeros(4)]), atol=1e-12)
    with pytest.raises(porta.PortaError, match="output_size 4 does not match"):
        t.repeat_interleave(r, dim=0, output_size=4)
    with pytest.raises(porta.PortaError, match="repeats can not be negative, found -1"):
        t.repeat_interleave(porta.tensor([1, -1, 2], device=device), dim=0)
    with pytest.raises(porta.PortaError, match="same size as input along dim"):
        t.repeat_interleave(r, dim=1)


@pytest.mark.parametrize("size,step", [(3, 2), (2, 3), (4, 1), (0, 1)])
def test_unfold_windows_and_overlapping_gradients(device, size, step):
    x = R.uniform(-1, 1, size=(2, 7))
    got = porta.tensor(x, device=device).unfold(1, size, step)
    want = np.stack([x[:, i:i + size] for i in range(0, 7 - size + 1, step)], axis=1)
    np.testing.assert_array_equal(arr(got).reshape(want.shape), want)
    if size:
        g, w = grad_of(lambda a: a.unfold(1, size, step), x, device)
        expect = np.zeros_like(x)
        for k, i in enumerate(range(0, 7 - size + 1, step)):
            expect[:, i:i + size] += w[:, k]
        np.testing.assert_allclose(g, expect, atol=1e-12)
    with pytest.raises(porta.PortaError, match="step is 0 but must be > 0"):
        porta.tensor(x, device=device).unfold(1, 2, 0)


EINSUM = [("ij,jk->ik", [(3, 4), (4, 2)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ii", [(3, 3)]),
          ("ii->i", [(3, 3)]), ("ij->", [(2, 3)]), ("ij->ji", [(2, 3)]), ("i,j->ij", [(3,), (4,)]),
          ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
          ("iij->j", [(2, 2, 3)]), ("i,i->", [(4,), (4,)]), ("ij,kj", [(2, 3), (4, 3)]),
          ("a...,a->...", [(3, 2, 2), (3,)]), (" i j , j k -> k i", [(2, 3), (3, 2)])]


@pytest.mark.parametrize("equation,shapes", EINSUM)
def test_einsum_matches_numpy(device, equation, shapes):
    xs = [R.uniform(-1, 1, size=s) for s in shapes]
    got = porta.einsum(equation, *(porta.tensor(x, device=device) for x in xs))
    np.testing.assert_allclose(arr(got), np.einsum(equation.replace(" ", ""), *xs), atol=1e-12)
    assert arr(porta.einsum(equation, [porta.tensor(x, device=device) for x in xs])).shape == np.shape(arr(got))


def test_einsum_gradients(device):
    a, b = R.uniform(-1, 1, size=(2, 3, 4)), R.uniform(-1, 1, size=(4, 5))
    g, w = grad_of(lambda t: porta.einsum("bij,jk->bik", t, porta.tensor(b, device=device)), a, device)
    np.testing.assert_allclose(g, np.einsum("bik,jk->bij", w, b), atol=1e-12)
    s = R.uniform(-1, 1, size=(3, 3))
    g, w = grad_of(lambda t: porta.einsum("ii->i", t), s, device)
    np.testing.assert_allclose(g, np.diag(w), atol=1e-12)


def test_einsum_refuses_what_pytorch_refuses(device):
    a = porta.tensor(X[0], device=device)
    with pytest.raises(porta.PortaError, match="fewer operands"):
        porta.einsum("ij,jk", a)
    with pytest.raises(porta.PortaError, match="subscript i is repeated for operand 0 but the sizes don't match"):
        porta.einsum("ii", a)
    with pytest.raises(porta.PortaError, match="output subscript"):
        porta.einsum("ij->iq", a)
    with pytest.raises(porta.PortaError, match="number of subscripts in the equation"):
        porta.einsum("ijk", a)
    with pytest.raises(NotImplementedError, match="sublist form"):
        porta.einsum(a, [0, 1])


@pytest.mark.parametrize("dim,correction", [(None, 1), (1, 0), ((0, 2), 2)])
def test_var_mean_and_std_mean(device, dim, correction):
    t = porta.tensor(X, device=device)
    axis = dim if dim is None or isinstance(dim, tuple) else (dim,)
    v, m = porta.var_mean(t, dim, correction=correction, keepdim=True)
    np.testing.assert_allclose(arr(v), np.var(X, axis=axis, ddof=correction, keepdims=True), atol=1e-12)
    np.testing.assert_allclose(arr(m), np.mean(X, axis=axis, keepdims=True), atol=1e-12)
    s, m = porta.std_mean(t, dim, correction=correction)
    np.testing.assert_allclose(arr(s), np.std(X, axis=axis, ddof=correction), atol=1e-12)
    np.testing.assert_allclose(arr(m), np.mean(X, axis=axis), atol=1e-12)


def lower_median(x, axis):
    s = np.sort(x, axis=axis)  # NaN last, as PyTorch's median takes it
    return np.take(s, (x.shape[axis] - 1) // 2, axis=axis)


def test_median_is_the_lower_middle_with_its_index(device):
    x = np.array([[3.0, 1.0, 4.0, 1.5], [9.0, -2.0, 6.0, 5.0], [0.0, 0.0, 0.0, 7.0]])
    t = porta.tensor(x, device=device)
    assert t.median().item() == np.sort(x.reshape(-1))[(x.size - 1) // 2]
    v, i = t.median(dim=1)
    np.testing.assert_array_equal(arr(v), lower_median(x, 1))
    np.testing.assert_array_equal(np.take_along_axis(x, arr(i).astype(int)[:, None], 1)[:, 0], arr(v))
    v, i = porta.median(t, 0, keepdim=True)
    assert tuple(v.shape) == (1, 4) and tuple(i.shape) == (1, 4)
    np.testing.assert_array_equal(arr(v)[0], lower_median(x, 0))
    g, w = grad_of(lambda a: a.median(1).values, x, device)
    want = np.zeros_like(x)
    want[np.arange(3), arr(t.median(1).indices).astype(int)] = w
    np.testing.assert_allclose(g, want, atol=1e-12)
    with pytest.raises(TypeError, match='missing 1 required positional arguments: "dim"'):
        t.median(keepdim=True)  # PyTorch refuses keepdim without dim rather than ignoring it
    with pytest.raises(porta.PortaError, match=r"median\(\): Expected reduction dim 1 to have non-zero size"):
        porta.zeros(2, 0, device=device).median(1)


def test_median_nan_and_nanmedian(device):
    x = np.array([[1.0, np.nan, 5.0, 2.0], [np.nan, np.nan, np.nan, np.nan], [4.0, 3.0, 2.0, 1.0]])
    t = porta.tensor(x, device=device)
    v, i = t.median(1)
    assert np.isnan(arr(v)[:2]).all() and arr(v)[2] == 2.0
    assert np.isnan(x[0, int(arr(i)[0])])
    v, i = t.nanmedian(1)
    np.testing.assert_array_equal(arr(v)[[0, 2]], [2.0, 2.0])
    assert np.isnan(arr(v)[1])
    assert x[0, int(arr(i)[0])] == 2.0
    assert np.isnan(t.median().item()) and t.nanmedian().item() == 2.0
    assert np.isnan(porta.tensor([], device=device).median().item())
    assert arr(porta.tensor([3, 1, 2], device=device).median(0).values) == 2


@pytest.mark.parametrize("bins,lo,hi", [(4, 0.0, 0.0), (5, -1.0, 1.0), (3, -0.5, 0.25), (1, -2.0, 2.0)])
def test_histc_matches_numpy(device, bins, lo, hi):
    x = X.reshape(-1)
    got = arr(porta.tensor(x, device=device).histc(bins, lo, hi))
    rng = (x.min(), x.max()) if lo == hi else (lo, hi)
    inside = x[(x >= rng[0]) & (x <= rng[1])]
    np.testing.assert_array_equal(got, np.histogram(inside, bins=bins, range=rng)[0])


def test_histc_edges_nan_and_errors(device):
    t = porta.tensor([0.0, 1.0, 1.0, 2.0, 3.0, 9.0, float("nan"), -1.0], device=device)
    np.testing.assert_array_equal(arr(porta.histc(t, 3, 0, 3)), [1.0, 2.0, 2.0])  # 3.0 joins the last bin
    assert porta.histc(t, 3, 0, 3).dtype == t.dtype
    with pytest.raises(porta.PortaError, match="bins must be > 0, but got 0"):
        t.histc(0)
    with pytest.raises(porta.PortaError, match="max must be larger than min"):
        t.histc(4, 3, 1)
    with pytest.raises(porta.PortaError, match="expected a floating tensor"):
        porta.tensor([1, 2], device=device).histc(2)


def test_values_and_gradients_match_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer; NumPy is checked without it")
    cases = [(lambda m, a: m.einsum("bij,jk->bik", a, a[0].transpose(0, 1)), X),
             (lambda m, a: a.diagonal(1, 0, 2), X),
             (lambda m, a: a.unfold(2, 2, 1), X),
             (lambda m, a: a.median(1)[0], X),
             (lambda m, a: m.var_mean(a, 1)[0] + m.var_mean(a, 1)[1], X),
             (lambda m, a: a.repeat_interleave(2, dim=1), X),
             (lambda m, a: a.movedim((0, 1), (2, 0)), X)]
    for f, x in cases:
        p, q = porta.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
        a, b = f(porta, p), f(torch, q)
        np.testing.assert_allclose(arr(a), b.detach().numpy(), atol=1e-12)
        up = R.uniform(-1, 1, size=tuple(b.shape))
        (a * porta.tensor(up)).sum().backward()
        (b * torch.tensor(up)).sum().backward()
        np.testing.assert_allclose(arr(p.grad), q.grad.numpy(), atol=1e-12)
    h = torch.tensor(X).histc(7, -0.5, 0.5).numpy()
    np.testing.assert_array_equal(arr(porta.tensor(X).histc(7, -0.5, 0.5)), h)
