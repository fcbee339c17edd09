"""torch.utils.data.distributed.DistributedSampler: each rank's share of a dataset's indices, padded so that every
rank runs the same number of steps."""
import math

from .. import distributed as dist
from .._generator import Generator, randperm
from ._samplers import Sampler


class DistributedSampler(Sampler):
    """Rank `rank` of `num_replicas` (default: porta.distributed's) gets indices rank, rank + num_replicas, ... of
    the dataset's order: a permutation drawn from seed + epoch (shuffle, the default; the same on every rank), or
    0..n-1. Without drop_last the order is padded with its own first indices to a multiple of num_replicas; with it,
    the tail that does not divide evenly is dropped. Call set_epoch(e) before each epoch for a new order."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False):
        if num_replicas is None or rank is None:
            if not dist.is_initialized():
                raise RuntimeError("DistributedSampler: give num_replicas and rank, or call "
                                   "porta.distributed.init_process_group() first")
            num_replicas = dist.get_world_size() if num_replicas is None else num_replicas
            rank = dist.get_rank() if rank is None else rank
        if not isinstance(num_replicas, int) or num_replicas < 1:
            raise ValueError(f"DistributedSampler: num_replicas must be a positive int, got {num_replicas!r}")
        if not isinstance(rank, int) or not 0 <= rank < num_replicas:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.shuffle, self.seed, self.drop_last, self.epoch = shuffle, seed, drop_last, 0
        n = len(dataset)
        if drop_last and n % num_replicas:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            g = Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if not self.drop_last:
            padding = self.total_size - len(indices)
            if padding <= len(indices):
                indices += indices[:padding]
            elif indices:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        else:
            indices = indices[:self.total_size]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """The epoch the next order is drawn for (seed + epoch): every rank sets the same one."""
        self.epoch = epoch
