"""torch.autograd.backward / grad, Tensor.register_hook and retain_grad, over porta_backward_ex and the
core's hooks. A Python callback the core calls (a hook, a custom Function's backward) that raises has its
exception re-raised, as it was, from the call that ran backward."""
import itertools
import threading
from ctypes import byref, c_int, c_uint64, c_void_p

from . import _abi
from ._errors import check, error
from ._factories import tensor, zeros_like
from ._hooks import RemovableHandle
from ._lib import BackwardOptions, GRAD_HOOK, RELEASE_CALLBACK, fn, sized
from ._tensor import Tensor, wrap

_retain = fn.porta_tensor_retain
_CALLBACK_FAILED = _abi.PORTA_ERROR_INVALID_ARGUMENT  # the core only passes it on; the exception is what is raised

# Python objects the core holds by key (a hook, a Function's state) until it calls the release callback.
_held = {}
_keys = itertools.count(1)
_failure = threading.local()


def hold(obj):
    """A key (the user_data of a C callback) for `obj`, kept until the core releases it."""
    key = next(_keys)
    _held[key] = obj
    return key


@RELEASE_CALLBACK
def release_held(key):
    try:
        _held.pop(key, None)
    except Exception:  # interpreter shutdown: nothing left to free
        pass


def run_callback(body):
    """Runs `body` for a C callback: PORTA_OK, or the failure status with the exception kept for raise_failure."""
    try:
        body()
        return _abi.PORTA_OK
    except BaseException as e:  # noqa: BLE001 - re-raised by the caller of backward
        if getattr(_failure, "exception", None) is None:
            _failure.exception = e
        return _CALLBACK_FAILED


def raise_failure(status, context):
    """Raises the exception a callback raised during the call that returned `status`, else the core's error."""
    exc = getattr(_failure, "exception", None)
    _failure.exception = None
    if exc is not None:
        raise exc
    if status:
        raise error(status, context)


def new_reference(t):
    """A new reference to t's handle, for the core to own."""
    _retain(t._h)
    return t._h.value


def _tensors(value, what):
    if value is None:
        return []
    if isinstance(value, Tensor):
        return [value]
    items = list(value)
    for i, t in enumerate(items):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(f"{what}: expected a Tensor or a sequence of Tensors, got {type(t).__name__} at index {i}")
    return items


def _handles(ts):
    arr = (c_void_p * max(len(ts), 1))()
    for i, t in enumerate(ts):
        arr[i] = t._h.value if t is not None else None
    return arr


def _grads_like(outputs, grads, what):
    if grads is None:
        return [None] * len(outputs)
    grads = [grads] if isinstance(grads, Tensor) else list(grads)
    if len(grads) != len(outputs):
        raise ValueError(f"{what}: got {len(grads)} gradients for {len(outputs)} tensors")
    return [g if g is None or isinstance(g, Tensor) else tensor(g, dtype=o.dtype, device=o.device)
            for g, o in zip(grads, outputs)]


def _run(outputs, grads, inputs, retain_graph, create_graph, allow_unused, returned, what):
    if retain_graph is None:
        retain_graph = create_graph
    opts = sized(BackwardOptions, retain_graph=int(bool(retain_graph)), create_graph=int(bool(create_graph)),
                 allow_unused=int(bool(allow_unused)))
    in_arr = _handles(inputs)
    if inputs:
        opts.inputs = in_arr
        opts.num_inputs = len(inputs)
    out_arr = (c_void_p * max(len(inputs), 1))()
    if returned:
        opts.grads_out = out_arr
    roots = _handles(outputs)
    grad_arr = _handles(grads)
    _failure.exception = None
    status = fn.porta_backward_ex(roots, grad_arr, len(outputs), byref(opts))
    raise_failure(status, what)
    if not returned:
        return None
    return tuple(wrap(c_void_p(out_arr[i])) if out_arr[i] else None for i in range(len(inputs)))


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """torch.autograd.backward: accumulates the gradients of `tensors` (weighted by grad_tensors) into the
    .grad of every leaf they reach, or only of `inputs`."""
    if grad_variables is not None:
        raise NotImplementedError("backward(): grad_variables is deprecated in PyTorch and not supported by "
                                  "Porta; pass grad_tensors")
    outputs = _tensors(tensors, "backward()")
    grads = _grads_like(outputs, grad_tensors, "backward()")
    ins = _tensors(inputs, "backward(): inputs")
    if inputs is not None and not ins:
        raise RuntimeError("backward(): 'inputs' argument to backward() cannot be empty.")
    _run(outputs, grads, ins, retain_graph, create_graph, False, False, "backward()")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """torch.autograd.grad: the gradients of `outputs` with respect to `inputs`, returned (a tuple) instead
    of accumulated into .grad."""
    if is_grads_batched:
        raise NotImplementedError("autograd.grad(): is_grads_batched=True (vmap over grad_outputs) is not "
                                  "supported by Porta")
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and not allow_unused:
        raise ValueError("autograd.grad(): Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False.")
    outs = _tensors(outputs, "autograd.grad()")
    ins = _tensors(inputs, "autograd.grad(): inputs")
    if not ins:
        raise RuntimeError("autograd.grad(): grad requires non-empty inputs.")
    grads = _grads_like(outs, grad_outputs, "autograd.grad()")
    result = _run(outs, grads, ins, retain_graph, create_graph, allow_unused, True, "autograd.grad()")
    if materialize_grads:
        result = tuple(zeros_like(x) if g is None else g for g, x in zip(result, ins))
    return result


# ------------------------------------------------------------------ hooks

@GRAD_HOOK
def _call_hook(key, grad_handle, replacement):
    def body():
        hook = _held[key]
        _retain(grad_handle)
        r = hook(wrap(c_void_p(grad_handle)))
        if r is None:
            return
        if not isinstance(r, Tensor):
            raise TypeError(f"register_hook(): a hook must return None or a Tensor, got {type(r).__name__}")
        replacement[0] = new_reference(r)
    return run_callback(body)


def tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Back-propagates from this tensor into the .grad of every leaf that requires grad (or only of
    `inputs`). `gradient` is d(loss)/d(self); None means 1 (then self must have one element)."""
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def register_hook(t, hook):
    """Calls hook(grad) with each gradient computed for this tensor; a Tensor it returns replaces the
    gradient. Returns a handle whose remove() takes the hook off."""
    if not callable(hook):
        raise TypeError(f"register_hook(): hook must be callable, got {type(hook).__name__}")
    key = hold(hook)
    handle = c_uint64()
    check(fn.porta_tensor_register_hook(t._h, _call_hook, key, release_held, byref(handle)), "register_hook()")
    hook_id = handle.value
    return RemovableHandle(lambda: check(fn.porta_tensor_remove_hook(t._h, hook_id), "remove()"))


def retain_grad(t):
    """Keeps this non-leaf's gradient in .grad on backward (a leaf's is kept anyway)."""
    check(fn.porta_tensor_retain_grad(t._h), "retain_grad()")


def retains_grad(t):
    """Whether retain_grad() was called on this non-leaf."""
    v = c_int()
    check(fn.porta_tensor_retains_grad(t._h, byref(v)))
    return v.value != 0


def version(t):
    """How many times this tensor's memory was written in place."""
    v = c_uint64()
    check(fn.porta_tensor_version(t._h, byref(v)))
    return v.value


__all__ = ["backward", "grad", "register_hook", "retain_grad", "retains_grad", "version", "RemovableHandle"]
