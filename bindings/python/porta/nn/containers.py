"""Containers that register what they hold, as torch.nn's: ModuleDict, ParameterList and ParameterDict
(Sequential and ModuleList are in layers.py). Their entries are parameters and children of the container,
so parameters(), state_dict(), to() and optimizers see them; names in state_dict are the keys (or indices)."""
from collections.abc import Mapping

from .module import Module
from .parameter import Parameter


def _as_parameter(value, owner):
    from .._tensor import Tensor
    if isinstance(value, Parameter) or value is None:
        return value
    if isinstance(value, Tensor):
        return Parameter(value)
    raise TypeError(f"{owner}: expected a porta.nn.Parameter or Tensor, got {type(value).__name__}")


def _pairs(values, owner):
    if isinstance(values, Mapping):
        return list(values.items())
    pairs = []
    for i, item in enumerate(values):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise TypeError(f"{owner}.update: element #{i} of the iterable should be a (key, value) pair, got "
                            f"{type(item).__name__}")
        pairs.append(tuple(item))
    return pairs


class ModuleDict(Module):
    """Child modules by name: ModuleDict({'conv': Conv2d(...), ...}); insertion order is kept."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        if not isinstance(module, Module):
            raise TypeError(f"ModuleDict: {key!r} is a {type(module).__name__}, not a porta.nn.Module")
        if key in self._modules:  # a replaced entry keeps its place, as in a dict
            self._modules[key] = module
            path = self.__dict__.get("_path")
            module._set_path(f"{path}.{key}" if path else key)
        else:
            self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def pop(self, key):
        """Removes and returns the module under key."""
        module = self._modules[key]
        del self._modules[key]
        return module

    def clear(self):
        self._modules.clear()

    def update(self, modules):
        """Adds (key, module) pairs from a mapping or an iterable of pairs."""
        for key, module in _pairs(modules, "ModuleDict"):
            self[key] = module

    def forward(self, *args, **kwargs):
        raise NotImplementedError("ModuleDict has no forward(): call its modules (module_dict[name](x))")


class ParameterList(Module):
    """Parameters in a list, registered as '0', '1', ...; tensors given are wrapped in Parameter."""

    def __init__(self, values=None):
        super().__init__()
        if values is not None:
            self.extend(values)

    def _index(self, idx):
        n = len(self._parameters)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range for a ParameterList of {n}")
        return str(idx % n)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList(list(self._parameters.values())[idx])
        return self._parameters[self._index(idx)]

    def __setitem__(self, idx, value):
        self._parameters[self._index(idx)] = _as_parameter(value, "ParameterList")  # keeps its place

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        """Adds a parameter at the end; returns self."""
        self.register_parameter(str(len(self._parameters)), _as_parameter(value, "ParameterList"))
        return self

    def extend(self, values):
        """Adds every parameter of an iterable; returns self."""
        for v in values:
            self.append(v)
        return self

    def forward(self, *args, **kwargs):
        raise NotImplementedError("ParameterList has no forward(): use its parameters")


class ParameterDict(Module):
    """Parameters by name; tensors given are wrapped in Parameter; insertion order is kept."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise TypeError(f"ParameterDict: keys must be str, got {type(key).__name__}")
        self._parameters[key] = _as_parameter(value, "ParameterDict")  # a replaced entry keeps its place

    def __delitem__(self, key):
        del self._parameters[key]

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def __contains__(self, key):
        return key in self._parameters

    def keys(self):
        return self._parameters.keys()

    def items(self):
        return self._parameters.items()

    def values(self):
        return self._parameters.values()

    def get(self, key, default=None):
        return self._parameters.get(key, default)

    def pop(self, key):
        """Removes and returns the parameter under key."""
        value = self._parameters[key]
        del self._parameters[key]
        return value

    def update(self, parameters):
        """Adds (key, parameter) pairs from a mapping or an iterable of pairs."""
        for key, value in _pairs(parameters, "ParameterDict"):
            self[key] = value

    def forward(self, *args, **kwargs):
        raise NotImplementedError("ParameterDict has no forward(): use its parameters")


__all__ = ["ModuleDict", "ParameterList", "ParameterDict"]
