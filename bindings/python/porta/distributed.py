"""porta.distributed: process groups and collectives, shaped like torch.distributed.

A PyTorch script ports by changing its imports::

    import porta.distributed as dist
    dist.init_process_group("mpi")           # started as: mpirun -n 4 python train.py
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    work = dist.all_reduce(t, async_op=True); work.wait()

The collectives run in the core (porta.h's porta_all_reduce, ...) over a communicator plugin
(abi/porta/comm.h; "mpi" ships with Porta). Tensors on a device the backend does not serve are staged
through host memory. What torch.distributed has and Porta does not yet is refused with
NotImplementedError naming it; docs/distributed.md lists it.
"""
import datetime
import enum
import os
from ctypes import byref, c_char_p, c_int32, c_void_p

from . import _abi, _lib
from ._errors import InvalidArgumentError, check
from ._factories import empty
from ._lib import InitOptions, fn, sized
from ._tensor import Tensor

__all__ = ["ReduceOp", "Work", "ProcessGroup", "GroupMember", "init_process_group", "is_initialized",
           "is_available", "is_backend_available", "is_mpi_available", "is_nccl_available", "get_rank",
           "get_world_size", "get_backend", "get_global_rank", "get_process_group_ranks", "new_group",
           "destroy_process_group", "all_reduce", "broadcast", "all_gather", "all_gather_into_tensor",
           "reduce_scatter_tensor", "barrier", "send", "recv", "isend", "irecv"]


class ReduceOp(enum.IntEnum):
    """torch.distributed.ReduceOp (porta_reduce_op)."""
    SUM = _abi.PORTA_REDUCE_SUM
    AVG = _abi.PORTA_REDUCE_AVG
    MAX = _abi.PORTA_REDUCE_MAX
    MIN = _abi.PORTA_REDUCE_MIN
    PRODUCT = _abi.PORTA_REDUCE_PROD


class Work:
    """An enqueued operation (async_op=True): wait() completes it, copying results into the tensors given."""

    def __init__(self, handle, then=None):
        self._h = handle
        self._then = then  # after completion: all_gather's copies into its list

    def wait(self, timeout=None):
        """Waits up to `timeout` (a timedelta or seconds; None: the group's); raises PortaTimeoutError naming the
        op and its sequence number when it did not complete. Returns True, as torch's."""
        check(fn.porta_work_wait(self._h, _milliseconds(timeout, -1)), "wait()")
        self._finish()
        return True

    def is_completed(self):
        done = c_int32()
        check(fn.porta_work_is_completed(self._h, byref(done)), "is_completed()")
        if done.value:
            self._finish()
        return bool(done.value)

    def _finish(self):
        if self._then is not None:
            then, self._then = self._then, None
            then()

    def __del__(self):
        if getattr(self, "_h", None) and fn is not None:
            fn.porta_work_release(self._h)
            self._h = None


class ProcessGroup:
    """A group from new_group(); the default group is None, as in torch.distributed's calls."""

    def __init__(self, handle):
        self._h = handle

    def rank(self):
        return get_rank(self)

    def size(self):
        return get_world_size(self)

    def __del__(self):
        if getattr(self, "_h", None) and fn is not None:
            fn.porta_process_group_release(self._h)
            self._h = None


class GroupMember:
    """torch.distributed.GroupMember: WORLD is the default group, NON_GROUP_MEMBER what new_group returns on a rank
    outside the new group."""
    WORLD = None
    NON_GROUP_MEMBER = object()


def _milliseconds(timeout, default):
    if timeout is None:
        return default
    seconds = timeout.total_seconds() if isinstance(timeout, datetime.timedelta) else float(timeout)
    if seconds <= 0:
        raise InvalidArgumentError(f"timeout must be positive, got {timeout!r}")
    return max(1, int(seconds * 1000))


def _group(group):
    if group is None:
        return None
    if group is GroupMember.NON_GROUP_MEMBER:
        raise InvalidArgumentError("this rank is not a member of the group (new_group returned NON_GROUP_MEMBER)")
    if not isinstance(group, ProcessGroup):
        raise TypeError(f"group must be a ProcessGroup from new_group() or None, got {type(group).__name__}")
    return group._h


