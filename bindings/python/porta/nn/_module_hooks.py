"""Module forward hooks and forward pre-hooks, as torch.nn.Module's: kept in registration order (prepend puts a
hook first) in the module's `_forward_hooks` list, run by Module.__call__. Backward module hooks are refused."""
from .._hooks import RemovableHandle

NO_BACKWARD_HOOKS = ("Module backward hooks (register_full_backward_hook, register_full_backward_pre_hook, "
                     "register_backward_hook) are not supported by Porta yet; register a hook on the tensor "
                     "instead (output.register_hook(fn) sees the gradient of the module's output)")


def register(module, kind, hook, prepend, with_kwargs):
    if not callable(hook):
        raise TypeError(f"a forward hook must be callable, got {type(hook).__name__}")
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


def call_with_hooks(module, hooks, args, kwargs):
    """Module.__call__ with its hooks: the pre-hooks may replace the arguments, the hooks the output."""
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
    output = module.forward(*args, **kwargs)
    for _, kind, hook, with_kwargs in list(hooks):
        if kind != "post":
            continue
        result = hook(module, args, kwargs, output) if with_kwargs else hook(module, args, output)
        if result is not None:
            output = result
    return output
