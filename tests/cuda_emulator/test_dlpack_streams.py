"""DLPack's stream argument on cuda tensors, seen through the CUDA emulator:
work runs there only when something waits, so whether __dlpack__ synchronized
is visible (the emulator's pending-work hook). Run by ctest
(cuda_emulator.python_dlpack_streams) with the emulator on PORTA_PLUGIN_PATH."""
import ctypes
import os
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "bindings", "python"))

import porta  # noqa: E402

assert porta.cuda.device_count() == 2, porta.cuda.unavailable_reason()  # loads the plugins
_plugin = ctypes.CDLL(os.environ["PORTA_EMULATED_CUDA_PLUGIN"], mode=os.RTLD_NOLOAD | os.RTLD_NOW)
_pending = _plugin.porta_cuda_emulator_pending_work
_pending.restype, _pending.argtypes = ctypes.c_int, [ctypes.c_int]


def _queued_result():
    x = porta.ones(1000, device="cuda:0") * 3  # a kernel waiting on the stream
    assert _pending(0) > 0
    return x


def test_stream_minus_one_does_not_synchronize():
    x = _queued_result()
    capsule = x.__dlpack__(stream=-1, max_version=(1, 0))
    assert _pending(0) > 0, "stream=-1 asks the producer for no synchronization"
    assert porta.from_dlpack(capsule).cpu().tolist() == [3.0] * 1000


def test_other_streams_get_ready_data():
    for stream in (None, 1, 2, 0x7F00DEAD):
        x = _queued_result()
        x.__dlpack__(stream=stream, max_version=(1, 0))
        assert _pending(0) == 0, f"stream={stream!r}: the data must be ready for the consumer's stream"
