"""Statistics, shapes and products from Python (ABI 1.4), on every device: var / std (correction, unbiased),
prod, any / all / count_nonzero, norm / linalg.vector_norm, flip, roll, repeat / tile, tril / triu, outer, mm,
mv, dot, bmm, addmm, baddbmm. Values against NumPy in float64; gradients against their analytic values."""
import math

import numpy as np
import pytest

import porta

X = np.arange(24, dtype=np.float64).reshape(2, 3, 4) * 0.25 - 2.2


def arr(t):
    return np.asarray(t.tolist())


def f64(values, device, **kw):
    return porta.tensor(values, dtype=porta.float64, device=device, **kw)


def test_var_and_std(device):
    x = f64(X, device)
    np.testing.assert_allclose(arr(x.var()), X.var(ddof=1), rtol=1e-12)
    np.testing.assert_allclose(arr(x.var(1)), X.var(1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(arr(x.std((0, 2), keepdim=True)), X.std((0, 2), ddof=1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(arr(porta.var(x, 2, correction=0)), X.var(2), rtol=1e-12)
    np.testing.assert_allclose(arr(x.std(unbiased=False)), X.std(), rtol=1e-12)
    assert math.isnan(f64([1.0], device).var().item())  # n - correction = 0, as in PyTorch
    with pytest.raises(porta.DtypeError, match="floating"):
        porta.tensor([1, 2], device=device).var()


def test_var_gradient(device):
    x = f64([1.0, 2.0, 4.0], device, requires_grad=True)
    x.var().backward()  # d/dx_i = 2 (x_i - mean) / (n - 1)
    np.testing.assert_allclose(arr(x.grad), 2 * (np.array([1, 2, 4]) - 7 / 3) / 2, rtol=1e-12)


def test_prod(device):
    x = f64(X, device)
    np.testing.assert_allclose(arr(x.prod()), X.prod(), rtol=1e-12)
    np.testing.assert_allclose(arr(x.prod(1, keepdim=True)), X.prod(1, keepdims=True), rtol=1e-12)
    ints = porta.tensor([[2, 3], [4, 5]], dtype=porta.int32, device=device)
    assert ints.prod(0).dtype == porta.int64 and ints.prod(0).tolist() == [8, 15]
    assert porta.zeros(0, device=device).prod().item() == 1.0
    t = f64([2.0, 3.0, 5.0], device, requires_grad=True)
    t.prod().backward()
    assert t.grad.tolist() == [15.0, 10.0, 6.0]


def test_any_all_count_nonzero(device):
    x = f64([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], device)
    assert x.any().item() is True and x.all().item() is False
    assert x.any(1).tolist() == [True, False] and x.any(dim=0, keepdim=True).tolist() == [[False, True, False]]
    assert porta.ones(2, 2, device=device).all((0, 1)).item() is True
    assert x.count_nonzero().item() == 1 and porta.count_nonzero(x, dim=0).tolist() == [0, 1, 0]
    assert f64([math.nan], device).all().item() is True  # NaN is nonzero


@pytest.mark.parametrize("ord", [2, 1, math.inf, -math.inf, 0, 3.5])
def test_vector_norm(device, ord):
    x = f64(X, device)
    want = np.linalg.norm(X.reshape(-1), ord)
    np.testing.assert_allclose(arr(porta.linalg.vector_norm(x, ord)), want, rtol=1e-12)
    want_dim = np.linalg.norm(X, ord, axis=2)
    np.testing.assert_allclose(arr(porta.linalg.vector_norm(x, ord, dim=-1)), want_dim, rtol=1e-12)


def test_norm_gradient_is_zero_at_zero(device):
    x = porta.zeros(3, dtype=porta.float64, device=device, requires_grad=True)
    x.norm().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]
    y = f64([3.0, 4.0], device, requires_grad=True)
    y.norm().backward()
    np.testing.assert_allclose(arr(y.grad), [0.6, 0.8], rtol=1e-12)
    with pytest.raises(NotImplementedError, match="nuc"):
        y.norm("nuc")


def test_flip_roll_repeat_tile(device):
    x = f64(X, device)
    np.testing.assert_array_equal(arr(x.flip(0, 2)), np.flip(X, (0, 2)))
    np.testing.assert_array_equal(arr(porta.flip(x, [1])), np.flip(X, 1))
    np.testing.assert_array_equal(arr(x.roll(1, 2)), np.roll(X, 1, 2))
    np.testing.assert_array_equal(arr(x.roll((-1, 5), (0, 1))), np.roll(X, (-1, 5), (0, 1)))
    np.testing.assert_array_equal(arr(x.roll(7)), np.roll(X, 7))
    np.testing.assert_array_equal(arr(x.repeat(1, 2, 1, 3)), np.tile(X, (1, 2, 1, 3)))
    np.testing.assert_array_equal(arr(x.tile((2,))), np.tile(X, 2))
    with pytest.raises(porta.InvalidArgumentError, match="can not be smaller"):
        x.repeat(2, 2)


def test_flip_and_repeat_gradients(device):
    x = f64([1.0, 2.0, 3.0], device, requires_grad=True)
    (x.flip(0) * f64([1.0, 2.0, 3.0], device)).sum().backward()
    assert x.grad.tolist() == [3.0, 2.0, 1.0]
    x.grad = None
    x.repeat(2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_tril_triu(device):
    m = f64(np.arange(12.0).reshape(3, 4), device)
    for k in (-1, 0, 2):
        np.testing.assert_array_equal(arr(m.tril(k)), np.tril(np.arange(12.0).reshape(3, 4), k))
        np.testing.assert_array_equal(arr(porta.triu(m, k)), np.triu(np.arange(12.0).reshape(3, 4), k))
    batch = f64(X, device)
    np.testing.assert_array_equal(arr(batch.triu()), np.triu(X))
    t = m.clone()
    t.tril_()
    assert t.tolist() == np.tril(np.arange(12.0).reshape(3, 4)).tolist()


def test_products(device):
    a = f64([[1.0, 2.0], [3.0, 4.0]], device)
    v = f64([1.0, -1.0], device)
    assert porta.outer(v, f64([2.0, 3.0, 4.0], device)).tolist() == [[2, 3, 4], [-2, -3, -4]]
    assert a.mm(a).tolist() == [[7, 10], [15, 22]] and porta.mv(a, v).tolist() == [-1, -1]
    assert porta.dot(v, v).item() == 2.0
    b = f64(np.arange(8.0).reshape(2, 2, 2), device)
    np.testing.assert_array_equal(arr(porta.bmm(b, b)), np.arange(8.0).reshape(2, 2, 2) @ np.arange(8.0).reshape(2, 2, 2))
    c = f64([[math.nan, 1.0]], device)
    assert porta.addmm(c, a, a, beta=0, alpha=2).tolist() == [[14, 20], [30, 44]]  # beta 0 ignores NaN
    assert porta.addmm(f64([1.0, 1.0], device), a, a).tolist() == [[8, 11], [16, 23]]
    np.testing.assert_array_equal(arr(porta.baddbmm(b, b, b, alpha=0.5)),
                                  np.arange(8.0).reshape(2, 2, 2) + 0.5 * arr(porta.bmm(b, b)))
    with pytest.raises(porta.ShapeError, match="mm: self must be 2-D"):
        porta.mm(v, a)
    with pytest.raises(porta.ShapeError, match="inconsistent tensor size"):
        porta.dot(v, f64([1.0], device))
    with pytest.raises(porta.ShapeError, match="does not broadcast"):
        porta.bmm(b, f64(np.ones((1, 2, 2)), device))
