"""Tensor factories as in PyTorch: tensor, zeros, ones, full, empty, arange,
rand, randn (+ the *_like forms) and the random seed (cat and stack: _index_ops.py)."""
import math
from ctypes import byref, c_uint64

from . import _device, _dtype
from ._convert import from_data
from ._data_dtype import check_fits
from ._dlpack import from_dlpack
from ._errors import InvalidArgumentError, check, error
from ._generator import default_generator, sample
from ._lib import fn, int_arg
from ._scalars import number
from ._tensor import Size, Tensor, call, finish, normalize_shape, shape_array


_finish = finish


def _dt(dtype, default=_dtype.float32):
    return default if dtype is None else _dtype.resolve(dtype)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor copying `data` (nested lists, a scalar, a NumPy array or a tensor).
    Floats become float32, ints int64 and bools bool, as in PyTorch."""
    return _finish(from_data(data, dtype, device), requires_grad, pin_memory)


def as_tensor(data, dtype=None, device=None):
    """`data` as a tensor, sharing memory when it already is one (or a cpu NumPy array) of that dtype and device."""
    if isinstance(data, Tensor):
        return data.to(device=device, dtype=dtype)
    if hasattr(data, "__dlpack__") and (dtype is None or _dtype.resolve(dtype).numpy_name == str(data.dtype)):
        try:
            t = from_dlpack(data)
        except (BufferError, TypeError):
            return tensor(data, dtype=dtype, device=device)
        return t if device is None else t.to(device)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(ndarray):
    """A tensor sharing the NumPy array's memory (zero-copy; read-only arrays give read-only tensors)."""
    import numpy as np
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy(): expected np.ndarray (got {type(ndarray).__name__})")
    if getattr(getattr(ndarray, "dtype", None), "name", None) == "bfloat16":
        raise TypeError("from_numpy(): NumPy cannot share a bfloat16 (ml_dtypes) array through DLPack; copy it with "
                        "porta.tensor(array), or share array.view(numpy.uint16)")
    return from_dlpack(ndarray)


