"""porta.utils.data, porta.datasets and porta.transforms."""
import numpy as np
import pytest

import porta
from porta import transforms
from porta.utils.data import DataLoader, Dataset, TensorDataset, default_collate
from datafiles import write_cifar10, write_mnist


class Squares(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        return porta.tensor([float(i), float(i * i)]), i


def test_tensor_dataset_and_loader():
    x, y = porta.arange(20.0).view(10, 2), porta.arange(10)
    ds = TensorDataset(x, y)
    assert len(ds) == 10 and ds[3][0].tolist() == [6, 7] and ds[3][1].item() == 3
    batches = list(DataLoader(ds, batch_size=4))
    assert [b[0].shape for b in batches] == [(4, 2), (4, 2), (2, 2)]
    assert batches[1][1].tolist() == [4, 5, 6, 7]
    assert len(DataLoader(ds, batch_size=4)) == 3 and len(DataLoader(ds, batch_size=4, drop_last=True)) == 2
    assert [b[1].shape[0] for b in DataLoader(ds, batch_size=4, drop_last=True)] == [4, 4]
    with pytest.raises(ValueError, match="Size mismatch"):
        TensorDataset(x, porta.arange(3))


def test_shuffle_is_seeded_and_covers_everything():
    loader = DataLoader(Squares(), batch_size=3, shuffle=True)
    porta.manual_seed(0)
    first = [i for _, idx in loader for i in idx.tolist()]
    second = [i for _, idx in loader for i in idx.tolist()]
    assert sorted(first) == list(range(10)) and sorted(second) == list(range(10))
    assert first != list(range(10)) and first != second  # a new order every epoch
    porta.manual_seed(0)
    assert [i for _, idx in DataLoader(Squares(), batch_size=3, shuffle=True) for i in idx.tolist()] == first


def test_workers_keep_order_and_collate():
    plain = [(x.tolist(), i.tolist()) for x, i in DataLoader(Squares(), batch_size=4)]
    from_workers = [(x.tolist(), i.tolist()) for x, i in DataLoader(Squares(), batch_size=4, num_workers=2)]
    assert plain == from_workers
    x, i = next(iter(DataLoader(Squares(), batch_size=4)))
    assert x.dtype is porta.float32 and i.dtype is porta.int64 and x.shape == (4, 2)
    batch = default_collate([{"a": 1.5, "b": np.zeros(2)}, {"a": 2.5, "b": np.ones(2)}])
    assert batch["a"].dtype is porta.float64 and batch["b"].shape == (2, 2)


def test_pin_memory_batches_stay_on_the_host():
    x, _ = next(iter(DataLoader(Squares(), batch_size=4, pin_memory=True)))
    assert x.device == porta.device("cpu")
    x, _ = next(iter(DataLoader(Squares(), batch_size=4, pin_memory=True, pin_memory_device="mock:0")))
    assert x.device == porta.device("cpu") and x.tolist()[1] == [1, 1]
    p = porta.arange(4.0).pin_memory()
    assert p.device == porta.device("cpu") and p.tolist() == [0, 1, 2, 3]
    assert porta.arange(2.0).pin_memory("mock:1").tolist() == [0, 1]


def test_transforms():
    img = np.full((4, 5, 3), 255, dtype=np.uint8)
    img[0, 0] = (0, 51, 102)
    t = transforms.ToTensor()(img)
    assert t.shape == (3, 4, 5) and t.dtype is porta.float32
    assert t[:, 0, 0].tolist() == pytest.approx([0.0, 0.2, 0.4])
    norm = transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))
    out = transforms.Compose([transforms.ToTensor(), norm])(img)
    assert out[:, 0, 0].tolist() == pytest.approx([-1.0, -0.6, -0.2]) and out[0, 1, 1].item() == pytest.approx(1)
    assert transforms.ToTensor()(np.zeros((28, 28), np.uint8)).shape == (1, 28, 28)
    with pytest.raises(TypeError, match="ToTensor"):
        norm(img)


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("cls", ["MNIST", "FashionMNIST"])
def test_mnist_format(tmp_path, compress, cls):
    images, labels = write_mnist(tmp_path / cls / "raw", n=12, compress=compress)
    ds = getattr(porta.datasets, cls)(str(tmp_path), train=True, transform=transforms.ToTensor())
    assert len(ds) == 12 and ds.targets == labels.tolist()
    x, y = ds[5]
    assert x.shape == (1, 28, 28) and y == labels[5]
    np.testing.assert_allclose(x[0].numpy(), images[5] / 255, rtol=1e-6)
    assert ds.data.shape == (12, 28, 28) and ds.data.dtype is porta.uint8
    xb, yb = next(iter(DataLoader(ds, batch_size=5)))
    assert xb.shape == (5, 1, 28, 28) and yb.tolist() == labels[:5].tolist()
    with pytest.raises(RuntimeError, match="t10k-images-idx3-ubyte"):
        getattr(porta.datasets, cls)(str(tmp_path), train=False)


def test_cifar10(tmp_path):
    labels = write_cifar10(tmp_path, per_batch=4)
    ds = porta.datasets.CIFAR10(root=str(tmp_path), train=True, transform=transforms.ToTensor())
    assert len(ds) == 20 and ds.targets == labels and ds.data.shape == (20, 32, 32, 3)
    x, y = ds[3]
    assert x.shape == (3, 32, 32) and y == labels[3]
    assert len(porta.datasets.CIFAR10(root=str(tmp_path), train=False)) == 4


def test_missing_dataset_files(tmp_path):
    with pytest.raises(RuntimeError, match="download=True is not supported: Porta never downloads"):
        porta.datasets.CIFAR10(root=str(tmp_path), train=True, download=True)
    with pytest.raises(RuntimeError, match="data_batch_1.bin"):
        porta.datasets.CIFAR10(root=str(tmp_path))


def test_shuffling_draws_from_portas_generator():
    from porta.utils.data import random_split
    n = 12
    ds = list(range(n))

    def order(loader):
        return [int(x) for x in loader]
    porta.manual_seed(0)
    first, second = order(DataLoader(ds, shuffle=True)), order(DataLoader(ds, shuffle=True))
    assert first != second  # the global generator moved on, as PyTorch's does
    # The same permutations the C++ loader gives after porta::manual_seed(0) (tests/cpp/test_data.cpp).
    assert first == porta.randperm(n, generator=porta.Generator().set_state((0, 0))).tolist()
    assert second == porta.randperm(n, generator=porta.Generator().set_state((0, n))).tolist()
    # generator= is honoured: epoch e of seed s is the C++ loader's {.seed = s} epoch e.
    loader = DataLoader(ds, shuffle=True, generator=porta.Generator().manual_seed(5))
    e0, e1 = order(loader), order(loader)
    assert e0 == porta.randperm(n, generator=porta.Generator().manual_seed(5)).tolist()
    assert e1 == porta.randperm(n, generator=porta.Generator().set_state((5, n))).tolist() and e0 != e1
    assert order(DataLoader(ds, shuffle=True, generator=porta.Generator().manual_seed(6))) != e1
    assert sorted(e0) == ds
    parts = random_split(ds, [4, 8], generator=porta.Generator().manual_seed(1))
    assert sorted(list(parts[0]) + list(parts[1])) == ds
    assert list(parts[0]) == porta.randperm(n, generator=porta.Generator().manual_seed(1)).tolist()[:4]
    with pytest.raises(TypeError, match="porta.Generator"):
        DataLoader(ds, shuffle=True, generator=42)
    with pytest.raises(ValueError, match="timeout option should be non-negative"):
        DataLoader(ds, timeout=-1)
