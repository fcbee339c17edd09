"""torch.autograd.Function: a forward written by the user, run under no-grad, and a backward the core's
graph calls back (porta_function_attach).

forward may return a tensor, or a tuple (porta_function_attach_outputs): its float tensors not marked
non-differentiable share one node, and backward gets one gradient per item of the tuple, as PyTorch's: a
tensor for each differentiable output (zeros where it got none), zeros for a tensor marked
non-differentiable, None for anything else. Saved tensors are checked against in-place writes, as
PyTorch's are."""
from ctypes import byref, c_void_p

from ._autograd_engine import _held, hold, new_reference, raise_failure, release_held, run_callback, version
from ._factories import zeros
from ._grad_mode import is_grad_enabled, no_grad
from ._lib import FUNCTION_BACKWARD, FUNCTION_BACKWARD_OUTPUTS, fn
from ._tensor import Tensor, wrap


class FunctionCtx:
    """The `ctx` of forward/setup_context and backward."""

    def __init__(self):
        self._saved = ()
        self._versions = ()
        self._non_differentiable = set()
        self.needs_input_grad = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument is of type "
                                f"{type(t).__name__}")
        self._saved = tensors
        self._versions = tuple(None if t is None else version(t) for t in tensors)

    @property
    def saved_tensors(self):
        for i, (t, v) in enumerate(zip(self._saved, self._versions)):
            if t is not None and version(t) != v:
                raise RuntimeError(f"one of the variables needed for gradient computation has been modified by an "
                                   f"inplace operation: saved tensor {i} ({list(t.shape)}) is at version "
                                   f"{version(t)}; expected version {v} instead")
        return self._saved

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors):
        raise NotImplementedError("ctx.mark_dirty(): a custom Function that writes its inputs in place is not "
                                  "supported by Porta; return a new tensor instead")

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)  # outputs' gradients are always tensors in Porta (zeros where none)


class _State:
    """What the core's node keeps: the Function class, its ctx, where the tensor arguments were and, for a
    tuple output, how each of its items gets its gradient (see grad_outputs)."""

    def __init__(self, cls, ctx, tensor_positions, num_args, outputs=None, differentiable=()):
        self.cls, self.ctx, self.tensor_positions, self.num_args = cls, ctx, tensor_positions, num_args
        self.differentiable = list(differentiable)
        # Per item of a tuple output: None (no gradient) or (shape, dtype, device) of the zeros it gets.
        self.zeros = None if outputs is None else [
            (tuple(o.shape), o.dtype, o.device) if isinstance(o, Tensor) and i not in differentiable else None
            for i, o in enumerate(outputs)]

    def grad_outputs(self, given):
        """backward's gradients: `given` (the differentiable outputs') at their items, zeros or None elsewhere."""
        grads = [None if z is None else zeros(z[0], dtype=z[1], device=z[2]) for z in self.zeros]
        for i, g in zip(self.differentiable, given):
            grads[i] = g
        return grads


def _borrowed(handle):
    fn.porta_tensor_retain(handle)
    return wrap(c_void_p(handle))


@FUNCTION_BACKWARD
def _call_backward(key, grad_handle, grad_inputs, num_inputs):
    def body():
        state = _held[key]
        _hand_back(state, state.cls.backward(state.ctx, _borrowed(grad_handle)), grad_inputs)
    return run_callback(body)


@FUNCTION_BACKWARD_OUTPUTS
def _call_backward_outputs(key, grad_handles, num_outputs, grad_inputs, num_inputs):
    def body():
        state = _held[key]
        given = [_borrowed(grad_handles[j]) for j in range(num_outputs)]
        _hand_back(state, state.cls.backward(state.ctx, *state.grad_outputs(given)), grad_inputs)
    return run_callback(body)


def _hand_back(state, grads, grad_inputs):
    """Checks backward's result and hands the tensor arguments' gradients to the core."""
    if not isinstance(grads, tuple):
        grads = (grads,)
    if len(grads) < state.num_args or any(g is not None for g in grads[state.num_args:]):
        raise RuntimeError(f"function {state.cls.__name__}Backward returned an incorrect number of gradients "
                           f"(expected {state.num_args}, got {len(grads)})")
    for slot, pos in enumerate(state.tensor_positions):
        g = grads[pos]
        if g is None:
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"function {state.cls.__name__}Backward returned a {type(g).__name__} as the "
                            f"gradient of argument {pos}; expected a Tensor or None")
        grad_inputs[slot] = new_reference(g)
    for pos, g in enumerate(grads[:state.num_args]):
        if pos not in state.tensor_positions and g is not None:
            raise RuntimeError(f"function {state.cls.__name__}Backward returned a gradient for argument {pos}, "
                               "which is not a tensor; return None there")


def _outputs(result):
    if isinstance(result, Tensor):
        return [result], True
    if isinstance(result, tuple):
        return list(result), False
    raise TypeError(f"autograd.Function.forward must return a Tensor or a tuple, got {type(result).__name__}")


class Function:
    """torch.autograd.Function: subclass with static forward(ctx, *args) (or forward(*args) plus
    setup_context(ctx, inputs, output)) and backward(ctx, grad_output); call Sub.apply(*args)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated; use the "
                           "class's apply() with a static forward")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args, **kwargs):
        if kwargs:
            raise NotImplementedError(f"{cls.__name__}.apply(): keyword arguments are not supported, as in "
                                      "PyTorch's apply; pass them positionally")
        ctx = FunctionCtx()
        grad_on = is_grad_enabled()
        ctx.needs_input_grad = tuple(grad_on and isinstance(a, Tensor) and a.requires_grad for a in args)
        separate_setup = cls.setup_context is not Function.setup_context
        with no_grad():
            result = cls.forward(*args) if separate_setup else cls.forward(ctx, *args)
        if separate_setup:
            cls.setup_context(ctx, args, result)
        outputs, single = _outputs(result)
        differentiable = [i for i, o in enumerate(outputs)
                          if isinstance(o, Tensor) and id(o) not in ctx._non_differentiable and o.is_floating_point()]
        if not any(ctx.needs_input_grad) or not differentiable:
            return result
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        inputs = (c_void_p * max(len(positions), 1))(*[args[i]._h.value for i in positions])
        name = f"{cls.__name__}Backward".encode()
        if single:
            key = hold(_State(cls, ctx, positions, len(args)))
            out = c_void_p()
            status = fn.porta_function_attach(outputs[0]._h, inputs, len(positions), _call_backward, key,
                                              release_held, name, byref(out))
            raise_failure(status, f"{cls.__name__}.apply()")
            return wrap(out)
        key = hold(_State(cls, ctx, positions, len(args), outputs, differentiable))
        handles = (c_void_p * len(differentiable))(*[outputs[i]._h.value for i in differentiable])
        outs = (c_void_p * len(differentiable))()
        status = fn.porta_function_attach_outputs(handles, len(differentiable), inputs, len(positions),
                                                  _call_backward_outputs, key, release_held, name, outs)
        raise_failure(status, f"{cls.__name__}.apply()")
        for j, i in enumerate(differentiable):
            outputs[i] = wrap(c_void_p(outs[j]))
        return tuple(outputs)


class once_differentiable:  # noqa: N801 - PyTorch's name
    """torch.autograd.function.once_differentiable: Porta's custom backward runs once per graph already
    (create_graph refuses custom nodes), so the decorator returns the function unchanged."""

    def __new__(cls, fn_):
        return fn_
