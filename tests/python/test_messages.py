"""Errors a user can trigger name the function they called and have PyTorch's
exception types: a bad dim is an IndexError, item() of many elements and bad
split/chunk/linspace sizes RuntimeErrors, a missing file FileNotFoundError;
NumPy's axis=/keepdims= are accepted where PyTorch accepts them."""
import pytest

import porta


def test_exception_types_follow_pytorch(tmp_path):
    x = porta.arange(6.0).view(2, 3)
    with pytest.raises(IndexError, match="sum: dimension 5 is out of range"):
        x.sum(dim=5)
    with pytest.raises(IndexError, match="transpose: dimension 5 is out of range"):
        x.transpose(0, 5)
    with pytest.raises(RuntimeError, match="6 elements cannot be converted to Scalar"):
        x.item()
    with pytest.raises(FileNotFoundError):
        porta.load(tmp_path / "missing.safetensors")


def test_messages_name_the_function_called():
    x = porta.arange(6.0).view(2, 3)
    with pytest.raises(RuntimeError, match=r"^split\(\): split_size can only be 0"):
        x.split(0)
    with pytest.raises(RuntimeError, match=r"^chunk\(\): chunks must be greater than 0"):
        x.chunk(0)
    with pytest.raises(RuntimeError, match=r"^linspace\(\): number of steps"):
        porta.linspace(0, 1, -1)
    with pytest.raises(TypeError, match=r"^argmax\(\) got an unexpected keyword argument 'bogus'"):
        x.argmax(bogus=1)
    with pytest.raises(TypeError, match=r"^sum\(\) got an unexpected keyword argument 'bogus'"):
        x.sum(bogus=1)


def test_numpy_names_for_dim_and_keepdim():
    x = porta.arange(6.0).view(2, 3)
    assert x.sum(axis=1).tolist() == [3.0, 12.0]
    assert x.argmax(axis=1, keepdims=True).tolist() == [[2], [2]]
    assert porta.linspace(0, 1, 0).shape == (0,)
    assert x.split(3, dim=1)[0].shape == (2, 3)


def test_bool_subtraction_is_refused_in_either_order():
    b = porta.tensor([True, False])
    for f in (lambda: b - 1, lambda: 1 - b, lambda: b - b, lambda: b - 2.5):
        with pytest.raises(porta.DtypeError, match="subtraction with a bool tensor is not supported"):
            f()
    assert (b + 1).tolist() == [2, 1] and (~b).tolist() == [False, True]
