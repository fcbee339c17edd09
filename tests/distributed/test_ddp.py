"""DistributedDataParallel equivalence, run by mpirun with 2 and 4 ranks: the ranks, each on its shard of a batch,
end with the same parameters as one process on the whole batch, exactly (integer-valued data and weights, a
power-of-two batch and learning rate: every value is exact in float32), with buckets small enough that there are
several; gradient accumulation under no_sync; find_unused_parameters; gradient_as_bucket_view; and on every device the process sees (the mock
devices are staged through host memory). Each rank computes the one-process reference itself."""
import contextlib
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


pytestmark = pytest.mark.usefixtures("mpi_world")  # conftest.py


class Net(nn.Module):
    def __init__(self, unused_branch=False):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(6, 8), nn.Linear(8, 3)
        self.side = nn.Linear(6, 3) if unused_branch else None

    def forward(self, x, use_side=False):
        h = self.fc2(self.fc1(x).relu())
        return h + self.side(x) if use_side else h


def integer_net(device, seed, **kw):
    """A Net whose weights are small integers, the same on every rank only when `seed` is."""
    net = Net(**kw)
    rng = np.random.default_rng(seed)
    with porta.no_grad():
        for p in net.parameters():
            p.copy_(porta.tensor(rng.integers(-2, 3, size=tuple(p.shape)), dtype=porta.float32))
    return net.to(device)


def batch(step):
    rng = np.random.default_rng(100 + step)
    return (rng.integers(-3, 4, size=(BATCH, 6)).astype(np.float32),
            rng.integers(-2, 3, size=(BATCH, 3)).astype(np.float32))


def loss_of(model, x, y, **kw):
    return ((model(x, **kw) * y).sum()) / BATCH  # a linear loss keeps gradients integers / BATCH


def shard(a, device):
    r, n = dist.get_rank(), dist.get_world_size()
    per = BATCH // n
    return porta.tensor(a[r * per:(r + 1) * per], device=device)


def params(model):
    return [np.array(p.detach().to("cpu").tolist()) for p in model.parameters()]


