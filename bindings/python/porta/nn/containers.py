"""Containers that register what they hold, as torch.nn's: ModuleDict, ParameterList and ParameterDict
(Sequential and ModuleList are in layers.py). Their entries are parameters and children of the container,
so parameters(), state_dict(), to() and optimizers see them; names in state_dict are the keys (or indices)."""
from collections import OrderedDict
from collections.abc import Mapping

from .. import _dtype
from .._tensor import Tensor
from .module import Module
from .parameter import Parameter


def _as_parameter(value, owner):
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


class _EntryDict(Module):
    """What ModuleDict and ParameterDict share: a mapping view of one of the module's registries
    (_ENTRIES: "_modules" or "_parameters"), in insertion order; subclasses define __setitem__."""

    _ENTRIES = ""

    def __init__(self, entries=None):
        super().__init__()
        if entries is not None:
            self.update(entries)

    @property
    def _entries(self):
        return self.__dict__[self._ENTRIES]

    def __getitem__(self, key):
        return self._entries[key]

    def __delitem__(self, key):
        del self._entries[key]

    def __len__(self):
        return len(self._entries)

    def __iter__(self):
        return iter(self._entries)

    def __contains__(self, key):
        return key in self._entries

    def keys(self):
        return self._entries.keys()

    def items(self):
        return self._entries.items()

    def values(self):
        return self._entries.values()

    def pop(self, key):
        """Removes and returns the entry under key."""
        value = self._entries[key]
        del self._entries[key]
        return value

    def clear(self):
        self._entries.clear()

    def update(self, entries):
        """Adds (key, value) pairs from a mapping or an iterable of pairs."""
        for key, value in _pairs(entries, type(self).__name__):
            self[key] = value

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} has no forward(): use what it holds "
                                  f"({type(self).__name__.lower()}[name])")


class ModuleDict(_EntryDict):
    """Child modules by name: ModuleDict({'conv': Conv2d(...), ...}); insertion order is kept."""

    _ENTRIES = "_modules"

    def __setitem__(self, key, module):
        if not isinstance(module, Module):
            raise TypeError(f"ModuleDict: {key!r} is a {type(module).__name__}, not a porta.nn.Module")
        if key in self._modules:  # a replaced entry keeps its place, as in a dict
            self._modules[key] = module
            path = self.__dict__.get("_path")
            module._set_path(f"{path}.{key}" if path else key)
        else:
            self.add_module(key, module)


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

    def extra_repr(self):
        return "\n".join(f"  ({i}): Parameter containing: [torch.{p.dtype.name} of size {_size_text(p)}"
                         f"{'' if p.device.type == 'cpu' else f' ({p.device})'}]"
                         for i, p in enumerate(self._parameters.values()))


def _size_text(p):
    return "x".join(map(str, p.shape))


class ParameterDict(_EntryDict):
    """Parameters by name; tensors given are wrapped in Parameter; insertion order is kept, but a plain dict
    given to the constructor or update() is taken in sorted key order, as PyTorch's."""

    _ENTRIES = "_parameters"

    def update(self, entries):
        """Adds (key, value) pairs: an OrderedDict or ParameterDict in its order, another mapping sorted by key,
        an iterable of pairs in its order."""
        if isinstance(entries, Mapping) and not isinstance(entries, (OrderedDict, ParameterDict)):
            entries = sorted(entries.items())
        super().update(entries)

    def extra_repr(self):
        lines = []
        for key, p in self._parameters.items():
            where = "" if p.device.type == "cpu" else f"{p.device.type}."
            lines.append(f"  ({key}): Parameter containing: [torch.{where}{_dtype.TENSOR_TYPE_NAMES[p.dtype]} of size "
                         f"{_size_text(p)}{'' if p.device.type == 'cpu' else f' ({p.device})'}]")
        return "\n".join(lines)

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise TypeError(f"ParameterDict: keys must be str, got {type(key).__name__}")
        self._parameters[key] = _as_parameter(value, "ParameterDict")  # a replaced entry keeps its place

    def get(self, key, default=None):
        return self._parameters.get(key, default)


__all__ = ["ModuleDict", "ParameterList", "ParameterDict"]
