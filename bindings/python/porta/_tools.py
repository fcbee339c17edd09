"""Console scripts of the wheel: porta-smi and porta-run run the binaries the wheel carries (porta/bin)."""
import os
import sys


def _exec(name):
    binary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", name)
    if not os.path.exists(binary):
        sys.exit(f"{name}: {binary} is missing (this porta package was not installed from a wheel)")
    os.execv(binary, [binary] + sys.argv[1:])


def porta_smi():
    _exec("porta-smi")


def porta_run():
    _exec("porta-run")
