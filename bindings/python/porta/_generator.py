"""porta.Generator and randperm: explicit states of Porta's counter-based generator.

Porta's random numbers are Philox draws addressed by (seed, offset): the global generator
(porta.manual_seed) is one such state, shared by every device. A Generator is another, owned by
the caller: each draw reads n counters from its offset and moves the offset past them, so the
same seed gives the same numbers in every binding (the C++ DataLoader's `seed` option is one).
get_state() returns the (seed, offset) pair (PyTorch returns a ByteTensor)."""
import os
from ctypes import byref, c_uint64, c_void_p, sizeof

from . import _device, _dtype
from ._data_dtype import check_fits
from ._errors import check
from ._lib import GeneratorState, fn
from ._tensor import call, finish, wrap

_DEFAULT_SEED = 67280421310721  # PyTorch's default seed, as the global generator's


class Generator:
    """torch.Generator: manual_seed(), seed(), initial_seed(), get_state(), set_state()."""

    def __init__(self, device="cpu"):
        self.device = _device.device(device)
        self._seed, self._offset = _DEFAULT_SEED, 0

    def manual_seed(self, seed):
        """Reseeds (and rewinds) this generator; returns it."""
        self._seed, self._offset = int(seed) & 0xFFFFFFFFFFFFFFFF, 0
        return self

    def seed(self):
        """Reseeds from the operating system's entropy; returns the new seed."""
        self.manual_seed(int.from_bytes(os.urandom(8), "little"))
        return self._seed

    def initial_seed(self):
        """The seed last set."""
        return self._seed

    def get_state(self):
        """(seed, offset), for set_state."""
        return (self._seed, self._offset)

    def set_state(self, state):
        """Restores a state read with get_state; returns self."""
        self._seed, self._offset = int(state[0]), int(state[1])
        return self

    def _take(self, n):
        """The state for a draw of n counters, advancing past them."""
        at = (self._seed, self._offset)
        self._offset += n
        return at


def _global_state():
    seed, offset = c_uint64(), c_uint64()
    check(fn.porta_generator_get_state(byref(seed), byref(offset)))
    return seed.value, offset.value


class _GlobalGenerator(Generator):
    """porta.default_generator (torch.default_generator): a Generator whose state is the core's global one, the
    generator that draws when none is given."""

    def __init__(self):  # noqa: D107 - no state of its own
        self.device = _device.device("cpu")

    @property
    def _seed(self):
        return _global_state()[0]

    @_seed.setter
    def _seed(self, value):
        check(fn.porta_generator_set_state(int(value) & 0xFFFFFFFFFFFFFFFF, _global_state()[1]))

    @property
    def _offset(self):
        return _global_state()[1]

    @_offset.setter
    def _offset(self, value):
        check(fn.porta_generator_set_state(_global_state()[0], int(value)))


default_generator = _GlobalGenerator()


def _check(generator, name):
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(f"{name}: generator must be a porta.Generator, got {type(generator).__name__}")


def sample(c, generator, *args):
    """C sampler c(*args, state, &out) with `generator`'s state (None: the global generator), which the call
    advances past the counters it drew (only when it succeeds)."""
    if generator is None:
        return call(c, *args, None)
    _check(generator, c.__name__.replace("porta_", "") + "()")
    state = GeneratorState(sizeof(GeneratorState), generator._seed, generator._offset)
    out = call(c, *args, byref(state))
    generator._offset = state.offset
    return out


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    """A random permutation of 0..n-1 (int64), from `generator` or the global generator."""
    _check(generator, "randperm()")
    dt = None if dtype is None else _dtype.resolve(dtype)
    if dt is _dtype.bool_:
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if dt is not None and n > 0:  # n - 1 must fit the dtype, as PyTorch checks
        import numpy as np
        check_fits(np.array([n - 1]), dt, "randperm()")
    out = c_void_p()
    dev = _device.resolve(device)
    if generator is None:
        check(fn.porta_randperm(n, dev, out))
    else:
        seed, offset = generator._take(n)
        check(fn.porta_randperm_at(n, seed, offset, dev, out))
    t = wrap(out)
    if dt is not None and dt is not _dtype.int64:
        t = t.to(dt)
    return finish(t, requires_grad)
