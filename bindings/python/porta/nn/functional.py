"""porta.nn.functional: the layers as functions (differentiable), as torch.nn.functional."""
import warnings
from ctypes import c_int32, c_int64

from .. import _abi, _dtype, _factories, _scalars, _math_ops
from .._lib import Conv2dOptions, Pool2dOptions, fn, int_array, int_out_of_range, sized
from .._tensor import call, call_outs

_REDUCTIONS = {"none": _abi.PORTA_REDUCTION_NONE, "mean": _abi.PORTA_REDUCTION_MEAN,
               "sum": _abi.PORTA_REDUCTION_SUM}  # porta_reduction


def _pair(v, name):
    v = (v, v) if isinstance(v, int) else tuple(int(x) for x in v)
    if len(v) != 2:
        raise ValueError(f"{name} must be an int or a pair of ints, got {v}")
    for x in v:
        e = int_out_of_range(x, c_int32)  # the option structs hold int32
        if e is not None:
            raise OverflowError(f"{name}: {e}")
    return v


def _reduction(reduction, op):
    try:
        return _REDUCTIONS[reduction]
    except KeyError:
        raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}") from None


def linear(input, weight, bias=None):  # noqa: A002 - torch's names
    """input @ weight^T + bias."""
    return call(fn.porta_linear, input._h, weight._h, None if bias is None else bias._h)


