"""porta.nn.utils: torch.nn.utils' gradient clipping (clip_grad_norm_, clip_grad_value_, get_total_norm,
clip_grads_with_norm_) and parameters_to_vector / vector_to_parameters, composed from tensor ops. Each
gradient is scaled or clamped on its own device; the only host round trip is error_if_nonfinite's check,
where PyTorch syncs too. foreach= is accepted with every value: Porta has no foreach kernels, and the
per-tensor loop PyTorch falls back to gives the same numbers."""
import warnings

from .._factories import tensor
from .._index_ops import cat, stack
from .._reduction_ops import vector_norm
from .._tensor import Tensor
from ..autograd import no_grad

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_",
           "parameters_to_vector", "vector_to_parameters"]


def _tensors(tensors):
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def _grads(parameters):
    return [p.grad for p in _tensors(parameters) if p.grad is not None]


def _by_device(tensors, value):
    """value copied once to each device of tensors (a dict by device string)."""
    out = {}
    for t in tensors:
        key = str(t.device)
        if key not in out:
            out[key] = value if key == str(value.device) else value.to(t.device)
    return out


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the tensors' norms (as if concatenated into one vector), a 0-d tensor on the first one's
    device (tensor(0.) when there are none)."""
    tensors = _tensors(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    first = tensors[0].device
    with no_grad():
        norms = [vector_norm(t, norm_type) for t in tensors]
        total = vector_norm(stack([n.to(first) for n in norms]), norm_type)
    if error_if_nonfinite and bool(total.isnan().logical_or(total.isinf())):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scales every gradient by min(1, max_norm / (total_norm + 1e-6)), in place."""
    grads = _grads(parameters)
    max_norm = float(max_norm)
    if not grads:
        return
    with no_grad():
        coef = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        coefs = _by_device(grads, coef)
        for g in grads:
            g.mul_(coefs[str(g.device)])


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """torch.nn.utils.clip_grad_norm_: scales the gradients in place so that their total norm (of order
    norm_type, inf for the largest |g|) is at most max_norm; returns the total norm before clipping (a 0-d
    tensor on the first gradient's device)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = hasattr(parameters, "__next__")
        parameters = list(parameters)
        if is_generator and not parameters:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=2)
    total = get_total_norm(_grads(parameters), norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_value_(parameters, clip_value, foreach=None):
    """torch.nn.utils.clip_grad_value_: clamps every gradient to [-clip_value, clip_value] in place."""
    clip_value = float(clip_value)
    with no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)


def _check_device(p, device):
    if device is not None and p.device != device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return p.device


def parameters_to_vector(parameters):
    """One 1-D tensor of every parameter's values, in order (differentiable, as PyTorch's)."""
    device, parts = None, []
    for p in parameters:
        device = _check_device(p, device)
        parts.append(p.view(-1))
    return cat(parts)


def vector_to_parameters(vec, parameters):
    """Points each parameter's data at its slice of vec, in order (they then share vec's storage, as in
    PyTorch)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected porta.Tensor, but got: {type(vec).__name__}")
    device, start = None, 0
    for p in parameters:
        device = _check_device(p, device)
        n = p.numel()
        p.data = vec[start:start + n].view_as(p).data
        start += n
