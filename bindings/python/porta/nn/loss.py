"""Loss modules: MSELoss and CrossEntropyLoss. They hold no tensors, so
.to(device) returns the loss itself, as in PyTorch."""
from . import functional as F
from .module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            raise NotImplementedError("size_average and reduce are deprecated in PyTorch; use reduction=")
        self.reduction = reduction

    def extra_repr(self):
        return "" if self.reduction == "mean" else f"reduction={self.reduction!r}"


class MSELoss(_Loss):
    """Mean squared error: loss(input, target)."""

    def forward(self, input, target):  # noqa: A002 - torch's names
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    """Cross entropy of logits [N, C] against int64 class indices [N]."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(size_average, reduce, reduction)
        if weight is not None or label_smoothing:
            raise NotImplementedError("CrossEntropyLoss: weight and label_smoothing are not supported by Porta")
        self.ignore_index = ignore_index

    def forward(self, input, target):  # noqa: A002
        return F.cross_entropy(input, target, ignore_index=self.ignore_index, reduction=self.reduction)