@pytest.mark.parametrize("as_view", [False, True], ids=["grad_copied", "gradient_as_bucket_view"])
@pytest.mark.parametrize("device", [str(d) for d in porta.available_devices() if str(d) != "opencl:0"])
def test_ddp_equals_one_process_on_the_whole_batch(device, as_view):
    # Rank r starts from its own weights: DDP broadcasts rank 0's.
    model = DDP(integer_net(device, seed=dist.get_rank()), bucket_cap_mb=100 / 2**20, gradient_as_bucket_view=as_view)
    reference = integer_net(device, seed=0)
    assert model.bucket_count() >= 3  # 100-byte buckets: several all-reduces per backward
    opt = porta.optim.SGD(model.parameters(), lr=0.125)
    ref_opt = porta.optim.SGD(reference.parameters(), lr=0.125)
    for step in range(3):
        x, y = batch(step)
        opt.zero_grad()
        # Each rank's loss is over its shard, scaled to the whole batch: the average of the ranks' gradients is
        # the whole batch's.
        (loss_of(model, shard(x, device), shard(y, device)) * dist.get_world_size()).backward()
        opt.step()
        ref_opt.zero_grad()
        loss_of(reference, porta.tensor(x, device=device), porta.tensor(y, device=device)).backward()
        ref_opt.step()
    for got, want in zip(params(model.module), params(reference)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("as_view", [False, True], ids=["grad_copied", "gradient_as_bucket_view"])
def test_no_sync_accumulates_then_synchronizes_the_sum(as_view):
    model = DDP(integer_net("cpu", seed=dist.get_rank()), bucket_cap_mb=100 / 2**20, gradient_as_bucket_view=as_view)
    reference = integer_net("cpu", seed=0)
    (x0, y0), (x1, y1) = batch(10), batch(11)
    n = dist.get_world_size()
    with model.no_sync():
        (loss_of(model, shard(x0, "cpu"), shard(y0, "cpu")) * n).backward()
    local = [np.array(p.grad.tolist()) for p in model.parameters()]
    (loss_of(model, shard(x1, "cpu"), shard(y1, "cpu")) * n).backward()
    loss_of(reference, porta.tensor(x0), porta.tensor(y0)).backward()
    loss_of(reference, porta.tensor(x1), porta.tensor(y1)).backward()
    for got, want in zip(model.parameters(), reference.parameters()):
        np.testing.assert_array_equal(np.array(got.grad.tolist()), np.array(want.grad.tolist()))
    if n > 1:  # under no_sync the gradients were this rank's alone
        assert any(not np.array_equal(a, np.array(r.grad.tolist())) for a, r in zip(local, reference.parameters()))


@pytest.mark.parametrize("as_view", [False, True], ids=["grad_copied", "gradient_as_bucket_view"])
def test_gradients_accumulate_across_synchronized_steps(as_view):
    # No zero_grad between two synchronized backwards, one under no_sync and a synchronized one again: each .grad
    # joins the next (with gradient_as_bucket_view the .grad a synchronized backward left is the bucket's place
    # itself, which the next one's GEMM adds to as it writes the new gradient there), and the result is one
    # process's sum of the four batches.
    n = dist.get_world_size()
    model = DDP(integer_net("cpu", seed=0), bucket_cap_mb=100 / 2**20, gradient_as_bucket_view=as_view)
    reference = integer_net("cpu", seed=0)
    for step, synchronized in enumerate([True, True, False, True]):
        x, y = batch(50 + step)
        with contextlib.nullcontext() if synchronized else model.no_sync():
            (loss_of(model, shard(x, "cpu"), shard(y, "cpu")) * n).backward()
        loss_of(reference, porta.tensor(x), porta.tensor(y)).backward()
    for got, want in zip(model.parameters(), reference.parameters()):
        np.testing.assert_array_equal(np.array(got.grad.tolist()), np.array(want.grad.tolist()))


class TiedNet(nn.Module):
    """fc1 applied twice: its weight gets two gradients in one backward."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(6, 6), nn.Linear(6, 3)

    def forward(self, x):
        return self.fc2(self.fc1(self.fc1(x).relu()))


@pytest.mark.parametrize("as_view", [False, True], ids=["grad_copied", "gradient_as_bucket_view"])
def test_a_weight_used_twice_gets_the_sum_of_its_gradients(as_view):
    # Each use's GEMM computes a part of the weight's gradient: neither may write it into the bucket alone.
    n = dist.get_world_size()
    nets = []
    for _ in range(2):
        net, rng = TiedNet(), np.random.default_rng(5)
        with porta.no_grad():
            for p in net.parameters():
                p.copy_(porta.tensor(rng.integers(-2, 3, size=tuple(p.shape)), dtype=porta.float32))
        nets.append(net)
    model, reference = DDP(nets[0], gradient_as_bucket_view=as_view), nets[1]
    x, y = batch(60)
    (loss_of(model, shard(x, "cpu"), shard(y, "cpu")) * n).backward()
    loss_of(reference, porta.tensor(x), porta.tensor(y)).backward()
    for got, want in zip(model.parameters(), reference.parameters()):
        np.testing.assert_array_equal(np.array(got.grad.tolist()), np.array(want.grad.tolist()))


def test_a_hook_registered_before_ddp_sees_this_ranks_own_gradient():
    # The weight's own hook runs before DDP's: it sees the gradient of this rank's shard, not the bucket's share of
    # the average (the bucket is written in the GEMM only where DDP's hook is the weight's only one).
    n = dist.get_world_size()
    net, local = integer_net("cpu", seed=0), integer_net("cpu", seed=0)
    seen = []
    net.fc1.weight.register_hook(lambda g: seen.append(np.array(g.tolist())))
    model = DDP(net)
    x, y = batch(70)
    (loss_of(model, shard(x, "cpu"), shard(y, "cpu")) * n).backward()
    (loss_of(local, shard(x, "cpu"), shard(y, "cpu")) * n).backward()
    assert len(seen) == 1
    np.testing.assert_array_equal(seen[0], np.array(local.fc1.weight.grad.tolist()))


@pytest.mark.parametrize("as_view", [False, True], ids=["grad_copied", "gradient_as_bucket_view"])
def test_unused_parameters_need_find_unused_parameters(as_view):
    n = dist.get_world_size()
    x, y = batch(20)
    model = DDP(integer_net("cpu", seed=0, unused_branch=True), find_unused_parameters=True,
                gradient_as_bucket_view=as_view)
    reference = integer_net("cpu", seed=0, unused_branch=True)
    (loss_of(model, shard(x, "cpu"), shard(y, "cpu")) * n).backward()
    loss_of(reference, porta.tensor(x), porta.tensor(y)).backward()
    assert model.module.side.weight.grad is None  # no rank used it: None, as torch's
    for got, want in zip(model.module.fc1.parameters(), reference.fc1.parameters()):
        np.testing.assert_array_equal(np.array(got.grad.tolist()), np.array(want.grad.tolist()))
    strict = DDP(integer_net("cpu", seed=0, unused_branch=True))
    with pytest.raises(porta.InvalidArgumentError, match="find_unused_parameters=True"):
        loss_of(strict, shard(x, "cpu"), shard(y, "cpu")).backward()


def backward_shards_with_side_on_rank_0(reference, x, y):
    """One process's backward of what the ranks compute on their shards, only rank 0's using the side branch."""
    n = dist.get_world_size()
    per = BATCH // n
    for r in range(n):
        rows = slice(r * per, (r + 1) * per)
        loss_of(reference, porta.tensor(x[rows]), porta.tensor(y[rows]), use_side=r == 0).backward()


def assert_same_grads(module, reference):
    for got, want in zip(module.parameters(), reference.parameters()):
        np.testing.assert_array_equal(np.array(got.grad.tolist()), np.array(want.grad.tolist()))


def test_a_parameter_one_rank_leaves_unused_brings_the_grad_it_accumulated():
    # Under no_sync every rank uses the side branch; in the synchronized step only rank 0 does. The others put the
    # .grad they accumulated into the bucket (as torch's reducer), not zeros: the result is one process's sum.
    n = dist.get_world_size()
    (x0, y0), (x1, y1) = batch(30), batch(31)
    model = DDP(integer_net("cpu", seed=0, unused_branch=True), find_unused_parameters=True)
    reference = integer_net("cpu", seed=0, unused_branch=True)
    with model.no_sync():
        (loss_of(model, shard(x0, "cpu"), shard(y0, "cpu"), use_side=True) * n).backward()
    (loss_of(model, shard(x1, "cpu"), shard(y1, "cpu"), use_side=dist.get_rank() == 0) * n).backward()
    loss_of(reference, porta.tensor(x0), porta.tensor(y0), use_side=True).backward()
    backward_shards_with_side_on_rank_0(reference, x1, y1)
    assert_same_grads(model.module, reference)


def test_a_collective_between_forward_and_backward_is_not_paired_with_a_bucket():
    # Issue 49 item 1: only rank 0 uses the side branch; its parameters are the first buckets. A metric all-reduced
    # after forward (as a training loop logs one) must meet the other ranks' metric, not a gradient bucket the ranks
    # that skipped the branch reduced during forward: they are marked ready in backward, as torch's reducer does.
    r, n = dist.get_rank(), dist.get_world_size()
    x, y = batch(60)
    model = DDP(integer_net("cpu", seed=0, unused_branch=True), find_unused_parameters=True,
                bucket_cap_mb=1e-5)  # 10 bytes: a bucket per parameter, side.bias (3 floats, as the metric) first
    out = model(shard(x, "cpu"), use_side=r == 0)
    metric = porta.full((3,), 10.0 * (r + 1))
    dist.all_reduce(metric)
    assert metric.tolist() == [5.0 * n * (n + 1)] * 3
    ((out * shard(y, "cpu")).sum() / BATCH * n).backward()  # loss_of's loss, on the output already computed
    reference = integer_net("cpu", seed=0, unused_branch=True)
    backward_shards_with_side_on_rank_0(reference, x, y)
    assert_same_grads(model.module, reference)


def test_gradient_as_bucket_view_keeps_grad_in_the_bucket_across_steps():
    # One bucket: the parameters' .grad lie back to back in it, in reverse order, and stay there from one backward to
    # the next; zero_grad(set_to_none=False) zeroes them in place, set_to_none=True gives them back to the next one.
    n = dist.get_world_size()
    model = DDP(integer_net("cpu", seed=0), gradient_as_bucket_view=True)
    reference = integer_net("cpu", seed=0)
    params = list(model.parameters())
    opt = porta.optim.SGD(params, lr=0.125)
    addresses = None
    for step, set_to_none in enumerate([True, False, True]):
        x, y = batch(40 + step)
        opt.zero_grad(set_to_none=set_to_none)
        reference.zero_grad()
        (loss_of(model, shard(x, "cpu"), shard(y, "cpu")) * n).backward()
        loss_of(reference, porta.tensor(x), porta.tensor(y)).backward()
        for got, want in zip(params, reference.parameters()):
            np.testing.assert_array_equal(np.array(got.grad.tolist()), np.array(want.grad.tolist()))
        now = [p.grad.data_ptr() for p in params]
        assert addresses is None or now == addresses
        addresses = now
    ends = [p.grad.data_ptr() + 4 * p.numel() for p in params]
    assert all(ends[i + 1] == addresses[i] for i in range(len(params) - 1))  # reverse order, back to back


def test_ddp_over_a_subgroup_without_rank_0_starts_from_its_first_member():
    # Issue 49 item 8: the group's first member (global rank 1) is the source, named by its global rank; the
    # members then train as one process on their shards.
    r, n = dist.get_rank(), dist.get_world_size()
    members = list(range(1, n))
    group = dist.new_group(members)
    if r == 0:
        assert group is dist.GroupMember.NON_GROUP_MEMBER
        return
    assert dist.get_process_group_ranks(group) == members and dist.get_global_rank(group, 0) == 1
    with pytest.raises(porta.InvalidArgumentError, match="group rank 3 is outside"):
        dist.get_global_rank(group, 3)
    model = DDP(integer_net("cpu", seed=r), process_group=group)  # each rank starts from its own weights
    first = params(integer_net("cpu", seed=1))
    for got, want in zip(params(model), first):
        np.testing.assert_array_equal(got, want)
    x, y = batch(50)
    per = BATCH // len(members)
    rows = slice((r - 1) * per, r * per)
    (loss_of(model, porta.tensor(x[rows]), porta.tensor(y[rows])) * len(members)).backward()
    reference = integer_net("cpu", seed=1)
    loss_of(reference, porta.tensor(x[:per * len(members)]), porta.tensor(y[:per * len(members)])).backward()
    for got, want in zip(model.module.parameters(), reference.parameters()):
        np.testing.assert_allclose(np.array(got.grad.tolist()), np.array(want.grad.tolist()), rtol=0, atol=1e-6)


def test_refused_arguments_name_themselves():
    with pytest.raises(NotImplementedError, match="static_graph"):
        DDP(Net(), static_graph=True)
