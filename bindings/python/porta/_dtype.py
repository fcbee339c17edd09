"""Element types: porta.float32, porta.int64, ... as objects like torch.float32."""
from ._abi import kDLBfloat, kDLBool, kDLFloat, kDLInt, kDLUInt
from ._lib import DLDataType


class dtype:
    """One of Porta's ten element types (a DLPack DLDataType underneath). bfloat16's NumPy type comes from
    ml_dtypes (NumPy has none); the others are NumPy's."""

    __slots__ = ("name", "code", "bits", "itemsize", "is_floating_point", "is_signed", "dl", "numpy_name")

    def __init__(self, name, code, bits, numpy_name):
        self.name = name
        self.code, self.bits, self.itemsize = code, bits, bits // 8
        self.is_floating_point = code in (kDLFloat, kDLBfloat)
        self.is_signed = code in (kDLInt, kDLFloat, kDLBfloat)
        self.dl = DLDataType(code, bits, 1)
        self.numpy_name = numpy_name

    def __repr__(self):
        return "porta." + self.name

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def is_complex(self):
        """Always False: Porta has no complex dtypes."""
        return False

    def to_real(self):
        """This dtype: every Porta dtype is real (PyTorch's maps complex to real and keeps the others)."""
        return self

    def to_complex(self):
        """Refused: Porta has no complex dtypes."""
        raise NotImplementedError(f"{self!r}.to_complex(): Porta has no complex dtypes")


float32 = dtype("float32", kDLFloat, 32, "float32")
float64 = dtype("float64", kDLFloat, 64, "float64")
int32 = dtype("int32", kDLInt, 32, "int32")
int64 = dtype("int64", kDLInt, 64, "int64")
uint8 = dtype("uint8", kDLUInt, 8, "uint8")
bool_ = dtype("bool", kDLBool, 8, "bool")
int8 = dtype("int8", kDLInt, 8, "int8")
int16 = dtype("int16", kDLInt, 16, "int16")
float16 = dtype("float16", kDLFloat, 16, "float16")
bfloat16 = dtype("bfloat16", kDLBfloat, 16, "bfloat16")

ALL = (float32, float64, int32, int64, uint8, bool_, int8, int16, float16, bfloat16)
_BY_CODE = {(d.code, d.bits): d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_ALIASES = {"float": float32, "double": float64, "int": int32, "long": int64, "byte": uint8, "half": float16,
            "short": int16, "char": int8}
_BY_NUMPY = {d.numpy_name: d for d in ALL}
SUPPORTED = ", ".join(d.name for d in ALL)


def _by_name(name):
    return _BY_NAME[name]


def from_dl(dl):
    """The dtype of a DLDataType (code, bits)."""
    d = _BY_CODE.get((dl.code, dl.bits))
    if d is None or dl.lanes != 1:
        raise TypeError(f"Porta has no dtype for DLPack (code={dl.code}, bits={dl.bits}, lanes={dl.lanes}); "
                        f"supported: {SUPPORTED}")
    return d


def from_numpy(np_dtype):
    """The dtype matching a NumPy dtype, or TypeError naming what Porta supports."""
    d = _BY_NUMPY.get(np_dtype.name)
    if d is None:
        raise TypeError(f"can't convert a NumPy array of dtype {np_dtype.name}: Porta supports {SUPPORTED}; "
                        f"convert it first, e.g. array.astype('float32')")
    return d


def resolve(value):
    """The porta dtype a dtype= argument names: a porta dtype, or Python's float (float64, as PyTorch), int
    (int64) or bool. A name or a NumPy type is refused with TypeError, as PyTorch refuses it (by_name reads names)."""
    if value.__class__ is dtype:
        return value
    if value is float:  # Python's float is a double: PyTorch's dtype=float is float64
        return float64
    if value is int:
        return int64
    if value is bool:
        return bool_
    hint = ""
    try:
        hint = f"; use porta.{by_name(value).name}"
    except TypeError:
        pass
    raise TypeError(f"dtype must be a porta.dtype, not {type(value).__name__} {value!r}{hint} (Porta supports "
                    f"{SUPPORTED})")


def by_name(value):
    """A porta dtype from its name ('float32', 'float', 'long') or a NumPy type, for Porta's own readers."""
    if value.__class__ is dtype:
        return value
    if isinstance(value, str):
        d = _BY_NAME.get(value) or _ALIASES.get(value)
        if d is not None:
            return d
    else:
        name = getattr(value, "name", None) or getattr(getattr(value, "dtype", None), "name", None)
        if name is None and isinstance(value, type):
            name = value.__name__
        name = {"bool_": "bool"}.get(name, name)
        if name in _BY_NAME:
            return _BY_NAME[name]
    raise TypeError(f"unsupported dtype {value!r}: Porta supports {SUPPORTED}")


# torch.Tensor.type() names ("torch.FloatTensor").
TENSOR_TYPE_NAMES = {float32: "FloatTensor", float64: "DoubleTensor", int32: "IntTensor", int64: "LongTensor",
                     uint8: "ByteTensor", bool_: "BoolTensor", int8: "CharTensor", int16: "ShortTensor",
                     float16: "HalfTensor", bfloat16: "BFloat16Tensor"}
_BY_TENSOR_TYPE_NAME = {v: k for k, v in TENSOR_TYPE_NAMES.items()}


def from_tensor_type_name(name):
    """The dtype of 'torch.FloatTensor', 'FloatTensor', ...; a CUDA name ('torch.cuda.FloatTensor') is refused,
    as it would move the tensor too."""
    d = _BY_TENSOR_TYPE_NAME.get(name.rsplit(".", 1)[-1])
    if d is None:
        raise TypeError(f"unsupported tensor type name {name!r}: Porta has " +
                        ", ".join(f"torch.{v}" for v in TENSOR_TYPE_NAMES.values()))
    if ".cuda." in name:
        raise NotImplementedError(f"type({name!r}): a CUDA type name would move the tensor; Porta casts with "
                                  "type() only: use .to('cuda', dtype) instead")
    return d