def _tensor(t, name):
    if not isinstance(t, Tensor):
        raise TypeError(f"{name} must be a porta.Tensor, got {type(t).__name__}")
    return t._h


def _refuse(what, value, default=None):
    if value is not default:
        raise NotImplementedError(f"porta.distributed: {what} is not supported yet (see docs/distributed.md)")


def _run(call, async_op, context, then=None):
    if not async_op:
        check(call(None), context)
        if then is not None:
            then()
        return None
    handle = c_void_p()
    check(call(byref(handle)), context)
    return Work(handle, then)


# ------------------------------------------------------------------ groups

def is_available():
    """True: the core always has process groups (is_mpi_available says whether the mpi plugin is there)."""
    return True


def is_backend_available(backend):
    """Whether a file of the communicator plugin `backend` ("mpi", "nccl") is where the core looks
    (PORTA_COMM_PLUGIN_PATH's entries, then <libdir>/porta/comm); it is loaded, and can still fail, on
    init_process_group."""
    name = f"libporta_comm_{backend.lower()}.so"
    entries = [e for e in os.environ.get("PORTA_COMM_PLUGIN_PATH", "").split(":") if os.path.isabs(e)]
    entries.append(os.path.join(os.path.dirname(os.path.realpath(_lib.path)), "porta", "comm"))
    return any(os.path.isfile(os.path.join(e, name)) if os.path.isdir(e) else os.path.basename(e) == name
               and os.path.isfile(e) for e in entries)


def is_mpi_available():
    """Whether the mpi communicator plugin is there (is_backend_available)."""
    return is_backend_available("mpi")


def is_nccl_available():
    """Whether the nccl communicator plugin is there (is_backend_available); it needs CUDA devices to run."""
    return is_backend_available("nccl")


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Makes the default group. backend: "mpi" (the default); init_method: "env://" (a TCP store at
    MASTER_ADDR:MASTER_PORT, as porta-run and torchrun set them), "tcp://<host>:<port>" (an IPv6 host in
    brackets, "tcp://[::1]:29500") or "file://<dir>";
    rank and world_size default to RANK and WORLD_SIZE, else the launcher's (mpirun)."""
    _refuse("init_process_group(store=)", store)
    _refuse("init_process_group(group_name=)", group_name or None)
    _refuse("init_process_group(pg_options=)", pg_options)
    _refuse("init_process_group(device_id=)", device_id)
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"backend must be a string such as 'mpi', got {type(backend).__name__}")
    options = sized(InitOptions, backend=(backend or "mpi").lower().encode(),
                    init_method=(init_method or "").encode(), rank=rank, world_size=world_size,
                    timeout_ms=_milliseconds(timeout, 0))
    check(fn.porta_init_process_group(byref(options)), "init_process_group()")


def is_initialized():
    out = c_int32()
    check(fn.porta_is_initialized(byref(out)))
    return bool(out.value)


def get_rank(group=None):
    out = c_int32()
    check(fn.porta_get_rank(_group(group), byref(out)), "get_rank()")
    return out.value


def get_world_size(group=None):
    out = c_int32()
    check(fn.porta_get_world_size(_group(group), byref(out)), "get_world_size()")
    return out.value


def get_backend(group=None):
    out = c_char_p()
    check(fn.porta_get_backend(_group(group), byref(out)), "get_backend()")
    return out.value.decode()


def get_global_rank(group, group_rank):
    """The default group's rank (torch's global rank) of `group`'s rank `group_rank`."""
    out = c_int32()
    check(fn.porta_get_global_rank(_group(group), int(group_rank), byref(out)), "get_global_rank()")
    return out.value


