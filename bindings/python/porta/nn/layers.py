"""The layers, initialized as PyTorch initializes them: Sequential, ModuleList,
Linear, Conv1d, Conv2d (groups, padding_mode), ReLU, GELU, SiLU, Softplus, LeakyReLU, ELU, Hardtanh, ReLU6,
LogSigmoid, Sigmoid, Tanh, MaxPool2d, AvgPool2d, Flatten, Dropout, Softmax,
LogSoftmax, Identity, Embedding, LayerNorm, GroupNorm, BatchNorm1d, BatchNorm2d."""
from collections import OrderedDict

from .. import _dtype, _factories
from ..autograd import no_grad
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class Sequential(Module):
    """Modules applied in order: Sequential(m1, m2, ...) or Sequential(OrderedDict)."""

    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, m in modules[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, x):
        for m in self._modules.values():
            x = m(x)
        return x

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        mods = list(self._modules.items())
        if isinstance(idx, slice):
            return Sequential(OrderedDict(mods[idx]))
        return mods[idx][1]

    def append(self, module):
        """Adds a module at the end; returns self."""
        self.add_module(str(len(self._modules)), module)
        return self


class ModuleList(Module):
    """A list of registered modules."""

    def __init__(self, modules=()):
        super().__init__()
        for m in modules:
            self.append(m)

    def __repr__(self):
        """PyTorch's: consecutive children with one repr are one line, "(0-1): 2 x Linear(...)"."""
        if not self._modules:
            return f"{type(self).__name__}()"
        runs = []  # [first index, last index, repr]
        for i, child in enumerate(self._modules.values()):
            text = repr(child)
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = [(f"({a}): {t}" if a == b else f"({a}-{b}): {b - a + 1} x {t}").replace("\n", "\n  ")
                 for a, b, t in runs]
        return f"{type(self).__name__}(\n  " + "\n  ".join(lines) + "\n)"

    def append(self, module):
        """Adds a module at the end; returns self."""
        self.add_module(str(len(self._modules)), module)
        return self

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def extend(self, modules):
        """Adds every module of an iterable; returns self."""
        for m in modules:
            self.append(m)
        return self

    __iadd__ = extend

    def insert(self, index, module):
        """Inserts a module before position index (renumbering those after it)."""
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._renumber(mods)

    def __getitem__(self, idx):
        mods = list(self._modules.values())
        return ModuleList(mods[idx]) if isinstance(idx, slice) else mods[idx]

    def __setitem__(self, idx, module):
        key = list(self._modules)[idx]
        self._modules[key] = module  # keeps its place
        path = self.__dict__.get("_path")
        module._set_path(f"{path}.{key}" if path else key)

    def _renumber(self, mods):
        self._modules.clear()
        for m in mods:
            self.append(m)

    def __delitem__(self, idx):
        mods = list(self._modules.values())
        del mods[idx]
        self._renumber(mods)  # the rest renumbered from 0, as PyTorch's

    def pop(self, idx=-1):
        """Removes and returns the module at idx."""
        mods = list(self._modules.values())
        module = mods.pop(idx)
        self._renumber(mods)
        return module

    def __add__(self, other):
        """A new ModuleList of both lists' modules."""
        return ModuleList(list(self) + list(other))


class Identity(Module):
    """Returns its input."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x):
        return x


def _reset_weight_and_bias(module):
    """PyTorch's default initialization of a layer's weight and bias (init.layer_default_)."""
    init.layer_default_(module.weight, module.bias)


def _add_weight_and_bias(module, weight_shape, bias_size, bias, device, dtype):
    """A layer's weight of weight_shape and (bias=True) bias of bias_size, initialized by module.reset_parameters()."""
    module.weight = Parameter(_factories.empty(*weight_shape, device=device, dtype=dtype))
    if bias:
        module.bias = Parameter(_factories.empty(bias_size, device=device, dtype=dtype))
    else:
        module.register_parameter("bias", None)
    module.reset_parameters()


