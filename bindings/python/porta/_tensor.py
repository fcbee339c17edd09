"""porta.Tensor: one porta_tensor* handle, its metadata, transfers and autograd.

This is the class core; it depends only on leaf modules (_lib, _errors,
_device, _dtype, _grad_mode), so every other module may import it. Ops,
operators, indexing, printing, conversions, factories' methods and autograd's
are defined in the modules of their concept and attached by the one table in
_methods.py (docs/python-package-map.md). The hot path is kept short: C functions are looked up once,
shape and dtype are read lazily and cached (they never change for a handle),
and wrapping a result is one object allocation.
"""
import operator
import weakref
from ctypes import byref, c_int, c_int32, c_int64, c_uint64, c_void_p

from . import _device, _dtype
from ._abi import kDLCPU, kDLCUDA
from ._errors import InvalidArgumentError, NoSuchDeviceError, check, error
from ._grad_mode import is_grad_enabled
from ._lib import DLDataType, DLDevice, fn, int_array, raw

_new = object.__new__
_release = raw("porta_tensor_release", hold_gil=True)  # never blocks: dropping a reference
_tensor_device = fn.porta_tensor_device
_by_dl = _device._by_dl


class Size(tuple):
    """A tensor's shape: a tuple of ints, printed as porta.Size([2, 3])."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        sizes = tuple(sizes)
        for i, s in enumerate(sizes):
            if isinstance(s, float) or not hasattr(s, "__index__"):
                raise TypeError(f"porta.Size() takes an iterable of 'int' (item {i} is '{type(s).__name__}')")
        return tuple.__new__(cls, (operator.index(s) for s in sizes))

    def __repr__(self):
        return f"porta.Size([{', '.join(map(str, self))}])"

    def __add__(self, other):  # a Size still, as PyTorch's (s + (5,), (5,) + s, s * 2)
        return tuple.__new__(Size, tuple.__add__(self, Size(other)))

    def __radd__(self, other):
        return tuple.__new__(Size, tuple(Size(other)) + tuple(self))

    def __mul__(self, n):
        return tuple.__new__(Size, tuple.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self):
        """Product of the sizes (1 for an empty shape)."""
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return tuple.__new__(Size, r) if isinstance(key, slice) else r


def wrap(handle):
    """A new Tensor owning `handle` (a c_void_p holding one reference)."""
    t = _new(Tensor)
    t._h = handle
    return t


def call(f, *args):
    """Calls C function f(*args, &out), raising on failure, and wraps out."""
    out = c_void_p()
    status = f(*args, byref(out))
    if status:
        raise error(status)
    t = _new(Tensor)
    t._h = out
    return t


def call_outs(f, *args, n):
    """Calls C function f(*args, &out_1 .. &out_n), raising on failure, and wraps each out (None where the
    function wrote NULL, as porta_rnn's c_n for the modes without one)."""
    outs = [c_void_p() for _ in range(n)]
    status = f(*args, *[byref(o) for o in outs])
    if status:
        raise error(status)
    return [wrap(o) if o.value else None for o in outs]


def shape_array(shape, what="size"):
    """A C int64 array of `shape` (and its length) for the C API; a size beyond int64 raises."""
    return int_array(c_int64, shape, what), len(shape)


def normalize_shape(args, what="size"):
    """Sizes given as f(2, 3), f((2, 3)), f([2, 3]) or f(porta.Size) -> tuple of ints, parsed as PyTorch parses
    them: at least one argument (f(()) is 0-d, f() is a TypeError), and integers only (anything with
    __index__: int, a NumPy integer, a one-element integer tensor), never a float or a string."""
    if not args:
        raise TypeError(f'missing 1 required positional arguments: "{what}"')
    if len(args) == 1 and not isinstance(args[0], int):
        args = args[0]
        if isinstance(args, str):
            raise TypeError(f"argument '{what}' must be tuple of ints, not str")
        if hasattr(args, "tolist") and not isinstance(args, (tuple, list)):
            args = args.tolist()
    try:
        return tuple(operator.index(s) for s in args)
    except TypeError:
        raise TypeError(f"argument '{what}' must be tuple of ints, got {args!r} (a float or other non-integer "
                        "size)") from None


def finish(t, requires_grad, pin_memory=False):
    """A factory's result `t`, pinned and requiring grad as asked."""
    if pin_memory:
        t = t.pin_memory()
    if requires_grad:
        t.requires_grad_(True)
    return t


def _int_out(f, h):
    v = c_int()
    check(f(h, byref(v)))
    return v.value


class Tensor:
    """An n-dimensional array on one device.

    ``Tensor(2, 3)`` is an uninitialized float32 tensor and ``Tensor(data)``
    a float32 copy of data, as torch.Tensor; prefer porta.tensor / zeros /
    ones / empty.
    """

    __slots__ = ("_h", "_shape", "_dtype", "_grad_ref", "__weakref__")
    __array_priority__ = 1000  # NumPy defers to our reflected operators:
    __array_ufunc__ = None     # ndarray + tensor is a tensor, as tensor + ndarray

    def __del__(self, _release=_release):
        try:
            h = self._h
        except AttributeError:
            return
        _release(h)

    # ------------------------------------------------------------ metadata

    @property
    def shape(self):
        """The sizes of all dimensions, as a porta.Size."""
        try:
            return self._shape
        except AttributeError:
            pass
        n = c_int32()
        check(fn.porta_tensor_ndim(self._h, byref(n)))
        arr = (c_int64 * n.value)()
        if n.value:
            check(fn.porta_tensor_shape(self._h, arr))
        s = self._shape = tuple.__new__(Size, arr)  # ints from C: no checks
        return s

    def size(self, dim=None):
        """The shape, or the size of dimension `dim` (negative counts from the end)."""
        if dim is None:
            return self.shape
        return self.shape[self._wrap_dim(dim, "size")]

    @property
    def dtype(self):
        """The element type, e.g. porta.float32."""
        try:
            return self._dtype
        except AttributeError:
            pass
        dl = DLDataType()
        check(fn.porta_tensor_dtype(self._h, byref(dl)))
        d = self._dtype = _dtype.from_dl(dl)
        return d

    @property
    def device(self):
        """The device holding the data."""
        dl = DLDevice()
        status = _tensor_device(self._h, byref(dl))
        if status:
            raise error(status)
        return _by_dl.get((dl.device_type, dl.device_id)) or _device.from_dl(dl)

    @property
    def dl_device(self):
        """The DLPack DLDevice holding the data."""
        dl = DLDevice()
        check(_tensor_device(self._h, byref(dl)))
        return dl

    @property
    def is_cuda(self):
        """Whether the tensor lives on a CUDA device."""
        return self.dl_device.device_type == kDLCUDA

    @property
    def is_cpu(self):
        """Whether the tensor lives on the CPU."""
        return self.dl_device.device_type == kDLCPU

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self.shape)

    def dim(self):
        """Number of dimensions."""
        return len(self.shape)

    def numel(self):
        """Number of elements."""
        return self.shape.numel()

    nelement = numel

    def element_size(self):
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def itemsize(self):
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def nbytes(self):
        """Bytes of the elements (numel * itemsize)."""
        return self.numel() * self.dtype.itemsize

    def stride(self, dim=None):
        """Strides in elements, or the stride of dimension `dim`."""
        n = self.ndim
        arr = (c_int64 * n)()
        if n:
            check(fn.porta_tensor_strides(self._h, arr))
        strides = tuple(arr)
        return strides if dim is None else strides[self._wrap_dim(dim, "stride")]

    def storage_offset(self):
        """Offset of the first element in the storage, in elements."""
        v = c_uint64()
        check(fn.porta_tensor_byte_offset(self._h, byref(v)))
        return v.value // self.dtype.itemsize

    def is_contiguous(self):
        """Whether elements are contiguous in row-major order."""
        return _int_out(fn.porta_tensor_is_contiguous, self._h) != 0

    def is_pinned(self):
        """Whether the tensor lives in page-locked host memory."""
        return _int_out(fn.porta_tensor_is_pinned, self._h) != 0

    @property
    def is_read_only(self):
        """Whether the tensor is read-only (imported through DLPack with the read-only flag)."""
        return _int_out(fn.porta_tensor_is_read_only, self._h) != 0

    def data_ptr(self):
        """Address of the first element (cpu) or the device pointer (cuda)."""
        p = c_void_p()
        check(fn.porta_tensor_data_ptr(self._h, byref(p)))
        return p.value or 0

    def is_floating_point(self):
        """Whether the dtype is floating (float16, bfloat16, float32, float64)."""
        return self.dtype.is_floating_point

    def _wrap_dim(self, dim, op):
        n = max(len(self.shape), 1)  # a 0-d tensor takes -1 and 0, as PyTorch
        if not -n <= dim < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim}) "
                             f"in {op}()")
        return dim + n if dim < 0 else dim

    # ------------------------------------------------------------ transfers

    def to(self, *args, **kwargs):
        """This tensor on a device and/or with a dtype: to(device), to(dtype),
        to(device, dtype), to(other) or to(device=..., dtype=...). Returns self
        when nothing changes; moving data between devices is a copy.
        non_blocking=True: a copy from pinned memory to an accelerator may
        return before it completes (ordered before later work there).
        copy=True (or the second positional flag, as PyTorch's) always copies.
        memory_format= and unknown keywords are refused."""
        dev, dt = _parse_to_args(args, kwargs, "to", ("non_blocking", "copy"))
        flags = [a for a in args if isinstance(a, bool)]  # to(dev, non_blocking, copy), as PyTorch
        if len(flags) > 2:
            raise TypeError(f"to(): at most two positional flags (non_blocking, copy), got {len(flags)}")
        non_blocking = kwargs.get("non_blocking", flags[0] if flags else False)
        if kwargs.get("copy", flags[1] if len(flags) > 1 else False):
            t = self.clone()
        else:
            t = self
        if dt is not None and dt is not t.dtype:
            t = call(fn.porta_cast, t._h, dt.dl)
        if dev is not None:
            out = c_void_p()
            move = fn.porta_tensor_to_non_blocking if non_blocking else fn.porta_tensor_to
            status = move(t._h, _device.resolve(dev), byref(out))
            if status:
                raise error(status, f"to({dev})")
            if out.value == t._h.value:
                _release(out)
            else:
                t = wrap(out)
        return t

    def cuda(self, device=None, non_blocking=False):
        """This tensor on CUDA device `device` (an index, 'cuda:i' or None for cuda:0)."""
        dev = cuda_device(device, "x.cuda()")
        return self.to(dev, non_blocking=non_blocking)

    def cpu(self):
        """This tensor on the CPU (self when already there)."""
        return self.to(_device.CPU)

    def type(self, dtype=None):
        """PyTorch's name of this tensor's type ('torch.FloatTensor', 'torch.cuda.LongTensor' on CUDA, so that
        code comparing with those names runs unchanged), or a cast to dtype (a dtype or such a name)."""
        if dtype is None:
            where = "" if self.device.type == "cpu" else f"{self.device.type}."
            return f"torch.{where}{_dtype.TENSOR_TYPE_NAMES[self.dtype]}"
        if isinstance(dtype, str):
            if not dtype.startswith("torch."):
                raise ValueError(f"invalid type: {dtype!r} (type() takes a dtype or a name such as "
                                 "'torch.FloatTensor')")
            return self.to(_dtype.from_tensor_type_name(dtype))
        if dtype.__class__ is not _dtype.dtype:
            raise ValueError(f"invalid type: {dtype!r} (type() takes a dtype or a name such as 'torch.FloatTensor')")
        return self.to(dtype)

    def float(self):
        """Cast to float32."""
        return self.to(_dtype.float32)

    def double(self):
        """Cast to float64."""
        return self.to(_dtype.float64)

    def long(self):
        """Cast to int64."""
        return self.to(_dtype.int64)

    def int(self):
        """Cast to int32."""
        return self.to(_dtype.int32)

    def byte(self):
        """Cast to uint8."""
        return self.to(_dtype.uint8)

    def bool(self):
        """Cast to bool (nonzero is True)."""
        return self.to(_dtype.bool_)

    def half(self):
        """Cast to float16 (rounded to nearest even)."""
        return self.to(_dtype.float16)

    def bfloat16(self):
        """Cast to bfloat16 (rounded to nearest even)."""
        return self.to(_dtype.bfloat16)

    def short(self):
        """Cast to int16."""
        return self.to(_dtype.int16)

    def char(self):
        """Cast to int8."""
        return self.to(_dtype.int8)

    def move_to_(self, device):
        """Moves this leaf to `device` in place (same handle, storage and grad move)."""
        check(fn.porta_tensor_move_to(self._h, _device.resolve(device)))
        return self

    # ------------------------------------------------------------ copies and views

    def clone(self, memory_format=None):
        """A contiguous copy sharing nothing with this tensor (Porta has no memory formats: memory_format= is
        refused)."""
        _refuse_memory_format(memory_format, "clone")
        return call(fn.porta_clone, self._h)

    def contiguous(self, memory_format=None):
        """Self if contiguous, else a contiguous copy (row-major; memory_format= is refused)."""
        _refuse_memory_format(memory_format, "contiguous")
        out = c_void_p()
        check(fn.porta_contiguous(self._h, byref(out)))
        if out.value == self._h.value:
            _release(out)
            return self
        return wrap(out)

    def detach(self):
        """A tensor sharing this storage, cut from the autograd graph."""
        return call(fn.porta_detach, self._h)

    def detach_(self):
        """Cuts this tensor from the autograd graph in place (it becomes a leaf that does not require grad, as the
        hidden state of an RNN between batches); returns self."""
        if self.is_leaf:
            return self.requires_grad_(False)
        detached = self.detach()
        self._h, detached._h = detached._h, self._h  # `detached` now owns, and releases, the old handle
        return self

    @property
    def data(self):
        """A detached tensor sharing this storage (as torch's .data)."""
        return self.detach()

    @data.setter
    def data(self, value):
        """t.data = value: t takes value's storage, shape and dtype (shared, as PyTorch's), keeping its identity,
        requires_grad and (when it still fits) its gradient."""
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
        check(fn.porta_tensor_set_data(self._h, value._h))
        self._forget_metadata()

    def _forget_metadata(self):
        """Drops the cached shape and dtype, after a call that changed them in place (porta_tensor_set_data)."""
        for cached in ("_shape", "_dtype"):
            try:
                delattr(self, cached)
            except AttributeError:
                pass

    # ------------------------------------------------------------ autograd

    @property
    def requires_grad(self):
        """Whether gradients flow to or through this tensor."""
        return _int_out(fn.porta_tensor_requires_grad, self._h) != 0

    @requires_grad.setter
    def requires_grad(self, value):
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad=True):
        """Marks this leaf as requiring gradients (or not); returns self."""
        status = fn.porta_tensor_set_requires_grad(self._h, 1 if requires_grad else 0)
        if status:
            raise error(status)
        return self

    @property
    def is_leaf(self):
        """Whether this tensor was not produced by a recorded op."""
        return _int_out(fn.porta_tensor_is_leaf, self._h) != 0

    @property
    def grad_fn(self):
        """None for leaves; a marker object for tensors produced by recorded ops."""
        if self.is_leaf or not self.requires_grad:
            return None
        return _GRAD_FN

    @property
    def grad(self):
        """The accumulated gradient of this leaf, or None."""
        out = c_void_p()
        check(fn.porta_tensor_grad(self._h, byref(out)))
        if not out.value:
            return None
        # The same Python object while it lives, as PyTorch's (x.grad = g; x.grad is g): the wrapper is
        # remembered weakly, so a gradient dropped by zero_grad() is not kept alive by it.
        ref = getattr(self, "_grad_ref", None)
        known = ref() if ref is not None else None
        if known is not None and known._h.value == out.value:
            _release(out)
            return known
        g = wrap(out)
        self._grad_ref = weakref.ref(g)
        return g

    @grad.setter
    def grad(self, value):
        check(fn.porta_tensor_set_grad(self._h, None if value is None else value._h))
        self._grad_ref = None if value is None else weakref.ref(value)

    # ------------------------------------------------------------ in place

    def zero_(self):
        """Sets every element to 0; returns self."""
        return self.fill_(0)

    def _refuse_leaf_write(self, op):
        if self.requires_grad and self.is_leaf and is_grad_enabled():
            raise RuntimeError(f"{op}(): a leaf Variable that requires grad is being used in an in-place "
                               "operation; write it under porta.no_grad(), as nn.init does")

    # ------------------------------------------------------------ misc

    __hash__ = object.__hash__

    def __deepcopy__(self, memo):
        if self.requires_grad and not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment; detach() first (as PyTorch says)")
        if id(self) in memo:
            return memo[id(self)]
        out = self.detach().clone()
        if self.requires_grad:
            out.requires_grad_(True)
        memo[id(self)] = out
        if self.grad is not None:
            out.grad = self.grad.detach().clone()
        return out


