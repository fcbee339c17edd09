"""Python integers reach the C API only when its parameter can hold them:
sizes, dims, indices, slice steps and padding beyond int64 (or int32) raise
OverflowError instead of wrapping (zeros(2**64 + 3) used to have shape [3])."""
import math

import pytest

import porta
import porta.nn.functional as F


@pytest.mark.parametrize("make", [
    lambda x: porta.zeros(2**64 + 3),
    lambda x: porta.zeros(2**63),
    lambda x: porta.ones(3, 2**64),
    lambda x: x.view(2**64 + 6),
    lambda x: x.reshape(-1, 2**70),
    lambda x: x.sum(dim=2**32 + 1),
    lambda x: x.permute(2**33, 0),
    lambda x: x[:, ::2**64],
    lambda x: x[:, 2**64:],
    lambda x: F.conv2d(porta.ones(1, 1, 3, 3), porta.ones(1, 1, 1, 1), padding=2**40),
    lambda x: F.max_pool2d(porta.ones(1, 1, 4, 4), 2**31),
], ids=["zeros", "zeros_2_63", "ones", "view", "reshape", "sum_dim", "permute", "slice_step", "slice_start",
        "conv_padding", "pool_kernel"])
def test_out_of_range_integers_raise(make):
    with pytest.raises(OverflowError, match="out of range for int(32|64)"):
        make(porta.ones(2, 3))


def test_in_range_integers_still_work():
    x = porta.arange(6.0).view(2, 3)
    assert x[:, ::2].tolist() == [[0.0, 2.0], [3.0, 5.0]]
    assert x.sum(dim=-1).tolist() == [3.0, 12.0]
    assert porta.zeros(0, 2**62).shape == (0, 2**62)


def test_narrow_refuses_bounds_outside_the_dimension():
    x = porta.arange(6.0)
    assert x.narrow(0, 4, 2).tolist() == [4.0, 5.0]
    assert x.narrow(0, -2, 2).tolist() == [4.0, 5.0]
    with pytest.raises(RuntimeError, match=r"start \(4\) \+ length \(3\) exceeds dimension size \(6\)"):
        x.narrow(0, 4, 3)
    with pytest.raises(IndexError, match="start out of range"):
        x.narrow(0, 7, 0)


def test_ignore_index_leaves_samples_out(device):
    # PyTorch 2.15's numbers for the same logits: the -100 (default) and ignore_index=1 samples count for nothing.
    logits = porta.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0], [0.3, 0.3, 0.3]], device=device, requires_grad=True)
    loss = porta.nn.CrossEntropyLoss()(logits, porta.tensor([1, -100, 2], device=device))
    loss.backward()
    assert loss.item() == pytest.approx((0.4643688 + 1.0986123) / 2, 1e-6)
    assert logits.grad[1].tolist() == [0, 0, 0]
    assert logits.grad[0].tolist() == pytest.approx([0.1156119, -0.1857341, 0.0701222], abs=1e-6)
    assert porta.nn.CrossEntropyLoss(ignore_index=1)(logits.detach()[:2], porta.tensor([1, 2], device=device)).item() \
        == pytest.approx(0.1096015, 1e-6)
    assert math.isnan(porta.nn.CrossEntropyLoss()(logits.detach()[:1], porta.tensor([-100], device=device)).item())
    per_sample = porta.nn.CrossEntropyLoss(reduction="none", ignore_index=2)(logits.detach(),
                                                                           porta.tensor([1, 0, 2], device=device))
    assert per_sample.tolist()[2] == 0 and per_sample.tolist()[0] == pytest.approx(0.4643688, 1e-6)
    assert porta.nn.CrossEntropyLoss()(porta.zeros(2, 3), porta.tensor([0, 1])).item() == pytest.approx(1.0986, 1e-4)
