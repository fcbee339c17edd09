"""repr(tensor) as PyTorch prints it: tensor([[1., 1.]], device='mock:0', dtype=int32).

The same rules as operator<< in bindings/cpp/porta/porta.hpp: floats printed
together ("1." when all integral, else 4 decimals, or scientific when the
magnitudes span too much), rows wrapped at 80 columns, tensors over 1000
elements summarized with "...", the device named unless cpu, the dtype named
unless PyTorch would infer it.
"""
import math

from . import _dtype
from ._convert import host_array
from ._tensor import Tensor

LINE_WIDTH, THRESHOLD, EDGE_ITEMS = 80, 1000, 3


def _format_floats(values):
    finite = [abs(x) for x in values if math.isfinite(x) and x != 0]
    lo, hi = (min(finite), max(finite)) if finite else (math.inf, 0.0)
    integral = all(x == math.ceil(x) for x in values if math.isfinite(x) and x != 0)
    scientific = hi > 0 and (hi / lo > 1000 or hi > 1e8 or (not integral and lo < 1e-4))
    fmt = "{:.4e}" if scientific else "{:.0f}." if integral else "{:.4f}"
    out = []
    for x in values:
        if math.isnan(x):
            out.append("nan")
        elif math.isinf(x):
            out.append("inf" if x > 0 else "-inf")
        else:
            out.append(fmt.format(x))
    return out


def _cells(arr, dt):
    values = arr.reshape(-1).tolist()
    if dt.is_floating_point:
        cells = _format_floats(values)
    elif dt is _dtype.bool_:
        cells = ["True" if v else "False" for v in values]
    else:
        cells = [str(v) for v in values]
    width = max(map(len, cells))
    return [c.rjust(width) for c in cells]


def _edges(t):
    """Only what a summary shows: the first and last EDGE_ITEMS along every long
    dimension, gathered on the tensor's device, so printing a 64 MB tensor copies
    and formats a few dozen elements."""
    from ._factories import empty
    cur = t.detach()
    for d, size in enumerate(cur.shape):
        if size > 2 * EDGE_ITEMS:
            shape = list(cur.shape)
            shape[d] = 2 * EDGE_ITEMS
            both = empty(*shape, dtype=cur.dtype, device=cur.device)
            both.narrow(d, 0, EDGE_ITEMS).copy_(cur.narrow(d, 0, EDGE_ITEMS))
            both.narrow(d, EDGE_ITEMS, EDGE_ITEMS).copy_(cur.narrow(d, size - EDGE_ITEMS, EDGE_ITEMS))
            cur = both
    return cur


def _nest(cells, shape, full_shape, dim, first, indent, summarize):
    """The bracketed text of dims [dim, ndim) starting at cell `first`; shape is
    that of the cells (edges only when summarized), full_shape the tensor's."""
    stride = 1
    for s in shape[dim + 1:]:
        stride *= s
    last = dim + 1 == len(shape)
    if summarize and full_shape[dim] > 2 * EDGE_ITEMS:
        shown = list(range(EDGE_ITEMS)) + [-1] + list(range(EDGE_ITEMS, 2 * EDGE_ITEMS))
    else:
        shown = range(shape[dim])
    parts = []
    for i in shown:
        if last:
            parts.append(" ..." if i < 0 else cells[first + i])
        else:
            parts.append("..." if i < 0 else
                         _nest(cells, shape, full_shape, dim + 1, first + i * stride, indent + 1, summarize))
    if last:
        per_line = max(1, (LINE_WIDTH - indent) // (len(cells[0]) + 2))
        text = ""
        for i, p in enumerate(parts):
            text += ("" if i == 0 else ", " if i % per_line else ",\n" + " " * (indent + 1)) + p
        return "[" + text + "]"
    sep = "," + "\n" * (len(shape) - dim - 1) + " " * (indent + 1)
    return "[" + sep.join(parts) + "]"


def _add_suffixes(text, suffixes, indent):
    newline = text.rfind("\n")
    line = len(text) + 2 if newline < 0 else len(text) - newline + 1
    for s in suffixes:
        if line + len(s) + 2 > LINE_WIDTH:
            text += ",\n" + " " * indent + s
            line = indent + len(s)
        else:
            text += ", " + s
            line += len(s) + 2
    return text + ")"


def format_tensor(t):
    """The PyTorch-style repr of `t`."""
    prefix = "tensor("
    dt, shape = t.dtype, tuple(t.shape)
    suffixes = []
    dev = t.device
    if dev.type != "cpu":
        suffixes.append(f"device='{dev}'")
    show_dtype = dt not in (_dtype.float32, _dtype.int64, _dtype.bool_)
    numel = t.numel()
    if numel == 0:
        if len(shape) != 1:
            suffixes.append(f"size=({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})")
        show_dtype = dt is not _dtype.float32
        body = "[]"
    else:
        summarize = numel > THRESHOLD
        arr = host_array(_edges(t) if summarize else t)
        cells = _cells(arr, dt)
        body = cells[0] if not shape else _nest(cells, arr.shape, shape, 0, 0, len(prefix), summarize)
    if show_dtype:
        suffixes.append(f"dtype={dt.name}")
    if t.requires_grad:
        suffixes.append("requires_grad=True" if t.is_leaf else "grad_fn=<PortaBackward>")
    return _add_suffixes(prefix + body, suffixes, len(prefix))


def _repr(self):
    try:
        return format_tensor(self)
    except Exception as e:  # noqa: BLE001 - repr must not raise
        return f"<porta.Tensor (unprintable: {e})>"


Tensor.__repr__ = Tensor.__str__ = _repr
