"""docs/tutorials: fourteen short programs in the style of PyTorch's tutorials and the d2l.ai book, written for
PyTorch with only their import lines changed to Porta's. Each checks its own results with asserts.

* On Porta every tutorial in docs/tutorials runs to its end, in a process of its own (tutorials set global state: seeds, the
  default dtype), on the cpu (`PORTA_PLUGIN_PATH` empty, so "the best device there is" is the cpu).
* On PyTorch (when torch, and for the Fashion-MNIST ones torchvision, are installed) the same files with the
  imports swapped back run to their end too: the programs are real PyTorch programs, and their asserts are
  PyTorch's answers."""
import gzip
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import INSTALLED, REPO

TUTORIALS = pathlib.Path(REPO) / "docs" / "tutorials"
HELPERS = {"fashion_mnist.py"}  # shared by several tutorials, as d2l's own package is
PROGRAMS = sorted(p.name for p in TUTORIALS.glob("*.py") if p.name not in HELPERS)
FASHION_MNIST = "/usr/share/datasets/fashion-mnist"
NEEDS_TORCHVISION = {"quickstart.py", "softmax_regression.py", "mlp_dropout.py", "lenet.py", "batchnorm.py"}
TIMEOUT_S = 300


def test_there_are_fourteen_tutorials():
    assert len(PROGRAMS) == 14, PROGRAMS


def run(directory, name, env):
    result = subprocess.run([sys.executable, name], cwd=directory, env=env, capture_output=True, text=True,
                            timeout=TIMEOUT_S)
    assert result.returncode == 0, f"{name} failed:\n{result.stdout[-4000:]}\n{result.stderr[-6000:]}"


def porta_env():
    """This process's porta (the source tree's, or the installed one under PORTA_TEST_INSTALLED=1) and the
    tutorials' shared helper, with no test plugins: the best device there is is a real one."""
    source = [] if INSTALLED else [str(pathlib.Path(REPO) / "bindings" / "python")]
    python_path = source + [str(TUTORIALS), os.environ.get("PYTHONPATH", "")]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(python_path), PORTA_PLUGIN_PATH="")


@pytest.mark.parametrize("name", PROGRAMS)
def test_tutorial_runs_on_porta(name):
    run(TUTORIALS, name, porta_env())


def to_pytorch(source):
    """The tutorial's import lines, back to PyTorch's (datasets and transforms come from torchvision)."""
    def swap(line):
        if not re.match(r"\s*(import|from) porta\b", line):
            return line
        line = re.sub(r"\bimport porta as torch\b", "import torch", line)
        line = re.sub(r"\bporta\.transforms\b", "torchvision.transforms", line)
        line = re.sub(r"\bfrom porta import (datasets|transforms)\b", r"from torchvision import \1", line)
        return re.sub(r"\bporta\b", "torch", line)
    return "".join(swap(line) for line in source.splitlines(keepends=True))


def torchvision_fashion_mnist(root):
    """Debian's gzipped IDX files, unpacked where torchvision's FashionMNIST looks (root/FashionMNIST/raw)."""
    raw = root / "FashionMNIST" / "raw"
    raw.mkdir(parents=True)
    for gz in pathlib.Path(FASHION_MNIST).glob("*.gz"):
        with gzip.open(gz) as src, open(raw / gz.stem, "wb") as dst:
            shutil.copyfileobj(src, dst)
    return root


@pytest.fixture(scope="module")
def pytorch_tutorials(tmp_path_factory):
    """docs/tutorials with their imports swapped, and the Fashion-MNIST files where torchvision looks."""
    pytest.importorskip("torch", reason="PyTorch is not installed (an optional peer)")
    directory = tmp_path_factory.mktemp("pytorch_tutorials")
    for path in TUTORIALS.glob("*.py"):
        (directory / path.name).write_text(to_pytorch(path.read_text()))
    return directory


@pytest.mark.parametrize("name", PROGRAMS)
def test_tutorial_runs_on_pytorch(name, pytorch_tutorials):
    if name in NEEDS_TORCHVISION:
        pytest.importorskip("torchvision", reason="torchvision is not installed (an optional peer)")
        root = pytorch_tutorials / "data"
        if not root.exists():
            torchvision_fashion_mnist(root)
    env = dict(os.environ, FASHION_MNIST_ROOT=str(pytorch_tutorials / "data"), CUDA_VISIBLE_DEVICES="")
    run(pytorch_tutorials, name, env)


def test_the_swap_touches_only_import_lines():
    source = ("import porta as torch\nfrom porta import nn\nfrom porta import datasets\nx = 'porta'\n"
              "from porta.transforms import ToTensor\n")
    assert to_pytorch(source) == ("import torch\nfrom torch import nn\nfrom torchvision import datasets\n"
                                  "x = 'porta'\nfrom torchvision.transforms import ToTensor\n")
