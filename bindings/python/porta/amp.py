"""Mixed precision, as torch.amp: autocast regions and GradScaler.

autocast(device_type, dtype) is a context manager (and a decorator) that opens a region of the core
(porta_autocast_enter): the ops of PyTorch's autocast lists take their float32 operands in dtype (matmul,
linear, convolutions, attention) or their float16/bfloat16 operands in float32 (softmax, losses, sums, exp,
log, norms); docs/api.md lists them. GradScaler multiplies the loss by a scale so that float16 gradients do
not underflow, unscales the gradients before the step, skips a step whose gradients hold an infinity or
NaN, and adapts the scale (porta_amp_unscale_, porta_amp_update_scale_ run on the gradients' device).
"""
import functools
from ctypes import byref, c_int32, c_void_p

from . import _abi, _dtype
from ._errors import check
from ._factories import full
from ._lib import DLDataType, fn
from ._tensor import Tensor

__all__ = ["autocast", "GradScaler", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype"]


def _device_type(device_type):
    if not isinstance(device_type, str):
        raise TypeError(f"autocast: device_type must be a string such as 'cpu' or 'cuda', got "
                        f"{type(device_type).__name__}")
    if ":" in device_type:
        raise ValueError(f"autocast: device_type is a device type ('cuda'), not a device ('{device_type}')")
    return device_type


class autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None): a region of this thread in
    which PyTorch's autocast op lists run on devices of device_type in dtype (float16 or bfloat16) or in
    float32; other ops promote as usual. Nests; enabled=False opens a region without autocast."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self.device = _device_type(device_type)
        self.fast_dtype = get_autocast_dtype(self.device) if dtype is None else _dtype.resolve(dtype)
        if cache_enabled is False:
            raise NotImplementedError("autocast(cache_enabled=False) is not supported by Porta: a parameter is "
                                      "always converted once per region; leave cache_enabled out")
        self._enabled = bool(enabled)

    def __enter__(self):
        check(fn.porta_autocast_enter(self.device.encode(), self.fast_dtype.dl, int(self._enabled)), "autocast")
        return self

    def __exit__(self, *exc):
        check(fn.porta_autocast_exit(self.device.encode()), "autocast")
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            with autocast(self.device, self.fast_dtype, self._enabled):
                return func(*args, **kwargs)
        return wrapped


def is_autocast_available(device_type):
    """Whether autocast can run on device_type (a loaded plugin's name)."""
    return fn.porta_autocast_state(_device_type(device_type).encode(), None, None) == _abi.PORTA_OK


def _state(device_type):
    on, dt = c_int32(), DLDataType()
    check(fn.porta_autocast_state(_device_type(device_type).encode(), byref(on), byref(dt)))
    return bool(on.value), _dtype.from_dl(dt)


def is_autocast_enabled(device_type="cuda"):
    """Whether this thread is inside an enabled autocast region for device_type."""
    return _state(device_type)[0]


def get_autocast_dtype(device_type):
    """The dtype of this thread's innermost autocast region for device_type, enabled or not; outside one, the
    device type's default (bfloat16 on the CPU, float16 elsewhere), as PyTorch's."""
    return _state(device_type)[1]


