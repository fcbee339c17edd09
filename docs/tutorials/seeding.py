"""Reproducibility as PyTorch's notes describe it: torch.manual_seed, Generator objects passed to sampling
functions, DataLoader and random_split, saving and restoring generator states, and seeding workers."""
import random

import numpy as np

import porta as torch
from porta.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(42)
a = torch.rand(3)
b = torch.randn(2, 2)
torch.manual_seed(42)
assert torch.equal(a, torch.rand(3)) and torch.equal(b, torch.randn(2, 2))
assert torch.initial_seed() == 42

g = torch.Generator().manual_seed(7)
first = torch.randn(4, generator=g)
g.manual_seed(7)
assert torch.equal(first, torch.randn(4, generator=g))
assert torch.randint(0, 10, (5,), generator=torch.Generator().manual_seed(3)).tolist() == \
    torch.randint(0, 10, (5,), generator=torch.Generator().manual_seed(3)).tolist()
perm = torch.randperm(10, generator=torch.Generator().manual_seed(0))
assert sorted(perm.tolist()) == list(range(10))

# A private generator leaves the global one alone.
torch.manual_seed(0)
expected = torch.rand(2)
torch.manual_seed(0)
torch.rand(100, generator=torch.Generator().manual_seed(1))
assert torch.equal(torch.rand(2), expected)

# Saving and restoring a state.
state = torch.get_rng_state()
x = torch.rand(5)
torch.set_rng_state(state)
assert torch.equal(torch.rand(5), x)
gstate = g.get_state()
y = torch.normal(0.0, 1.0, size=(3,), generator=g)
g.set_state(gstate)
assert torch.equal(torch.normal(0.0, 1.0, size=(3,), generator=g), y)

# DataLoader shuffling and random_split follow the generator they are given.
data = TensorDataset(torch.arange(20))
order1 = [int(v) for (batch,) in DataLoader(data, batch_size=5, shuffle=True,
                                            generator=torch.Generator().manual_seed(5)) for v in batch]
order2 = [int(v) for (batch,) in DataLoader(data, batch_size=5, shuffle=True,
                                            generator=torch.Generator().manual_seed(5)) for v in batch]
assert order1 == order2 and sorted(order1) == list(range(20))
train, val = random_split(data, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
train2, val2 = random_split(data, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
assert len(train) == 16 and len(val) == 4 and list(val.indices) == list(val2.indices)


# Workers seeded from the loader's generator, as PyTorch's "Reproducibility" note shows.
def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2 ** 32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


loader = DataLoader(data, batch_size=4, shuffle=True, num_workers=2, worker_init_fn=seed_worker,
                    generator=torch.Generator().manual_seed(0))
again = DataLoader(data, batch_size=4, shuffle=True, num_workers=2, worker_init_fn=seed_worker,
                   generator=torch.Generator().manual_seed(0))
assert [b[0].tolist() for b in loader] == [b[0].tolist() for b in again]

# The same seed draws the same numbers on every device.
torch.manual_seed(0)
on_cpu = torch.randn(4, device="cpu")
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
assert torch.equal(torch.randn(4, device=device).cpu(), on_cpu)
print("seeding ok")
