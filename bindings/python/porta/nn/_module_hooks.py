"""Module hooks, as torch.nn.Module's: forward pre-hooks and hooks, and full backward pre-hooks and hooks, kept
in registration order (prepend puts a hook first among its kind) in the module's `_forward_hooks` list and run
by Module.__call__.

Backward hooks work as PyTorch's BackwardHook: the call's tensor inputs that require grad and its output pass
through identity nodes (BackwardHookFunctionBackward) whose backward sees their gradients. The output's runs
the pre-hooks (which may replace grad_output); the last input's runs the hooks with grad_input (None where an
input takes no gradient) and grad_output. Porta's graph nodes have one output, so each input has its node:
a hook may return a new grad_input when the module has one input that takes a gradient, and is refused when
it returns new values for several (their gradients have gone on by then). A forward that returns several
tensors (a tuple) is refused with backward hooks, and so is create_graph through the identity nodes."""
from .._autograd_function import Function
from .._hooks import RemovableHandle

NO_LEGACY_BACKWARD_HOOK = ("Module.register_backward_hook (deprecated in PyTorch, with its per-node "
                           "grad_input) is not supported by Porta; use register_full_backward_hook")
_BACKWARD_KINDS = ("backward_pre", "backward")


def register(module, kind, hook, prepend, with_kwargs):
    if not callable(hook):
        raise TypeError(f"a {kind.replace('_', ' ')} hook must be callable, got {type(hook).__name__}")
    hooks = module.__dict__.setdefault("_forward_hooks", [])

    def remove():
        hooks[:] = [h for h in hooks if h[0] != handle.id]
    handle = RemovableHandle(remove)
    entry = (handle.id, kind, hook, bool(with_kwargs))
    if prepend:
        first_of_kind = next((i for i, h in enumerate(hooks) if h[1] == kind), len(hooks))
        hooks.insert(first_of_kind, entry)
    else:
        hooks.append(entry)
    return handle


class BackwardHookFunction(Function):
    """An identity whose backward hands the gradient to `tap` (which may return a replacement)."""

    @staticmethod
    def forward(ctx, x, tap):
        ctx.tap = tap
        return x

    @staticmethod
    def backward(ctx, grad):
        replaced = ctx.tap(grad)
        return (grad if replaced is None else replaced), None


def _one_gradient(result, what, like):
    """A hook's replacement for one gradient: a tensor, or a tuple of one (None keeps it)."""
    from .._tensor import Tensor
    value = result[0] if isinstance(result, (tuple, list)) and len(result) == 1 else result
    if value is None or isinstance(value, Tensor):
        if value is not None and tuple(value.shape) != tuple(like.shape):
            raise RuntimeError(f"backward hook returned a gradient of shape {list(value.shape)} for {what} of shape "
                               f"{list(like.shape)}")
        return value
    raise TypeError(f"backward hook must return None or a tuple with one tensor for {what}, got {result!r}")


class _BackwardHooks:
    """One call's backward hooks: taps on its inputs and output, and the gradients seen this backward pass."""

    def __init__(self, module, hooks, args):
        from .._tensor import Tensor
        self.module, self.hooks = module, [h for h in hooks if h[1] in _BACKWARD_KINDS]
        self.tensor_args = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        self.tapped = [i for i in self.tensor_args if args[i].requires_grad]
        self.grad_output, self.grad_input, self.pending = None, {}, 0

    def wrap_inputs(self, args):
        args = list(args)
        for i in self.tapped:
            args[i] = BackwardHookFunction.apply(args[i], lambda g, i=i: self._input_grad(i, g))
        return tuple(args)

    def wrap_output(self, output):
        from .._tensor import Tensor
        if not isinstance(output, Tensor):
            if any(isinstance(o, Tensor) and o.requires_grad for o in _flatten(output)):
                raise NotImplementedError(f"{type(self.module).__name__}: full backward hooks on a module whose "
                                          f"forward returns a {type(output).__name__} of tensors are not supported "
                                          "by Porta (one tensor output only); hook the output tensors instead")
            return output
        if not output.requires_grad:
            return output
        return BackwardHookFunction.apply(output, self._output_grad)

    def _output_grad(self, grad):
        self.grad_input, self.pending = {}, len(self.tapped)  # a new backward pass through this call
        for _, kind, hook, _ in list(self.hooks):
            if kind == "backward_pre":
                replaced = _one_gradient(hook(self.module, (grad,)), "the module's output", grad)
                grad = grad if replaced is None else replaced
        self.grad_output = (grad,)
        if not self.tapped:
            self._run_hooks()
        return grad

    def _input_grad(self, i, grad):
        self.grad_input[i] = grad
        self.pending -= 1
        if self.pending > 0:
            return None
        return self._run_hooks()

    def _run_hooks(self):
        grads = tuple(self.grad_input.get(i) for i in self.tensor_args)
        last = self.tapped[-1] if self.tapped else None
        for _, kind, hook, _ in list(self.hooks):
            if kind != "backward":
                continue
            result = hook(self.module, grads, self.grad_output)
            if result is None:
                continue
            result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
            if len(result) != len(grads):
                raise RuntimeError(f"backward hook returned an invalid number of grad_input, got {len(result)}, "
                                   f"but expected {len(grads)}")
            changed = [k for k, (new, old) in enumerate(zip(result, grads)) if new is not old]
            if not changed:
                continue
            if len(self.tapped) != 1:
                raise NotImplementedError(
                    f"{type(self.module).__name__}: a full backward hook returned new grad_input values for a "
                    f"module with {len(self.tapped)} inputs that take gradients; Porta can replace grad_input only "
                    "for a module with one (hook the input tensors with register_hook instead)")
            k = self.tensor_args.index(last)
            if changed != [k]:
                raise RuntimeError("backward hook returned a gradient for an input that takes none")
            new = _one_gradient(result[k], "the module's input", grads[k])
            grads = grads[:k] + (new,) + grads[k + 1:]
        return grads[self.tensor_args.index(last)] if last is not None else None


def _flatten(value):
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _flatten(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _flatten(v)
    else:
        yield value


def call_with_hooks(module, hooks, args, kwargs):
    """Module.__call__ with its hooks: the pre-hooks may replace the arguments, the hooks the output; backward
    hooks tap the inputs (after the pre-hooks) and the output (after the hooks)."""
    for _, kind, hook, with_kwargs in list(hooks):
        if kind != "pre":
            continue
        if with_kwargs:
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                       f"but got {result!r}")
                args, kwargs = result
        else:
            result = hook(module, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
    from ..autograd import is_grad_enabled
    backward = None
    if is_grad_enabled() and any(h[1] in _BACKWARD_KINDS for h in hooks):
        backward = _BackwardHooks(module, hooks, args)
        args = backward.wrap_inputs(args)
    output = module.forward(*args, **kwargs)
    for _, kind, hook, with_kwargs in list(hooks):
        if kind != "post":
            continue
        result = hook(module, args, kwargs, output) if with_kwargs else hook(module, args, output)
        if result is not None:
            output = result
    return output if backward is None else backward.wrap_output(output)