def _check_groups(groups):
    if not isinstance(groups, int) or groups < 1:  # porta.h's 0 means 1; PyTorch refuses it
        raise RuntimeError(f"non-positive groups is not supported (groups must be >= 1, got {groups})")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """2-D convolution (cross-correlation) of input [N, C, H, W] or [C, H, W] with weight [F, C / groups, KH, KW]."""
    _check_groups(groups)
    dilation = _pair(dilation, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            kh, kw = weight.shape[2], weight.shape[3]
            if (dilation[0] * (kh - 1)) % 2 or (dilation[1] * (kw - 1)) % 2 or _pair(stride, "stride") != (1, 1):
                raise NotImplementedError("conv2d: padding='same' needs stride 1 and an odd (dilated) kernel")
            padding = (dilation[0] * (kh - 1) // 2, dilation[1] * (kw - 1) // 2)
        else:
            raise ValueError(f"conv2d: padding must be an int, a pair, 'valid' or 'same', got {padding!r}")
    o = sized(Conv2dOptions, groups=int(groups))
    o.stride[:], o.padding[:], o.dilation[:] = _pair(stride, "stride"), _pair(padding, "padding"), dilation
    return call(fn.porta_conv2d, input._h, weight._h, None if bias is None else bias._h, o)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """1-D convolution of input [N, C, L] or [C, L] with weight [F, C / groups, K]."""
    _check_groups(groups)
    one = lambda v, name: v if isinstance(v, int) else (v[0] if len(v) == 1 else _pair(v, name))  # noqa: E731
    stride, dilation = one(stride, "stride"), one(dilation, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            k = weight.shape[2]
            if (dilation * (k - 1)) % 2 or stride != 1:
                raise NotImplementedError("conv1d: padding='same' needs stride 1 and an odd (dilated) kernel")
            padding = dilation * (k - 1) // 2
        else:
            raise ValueError(f"conv1d: padding must be an int, 'valid' or 'same', got {padding!r}")
    padding = one(padding, "padding")
    return call(fn.porta_conv1d, input._h, weight._h, None if bias is None else bias._h, int(stride), int(padding),
                int(dilation), int(groups))


def _output_padding(output_padding, dims, op):
    if isinstance(output_padding, int):
        return (output_padding,) * dims
    values = tuple(output_padding)
    if len(values) == 1:
        return values * dims
    if len(values) != dims or not all(isinstance(v, int) for v in values):
        raise ValueError(f"{op}: output_padding must be an int or {dims} ints, got {output_padding!r}")
    return values


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,  # noqa: A002
                     dilation=1):
    """The adjoint of conv2d ("deconvolution"): input [N, C, H, W] or [C, H, W], weight [C, F / groups, KH, KW]."""
    _check_groups(groups)
    if isinstance(padding, str):
        raise ValueError(f"conv_transpose2d: padding must be an int or a pair, got {padding!r}")
    o = sized(Conv2dOptions, groups=int(groups))
    o.stride[:], o.padding[:], o.dilation[:] = (_pair(stride, "stride"), _pair(padding, "padding"),
                                                _pair(dilation, "dilation"))
    extra = int_array(c_int32, _output_padding(output_padding, 2, "conv_transpose2d"), "output_padding")
    return call(fn.porta_conv_transpose2d, input._h, weight._h, None if bias is None else bias._h, o, extra)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,  # noqa: A002
                     dilation=1):
    """The adjoint of conv1d: input [N, C, L] or [C, L], weight [C, F / groups, K]."""
    _check_groups(groups)
    if isinstance(padding, str):
        raise ValueError(f"conv_transpose1d: padding must be an int, got {padding!r}")
    one = lambda v, name: v if isinstance(v, int) else (v[0] if len(v) == 1 else _pair(v, name))  # noqa: E731
    (extra,) = _output_padding(output_padding, 1, "conv_transpose1d")
    return call(fn.porta_conv_transpose1d, input._h, weight._h, None if bias is None else bias._h,
                int(one(stride, "stride")), int(one(padding, "padding")), int(extra), int(one(dilation, "dilation")),
                int(groups))


def _pool_options(kernel_size, stride, padding, dilation, count_include_pad, ceil_mode, op):
    o = sized(Pool2dOptions, ceil_mode=1 if ceil_mode else 0)
    o.kernel[:] = _pair(kernel_size, "kernel_size")
    o.stride[:] = (0, 0) if stride is None or stride == () or stride == [] else _pair(stride, "stride")
    if stride is not None and stride != () and stride != [] and 0 in tuple(o.stride):
        raise RuntimeError(f"{op}: stride should not be zero (leave it out for stride = kernel_size)")
    o.padding[:] = _pair(padding, "padding")
    o.dilation[:] = _pair(dilation, "dilation")
    if min(o.dilation) <= 0:
        raise RuntimeError(f"{op}: dilation should be greater than zero, but got {tuple(o.dilation)}")
    o.count_include_pad = 1 if count_include_pad else 0
    return o


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,  # noqa: A002
               return_indices=False):
    """Max pooling of input [N, C, H, W] (stride defaults to kernel_size); return_indices=True also gives where
    each maximum is, h * W + w in its plane (porta_max_pool2d_with_indices)."""
    o = _pool_options(kernel_size, stride, padding, dilation, True, ceil_mode, "max_pool2d")
    if return_indices:
        return tuple(call_outs(fn.porta_max_pool2d_with_indices, input._h, o, n=2))
    return call(fn.porta_max_pool2d, input._h, o)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,  # noqa: A002
               divisor_override=None):
    """Average pooling of input [N, C, H, W] (stride defaults to kernel_size)."""
    if divisor_override is not None:
        raise NotImplementedError("avg_pool2d: divisor_override is not supported by Porta")
    o = _pool_options(kernel_size, stride, padding, 1, count_include_pad, ceil_mode, "avg_pool2d")
    return call(fn.porta_avg_pool2d, input._h, o)


def relu(input, inplace=False):  # noqa: A002
    """max(input, 0); with inplace=True, written into input (recorded by autograd)."""
    return input.relu_() if inplace else input.relu()


def sigmoid(input):  # noqa: A002
    """1 / (1 + e^-input)."""
    return input.sigmoid()


def tanh(input):  # noqa: A002
    """tanh(input)."""
    return input.tanh()


def _number(value, name, op):
    """A float for a numeric argument, else a TypeError naming it."""
    s = _scalars.number(value)
    if s is None:
        raise TypeError(f"{op}(): {name} must be a number, got {type(value).__name__}")
    return float(s)


def _maybe_in_place(input, inplace, compute, op):  # noqa: A002
    """compute(input), or with inplace=True the result written into input and input returned (copy_,
    recorded by autograd as PyTorch's in-place activations are; a leaf that requires grad is refused)."""
    if inplace:
        return _math_ops.in_place(input, compute, f"{op}(inplace=True)")
    return compute(input)


