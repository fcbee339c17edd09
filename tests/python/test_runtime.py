"""Plugins load when first needed, and say why when they cannot; logging and
threads as torch spells them (set_num_threads / get_num_threads)."""
import os
import subprocess
import sys

import pytest

import porta
from conftest import REPO

_PACKAGE = None if os.environ.get("PORTA_TEST_INSTALLED") == "1" else os.path.join(REPO, "bindings", "python")


def run_python(code, **env):
    """Runs `code` in a fresh interpreter (a new process meets Porta for the first time)."""
    environ = dict(os.environ, **env)
    if _PACKAGE:
        environ["PYTHONPATH"] = _PACKAGE
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_import_and_a_cpu_op_open_only_the_cpu_plugin():
    out = run_python("""
import porta
(porta.ones(3) + 1).sum().item()
maps = open('/proc/self/maps').read()
print(' '.join(n for n in ('libporta_plugin_cpu', 'libporta_plugin_mock', 'libporta_plugin_cuda',
                           'libporta_plugin_opencl', 'libcublas', 'libpocl') if n in maps))
""")
    assert out.split() == ["libporta_plugin_cpu"]


def test_porta_devices_restricts_what_loads():
    out = run_python("""
import porta
try:
    porta.ones(2, device='mock:0')
except porta.NoSuchDeviceError as e:
    print(e)
print([p['state'] for p in porta.plugins() if p['path'].endswith('libporta_plugin_mock.so')])
""", PORTA_DEVICES="cpu")
    assert "device type 'mock' is unavailable: PORTA_DEVICES=cpu does not list it" in out
    assert "['excluded']" in out


def test_a_plugin_that_failed_to_load_says_why(tmp_path):
    (tmp_path / "libporta_plugin_acme.so").write_bytes(b"not a shared library")
    with pytest.raises(porta.BackendError, match="dlopen failed"):
        porta.load_plugin(str(tmp_path / "libporta_plugin_acme.so"))
    with pytest.raises(porta.NoSuchDeviceError, match="device type 'acme' is unavailable: plugin .*acme.so failed"):
        porta.ones(2, device="acme:0")


def test_log_callback_and_level():
    lines = []
    before = porta.get_log_level()
    porta.set_log_callback(lambda level, message: lines.append((level, message)))
    try:
        porta.set_log_level("DEBUG")
        with pytest.raises(porta.BackendError):
            porta.load_plugin("/nonexistent/libporta_plugin_nothing.so")
    finally:
        porta.set_log_callback(None)
        porta.set_log_level(before)
    assert ("debug", "trying plugin /nonexistent/libporta_plugin_nothing.so") in lines
    with pytest.raises(porta.InvalidArgumentError, match="unknown log level 'loud'"):
        porta.set_log_level("loud")


def test_portalog_env_any_case():
    assert run_python("import porta; print(porta.get_log_level())", PORTA_LOG="Error").strip() == "error"
    assert run_python("import porta; print(porta.get_log_level())", PORTA_LOG="OFF").strip() == "off"


def test_num_threads_like_torch():
    before = porta.get_num_threads()
    try:
        porta.set_num_threads(2)
        assert porta.get_num_threads() == 2
        assert porta.ones(1000, 10).sum().item() == 10000
    finally:
        porta.set_num_threads(before)
    with pytest.raises(porta.InvalidArgumentError, match="at least 1"):
        porta.set_num_threads(0)
    with pytest.raises(TypeError):
        porta.set_num_threads(2.5)
    env = {k: v for k, v in os.environ.items() if k != "PORTA_NUM_THREADS"}
    code = "import porta; print(porta.get_num_threads())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env=dict(env, OMP_NUM_THREADS="3", **({"PYTHONPATH": _PACKAGE} if _PACKAGE else {})))
    assert r.stdout.strip() == "3", r.stderr


def test_forked_workers_keep_computing_on_the_cpu():
    out = run_python("""
import multiprocessing as mp
import porta
porta.set_num_threads(2)
porta.ones(1 << 20).sum().item()   # the parent's thread pool exists now

def work(i):
    return porta.ones(1 << 20).mul(i).sum().item()

with mp.get_context('fork').Pool(2) as pool:
    print(pool.map(work, [1, 2, 3]))
""")
    assert out.strip() == "[1048576.0, 2097152.0, 3145728.0]"


def test_a_gpu_like_backend_in_a_forked_child_raises_instead_of_hanging():
    if porta.device_count("opencl") == 0:
        pytest.skip("no opencl device (the backend that does not survive fork here)")
    out = run_python("""
import multiprocessing as mp
import porta
porta.ones(4, device='opencl:0').sum().item()

def work(_):
    try:
        porta.ones(4, device='opencl:0')
    except porta.BackendError as e:
        return str(e)
    return 'no error'

with mp.get_context('fork').Pool(1) as pool:
    print(pool.map(work, [0])[0])
""")
    assert out.startswith("opencl:0 cannot be used in this process: it was forked"), out