def empty(*size, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor of uninitialized values."""
    shape, n = shape_array(normalize_shape(size))
    return _finish(call(fn.porta_tensor_empty, _dt(dtype).dl, shape, n, _device.resolve(device)),
                   requires_grad, pin_memory)


def empty_pinned(size, dtype=None, for_device=None):
    """A new cpu tensor in page-locked memory for fast copies to `for_device`."""
    shape, n = shape_array(normalize_shape((size,)))
    return call(fn.porta_tensor_empty_pinned, _dt(dtype).dl, shape, n, _device.resolve(for_device))


def zeros(*size, dtype=None, device=None, requires_grad=False):
    """A new tensor of zeros."""
    shape, n = shape_array(normalize_shape(size))
    return _finish(call(fn.porta_zeros, shape, n, _dt(dtype).dl, _device.resolve(device)), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    """A new tensor of ones."""
    shape, n = shape_array(normalize_shape(size))
    return _finish(call(fn.porta_ones, shape, n, _dt(dtype).dl, _device.resolve(device)), requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    """A new tensor filled with `fill_value` (dtype inferred from it as in PyTorch). A value outside the
    dtype's range raises (as PyTorch's); an integer keeps every bit, beyond 2**53 too."""
    if isinstance(fill_value, Tensor):
        raise TypeError("full(): argument 'fill_value' (position 2) must be Number, not Tensor")
    if type(fill_value).__module__ == "numpy" and type(fill_value).__name__ in ("bool", "bool_") and dtype is None:
        dtype = _dtype.float32  # PyTorch takes a NumPy bool as a float, not a bool
    if hasattr(fill_value, "item") and not isinstance(fill_value, (int, float)):
        fill_value = fill_value.item()
    if dtype is None:
        dtype = _dtype.bool_ if isinstance(fill_value, bool) else \
            _dtype.int64 if isinstance(fill_value, int) else _dtype.float32
    dt = _dt(dtype)
    if isinstance(size, int):
        raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, not int (full((2,), value))")
    shape, n = shape_array(normalize_shape((size,)))
    if isinstance(fill_value, int) and not isinstance(fill_value, bool) and not dt.is_floating_point:
        return _finish(call(fn.porta_full_int64, shape, n, fill_value, dt.dl, _device.resolve(device)), requires_grad)
    return _finish(call(fn.porta_full, shape, n, float(fill_value), dt.dl, _device.resolve(device)), requires_grad)


def _arange_number(v, name):
    """An arange bound as a Python number (a 0-d tensor or NumPy scalar gives its value, keeping its kind)."""
    n = number(v.item() if isinstance(v, Tensor) and v.ndim == 0 else v)
    if n is None or isinstance(n, bool):
        raise TypeError(f"arange(): argument '{name}' must be Number, not {type(v).__name__}")
    return n


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """1-D: start, start + step, ... up to but excluding end (int64 for ints, float32 otherwise)."""
    if end is None:
        start, end = 0, start
    start, end, step = _arange_number(start, "start"), _arange_number(end, "end"), _arange_number(step, "step")
    if dtype is None:
        ints = all(isinstance(v, int) for v in (start, end, step))
        dtype = _dtype.int64 if ints else _dtype.float32
    if step == 0:
        raise InvalidArgumentError("arange(): step must be nonzero")
    dt = _dt(dtype)
    if dt is _dtype.bool_:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if not dt.is_floating_point:
        if not all(isinstance(v, int) for v in (start, end, step)):
            # PyTorch's: the length from the exact bounds, the values from start and step made integers first
            length = max(0, math.ceil((end - start) / step))
            start, step = int(start), int(step)
            end = start + length * step if step else start
            if step == 0:
                return _finish(full((length,), start, dtype=dt, device=device), requires_grad)
        # Exact integers: every bit of an int64 kept (a double holds only 53).
        return _finish(call(fn.porta_arange_int64, start, end, step, dt.dl, _device.resolve(device)), requires_grad)
    return _finish(call(fn.porta_arange, float(start), float(end), float(step), dt.dl,
                        _device.resolve(device)), requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    """`steps` values evenly spaced from start to end inclusive."""
    steps = int_arg(steps, "steps", "linspace")
    if steps < 0:
        raise RuntimeError(f"linspace(): number of steps must be a non-negative int, got {steps!r}")
    if dtype is not None and _dtype.resolve(dtype) is _dtype.bool_:
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    if dtype is not None:  # the ends must fit an integer dtype, as PyTorch converts them
        import numpy as np
        check_fits(np.array([number(start), number(end)]), _dtype.resolve(dtype), "linspace()")
    if steps == 0:
        return _finish(empty(0, dtype=_dt(dtype), device=device), requires_grad)
    if steps == 1:
        t = full((1,), start, dtype=_dt(dtype), device=device)
    else:
        t = arange(steps, dtype=_dtype.float64, device=device) * ((end - start) / (steps - 1)) + start
        t = t.to(_dt(dtype))
    return _finish(t, requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    """porta_logspace: `steps` values base ** e, e evenly spaced from start to end inclusive, as torch.logspace
    (computed in float64; an integer dtype truncates)."""
    for name, v in (("start", start), ("end", end), ("base", base)):
        if isinstance(v, Tensor) or number(v) is None:
            raise TypeError(f"logspace(): argument '{name}' must be a number, not {type(v).__name__}")
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TypeError(f"logspace(): argument 'steps' must be int, not {type(steps).__name__}")
    return _finish(call(fn.porta_logspace, float(number(start)), float(number(end)), steps, float(number(base)),
                        _dt(dtype).dl,
                        _device.resolve(device)), requires_grad)


def _size(size, keyword, name):
    if keyword is not None:
        if size:
            raise TypeError(f"{name}(): got the size both positionally and as size=")
        size = (keyword,)
    return normalize_shape(size)


def _no_out(out, name):
    if out is not None:
        raise NotImplementedError(f"{name}: out= is not supported by Porta; assign the result instead")


def rand(*size, generator=None, out=None, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw):
    """Uniform samples in [0, 1) from `generator` (a porta.Generator; None: the global generator); the same numbers
    on every device for one seed."""
    _no_out(out, "rand")
    shape, n = shape_array(_size(size, kw.pop("size", None), "rand"))
    _refuse(kw, "rand")
    return _finish(sample(fn.porta_uniform, generator, shape, n, _dt(dtype).dl, _device.resolve(device), 0.0, 1.0),
                   requires_grad, pin_memory)


def randn(*size, generator=None, out=None, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw):
    """Standard normal samples from `generator` (None: the global generator); device-independent like rand."""
    _no_out(out, "randn")
    shape, n = shape_array(_size(size, kw.pop("size", None), "randn"))
    _refuse(kw, "randn")
    return _finish(sample(fn.porta_normal, generator, shape, n, _dt(dtype).dl, _device.resolve(device), 0.0, 1.0),
                   requires_grad, pin_memory)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    """Integers uniform in [low, high) (int64 by default): randint(high, size) or randint(low, high, size), as
    PyTorch."""
    _no_out(out, "randint")
    if size is None and isinstance(high, (tuple, list, Size)):  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint(): the size argument is required (e.g. randint(10, (3,)))")
    shape, n = shape_array(normalize_shape((size,)))
    low, high = int_arg(low, "low", "randint"), int_arg(high, "high", "randint")
    t = sample(fn.porta_randint, generator, low, high, shape, n, _dt(dtype, _dtype.int64).dl,
               _device.resolve(device))
    return _finish(t, requires_grad)


def _refuse(kw, name):
    if kw:
        raise TypeError(f"{name}() got unexpected keyword argument(s): {', '.join(sorted(kw))}")


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    """torch.normal: tensors mean and/or std (broadcast; the other a number), or numbers with a size."""
    _no_out(out, "normal")
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if size is not None:
            raise TypeError("normal(): size is only taken with a number mean and std")
        like = mean if isinstance(mean, Tensor) else std
        m = mean if isinstance(mean, Tensor) else full((), float(mean), dtype=like.dtype, device=like.device)
        sd = std if isinstance(std, Tensor) else full((), float(std), dtype=like.dtype, device=like.device)
        sd = sd.to(m.dtype)  # the mean's dtype, as PyTorch's
        return _finish(sample(fn.porta_normal_tensor, generator, m._h, sd._h), requires_grad)
    if size is None:
        raise TypeError("normal(): with a number mean and std, size is required")
    shape, n = shape_array(normalize_shape((size,)))
    t = sample(fn.porta_normal, generator, shape, n, _dt(dtype).dl, _device.resolve(device), float(mean), float(std))
    return _finish(t, requires_grad)


def bernoulli(input, p=None, *, generator=None, out=None):  # noqa: A002 - torch's name
    """torch.bernoulli: 1 with probability input (or the number p), else 0, in input's dtype."""
    _no_out(out, "bernoulli")
    probs = input if p is None else full(tuple(input.shape), float(p), dtype=input.dtype, device=input.device)
    return sample(fn.porta_bernoulli, generator, probs._h)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):  # noqa: A002
    """torch.multinomial: int64 class indices drawn with probabilities proportional to input ([C] or [N, C])."""
    _no_out(out, "multinomial")
    return sample(fn.porta_multinomial, generator, input._h, int_arg(num_samples, "num_samples", "multinomial"),
                  1 if replacement else 0)