_GELU_APPROXIMATIONS = {"none": _abi.PORTA_GELU_NONE, "tanh": _abi.PORTA_GELU_TANH}  # porta_gelu_approximation


def gelu_approximation(approximate, op="gelu"):
    """porta_gelu's enum for PyTorch's `approximate` string ('none' or 'tanh')."""
    try:
        return _GELU_APPROXIMATIONS[approximate]
    except (KeyError, TypeError):
        raise ValueError(f"{op}(): approximate must be 'none' or 'tanh', got {approximate!r}") from None


def gelu(input, *, approximate="none"):  # noqa: A002
    """x/2 (1 + erf(x / sqrt 2)), or with approximate='tanh' x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    return call(fn.porta_gelu, input._h, gelu_approximation(approximate))


def silu(input, inplace=False):  # noqa: A002
    """x * sigmoid(x) (swish)."""
    return _maybe_in_place(input, inplace, lambda x: call(fn.porta_silu, x._h), "silu")


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):  # noqa: A002
    """porta_normalize: input / max(||input||_p, eps) along dim."""
    result = call(fn.porta_normalize, input._h, float(p), dim, float(eps))
    return result if out is None else out.copy_(result)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """porta_cosine_similarity along dim: x1 and x2 broadcast, each divided by its 2-norm clamped to eps."""
    return call(fn.porta_cosine_similarity, x1._h, x2._h, dim, float(eps))


def softplus(input, beta=1.0, threshold=20.0):  # noqa: A002
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold."""
    return call(fn.porta_softplus, input._h, _number(beta, "beta", "softplus"),
                _number(threshold, "threshold", "softplus"))


def leaky_relu(input, negative_slope=0.01, inplace=False):  # noqa: A002
    """x where x > 0, else negative_slope * x."""
    slope = _number(negative_slope, "negative_slope", "leaky_relu")
    return _maybe_in_place(input, inplace, lambda x: call(fn.porta_leaky_relu, x._h, slope), "leaky_relu")


def leaky_relu_(input, negative_slope=0.01):  # noqa: A002
    """leaky_relu written into input; returns input."""
    return leaky_relu(input, negative_slope, inplace=True)


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    """x where x > 0, else alpha (e^x - 1)."""
    a = _number(alpha, "alpha", "elu")
    return _maybe_in_place(input, inplace, lambda x: call(fn.porta_elu, x._h, a), "elu")


def elu_(input, alpha=1.0):  # noqa: A002
    """elu written into input; returns input."""
    return elu(input, alpha, inplace=True)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    """x clamped to [min_val, max_val], with no gradient at or beyond the bounds; min_val > max_val is refused."""
    lo, hi = _number(min_val, "min_val", "hardtanh"), _number(max_val, "max_val", "hardtanh")
    return _maybe_in_place(input, inplace, lambda x: call(fn.porta_hardtanh, x._h, lo, hi), "hardtanh")


