"""The layers, initialized as PyTorch initializes them: Sequential, ModuleList,
Linear, Conv2d, ReLU, Sigmoid, Tanh, MaxPool2d, AvgPool2d, Flatten, Dropout,
Softmax, LogSoftmax, Identity."""
import math
from collections import OrderedDict

from .. import _factories
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

    def append(self, module):
        """Adds a module at the end; returns self."""
        self.add_module(str(len(self._modules)), module)
        return self

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        return list(self._modules.values())[idx]


class Identity(Module):
    """Returns its input."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, x):
        return x


def _reset_weight_and_bias(module, fan_in):
    """PyTorch's default initialization of a layer's weight and bias: kaiming-uniform
    with a=sqrt(5) for the weight, uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)) for the bias."""
    init.kaiming_uniform_(module.weight, a=math.sqrt(5))
    if module.bias is not None:
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(module.bias, -bound, bound)


class Linear(Module):
    """y = x W^T + b; W kaiming-uniform (a=sqrt(5)) and b uniform(+-1/sqrt(in)), as torch.nn.Linear."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(_factories.empty(out_features, in_features, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(_factories.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's default initialization."""
        _reset_weight_and_bias(self, fan_in=self.in_features)

    def forward(self, input):  # noqa: A002 - torch's name
        self._check_input_device(input, self.weight)
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Conv2d(Module):
    """2-D convolution layer, initialized as torch.nn.Conv2d."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        if groups != 1:
            raise NotImplementedError("Conv2d: Porta supports groups=1 only")
        if padding_mode != "zeros":
            raise NotImplementedError("Conv2d: Porta supports padding_mode='zeros' only")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = F._pair(kernel_size, "kernel_size")
        self.stride = F._pair(stride, "stride")
        self.padding = padding if isinstance(padding, str) else F._pair(padding, "padding")
        self.dilation = F._pair(dilation, "dilation")
        self.weight = Parameter(_factories.empty(out_channels, in_channels, *self.kernel_size, device=device,
                                                 dtype=dtype))
        if bias:
            self.bias = Parameter(_factories.empty(out_channels, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's default initialization."""
        _reset_weight_and_bias(self, fan_in=self.in_channels * self.kernel_size[0] * self.kernel_size[1])

    def forward(self, input):  # noqa: A002
        self._check_input_device(input, self.weight)
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding not in ((0, 0), "valid"):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.bias is None:
            s += ", bias=False"
        return s


class ReLU(Module):
    """max(x, 0); with inplace=True, written into the input (recorded by autograd)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return input.relu_() if self.inplace else input.relu()

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + e^-x). Takes no arguments, as torch.nn.Sigmoid."""

    def forward(self, input):  # noqa: A002
        return input.sigmoid()


class Tanh(Module):
    """tanh(x). Takes no arguments, as torch.nn.Tanh."""

    def forward(self, input):  # noqa: A002
        return input.tanh()


class Softmax(Module):
    """softmax along dim."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):  # noqa: A002
        # dim=None: PyTorch's deprecated implicit choice (0 for 0-, 1- and 3-d inputs, else 1), with its warning
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """log(softmax) along dim."""

    def forward(self, input):  # noqa: A002
        return F.log_softmax(input, self.dim, _stacklevel=5)


class _Pool(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False):
        super().__init__()
        if ceil_mode:
            raise NotImplementedError(f"{type(self).__name__}: ceil_mode=True is not supported by Porta")
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool2d(_Pool):
    """Max pooling layer (stride defaults to kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, padding, ceil_mode)
        if return_indices:
            raise NotImplementedError("MaxPool2d: return_indices=True is not supported by Porta")
        self.dilation = dilation

    def forward(self, input):  # noqa: A002
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation)


class AvgPool2d(_Pool):
    """Average pooling layer (stride defaults to kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode)
        if divisor_override is not None:
            raise NotImplementedError("AvgPool2d: divisor_override is not supported by Porta")
        self.count_include_pad = count_include_pad

    def forward(self, input):  # noqa: A002
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding,
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


class Dropout(Module):
    """Zeroes elements with probability p in training mode; the identity in eval mode."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):  # noqa: A002
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"
