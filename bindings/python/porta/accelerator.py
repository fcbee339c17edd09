"""torch.accelerator: the best accelerator there is (CUDA first, then the others Porta's plugins offer; never
the cpu or the mock test devices), as PyTorch's tutorials pick their device:

    device = porta.accelerator.current_accelerator().type if porta.accelerator.is_available() else "cpu"
"""
from . import _device

_current = [0]  # the index set_device_index chose, among the accelerators of the current type


def is_available():
    """Whether there is an accelerator."""
    return _device.accelerator_count() > 0


def device_count():
    """Number of devices of the current accelerator's type (0 when there is none)."""
    accelerator = current_accelerator()
    return 0 if accelerator is None else _device.device_count(accelerator.type)


def current_accelerator(check_available=False):
    """The type of the best accelerator as a device without an index (device(type='cuda')), or None; with
    check_available=True, None also when it is not available (it always is, when Porta reports it)."""
    if not is_available():
        return None
    return _device.device(_device.try_gpu(0).type)


def current_device_index():
    """The index of the accelerator the current one means (0 unless set_device_index changed it)."""
    return _current[0]


current_device_idx = current_device_index


def set_device_index(device):
    """Makes accelerator `device` (an index, or a device of the current type) the current one."""
    index = device if isinstance(device, int) else _device.as_device(device).index or 0
    if not 0 <= index < device_count():
        raise RuntimeError(f"set_device_index({device!r}): there are {device_count()} accelerator devices")
    _current[0] = index


set_device_idx = set_device_index


def synchronize(device=None):
    """Waits for the work enqueued on the current accelerator (or `device`)."""
    if device is None:
        accelerator = current_accelerator()
        if accelerator is None:
            return
        device = _device.device(accelerator.type, _current[0])
    _device.synchronize(device)
