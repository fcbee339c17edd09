"""Library lookup and shutdown: a missing libporta.so gives an ImportError
that says what was tried and how to fix it; live objects at exit are released
quietly. (The wheels themselves: tests/packaging/wheels.sh.)"""
import os
import subprocess
import sys


from conftest import REPO


def test_missing_library_message():
    env = dict(os.environ, PORTA_LIBRARY="/nonexistent/libporta.so")
    r = subprocess.run([sys.executable, "-c", "import porta"], capture_output=True, text=True, env=env,
                       cwd=os.path.join(REPO, "bindings", "python"))
    assert r.returncode != 0
    assert "ImportError: porta: cannot load the Porta C library" in r.stderr
    assert "/nonexistent/libporta.so ($PORTA_LIBRARY: not found)" in r.stderr
    assert "set PORTA_LIBRARY=" in r.stderr


def test_clean_interpreter_shutdown():
    """Tensors, modules, optimizers and DLPack capsules still alive at exit are released quietly."""
    code = """
import numpy as np
import porta
import porta.nn as nn
x = porta.ones(3, device="mock:0")
y = porta.arange(5.0)
m = nn.Linear(3, 2).to("mock:1")
opt = porta.optim.Adam(m.parameters())
capsule = y.__dlpack__(max_version=(1, 0))
view = np.from_dlpack(y)
imported = porta.from_dlpack(np.ones(3))
cycle = [porta.ones(2)]
cycle.append(cycle)
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=os.path.join(REPO, "bindings", "python"))
    assert (r.returncode, r.stdout, r.stderr) == (0, "ok\n", "")
