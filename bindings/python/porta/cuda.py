"""porta.cuda: is_available() and device_count(), as torch.cuda, over Porta's CUDA plugin."""
from . import _device, _factories


def device_count():
    """Number of CUDA devices (0 when the CUDA plugin is missing or found none)."""
    return _device.device_count("cuda")


def is_available():
    """Whether at least one CUDA device is usable."""
    return device_count() > 0


def current_device():
    """Always 0: Porta has no per-thread current device; name devices explicitly."""
    return 0


def synchronize(device=None):
    """Waits for all work enqueued on a CUDA device (default cuda:0)."""
    _device.synchronize(_cuda(device))


def get_device_name(device=None):
    """The name of a CUDA device (default cuda:0)."""
    return _device.device_info(_cuda(device))["name"]


def get_device_capability(device=None):
    """(major, minor) compute capability of a CUDA device."""
    return _device.device_info(_cuda(device))["capability"]


def _cuda(device):
    if device is None or isinstance(device, int):
        return _device.device("cuda", device or 0)
    return _device.device(device)


def unavailable_reason():
    """Why there is no CUDA device (the plugin's reason), or '' when there is one."""
    return "" if is_available() else _device.unavailable_reason("cuda")


def manual_seed(seed):
    """Porta's generator is shared by all devices: the same as porta.manual_seed."""
    _factories.manual_seed(seed)


manual_seed_all = manual_seed
