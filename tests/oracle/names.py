"""The public names of a library (torch or porta), by the namespace a case names them with:
torch.X (functions and classes of the top module), Tensor.X (methods, attributes and the
operators), F.X (nn.functional), nn.X (modules), optim.X, lr_scheduler.X.
"""
import inspect
import types

# Python's operators on a tensor: a case names them Tensor.__add__, ... (engine.operator_call)
OPERATORS = tuple(f"__{p}{n}__" for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and",
                                          "or", "xor", "lshift", "rshift") for p in ("", "r", "i")) + \
    tuple(f"__{n}__" for n in ("eq", "ne", "lt", "le", "gt", "ge", "neg", "pos", "abs", "invert", "bool", "int",
                               "float", "len", "index", "getitem", "setitem"))


def _public(module, keep):
    return sorted(n for n in dir(module) if not n.startswith("_") and keep(getattr(module, n)))


def _function_or_class(x):
    return callable(x) and not isinstance(x, types.ModuleType)


def _defined_in(L, part):
    """Classes defined in one of L's modules whose name contains `part` (not ones it imported from elsewhere)."""
    return lambda x: inspect.isclass(x) and x.__module__.startswith(L.__name__ + ".") and part in x.__module__


def public_names(L):
    """{namespace: [names]} of library L."""
    tensor_names = [n for n in dir(L.Tensor) if not n.startswith("_")] + [o for o in OPERATORS if hasattr(L.Tensor, o)]
    return {
        "torch": _public(L, _function_or_class),
        "Tensor": sorted(tensor_names),
        "F": _public(L.nn.functional, lambda x: _function_or_class(x) and not inspect.isclass(x)),
        "nn": _public(L.nn, _defined_in(L, ".nn")),
        "optim": _public(L.optim, _defined_in(L, ".optim")),
        "lr_scheduler": _public(L.optim.lr_scheduler, _defined_in(L, "lr_scheduler")),
    }