class Linear(Module):
    """y = x W^T + b; W kaiming-uniform (a=sqrt(5)) and b uniform(+-1/sqrt(in)), as torch.nn.Linear."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        _add_weight_and_bias(self, (out_features, in_features), out_features, bias, device, dtype)

    def reset_parameters(self):
        """PyTorch's default initialization."""
        _reset_weight_and_bias(self)

    def forward(self, input):  # noqa: A002 - torch's name
        self._check_input_device(input, self.weight)
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    """What Conv1d and Conv2d share: groups, padding_mode (a non-zero mode pads with F.pad first, as PyTorch)."""
    dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        name = type(self).__name__
        if groups < 1 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by groups ({groups})")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {list(_PADDING_MODES)}, but got "
                             f"padding_mode='{padding_mode}'")
        tup = (lambda v, n: (v,) if isinstance(v, int) else tuple(v)) if self.dims == 1 else F._pair
        self.in_channels, self.out_channels, self.groups, self.padding_mode = (in_channels, out_channels, groups,
                                                                               padding_mode)
        self.kernel_size, self.stride = tup(kernel_size, "kernel_size"), tup(stride, "stride")
        self.padding = padding if isinstance(padding, str) else tup(padding, "padding")
        self.dilation = tup(dilation, "dilation")
        if padding == "same" and any(s != 1 for s in self.stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode != "zeros" and isinstance(padding, str):
            raise NotImplementedError(f"{name}: padding='{padding}' with padding_mode='{padding_mode}' is not "
                                      f"supported by Porta; give the padding as numbers")
        _add_weight_and_bias(self, (out_channels, in_channels // groups, *self.kernel_size), out_channels, bias,
                             device, dtype)

    def reset_parameters(self):
        """PyTorch's default initialization."""
        _reset_weight_and_bias(self)

    def _conv(self, input, conv):  # noqa: A002
        self._check_input_device(input, self.weight)
        if self.padding_mode == "zeros":
            return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        pads = [p for p in reversed(self.padding) for _ in range(2)]
        return conv(F.pad(input, pads, mode=self.padding_mode), self.weight, self.bias, self.stride, 0,
                    self.dilation, self.groups)

    def extra_repr(self):
        return conv_extra_repr(self)


def conv_extra_repr(m):
    """PyTorch's _ConvNd.extra_repr, for convolutions and transposed ones (output_padding where it has one)."""
    s = f"{m.in_channels}, {m.out_channels}, kernel_size={m.kernel_size}, stride={m.stride}"
    if isinstance(m.padding, str):  # 'valid' and 'same' are shown, as PyTorch's
        s += f", padding={m.padding}"
    elif m.padding != (0,) * m.dims:
        s += f", padding={m.padding}"
    if m.dilation != (1,) * m.dims:
        s += f", dilation={m.dilation}"
    if getattr(m, "output_padding", (0,) * m.dims) != (0,) * m.dims:
        s += f", output_padding={m.output_padding}"
    if m.groups != 1:
        s += f", groups={m.groups}"
    if m.bias is None:
        s += ", bias=False"
    if m.padding_mode != "zeros":
        s += f", padding_mode={m.padding_mode}"
    return s


class Conv1d(_ConvNd):
    """1-D convolution layer, initialized as torch.nn.Conv1d."""
    dims = 1

    def forward(self, input):  # noqa: A002
        return self._conv(input, F.conv1d)


class Conv2d(_ConvNd):
    """2-D convolution layer, initialized as torch.nn.Conv2d."""

    def forward(self, input):  # noqa: A002
        return self._conv(input, F.conv2d)


class ReLU(Module):
    """max(x, 0); with inplace=True, written into the input (recorded by autograd)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return input.relu_() if self.inplace else input.relu()

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class _InPlaceActivation(Module):
    """An activation taking PyTorch's inplace flag (the result written into the input, recorded by autograd)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def _inplace_repr(self, first):
        if not self.inplace:
            return ""
        return "inplace=True" if first else ", inplace=True"


class GELU(Module):
    """x/2 (1 + erf(x / sqrt 2)); approximate='tanh': PyTorch's tanh approximation."""

    def __init__(self, approximate="none"):
        super().__init__()
        F.gelu_approximation(approximate, "GELU")  # refused here, not at the first forward
        self.approximate = approximate

    def forward(self, input):  # noqa: A002
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(_InPlaceActivation):
    """x * sigmoid(x)."""

    def forward(self, input):  # noqa: A002
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return self._inplace_repr(True)


class Softplus(Module):
    """log(1 + exp(beta x)) / beta, and x where beta x > threshold."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):  # noqa: A002
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class LeakyReLU(_InPlaceActivation):
    """x where x > 0, else negative_slope * x."""

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__(inplace)
        self.negative_slope = negative_slope

    def forward(self, input):  # noqa: A002
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}{self._inplace_repr(False)}"


class ELU(_InPlaceActivation):
    """x where x > 0, else alpha (e^x - 1)."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(inplace)
        self.alpha = alpha

    def forward(self, input):  # noqa: A002
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}{self._inplace_repr(False)}"


class Hardtanh(_InPlaceActivation):
    """x clamped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__(inplace)
        if not max_val > min_val:  # PyTorch asserts max_val > min_val
            raise ValueError(f"{type(self).__name__}: max_val ({max_val}) must be greater than min_val ({min_val})")
        self.min_val, self.max_val = min_val, max_val

    def forward(self, input):  # noqa: A002
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}{self._inplace_repr(False)}"


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return self._inplace_repr(True)


class LogSigmoid(Module):
    """log(sigmoid(x)). Takes no arguments, as torch.nn.LogSigmoid."""

    def forward(self, input):  # noqa: A002
        return F.logsigmoid(input)


class Sigmoid(Module):
    """1 / (1 + e^-x). Takes no arguments, as torch.nn.Sigmoid."""

    def forward(self, input):  # noqa: A002
        return input.sigmoid()


class Tanh(Module):
    """tanh(x). Takes no arguments, as torch.nn.Tanh."""

    def forward(self, input):  # noqa: A002
        return input.tanh()


class _AlongDim(Module):
    """What Softmax and LogSoftmax share (siblings, as in PyTorch: neither is the other)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_AlongDim):
    """softmax along dim."""

    def forward(self, input):  # noqa: A002
        # dim=None: PyTorch's deprecated implicit choice (0 for 0-, 1- and 3-d inputs, else 1), with its warning
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_AlongDim):
    """log(softmax) along dim."""

    def forward(self, input):  # noqa: A002
        return F.log_softmax(input, self.dim, _stacklevel=5)