def get_process_group_ranks(group):
    """The global ranks of `group`'s members, in group rank order."""
    return [get_global_rank(group, r) for r in range(get_world_size(group))]


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False):
    """A group of the default group's `ranks` (None: all). Every rank calls it, in the same order; a rank outside
    the group gets GroupMember.NON_GROUP_MEMBER."""
    if backend is not None and backend.lower() != get_backend():
        raise NotImplementedError(f"new_group(backend={backend!r}): a subgroup uses its default group's backend "
                                  f"({get_backend()!r})")
    _refuse("new_group(pg_options=)", pg_options)
    _refuse("new_group(use_local_synchronization=True)", use_local_synchronization, False)
    members = sorted(ranks) if ranks is not None else []
    array = (c_int32 * max(1, len(members)))(*members)
    handle = c_void_p()
    check(fn.porta_new_group(array, len(members), _milliseconds(timeout, 0), byref(handle)), "new_group()")
    return ProcessGroup(handle) if handle.value else GroupMember.NON_GROUP_MEMBER


def destroy_process_group(group=None):
    """Waits for the group's outstanding work and releases it; None: every group."""
    check(fn.porta_destroy_process_group(_group(group)), "destroy_process_group()")


# ------------------------------------------------------------- collectives

def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    h = _tensor(tensor, "tensor")
    return _run(lambda w: fn.porta_all_reduce(h, int(op), _group(group), w), async_op, "all_reduce()")


def broadcast(tensor, src, group=None, async_op=False, group_src=None):
    _refuse("broadcast(group_src=)", group_src)
    h = _tensor(tensor, "tensor")
    return _run(lambda w: fn.porta_broadcast(h, src, _group(group), w), async_op, "broadcast()")


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    o, i = _tensor(output_tensor, "output_tensor"), _tensor(input_tensor, "input_tensor")
    return _run(lambda w: fn.porta_all_gather_into_tensor(o, i, _group(group), w), async_op,
                "all_gather_into_tensor()")


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """tensor_list[r] = rank r's tensor: gathered into one buffer, then copied into the list's tensors."""
    size = get_world_size(group)
    if not isinstance(tensor_list, list) or len(tensor_list) != size:
        raise InvalidArgumentError(f"all_gather(): tensor_list must be a list of world_size ({size}) tensors, got "
                                   f"{len(tensor_list) if isinstance(tensor_list, list) else type(tensor_list).__name__}")
    for t in tensor_list:
        if not isinstance(t, Tensor) or t.shape != tensor.shape or t.dtype != tensor.dtype:
            raise InvalidArgumentError(f"all_gather(): every tensor of tensor_list must have the input's shape "
                                       f"{tuple(tensor.shape)} and dtype {tensor.dtype}")
    flat = empty((size,) + tuple(tensor.shape), dtype=tensor.dtype, device=tensor.device)

    def scatter_into_list():
        for r, t in enumerate(tensor_list):
            t.copy_(flat[r])
    return _run(lambda w: fn.porta_all_gather_into_tensor(flat._h, _tensor(tensor, "tensor"), _group(group), w),
                async_op, "all_gather()", scatter_into_list)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    o, i = _tensor(output, "output"), _tensor(input, "input")
    return _run(lambda w: fn.porta_reduce_scatter_tensor(o, i, int(op), _group(group), w), async_op,
                "reduce_scatter_tensor()")


def barrier(group=None, async_op=False, device_ids=None):
    _refuse("barrier(device_ids=)", device_ids)
    return _run(lambda w: fn.porta_barrier(_group(group), w), async_op, "barrier()")


def isend(tensor, dst, group=None, tag=0):
    h = _tensor(tensor, "tensor")
    return _run(lambda w: fn.porta_send(h, dst, tag, _group(group), w), True, "isend()")


def irecv(tensor, src=None, group=None, tag=0):
    if src is None:
        raise NotImplementedError("irecv(src=None): receiving from any rank is not supported yet; name the source")
    h = _tensor(tensor, "tensor")
    return _run(lambda w: fn.porta_recv(h, src, tag, _group(group), w), True, "irecv()")


def send(tensor, dst, group=None, tag=0):
    isend(tensor, dst, group, tag).wait()


def recv(tensor, src=None, group=None, tag=0):
    """Receives into `tensor` from rank `src`; returns src, as torch's."""
    irecv(tensor, src, group, tag).wait()
    return src
