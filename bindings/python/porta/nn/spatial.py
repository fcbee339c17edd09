"""Spatial layers as torch.nn: AdaptiveAvgPool2d, Upsample (UpsamplingNearest2d, UpsamplingBilinear2d), the
padding layers (ZeroPad2d, ConstantPad1d/2d,
ReflectionPad1d/2d, ReplicationPad1d/2d, CircularPad1d/2d) and channel dropout (Dropout1d/2d/3d), over
porta_adaptive_avg_pool2d, porta_interpolate, porta_pad and porta_feature_dropout."""
from . import functional as F
from .layers import _DropoutNd
from .module import Module


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed output size (an int, or a pair whose None entries keep the input's)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):  # noqa: A002 - torch's name
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class Upsample(Module):
    """torch.nn.Upsample: F.interpolate with the module's size or scale_factor, mode and align_corners."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def forward(self, input):  # noqa: A002 - torch's name
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

    def extra_repr(self):
        what = f"size={self.size}" if self.size is not None else f"scale_factor={float(self.scale_factor)}"
        return f"{what}, mode='{self.mode}'"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class _Pad(Module):
    """Pads the last `dims` dimensions by `padding` (an int for every side, or the (left, right, ...) tuple)."""
    mode, dims = "constant", 2

    def __init__(self, padding, value=0.0):
        super().__init__()
        self.padding = (padding,) * (2 * self.dims) if isinstance(padding, int) else tuple(padding)
        if len(self.padding) != 2 * self.dims:
            raise ValueError(f"{type(self).__name__}: padding must be an int or {2 * self.dims} ints, got {padding}")
        self.value = value

    def forward(self, input):  # noqa: A002 - torch's name
        return F.pad(input, self.padding, self.mode, self.value if self.mode == "constant" else None)

    def extra_repr(self):
        if self.mode != "constant" or type(self).__name__.startswith("ZeroPad"):  # PyTorch's reprs
            return f"{self.padding}"
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_Pad):
    dims = 1

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad2d(_Pad):
    def __init__(self, padding, value):
        super().__init__(padding, value)


class ZeroPad2d(ConstantPad2d):  # a ConstantPad2d of 0, as PyTorch's
    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ReflectionPad1d(_Pad):
    mode, dims = "reflect", 1


class ReflectionPad2d(_Pad):
    mode = "reflect"


class ReplicationPad1d(_Pad):
    mode, dims = "replicate", 1


class ReplicationPad2d(_Pad):
    mode = "replicate"


class CircularPad1d(_Pad):
    mode, dims = "circular", 1


class CircularPad2d(_Pad):
    mode = "circular"


class _ChannelDropout(_DropoutNd):
    """Dropout's arguments and repr; whole channels zeroed by `function`."""
    function = None

    def forward(self, input):  # noqa: A002 - torch's name
        return type(self).function(input, self.p, self.training, self.inplace)


class Dropout1d(_ChannelDropout):
    function = staticmethod(F.dropout1d)


class Dropout2d(_ChannelDropout):
    function = staticmethod(F.dropout2d)


class Dropout3d(_ChannelDropout):
    function = staticmethod(F.dropout3d)
