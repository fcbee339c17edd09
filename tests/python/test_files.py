"""porta.save / porta.load refuse what no file can be: NUL in paths and keys; a FIFO is refused instead of
blocking. (Nested objects, int keys included: test_checkpoints.py.)"""
import os

import pytest

import porta


def test_nul_in_path_or_key_raises(tmp_path):
    t = porta.arange(3)
    with pytest.raises(ValueError, match="contains a NUL character"):
        porta.save(t, str(tmp_path / "a\0b"))
    with pytest.raises(ValueError, match="contains a NUL character"):
        porta.save({"w\0": t}, tmp_path / "x.safetensors")
    with pytest.raises(ValueError, match="contains a NUL character"):
        porta.load(str(tmp_path / "a\0b"))
    assert not os.listdir(tmp_path)


def test_a_fifo_is_refused_not_read(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(porta.PortaIOError, match="not a regular file"):
        porta.load(fifo)
    with pytest.raises(porta.PortaIOError, match="not a regular file"):
        porta.save(porta.ones(2), fifo)


def test_save_over_a_symlink_writes_its_target(tmp_path):
    target, link = tmp_path / "real.safetensors", tmp_path / "link.safetensors"
    porta.save(porta.zeros(2), target)
    os.chmod(target, 0o640)
    link.symlink_to(target)
    porta.save(porta.ones(2), link)
    assert link.is_symlink()
    assert porta.load(target).tolist() == [1.0, 1.0]
    assert os.stat(target).st_mode & 0o777 == 0o640