class _Pool(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False):
        super().__init__()
        self.ceil_mode = ceil_mode
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool2d(_Pool):
    """Max pooling layer (stride defaults to kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, padding, ceil_mode)
        self.dilation = dilation
        self.return_indices = return_indices

    def extra_repr(self):
        return f"{super().extra_repr()}, dilation={self.dilation}, ceil_mode={self.ceil_mode}"

    def forward(self, input):  # noqa: A002
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                            self.return_indices)


class AvgPool2d(_Pool):
    """Average pooling layer (stride defaults to kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode)
        if divisor_override is not None:
            raise NotImplementedError("AvgPool2d: divisor_override is not supported by Porta")
        self.count_include_pad = count_include_pad

    def forward(self, input):  # noqa: A002
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            count_include_pad=self.count_include_pad)


class Flatten(Module):
    """Flattens dims start_dim..end_dim (default: all but the batch dim)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):  # noqa: A002
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class _DropoutNd(Module):
    """What the dropouts share: p and inplace (siblings, as in PyTorch: Dropout2d is no Dropout)."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zeroes elements with probability p in training mode; the identity in eval mode."""

    def forward(self, input):  # noqa: A002
        return F.dropout(input, self.p, self.training, self.inplace)


class Embedding(Module):
    """A lookup table of num_embeddings rows of embedding_dim, N(0, 1) as torch.nn.Embedding (the padding_idx
    row zeroed, and given no gradient)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        for name, value, default in (("max_norm", max_norm, None), ("scale_grad_by_freq", scale_grad_by_freq, False),
                                     ("sparse", sparse, False)):
            if value != default:
                raise NotImplementedError(f"Embedding: {name}={value!r} is not supported by Porta")
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = padding_idx + num_embeddings if padding_idx < 0 else padding_idx
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        if _weight is None:
            self.weight = Parameter(_factories.empty(num_embeddings, embedding_dim, device=device, dtype=dtype),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self):
        """N(0, 1), then the padding row zeroed."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, **kwargs):
        """An Embedding holding `embeddings` (2-D), frozen unless freeze=False."""
        rows, cols = embeddings.shape
        return cls(rows, cols, _weight=embeddings, _freeze=freeze, padding_idx=padding_idx, **kwargs)

    def forward(self, input):  # noqa: A002 - torch's name
        self._check_input_device(input, self.weight)
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        pad = f", padding_idx={self.padding_idx}" if self.padding_idx is not None else ""
        return f"{self.num_embeddings}, {self.embedding_dim}{pad}"


class LayerNorm(Module):
    """Normalizes over the last dims (normalized_shape); weight ones and bias zeros, as torch.nn.LayerNorm."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_factories.ones(*shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(_factories.zeros(*shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    """Normalizes x [N, C, *] within num_groups channel groups, as torch.nn.GroupNorm."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        if affine:
            self.weight = Parameter(_factories.ones(num_channels, device=device, dtype=dtype))
            self.bias = Parameter(_factories.zeros(num_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _BatchNorm(Module):
    _dims = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None):
        super().__init__()
        if momentum is None:
            raise NotImplementedError(f"{type(self).__name__}: momentum=None (a cumulative moving average) is not "
                                      "supported by Porta; pass a number")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(_factories.ones(num_features, device=device, dtype=dtype))
            self.bias = Parameter(_factories.zeros(num_features, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _factories.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", _factories.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", _factories.zeros((), dtype=_dtype.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self):
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def forward(self, input):  # noqa: A002
        if input.ndim not in self._dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self._dims)} input (got {input.ndim}D input)")
        use_batch = self.training or self.running_mean is None
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias, use_batch,
                            self.momentum, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization of [N, C] or [N, C, L], as torch.nn.BatchNorm1d."""
    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization of [N, C, H, W], as torch.nn.BatchNorm2d."""
    _dims = (4,)
