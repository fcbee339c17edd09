"""porta.save / porta.load: tensors, state dicts and checkpoints as safetensors files
(porta_safetensors_save / porta_safetensors_load), loadable onto any device.

A tensor or a flat dict of str -> tensor (model.state_dict()) is written as a plain safetensors file, as
Hugging Face's tools read it. Anything else PyTorch's weights_only loader accepts (nested dicts, lists and
tuples of tensors, numbers, strings, bools and None, such as {"epoch": 3, "model": ..., "optimizer":
optimizer.state_dict()}) is written as one safetensors file too: each tensor under its path in the object
("optimizer/state/0/exp_avg"), and the object's shape as UTF-8 JSON in a uint8 tensor named
"__porta_structure__" (docs/api.md, "Saving and loading"). Porta does not pickle arbitrary objects."""
import errno
import json
import os
from collections import OrderedDict
from ctypes import byref, c_char_p, c_int32, c_void_p

from . import _device
from ._errors import PortaFileNotFoundError, check
from ._factories import tensor
from ._lib import fn
from ._tensor import Tensor, wrap

_SINGLE = "__porta_tensor__"  # the entry name of a file holding one tensor
_STRUCTURE = "__porta_structure__"  # the entry holding a nested object's JSON shape
_STRUCTURE_VERSION = 1


def _read_all(f, map_location=None):
    """Every tensor of a safetensors file, by name, in the file's order."""
    path = _path(f, "load")
    lst = c_void_p()
    check(fn.porta_safetensors_load(path, _device.resolve(map_location), byref(lst)))
    try:
        n = c_int32()
        check(fn.porta_tensor_list_size(lst, byref(n)))
        out = OrderedDict()
        for i in range(n.value):
            name, t = c_char_p(), c_void_p()
            check(fn.porta_tensor_list_get(lst, i, byref(name), byref(t)))
            out[name.value.decode()] = wrap(t)
    finally:
        fn.porta_tensor_list_release(lst)
    return out


def _path(f, op):
    if isinstance(f, (str, bytes, os.PathLike)):
        path = os.fsencode(f)
        if b"\0" in path:
            raise ValueError(f"porta.{op}: the path {f!r} contains a NUL character, which no file name can hold")
        return path
    raise TypeError(f"porta.{op}: expected a file path, got {type(f).__name__} (Porta reads and writes "
                    "safetensors files by path)")


def save(obj, f):
    """Writes a tensor, a state dict or a nested checkpoint (dicts, lists, tuples of tensors and Python numbers,
    strings, bools, None) to the safetensors file `f`."""
    if isinstance(obj, Tensor):
        obj = {_SINGLE: obj}
    if isinstance(obj, dict) and obj and all(isinstance(k, str) and isinstance(v, Tensor) for k, v in obj.items()):
        _write(obj, f)
        return
    tensors = {}
    structure = _encode(obj, (), tensors)
    payload = json.dumps({"version": _STRUCTURE_VERSION, "object": structure}, allow_nan=False).encode()
    import numpy as np
    tensors[_STRUCTURE] = tensor(np.frombuffer(payload, dtype=np.uint8).copy())
    _write(tensors, f)


def _write(named, f):
    for k in named:
        if "\0" in k:
            raise ValueError(f"porta.save: the key {k!r} contains a NUL character, which a safetensors name cannot hold")
    names = (c_char_p * len(named))(*[k.encode() for k in named])
    tensors = [v.detach() for v in named.values()]
    handles = (c_void_p * len(tensors))(*[t._h.value for t in tensors])
    check(fn.porta_safetensors_save(_path(f, "save"), names, handles, len(tensors)))


def _where(path):
    return "the object" if not path else "obj" + "".join(f"[{p!r}]" for p in path)


def _encode(value, path, tensors):
    """value as JSON, its tensors moved into `tensors` under their paths."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return {"float": repr(value)}  # exact, and inf/nan too (JSON has neither)
    if isinstance(value, Tensor):
        name = "/".join(str(p) for p in path) or "tensor"
        while name in tensors or name in (_STRUCTURE, _SINGLE):
            name += "'"
        tensors[name] = value
        return {"tensor": name}
    if isinstance(value, (list, tuple)):
        items = [_encode(v, path + (i,), tensors) for i, v in enumerate(value)]
        return {"tuple" if isinstance(value, tuple) else "list": items}
    if isinstance(value, dict):
        entries = []
        for k, v in value.items():
            if not (k is None or isinstance(k, (bool, int, float, str))):
                raise TypeError(f"porta.save: {_where(path)} has a key of type {type(k).__name__}; keys must be "
                                "str, int, float, bool or None")
            entries.append([_encode(k, path, {}), _encode(v, path + (k,), tensors)])
        return {"ordered_dict" if isinstance(value, OrderedDict) else "dict": entries}
    hint = " (save its state_dict() instead)" if hasattr(value, "state_dict") else ""
    raise TypeError(f"porta.save: {_where(path)} is a {type(value).__name__}{hint}; Porta saves tensors, dicts, "
                    "lists, tuples, numbers, strings, bools and None, and does not pickle arbitrary objects")


def _decode(node, tensors):
    if node is None or isinstance(node, (bool, int, str)):
        return node
    (kind, body), = node.items()
    if kind == "float":
        return float(body)
    if kind == "tensor":
        return tensors[body]
    if kind in ("list", "tuple"):
        items = [_decode(v, tensors) for v in body]
        return items if kind == "list" else tuple(items)
    if kind in ("dict", "ordered_dict"):
        pairs = ((_decode(k, tensors), _decode(v, tensors)) for k, v in body)
        return OrderedDict(pairs) if kind == "ordered_dict" else dict(pairs)
    raise ValueError(f"porta.load: unknown entry {kind!r} in {_STRUCTURE}")


def load(f, map_location=None, weights_only=True):
    """Reads a file written by porta.save onto `map_location` (a device; default cpu): the tensor when one was
    saved, the object when a nested one was, else an OrderedDict of name -> tensor (any safetensors file)."""
    if callable(map_location) or isinstance(map_location, dict):
        raise TypeError("porta.load: map_location must be a device or a device string")
    path = _path(f, "load")
    if not os.path.exists(path):
        raise PortaFileNotFoundError(errno.ENOENT, "porta.load: no such file", os.fsdecode(path))
    out = _read_all(path, map_location)
    if list(out) == [_SINGLE]:
        return out[_SINGLE]
    if _STRUCTURE in out:
        import numpy as np
        shape = json.loads(np.asarray(out.pop(_STRUCTURE).cpu().numpy(), dtype=np.uint8).tobytes().decode())
        if shape.get("version") != _STRUCTURE_VERSION:
            raise ValueError(f"porta.load: {os.fsdecode(path)} was written by a newer Porta (structure version "
                             f"{shape.get('version')}; this one reads {_STRUCTURE_VERSION})")
        return _decode(shape["object"], out)
    return out
