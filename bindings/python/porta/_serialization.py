"""porta.save / porta.load: tensors and state dicts as safetensors files
(porta_safetensors_save / porta_safetensors_load), loadable onto any device."""
import errno
import os
from collections import OrderedDict
from ctypes import byref, c_char_p, c_int32, c_void_p

from . import _device
from ._errors import PortaFileNotFoundError, check
from ._lib import fn
from ._tensor import Tensor, wrap

_SINGLE = "__porta_tensor__"  # the entry name of a file holding one tensor


def _path(f, op):
    if isinstance(f, (str, bytes, os.PathLike)):
        path = os.fsencode(f)
        if b"\0" in path:
            raise ValueError(f"porta.{op}: the path {f!r} contains a NUL character, which no file name can hold")
        return path
    raise TypeError(f"porta.{op}: expected a file path, got {type(f).__name__} (Porta reads and writes "
                    "safetensors files by path)")


def save(obj, f):
    """Writes a tensor or a dict of name -> tensor (a state dict) to the safetensors file `f`."""
    if isinstance(obj, Tensor):
        obj = {_SINGLE: obj}
    if not isinstance(obj, dict) or not all(isinstance(v, Tensor) for v in obj.values()):
        raise TypeError("porta.save: expected a tensor or a dict of name -> tensor (e.g. model.state_dict()); "
                        f"got {type(obj).__name__}. Porta does not pickle arbitrary objects")
    for k in obj:
        if not isinstance(k, str):
            raise TypeError(f"porta.save: the key {k!r} is a {type(k).__name__}; safetensors files name "
                            "tensors by str keys (as state_dict() gives)")
        if "\0" in k:
            raise ValueError(f"porta.save: the key {k!r} contains a NUL character, which a safetensors name cannot hold")
    names = (c_char_p * len(obj))(*[k.encode() for k in obj])
    tensors = [v.detach() for v in obj.values()]
    handles = (c_void_p * len(tensors))(*[t._h.value for t in tensors])
    check(fn.porta_safetensors_save(_path(f, "save"), names, handles, len(tensors)))


def load(f, map_location=None, weights_only=True):
    """Reads a file written by porta.save onto `map_location` (a device; default cpu):
    an OrderedDict of name -> tensor, or the tensor when one was saved."""
    if callable(map_location) or isinstance(map_location, dict):
        raise TypeError("porta.load: map_location must be a device or a device string")
    path = _path(f, "load")
    if not os.path.exists(path):
        raise PortaFileNotFoundError(errno.ENOENT, "porta.load: no such file", os.fsdecode(path))
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
    if list(out) == [_SINGLE]:
        return out[_SINGLE]
    return out
