"""porta.device (like torch.device), device counts and try_gpu / try_all_gpus.

A device object is only a name, checked when first used, so
``porta.device('cuda:1')`` works on a machine without GPUs, as in PyTorch.
"""
import ctypes
import re
from ctypes import byref, c_int, c_int32

from . import _abi
from ._errors import InvalidArgumentError, NoSuchDeviceError, check, error
from ._lib import DeviceInfo, DLDevice, PluginInfo, fn, sized

_GRAMMAR = re.compile(r"([a-z][a-z0-9_]*)(?::(0|[1-9][0-9]*))?\Z")
_KDLCPU = _abi.kDLCPU


class device:
    """A device name: ``device('cuda:1')``, ``device('cuda', 1)``, ``device('cpu')``.

    ``type`` is the device type ('cuda'), ``index`` the index or None when
    not given; bare 'cuda' means index 0 when used.
    """

    __slots__ = ("type", "index", "_dl")

    def __new__(cls, type, index=None):  # noqa: A002 - torch's parameter name
        if type.__class__ is device:
            if index is not None:
                raise InvalidArgumentError(f"device(): an index was given twice ({type!r} and {index})")
            return type
        if isinstance(type, int) and index is None:
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device(): expected a string like 'cuda:1' or a device, got {type.__class__.__name__}")
        m = _GRAMMAR.match(type)
        if m is None:
            raise InvalidArgumentError(f"Invalid device string: '{type}'; expected type[:index] such as 'cpu', "
                                       "'cuda' or 'cuda:1'")
        if m.group(2) is not None:
            if index is not None:
                raise InvalidArgumentError(f"device(): type (string) must not include an index because index "
                                           f"was passed explicitly: {type}")
            index = int(m.group(2))
        if index is not None:
            index = int(index)
            if index < 0:
                raise InvalidArgumentError(f"Device index must not be negative, got {index}")
        self = object.__new__(cls)
        self.type, self.index, self._dl = m.group(1), index, None
        return self

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other):  # a device never equals a string, as PyTorch's (device("cpu") == "cpu" is False)
        if other.__class__ is not device:
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))

    @property
    def dl(self):
        """The DLPack DLDevice this names; raises NoSuchDeviceError listing what exists."""
        dl = self._dl
        if dl is None:
            dl = DLDevice()
            check(fn.porta_device_parse(str(self).encode(), byref(dl)))
            self._dl = dl
        return dl


CPU = device("cpu")
CPU._dl = DLDevice(_KDLCPU, 0)
_by_dl = {(_KDLCPU, 0): CPU}


def from_dl(dl):
    """The device object of a DLDevice (cached; cpu has index None, as in torch)."""
    key = (dl.device_type, dl.device_id)
    d = _by_dl.get(key)
    if d is None:
        buf = ctypes.create_string_buffer(64)
        check(fn.porta_device_to_string(dl, buf, 64))
        d = device(buf.value.decode())
        d._dl = DLDevice(*key)
        _by_dl[key] = d
    return d


def resolve(value):
    """The DLDevice for a device, a string, an int (cuda index) or None (cpu)."""
    if value is None:
        return CPU._dl
    if value.__class__ is not device:
        value = device(value)
    return value.dl


def as_device(value):
    """A device object for a device, string or int; None stays None."""
    return None if value is None else device(value)


def device_count(type):  # noqa: A002
    """Number of devices of the named type ('cuda'); 0 when no plugin serves it."""
    n = c_int()
    status = fn.porta_device_count(type.encode(), byref(n))
    if status == NoSuchDeviceError.status:
        return 0
    check(status)
    return n.value


_PLUGIN_STATES = {_abi.PORTA_PLUGIN_LOADED: "loaded", _abi.PORTA_PLUGIN_NO_DEVICES: "no devices",
                  _abi.PORTA_PLUGIN_FAILED: "failed", _abi.PORTA_PLUGIN_REJECTED: "rejected",
                  _abi.PORTA_PLUGIN_EXCLUDED: "excluded"}  # porta_plugin_state
_DEVICE_KINDS = {_abi.PORTA_DEVICE_KIND_CPU: "cpu", _abi.PORTA_DEVICE_KIND_GPU: "gpu",
                 _abi.PORTA_DEVICE_KIND_ACCELERATOR: "accelerator",
                 _abi.PORTA_DEVICE_KIND_VIRTUAL: "virtual"}  # porta_device_kind


def plugins():
    """Every recorded plugin load attempt, as dicts (porta_plugin_get_info)."""
    n = c_int32()
    check(fn.porta_plugin_count(byref(n)))
    out = []
    for i in range(n.value):
        info = sized(PluginInfo)
        check(fn.porta_plugin_get_info(i, byref(info)))
        out.append({"path": (info.path or b"").decode(), "name": (info.name or b"").decode(),
                    "version": (info.version or b"").decode(), "reason": (info.reason or b"").decode(),
                    "state": _PLUGIN_STATES.get(info.state, str(info.state)),
                    "device_type": info.device_type, "device_count": info.device_count})
    return out


def available_devices():
    """Every device of every loaded plugin: [device('cpu'), device('mock', 0), ...]."""
    out = []
    for p in plugins():
        if p["state"] != "loaded":
            continue
        if p["name"] == "cpu":
            out.append(CPU)
        else:
            out.extend(device(p["name"], i) for i in range(p["device_count"]))
    return sorted(out, key=lambda d: (d.type != "cpu", d.type, d.index or 0))


def unavailable_reason(type):  # noqa: A002
    """Why there is no device of `type`: the core's message, with a failed plugin's reason."""
    dl = DLDevice()
    status = fn.porta_device_parse(type.encode(), byref(dl))
    return str(error(status)) if status else f"0 {type} devices"


def accelerator_count():
    """Number of accelerators (GPUs and the like; not CPUs or mock devices)."""
    n = c_int32()
    check(fn.porta_accelerator_count(byref(n)))
    return n.value


def try_gpu(i=0):
    """The i-th accelerator (CUDA first) if it exists, else device('cpu')."""
    if i < 0 or i >= accelerator_count():
        return CPU
    dl = DLDevice()
    check(fn.porta_accelerator_get(i, byref(dl)))
    return from_dl(dl)


def try_all_gpus():
    """Every accelerator in preference order, or [device('cpu')] when there is none."""
    return [try_gpu(i) for i in range(accelerator_count())] or [CPU]


def synchronize(dev=None):
    """Waits for all work enqueued on `dev` (default cpu)."""
    check(fn.porta_synchronize(resolve(dev)))


def device_info(dev=None):
    """Name, memory, compute units and kind of a device (default cpu), from its plugin."""
    info = sized(DeviceInfo)
    check(fn.porta_device_get_info(resolve(dev), byref(info)))
    return {"name": info.name.decode(errors="replace"), "memory_total": info.memory_total,
            "memory_free": info.memory_free, "compute_units": info.compute_units,
            "kind": _DEVICE_KINDS.get(info.kind, str(info.kind)),
            "capability": (info.capability_major, info.capability_minor)}
