"""Module hooks, as torch.nn.Module's: forward pre-hooks and hooks, and full backward pre-hooks and hooks, kept
in registration order (prepend puts a hook first among its kind) in the module's `_forward_hooks` list and run
by Module.__call__.

Backward hooks work as PyTorch's BackwardHook: the call's positional tensor inputs that require grad pass
through one identity node (BackwardHookFunctionBackward, a custom Function with an output per input), and so
do the tensors of its output (a tensor, or the tensor items of a tuple: PyTorch's rule, which leaves tensors
nested deeper, such as an LSTM's (h, c), out of grad_output). The output node's backward runs the pre-hooks
(which may replace grad_output); the input node's, which sees every input's gradient at once, runs the hooks
with grad_input (None where an input takes no gradient) and grad_output, and passes on what they return. An
output that gets no gradient is given zeros (Porta's custom Functions materialize gradients). create_graph
through the identity nodes is refused, as through every custom Function."""
from .._autograd_function import Function
from .._hooks import RemovableHandle
from .._tensor import Tensor
from ..autograd import is_grad_enabled

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
    """An identity over tensors whose backward hands their gradients (a tuple) to `tap`, which returns the
    gradients to pass on."""

    @staticmethod
    def forward(ctx, tap, *xs):
        ctx.tap = tap
        return xs[0] if len(xs) == 1 else xs

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.tap(grads))


def _replacements(result, current, what):
    """A hook's new gradients for `current` (a tuple; None entries take none): `current` when it returns None."""
    if result is None:
        return current
    result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
    if len(result) != len(current):
        raise RuntimeError(f"backward hook returned an invalid number of {what}, got {len(result)}, but expected "
                           f"{len(current)}")
    for new, old in zip(result, current):
        if new is None:
            continue
        if not isinstance(new, Tensor):
            raise TypeError(f"backward hook must return None or a tuple of tensors (or None) for {what}, got "
                            f"{type(new).__name__}")
        if old is None:
            raise RuntimeError(f"backward hook returned a gradient in {what} for a tensor that takes none")
        if tuple(new.shape) != tuple(old.shape):
            raise RuntimeError(f"backward hook returned a gradient of shape {list(new.shape)} in {what} where "
                               f"{list(old.shape)} was expected")
    return result


class _BackwardHooks:
    """One call's backward hooks: taps on its inputs and output, and the gradients seen this backward pass."""

    def __init__(self, module, hooks, args):
        self.module, self.hooks = module, [h for h in hooks if h[1] in _BACKWARD_KINDS]
        self.tensor_args = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        self.tapped = [i for i in self.tensor_args if args[i].requires_grad]
        self.grad_output, self.grad_input = None, {}

    def wrap_inputs(self, args):
        if not self.tapped:
            return args
        args = list(args)
        new = BackwardHookFunction.apply(self._input_grads, *[args[i] for i in self.tapped])
        for i, t in zip(self.tapped, new if len(self.tapped) > 1 else (new,)):
            args[i] = t
        return tuple(args)

    def wrap_output(self, output):
        items = output if isinstance(output, tuple) else (output,)
        if not isinstance(output, (Tensor, tuple)):
            if any(isinstance(o, Tensor) and o.requires_grad for o in _flatten(output)):
                raise NotImplementedError(f"{type(self.module).__name__}: full backward hooks on a module whose "
                                          f"forward returns a {type(output).__name__} of tensors are not supported "
                                          "(PyTorch hooks a tensor or a tuple's tensor items); return a tuple")
            return output
        self.n_outputs = len(items)
        self.output_tapped = [k for k, o in enumerate(items) if isinstance(o, Tensor) and o.requires_grad]
        if not self.output_tapped:
            return output
        new = BackwardHookFunction.apply(self._output_grads, *[items[k] for k in self.output_tapped])
        items = list(items)
        for k, t in zip(self.output_tapped, new if len(self.output_tapped) > 1 else (new,)):
            items[k] = t
        return tuple(items) if isinstance(output, tuple) else items[0]

    def _output_grads(self, grads):
        self.grad_input = {}  # a new backward pass through this call
        grad_output = [None] * self.n_outputs
        for k, g in zip(self.output_tapped, grads):
            grad_output[k] = g
        grad_output = tuple(grad_output)
        for _, kind, hook, _ in list(self.hooks):
            if kind == "backward_pre":
                grad_output = _replacements(hook(self.module, grad_output), grad_output, "grad_output")
        self.grad_output = grad_output
        if not self.tapped:
            self._run_hooks()
        return tuple(grad_output[k] for k in self.output_tapped)

    def _input_grads(self, grads):
        self.grad_input = dict(zip(self.tapped, grads))
        grads = self._run_hooks()
        return tuple(grads[self.tensor_args.index(i)] for i in self.tapped)

    def _run_hooks(self):
        grads = tuple(self.grad_input.get(i) for i in self.tensor_args)
        for _, kind, hook, _ in list(self.hooks):
            if kind == "backward":
                grads = _replacements(hook(self.module, grads, self.grad_output), grads, "grad_input")
        return grads


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
