"""ConvTranspose1d and ConvTranspose2d: the adjoints of Conv1d / Conv2d (porta_conv_transpose1d / 2d), with
PyTorch's weight layout [in_channels, out_channels / groups, *kernel_size], initialization and output_size."""
from . import functional as F
from . import init
from .layers import _add_weight_and_bias, conv_extra_repr
from .module import Module


class _ConvTransposeNd(Module):
    dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        name = type(self).__name__
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {name}')
        if groups < 1 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by groups ({groups})")
        tup = lambda v: (v,) * self.dims if isinstance(v, int) else tuple(v)  # noqa: E731
        self.in_channels, self.out_channels, self.groups, self.padding_mode = (in_channels, out_channels, groups,
                                                                               padding_mode)
        self.kernel_size, self.stride, self.padding = tup(kernel_size), tup(stride), tup(padding)
        self.output_padding, self.dilation = tup(output_padding), tup(dilation)
        _add_weight_and_bias(self, (in_channels, out_channels // groups, *self.kernel_size), out_channels, bias,
                             device, dtype)

    def reset_parameters(self):
        """PyTorch's default initialization (fan_in from the weight's dim 1, as torch computes it)."""
        init.layer_default_(self.weight, self.bias)

    def _output_padding(self, input, output_size):  # noqa: A002
        """PyTorch's rule: output_size picks the output_padding that reaches it."""
        if output_size is None:
            return self.output_padding
        size = list(output_size)[-self.dims:]
        if len(size) != self.dims:
            raise ValueError(f"{type(self).__name__}: output_size must have {self.dims} or {self.dims + 2} elements "
                             f"(got {len(list(output_size))})")
        extra = []
        for d in range(self.dims):
            n = input.shape[input.ndim - self.dims + d]
            least = ((n - 1) * self.stride[d] - 2 * self.padding[d] + self.dilation[d] * (self.kernel_size[d] - 1)
                     + 1)
            if not least <= size[d] < least + self.stride[d]:
                raise ValueError(f"requested an output size of {size}, but valid sizes range from {least} to "
                                 f"{least + self.stride[d] - 1} (for an input of {list(input.shape)[2:]})")
            extra.append(size[d] - least)
        return tuple(extra)

    def extra_repr(self):
        return conv_extra_repr(self)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution layer, initialized as torch.nn.ConvTranspose1d."""
    dims = 1

    def forward(self, input, output_size=None):  # noqa: A002
        self._check_input_device(input, self.weight)
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution layer, initialized as torch.nn.ConvTranspose2d."""

    def forward(self, input, output_size=None):  # noqa: A002
        self._check_input_device(input, self.weight)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)