_SQUARE = object()


def eye(n, m=_SQUARE, *, dtype=None, device=None, requires_grad=False):
    """A 2-D tensor with ones on the diagonal (n x n, or n x m)."""
    import numpy as np
    n = int_arg(n, "n", "eye")
    m = n if m is _SQUARE else int_arg(m, "m", "eye")
    return tensor(np.eye(n, m), dtype=_dt(dtype), device=device, requires_grad=requires_grad)


def _like(factory):
    def like(input, *args, dtype=None, device=None, requires_grad=False):  # noqa: A002 - torch's name
        return factory(input.shape, *args, dtype=dtype or input.dtype, device=device or input.device,
                       requires_grad=requires_grad)
    like.__name__ = factory.__name__ + "_like"
    like.__doc__ = f"{factory.__name__}() with input's shape, dtype and device."
    return like


empty_like, zeros_like, ones_like, rand_like, randn_like, full_like = map(
    _like, (empty, zeros, ones, rand, randn, full))


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False):  # noqa: A002
    """randint with input's shape, dtype and device."""
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device,
                   requires_grad=requires_grad)


def _uniform_from_global(self, low=0.0, high=1.0):
    """Fills from U(low, high) with Porta's generator (not recorded); returns self."""
    self._refuse_leaf_write("uniform_")
    check(fn.porta_init_uniform_(self._h, float(low), float(high)))
    return self


def _normal_from_global(self, mean=0.0, std=1.0):
    """Fills from N(mean, std^2) with Porta's generator (not recorded); returns self."""
    self._refuse_leaf_write("normal_")
    check(fn.porta_init_normal_(self._h, float(mean), float(std)))
    return self


def _uniform_(self, *bounds, generator=None, **kwargs):
    """Fills self from U(from, to) (default U(0, 1)) in place (from `generator`, else the global generator);
    returns self. The bounds are positional, or PyTorch's keywords `from` and `to`."""
    if len(bounds) > 2:
        raise TypeError(f"uniform_() takes at most 2 positional arguments ({len(bounds)} given)")
    values = dict(zip(("from", "to"), bounds))
    for k, v in kwargs.items():
        if k not in ("from", "to"):
            raise TypeError(f"uniform_() got an unexpected keyword argument '{k}'")
        if k in values:
            raise TypeError(f"uniform_() got multiple values for argument '{k}'")
        values[k] = v
    a, b = values.get("from", 0.0), values.get("to", 1.0)
    if generator is None:
        return _uniform_from_global(self, a, b)
    self._refuse_leaf_write("uniform_")
    shape, n = shape_array(tuple(self.shape))
    return self.copy_(sample(fn.porta_uniform, generator, shape, n, self.dtype.dl, _device.resolve(self.device), float(a),
                             float(b)))


