"""What a case is made of: tensor specs (dtype, shape, values, layout), the other
argument kinds a call can take (dtypes, devices, NumPy scalars), and the Case.

A case names the public name it covers ("torch.add", "Tensor.add_", "F.relu",
"nn.Linear", ...) and its arguments as specs, so the same case runs through
PyTorch (recording the answers) and through Porta (replaying them) from one
description; its id is its readable text, which the differences table
(docs/differences-from-pytorch.md) matches by pattern.
"""
from dataclasses import dataclass, field

FLOATS = ("float32", "float64", "float16", "bfloat16")
INTS = ("int8", "int16", "int32", "int64", "uint8")
DTYPES = FLOATS + INTS + ("bool",)
SHORT = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int8": "i8", "int16": "i16",
         "int32": "i32", "int64": "i64", "uint8": "u8", "bool": "b"}


@dataclass(frozen=True)
class T:
    """A tensor argument.

    values: "random" (normal floats rounded to the dtype; small integers; random bools), "special"
    (NaN, +-inf, -0.0, extremes, tiled to the shape), "grid" (multiples of 1/4 with ties), "positive",
    "unit" (inside (-1, 1)), "index:N" (int64 in [0, N)), "neg_index:N" (in [-N, N)), or an explicit tuple.
    layout: "contiguous", "transposed" (a transposed view of the last two dims), "stepped" (every other
    element of a wider tensor), "expanded" (a size-1 first dim expanded).
    grad: a leaf that requires grad; its gradient is compared.
    """
    dtype: str
    shape: tuple
    values: object = "random"
    layout: str = "contiguous"
    grad: bool = False

    def __repr__(self):
        text = f"{SHORT[self.dtype]}[{','.join(map(str, self.shape))}]"
        if self.values != "random":
            text += ":" + (self.values if isinstance(self.values, str) else ",".join(map(repr, self.values)))
        if self.layout != "contiguous":
            text += "^" + self.layout
        return text + ("*" if self.grad else "")


@dataclass(frozen=True)
class D:
    """A dtype argument (dtype=..., .to(dtype))."""
    name: str

    def __repr__(self):
        return SHORT[self.name]


@dataclass(frozen=True)
class Dev:
    """The device the case runs on (device=...)."""

    def __repr__(self):
        return "device"


@dataclass(frozen=True)
class NP:
    """A NumPy scalar (np.float64(1.5)) or array argument."""
    dtype: str
    value: object

    def __repr__(self):
        return f"np.{self.dtype}({self.value!r})"


@dataclass(frozen=True)
class Seq:
    """A list or tuple of arguments (torch.cat's tensors, a shape)."""
    items: tuple
    kind: str = "list"

    def __repr__(self):
        inner = ", ".join(map(repr, self.items))
        return f"[{inner}]" if self.kind == "list" else f"({inner}{',' if len(self.items) == 1 else ''})"


@dataclass
class Case:
    """One call and what to compare.

    name:     the public name it covers: "torch.X", "Tensor.X" (a method, or an attribute when attr), "F.X",
              "nn.X" (a module class), "optim.X", "lr_scheduler.X", "amp.X", "linalg.X".
    args, kwargs: specs and plain Python values.
    program:  fn(L, device, *args, **kwargs) for calls that are more than one call (a module's forward and
              backward, an optimizer's steps); None: the name is called.
    grad:     backward through the result with seeded cotangents, and compare every grad leaf's gradient.
    mutates:  compare the tensor arguments after the call too (in-place forms, out=).
    random:   the values are a random draw: compare dtype, shape, device, requires_grad only.
    exact:    values must be equal, not close (ops that move values).
    host:     the result lives on the CPU whatever the device (Tensor.cpu, tolist).
    cpu_only: PyTorch's answer holds for the CPU only (autocast, whose op lists differ by device type): the
              replay on another device leaves the case out.
    tag:      distinguishes cases whose arguments print alike.
    """
    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    program: object = None
    grad: bool = False
    mutates: bool = False
    random: bool = False
    exact: bool = False
    host: bool = False
    cpu_only: bool = False
    attr: bool = False
    tol: float = 1.0
    tag: str = ""

    @property
    def id(self):
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        text = f"{self.name}({', '.join(parts)})" if not self.attr else f"{self.name}[{', '.join(parts)}]"
        if self.tag:
            text += " #" + self.tag
        return text + (" grad" if self.grad else "")

    @property
    def form(self):
        """The call form, for counting what is missing: the name, each argument's kind (a tensor by its dtype),
        and the keyword names."""
        def kind(a):
            if isinstance(a, T):
                return SHORT[a.dtype]
            if isinstance(a, Seq):
                return "[" + ",".join(sorted({kind(i) for i in a.items})) + "]"
            return type(a).__name__
        parts = [kind(a) for a in self.args] + [f"{k}=" for k in sorted(self.kwargs)]
        return f"{self.name}({', '.join(parts)})" + (" grad" if self.grad else "")