def hardtanh_(input, min_val=-1.0, max_val=1.0):  # noqa: A002
    """hardtanh written into input; returns input."""
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):  # noqa: A002
    """min(max(x, 0), 6): hardtanh(x, 0, 6)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def logsigmoid(input):  # noqa: A002
    """log(sigmoid(x)) = -softplus(-x), computed without overflow."""
    return softplus(input.neg()).neg()


def _softmax_dim(name, ndim, stacklevel):
    """PyTorch's implicit dim for softmax(dim=None), with its deprecation warning: 0 for 0-, 1- and 3-d
    inputs, else 1."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002 - torch's signature
    """softmax along `dim` (None: PyTorch's deprecated implicit choice, with its warning)."""
    _math_ops.check_dim_arg("softmax", dim)
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    x = input if dtype is None else input.to(dtype)
    return call(fn.porta_softmax, x._h, dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    """log(softmax) along `dim`, computed stably (dim=None as softmax)."""
    _math_ops.check_dim_arg("log_softmax", dim)
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    x = input if dtype is None else input.to(dtype)
    return call(fn.porta_log_softmax, x._h, dim)


def _refuse_legacy_reduction(size_average, reduce, op):
    if size_average is not None or reduce is not None:
        raise NotImplementedError(f"{op}: size_average and reduce are deprecated in PyTorch and not supported by "
                                  "Porta; use reduction='mean', 'sum' or 'none'")


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,  # noqa: A002
                  reduction="mean", label_smoothing=0.0):
    """Cross entropy of logits [N, C], [N, C, d...] or [C] against class indices or class probabilities, with
    class weights and label smoothing (PyTorch's argument order)."""
    _refuse_legacy_reduction(size_average, reduce, "cross_entropy")
    r = _reduction(reduction, "cross_entropy")
    if weight is None and not label_smoothing and input.ndim == 2 and target.ndim == 1:  # the fused kernel
        return call(fn.porta_cross_entropy_ignore, input._h, target._h, r, int(ignore_index))
    return call(fn.porta_cross_entropy_loss, input._h, target._h, _handle(weight), int(ignore_index), r,
                float(label_smoothing))


def _handle(t):
    return None if t is None else t._h


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,  # noqa: A002
             reduction="mean"):
    """Negative log likelihood of log-probabilities [N, C], [N, C, d...] or [C] at class indices."""
    _refuse_legacy_reduction(size_average, reduce, "nll_loss")
    return call(fn.porta_nll_loss, input._h, target._h, _handle(weight), int(ignore_index),
                _reduction(reduction, "nll_loss"))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    """Binary cross entropy of probabilities in [0, 1] (logs clamped at -100, as PyTorch's)."""
    _refuse_legacy_reduction(size_average, reduce, "binary_cross_entropy")
    return call(fn.porta_binary_cross_entropy, input._h, target._h, _handle(weight),
                _reduction(reduction, "binary_cross_entropy"))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,  # noqa: A002
                                     reduction="mean", pos_weight=None):
    """Binary cross entropy of logits, stable for any magnitude; pos_weight weighs the positives."""
    _refuse_legacy_reduction(size_average, reduce, "binary_cross_entropy_with_logits")
    return call(fn.porta_binary_cross_entropy_with_logits, input._h, target._h, _handle(weight),
                _handle(pos_weight), _reduction(reduction, "binary_cross_entropy_with_logits"))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    """Mean absolute error."""
    _refuse_legacy_reduction(size_average, reduce, "l1_loss")
    return call(fn.porta_l1_loss, input._h, target._h, _reduction(reduction, "l1_loss"))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):  # noqa: A002
    """0.5 d^2 / beta where |d| < beta, else |d| - beta / 2."""
    _refuse_legacy_reduction(size_average, reduce, "smooth_l1_loss")
    return call(fn.porta_smooth_l1_loss, input._h, target._h, _reduction(reduction, "smooth_l1_loss"), float(beta))


