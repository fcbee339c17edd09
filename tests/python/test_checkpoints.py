"""porta.save / porta.load of nested objects, as torch.save / torch.load(weights_only=True) take them: a
training checkpoint (epoch, model, optimizer and scheduler state) round-trips exactly, in one safetensors
file whose tensors any safetensors reader finds under their paths; what PyTorch's weights-only loader would
refuse is refused, naming where it is."""
import math
from collections import OrderedDict

import numpy as np
import pytest

import porta
from porta import nn


def same(a, b):
    """Structural equality, tensors compared by dtype, shape and values."""
    if isinstance(a, porta.Tensor):
        return isinstance(b, porta.Tensor) and a.dtype == b.dtype and porta.equal(a.cpu(), b.cpu())
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def test_a_training_checkpoint_round_trips(tmp_path):
    porta.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    optimizer = porta.optim.Adam(model.parameters(), lr=0.01)
    scheduler = porta.optim.lr_scheduler.StepLR(optimizer, step_size=2)
    for _ in range(3):
        optimizer.zero_grad()
        model(porta.randn(5, 3)).sum().backward()
        optimizer.step()
        scheduler.step()
    checkpoint = {"epoch": 3, "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                  "scheduler": scheduler.state_dict(), "best": (0.25, None, True), "note": "run 1"}
    path = tmp_path / "checkpoint.pt"
    porta.save(checkpoint, path)
    loaded = porta.load(path)
    assert same(loaded, checkpoint)
    assert isinstance(loaded["model"], OrderedDict) and list(loaded["optimizer"]["state"]) == [0, 1, 2, 3]


def test_numbers_keep_their_types_and_exact_values(tmp_path):
    obj = {1: 0.1, 2.5: [float("inf"), -float("inf"), float("nan"), 1.0, 1, True, None, 2 ** 62, -0.0],
           "t": (porta.tensor([1, 2], dtype=porta.uint8), porta.zeros(0, 3, dtype=porta.float64)), "e": [], "d": {}}
    porta.save(obj, tmp_path / "x")
    loaded = porta.load(tmp_path / "x")
    assert same(loaded, obj)
    assert math.copysign(1.0, loaded[2.5][-1]) == -1.0


def test_the_file_is_plain_safetensors_with_tensors_under_their_paths(tmp_path):
    porta.save({"model": {"w": porta.ones(2)}, "history": [porta.zeros(1)]}, tmp_path / "x")
    from porta import _serialization  # its reader of every entry, as any safetensors reader sees the file
    names = list(_serialization._read_all(tmp_path / "x"))
    assert sorted(names) == ["__porta_structure__", "history/0", "model/w"]


def test_a_state_dict_stays_a_flat_file(tmp_path):
    state = nn.Linear(2, 2).state_dict()
    porta.save(state, tmp_path / "x")
    from porta import _serialization
    assert sorted(_serialization._read_all(tmp_path / "x")) == ["bias", "weight"]


def test_loads_onto_the_device_asked_for(tmp_path, device):
    porta.save({"a": [porta.arange(3)]}, tmp_path / "x")
    loaded = porta.load(tmp_path / "x", map_location=device)
    assert loaded["a"][0].device == porta.device(device) and loaded["a"][0].tolist() == [0, 1, 2]


@pytest.mark.parametrize("obj, where", [
    ({"a": {1, 2}}, r"obj\['a'\] is a set"),
    ([porta.ones(1), object()], r"obj\[1\] is a object"),
    ({(1, 2): 3}, "has a key of type tuple"),
    (np.ones(2), "the object is a ndarray"),
])
def test_what_cannot_be_saved_is_refused_naming_where(tmp_path, obj, where):
    with pytest.raises(TypeError, match=where):
        porta.save(obj, tmp_path / "x")
    assert not (tmp_path / "x").exists()
