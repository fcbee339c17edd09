"""torch.nn.parallel.DistributedDataParallel over porta.distributed.

The gradient reducer is the core's (porta.h's porta_reducer_*): hooks on the parameters all-reduce their gradients
in buckets while backward runs, so C, C++ and Python share one implementation. docs/distributed.md says what each
argument does and which are refused.
"""
import contextlib
from ctypes import byref, c_int32, c_void_p

from .. import distributed as dist
from ..autograd import is_grad_enabled, no_grad
from .._errors import check
from .._lib import ReducerOptions, fn, sized
from .._tensor import Tensor
from .module import Module

__all__ = ["DistributedDataParallel"]


def _tensors_in(value, out):
    """Every porta.Tensor in a forward's output (tensors, and lists, tuples and dicts of them)."""
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _tensors_in(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _tensors_in(v, out)
    return out


def _handles(tensors):
    return (c_void_p * max(1, len(tensors)))(*[t._h for t in tensors])


class DistributedDataParallel(Module):
    """Wraps `module` so that every rank's backward leaves the average gradient over the ranks in .grad.

    At construction the group's first rank's parameters and buffers are broadcast to every rank; with
    broadcast_buffers (the default) the buffers are again before each forward in training. bucket_cap_mb sizes the buckets (torch's 25 MiB; the
    first bucket is 1 MiB); find_unused_parameters lets the forward leave parameters out; gradient_as_bucket_view
    makes each .grad a view of its bucket (no copy per backward, no second copy of the gradients). no_sync()
    accumulates gradients locally until the next forward outside it.
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False, delay_all_reduce_named_params=None,
                 param_to_hook_all_reduce=None, mixed_precision=None, device_mesh=None, init_sync=True):
        super().__init__()
        if device_ids is not None and len(device_ids) > 1:
            raise NotImplementedError("DistributedDataParallel(device_ids=) with several devices: one device per "
                                      "process, as torch requires since 1.x")
        for name, value, default in (("output_device", output_device, None), ("dim", dim, 0),
                                     ("static_graph", static_graph, False),
                                     ("delay_all_reduce_named_params", delay_all_reduce_named_params, None),
                                     ("param_to_hook_all_reduce", param_to_hook_all_reduce, None),
                                     ("mixed_precision", mixed_precision, None), ("device_mesh", device_mesh, None)):
            if value != default:
                raise NotImplementedError(f"DistributedDataParallel({name}=...) is not supported yet "
                                          "(docs/distributed.md)")
        if not dist.is_initialized():
            raise RuntimeError("DistributedDataParallel: call porta.distributed.init_process_group() first")
        self.module = module
        self.process_group = process_group
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self._require_sync = True
        params = [p for p in module.parameters() if p.requires_grad]
        if init_sync:
            self._sync(list(module.parameters()) + list(module.buffers()))
        cap = int(bucket_cap_mb * 1024 * 1024) if bucket_cap_mb is not None else 0  # 0: the core's defaults
        handle = c_void_p()
        group = dist._group(process_group)
        options = sized(ReducerOptions, bucket_bytes=cap, first_bucket_bytes=0,
                        find_unused_parameters=int(bool(find_unused_parameters)),
                        gradient_as_bucket_view=int(bool(gradient_as_bucket_view)))
        check(fn.porta_reducer_create_with_options(_handles(params), len(params), group, byref(options),
                                                   byref(handle)),
              "DistributedDataParallel()")
        object.__setattr__(self, "_reducer", handle)

    def _sync(self, tensors):
        """The group's first member's values into every rank's tensors (without recording autograd); the source is
        named by its global rank, so a subgroup without rank 0 broadcasts from its own first member."""
        source = dist.get_global_rank(self.process_group, 0)
        with no_grad():
            for t in tensors:
                dist.broadcast(t.detach(), source, group=self.process_group)

    def forward(self, *inputs, **kwargs):
        if self.broadcast_buffers and self.training:
            self._sync(list(self.module.buffers()))
        out = self.module(*inputs, **kwargs)
        if self._require_sync and is_grad_enabled():
            outputs = _tensors_in(out, [])
            check(fn.porta_reducer_prepare_for_backward(self._reducer, _handles(outputs), len(outputs)),
                  "DistributedDataParallel.forward()")
        return out

    @contextlib.contextmanager
    def no_sync(self):
        """Backward passes of forwards run inside accumulate gradients locally; the first forward and backward
        outside synchronizes the accumulated sum."""
        old, self._require_sync = self._require_sync, False
        try:
            yield
        finally:
            self._require_sync = old

    def bucket_count(self):
        """How many buckets the parameters were split into (Porta's, for tests and tuning)."""
        out = c_int32()
        check(fn.porta_reducer_bucket_count(self._reducer, byref(out)))
        return out.value

    def __del__(self):
        handle = self.__dict__.get("_reducer")
        if handle and fn is not None:
            fn.porta_reducer_release(handle)
            self.__dict__["_reducer"] = None