def huber_loss(input, target, reduction="mean", delta=1.0):  # noqa: A002
    """0.5 d^2 where |d| < delta, else delta (|d| - delta / 2)."""
    return call(fn.porta_huber_loss, input._h, target._h, _reduction(reduction, "huber_loss"), float(delta))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):  # noqa: A002
    """KL divergence of log-probabilities `input` from `target` (reduction='batchmean' is PyTorch's advice)."""
    _refuse_legacy_reduction(size_average, reduce, "kl_div")
    r = 3 if reduction == "batchmean" else _reduction(reduction, "kl_div")
    return call(fn.porta_kl_div, input._h, target._h, r, 1 if log_target else 0)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):  # noqa: A002
    """Normalizes over the last len(normalized_shape) dims (population variance), then weight and bias."""
    if isinstance(normalized_shape, int):  # nn.LayerNorm takes an int; the function, as PyTorch's, a sequence
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    shape = tuple(normalized_shape)
    return call(fn.porta_layer_norm, input._h, int_array(c_int64, shape, "normalized_shape"), len(shape),
                _handle(weight), _handle(bias), float(eps))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):  # noqa: A002
    """Normalizes x [N, C, *] within num_groups groups of channels."""
    return call(fn.porta_group_norm, input._h, int(num_groups), _handle(weight), _handle(bias), float(eps))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,  # noqa: A002
               eps=1e-5):
    """Batch normalization over x [N, C, *]; while training the running statistics are updated in place."""
    if training and eps <= 0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if momentum is None:
        raise NotImplementedError("batch_norm: momentum=None (a cumulative moving average) is not supported by "
                                  "Porta; pass a number")
    return call(fn.porta_batch_norm, input._h, _handle(running_mean), _handle(running_var), _handle(weight),
                _handle(bias), 1 if training else 0, float(momentum), float(eps))


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):  # noqa: A002
    """Mean squared error (PyTorch's argument order)."""
    _refuse_legacy_reduction(size_average, reduce, "mse_loss")
    if weight is not None:
        raise NotImplementedError("mse_loss: weight is not supported by Porta")
    return call(fn.porta_mse_loss, input._h, target._h, _reduction(reduction, "mse_loss"))


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zeroes elements with probability p and scales the rest by 1/(1-p) while training."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    out = call(fn.porta_dropout, input._h, float(p), 1 if training else 0)
    return input.copy_(out) if inplace and out._h.value != input._h.value else out


def _feature_dropout(input, p, training, inplace, spatial, name):  # noqa: A002
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"{name}: Expected {spatial + 1}D or {spatial + 2}D input, but received a "
                           f"{input.dim()}D input")
    if name == "dropout2d" and input.dim() == 3:  # PyTorch reads a 3-D input as (N, C, L)
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a "
                      "batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.", stacklevel=3)
        spatial = 1
    out = call(fn.porta_feature_dropout, input._h, float(p), 1 if training else 0, spatial)
    return input.copy_(out) if inplace and out._h.value != input._h.value else out


def dropout1d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zeroes whole channels of (N, C, L) or (C, L) with probability p while training."""
    return _feature_dropout(input, p, training, inplace, 1, "dropout1d")


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zeroes whole channels of (N, C, H, W) with probability p while training (3-D: as PyTorch, (N, C, L))."""
    return _feature_dropout(input, p, training, inplace, 2, "dropout2d")


