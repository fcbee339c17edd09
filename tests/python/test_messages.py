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


# One bad call per public function family: the message starts with (or, for
# PyTorch's own wording, ends with) the name the user called, never an
# internal helper's or a C function's, and the exception type is PyTorch's.
_NAMED_ERRORS = [
    (lambda: porta.ones(2) + porta.ones(3), RuntimeError, r"^add: "),
    (lambda: porta.ones(2, 3) @ porta.ones(2, 3), RuntimeError, r"^matmul: "),
    (lambda: porta.ones(6).view(4), RuntimeError, r"^view: "),
    (lambda: porta.ones(6).reshape(4, 2), RuntimeError, r"^reshape: "),
    (lambda: porta.ones(2).sum(dim=3), IndexError, r"^sum: "),
    (lambda: porta.cat([porta.ones(2), porta.ones(2, 2)]), RuntimeError, r"^cat: "),
    (lambda: porta.ones(4).narrow(0, 3, 5), RuntimeError, r"^narrow\(\): "),
    (lambda: porta.ones(2, 2).permute(0, 0), RuntimeError, r"^permute: "),
    (lambda: porta.ones(2, 3).expand(4, 4), RuntimeError, r"^expand: "),
    (lambda: porta.ones(2).squeeze(3), IndexError, r"in squeeze\(\)$"),
    (lambda: porta.ones(2).softmax(5), IndexError, r"^softmax: "),
    (lambda: porta.ones(2)[5], IndexError, r"^index 5 is out of bounds"),
    (lambda: porta.nn.Linear(3, 2)(porta.ones(2, 4)), RuntimeError, r"^linear: "),
    (lambda: porta.nn.functional.mse_loss(porta.ones(2), porta.ones(3)), RuntimeError, r"^mse_loss: "),
    (lambda: porta.nn.functional.max_pool2d(porta.ones(1, 1, 2, 2), 3), RuntimeError, r"^max_pool2d: "),
    (lambda: porta.full((2,), 300, dtype=porta.uint8), RuntimeError, r"^full: "),
    (lambda: porta.randint(5, 2, (3,)), RuntimeError, r"^randint: "),
    (lambda: porta.arange(0, 10, 0), RuntimeError, r"^arange\(\): "),
    (lambda: porta.where(porta.ones(2) > 0, porta.ones(3), porta.ones(2)), RuntimeError, r"^where: "),
    (lambda: porta.ones(2).unsqueeze(5), IndexError, r"^unsqueeze: "),
    (lambda: porta.ones(2).backward(), RuntimeError, r"^backward: the tensor does not require grad"),
    (lambda: porta.stack([]), RuntimeError, r"^stack: "),
    (lambda: porta.ones(2).argmax(dim=3), IndexError, r"^argmax: "),
]


@pytest.mark.parametrize("call,kind,pattern", _NAMED_ERRORS, ids=[p for _, _, p in _NAMED_ERRORS])
def test_every_family_names_the_function_called(call, kind, pattern):
    with pytest.raises(kind, match=pattern) as info:
        call()
    message = str(info.value)
    assert "porta_" not in message.split(":")[0] and "_make_" not in message and "<locals>" not in message
