"""Test setup for the porta Python package.

Finds libporta.so ($PORTA_LIBRARY, else $PORTA_BUILD_DIR/lib, else
<repo>/build/lib), makes the mock plugin (mock:0, mock:1) visible unless
PORTA_PLUGIN_PATH is already set, and imports porta from bindings/python.
PORTA_TEST_INSTALLED=1 tests the installed package instead, with the
libporta.so it finds itself (a wheel's own) unless PORTA_LIBRARY is set; the
mock plugin then comes from $PORTA_BUILD_DIR (default <repo>/build).
Tests taking a `device` argument run once per loaded device, or per one of
those PORTA_TEST_DEVICES names (a comma list of devices or device types,
"cuda" for every cuda:N): the emulated-cuda run of this suite names only the
cuda devices, whose cpu and mock runs the plain run already made.
"""
import os
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


INSTALLED = os.environ.get("PORTA_TEST_INSTALLED") == "1"
_build = os.environ.get("PORTA_BUILD_DIR", os.path.join(REPO, "build"))
_lib = os.environ.get("PORTA_LIBRARY") or os.path.join(_build, "lib", "libporta.so")
if not (INSTALLED and "PORTA_LIBRARY" not in os.environ):
    if not os.path.exists(_lib):
        raise RuntimeError(f"libporta.so not found at {_lib}: build Porta first, or set PORTA_LIBRARY or "
                           "PORTA_BUILD_DIR")
    os.environ["PORTA_LIBRARY"] = _lib
_mock = os.path.join(os.path.dirname(os.path.realpath(_lib)), "porta", "test-plugins", "mock")
os.environ.setdefault("PORTA_PLUGIN_PATH", _mock)
if not INSTALLED:
    sys.path.insert(0, os.path.join(REPO, "bindings", "python"))

import porta  # noqa: E402
import pytest  # noqa: E402

DEVICES = [str(d) for d in porta.available_devices()]
_wanted = [w.strip() for w in os.environ.get("PORTA_TEST_DEVICES", "").split(",") if w.strip()]
if _wanted:
    _unknown = [w for w in _wanted if not any(d == w or d.split(":")[0] == w for d in DEVICES)]
    if _unknown:
        raise RuntimeError(f"PORTA_TEST_DEVICES names {', '.join(_unknown)}, which is not loaded here "
                           f"(devices: {', '.join(DEVICES)})")
    DEVICES = [d for d in DEVICES if d in _wanted or d.split(":")[0] in _wanted]


def pytest_generate_tests(metafunc):
    if "device" in metafunc.fixturenames:
        metafunc.parametrize("device", DEVICES)


def pytest_report_header(config):
    return [f"porta {porta.__version__} from {porta.library_path}", f"devices: {', '.join(DEVICES)}"]


@pytest.fixture
def other_device(device):
    """A device different from `device` (cpu for accelerators, else the last one)."""
    return next((d for d in reversed(DEVICES) if d != device), device)


def has_dlpack():
    return not any(n.startswith("porta_to_dlpack") or n.startswith("porta_from_dlpack") for n in
                   porta._lib.missing)


needs_dlpack = pytest.mark.skipif(not has_dlpack(), reason="libporta.so lacks the DLPack functions (older build)")
