"""docs/examples/char_gpt.py and char_gpt.cpp (a GPT-style transformer on a real English text):

* the Python program learns on a short schedule and samples text;
* the C++ program, on the same seed, draws the same weights, batches and dropout masks and runs the same
  ops, so its loss curve is the Python one's;
* the same Python file with only its three import lines swapped for PyTorch's, given Porta's initial
  weights and the same batches (dropout off: the two libraries' random streams differ), follows
  PyTorch's loss curve over the first 200 steps within LOSS_CURVE_TOLERANCE.

The full runs are by hand (their numbers are in docs/benchmarks.md)."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO
from examples import load_example

PORTA_IMPORTS = "import porta as torch\nimport porta.nn as nn\nimport porta.nn.functional as F\n"
TORCH_IMPORTS = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
# float32 on both sides, so rounding differences (matmul blocking, reduction order) could grow over the
# steps; measured over 200 steps on the CPU: 9.5e-7 at most (docs/benchmarks.md).
LOSS_CURVE_TOLERANCE = 1e-4


def load_gpt(imports=PORTA_IMPORTS, name="char_gpt"):
    """docs/examples/char_gpt.py with its three import lines replaced by `imports`."""
    def swap(source):
        assert source.count(PORTA_IMPORTS) == 1, "the example's import lines changed: update this test"
        return source.replace(PORTA_IMPORTS, imports)
    return load_example("char_gpt.py", swap, name)


def cpp_example():
    default = pathlib.Path(os.environ.get("PORTA_BUILD_DIR", pathlib.Path(REPO) / "build")) / "bin" / "char_gpt"
    path = pathlib.Path(os.environ.get("PORTA_EXAMPLE_CHAR_GPT", default))
    if not path.exists():
        pytest.fail(f"the C++ example {path} is missing: build the char_gpt target (ctest names it through "
                    "PORTA_EXAMPLE_CHAR_GPT)")
    return path


@pytest.fixture(scope="module")
def example():
    module = load_gpt()
    if not pathlib.Path(module.TEXT).exists():
        pytest.fail(f"{module.TEXT} is missing: Debian's base-files package ships it")
    return module


def test_char_gpt_learns_on_a_short_schedule(example, capsys, tmp_path):
    val_loss, uniform, losses = example.main(["--steps", "150", "--device", "cpu",
                                              "--losses", str(tmp_path / "losses.txt")])
    out = capsys.readouterr().out
    assert val_loss < 0.7 * uniform, out
    assert np.mean(losses[-10:]) < 0.7 * np.mean(losses[:10]), out
    assert "sample: This License" in out
    assert [float(v) for v in (tmp_path / "losses.txt").read_text().split()] == losses


def test_the_cpp_program_follows_the_python_one(example, tmp_path):
    steps = ["--steps", "30", "--device", "cpu", "--batch", "8"]
    _, _, py_losses = example.main(steps)
    run = subprocess.run([str(cpp_example()), *steps, "--losses", str(tmp_path / "cpp.txt")],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    cpp_losses = [float(v) for v in (tmp_path / "cpp.txt").read_text().split()]
    assert "sample: This License" in run.stdout
    np.testing.assert_allclose(cpp_losses, py_losses, rtol=0, atol=1e-5)


def test_the_loss_curve_follows_pytorchs():
    torch = pytest.importorskip("torch", reason="PyTorch is an optional peer (scripts/bench.sh's venv has it)")
    porta_side, torch_side = load_gpt(), load_gpt(TORCH_IMPORTS, "char_gpt_on_torch")
    text, stoi, _ = porta_side.load_text(porta_side.TEXT)
    ids = np.array([stoi[c] for c in text], dtype=np.int64)
    steps, block, batch = 200, 32, 16
    starts = np.random.default_rng(0).integers(0, len(ids) - block - 1, size=(steps, batch))
    x_all = np.stack([[ids[s:s + block] for s in row] for row in starts])
    y_all = np.stack([[ids[s + 1:s + block + 1] for s in row] for row in starts])

    import porta
    porta.manual_seed(0)
    cfg = dict(vocab_size=len(stoi), block_size=block, n_layer=2, n_head=4, n_embd=64, dropout=0.0)
    ours = porta_side.GPT(porta_side.Config(**cfg))
    theirs = torch_side.GPT(torch_side.Config(**cfg))
    theirs.load_state_dict({k: torch.tensor(np.asarray(v.tolist(), dtype=np.float32))
                            for k, v in ours.state_dict().items()})

    ours_losses = porta_side.train(ours, lambda s: (porta.tensor(x_all[s]), porta.tensor(y_all[s])), steps)
    torch_losses = torch_side.train(theirs, lambda s: (torch.tensor(x_all[s]), torch.tensor(y_all[s])), steps)
    diff = np.abs(np.array(ours_losses) - np.array(torch_losses))
    print(f"loss curve over {steps} steps: first {ours_losses[0]:.4f} / {torch_losses[0]:.4f}, last "
          f"{ours_losses[-1]:.4f} / {torch_losses[-1]:.4f}, max |difference| {diff.max():.2e}", file=sys.stderr)
    assert diff[0] < 1e-5, (ours_losses[0], torch_losses[0])
    assert diff.max() < LOSS_CURVE_TOLERANCE, diff