class GradScaler:
    """torch.amp.GradScaler(device='cuda', init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5,
    growth_interval=2000, enabled=True): scale(loss).backward(); scaler.step(optimizer); scaler.update()."""

    _READY, _UNSCALED, _STEPPED = 0, 1, 2

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        if growth_factor <= 1.0:
            raise ValueError(f"GradScaler: growth_factor must be > 1, got {growth_factor}")
        if not 0.0 < backoff_factor < 1.0:
            raise ValueError(f"GradScaler: backoff_factor must be in (0, 1), got {backoff_factor}")
        if int(growth_interval) != growth_interval or growth_interval < 1:
            raise ValueError(f"GradScaler: growth_interval must be a positive integer, got {growth_interval}")
        self._device = device
        self._enabled = bool(enabled)
        self._init_scale, self._growth_factor = float(init_scale), float(growth_factor)
        self._backoff_factor, self._growth_interval = float(backoff_factor), int(growth_interval)
        self._scale = self._growth_tracker = None
        self._init_growth_tracker = 0
        self._per_optimizer = {}

    # ------------------------------------------------------------------ scaling

    def _lazy_init(self, dev):
        self._scale = full((), self._init_scale, dtype=_dtype.float32, device=dev)
        self._growth_tracker = full((), self._init_growth_tracker, dtype=_dtype.int32, device=dev)

    def scale(self, outputs):
        """outputs (a tensor, or lists/tuples of them) multiplied by the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            if self._scale is None:
                self._lazy_init(outputs.device)
            return outputs * self._scale.to(outputs.device)
        if isinstance(outputs, (list, tuple)):
            scaled = [self.scale(o) for o in outputs]
            return type(outputs)(scaled)
        raise ValueError("GradScaler.scale: outputs must be a Tensor or an iterable of Tensors")

    def _state(self, optimizer):
        return self._per_optimizer.setdefault(id(optimizer), {"stage": self._READY, "found_inf": {}})

    def unscale_(self, optimizer):
        """Divides optimizer's gradients by the scale, in place, noting infinities and NaNs per device."""
        if not self._enabled:
            return
        self._check_scale("unscale_")
        state = self._state(optimizer)
        if state["stage"] == self._UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] == self._STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()
        by_device = {}
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is not None and p.grad.dtype is _dtype.float16:
                    raise ValueError("Attempting to unscale FP16 gradients (as PyTorch refuses: keep the "
                                     "parameters in float32 and let autocast run the ops in float16).")
                if p.grad is not None:
                    by_device.setdefault(str(p.grad.device), []).append(p.grad)
        found = {}
        for dev, grads in by_device.items():
            found_inf = full((), 0.0, dtype=_dtype.float32, device=dev)
            handles = (c_void_p * len(grads))(*[g._h.value for g in grads])
            check(fn.porta_amp_unscale_(handles, len(grads), found_inf._h, inv_scale.to(dev)._h), "unscale_")
            found[dev] = found_inf
        state["found_inf"] = found
        state["stage"] = self._UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscales (unless unscale_ ran) and runs optimizer.step(*args, **kwargs) unless a gradient held an
        infinity or NaN; returns its result, or None for a skipped step."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale("step")
        state = self._state(optimizer)
        if state["stage"] == self._STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == self._READY:
            self.unscale_(optimizer)
        if not state["found_inf"]:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None
        if sum(v.item() for v in state["found_inf"].values()) == 0:
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = self._STEPPED
        return retval

    def update(self, new_scale=None):
        """Updates the scale: backs off after a skipped step, grows after growth_interval good ones; or sets
        new_scale (a float or a one-element float32 tensor)."""
        if not self._enabled:
            return
        self._check_scale("update")
        if new_scale is not None:
            value = new_scale.item() if isinstance(new_scale, Tensor) else float(new_scale)
            self._scale = full((), value, dtype=_dtype.float32, device=self._scale.device)
        else:
            found = [f.to(self._scale.device) for s in self._per_optimizer.values() for f in s["found_inf"].values()]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            total = found[0]
            for f in found[1:]:
                total = total + f
            check(fn.porta_amp_update_scale_(self._scale._h, self._growth_tracker._h, total._h, self._growth_factor,
                                             self._backoff_factor, self._growth_interval), "update")
        self._per_optimizer = {}

    def _check_scale(self, what):
        if self._scale is None:
            raise AssertionError(f"Attempted {what} but _scale is None. This may indicate your script did not use "
                                 "scaler.scale(loss or outputs) earlier in the iteration.")

    # ------------------------------------------------------------------ state

    def get_scale(self):
        """The current scale as a Python float (init_scale before the first scale())."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def is_enabled(self):
        return self._enabled

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = float(new_factor)

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = float(new_factor)

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = int(new_interval)

    def _get_growth_tracker(self):
        return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker.item()

    def state_dict(self):
        """torch's keys: scale, growth_factor, backoff_factor, growth_interval, _growth_tracker."""
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = int(state_dict["_growth_tracker"])
        if self._scale is not None:
            self._lazy_init(self._scale.device)