def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fills self from N(mean, std^2) in place (from `generator`, else the global generator); returns self."""
    if generator is None:
        return _normal_from_global(self, mean, std)
    self._refuse_leaf_write("normal_")
    shape, n = shape_array(tuple(self.shape))
    return self.copy_(sample(fn.porta_normal, generator, shape, n, self.dtype.dl, _device.resolve(self.device), float(mean),
                             float(std)))


def _bernoulli_(self, p=0.5, *, generator=None):
    """Fills self with 1 (probability p, a number or a tensor) or 0, in place; returns self."""
    probs = p if isinstance(p, Tensor) else full(tuple(self.shape), float(p), dtype=_dtype.float64, device=self.device)
    return self.copy_(sample(fn.porta_bernoulli, generator, probs._h))


def _bernoulli(self, p=None, *, generator=None):
    """bernoulli(self, p, generator=generator)."""
    return bernoulli(self, p, generator=generator)


def _multinomial(self, num_samples, replacement=False, *, generator=None):
    """multinomial(self, num_samples, replacement, generator=generator)."""
    return multinomial(self, num_samples, replacement, generator=generator)


def manual_seed(seed):
    """Reseeds Porta's generator: the same seed gives the same numbers on every device; returns it
    (porta.default_generator), as PyTorch."""
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError(f"manual_seed(): Overflow when unpacking long long (a seed is in [-2**63, 2**64), got {seed})")
    check(fn.porta_manual_seed(seed & 0xFFFFFFFFFFFFFFFF))
    return default_generator


def get_rng_state():
    """The generator's (seed, offset), for set_rng_state."""
    seed, offset = c_uint64(), c_uint64()
    check(fn.porta_generator_get_state(byref(seed), byref(offset)))
    return seed.value, offset.value


def set_rng_state(state):
    """Restores a state read with get_rng_state."""
    if not isinstance(state, (tuple, list)) or len(state) != 2:
        raise RuntimeError(f"set_rng_state(): expected the (seed, offset) pair get_rng_state() returns, got {state!r}")
    check(fn.porta_generator_set_state(int(state[0]), int(state[1])))


def initial_seed():
    """The seed last given to manual_seed (0 by default)."""
    return get_rng_state()[0]


# ------------------------------------------------------------------ Tensor methods that create tensors
# (attached by _methods.py)

def _new(cls, *args, device=None):
    """Tensor(2, 3): uninitialized float32; Tensor(data): a float32 copy; Tensor(): no elements."""
    if not args:  # torch.Tensor(): no elements
        t = empty(0, device=device)
    elif isinstance(args[0], Size):  # torch.Tensor(x.shape): uninitialized, of that shape
        t = empty(args[0], device=device)
    elif isinstance(args[0], Tensor) and len(args) == 1 and device is None:  # an alias, as PyTorch's
        t = args[0].detach()
    elif isinstance(args[0], int):
        t = empty(*args, device=device)
    elif isinstance(args[0], float) or (hasattr(args[0], "__float__") and not hasattr(args[0], "__len__")):
        raise TypeError(f"Tensor(): data must be a sequence (got {type(args[0]).__name__}); use "
                        "porta.tensor(value) for a 0-d tensor")
    else:
        t = tensor(args[0], dtype=_dtype.float32, device=device)
    if cls is not Tensor:
        t.__class__ = cls
    return t


def _pin_memory(self, device=None):
    """A copy in page-locked host memory for the best accelerator (or `device`)."""
    target = device if device is not None else _device.try_gpu()
    out = empty_pinned(self.shape, dtype=self.dtype, for_device=target)
    check(fn.porta_copy_into(out._h, self._h))
    return out


def _copy_(self, src, non_blocking=False):
    """Overwrites every element from `src` (broadcast, cast, any device); returns self."""
    if not isinstance(src, Tensor):
        if not isinstance(src, (bool, int, float)):  # a number is a 0-d source, as PyTorch's
            raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__} (wrap data in "
                            "porta.tensor(...))")
        src = tensor(src)
    status = fn.porta_copy_into(self._h, src._h)
    if status:
        raise error(status, "copy_()")
    return self


def _fill_(self, value):
    """Sets every element to `value` (a number, or a 0-d tensor whose gradient autograd records, as
    PyTorch's); returns self."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} "
                               "dimensions.")
        return self.copy_(value)
    return self.copy_(full((), value, dtype=self.dtype, device=self.device))


def _reduce(self):
    """Pickles a leaf as its data, dtype, device and requires_grad (rebuilt by _rebuild)."""
    if self.requires_grad and not self.is_leaf:
        raise RuntimeError("Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd "
                           "does not support crossing process boundaries. If you just want to transfer the "
                           "data, call detach() on the tensor before serializing (as PyTorch says)")
    return (_rebuild, (self.tolist(), self.dtype.name, str(self.device), self.requires_grad))


def _rebuild(data, dtype_name, device_str, requires_grad=False):
    return tensor(data, dtype=_dtype.by_name(dtype_name), device=device_str, requires_grad=requires_grad)
