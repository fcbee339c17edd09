"""Datasets of porta.utils.data, as torch.utils.data's: map-style (Dataset, TensorDataset, StackDataset,
ConcatDataset, Subset, random_split) and iterable-style (IterableDataset, ChainDataset)."""
import bisect
import math
import warnings

from .._generator import randperm


class Dataset:
    """A map-style dataset: __getitem__(index), and __len__() for the default samplers.
    `a + b` is ConcatDataset([a, b])."""

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of samples: __iter__(). The DataLoader batches the stream as it comes (no sampler, no
    shuffle). `a + b` is ChainDataset([a, b])."""

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__")

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples are tuples (t[i] for t in tensors); all tensors share their first dimension."""

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        n = tensors[0].shape[0] if tensors[0].ndim else None
        if any(not t.ndim or t.shape[0] != n for t in tensors):
            raise ValueError("Size mismatch between tensors: every tensor must have the same size in dim 0, got "
                             f"{[list(t.shape) for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class StackDataset(Dataset):
    """Datasets of one length side by side: StackDataset(a, b)[i] is (a[i], b[i]),
    StackDataset(x=a, y=b)[i] is {"x": a[i], "y": b[i]}."""

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("StackDataset: give the datasets either positionally (tuple samples) or by keyword "
                             "(dict samples), not both")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        self.datasets = args or kwargs
        lengths = [len(d) for d in (args or kwargs.values())]
        if any(n != lengths[0] for n in lengths):
            raise ValueError(f"Size mismatch between datasets: lengths {lengths}")
        self._length = lengths[0]

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self):
        return self._length


class ConcatDataset(Dataset):
    """Map-style datasets one after another: index i falls in the first dataset whose cumulative size exceeds it
    (negative indices count from the end)."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:  # AssertionError, as PyTorch's
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset (chain them with ChainDataset)")
        self.cumulative_sizes, total = [], 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        n = len(self)
        if idx < 0:
            if -idx > n:
                raise ValueError(f"absolute value of index should not exceed dataset length: index {idx}, length {n}")
            idx += n
        if idx >= n:
            raise IndexError(f"ConcatDataset: index {idx} is out of range for length {n}")
        k = bisect.bisect_right(self.cumulative_sizes, idx)
        return self.datasets[k][idx - (self.cumulative_sizes[k - 1] if k else 0)]


class ChainDataset(IterableDataset):
    """Iterable datasets one after another, chained as they are iterated."""

    def __init__(self, datasets):
        self.datasets = datasets

    def _each(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError(f"ChainDataset only supports IterableDataset, got {type(d).__name__}")
            yield d

    def __iter__(self):
        for d in self._each():
            yield from d

    def __len__(self):
        return sum(len(d) for d in self._each())


class Subset(Dataset):
    """The samples of `dataset` at `indices`."""

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self):
        return len(self.indices)


def _split_lengths(n, lengths):
    """PyTorch's rule: fractions summing to 1 become floor(n * f) each, and the remainder goes one by one to the
    splits in turn from the first."""
    if not (math.isclose(sum(lengths), 1) and sum(lengths) <= 1):
        return list(lengths)
    for i, frac in enumerate(lengths):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
    counts = [math.floor(n * frac) for frac in lengths]
    for i in range(n - sum(counts)):
        counts[i % len(counts)] += 1
    for i, k in enumerate(counts):
        if k == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.", stacklevel=3)
    return counts


def random_split(dataset, lengths, generator=None):
    """Subsets of the given lengths (or fractions summing to 1) over a random permutation drawn from `generator`
    (a porta.Generator) or the global generator."""
    lengths = _split_lengths(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = randperm(len(dataset), generator=generator).tolist()
    out, start = [], 0
    for k in lengths:
        out.append(Subset(dataset, order[start:start + k]))
        start += k
    return out
