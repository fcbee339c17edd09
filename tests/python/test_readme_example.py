"""The README's Python example (docs/examples/readme.py) runs and trains."""
import os
import pathlib
import re
import subprocess
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "readme.py"


def test_readme_example_trains_and_shares_memory_with_numpy():
    env = dict(os.environ)
    package = str(pathlib.Path(__file__).resolve().parents[2] / "bindings" / "python")
    if os.environ.get("PORTA_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = package + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, str(EXAMPLE)], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    losses = [float(v) for v in re.findall(r"loss ([0-9.]+)", out.stdout)]
    assert len(losses) == 5 and losses[-1] < losses[0], out.stdout
    assert out.stdout.strip().endswith("42.0 True"), out.stdout
