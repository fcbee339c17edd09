"""Samplers of porta.utils.data, as torch.utils.data's: they yield dataset indices (BatchSampler: lists of them).
The random ones draw from a porta.Generator (None: Porta's global generator, so porta.manual_seed makes them
reproducible); the same seed gives the same order in every run, though not PyTorch's order (another RNG)."""
from .. import _dtype, _factories
from .._generator import _check, randperm


class Sampler:
    """A source of indices: subclasses implement __iter__ (and __len__ where they can)."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __iter__")


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices (several, cut to num_samples, when num_samples > len), or with
    replacement num_samples uniform draws (num_samples defaults to len(data_source))."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement, self._num_samples = data_source, replacement, num_samples
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")
        _check(generator, "RandomSampler")
        self.generator = generator

    @property
    def num_samples(self):
        """num_samples, or the data source's current length when it was not given."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n, k, g = len(self.data_source), self.num_samples, self.generator
        if n == 0:
            raise ValueError(f"RandomSampler: the data source is empty, so {k} samples cannot be drawn from it")
        if self.replacement:
            for start in range(0, k, 1024):  # in chunks, so a huge num_samples is not drawn at once
                yield from _factories.randint(0, n, (min(1024, k - start),), generator=g).tolist()
            return
        for _ in range(k // n):
            yield from randperm(n, generator=g).tolist()
        if k % n:
            yield from randperm(n, generator=g).tolist()[:k % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices, in a random order drawn from `generator`."""

    def __init__(self, indices, generator=None):
        _check(generator, "SubsetRandomSampler")
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices in [0, len(weights)), index i drawn with probability weights[i] / sum(weights)
    (porta.multinomial; without replacement each index at most once)."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        w = _factories.as_tensor(weights, dtype=_dtype.float64)
        if w.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {tuple(w.shape)}")
        _check(generator, "WeightedRandomSampler")
        self.weights, self.num_samples, self.replacement, self.generator = w, num_samples, replacement, generator

    def __iter__(self):
        draws = _factories.multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from draws.tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of batch_size indices from `sampler` (any iterable of indices); the last one shorter unless
    drop_last."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
