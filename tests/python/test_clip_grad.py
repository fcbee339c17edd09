"""porta.nn.utils: clip_grad_norm_, clip_grad_value_, parameters_to_vector and vector_to_parameters against
NumPy, on every device."""
import numpy as np
import pytest

import porta
from porta import nn
from porta.nn import utils

GRADS = [np.array([[3.0, -4.0], [1.0, 2.0]]), np.array([0.5, -12.0, 0.25])]


def _params(device, grads=GRADS, with_grad=(True, True)):
    params = []
    for g, has in zip(grads, with_grad):
        p = nn.Parameter(porta.zeros(*g.shape, device=device))
        if has:
            p.grad = porta.tensor(g.astype(np.float32), device=device)
        params.append(p)
    return params


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.0, float("inf")])
@pytest.mark.parametrize("max_norm", [1.0, 1e3])
def test_clip_grad_norm(device, norm_type, max_norm):
    params = _params(device)
    total = utils.clip_grad_norm_(params, max_norm, norm_type=norm_type)
    flat = np.concatenate([g.ravel() for g in GRADS])
    expected = np.abs(flat).max() if norm_type == float("inf") else (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    assert str(total.device) == device and total.shape == ()
    np.testing.assert_allclose(total.item(), expected, rtol=1e-5)
    coef = min(1.0, max_norm / (expected + 1e-6))
    for p, g in zip(params, GRADS):
        np.testing.assert_allclose(p.grad.numpy(force=True), g * coef, rtol=1e-5)


def test_clip_grad_norm_skips_missing_gradients_and_takes_one_tensor(device):
    a, b = _params(device, with_grad=(False, True))
    total = utils.clip_grad_norm_(iter([a, b]), 6.0)
    np.testing.assert_allclose(total.item(), np.linalg.norm(GRADS[1]), rtol=1e-6)
    assert a.grad is None
    np.testing.assert_allclose(b.grad.numpy(force=True), GRADS[1] * 6.0 / (np.linalg.norm(GRADS[1]) + 1e-6),
                               rtol=1e-5)
    total = utils.clip_grad_norm_(b, 100.0)  # a single tensor; now of norm 6: unchanged
    np.testing.assert_allclose(total.item(), 6.0, rtol=1e-5)
    assert utils.clip_grad_norm_([a], 1.0).item() == 0.0  # no gradient at all: tensor(0.)


def test_clip_grad_norm_error_if_nonfinite(device):
    params = _params(device, grads=[np.array([1.0, np.inf])], with_grad=(True,))
    with pytest.raises(RuntimeError, match="non-finite.*error_if_nonfinite=False"):
        utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
    assert utils.clip_grad_norm_(params, 1.0).item() == float("inf")  # scaled by the non-finite norm, as PyTorch


def test_clip_grad_value(device):
    params = _params(device)
    assert utils.clip_grad_value_(params, 2.5) is None
    for p, g in zip(params, GRADS):
        np.testing.assert_array_equal(p.grad.numpy(force=True), np.clip(g, -2.5, 2.5))


def test_parameters_to_vector_and_back(device):
    model = nn.Linear(3, 2).to(device)
    values = np.concatenate([p.numpy(force=True).ravel() for p in model.parameters()])
    vec = utils.parameters_to_vector(model.parameters())
    assert vec.shape == (8,) and str(vec.device) == device and vec.requires_grad
    np.testing.assert_array_equal(vec.numpy(force=True), values)

    new = porta.arange(8.0, device=device)
    utils.vector_to_parameters(new, model.parameters())
    w, b = model.parameters()
    assert w.shape == (2, 3) and w.requires_grad and w.is_leaf
    np.testing.assert_array_equal(w.numpy(force=True), np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(b.numpy(force=True), [6.0, 7.0])
    new.fill_(1.0)  # the parameters share vec's storage, as in PyTorch
    assert b.tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="expected porta.Tensor"):
        utils.vector_to_parameters([0.0] * 8, model.parameters())


def test_parameters_on_two_devices_are_refused(device, other_device):
    if other_device == device:
        pytest.skip("one device only")
    params = [nn.Parameter(porta.zeros(2, device=device)), nn.Parameter(porta.zeros(2, device=other_device))]
    with pytest.raises(TypeError, match="different devices"):
        utils.parameters_to_vector(params)


def test_gradients_on_two_devices_are_clipped_on_theirs(device, other_device):
    a = _params(device, grads=GRADS[:1], with_grad=(True,))[0]
    b = _params(other_device, grads=GRADS[1:], with_grad=(True,))[0]
    total = utils.clip_grad_norm_([a, b], 1.0)
    expected = np.linalg.norm(np.concatenate([g.ravel() for g in GRADS]))
    assert str(total.device) == device and str(b.grad.device) == other_device
    np.testing.assert_allclose(total.item(), expected, rtol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(force=True), GRADS[1] / (expected + 1e-6), rtol=1e-5)
