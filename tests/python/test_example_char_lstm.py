"""docs/examples/char_lstm.py (an LSTM language model on a real English text) learns on a short schedule:
its validation loss falls well below the uniform guess's, and it samples text. The full run is by hand
(python docs/examples/char_lstm.py; its numbers are in docs/benchmarks.md)."""
import pathlib

import pytest
from examples import load_example


def test_char_lstm_learns_on_a_short_schedule(capsys):
    example = load_example("char_lstm.py")
    if not pathlib.Path(example.TEXT).exists():
        pytest.fail(f"{example.TEXT} is missing: Debian's base-files package ships it")
    val_loss, uniform = example.main(["--steps", "100", "--device", "cpu"])
    out = capsys.readouterr().out
    assert val_loss < 0.8 * uniform, out
    assert "sample: This License" in out
