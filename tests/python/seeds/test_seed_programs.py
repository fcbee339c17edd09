"""The two tutorial programs (case1_simple_net.py, case2_cifar_cnn.py: PyTorch code
with only the imports changed) on every loaded device."""
import os
import re
import sys

import pytest

import porta
from datafiles import write_cifar10

sys.path.insert(0, os.path.dirname(__file__))
import case1_simple_net  # noqa: E402
import case2_cifar_cnn  # noqa: E402


def test_case1_trains_on_every_device(device, capsys):
    porta.manual_seed(0)
    case1_simple_net.main(device, num_epochs=100)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"Using device: {device}" and out[-1] == "Training finished!"
    losses = [float(re.match(r"Epoch \d+/100, Loss: (\S+)", line).group(1)) for line in out[1:-1]]
    assert len(losses) == 100 and losses[-1] < 0.5 * losses[0]


def test_case1_default_device_is_the_tutorials(capsys):
    porta.manual_seed(0)
    case1_simple_net.main(num_epochs=2)
    expected = "cuda:0" if porta.cuda.is_available() else "cpu"
    assert capsys.readouterr().out.splitlines()[0] == f"Using device: {expected}"


@pytest.fixture(scope="module")
def cifar_root(tmp_path_factory):
    """A tiny CIFAR-10 binary set: 5 training batches of 4 images, two learnable classes."""
    root = tmp_path_factory.mktemp("cifar") / "data"
    write_cifar10(str(root), per_batch=4, classes=2)
    return str(root)


def test_case2_as_written_fails_at_the_loss_naming_both_batch_sizes(device, cifar_root, capsys):
    # As in PyTorch: view(-1, 128 * 8 * 8) of 4 x 128 x 16 x 16 makes a batch of 16.
    with pytest.raises(porta.ShapeError, match=r"batch size \(16\) to match target batch size \(4\)"):
        case2_cifar_cnn.main(cifar_root, device)


def test_case2_second_version_moves_the_optimizer(device, cifar_root):
    # The tutorial's second version calls optim.SGD(...).to(device), which PyTorch rejects too.
    with pytest.raises(AttributeError, match="no attribute 'to'"):
        case2_cifar_cnn.main(cifar_root, device, move_loss_and_optimizer=True)


def test_case2_trains_on_every_device(device, cifar_root, capsys, monkeypatch):
    monkeypatch.chdir(os.path.dirname(cifar_root))  # the program's root='./data'
    porta.manual_seed(0)
    case2_cifar_cnn.main(device_name=device, num_epochs=2, print_every=5, flat_features=128 * 16 * 16)
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["Files already downloaded and verified", f"Using device: {device}"]
    losses = [float(re.match(r"\[\d+, \d+\] loss: (\S+)", line).group(1)) for line in out[2:-1]]
    assert len(losses) == 2 and losses[1] < losses[0] - 0.2, losses
    assert out[-1] == "Training finished!"
