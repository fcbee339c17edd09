"""Console scripts of the wheel: porta-smi runs the binary the wheel carries (porta/bin)."""
import os
import sys


def porta_smi():
    binary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "porta-smi")
    if not os.path.exists(binary):
        sys.exit(f"porta-smi: {binary} is missing (this porta package was not installed from a wheel)")
    os.execv(binary, [binary] + sys.argv[1:])
