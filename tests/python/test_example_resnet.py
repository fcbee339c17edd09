"""docs/examples/resnet_fashion_mnist.py (a small ResNet with BatchNorm on Fashion-MNIST) learns on a short
schedule: after 32 steps on a slice of the training images its test accuracy, measured in eval
mode (BatchNorm's running statistics), is far above chance. The full run is by hand (its accuracy is in
docs/benchmarks.md)."""
import pathlib

import pytest
from examples import load_example


def test_resnet_learns_on_a_short_schedule(capsys):
    example = load_example("resnet_fashion_mnist.py")
    if not pathlib.Path(example.ROOT).exists():
        pytest.fail(f"{example.ROOT} is missing: scripts/install-deps.sh installs Debian's dataset-fashion-mnist")
    accuracy = example.main(["--train-samples", "2048", "--batch", "64", "--epochs", "1", "--test-samples", "500",
                             "--device", "cpu"])
    out = capsys.readouterr().out
    assert accuracy > 0.4, out  # chance is 0.1; measured 0.558 on this schedule (32 steps of 64)
