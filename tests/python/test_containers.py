"""ModuleDict, ParameterList and ParameterDict: their entries are registered (parameters(), state_dict()
names, to(), optimizers), replaced entries keep their place, and bad entries are refused."""
import pytest

import porta
from porta import nn


def test_module_dict_registers_and_keeps_order():
    d = nn.ModuleDict({"a": nn.Linear(2, 3), "b": nn.ReLU()})
    d["c"] = nn.Linear(3, 1)
    d["a"] = nn.Linear(2, 3, bias=False)
    assert list(d.keys()) == ["a", "b", "c"] and "b" in d and len(d) == 3
    assert sorted(d.state_dict()) == ["a.weight", "c.bias", "c.weight"]
    assert len(list(d.parameters())) == 3
    assert isinstance(d.pop("b"), nn.ReLU) and list(d) == ["a", "c"]
    d.update([("e", nn.Tanh())])
    assert list(d) == ["a", "c", "e"]
    with pytest.raises(TypeError, match="not a porta.nn.Module"):
        d["x"] = 3
    with pytest.raises(NotImplementedError, match="has no forward"):
        d(porta.ones(2))


def test_parameter_list_wraps_tensors_and_indexes_like_a_list():
    pl = nn.ParameterList([porta.ones(2), nn.Parameter(porta.zeros(3))])
    pl.append(porta.full((1,), 2.0))
    assert len(pl) == 3 and all(isinstance(p, nn.Parameter) for p in pl)
    assert pl[-1].tolist() == [2.0] and len(pl[1:]) == 2
    pl[0] = porta.zeros(2)
    assert list(pl.state_dict()) == ["0", "1", "2"] and pl[0].tolist() == [0.0, 0.0]
    with pytest.raises(IndexError):
        pl[3]
    with pytest.raises(TypeError, match="expected a porta.nn.Parameter or Tensor"):
        pl.append("w")


def test_parameter_dict_and_an_optimizer_over_containers():
    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.scales = nn.ParameterDict({"x": porta.ones(2)})
            self.layers = nn.ModuleDict({"lin": nn.Linear(2, 2)})

        def forward(self, x):
            return self.layers["lin"](x * self.scales["x"])

    m = Model()
    assert sorted(m.state_dict()) == ["layers.lin.bias", "layers.lin.weight", "scales.x"]
    opt = porta.optim.SGD(m.parameters(), lr=0.1)
    m(porta.ones(1, 2)).sum().backward()
    before = m.scales["x"].tolist()
    opt.step()
    assert m.scales["x"].tolist() != before
    with pytest.raises(TypeError, match="keys must be str"):
        m.scales[1] = porta.ones(1)


def test_module_list_extends_inserts_slices_and_replaces():
    ml = nn.ModuleList([nn.ReLU()])
    ml.extend([nn.Tanh(), nn.Sigmoid()])
    ml.insert(1, nn.Linear(2, 2))
    assert [type(m).__name__ for m in ml] == ["ReLU", "Linear", "Tanh", "Sigmoid"]
    assert isinstance(ml[1:3], nn.ModuleList) and len(ml[1:3]) == 2
    ml[-1] = nn.Identity()
    assert type(ml[3]).__name__ == "Identity" and sorted(ml.state_dict()) == ["1.bias", "1.weight"]