def dropout3d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) with probability p while training."""
    return _feature_dropout(input, p, training, inplace, 3, "dropout3d")


_PAD_MODES = {"constant": _abi.PORTA_PAD_CONSTANT, "reflect": _abi.PORTA_PAD_REFLECT,
              "replicate": _abi.PORTA_PAD_REPLICATE, "circular": _abi.PORTA_PAD_CIRCULAR}  # porta_pad_mode


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    """torch.nn.functional.pad: (left, right) pairs from the last dimension back; constant (negative crops),
    reflect, replicate or circular."""
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"pad: mode {mode!r} is not supported (use 'constant', 'reflect', 'replicate' "
                                  f"or 'circular')")
    pads = [int(v) for v in pad]
    if mode != "constant" and value not in (None, 0):
        raise ValueError(f'Padding mode "{mode}" doesn\'t take in value argument.')
    return call(fn.porta_pad, input._h, int_array(c_int64, pads, "pad"), len(pads), _PAD_MODES[mode],
                0.0 if value is None else float(value))


def adaptive_avg_pool2d(input, output_size):  # noqa: A002
    """Average pooling to output_size (an int, or a pair whose None entries keep the input's size)."""
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(size) != 2:
        raise ValueError(f"adaptive_avg_pool2d: output_size must be an int or a pair, got {output_size!r}")
    size = tuple(input.shape[-2 + i] if v is None else int(v) for i, v in enumerate(size))
    return call(fn.porta_adaptive_avg_pool2d, input._h, size[0], size[1])


_INTERPOLATE_MODES = {"nearest": _abi.PORTA_INTERPOLATE_NEAREST, "nearest-exact": _abi.PORTA_INTERPOLATE_NEAREST_EXACT,
                      "bilinear": _abi.PORTA_INTERPOLATE_BILINEAR}  # porta_interpolate_mode


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,  # noqa: A002
                recompute_scale_factor=None, antialias=False):
    """torch.nn.functional.interpolate of (N, C, H, W): 'nearest', 'nearest-exact', 'bilinear' (align_corners)
    and 'area' (adaptive average pooling), with PyTorch's source positions."""
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not supported by Porta")
    if mode != "area" and mode not in _INTERPOLATE_MODES:
        raise NotImplementedError(f"interpolate: mode {mode!r} is not supported by Porta (use 'nearest', "
                                  f"'nearest-exact', 'bilinear' or 'area')")
    if input.dim() != 4:
        raise NotImplementedError(f"interpolate: Porta interpolates 4-D (N, C, H, W) inputs only, got "
                                  f"{input.dim()}-D")
    if align_corners is not None and mode != "bilinear":
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                         "bicubic | trilinear")
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined")
    in_hw = tuple(input.shape[2:])
    if size is not None:
        out_hw = (size, size) if isinstance(size, int) else tuple(int(v) for v in size)
        scales = (float("nan"), float("nan"))
    else:
        scales = (scale_factor, scale_factor) if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
        scales = tuple(float(v) for v in scales)
        out_hw = tuple(int(n * f) for n, f in zip(in_hw, scales))  # floor, as PyTorch
        if recompute_scale_factor:
            scales = (float("nan"), float("nan"))
    if len(out_hw) != 2 or len(scales) != 2:
        raise ValueError("interpolate: size and scale_factor take one value or two (H, W)")
    if mode == "area":
        return adaptive_avg_pool2d(input, out_hw)
    return call(fn.porta_interpolate, input._h, out_hw[0], out_hw[1], scales[0], scales[1],
                _INTERPOLATE_MODES[mode], 1 if align_corners else 0)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):  # noqa: A002
    """The deprecated spelling of interpolate."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    """Dims start_dim..end_dim merged into one."""
    return input.flatten(start_dim, end_dim)


matmul = _math_ops.FUNCTIONS["matmul"]


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,  # noqa: A002
              sparse=False):
    """Rows of weight [num_embeddings, dim] at the integer indices `input` (any shape); rows equal to
    padding_idx get no gradient (porta_embedding)."""
    for name, value, default in (("max_norm", max_norm, None), ("scale_grad_by_freq", scale_grad_by_freq, False),
                                 ("sparse", sparse, False)):
        if value != default:
            raise NotImplementedError(f"embedding: {name}={value!r} is not supported by Porta")
    if norm_type != 2.0:
        raise NotImplementedError("embedding: norm_type is only meaningful with max_norm, which Porta does not support")
    return call(fn.porta_embedding, weight._h, input._h, -2**63 if padding_idx is None else int(padding_idx))


def one_hot(tensor, num_classes=-1):
    """int64 [..., num_classes] with a 1 at each value of the int64 `tensor` (num_classes -1: max + 1)."""
    if tensor.dtype is not _dtype.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type int64 (LongTensor)")
    if num_classes == -1:
        if not tensor.numel():
            raise RuntimeError("one_hot: Can not infer total number of classes from empty tensor; pass num_classes")
        num_classes = int(tensor.max().item()) + 1
    out = _factories.zeros(*tensor.shape, num_classes, dtype=_dtype.int64, device=tensor.device)
    if tensor.numel() == 0:
        return out
    if tensor.min().item() < 0:
        raise RuntimeError("one_hot: class values must be non-negative")
    return out.scatter(-1, tensor.unsqueeze(-1), 1)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(query key^T * scale + mask) value; attn_mask bool (False: excluded) or additive; is_causal masks
    later keys; dropout_p applies to the weights (always, as PyTorch's function does)."""
    if enable_gqa:
        raise NotImplementedError("scaled_dot_product_attention: enable_gqa=True is not supported by Porta")
    return call(fn.porta_scaled_dot_product_attention, query._h, key._h, value._h, _handle(attn_mask),
                float(dropout_p), 1 if is_causal else 0, float("nan") if scale is None else float(scale), 1)
