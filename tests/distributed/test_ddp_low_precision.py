"""DistributedDataParallel of float16 and bfloat16 models (issue 49 item 9), run by mpirun with 2 ranks: the ranks,
each on its shard of a batch, end with the same parameters as one process on the whole batch, exactly, as
test_ddp.py checks for float32. The buckets hold the model's own dtype, so the mpi plugin broadcasts the first rank's
parameters and all-reduces the gradients in float16 or bfloat16 (a sum of two ranks rounded once from float32).

Every value must be exact in 16 bits for one process and two to agree to the bit (a rank's half-batch sum rounded,
then the two added and rounded, against the whole batch's sum rounded once), and bfloat16 has 8 significant bits.
So the weights start as integers in [-1, 1], the data are -1, 0 or 1 with three in four zeros, the loss is a sum (its
gradients are integer sums over the rows) and the learning rate 1: activations, gradients, their half-batch parts and
the parameters stay small integers. The test checks that premise itself: one process in the 16-bit dtype ends where
one process in float32 does. Each rank computes both references itself."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bindings", "python"))
import porta  # noqa: E402
import porta.distributed as dist  # noqa: E402
from porta import nn  # noqa: E402
from porta.nn.parallel import DistributedDataParallel as DDP  # noqa: E402

BATCH = 16
STEPS = 3
DTYPES = [porta.bfloat16, porta.float16]


pytestmark = pytest.mark.usefixtures("mpi_world")  # conftest.py


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(6, 8), nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(self.fc1(x).relu())


def integer_net(device, dtype, seed):
    """A Net whose weights are integers in [-1, 1], the same on every rank only when `seed` is."""
    net = Net()
    rng = np.random.default_rng(seed)
    with porta.no_grad():
        for p in net.parameters():
            p.copy_(porta.tensor(rng.integers(-1, 2, size=tuple(p.shape)), dtype=porta.float32))
    return net.to(dtype).to(device)


def sparse(rng, shape):
    return ((rng.random(shape) < 0.25) * rng.choice([-1, 1], size=shape)).astype(np.float32)


def batch(step):
    rng = np.random.default_rng(200 + step)
    return sparse(rng, (BATCH, 6)), sparse(rng, (BATCH, 3))


def loss_of(model, x, y):
    return (model(x) * y).sum()  # a linear loss: integer gradients


def params(model):
    return [np.array(p.detach().to("cpu").float().tolist()) for p in model.parameters()]


def grads(model):
    return [np.array(p.grad.to("cpu").float().tolist()) for p in model.parameters()]


def train(model, steps, device, dtype, sharded):
    """STEPS of SGD (lr 1) on the batches: on this rank's shard, its loss scaled by the world size so that the
    ranks' average gradient is the whole batch's, or on the whole batch. Returns the last step's gradients."""
    opt = porta.optim.SGD(model.parameters(), lr=1.0)
    r, n = dist.get_rank(), dist.get_world_size()
    per = BATCH // n
    for step in range(steps):
        x, y = batch(step)
        if sharded:
            x, y = x[r * per:(r + 1) * per], y[r * per:(r + 1) * per]
        opt.zero_grad()
        loss = loss_of(model, porta.tensor(x, dtype=dtype, device=device), porta.tensor(y, dtype=dtype, device=device))
        (loss * n if sharded else loss).backward()
        last = grads(model)
        opt.step()
    return last


def assert_same(got, want, what):
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(g, w, err_msg=f"{what}, parameter {i}")


@pytest.mark.parametrize("as_view", [False, True], ids=["grad_copied", "gradient_as_bucket_view"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("device", [str(d) for d in porta.available_devices() if str(d) != "opencl:0"])
def test_low_precision_ddp_equals_one_process_on_the_whole_batch(device, dtype, as_view):
    # Rank r starts from its own weights: DDP broadcasts rank 0's (in the 16-bit dtype).
    model = DDP(integer_net(device, dtype, seed=dist.get_rank()), bucket_cap_mb=64 / 2**20,
                gradient_as_bucket_view=as_view)
    assert all(p.dtype is dtype for p in model.parameters())
    assert model.bucket_count() >= 3  # 64-byte buckets: several all-reduces per backward
    assert_same(params(model.module), params(integer_net(device, dtype, seed=0)), "after the broadcast")

    got = train(model, STEPS, device, dtype, sharded=True)
    reference = integer_net(device, dtype, seed=0)
    want = train(reference, STEPS, device, dtype, sharded=False)
    exact = integer_net(device, porta.float32, seed=0)
    exact_grads = train(exact, STEPS, device, porta.float32, sharded=False)
    # The premise: every value was exact in the 16-bit dtype.
    assert_same(params(reference), params(exact), f"one process in {dtype.name} against float32")
    assert_same(want, exact_grads, f"one process's last gradients in {dtype.name} against float32")
    assert any(np.abs(w).max() > 1 for w in want)  # the gradients are sums over several rows, not trivial
    # DDP on the shards: the whole batch's gradients and parameters, to the bit.
    assert_same(got, want, "the last step's gradients")
    assert_same(params(model.module), params(reference), "the parameters")
    assert all(p.dtype is dtype for p in model.parameters())


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_low_precision_no_sync_then_a_synchronized_backward(dtype):
    # Gradient accumulation under no_sync: the local 16-bit .grad joins the next synchronized backward's bucket.
    n = dist.get_world_size()
    r, per = dist.get_rank(), BATCH // n
    model = DDP(integer_net("cpu", dtype, seed=0), bucket_cap_mb=64 / 2**20)
    reference = integer_net("cpu", dtype, seed=0)
    (x0, y0), (x1, y1) = batch(10), batch(11)
    rows = slice(r * per, (r + 1) * per)
    with model.no_sync():
        (loss_of(model, porta.tensor(x0[rows], dtype=dtype), porta.tensor(y0[rows], dtype=dtype)) * n).backward()
    (loss_of(model, porta.tensor(x1[rows], dtype=dtype), porta.tensor(y1[rows], dtype=dtype)) * n).backward()
    loss_of(reference, porta.tensor(x0, dtype=dtype), porta.tensor(y0, dtype=dtype)).backward()
    loss_of(reference, porta.tensor(x1, dtype=dtype), porta.tensor(y1, dtype=dtype)).backward()
    assert_same(grads(model), grads(reference), "the accumulated gradients")
