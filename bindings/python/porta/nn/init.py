"""porta.nn.init: in-place initializers, drawn from Porta's generator (so a
seed gives the same model on every device) and never recorded by autograd."""
import math

from .._errors import check
from .._lib import fn
from ..autograd import no_grad


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity, as torch.nn.init.calculate_gain."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fans(tensor):
    shape = tensor.shape
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def _fan(tensor, mode):
    """fan_in or fan_out of tensor, as PyTorch's _calculate_correct_fan (mode is case-insensitive)."""
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _fans(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0):
    """Fills from U(a, b)."""
    check(fn.porta_init_uniform_(tensor._h, float(a), float(b)))
    return tensor


def normal_(tensor, mean=0.0, std=1.0):
    """Fills from N(mean, std^2)."""
    check(fn.porta_init_normal_(tensor._h, float(mean), float(std)))
    return tensor


def constant_(tensor, val):
    """Fills with val."""
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor):
    """Fills with 0."""
    return constant_(tensor, 0.0)


def ones_(tensor):
    """Fills with 1."""
    return constant_(tensor, 1.0)


def layer_default_(weight, bias=None):
    """PyTorch's reset_parameters of Linear and Conv2d (porta_init_layer_default_, the one
    implementation C++ and Python share): weight kaiming-uniform with a=sqrt(5), bias from
    U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    check(fn.porta_init_layer_default_(weight._h, None if bias is None else bias._h))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He-uniform: U(-b, b), b = gain * sqrt(3 / fan)."""
    fan = _fan(tensor, mode)
    if mode.lower() == "fan_in" and nonlinearity == "leaky_relu":
        check(fn.porta_init_kaiming_uniform_(tensor._h, float(a)))
        return tensor
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / fan)
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    """He-normal: N(0, (gain / sqrt(fan))^2)."""
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode)))


def xavier_uniform_(tensor, gain=1.0):
    """Glorot-uniform: U(-b, b), b = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _fans(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    """Glorot-normal: N(0, gain^2 * 2 / (fan_in + fan_out))."""
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)))