# The names the class body defines; _methods.py attaches every other method.
CORE_NAMES = frozenset(Tensor.__dict__)


class _GradFnMarker:
    """Stands for the recorded op that produced a tensor (Porta does not expose the graph)."""

    __slots__ = ()
    name = "PortaBackward"

    def __repr__(self):
        return "<PortaBackward>"


_GRAD_FN = _GradFnMarker()


def _refuse_memory_format(memory_format, op):
    if memory_format is not None:
        raise NotImplementedError(f"{op}(): memory_format= is not supported by Porta (its tensors are strided, and "
                                  "its copies row-major contiguous); leave it out")


def _parse_to_args(args, kwargs, op, flags=("non_blocking",)):
    """(device or None, dtype or None) from the forms Tensor.to/Module.to accept; a keyword other than
    device, dtype, memory_format and `flags` raises, as does memory_format (Porta has none)."""
    for k in kwargs:
        if k not in ("device", "dtype", "memory_format") + flags:
            raise TypeError(f"{op}() got an unexpected keyword argument '{k}'")
    _refuse_memory_format(kwargs.get("memory_format"), op)
    dev, dt = kwargs.get("device"), kwargs.get("dtype")

    def invalid():
        return TypeError(f"{op}() received an invalid combination of arguments - got {args!r} and keywords "
                         f"{sorted(kwargs)}, but expected one of: {op}(dtype), {op}(device, dtype), {op}(tensor) "
                         "(a device or dtype given positionally cannot be given as a keyword too)")
    rest = list(args)
    if rest and rest[0] is not None and not isinstance(rest[0], bool):
        first = rest.pop(0)
        if isinstance(first, Tensor):
            if "device" in kwargs or "dtype" in kwargs:
                raise invalid()
            dev, dt = first.device, first.dtype
        elif first.__class__ is _dtype.dtype or first in (float, int, bool):
            if "device" in kwargs or "dtype" in kwargs:
                raise invalid()
            dt = first
        elif isinstance(first, (str, int, _device.device)):
            if "device" in kwargs:
                raise invalid()
            dev = first
            if rest and rest[0].__class__ is _dtype.dtype:
                if "dtype" in kwargs:
                    raise invalid()
                dt = rest.pop(0)
        else:
            raise TypeError(f"{op}(): expected a device, a dtype or a tensor, got {first!r}")
    if any(not (a is None or isinstance(a, bool)) for a in rest):  # the positional flags (non_blocking, copy)
        raise invalid()
    if dt is not None:
        dt = _dtype.resolve(dt)
    return dev, dt


def cuda_device(index, what):
    """device('cuda:index') for .cuda(); raises like PyTorch when there is no CUDA device."""
    if index is None:
        dev = _device.device("cuda", 0)
    elif isinstance(index, int):
        dev = _device.device("cuda", index)
    else:
        dev = _device.device(index)
    if _device.device_count("cuda") == 0:
        raise NoSuchDeviceError(f"{what}: no CUDA devices ({_device.unavailable_reason('cuda')}). "
                                "Use porta.try_gpu() or porta.cuda.is_available() to fall back to another device")
    return dev

