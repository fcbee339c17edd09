"""docs/examples/char_lstm.py (an LSTM language model on a real English text) learns on a short schedule:
its validation loss falls well below the uniform guess's, and it samples text. The full run is by hand
(python docs/examples/char_lstm.py; its numbers are in docs/benchmarks.md)."""
import importlib.util
import pathlib

import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "char_lstm.py"


def test_char_lstm_learns_on_a_short_schedule(capsys):
    spec = importlib.util.spec_from_file_location("char_lstm", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    if not pathlib.Path(example.TEXT).exists():
        pytest.fail(f"{example.TEXT} is missing: Debian's base-files package ships it")
    val_loss, uniform = example.main(["--steps", "100", "--device", "cpu"])
    out = capsys.readouterr().out
    assert val_loss < 0.8 * uniform, out
    assert "sample: This License" in out
