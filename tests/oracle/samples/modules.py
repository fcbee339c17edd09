"""torch.nn's module classes: each layer's forward and backward with seeded parameters (programs.module_program:
the output, every parameter's gradient, the inputs' gradients and the buffers), in every dtype, in train and
eval mode, with each constructor argument that changes what it computes; what a user sees of a module besides
its output (parameter names and shapes, repr, the initialization's distribution); the containers and base
classes (Module, Sequential, ModuleList, ModuleDict, Parameter, ParameterList, ParameterDict, RNNBase,
RNNCellBase) as small programs; and module classes that real programs use which Porta may lack.

A module case is named "nn.<Class>", takes the forward's inputs as its arguments and keyword arguments, and
carries the constructor's arguments in its tag ("#Conv2d(3, 4, 3, stride=2)"; " eval" when it runs in eval
mode). Helpers beyond samples/programs.py (written here): `Seeded` (a seeded tensor given to a constructor,
e.g. a loss's class weights), `_prog` (module_program's variant for inputs nested in tuples, one input used
several times, custom calls and several steps) and the structure / repr / init programs.
"""
import math
from dataclasses import dataclass

from spec import DTYPES, SHORT, Case, D, Seq, T

from .common import LAYOUTS, SHAPES_0
from .programs import backward, module_program, seeded, set_parameters

GRAD_FLOATS = ("float32", "float64")
LOW = ("float16", "bfloat16")


@dataclass(frozen=True)
class Seeded:
    """A tensor argument of a constructor (a loss's weight, pos_weight, Embedding's _weight): seeded values."""
    dtype: str
    shape: tuple
    kind: str = "positive"

    def __repr__(self):
        return f"w:{SHORT[self.dtype]}[{','.join(map(str, self.shape))}]" + (
            "" if self.kind == "positive" else f":{self.kind}")


@dataclass(frozen=True)
class Fn:
    """A function of nn.functional given to a constructor (activation=F.gelu)."""
    name: str

    def __repr__(self):
        return f"F.{self.name}"


def _val(L, v):
    if isinstance(v, D):
        return getattr(L, v.name)
    if isinstance(v, Seeded):
        return seeded(L, "cpu", v.shape, v.dtype, v.kind, seed="ctor")
    if isinstance(v, Fn):
        return getattr(L.nn.functional, v.name)
    if isinstance(v, tuple):
        return tuple(_val(L, i) for i in v)
    if isinstance(v, list):
        return [_val(L, i) for i in v]
    if isinstance(v, dict):
        return {k: _val(L, i) for k, i in v.items()}
    return v


def _text(cls, args, kwargs):
    return f"{cls}({', '.join([repr(a) for a in args] + [f'{k}={v!r}' for k, v in kwargs.items()])})"


def builder(cls, args=(), kwargs=None):
    kwargs = kwargs or {}
    return lambda L: getattr(L.nn, cls)(*_val(L, args), **_val(L, kwargs))


def _mode_tag(train, tag):
    return ("" if train else " eval") + (f" {tag}" if tag else "")


# Layers whose output and parameter gradients are sums of many rounded products (matmuls, convolutions,
# recurrences, normalization statistics, interpolation): compared within 10x torch.testing's float32/float64
# tolerances (summation order), 4x in float16/bfloat16 (where PyTorch accumulates in float32 and rounds once,
# another order or one more rounding is a few ulps). Elementwise modules keep the default tolerance.
COMPOSITE = {"Linear", "Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "MultiheadAttention",
             "TransformerEncoderLayer", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell", "BatchNorm1d",
             "BatchNorm2d", "LayerNorm", "GroupNorm", "Upsample", "UpsamplingBilinear2d", "AdaptiveAvgPool2d",
             "AvgPool2d", "TransformerDecoderLayer", "Transformer", "TransformerEncoder", "TransformerDecoder",
             "Bilinear", "Conv3d", "ConvTranspose3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
             "BatchNorm3d", "RMSNorm", "EmbeddingBag"}


def _dtypes(x, out):
    if isinstance(x, T):
        out.add(x.dtype)
    elif isinstance(x, D):
        out.add(x.name)
    elif isinstance(x, Seq):
        for i in x.items:
            _dtypes(i, out)
    elif isinstance(x, (tuple, list)):
        for i in x:
            _dtypes(i, out)
    elif isinstance(x, dict):
        for i in x.values():
            _dtypes(i, out)
    return out


def _tol(cls, *specs):
    if cls not in COMPOSITE:
        return 1.0
    return 4.0 if _dtypes(specs, set()) & set(LOW) else 10.0


def mod(cls, ctor, inputs, fwd=None, train=True, grads=True, tag="", **case_kw):
    """A case of module `cls` built with ctor = (args, kwargs), called on `inputs` (and `fwd` keywords)."""
    args, kwargs = ctor
    return Case(f"nn.{cls}", tuple(inputs), dict(fwd or {}), program=module_program(builder(cls, args, kwargs),
                                                                                      train=train, grads=grads),
                tag=_text(cls, args, kwargs) + _mode_tag(train, tag), tol=_tol(cls, inputs, fwd, kwargs), **case_kw)


def _flat(x, L, out):
    if isinstance(x, L.Tensor):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for i in x:
            _flat(i, L, out)
    elif isinstance(x, dict):
        for i in x.values():
            _flat(i, L, out)
    return out


def _prog(build, train=True, grads=True, call=None, steps=1, no_grad=False):
    """module_program's variant: call(m, *inputs, **kwargs) (default m(*inputs, **kwargs)), `steps` times (the
    outputs of every step returned), under no_grad when asked; the gradients of every leaf tensor among the
    inputs, nested ones too (an LSTM's (h0, c0))."""
    def program(L, device, *inputs, **kwargs):
        m = set_parameters(L, build(L).to(device), device)
        m.train(train)
        fn = call or (lambda mm, *a, **k: mm(*a, **k))
        if no_grad:
            with L.no_grad():
                outs = [fn(m, *inputs, **kwargs) for _ in range(steps)]
        else:
            outs = [fn(m, *inputs, **kwargs) for _ in range(steps)]
        out = outs[0] if steps == 1 else outs
        result = {"out": out}
        if grads and not no_grad:
            backward(L, device, out)
            result["grads"] = {n: p.grad for n, p in sorted(m.named_parameters())}
            result["input_grads"] = [t.grad for t in _flat(list(inputs) + list(kwargs.values()), L, [])
                                     if t.is_leaf]
        result["buffers"] = {n: b for n, b in sorted(m.named_buffers())}
        return result
    return program


def pmod(cls, ctor, inputs, fwd=None, train=True, tag="", **prog_kw):
    """A case of module `cls` run by _prog (see there)."""
    args, kwargs = ctor
    random = prog_kw.pop("random", False)
    mutates = prog_kw.pop("mutates", False)
    return Case(f"nn.{cls}", tuple(inputs), dict(fwd or {}), program=_prog(builder(cls, args, kwargs), train=train,
                                                                            **prog_kw),
                tag=_text(cls, args, kwargs) + _mode_tag(train, tag), random=random, mutates=mutates,
                tol=_tol(cls, inputs, fwd, kwargs))


def _structure_program(build):
    """What a user sees of a freshly built module besides its values."""
    def program(L, device):
        m = build(L).to(device)
        return {"parameters": [[n, list(p.shape), str(p.dtype).split(".")[-1], p.requires_grad]
                               for n, p in m.named_parameters()],
                "buffers": [[n, list(b.shape), str(b.dtype).split(".")[-1]] for n, b in m.named_buffers()],
                "state_dict": list(m.state_dict().keys()),
                "modules": [n for n, _ in m.named_modules()],
                "training": m.training}
    return program


def _repr_program(build):
    return lambda L, device: repr(build(L)).replace("porta.", "torch.")


def structure(cls, args=(), kwargs=None):
    kwargs = kwargs or {}
    text = _text(cls, args, kwargs)
    yield Case(f"nn.{cls}", (), program=_structure_program(builder(cls, args, kwargs)), tag=text + " structure")
    yield Case(f"nn.{cls}", (), program=_repr_program(builder(cls, args, kwargs)), tag=text + " repr")


# ---------------------------------------------------------------- sweeps


def with_dtype(ctor, dtype):
    args, kwargs = ctor
    return args, dict(kwargs, dtype=D(dtype))


def layer_sweep(cls, ctor, shape, zero=None, extra_shapes=(), eval_too=True):
    """A layer with parameters: inputs of every dtype against a float32 layer; the layer built in each float
    dtype with a matching input (gradients too); gradients at ordinary, special and grid values; the layouts;
    a 0-size batch; other input ranks; eval mode."""
    for d in DTYPES:
        yield mod(cls, ctor, (T(d, shape),))
    for d in ("float64",) + LOW:
        yield mod(cls, with_dtype(ctor, d), (T(d, shape, grad=True),))
    yield mod(cls, ctor, (T("float32", shape, grad=True),))
    yield mod(cls, ctor, (T("float32", shape, "special"),))
    yield mod(cls, with_dtype(ctor, "float64"), (T("float64", shape, "grid", grad=True),))
    for lay in LAYOUTS:
        yield mod(cls, ctor, (T("float32", shape, layout=lay, grad=lay != "expanded"),))
    if zero is not None:
        yield mod(cls, ctor, (T("float32", zero, grad=True),))
    for s in extra_shapes:
        yield mod(cls, ctor, (T("float32", s, grad=True),))
    if eval_too:
        yield mod(cls, ctor, (T("float32", shape, grad=True),), train=False)


def act_sweep(cls, ctor, inplace=False, shape=(2, 3)):
    """A parameterless elementwise module: every dtype, special values, gradients at grid points (ties, kinks)
    and special values, 0-d and 0-size inputs, the layouts, and the inplace form."""
    for d in DTYPES:
        yield mod(cls, ctor, (T(d, shape),))
        yield mod(cls, ctor, (T(d, (12,), "special"),))
    for d in GRAD_FLOATS:
        yield mod(cls, ctor, (T(d, shape, grad=True),))
        yield mod(cls, ctor, (T(d, (4, 4), "grid", grad=True),))
        yield mod(cls, ctor, (T(d, (12,), "special", grad=True),))
    for d in LOW:
        yield mod(cls, ctor, (T(d, (3, 4), "grid", grad=True),))
    for s in SHAPES_0:
        yield mod(cls, ctor, (T("float32", s, grad=True),))
    for lay in LAYOUTS:
        yield mod(cls, ctor, (T("float32", (3, 4), layout=lay),))
    yield mod(cls, ctor, (T("float32", shape, grad=True),), train=False)
    if inplace:
        args, kwargs = ctor
        ip = (args, dict(kwargs, inplace=True))
        for d in ("float32", "float64", "float16", "int64", "bool"):
            yield mod(cls, ip, (T(d, shape),), grads=False, mutates=True)
        yield mod(cls, ip, (T("float32", (12,), "special"),), grads=False, mutates=True)
        yield mod(cls, ip, (T("float32", (3, 4), layout="transposed"),), grads=False, mutates=True)
        yield mod(cls, ip, (T("float32", (3, 4), layout="expanded"),), grads=False, mutates=True)
        # on a leaf that requires grad: PyTorch refuses
        yield mod(cls, ip, (T("float32", shape, grad=True),), mutates=True, tag="leaf")
        # on a non-leaf: recorded by autograd
        yield pmod(cls, ip, (T("float32", (4, 4), "grid", grad=True),), call=lambda m, x: m(x * 1),
                   tag="non-leaf")


def activations():
    yield from act_sweep("ReLU", ((), {}), inplace=True)
    yield from act_sweep("ReLU6", ((), {}), inplace=True)
    yield from act_sweep("SiLU", ((), {}), inplace=True)
    yield from act_sweep("Sigmoid", ((), {}))
    yield from act_sweep("Tanh", ((), {}))
    yield from act_sweep("LogSigmoid", ((), {}))
    yield from act_sweep("GELU", ((), {}))
    yield from act_sweep("GELU", ((), {"approximate": "tanh"}))
    yield mod("GELU", ((), {"approximate": "sigmoid"}), (T("float32", (3,)),), tag="bad")
    yield mod("GELU", (("tanh",), {}), (T("float32", (2, 3), grad=True),))
    yield from act_sweep("ELU", ((), {}), inplace=True)
    for alpha in (0.5, 2.0, 0.0, -1.0):
        yield from _few("ELU", ((), {"alpha": alpha}))
    yield pmod("ELU", ((), {"alpha": 2.0, "inplace": True}), (T("float32", (4, 4), "grid", grad=True),),
               call=lambda m, x: m(x * 1), tag="non-leaf")
    yield from act_sweep("LeakyReLU", ((), {}), inplace=True)
    for slope in (0.2, 0.0, -0.5, 1.0, 2.0):
        yield from _few("LeakyReLU", ((), {"negative_slope": slope}))
    yield from _few("LeakyReLU", ((0.3,), {}))
    yield from act_sweep("Hardtanh", ((), {}), inplace=True)
    for lo, hi in ((-0.5, 0.5), (0.0, 6.0), (-2, 2), (1.0, 1.0), (0.5, -0.5)):
        yield from _few("Hardtanh", ((lo, hi), {}))
    yield from _few("Hardtanh", ((), {"min_val": -0.25, "max_val": 0.75}))
    yield from act_sweep("Softplus", ((), {}))
    for beta, th in ((2.0, 20.0), (0.5, 1.0), (1.0, 0.5), (-1.0, 20.0), (3, 2)):
        yield from _few("Softplus", ((), {"beta": beta, "threshold": th}))
    # Identity: every dtype, its ignored arguments, and that it returns its input
    for d in DTYPES:
        yield mod("Identity", ((), {}), (T(d, (2, 3)),))
    for s in SHAPES_0:
        yield mod("Identity", ((), {}), (T("float32", s, grad=True),))
    yield mod("Identity", ((54,), {"unused_argument1": 0.1, "unused_argument2": False}),
              (T("float32", (2, 3), grad=True),))
    yield mod("Identity", ((), {}), (T("float32", (3, 4), layout="transposed"),))
    yield Case("nn.Identity", (T("float32", (2, 3)),), program=lambda L, device, x: L.nn.Identity()(x) is x,
               tag="returns its input")


def _few(cls, ctor):
    """A few cases of an elementwise module's non-default arguments."""
    yield mod(cls, ctor, (T("float32", (12,), "special"),))
    yield mod(cls, ctor, (T("float64", (4, 4), "grid", grad=True),))
    yield mod(cls, ctor, (T("float32", (2, 3), grad=True),))
    yield mod(cls, ctor, (T("int64", (2, 3)),))


def softmaxes():
    for cls in ("Softmax", "LogSoftmax"):
        for d in DTYPES:
            yield mod(cls, ((), {"dim": -1}), (T(d, (2, 3)),))
        for dim in (0, 1, -1, -2, 2):
            yield mod(cls, ((), {"dim": dim}), (T("float32", (2, 3), grad=True),))
        yield mod(cls, ((1,), {}), (T("float64", (3, 4), "grid", grad=True),))
        for d in GRAD_FLOATS + LOW:
            yield mod(cls, ((), {"dim": 1}), (T(d, (3, 4), "special", grad=d in GRAD_FLOATS),))
        yield mod(cls, ((), {"dim": -1}), (T("float32", (2, 3, 4), "grid", grad=True),))
        # dim=None: PyTorch's implicit choice (0 for 0-, 1- and 3-d inputs, else 1)
        for shape in ((), (4,), (2, 3), (2, 3, 4), (2, 2, 2, 2)):
            yield mod(cls, ((), {}), (T("float32", shape, grad=True),))
        for s in SHAPES_0:
            yield mod(cls, ((), {"dim": -1}), (T("float32", s, grad=True),))
        for lay in LAYOUTS:
            yield mod(cls, ((), {"dim": 0}), (T("float32", (3, 4), layout=lay),))
        yield mod(cls, ((), {"dim": 0}), (T("float32", (3, 4), values=(-math.inf,) * 3 + (0.0,) * 9, grad=True),),
                  tag="a row of -inf")
        yield mod(cls, ((), {"dim": -1}), (T("float32", (2, 3), grad=True),), train=False)


def linears():
    ctor = ((3, 4), {})
    yield from layer_sweep("Linear", ctor, (2, 3), zero=(0, 3), extra_shapes=((3,), (2, 5, 3), (2, 1, 2, 3)))
    yield from layer_sweep("Linear", ((3, 4), {"bias": False}), (2, 3), eval_too=False)
    yield mod("Linear", ((3, 4), {"bias": False}), (T("float32", (3,), grad=True),))
    yield mod("Linear", ((3, 1), {}), (T("float32", (5, 3), grad=True),))
    yield mod("Linear", ((1, 3), {}), (T("float32", (5, 1), grad=True),))
    yield mod("Linear", ((0, 3), {}), (T("float32", (2, 0), grad=True),))
    yield mod("Linear", ((3, 0), {}), (T("float32", (2, 3), grad=True),))
    yield mod("Linear", ((3, 4), {}), (T("float32", (2, 5)),), tag="wrong in_features")
    yield mod("Linear", ((3, 4), {}), (T("float32", ()),), tag="0-d")
    yield mod("Linear", ((3, 4), {}), (T("float64", (2, 3), grad=True),), tag="float64 input")
    yield Case("nn.Linear", (T("float32", (2, 3), grad=True),),
               program=_prog(lambda L: L.nn.Linear(3, 4).double()), tag="Linear(3, 4).double()")
    yield Case("nn.Linear", (T("float16", (2, 3), grad=True),),
               program=_prog(lambda L: L.nn.Linear(3, 4).half()), tag="Linear(3, 4).half()")
    yield Case("nn.Linear", (T("float64", (2, 3), grad=True),),
               program=_prog(lambda L: L.nn.Linear(3, 4).to(L.float64)), tag="Linear(3, 4).to(f64)")
    yield Case("nn.Linear", (T("float32", (2, 3), grad=True),),
               program=_prog(lambda L: L.nn.Linear(3, 4).to(dtype=L.bfloat16)), tag="Linear(3, 4).to(dtype=bf16)")
    yield Case("nn.Linear", (), program=lambda L, device: L.nn.Linear(3, 4).to(L.int64), tag="to(i64)")
    yield mod("Linear", ((3, 4), {"dtype": D("int64")}), (T("int64", (2, 3)),), grads=False)
    yield mod("Linear", ((3, 4), {"device": "cpu"}), (T("float32", (2, 3), grad=True),))
    yield mod("Linear", ((), {"in_features": 3, "out_features": 4, "bias": True}), (T("float32", (2, 3), grad=True),))
    yield mod("Linear", ((3, 4), {}), (T("float32", (2, 3), grad=True),), grads=False, tag="no backward")
    for args, kwargs in (((3, 4), {}), ((3, 4), {"bias": False}), ((0, 3), {}), ((3, 4), {"dtype": D("float64")})):
        yield from structure("Linear", args, kwargs)


CONV2D = (
    ((3, 4, 3), {}),
    ((3, 4, (2, 3)), {}),
    ((3, 4, 3), {"stride": 2}),
    ((3, 4, 3), {"stride": (2, 1)}),
    ((3, 4, 3), {"padding": 1}),
    ((3, 4, 3), {"padding": (1, 2)}),
    ((3, 4, 3), {"padding": "same"}),
    ((3, 4, (2, 4)), {"padding": "same"}),
    ((3, 4, 3), {"padding": "same", "dilation": 2}),
    ((3, 4, 3), {"padding": "valid"}),
    ((3, 4, 2), {"dilation": 2}),
    ((3, 4, 3), {"dilation": (1, 2), "padding": 2}),
    ((4, 6, 3), {"groups": 2}),
    ((4, 4, 3), {"groups": 4, "padding": 1}),
    ((2, 6, 1), {"groups": 2}),
    ((3, 4, 3), {"bias": False}),
    ((3, 4, 3), {"padding": 1, "padding_mode": "reflect"}),
    ((3, 4, 3), {"padding": 1, "padding_mode": "replicate"}),
    ((3, 4, 3), {"padding": (1, 2), "padding_mode": "circular"}),
    ((3, 4, 3), {"padding": 2, "padding_mode": "zeros", "stride": 2, "dilation": 2}),
    ((3, 4, 3), {"padding": "same", "padding_mode": "reflect"}),
    ((3, 4, 3), {"padding": "same", "padding_mode": "circular"}),
    ((3, 4, 3), {"stride": 2, "padding": "same"}),
    ((3, 4, 5), {}),
)
CONV1D = (
    ((3, 4, 3), {}),
    ((3, 4, 3), {"stride": 2}),
    ((3, 4, 3), {"padding": 2}),
    ((3, 4, 3), {"padding": "same"}),
    ((3, 4, 4), {"padding": "same"}),
    ((3, 4, 3), {"padding": "valid"}),
    ((3, 4, 2), {"dilation": 3}),
    ((4, 6, 3), {"groups": 2}),
    ((4, 4, 3), {"groups": 4}),
    ((3, 4, 3), {"bias": False}),
    ((3, 4, 3), {"padding": 2, "padding_mode": "reflect"}),
    ((3, 4, 3), {"padding": 1, "padding_mode": "replicate"}),
    ((3, 4, 3), {"padding": 2, "padding_mode": "circular"}),
    ((3, 4, 3), {"padding": "same", "padding_mode": "reflect"}),
    ((3, 4, (3,)), {"stride": (2,), "padding": (1,)}),
    ((3, 4, 6), {}),
)


def convs():
    for cls, configs, shape, unbatched in (("Conv2d", CONV2D, (2, 3, 5, 6), (3, 5, 6)),
                                            ("Conv1d", CONV1D, (2, 3, 7), (3, 7))):
        base = configs[0]
        yield from layer_sweep(cls, base, shape, zero=(0,) + shape[1:], extra_shapes=(unbatched,))
        for args, kwargs in configs[1:]:
            inp = shape if args[0] == 3 else (2, args[0]) + shape[2:]
            yield mod(cls, (args, kwargs), (T("float32", inp, grad=True),))
            yield mod(cls, with_dtype((args, kwargs), "float64"), (T("float64", inp, "grid", grad=True),))
        for args, kwargs in configs:
            yield from structure(cls, args, kwargs)
        yield mod(cls, base, (T("float32", (2, 4) + shape[2:]),), tag="wrong channels")
        yield mod(cls, base, (T("float32", shape[:2] + (2,) * (len(shape) - 2)),), tag="input smaller than kernel")
        yield mod(cls, base, (T("float32", (1,) + shape),), tag="too many dims")
        yield mod(cls, ((4, 6, 3), {"groups": 4}), (T("float32", shape),), tag="bad groups")
        yield mod(cls, ((3, 4, 3), {"padding_mode": "mirror"}), (T("float32", shape),))
        yield mod(cls, ((3, 4, 3), {"padding": "full"}), (T("float32", shape),))
        yield mod(cls, ((3, 4, 3), {"padding": 5, "padding_mode": "reflect"}), (T("float32", shape),),
                  tag="reflect past the edge")
        yield mod(cls, base, (T("float32", shape, "special", grad=True),), tag="special grads")
        yield mod(cls, ((3, 4, 3), {"padding": 1, "padding_mode": "circular"}), (T("float32", unbatched,
                                                                                      grad=True),))


TCONV2D = (
    ((3, 4, 3), {}),
    ((3, 4, 3), {"stride": 2}),
    ((3, 4, 3), {"stride": 2, "output_padding": 1}),
    ((3, 4, 3), {"stride": (2, 3), "output_padding": (1, 2)}),
    ((3, 4, 3), {"padding": 1}),
    ((3, 4, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
    ((3, 4, 2), {"dilation": 2}),
    ((3, 4, 2), {"dilation": 2, "stride": 3, "output_padding": 2}),
    ((4, 6, 3), {"groups": 2}),
    ((4, 4, 3), {"groups": 4, "stride": 2}),
    ((3, 4, 3), {"bias": False}),
    ((3, 4, (2, 3)), {"stride": (1, 2)}),
)
TCONV1D = (
    ((3, 4, 3), {}),
    ((3, 4, 3), {"stride": 2}),
    ((3, 4, 3), {"stride": 3, "output_padding": 2}),
    ((3, 4, 3), {"padding": 1}),
    ((3, 4, 2), {"dilation": 3}),
    ((4, 6, 3), {"groups": 2}),
    ((3, 4, 3), {"bias": False}),
    ((3, 4, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
)


def conv_transposes():
    for cls, configs, shape, unbatched in (("ConvTranspose2d", TCONV2D, (2, 3, 4, 3), (3, 4, 3)),
                                            ("ConvTranspose1d", TCONV1D, (2, 3, 5), (3, 5))):
        base = configs[0]
        yield from layer_sweep(cls, base, shape, zero=(0,) + shape[1:], extra_shapes=(unbatched,))
        for args, kwargs in configs[1:]:
            inp = shape if args[0] == 3 else (2, args[0]) + shape[2:]
            yield mod(cls, (args, kwargs), (T("float32", inp, grad=True),))
            yield mod(cls, with_dtype((args, kwargs), "float64"), (T("float64", inp, "grid", grad=True),))
        for args, kwargs in configs:
            yield from structure(cls, args, kwargs)
        dims = len(shape) - 2
        stride2 = ((3, 4, 3), {"stride": 2})
        least = [(n - 1) * 2 + 3 for n in shape[2:]]
        for extra in (0, 1, 2):
            size = [n + extra for n in least]
            yield mod(cls, stride2, (T("float32", shape, grad=True),), {"output_size": size})
        yield mod(cls, stride2, (T("float32", shape, grad=True),), {"output_size": [2, 3] + least})
        yield mod(cls, stride2, (T("float32", shape, grad=True),), {"output_size": tuple(least)})
        yield mod(cls, ((3, 4, 3), {"stride": 1, "output_padding": 1}), (T("float32", shape),),
                  tag="output_padding not below stride")
        yield mod(cls, ((3, 4, 3), {"padding_mode": "reflect"}), (T("float32", shape),))
        yield mod(cls, base, (T("float32", (2, 4) + shape[2:]),), tag="wrong channels")
        yield mod(cls, ((3, 4, 3), {"padding": 3}), (T("float32", shape),), tag="negative output size")
        if dims == 2:
            yield mod(cls, stride2, (T("float32", unbatched, grad=True),), {"output_size": least})


def pools():
    x = (2, 3, 5, 6)
    for cls, configs in (
            ("MaxPool2d", (((2,), {}), ((3,), {"stride": 1}), ((3,), {"stride": 2, "padding": 1}),
                           (((2, 3),), {"stride": (1, 2)}), ((2,), {"dilation": 2}),
                           ((2,), {"stride": 2, "ceil_mode": True}), ((3,), {"stride": 2, "padding": 1,
                                                                              "ceil_mode": True}),
                           ((2,), {"stride": None}), ((1,), {}))),
            ("AvgPool2d", (((2,), {}), ((3,), {"stride": 1}), ((3,), {"stride": 2, "padding": 1}),
                           ((3,), {"stride": 2, "padding": 1, "count_include_pad": False}),
                           (((2, 3),), {"stride": (1, 2)}), ((2,), {"stride": 2, "ceil_mode": True}),
                           ((3,), {"stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False}),
                           ((2,), {"divisor_override": 3}), ((1,), {})))):
        base = configs[0]
        for d in DTYPES:
            yield mod(cls, base, (T(d, x),))
        for d in GRAD_FLOATS:
            yield mod(cls, base, (T(d, x, "grid", grad=True),))
            yield mod(cls, base, (T(d, (1, 2, 4, 6), "special", grad=True),))
        for d in LOW:
            yield mod(cls, base, (T(d, x, "grid", grad=True),))
        for args, kwargs in configs[1:]:
            yield mod(cls, (args, kwargs), (T("float32", x, "grid", grad=True),))
            yield mod(cls, (args, kwargs), (T("float64", x, grad=True),))
        yield mod(cls, base, (T("float32", (3, 5, 6), grad=True),), tag="unbatched")
        yield mod(cls, base, (T("float32", (0, 3, 5, 6), grad=True),))
        yield mod(cls, base, (T("float32", (2, 3, 1, 1)),), tag="input smaller than kernel")
        yield mod(cls, base, (T("float32", (5, 6)),), tag="2-d")
        yield mod(cls, ((2,), {"padding": 2}), (T("float32", x),), tag="padding over half the kernel")
        for lay in LAYOUTS:
            yield mod(cls, base, (T("float32", x, layout=lay),))
        yield mod(cls, base, (T("float32", x, grad=True),), train=False)
        for args, kwargs in configs[:3]:
            yield from structure(cls, args, kwargs)
    yield mod("MaxPool2d", ((2,), {"return_indices": True}), (T("float32", x, "grid", grad=True),))
    yield mod("MaxPool2d", ((3,), {"stride": 1, "padding": 1}), (T("float32", x, values=(-math.inf,), grad=True),),
              tag="all -inf")
    yield mod("MaxPool2d", ((2,), {}), (T("float32", x, values=(1.0,), grad=True),), tag="all ties")
    # AdaptiveAvgPool2d
    for d in DTYPES:
        yield mod("AdaptiveAvgPool2d", ((2,), {}), (T(d, x),))
    for size in (1, 2, 3, (2, 4), (None, 2), (3, None), (5, 6), (7, 8), (4, 5), [2, 3]):
        yield mod("AdaptiveAvgPool2d", ((size,), {}), (T("float32", x, grad=True),))
    for d in GRAD_FLOATS + LOW:
        yield mod("AdaptiveAvgPool2d", ((3,), {}), (T(d, x, "grid", grad=True),))
    yield mod("AdaptiveAvgPool2d", ((2,), {}), (T("float64", (1, 2, 4, 6), "special", grad=True),))
    yield mod("AdaptiveAvgPool2d", ((2,), {}), (T("float32", (3, 5, 6), grad=True),), tag="unbatched")
    yield mod("AdaptiveAvgPool2d", ((2,), {}), (T("float32", (0, 3, 5, 6)),))
    yield mod("AdaptiveAvgPool2d", ((0,), {}), (T("float32", x),))
    yield mod("AdaptiveAvgPool2d", ((2,), {}), (T("float32", (5, 6)),), tag="2-d")
    yield mod("AdaptiveAvgPool2d", ((), {"output_size": 2}), (T("float32", x, grad=True),))
    for lay in LAYOUTS:
        yield mod("AdaptiveAvgPool2d", ((3,), {}), (T("float32", x, layout=lay),))
    for size in (2, (None, 3)):
        yield from structure("AdaptiveAvgPool2d", (size,))


PADS_1D = ("ConstantPad1d", "ReflectionPad1d", "ReplicationPad1d", "CircularPad1d")
PADS_2D = ("ConstantPad2d", "ZeroPad2d", "ReflectionPad2d", "ReplicationPad2d", "CircularPad2d")


def pads():
    for cls in PADS_1D + PADS_2D:
        two = cls.endswith("2d")
        x = (2, 3, 4, 5) if two else (2, 3, 5)
        unb = x[1:]
        const = cls.startswith("Constant")
        paddings = ((1,), ((1, 2),), ((0, 3),), ((2, 0),)) if not two else (
            (1,), ((1, 2, 0, 3),), ((2, 1, 3, 0),), ((0, 0, 1, 1),))
        neg = ((-1, 2),) if not two else ((-1, 2, 1, -1),)

        def ctor(p, value=2.5):
            return (p + (value,), {}) if const else (p, {})
        for d in DTYPES:
            yield mod(cls, ctor((2,) if two else ((1, 2),)), (T(d, x),))
        for p in paddings:
            yield mod(cls, ctor(p), (T("float32", x, grad=True),))
            yield mod(cls, ctor(p), (T("float64", unb, "grid", grad=True),), tag="unbatched")
        yield mod(cls, ctor(neg), (T("float32", x, grad=True),), tag="negative padding")
        for d in GRAD_FLOATS + LOW:
            yield mod(cls, ctor((1,)), (T(d, x, "special", grad=d in GRAD_FLOATS),))
        yield mod(cls, ctor((5,)), (T("float32", x, grad=True),), tag="padding past the size")
        yield mod(cls, ctor((1,)), (T("float32", (0,) + x[1:]),))
        yield mod(cls, ctor((1,)), (T("float32", x[:1] + (0,) + x[2:]),), tag="0 channels")
        yield mod(cls, ctor((1,)), (T("float32", x[:-1] + (0,)),), tag="0 wide")
        yield mod(cls, ctor((1,)), (T("float32", (1, 1) + x),), tag="too many dims")
        yield mod(cls, ctor((1,)), (T("float32", x[-1:]),), tag="too few dims")
        yield mod(cls, ctor(((1, 2, 3),)), (T("float32", x),), tag="odd padding")
        for lay in LAYOUTS:
            yield mod(cls, ctor((1,)), (T("float32", x, layout=lay),))
        yield mod(cls, ctor((1,)), (T("float32", x, grad=True),), train=False)
        if const:
            for v in (0, -1, float("nan"), float("inf"), True, 300, -1.5):
                yield mod(cls, ctor((1,), v), (T("int64", x),))
                yield mod(cls, ctor((1,), v), (T("float32", x),))
            yield mod(cls, ((1,), {"value": 2.0}), (T("float32", x),))
            yield mod(cls, ((1,), {}), (T("float32", x),), tag="no value")
            yield mod(cls, ctor((1,), 1.5), (T("uint8", x),))
            yield mod(cls, ctor((1,), 1), (T("bool", x),))
        for p in paddings[:2]:
            yield from structure(cls, *ctor(p))
    for d in ("float32", "int64"):
        yield mod("ZeroPad2d", (((1, 2),), {}), (T(d, (2, 3, 4, 5)),), tag="two paddings")


def upsamples():
    x4 = (1, 2, 3, 4)
    x3 = (1, 2, 5)
    x5 = (1, 1, 2, 2, 3)
    configs = (
        (x4, {"scale_factor": 2}),
        (x4, {"scale_factor": 2.0, "mode": "nearest"}),
        (x4, {"scale_factor": 1.5}),
        (x4, {"scale_factor": (2, 3)}),
        (x4, {"scale_factor": 0.5}),
        (x4, {"size": 5}),
        (x4, {"size": (5, 7)}),
        (x4, {"size": (2, 3)}),
        (x4, {"scale_factor": 2, "mode": "bilinear"}),
        (x4, {"scale_factor": 2, "mode": "bilinear", "align_corners": True}),
        (x4, {"size": (5, 7), "mode": "bilinear", "align_corners": False}),
        (x4, {"scale_factor": 1.5, "mode": "bilinear"}),
        (x4, {"scale_factor": 1.5, "mode": "bilinear", "recompute_scale_factor": True}),
        (x4, {"scale_factor": 0.6, "mode": "bilinear"}),
        (x4, {"scale_factor": 2, "mode": "bicubic"}),
        (x4, {"scale_factor": 2, "mode": "bicubic", "align_corners": True}),
        (x4, {"size": (5, 6), "mode": "nearest-exact"}),
        (x4, {"scale_factor": 1.5, "mode": "nearest-exact"}),
        (x4, {"scale_factor": 2, "mode": "area"}),
        (x4, {"size": (2, 2), "mode": "area"}),
        (x3, {"scale_factor": 2}),
        (x3, {"size": 8, "mode": "linear"}),
        (x3, {"scale_factor": 2, "mode": "linear", "align_corners": True}),
        (x3, {"scale_factor": 1.5, "mode": "nearest-exact"}),
        (x5, {"scale_factor": 2}),
        (x5, {"scale_factor": 2, "mode": "trilinear"}),
        (x4, {"scale_factor": 2, "mode": "linear"}),
        (x3, {"scale_factor": 2, "mode": "bilinear"}),
        (x4, {"scale_factor": 2, "mode": "nearest", "align_corners": True}),
        (x4, {"scale_factor": 2, "mode": "cubic"}),
        (x4, {}),
        (x4, {"size": 4, "scale_factor": 2}),
    )
    for shape, kw in configs:
        yield mod("Upsample", ((), kw), (T("float32", shape, grad=True),))
        yield mod("Upsample", ((), kw), (T("float64", shape, "grid", grad=True),))
    for d in DTYPES:
        yield mod("Upsample", ((), {"scale_factor": 2}), (T(d, x4),))
        yield mod("Upsample", ((), {"scale_factor": 2, "mode": "bilinear"}), (T(d, x4),))
    for d in LOW:
        yield mod("Upsample", ((), {"scale_factor": 2, "mode": "bilinear"}), (T(d, x4, grad=True),), tag="grad")
    yield mod("Upsample", ((), {"scale_factor": 2, "mode": "bilinear"}), (T("float64", (1, 2, 2, 6), "special",
                                                                           grad=True),))
    yield mod("Upsample", ((2,), {}), (T("float32", x4, grad=True),))
    yield mod("Upsample", ((None, 2, "bilinear"), {}), (T("float32", x4, grad=True),))
    yield mod("Upsample", ((), {"scale_factor": 2}), (T("float32", (0, 2, 3, 4)),))
    yield mod("Upsample", ((), {"scale_factor": 2}), (T("float32", (2, 3, 4)),), tag="3-d input as 1-d")
    for lay in LAYOUTS:
        yield mod("Upsample", ((), {"scale_factor": 2, "mode": "bilinear"}), (T("float32", x4, layout=lay),))
    for cls in ("UpsamplingNearest2d", "UpsamplingBilinear2d"):
        for kw in ({"scale_factor": 2}, {"size": (5, 7)}, {"size": 3}, {"scale_factor": 1.5}, {"scale_factor": 0.5},
                   {"scale_factor": (2, 3)}):
            yield mod(cls, ((), kw), (T("float32", x4, grad=True),))
            yield mod(cls, ((), kw), (T("float64", x4, "grid", grad=True),))
        for d in DTYPES:
            yield mod(cls, ((), {"scale_factor": 2}), (T(d, x4),))
        yield mod(cls, ((3,), {}), (T("float32", x4, grad=True),))
        yield mod(cls, ((), {}), (T("float32", x4),))
        yield mod(cls, ((), {"scale_factor": 2}), (T("float32", (2, 3, 4)),), tag="3-d")
        yield mod(cls, ((), {"scale_factor": 2}), (T("float32", (1, 1, 2, 2, 3)),), tag="5-d")
        yield mod(cls, ((), {"scale_factor": 2}), (T("float64", (1, 2, 2, 6), "special", grad=True),))
        for kw in ({"scale_factor": 2}, {"size": (5, 7)}):
            yield from structure(cls, (), kw)
    for kw in ({"scale_factor": 2}, {"size": (5, 7), "mode": "bilinear"}, {"scale_factor": 2.0, "mode": "bicubic",
                                                                          "align_corners": True}):
        yield from structure("Upsample", (), kw)


def _bn_steps_program(build, steps=2):
    """Train `steps` steps on the inputs in turn (a backward after each), then eval on the first: the outputs,
    the buffers after each step and at the end, and the gradients."""
    def program(L, device, *inputs):
        m = set_parameters(L, build(L).to(device), device)
        m.train()
        outs, bufs = [], []
        for i in range(steps):
            out = m(inputs[i % len(inputs)])
            backward(L, device, out)
            outs.append(out)
            bufs.append({n: b.clone() for n, b in sorted(m.named_buffers())})
        m.eval()
        return {"train": outs, "buffers": bufs, "eval": m(inputs[0]), "training": m.training,
                "grads": {n: p.grad for n, p in sorted(m.named_parameters())},
                "input_grads": [t.grad for t in inputs if t.is_leaf]}
    return program


def norms():
    for cls, shape, other in (("BatchNorm1d", (4, 3), (4, 3, 5)), ("BatchNorm2d", (2, 3, 3, 4), None)):
        base = ((3,), {})
        for d in DTYPES:
            yield mod(cls, base, (T(d, shape),))
        for d in ("float64",) + LOW:
            yield mod(cls, with_dtype(base, d), (T(d, shape, grad=True),))
            yield mod(cls, with_dtype(base, d), (T(d, shape, grad=True),), train=False)
        yield mod(cls, base, (T("float16", shape, grad=True),), tag="float16 input")
        for train in (True, False):
            yield mod(cls, base, (T("float32", shape, grad=True),), train=train)
            yield mod(cls, base, (T("float64", shape, "grid", grad=True),), train=train)
            yield mod(cls, base, (T("float32", shape, "special", grad=True),), train=train)
            for kw in ({"momentum": None}, {"affine": False}, {"track_running_stats": False}, {"momentum": 0.5},
                       {"momentum": 1.0}, {"momentum": 0.0}, {"eps": 0.1}, {"affine": False, "track_running_stats":
                                                                            False}):
                yield mod(cls, ((3,), kw), (T("float32", shape, grad=True),), train=train)
        if other:
            yield mod(cls, base, (T("float32", other, grad=True),))
            yield mod(cls, base, (T("float32", other, grad=True),), train=False)
        yield mod(cls, base, (T("float32", (1,) + shape[1:], grad=True),), tag="batch of one")
        yield mod(cls, base, (T("float32", (1,) + shape[1:], grad=True),), train=False, tag="batch of one")
        yield mod(cls, base, (T("float32", (0,) + shape[1:]),))
        yield mod(cls, base, (T("float32", (0,) + shape[1:]),), train=False)
        yield mod(cls, base, (T("float32", shape[:1] + (4,) + shape[2:]),), tag="wrong channels")
        yield mod(cls, base, (T("float32", (3,)),), tag="1-d")
        yield mod(cls, base, (T("float32", (2, 3, 3, 4, 2)),), tag="5-d")
        if cls == "BatchNorm1d":
            yield mod(cls, base, (T("float32", (2, 3, 3, 4)),), tag="4-d")
        else:
            yield mod(cls, base, (T("float32", (4, 3, 5)),), tag="3-d")
        yield mod(cls, base, (T("float32", shape, values=(2.0,), grad=True),), tag="constant input")
        for lay in LAYOUTS:
            yield mod(cls, base, (T("float32", shape, layout=lay),))
        for kw in ({}, {"momentum": None}, {"momentum": 0.5}, {"affine": False}, {"track_running_stats": False}):
            yield Case(f"nn.{cls}", (T("float32", shape, grad=True), T("float32", shape, "positive", grad=True)),
                       program=_bn_steps_program(builder(cls, (3,), kw), 3), tag=_text(cls, (3,), kw) + " 3 steps")
        for kw in ({}, {"affine": False}, {"track_running_stats": False}, {"momentum": None}):
            yield from structure(cls, (3,), kw)
        yield Case(f"nn.{cls}", (), program=lambda L, device, c=cls: {
            n: b for n, b in getattr(L.nn, c)(3).named_buffers()}, tag="initial buffers")
        yield Case(f"nn.{cls}", (), program=lambda L, device, c=cls: {
            n: p for n, p in getattr(L.nn, c)(3).named_parameters()}, tag="initial parameters")
        yield Case(f"nn.{cls}", (T("float32", shape),), program=lambda L, device, x, c=cls: _bn_reset(L, c, x),
                   tag="reset_running_stats")
    # LayerNorm
    for args, kwargs, shape in (((4,), {}, (3, 4)), (((3, 4),), {}, (2, 3, 4)), (([4],), {}, (2, 3, 4)),
                                ((4,), {"elementwise_affine": False}, (3, 4)), ((4,), {"bias": False}, (3, 4)),
                                ((4,), {"eps": 0.5}, (3, 4)), (((2, 3, 4),), {}, (2, 3, 4)),
                                ((4,), {"elementwise_affine": False, "bias": False}, (3, 4)), ((1,), {}, (3, 1)),
                                ((4,), {}, (4,))):
        yield mod("LayerNorm", (args, kwargs), (T("float32", shape, grad=True),))
        yield mod("LayerNorm", (args, kwargs), (T("float64", shape, "grid", grad=True),))
        yield from structure("LayerNorm", args, kwargs)
    yield from layer_sweep("LayerNorm", ((4,), {}), (3, 4), zero=(0, 4), eval_too=True)
    yield mod("LayerNorm", ((4,), {}), (T("float32", (3, 4), values=(1.5,), grad=True),), tag="constant rows")
    yield mod("LayerNorm", ((4,), {}), (T("float32", (3, 5)),), tag="wrong shape")
    yield mod("LayerNorm", ((4,), {}), (T("float64", (3, 4), "special", grad=True),), tag="special grads")
    yield Case("nn.LayerNorm", (), program=lambda L, device: dict(L.nn.LayerNorm(3).named_parameters()),
               tag="initial parameters")
    # GroupNorm
    for args, kwargs, shape in (((1, 4), {}, (2, 4, 3)), ((2, 4), {}, (2, 4, 3)), ((4, 4), {}, (2, 4, 3)),
                                ((2, 4), {"affine": False}, (2, 4, 3)), ((2, 4), {"eps": 0.5}, (2, 4, 3)),
                                ((2, 4), {}, (2, 4, 2, 3)), ((2, 4), {}, (2, 4)), ((2, 4), {}, (1, 4, 1)),
                                ((2, 6), {}, (3, 6, 2, 2))):
        yield mod("GroupNorm", (args, kwargs), (T("float32", shape, grad=True),))
        yield mod("GroupNorm", (args, kwargs), (T("float64", shape, "grid", grad=True),))
    for args, kwargs in (((2, 4), {}), ((2, 4), {"affine": False})):
        yield from structure("GroupNorm", args, kwargs)
    yield from layer_sweep("GroupNorm", ((2, 4), {}), (2, 4, 3), zero=(0, 4, 3), eval_too=True)
    yield mod("GroupNorm", ((2, 4), {}), (T("float32", (2, 4, 3), values=(1.5,), grad=True),), tag="constant")
    yield mod("GroupNorm", ((2, 4), {}), (T("float32", (2, 6, 3)),), tag="wrong channels")
    yield mod("GroupNorm", ((3, 4), {}), (T("float32", (2, 4, 3)),), tag="groups do not divide")
    yield mod("GroupNorm", ((2, 4), {}), (T("float32", (4, 3)),), tag="unbatched")
    yield mod("GroupNorm", ((2, 4), {}), (T("float64", (2, 4, 3), "special", grad=True),), tag="special grads")


def _bn_reset(L, cls, x):
    m = getattr(L.nn, cls)(3)
    m(x)
    m(x * 2)
    before = {n: b.clone() for n, b in m.named_buffers()}
    m.reset_running_stats()
    return before, {n: b for n, b in m.named_buffers()}


def _embedding_weight_program(build, call=None):
    """Embedding's forward and backward, and its weight after (max_norm renormalizes rows in place)."""
    def program(L, device, *inputs):
        m = set_parameters(L, build(L).to(device), device)
        out = call(m, *inputs) if call else m(*inputs)
        backward(L, device, out)
        return {"out": out, "grad": m.weight.grad, "weight": m.weight}
    return program


def embeddings():
    idx = T("int64", (2, 3), "index:5")
    base = ((5, 3), {})
    for d in DTYPES:
        yield mod("Embedding", base, (T(d, (2, 3), "index:5"),))
    for shape in ((), (0,), (4,), (2, 3), (2, 2, 2), (2, 0)):
        yield mod("Embedding", base, (T("int64", shape, "index:5"),))
    yield mod("Embedding", base, (T("int64", (12,), values=(0, 1, 1, 1, 4, 4, 0, 2, 2, 3, 1, 1)),), tag="repeats")
    yield mod("Embedding", base, (T("int64", (3,), values=(0, 5, 1)),), tag="out of range")
    yield mod("Embedding", base, (T("int64", (3,), values=(0, -1, 1)),), tag="negative")
    yield mod("Embedding", base, (T("int32", (3,), values=(4, 0, 1)),))
    for d in ("float64",) + LOW:
        yield mod("Embedding", with_dtype(base, d), (idx,))
    for lay in LAYOUTS:
        yield mod("Embedding", base, (T("int64", (3, 4), "index:5", layout=lay),))
    for pad in (0, 2, -1, 4):
        yield mod("Embedding", ((5, 3), {"padding_idx": pad}),
                  (T("int64", (12,), values=(0, 1, 2, 3, 4, 2, 2, 0, 4, 1, 3, 2)),))
        yield Case("nn.Embedding", (), program=lambda L, device, p=pad: L.nn.Embedding(5, 3, padding_idx=p).weight[p],
                   tag=f"padding row at init padding_idx={pad}")
    yield mod("Embedding", ((5, 3), {"padding_idx": 5}), (idx,))
    yield mod("Embedding", ((5, 3), {"padding_idx": -6}), (idx,))
    for kw in ({"max_norm": 1.0}, {"max_norm": 1.0, "norm_type": 1.0}, {"max_norm": 0.5, "norm_type": math.inf},
               {"scale_grad_by_freq": True}, {"max_norm": 2.0, "padding_idx": 1}):
        yield Case("nn.Embedding", (T("int64", (12,), values=(0, 1, 1, 1, 4, 4, 0, 2, 2, 3, 1, 1)),),
                   program=_embedding_weight_program(builder("Embedding", (5, 3), kw)),
                   tag=_text("Embedding", (5, 3), kw))
    yield Case("nn.Embedding", (T("int64", (4,), "index:5"),),
               program=lambda L, device, i: L.nn.Embedding(5, 3, sparse=True)(i).shape, tag="sparse=True")
    # from_pretrained
    for kw in ({}, {"freeze": False}, {"padding_idx": 1}, {"freeze": True, "max_norm": 1.0}):
        def prog(L, device, i, w, kw=kw):
            m = L.nn.Embedding.from_pretrained(w, **kw)
            out = m(i)
            if out.requires_grad:
                backward(L, device, out)
            return {"out": out, "weight_requires_grad": m.weight.requires_grad, "grad": m.weight.grad,
                    "w_grad": w.grad, "num_embeddings": m.num_embeddings, "embedding_dim": m.embedding_dim,
                    "padding_idx": m.padding_idx}
        yield Case("nn.Embedding", (T("int64", (2, 3), "index:4"), T("float32", (4, 3), grad=True)), program=prog,
                   tag="from_pretrained" + "".join(f" {k}={v}" for k, v in kw.items()))
    yield Case("nn.Embedding", (T("int64", (2, 3), "index:4"), T("float32", (4, 3))),
               program=lambda L, device, i, w: L.nn.Embedding(4, 3, _weight=w)(i), tag="_weight")
    yield Case("nn.Embedding", (T("int64", (2, 3), "index:4"), T("float32", (4, 3))),
               program=lambda L, device, i, w: L.nn.Embedding(4, 3, _weight=w, _freeze=True).weight.requires_grad,
               tag="_freeze")
    for args, kwargs in (((5, 3), {}), ((5, 3), {"padding_idx": 1}), ((5, 3), {"max_norm": 1.0}),
                         ((5, 3), {"padding_idx": -2, "scale_grad_by_freq": True})):
        yield from structure("Embedding", args, kwargs)
    yield Case("nn.Embedding", (), program=lambda L, device: L.nn.Embedding(5, 3, padding_idx=6), tag="bad padding")


def dropouts():
    shapes = {"Dropout": ((2, 3), (12,), ()), "Dropout1d": ((2, 3, 4), (3, 4)), "Dropout2d": ((2, 3, 2, 2),
                                                                                             (3, 2, 2)),
              "Dropout3d": ((2, 3, 2, 2, 2), (3, 2, 2, 2))}
    for cls, ss in shapes.items():
        x = ss[0]
        for d in DTYPES:
            yield mod(cls, ((), {}), (T(d, x),), train=False)
        for s in ss[1:]:
            yield mod(cls, ((), {}), (T("float32", s, grad=True),), train=False)
        yield mod(cls, ((0.3,), {}), (T("float64", x, "special", grad=True),), train=False)
        yield mod(cls, ((), {"p": 0.9, "inplace": True}), (T("float32", x),), train=False, mutates=True)
        for p in (0.0, 1.0):
            for d in ("float32", "float64", "float16"):
                yield mod(cls, ((p,), {}), (T(d, x, grad=True),), train=True)
            yield mod(cls, ((p,), {}), (T("float32", x, "special", grad=True),), train=True)
            yield mod(cls, ((p,), {"inplace": True}), (T("float32", x),), train=True, grads=False, mutates=True)
            for s in ss[1:]:
                yield mod(cls, ((p,), {}), (T("float32", s, grad=True),), train=True)
        for d in ("float32", "float64", "float16", "bfloat16", "int64", "bool"):
            yield mod(cls, ((), {}), (T(d, x, grad=d in GRAD_FLOATS),), train=True, random=True)
        yield mod(cls, ((0.5,), {}), (T("float32", (0,) + x[1:]),), train=True)
        for p in (-0.1, 1.5):
            yield mod(cls, ((p,), {}), (T("float32", x),))
        for lay in LAYOUTS:
            yield mod(cls, ((), {}), (T("float32", x[:-2] + (3, 4), layout=lay),), train=False)
        yield from structure(cls, (0.25,), {"inplace": True})
        yield from structure(cls)
    yield mod("Dropout2d", ((), {}), (T("float32", (2, 3, 4), grad=True),), train=True, random=True, tag="3-d")
    yield mod("Dropout2d", ((1.0,), {}), (T("float32", (2, 3, 4), grad=True),), train=True, tag="3-d")
    yield mod("Dropout1d", ((1.0,), {}), (T("float32", (2, 3, 4, 5)),), train=True, tag="4-d")
    yield mod("Dropout3d", ((1.0,), {}), (T("float32", (2, 3, 4)),), train=True, tag="3-d")
    yield mod("Dropout", ((1.0,), {}), (T("float32", (3, 4), values=(math.nan, math.inf, 1.0)),), train=True,
              tag="p=1 on nan and inf")
    # the mean of many dropout draws: the keep rate and the 1/(1-p) scale
    for cls, x in (("Dropout", (64, 64)), ("Dropout2d", (64, 64, 1, 1))):
        yield Case(f"nn.{cls}", (T("float32", x, values=(1.0,)),),
                   program=lambda L, device, t, c=cls: _dropout_stats(L, c, t), tag="draw statistics")


def _dropout_stats(L, cls, x):
    m = getattr(L.nn, cls)(0.25)
    y = m(x)
    kept = (y != 0).float().mean().item()
    return {"kept about 0.75": abs(kept - 0.75) < 0.05, "values": sorted({round(v, 4) for v in y.flatten().tolist()})}


def flattens():
    x = (2, 3, 4)
    for d in DTYPES:
        yield mod("Flatten", ((), {}), (T(d, x),))
    for args, kwargs in (((), {}), ((0,), {}), ((0, -1), {}), ((1, 2), {}), ((-2, -1), {}), ((2,), {}), ((0, 1), {}),
                         ((), {"start_dim": 1, "end_dim": 1}), ((2, 1), {}), ((3,), {}), ((-1,), {})):
        yield mod("Flatten", (args, kwargs), (T("float32", x, grad=True),))
        yield from structure("Flatten", args, kwargs)
    for s in ((), (5,), (0, 3), (2, 0, 3), (2, 3, 4, 5)):
        yield mod("Flatten", ((), {}), (T("float32", s, grad=True),))
    for lay in LAYOUTS:
        yield mod("Flatten", ((0,), {}), (T("float32", (3, 4), layout=lay, grad=True),))
    yield Case("nn.Flatten", (T("float32", (2, 3, 4)),),
               program=lambda L, device, x: L.nn.Flatten()(x).data_ptr() == x.data_ptr(), tag="a view")


REDUCTIONS = ("mean", "sum", "none")
PROBS = (0.1, 0.5, 0.9, 0.0, 1.0, 0.3, 0.75, 0.999)


def _loss(cls, ctor, inp, target, **kw):
    return mod(cls, ctor, (inp, target), **kw)


def regression_losses():
    for cls, extra in (("MSELoss", ()), ("L1Loss", ()), ("SmoothL1Loss", ({"beta": 0.5}, {"beta": 0.0},
                                                                            {"beta": 2.0})),
                       ("HuberLoss", ({"delta": 0.5}, {"delta": 2.0}, {"delta": 0.0}))):
        for r in REDUCTIONS:
            for d in GRAD_FLOATS:
                yield _loss(cls, ((), {"reduction": r}), T(d, (2, 3), grad=True), T(d, (2, 3), grad=True))
                yield _loss(cls, ((), {"reduction": r}), T(d, (4, 4), "grid", grad=True), T(d, (4, 4), "grid"))
            yield _loss(cls, ((), {"reduction": r}), T("float64", (12,), "special", grad=True),
                        T("float64", (12,), grad=True))
            yield _loss(cls, ((), {"reduction": r}), T("float32", (0, 3), grad=True), T("float32", (0, 3)))
        for kw in extra:
            for r in ("mean", "none"):
                yield _loss(cls, ((), dict(kw, reduction=r)), T("float64", (4, 4), "grid", grad=True),
                            T("float64", (4, 4), "grid", grad=True))
        for d in DTYPES:
            yield _loss(cls, ((), {}), T(d, (2, 3)), T(d, (2, 3)))
        for d in LOW:
            yield _loss(cls, ((), {}), T(d, (2, 3), grad=True), T(d, (2, 3)), tag="grad")
        yield _loss(cls, ((), {}), T("float32", (2, 3), grad=True), T("float64", (2, 3)), tag="mixed dtypes")
        yield _loss(cls, ((), {}), T("float32", (2, 3), grad=True), T("float32", (3,)), tag="broadcast target")
        yield _loss(cls, ((), {}), T("float32", (2, 3), grad=True), T("float32", (2, 4)), tag="mismatch")
        yield _loss(cls, ((), {}), T("float32", (), grad=True), T("float32", ()))
        yield _loss(cls, ((), {}), T("float32", (3, 4), layout="transposed", grad=True),
                    T("float32", (3, 4), layout="stepped"))
        yield _loss(cls, ((), {"reduction": "batchmean"}), T("float32", (2, 3)), T("float32", (2, 3)))
        yield _loss(cls, ((), {}), T("float32", (2, 3), grad=True), T("float32", (2, 3)), train=False)
        yield from structure(cls, (), {"reduction": "sum"})
        yield from structure(cls)
    yield _loss("MSELoss", ((None, None, "sum"), {}), T("float32", (2, 3), grad=True), T("float32", (2, 3)))
    yield _loss("MSELoss", ((), {"size_average": False}), T("float32", (2, 3), grad=True), T("float32", (2, 3)))
    yield _loss("L1Loss", ((), {"reduce": False}), T("float32", (2, 3), grad=True), T("float32", (2, 3)))
    yield _loss("HuberLoss", (("sum", 0.5), {}), T("float32", (2, 3), grad=True), T("float32", (2, 3)))
    yield _loss("SmoothL1Loss", ((), {"beta": -1.0}), T("float32", (2, 3), grad=True), T("float32", (2, 3)))
    yield _loss("HuberLoss", ((), {"delta": -1.0}), T("float32", (2, 3), grad=True), T("float32", (2, 3)))


def classification_losses():
    n, c = 4, 3
    logits = T("float32", (n, c), grad=True)
    tgt = T("int64", (n,), "index:3")
    # CrossEntropyLoss
    ce = "CrossEntropyLoss"
    for r in REDUCTIONS:
        for d in GRAD_FLOATS:
            yield _loss(ce, ((), {"reduction": r}), T(d, (n, c), grad=True), tgt)
            yield _loss(ce, ((), {"reduction": r, "weight": Seeded(d, (c,))}), T(d, (n, c), grad=True), tgt)
            yield _loss(ce, ((), {"reduction": r}), T(d, (n, c), grad=True), T(d, (n, c), "positive", grad=True),
                        tag="probabilities")
        yield _loss(ce, ((), {"reduction": r, "ignore_index": 1}), logits, T("int64", (n,), values=(1, 0, 1, 2)))
        yield _loss(ce, ((), {"reduction": r}), logits, T("int64", (n,), values=(-100, 0, -100, 2)))
        yield _loss(ce, ((), {"reduction": r}), logits, T("int64", (n,), values=(-100,)), tag="all ignored")
        yield _loss(ce, ((), {"reduction": r, "label_smoothing": 0.2}), logits, tgt)
        yield _loss(ce, ((), {"reduction": r, "label_smoothing": 0.2, "weight": Seeded("float32", (c,))}), logits,
                    tgt)
        yield _loss(ce, ((), {"reduction": r, "label_smoothing": 0.1}), logits, T("float32", (n, c), "positive"),
                    tag="probabilities")
        yield _loss(ce, ((), {"reduction": r, "weight": Seeded("float32", (c,)), "ignore_index": 0}), logits,
                    T("int64", (n,), values=(0, 1, 2, 0)))
        yield _loss(ce, ((), {"reduction": r}), T("float32", (2, c, 2, 2), grad=True), T("int64", (2, 2, 2),
                                                                                            "index:3"))
        yield _loss(ce, ((), {"reduction": r, "weight": Seeded("float32", (c,))}), T("float32", (2, c, 5),
                                                                                     grad=True),
                    T("float32", (2, c, 5), "positive"), tag="probabilities")
        yield _loss(ce, ((), {"reduction": r}), T("float32", (0, c), grad=True), T("int64", (0,)))
    for d in DTYPES:
        yield _loss(ce, ((), {}), T(d, (n, c)), tgt)
        yield _loss(ce, ((), {}), T("float32", (n, c)), T(d, (n,), "index:3"), tag="target dtype")
    for d in LOW:
        yield _loss(ce, ((), {}), T(d, (n, c), grad=True), tgt, tag="grad")
    yield _loss(ce, ((), {}), T("float32", (c,), grad=True), T("int64", (), values=(2,)), tag="unbatched")
    yield _loss(ce, ((), {}), T("float32", (c,), grad=True), T("float32", (c,), "positive"), tag="unbatched probs")
    yield _loss(ce, ((), {}), T("float64", (n, c), "special", grad=True), tgt)
    yield _loss(ce, ((), {}), logits, T("int64", (n,), values=(0, 3, 1, 2)), tag="target out of range")
    yield _loss(ce, ((), {}), logits, T("int64", (n,), values=(0, -1, 1, 2)), tag="negative target")
    yield _loss(ce, ((), {}), logits, T("int64", (n + 1,), "index:3"), tag="batch mismatch")
    yield _loss(ce, ((), {"label_smoothing": 1.5}), logits, tgt)
    yield _loss(ce, ((), {"weight": Seeded("float32", (c + 1,))}), logits, tgt, tag="weight size")
    yield _loss(ce, ((), {}), T("float32", (n, c), layout="transposed", grad=True), tgt)
    yield _loss(ce, ((), {}), logits, tgt, train=False)
    for kw in ({}, {"weight": Seeded("float32", (c,))}, {"ignore_index": 1, "label_smoothing": 0.1,
                                                         "reduction": "sum"}):
        yield from structure(ce, (), kw)
    # NLLLoss
    nl = "NLLLoss"
    for r in REDUCTIONS:
        for d in GRAD_FLOATS:
            yield _loss(nl, ((), {"reduction": r}), T(d, (n, c), grad=True), tgt)
            yield _loss(nl, ((), {"reduction": r, "weight": Seeded(d, (c,))}), T(d, (n, c), grad=True), tgt)
        yield _loss(nl, ((), {"reduction": r, "ignore_index": 2}), logits, T("int64", (n,), values=(2, 0, 1, 2)))
        yield _loss(nl, ((), {"reduction": r}), logits, T("int64", (n,), values=(-100,)), tag="all ignored")
        yield _loss(nl, ((), {"reduction": r, "weight": Seeded("float32", (c,))}), T("float32", (2, c, 2, 2),
                                                                                      grad=True),
                    T("int64", (2, 2, 2), "index:3"))
        yield _loss(nl, ((), {"reduction": r}), T("float32", (0, c), grad=True), T("int64", (0,)))
    for d in DTYPES:
        yield _loss(nl, ((), {}), T(d, (n, c)), tgt)
        yield _loss(nl, ((), {}), T("float32", (n, c)), T(d, (n,), "index:3"), tag="target dtype")
    yield _loss(nl, ((), {}), T("float32", (c,), grad=True), T("int64", (), values=(1,)), tag="unbatched")
    yield _loss(nl, ((), {}), T("float64", (n, c), "special", grad=True), tgt)
    yield _loss(nl, ((), {}), logits, T("int64", (n,), values=(0, 3, 1, 2)), tag="target out of range")
    yield _loss(nl, ((), {}), logits, T("float32", (n, c)), tag="float target")
    yield _loss(nl, ((), {"weight": Seeded("float32", (c,), "random")}), logits, tgt, tag="negative weights")
    yield _loss(nl, ((), {}), logits, tgt, train=False)
    for kw in ({}, {"weight": Seeded("float32", (c,))}, {"ignore_index": 1, "reduction": "none"}):
        yield from structure(nl, (), kw)
    # BCELoss
    bce = "BCELoss"
    p = T("float32", (2, 4), PROBS, grad=True)
    y = T("float32", (2, 4), (0.0, 1.0, 1.0, 0.0, 0.5, 0.25, 1.0, 0.0))
    for r in REDUCTIONS:
        for d in GRAD_FLOATS:
            yield _loss(bce, ((), {"reduction": r}), T(d, (2, 4), PROBS, grad=True), T(d, (2, 4), PROBS, grad=True))
        yield _loss(bce, ((), {"reduction": r, "weight": Seeded("float32", (4,))}), p, y)
        yield _loss(bce, ((), {"reduction": r, "weight": Seeded("float32", (2, 1))}), p, y)
        yield _loss(bce, ((), {"reduction": r}), T("float32", (0,), grad=True), T("float32", (0,)))
    for d in DTYPES:
        yield _loss(bce, ((), {}), T(d, (2, 4), PROBS), T(d, (2, 4), PROBS))
    for d in LOW:
        yield _loss(bce, ((), {}), T(d, (2, 4), PROBS, grad=True), T(d, (2, 4), PROBS), tag="grad")
    yield _loss(bce, ((), {}), T("float32", (2, 4), grad=True), y, tag="input outside [0, 1]")
    yield _loss(bce, ((), {}), p, T("float32", (2, 4), (2.0, -1.0)), tag="target outside [0, 1]")
    yield _loss(bce, ((), {}), T("float32", (3,), (math.nan, 0.5, 0.5), grad=True), T("float32", (3,), (0.0, 1.0)),
                tag="nan input")
    yield _loss(bce, ((), {}), p, T("float32", (4,), PROBS), tag="broadcast target")
    yield _loss(bce, ((), {}), p, T("int64", (2, 4), (0, 1)), tag="int target")
    yield _loss(bce, ((), {}), T("float32", (), (0.25,), grad=True), T("float32", (), (1.0,)))
    yield _loss(bce, ((), {}), p, y, train=False)
    for kw in ({}, {"weight": Seeded("float32", (4,))}):
        yield from structure(bce, (), kw)
    # BCEWithLogitsLoss
    bl = "BCEWithLogitsLoss"
    x = T("float32", (2, 4), grad=True)
    for r in REDUCTIONS:
        for d in GRAD_FLOATS:
            yield _loss(bl, ((), {"reduction": r}), T(d, (2, 4), grad=True), T(d, (2, 4), PROBS, grad=True))
            yield _loss(bl, ((), {"reduction": r, "pos_weight": Seeded(d, (4,))}), T(d, (2, 4), grad=True),
                        T(d, (2, 4), PROBS, grad=True))
        yield _loss(bl, ((), {"reduction": r, "weight": Seeded("float32", (4,))}), x, y)
        yield _loss(bl, ((), {"reduction": r, "weight": Seeded("float32", (2, 1)), "pos_weight": Seeded("float32",
                                                                                                     (4,))}), x, y)
        yield _loss(bl, ((), {"reduction": r, "pos_weight": Seeded("float32", (2, 4))}), x, y)
        yield _loss(bl, ((), {"reduction": r}), T("float32", (0, 4), grad=True), T("float32", (0, 4)))
    for d in DTYPES:
        yield _loss(bl, ((), {}), T(d, (2, 4)), T(d, (2, 4), PROBS))
    for d in LOW:
        yield _loss(bl, ((), {"pos_weight": Seeded(d, (4,))}), T(d, (2, 4), grad=True), T(d, (2, 4), PROBS))
    yield _loss(bl, ((), {}), T("float64", (12,), "special", grad=True), T("float64", (12,), PROBS))
    yield _loss(bl, ((), {"pos_weight": Seeded("float64", (12,))}), T("float64", (12,), "special", grad=True),
                T("float64", (12,), PROBS))
    yield _loss(bl, ((), {}), T("float32", (2, 4), values=(100.0, -100.0, 30.0, -30.0), grad=True), y,
                tag="large logits")
    yield _loss(bl, ((), {"pos_weight": Seeded("float32", (4,))}), T("float32", (2, 4), values=(100.0, -100.0, 30.0,
                                                                                                  -30.0), grad=True),
                y, tag="large logits")
    yield _loss(bl, ((), {"pos_weight": Seeded("float32", (3,))}), x, y, tag="pos_weight size")
    yield _loss(bl, ((), {}), x, T("float32", (2, 3)), tag="mismatch")
    yield _loss(bl, ((), {}), x, T("int64", (2, 4), (0, 1)), tag="int target")
    yield _loss(bl, ((), {}), x, y, train=False)
    for kw in ({}, {"pos_weight": Seeded("float32", (4,))}, {"weight": Seeded("float32", (4,)), "reduction": "sum"}):
        yield from structure(bl, (), kw)
    # KLDivLoss
    kl = "KLDivLoss"
    logp = T("float32", (2, 4), "unit", grad=True)
    q = T("float32", (2, 4), PROBS, grad=True)
    for r in REDUCTIONS + ("batchmean",):
        for d in GRAD_FLOATS:
            yield _loss(kl, ((), {"reduction": r}), T(d, (2, 4), "unit", grad=True), T(d, (2, 4), PROBS, grad=True))
            yield _loss(kl, ((), {"reduction": r, "log_target": True}), T(d, (2, 4), "unit", grad=True),
                        T(d, (2, 4), "unit", grad=True))
        yield _loss(kl, ((), {"reduction": r}), T("float32", (0, 4), grad=True), T("float32", (0, 4)))
        yield _loss(kl, ((), {"reduction": r}), T("float32", (4,), "unit", grad=True), T("float32", (4,), PROBS),
                    tag="1-d")
    for d in DTYPES:
        yield _loss(kl, ((), {}), T(d, (2, 4), "unit"), T(d, (2, 4), PROBS))
    yield _loss(kl, ((), {}), T("float64", (12,), "special", grad=True), T("float64", (12,), PROBS))
    yield _loss(kl, ((), {"log_target": True}), T("float64", (12,), "special", grad=True), T("float64", (12,),
                                                                                            "special"))
    yield _loss(kl, ((), {}), logp, T("float32", (2, 4), (0.0, -0.5, 1.0)), tag="zero and negative target")
    yield _loss(kl, ((), {}), logp, q, train=False)
    for kw in ({}, {"reduction": "batchmean", "log_target": True}):
        yield from structure(kl, (), kw)


def _self(m, x, **kw):
    return m(x, x, x, **kw)


F_, T_ = False, True
CAUSAL3 = (F_, T_, T_, F_, F_, T_, F_, F_, F_)  # True: not allowed (PyTorch's module masks)
PAD_FIRST = (T_, F_, F_, F_, F_, F_)  # batch 0's first key padded
FLOAT_CAUSAL3 = (0.0, -math.inf, -math.inf, 0.0, 0.0, -math.inf, 0.0, 0.0, 0.0)


def attention():
    mha = "MultiheadAttention"
    base = ((4, 2), {})
    E, L, S, N = 4, 3, 5, 2
    q, k, v = T("float32", (L, N, E), grad=True), T("float32", (S, N, E), grad=True), T("float32", (S, N, E), grad=True)
    x = T("float32", (L, N, E), grad=True)
    xb = T("float32", (N, L, E), grad=True)
    for d in DTYPES:
        yield mod(mha, base, (T(d, (L, N, E)), T(d, (S, N, E)), T(d, (S, N, E))))
    for d in ("float64",) + LOW:
        yield mod(mha, with_dtype(base, d), (T(d, (L, N, E), grad=True), T(d, (S, N, E), grad=True),
                                             T(d, (S, N, E), grad=True)))
    yield mod(mha, base, (q, k, v))
    yield mod(mha, base, (q, k, v), train=False)
    yield pmod(mha, base, (x,), call=_self, tag="self-attention")
    yield pmod(mha, base, (x,), call=_self, tag="self-attention", train=False)
    yield mod(mha, ((4, 2), {"batch_first": True}), (T("float32", (N, L, E), grad=True), T("float32", (N, S, E),
                                                                                           grad=True),
                                                     T("float32", (N, S, E), grad=True)))
    yield pmod(mha, ((4, 2), {"batch_first": True}), (xb,), call=_self, tag="self-attention")
    for kw in ({"bias": False}, {"dropout": 0.5}, {"num_heads": 1}, {"num_heads": 4}):
        kw = dict(kw)
        heads = kw.pop("num_heads", 2)
        yield mod(mha, ((4, heads), kw), (q, k, v), train=False)
    yield mod(mha, ((4, 2), {"dropout": 0.5}), (q, k, v), train=True, random=True)
    yield mod(mha, ((4, 2), {"dropout": 1.0}), (q, k, v), train=True)
    # the forward's keywords
    kpm_bool = T("bool", (N, S), (F_, T_, F_, F_, T_, F_, F_, F_, F_, T_))
    kpm_float = T("float32", (N, S), (0.0, -math.inf, 0.0, -1.5, 0.5, 0.0, 0.0, 0.0, 0.0, -math.inf))
    am_bool = T("bool", (L, S), (F_, T_, F_, F_, F_, F_, F_, T_, T_, F_, F_, F_, F_, F_, T_))
    am_float = T("float32", (L, S), (0.0, -math.inf, 0.5, 0.0, -1.0, 0.0, 0.25, 0.0, -math.inf, 0.0, 0.0, 1.0, 0.0,
                                     0.0, 0.0))
    am_3d = T("bool", (N * 2, L, S), (F_, F_, T_, F_, F_, F_, T_))
    for fwd in ({"key_padding_mask": kpm_bool}, {"key_padding_mask": kpm_float}, {"attn_mask": am_bool},
                {"attn_mask": am_float}, {"attn_mask": am_3d}, {"attn_mask": am_bool, "key_padding_mask": kpm_bool},
                {"attn_mask": am_float, "key_padding_mask": kpm_bool},
                {"attn_mask": am_bool, "key_padding_mask": kpm_float},
                {"need_weights": False}, {"average_attn_weights": False},
                {"need_weights": False, "key_padding_mask": kpm_bool},
                {"need_weights": False, "attn_mask": am_float},
                {"average_attn_weights": False, "attn_mask": am_3d, "key_padding_mask": kpm_bool},
                {"attn_mask": T("int64", (L, S), (0, 1))}, {"key_padding_mask": T("int64", (N, S), (0, 1))},
                {"attn_mask": T("bool", (L, S + 1))}, {"key_padding_mask": T("bool", (N, S + 1))},
                {"attn_mask": T("float64", (L, S))}, {"is_causal": True}):
        yield mod(mha, base, (q, k, v), fwd)
    kpm3 = T("bool", (N, L), PAD_FIRST)
    causal = T("bool", (L, L), CAUSAL3)
    fcausal = T("float32", (L, L), FLOAT_CAUSAL3)
    for fwd in ({"attn_mask": causal}, {"attn_mask": causal, "is_causal": True}, {"attn_mask": fcausal,
                                                                                 "is_causal": True},
                {"is_causal": True}, {"attn_mask": causal, "key_padding_mask": kpm3},
                {"attn_mask": causal, "key_padding_mask": kpm3, "need_weights": False},
                {"attn_mask": causal, "key_padding_mask": kpm3, "average_attn_weights": False},
                {"attn_mask": causal, "key_padding_mask": kpm3, "is_causal": True},
                {"attn_mask": fcausal, "key_padding_mask": kpm3},
                {"attn_mask": causal, "is_causal": True, "need_weights": False},
                {"key_padding_mask": T("bool", (N, L), (T_, T_, T_, F_, F_, F_))},
                {"key_padding_mask": T("bool", (N, L), (T_, T_, T_, F_, F_, F_)), "need_weights": False}):
        yield pmod(mha, base, (x,), fwd, call=_self, tag="self-attention")
    for fwd in ({}, {"key_padding_mask": kpm3}, {"attn_mask": causal, "key_padding_mask": kpm3}):
        yield pmod(mha, ((4, 2), {"batch_first": True}), (xb,), fwd, call=_self, train=False,
                   no_grad=True, tag="inference")
        yield pmod(mha, ((4, 2), {"batch_first": True}), (xb,), dict(fwd, need_weights=False), call=_self,
                   train=False, no_grad=True, tag="inference")
    # unbatched, 0-size and mismatched inputs
    yield mod(mha, base, (T("float32", (L, E), grad=True), T("float32", (S, E), grad=True),
                          T("float32", (S, E), grad=True)), tag="unbatched")
    yield mod(mha, base, (T("float32", (L, E), grad=True), T("float32", (S, E), grad=True),
                          T("float32", (S, E), grad=True)), {"key_padding_mask": T("bool", (S,), (F_, T_))},
              tag="unbatched")
    yield mod(mha, base, (T("float32", (0, N, E)), T("float32", (S, N, E)), T("float32", (S, N, E))))
    yield mod(mha, base, (T("float32", (L, N, E)), T("float32", (S, N, E)), T("float32", (S + 1, N, E))),
              tag="key and value lengths differ")
    yield mod(mha, base, (T("float32", (L, N, 3)), T("float32", (S, N, 3)), T("float32", (S, N, 3))),
              tag="wrong embed_dim")
    yield mod(mha, ((4, 3), {}), (q, k, v), tag="heads do not divide")
    yield mod(mha, ((4, 2), {"kdim": 3, "vdim": 5}), (q, T("float32", (S, N, 3), grad=True),
                                                      T("float32", (S, N, 5), grad=True)))
    yield mod(mha, ((4, 2), {"add_bias_kv": True}), (q, k, v))
    yield mod(mha, ((4, 2), {"add_zero_attn": True}), (q, k, v))
    yield mod(mha, ((4, 2), {"add_bias_kv": True, "add_zero_attn": True}), (q, k, v), {"key_padding_mask": kpm_bool})
    yield mod(mha, with_dtype(base, "float64"), (T("float64", (12, 1, E), "special", grad=True),
                                                  T("float64", (S, 1, E), grad=True),
                                                  T("float64", (S, 1, E), grad=True)), tag="special")
    for lay in ("transposed", "stepped"):
        yield mod(mha, base, (T("float32", (L, N, E), layout=lay), k, v))
    for args, kwargs in (((4, 2), {}), ((4, 2), {"bias": False, "batch_first": True, "dropout": 0.1}),
                         ((4, 2), {"kdim": 3, "vdim": 5}), ((4, 2), {"add_bias_kv": True})):
        yield from structure(mha, args, kwargs)
    yield Case(f"nn.{mha}", (), program=lambda L, device: {n: p for n, p in L.nn.MultiheadAttention(4, 2)
                                                            .named_parameters() if "bias" in n},
               tag="initial biases")
    yield Case(f"nn.{mha}", (), program=lambda L, device: [
        [getattr(m, a) for a in ("embed_dim", "num_heads", "head_dim", "batch_first", "dropout", "kdim", "vdim")]
        for m in (L.nn.MultiheadAttention(4, 2), L.nn.MultiheadAttention(6, 3, dropout=0.25, batch_first=True))],
        tag="attributes")
    yield from transformer_encoder_layer()


def transformer_encoder_layer():
    tel = "TransformerEncoderLayer"
    E, L, N = 4, 3, 2

    def c(**kw):
        return ((), dict({"d_model": 4, "nhead": 2, "dim_feedforward": 8, "dropout": 0.0}, **kw))
    x = T("float32", (L, N, E), grad=True)
    xb = T("float32", (N, L, E), grad=True)
    causal = T("bool", (L, L), CAUSAL3)
    fcausal = T("float32", (L, L), FLOAT_CAUSAL3)
    kpm = T("bool", (N, L), PAD_FIRST)
    configs = (c(), c(norm_first=True), c(activation="gelu"), c(activation=Fn("gelu")), c(activation=Fn("silu")),
               c(bias=False), c(layer_norm_eps=0.5), c(norm_first=True, activation="gelu"))
    for ctor in configs:
        for train in (False, True):
            yield mod(tel, ctor, (x,), train=train)
        yield mod(tel, ctor, (x,), {"src_mask": causal, "src_key_padding_mask": kpm}, train=False)
    bf = c(batch_first=True)
    bfn = c(batch_first=True, norm_first=True)
    for ctor in (bf, bfn):
        for fwd in ({}, {"src_mask": causal}, {"src_mask": fcausal}, {"src_key_padding_mask": kpm},
                    {"src_mask": causal, "is_causal": True}, {"src_mask": fcausal, "is_causal": True},
                    {"src_mask": causal, "src_key_padding_mask": kpm},
                    {"src_mask": causal, "src_key_padding_mask": kpm, "is_causal": True},
                    {"is_causal": True}, {"src_key_padding_mask": T("float32", (N, L), (-math.inf, 0.0, 0.0))},
                    {"src_key_padding_mask": T("bool", (N, L), (T_, T_, T_, F_, F_, F_))}):
            yield mod(tel, ctor, (xb,), fwd, train=False)
        for fwd in ({}, {"src_key_padding_mask": kpm}, {"src_mask": causal, "src_key_padding_mask": kpm},
                    {"src_mask": causal, "is_causal": True}):
            yield pmod(tel, ctor, (xb,), fwd, train=False, no_grad=True, tag="inference")
    for d in DTYPES:
        yield mod(tel, c(), (T(d, (L, N, E)),), train=False)
    for d in ("float64",) + LOW:
        yield mod(tel, with_dtype(c(), d), (T(d, (L, N, E), grad=True),), train=False)
    yield mod(tel, c(), (T("float32", (L, E), grad=True),), train=False, tag="unbatched")
    yield mod(tel, c(), (T("float32", (L, E), grad=True),), {"src_mask": causal}, train=False, tag="unbatched")
    yield mod(tel, c(), (T("float32", (0, N, E)),), train=False)
    yield mod(tel, c(), (T("float32", (L, N, 3)),), train=False, tag="wrong d_model")
    yield mod(tel, c(activation="tanh"), (x,), train=False)
    yield mod(tel, c(dropout=0.5), (x,), train=False, tag="dropout in eval")
    yield mod(tel, c(dropout=0.5), (x,), train=True, random=True)
    yield mod(tel, ((4, 2, 8, 0.0), {}), (x,), train=False)
    for ctor in (c(), c(norm_first=True, batch_first=True, activation="gelu"), ((4, 2), {})):
        yield from structure(tel, *ctor)


def _rnn_hidden(layers, dirs, n, h, lstm=False, unbatched=False, dtype="float32"):
    shape = (layers * dirs, h) if unbatched else (layers * dirs, n, h)
    if lstm:
        return Seq((T(dtype, shape, grad=True), T(dtype, shape, grad=True)), kind="tuple")
    return T(dtype, shape, grad=True)


def recurrent():
    I, H, Lq, N = 3, 4, 5, 2
    for cls in ("RNN", "LSTM", "GRU"):
        lstm = cls == "LSTM"
        seq = T("float32", (Lq, N, I), grad=True)
        configs = [((I, H), {}), ((I, H), {"num_layers": 2}), ((I, H), {"bidirectional": True}),
                   ((I, H), {"num_layers": 2, "bidirectional": True}), ((I, H), {"bias": False}),
                   ((I, H), {"num_layers": 2, "dropout": 0.5}), ((I, H, 2), {})]
        if cls == "RNN":
            configs += [((I, H), {"nonlinearity": "relu"}), ((I, H), {"nonlinearity": "relu", "num_layers": 2,
                                                                       "bidirectional": True}),
                        ((I, H, 1, "relu"), {})]
        for args, kwargs in configs:
            layers = kwargs.get("num_layers", args[2] if len(args) > 2 else 1)
            dirs = 2 if kwargs.get("bidirectional") else 1
            yield pmod(cls, (args, kwargs), (seq,), train=False)
            yield pmod(cls, with_dtype((args, kwargs), "float64"), (T("float64", (Lq, N, I), "grid", grad=True),),
                       train=False, tag="grid")
            yield pmod(cls, (args, kwargs), (seq, _rnn_hidden(layers, dirs, N, H, lstm)), train=False)
            bf = (args, dict(kwargs, batch_first=True))
            yield pmod(cls, bf, (T("float32", (N, Lq, I), grad=True),), train=False)
            yield pmod(cls, bf, (T("float32", (N, Lq, I), grad=True), _rnn_hidden(layers, dirs, N, H, lstm)),
                       train=False)
            yield pmod(cls, (args, kwargs), (T("float32", (Lq, I), grad=True),), train=False, tag="unbatched")
            yield pmod(cls, (args, kwargs), (T("float32", (Lq, I), grad=True),
                                             _rnn_hidden(layers, dirs, N, H, lstm, unbatched=True)),
                       train=False, tag="unbatched")
            yield from structure(cls, args, kwargs)
        base = ((I, H), {})
        yield pmod(cls, base, (seq,))
        yield pmod(cls, base, (seq,), steps=2, tag="two calls")
        for d in DTYPES:
            yield pmod(cls, base, (T(d, (Lq, N, I)),), train=False)
        for d in ("float64",) + LOW:
            yield pmod(cls, with_dtype(base, d), (T(d, (Lq, N, I), grad=True), _rnn_hidden(1, 1, N, H, lstm,
                                                                                            dtype=d)),
                       train=False)
        yield pmod(cls, base, (T("float64", (Lq, N, I), grad=True),), train=False, tag="float64 input")
        yield pmod(cls, ((I, H), {"num_layers": 2, "dropout": 0.5}), (seq,), train=True, random=True)
        yield pmod(cls, ((I, H), {"num_layers": 2, "dropout": 1.0}), (seq,), train=True)
        yield pmod(cls, with_dtype(base, "float64"), (T("float64", (4, 3, I), "special", grad=True),), train=False,
                   tag="special")
        yield pmod(cls, base, (T("float32", (1, N, I), grad=True),), train=False, tag="one step")
        yield pmod(cls, base, (T("float32", (0, N, I)),), train=False, tag="empty sequence")
        yield pmod(cls, base, (T("float32", (Lq, 0, I)),), train=False, tag="empty batch")
        yield pmod(cls, base, (T("float32", (Lq, N, I + 1)),), train=False, tag="wrong input_size")
        yield pmod(cls, base, (seq, _rnn_hidden(2, 1, N, H, lstm)), train=False, tag="wrong h0")
        yield pmod(cls, base, (T("float32", (Lq, N, I, 1)),), train=False, tag="4-d")
        for lay in ("transposed", "stepped"):
            yield pmod(cls, base, (T("float32", (Lq, N, I), layout=lay),), train=False)
        yield pmod(cls, ((I, H), {"dropout": 1.5}), (seq,))
        yield pmod(cls, ((I, 0), {}), (seq,))
        yield pmod(cls, ((I, H), {"num_layers": 0}), (seq,))
        if lstm:
            yield pmod(cls, ((I, H), {"proj_size": 2}), (seq,), train=False)
            yield pmod(cls, ((I, H), {"proj_size": 2}), (seq, Seq((T("float32", (1, N, 2), grad=True),
                                                                   T("float32", (1, N, H), grad=True)), "tuple")),
                       train=False)
            yield pmod(cls, base, (seq, T("float32", (1, N, H))), train=False, tag="hx not a tuple")
            yield from structure(cls, (I, H), {"proj_size": 2})
        else:
            yield pmod(cls, base, (seq, Seq((T("float32", (1, N, H)), T("float32", (1, N, H))), "tuple")),
                       train=False, tag="hx a tuple")
        yield Case(f"nn.{cls}", (), program=lambda L, device, c=cls: [[list(w.shape) for w in layer] for layer in
                                                                     getattr(L.nn, c)(3, 4, 2,
                                                                                      bidirectional=True).all_weights],
                   tag="all_weights")
    yield pmod("RNN", ((I, H), {"nonlinearity": "sigmoid"}), (T("float32", (Lq, N, I)),))
    # cells
    for cls in ("RNNCell", "LSTMCell", "GRUCell"):
        lstm = cls == "LSTMCell"

        def hx(n, dtype="float32"):
            shape = (n, H) if n else (H,)
            if lstm:
                return Seq((T(dtype, shape, grad=True), T(dtype, shape, grad=True)), kind="tuple")
            return T(dtype, shape, grad=True)
        configs = [((I, H), {}), ((I, H), {"bias": False})]
        if cls == "RNNCell":
            configs += [((I, H), {"nonlinearity": "relu"}), ((I, H, True, "relu"), {})]
        for ctor in configs:
            yield pmod(cls, ctor, (T("float32", (N, I), grad=True),))
            yield pmod(cls, ctor, (T("float32", (N, I), grad=True), hx(N)))
            yield pmod(cls, with_dtype(ctor, "float64"), (T("float64", (N, I), "grid", grad=True),), tag="grid")
            yield pmod(cls, ctor, (T("float32", (I,), grad=True),), tag="unbatched")
            yield pmod(cls, ctor, (T("float32", (I,), grad=True), hx(0)), tag="unbatched")
            yield from structure(cls, *ctor)
        base = ((I, H), {})
        for d in DTYPES:
            yield pmod(cls, base, (T(d, (N, I)),))
        for d in ("float64",) + LOW:
            yield pmod(cls, with_dtype(base, d), (T(d, (N, I), grad=True), hx(N, d)))
        yield pmod(cls, with_dtype(base, "float64"), (T("float64", (12, I), "special", grad=True),), tag="special")
        yield pmod(cls, base, (T("float32", (0, I)),))
        yield pmod(cls, base, (T("float32", (N, I + 1)),), tag="wrong input_size")
        yield pmod(cls, base, (T("float32", (N, I)), hx(N + 1)), tag="wrong hx")
        yield pmod(cls, base, (T("float32", (N, I), grad=True),), train=False)
        yield pmod(cls, base, (T("float32", (N, I), grad=True),),
                   call=lambda m, x: m(x, m(x) if not isinstance(m(x), tuple) else m(x)), tag="two steps")
        for lay in ("transposed", "stepped", "expanded"):
            yield pmod(cls, base, (T("float32", (N, I), layout=lay),))
    yield pmod("RNNCell", ((I, H), {"nonlinearity": "gelu"}), (T("float32", (N, I)),))


# ---------------------------------------------------------------- containers and base classes


def _names(pairs):
    return [[n, list(t.shape)] for n, t in pairs]


def _net_class(L):
    """A custom Module subclass: a child Linear, a Parameter, a persistent and a non-persistent buffer, an int
    buffer, a plain tensor attribute and a plain attribute."""
    class Net(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = L.nn.Linear(3, 2)
            self.scale = L.nn.Parameter(L.ones(2) * 0.5)
            self.register_buffer("steps", L.zeros((), dtype=L.int64))
            self.register_buffer("offset", L.ones(2) * 0.25)
            self.register_buffer("scratch", L.zeros(2), persistent=False)
            self.plain = L.ones(1)
            self.factor = 3

        def forward(self, x):
            self.steps += 1
            return self.fc(x) * self.scale + self.offset + self.scratch
    return Net


def _net(L, device):
    return set_parameters(L, _net_class(L)().to(device), device)


def _module_programs():
    """(tag, program) pairs about nn.Module."""
    def forward_backward(L, device, x):
        m = _net(L, device)
        out = m(x)
        backward(L, device, out)
        m(x)
        return {"out": out, "grads": {n: p.grad for n, p in m.named_parameters()}, "x_grad": x.grad,
                "steps": m.steps}

    def registries(L, device):
        m = _net(L, device)
        return {"named_parameters": _names(m.named_parameters()), "named_buffers": _names(m.named_buffers()),
                "state_dict": list(m.state_dict()), "named_modules": [n for n, _ in m.named_modules()],
                "named_children": [n for n, _ in m.named_children()],
                "parameters": len(list(m.parameters())), "buffers": len(list(m.buffers())),
                "children": len(list(m.children())), "modules": len(list(m.modules()))}

    def not_recursive(L, device):
        m = _net(L, device)
        return {"parameters": _names(m.named_parameters(recurse=False)),
                "buffers": _names(m.named_buffers(recurse=False)),
                "prefixed": _names(m.named_parameters(prefix="model")),
                "state_dict prefix": list(m.state_dict(prefix="p.")),
                "buffers prefixed": _names(m.named_buffers(prefix="m"))}

    def state_dict_values(L, device):
        m = _net(L, device)
        sd = m.state_dict()
        return {"values": dict(sd), "requires_grad": [t.requires_grad for t in sd.values()],
                "keep_vars": [t.requires_grad for t in m.state_dict(keep_vars=True).values()],
                "is a dict": isinstance(sd, dict)}

    def load(L, device, strict, drop=(), extra=()):
        src = _net(L, device)
        dst = set_parameters(L, _net_class(L)().to(device), device, scale=0.25)
        sd = dict(src.state_dict())
        for k in drop:
            del sd[k]
        for k in extra:
            sd[k] = L.zeros(1)
        result = dst.load_state_dict(sd, strict=strict)
        return {"missing": list(result.missing_keys), "unexpected": list(result.unexpected_keys),
                "state": dict(dst.state_dict())}

    def load_shape_mismatch(L, device):
        m = L.nn.Linear(3, 2)
        return m.load_state_dict({"weight": L.zeros(2, 4), "bias": L.zeros(2)})

    def load_keeps_identity(L, device):
        m = L.nn.Linear(3, 2)
        w = m.weight
        m.load_state_dict({"weight": L.ones(2, 3), "bias": L.zeros(2)})
        return {"same object": m.weight is w, "weight": m.weight, "requires_grad": m.weight.requires_grad}

    def modes(L, device):
        m = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Dropout(), L.nn.Sequential(L.nn.ReLU()))
        out = [m.training, [c.training for c in m.modules()]]
        r = m.eval()
        out += [r is m, m.training, [c.training for c in m.modules()]]
        m.train(False)
        out.append([c.training for c in m.modules()])
        m.train()
        out.append([c.training for c in m.modules()])
        m[2].eval()
        out.append([c.training for c in m.modules()])
        return out

    def train_not_bool(L, device):
        return L.nn.Linear(3, 2).train("yes")

    def requires_grad(L, device):
        m = _net(L, device)
        r = m.requires_grad_(False)
        out = [r is m, [p.requires_grad for p in m.parameters()], [b.requires_grad for b in m.buffers()]]
        m.fc.requires_grad_()
        out.append([p.requires_grad for p in m.parameters()])
        return out

    def zero_grad(L, device, x):
        m = _net(L, device)
        backward(L, device, m(x))
        had = [p.grad is not None for p in m.parameters()]
        m.zero_grad()
        after = [p.grad for p in m.parameters()]
        backward(L, device, m(x))
        m.zero_grad(set_to_none=False)
        return {"had": had, "after": after, "zeros": [p.grad for p in m.parameters()]}

    def casts(L, device):
        out = {}
        for name in ("double", "float", "half", "bfloat16"):
            m = _net(L, device)
            r = getattr(m, name)()
            out[name] = [r is m] + [str(t.dtype).split(".")[-1] for t in list(m.parameters()) + list(m.buffers())]
        m = _net(L, device)
        m.to(L.float64)
        out["to(float64)"] = [str(t.dtype).split(".")[-1] for t in list(m.parameters()) + list(m.buffers())]
        m = _net(L, device)
        p = m.fc.weight
        m.to(dtype=L.float16)
        out["keeps the parameter"] = [m.fc.weight is p, isinstance(m.fc.weight, L.nn.Parameter),
                                      m.fc.weight.requires_grad, m.plain.dtype == L.float32]
        m = _net(L, device)
        out["to(device)"] = [m.to(device) is m, m.to("cpu") is m, str(m.fc.weight.device)]
        return out

    def cast_values(L, device, x):
        m = _net(L, device).double()
        return m(x.double())

    def apply(L, device):
        m = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Sequential(L.nn.ReLU(), L.nn.Linear(2, 1)))
        seen = []
        r = m.apply(lambda mm: seen.append(type(mm).__name__))
        return [r is m, seen]

    def attributes(L, device):
        m = _net(L, device)
        out = {"plain is a buffer": any(b is m.plain for b in m.buffers()), "factor": m.factor,
               "hasattr fc": hasattr(m, "fc"), "hasattr missing": hasattr(m, "missing")}
        m.extra = L.nn.Parameter(L.zeros(1))
        m.child = L.nn.ReLU()
        out["after assigning"] = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_children()]
        del m.extra
        del m.child
        out["after deleting"] = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_children()]
        m.offset = L.full((2,), 7.0)
        out["reassigned buffer"] = dict(m.named_buffers())
        m.register_parameter("none", None)
        out["None parameter"] = [n for n, _ in m.named_parameters()] + list(m.state_dict())
        m.register_buffer("nobuf", None)
        out["None buffer"] = [n for n, _ in m.named_buffers()] + list(m.state_dict())
        m.fc = None
        out["module set to None"] = [n for n, _ in m.named_parameters()] + [n for n, _ in m.named_modules()]
        return out

    def assign_tensor_to_parameter(L, device):
        m = L.nn.Linear(3, 2)
        m.weight = L.zeros(2, 3)
        return m.weight

    def assign_before_init(L, device):
        class Bad(L.nn.Module):
            def __init__(self):
                self.fc = L.nn.Linear(3, 2)
                super().__init__()
        return Bad()

    def missing_attribute(L, device):
        return L.nn.Linear(3, 2).nonexistent

    def no_forward(L, device, x):
        return L.nn.Module()(x)

    def module_init_args(L, device):
        return L.nn.Module(3)

    def isinstance_relations(L, device):
        lin = L.nn.Linear(3, 2)
        return [isinstance(lin, L.nn.Module), isinstance(L.nn.Sequential(), L.nn.Module),
                isinstance(L.nn.ModuleList(), L.nn.Module), isinstance(L.nn.ModuleDict(), L.nn.Module),
                isinstance(L.nn.ParameterList(), L.nn.Module), isinstance(L.nn.ParameterDict(), L.nn.Module),
                isinstance(lin.weight, L.nn.Parameter), isinstance(lin.weight, L.Tensor),
                isinstance(L.nn.ReLU6(), L.nn.Hardtanh), isinstance(L.nn.LogSoftmax(), L.nn.Softmax),
                isinstance(L.nn.UpsamplingNearest2d(scale_factor=2), L.nn.Upsample),
                isinstance(L.nn.LSTM(3, 4), L.nn.RNNBase), isinstance(L.nn.GRUCell(3, 4), L.nn.RNNCellBase),
                isinstance(L.nn.BatchNorm2d(3), L.nn.BatchNorm1d), isinstance(L.nn.Dropout2d(), L.nn.Dropout),
                isinstance(L.nn.ZeroPad2d(1), L.nn.ConstantPad2d), isinstance(L.nn.CrossEntropyLoss(), L.nn.NLLLoss),
                issubclass(L.nn.Conv2d, L.nn.Module), issubclass(L.nn.Parameter, L.Tensor),
                isinstance(L.nn.Identity(), L.nn.Module), isinstance(L.nn.Linear(3, 2).weight.data, L.nn.Parameter)]

    def hooks(L, device, x):
        m = _net(L, device)
        calls = []
        h1 = m.register_forward_pre_hook(lambda mod, args: calls.append("pre") or (args[0] * 2,))
        h2 = m.register_forward_hook(lambda mod, args, out: calls.append("post") or out + 1)
        a = m(x)
        h1.remove()
        b = m(x)
        h2.remove()
        c = m(x)
        return {"hooked": a, "post only": b, "none": c, "calls": calls}

    def hooks_kwargs(L, device, x):
        m = L.nn.Linear(3, 2)
        set_parameters(L, m, device)
        m.register_forward_pre_hook(lambda mod, args, kwargs: ((args[0] + 1,), kwargs), with_kwargs=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: out * 3, with_kwargs=True)
        return m(x)

    def backward_hook(L, device, x):
        m = L.nn.Linear(3, 2)
        set_parameters(L, m, device)
        seen = []
        m.register_full_backward_hook(lambda mod, gin, gout: seen.append([list(g.shape) if g is not None else None
                                                                          for g in gin + gout]))
        backward(L, device, m(x))
        return {"seen": seen, "x_grad": x.grad}

    def nested_custom(L, device, x):
        class Block(L.nn.Module):
            def __init__(self, n):
                super().__init__()
                self.layers = L.nn.ModuleList([L.nn.Linear(3, 3) for _ in range(n)])
                self.norm = L.nn.LayerNorm(3)
                self.act = L.nn.GELU()

            def forward(self, x):
                for layer in self.layers:
                    x = self.act(layer(x)) + x
                return self.norm(x)

        class Model(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = L.nn.Sequential(Block(2), Block(1))
                self.heads = L.nn.ModuleDict({"a": L.nn.Linear(3, 2), "b": L.nn.Linear(3, 1)})
                self.tied = self.heads["a"]

            def forward(self, x):
                h = self.blocks(x)
                return {k: head(h) for k, head in self.heads.items()}
        m = set_parameters(L, Model().to(device), device)
        out = m(x)
        backward(L, device, list(out.values()))
        return {"out": out, "parameters": _names(m.named_parameters()), "state_dict": list(m.state_dict()),
                "modules": [n for n, _ in m.named_modules()],
                "grads": {n: p.grad for n, p in m.named_parameters()}, "repr": repr(m)}

    def shared_parameter(L, device):
        a = L.nn.Linear(3, 3)
        m = L.nn.Sequential(a, L.nn.ReLU(), a)
        return {"parameters": _names(m.named_parameters()), "state_dict": list(m.state_dict()),
                "modules": [n for n, _ in m.named_modules()], "count": len(list(m.parameters()))}

    def repr_custom(L, device):
        return repr(_net(L, device)).replace("porta.", "torch.")

    def register_errors(L, device):
        out = []
        m = L.nn.Module()
        for fn in (lambda: m.register_buffer("a.b", L.zeros(1)), lambda: m.register_parameter("", None),
                   lambda: m.register_buffer("x", 3), lambda: m.register_parameter("p", L.zeros(1)),
                   lambda: m.add_module("c.d", L.nn.ReLU()), lambda: m.add_module("e", 3)):
            try:
                fn()
                out.append("ok")
            except Exception as e:  # noqa: BLE001 - which kind of error is what is compared
                out.append(type(e).__name__ if type(e).__name__ in ("KeyError", "TypeError") else "error")
        return out

    def get_submodule(L, device):
        m = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Sequential(L.nn.ReLU(), L.nn.Linear(2, 1)))
        return [type(m.get_submodule("1.1")).__name__, list(m.get_parameter("1.1.weight").shape)]

    def deepcopy(L, device, x):
        import copy
        m = _net(L, device)
        c = copy.deepcopy(m)
        with L.no_grad():
            c.fc.weight.add_(1)
        return {"original": m(x), "copy": c(x), "distinct": c.fc.weight is not m.fc.weight,
                "parameter": isinstance(c.fc.weight, L.nn.Parameter)}

    return [
        ("forward and backward", forward_backward, (T("float32", (4, 3), grad=True),)),
        ("registries", registries, ()),
        ("recurse=False and prefix", not_recursive, ()),
        ("state_dict values", state_dict_values, ()),
        ("load_state_dict", lambda L, device: load(L, device, True), ()),
        ("load_state_dict strict missing", lambda L, device: load(L, device, True, drop=("offset",)), ()),
        ("load_state_dict strict unexpected", lambda L, device: load(L, device, True, extra=("extra",)), ()),
        ("load_state_dict not strict", lambda L, device: load(L, device, False, drop=("fc.bias",),
                                                               extra=("extra",)), ()),
        ("load_state_dict shape mismatch", load_shape_mismatch, ()),
        ("load_state_dict keeps the parameter", load_keeps_identity, ()),
        ("train and eval", modes, ()),
        ("train(non-bool)", train_not_bool, ()),
        ("requires_grad_", requires_grad, ()),
        ("zero_grad", zero_grad, (T("float32", (4, 3)),)),
        ("casts", casts, ()),
        ("double() values", cast_values, (T("float32", (4, 3)),)),
        ("apply", apply, ()),
        ("attributes", attributes, ()),
        ("tensor assigned to a parameter", assign_tensor_to_parameter, ()),
        ("assignment before __init__", assign_before_init, ()),
        ("missing attribute", missing_attribute, ()),
        ("no forward", no_forward, (T("float32", (2,)),)),
        ("Module(3)", module_init_args, ()),
        ("isinstance", isinstance_relations, ()),
        ("forward hooks", hooks, (T("float32", (4, 3)),)),
        ("forward hooks with_kwargs", hooks_kwargs, (T("float32", (4, 3)),)),
        ("full backward hook", backward_hook, (T("float32", (4, 3), grad=True),)),
        ("nested custom model", nested_custom, (T("float32", (2, 3), grad=True),)),
        ("shared submodule", shared_parameter, ()),
        ("repr", repr_custom, ()),
        ("register errors", register_errors, ()),
        ("get_submodule", get_submodule, ()),
        ("deepcopy", deepcopy, (T("float32", (4, 3)),)),
    ]


def _sequential_programs():
    def seq(L):
        return L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.Linear(4, 2))

    def forward(L, device, x):
        m = set_parameters(L, seq(L).to(device), device)
        out = m(x)
        backward(L, device, out)
        return {"out": out, "grads": {n: p.grad for n, p in m.named_parameters()}, "x": x.grad}

    def container(L, device):
        m = seq(L)
        return {"len": len(m), "types": [type(c).__name__ for c in m], "0": type(m[0]).__name__,
                "-1": type(m[-1]).__name__, "slice": type(m[1:]).__name__, "slice len": len(m[1:]),
                "slice names": [n for n, _ in m[1:].named_children()],
                "names": [n for n, _ in m.named_children()], "parameters": _names(m.named_parameters()),
                "state_dict": list(m.state_dict())}

    def ordered_dict(L, device):
        from collections import OrderedDict
        m = L.nn.Sequential(OrderedDict([("fc", L.nn.Linear(3, 2)), ("act", L.nn.Tanh())]))
        return {"names": [n for n, _ in m.named_children()], "parameters": _names(m.named_parameters()),
                "attr": type(m.fc).__name__, "repr": repr(m)}

    def mutate(L, device):
        m = seq(L)
        r = m.append(L.nn.Sigmoid())
        out = {"append returns self": r is m, "after append": [n for n, _ in m.named_children()]}
        del m[1]
        out["after del"] = [[n, type(c).__name__] for n, c in m.named_children()]
        m[0] = L.nn.Identity()
        out["after setitem"] = [[n, type(c).__name__] for n, c in m.named_children()]
        m.insert(1, L.nn.ReLU())
        out["after insert"] = [[n, type(c).__name__] for n, c in m.named_children()]
        m.extend([L.nn.Tanh()])
        out["after extend"] = [[n, type(c).__name__] for n, c in m.named_children()]
        out["pop"] = type(m.pop(0)).__name__
        out["after pop"] = [[n, type(c).__name__] for n, c in m.named_children()]
        return out

    def add(L, device):
        a = L.nn.Sequential(L.nn.ReLU())
        b = L.nn.Sequential(L.nn.Tanh(), L.nn.Sigmoid())
        c = a + b
        return [type(c).__name__, [type(m).__name__ for m in c], len(a)]

    def empty(L, device, x):
        return L.nn.Sequential()(x)

    def index_error(L, device):
        return seq(L)[3]

    def multi_arg(L, device, x):
        return L.nn.Sequential(L.nn.Linear(3, 2))(x, x)

    def repr_(L, device):
        return repr(L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Sequential(L.nn.ReLU(), L.nn.Dropout(0.2))))

    return [
        ("forward and backward", forward, (T("float32", (4, 3), grad=True),)),
        ("container", container, ()),
        ("OrderedDict", ordered_dict, ()),
        ("append, del, setitem, insert, extend, pop", mutate, ()),
        ("+", add, ()),
        ("empty", empty, (T("float32", (2, 3)),)),
        ("index out of range", index_error, ()),
        ("two inputs", multi_arg, (T("float32", (2, 3)),)),
        ("repr", repr_, ()),
    ]


def _modulelist_programs():
    def ml(L):
        return L.nn.ModuleList([L.nn.Linear(3, 3), L.nn.ReLU(), L.nn.Linear(3, 2)])

    def container(L, device):
        m = ml(L)
        return {"len": len(m), "types": [type(c).__name__ for c in m], "-1": type(m[-1]).__name__,
                "slice": [type(m[:2]).__name__, len(m[:2]), [n for n, _ in m[1:].named_children()]],
                "names": [n for n, _ in m.named_children()], "parameters": _names(m.named_parameters()),
                "state_dict": list(m.state_dict()), "in": m[0] in m}

    def mutate(L, device):
        m = ml(L)
        out = {"append returns self": m.append(L.nn.Tanh()) is m}
        out["extend returns self"] = m.extend([L.nn.Sigmoid(), L.nn.GELU()]) is m
        m.insert(1, L.nn.Identity())
        out["after insert"] = [[n, type(c).__name__] for n, c in m.named_children()]
        m[0] = L.nn.Linear(3, 5)
        out["after setitem"] = [[n, type(c).__name__] for n, c in m.named_children()]
        del m[1]
        out["after del"] = [[n, type(c).__name__] for n, c in m.named_children()]
        m += [L.nn.ReLU6()]
        out["after +="] = [[n, type(c).__name__] for n, c in m.named_children()]
        out["pop"] = type(m.pop(-1)).__name__
        out["len"] = len(m)
        return out

    def add(L, device):
        c = ml(L) + L.nn.ModuleList([L.nn.Tanh()])
        return [type(c).__name__, len(c), [n for n, _ in c.named_children()]]

    def in_module(L, device, x):
        class M(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = ml(L)

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x
        m = set_parameters(L, M().to(device), device)
        out = m(x)
        backward(L, device, out)
        return {"out": out, "grads": {n: p.grad for n, p in m.named_parameters()}}

    def not_a_module(L, device):
        return L.nn.ModuleList([L.nn.ReLU(), 3])

    def no_forward(L, device, x):
        return ml(L)(x)

    def index_error(L, device):
        return ml(L)[5]

    return [
        ("container", container, ()),
        ("append, extend, insert, setitem, del, +=, pop", mutate, ()),
        ("+", add, ()),
        ("in a Module", in_module, (T("float32", (4, 3), grad=True),)),
        ("not a module", not_a_module, ()),
        ("no forward", no_forward, (T("float32", (2, 3)),)),
        ("index out of range", index_error, ()),
        ("repr", lambda L, device: repr(ml(L)), ()),
        ("empty", lambda L, device: [len(L.nn.ModuleList()), list(L.nn.ModuleList().parameters())], ()),
    ]


def _moduledict_programs():
    def md(L):
        return L.nn.ModuleDict({"b": L.nn.Linear(3, 2), "a": L.nn.ReLU(), "c": L.nn.Linear(2, 1)})

    def container(L, device):
        m = md(L)
        return {"len": len(m), "keys": list(m.keys()), "iter": list(m), "values": [type(v).__name__ for v in
                                                                                  m.values()],
                "items": [[k, type(v).__name__] for k, v in m.items()], "in": ["a" in m, "z" in m],
                "getitem": type(m["c"]).__name__, "parameters": _names(m.named_parameters()),
                "state_dict": list(m.state_dict()), "attr": type(m.b).__name__}

    def mutate(L, device):
        m = md(L)
        m["d"] = L.nn.Tanh()
        m["a"] = L.nn.Sigmoid()
        out = {"after setitem": [[k, type(v).__name__] for k, v in m.items()]}
        out["pop"] = type(m.pop("b")).__name__
        del m["c"]
        out["after pop and del"] = list(m.keys())
        m.update({"e": L.nn.ReLU(), "a": L.nn.Identity()})
        m.update([("f", L.nn.GELU())])
        out["after update"] = [[k, type(v).__name__] for k, v in m.items()]
        m.clear()
        out["after clear"] = len(m)
        return out

    def ordered(L, device):
        from collections import OrderedDict
        m = L.nn.ModuleDict(OrderedDict([("z", L.nn.ReLU()), ("y", L.nn.Linear(2, 2))]))
        m2 = L.nn.ModuleDict([("z", L.nn.ReLU()), ("y", L.nn.Linear(2, 2))])
        return [list(m.keys()), list(m2.keys()), _names(m2.named_parameters())]

    def missing_key(L, device):
        return md(L)["zz"]

    def not_a_module(L, device):
        m = md(L)
        m["x"] = 3
        return list(m.keys())

    def no_forward(L, device, x):
        return md(L)(x)

    def in_module(L, device, x):
        class M(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = md(L)

            def forward(self, x):
                return self.layers["c"](self.layers["a"](self.layers["b"](x)))
        m = set_parameters(L, M().to(device), device)
        out = m(x)
        backward(L, device, out)
        return {"out": out, "grads": {n: p.grad for n, p in m.named_parameters()}}

    return [
        ("container", container, ()),
        ("setitem, pop, del, update, clear", mutate, ()),
        ("OrderedDict and pairs", ordered, ()),
        ("missing key", missing_key, ()),
        ("not a module", not_a_module, ()),
        ("no forward", no_forward, (T("float32", (2, 3)),)),
        ("in a Module", in_module, (T("float32", (4, 3), grad=True),)),
        ("repr", lambda L, device: repr(md(L)), ()),
    ]


def _parameter_programs():
    def basics(L, device, t):
        p = L.nn.Parameter(t)
        return {"requires_grad": p.requires_grad, "is_leaf": p.is_leaf, "Parameter": isinstance(p, L.nn.Parameter),
                "Tensor": isinstance(p, L.Tensor), "value": p, "dtype": str(p.dtype).split(".")[-1],
                "grad": p.grad, "type(p * 2) is Parameter": isinstance(p * 2, L.nn.Parameter),
                "p * 2": p * 2, "detach is Parameter": isinstance(p.detach(), L.nn.Parameter),
                "repr starts": repr(p).split("\n")[0]}

    def no_grad_param(L, device, t):
        p = L.nn.Parameter(t, requires_grad=False)
        return {"requires_grad": p.requires_grad, "value": p, "Parameter": isinstance(p, L.nn.Parameter)}

    def shares_storage(L, device, t):
        p = L.nn.Parameter(t)
        with L.no_grad():
            t.add_(1)
        return p

    def from_grad_tensor(L, device, t):
        y = t * 2
        p = L.nn.Parameter(y)
        return {"is_leaf": p.is_leaf, "requires_grad": p.requires_grad, "grad_fn": p.grad_fn is None}

    def grads(L, device, t):
        p = L.nn.Parameter(t)
        (p * p).sum().backward()
        return {"grad": p.grad, "p": p}

    def empty(L, device):
        p = L.nn.Parameter()
        return {"shape": list(p.shape), "requires_grad": p.requires_grad, "dtype": str(p.dtype).split(".")[-1]}

    def of_parameter(L, device, t):
        p = L.nn.Parameter(L.nn.Parameter(t))
        return {"Parameter": isinstance(p, L.nn.Parameter), "requires_grad": p.requires_grad}

    def not_tensor(L, device):
        return L.nn.Parameter([1.0, 2.0])

    def inplace(L, device, t):
        p = L.nn.Parameter(t)
        with L.no_grad():
            p.mul_(2)
        out = {"after no_grad mul_": p, "still Parameter": isinstance(p, L.nn.Parameter)}
        try:
            p.add_(1)
            out["add_ with grad"] = "ok"
        except RuntimeError:
            out["add_ with grad"] = "RuntimeError"
        return out

    def data(L, device, t):
        p = L.nn.Parameter(t)
        p.data = L.zeros(2, 2, device=device)
        return {"p": p, "Parameter": isinstance(p, L.nn.Parameter), "requires_grad": p.requires_grad}

    def requires_grad_off(L, device, t):
        p = L.nn.Parameter(t)
        p.requires_grad_(False)
        return [p.requires_grad, isinstance(p, L.nn.Parameter), (p * 2).requires_grad]

    cases = [("basics", basics, (T("float32", (2, 3)),)), ("basics", basics, (T("float64", (3,)),)),
             ("basics", basics, (T("float16", (2,)),)), ("basics", basics, (T("bfloat16", (2,)),)),
             ("basics", basics, (T("float32", ()),)), ("basics", basics, (T("float32", (0, 2)),)),
             ("requires_grad=False", no_grad_param, (T("float32", (2, 3)),)),
             ("shares storage", shares_storage, (T("float32", (2, 3)),)),
             ("from a non-leaf", from_grad_tensor, (T("float32", (2, 3), grad=True),)),
             ("backward", grads, (T("float32", (2, 3)),)), ("Parameter()", empty, ()),
             ("of a Parameter", of_parameter, (T("float32", (2,)),)), ("not a tensor", not_tensor, ()),
             ("in-place", inplace, (T("float32", (2, 3)),)), (".data", data, (T("float32", (2, 3)),)),
             ("requires_grad_(False)", requires_grad_off, (T("float32", (2,)),)),
             ("transposed", basics, (T("float32", (3, 4), layout="transposed"),))]
    for d in ("int64", "int32", "uint8", "bool"):
        cases.append(("basics", basics, (T(d, (3,)),)))
        cases.append(("requires_grad=False", no_grad_param, (T(d, (3,)),)))
    return cases


def _parameterlist_programs():
    def pl(L):
        return L.nn.ParameterList([L.nn.Parameter(L.ones(2)), L.zeros(3), L.nn.Parameter(L.ones(1),
                                                                                       requires_grad=False)])

    def container(L, device):
        m = pl(L)
        return {"len": len(m), "values": list(m), "-1": m[-1], "requires_grad": [p.requires_grad for p in m],
                "Parameter": [isinstance(p, L.nn.Parameter) for p in m], "parameters": _names(m.named_parameters()),
                "state_dict": list(m.state_dict()), "slice": [type(m[1:]).__name__, len(m[1:])]}

    def mutate(L, device):
        m = pl(L)
        out = {"append returns self": m.append(L.full((2,), 5.0)) is m}
        out["extend returns self"] = m.extend([L.ones(4)]) is m
        m[0] = L.full((1,), 9.0)
        m += [L.zeros(5)]
        out["after"] = _names(m.named_parameters())
        out["values"] = list(m)
        out["setitem wrapped"] = [isinstance(m[0], L.nn.Parameter), m[0].requires_grad]
        return out

    def in_module(L, device, x):
        class M(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.ws = L.nn.ParameterList([L.nn.Parameter(L.ones(3) * (i + 1)) for i in range(3)])

            def forward(self, x):
                for w in self.ws:
                    x = x * w
                return x
        m = M().to(device)
        out = m(x)
        backward(L, device, out)
        return {"out": out, "parameters": _names(m.named_parameters()), "state_dict": list(m.state_dict()),
                "grads": [w.grad for w in m.ws]}

    def index_error(L, device):
        return pl(L)[3]

    def cast(L, device):
        m = pl(L).double()
        return [str(p.dtype).split(".")[-1] for p in m]

    return [
        ("container", container, ()), ("append, extend, setitem, +=", mutate, ()),
        ("in a Module", in_module, (T("float32", (2, 3), grad=True),)), ("index out of range", index_error, ()),
        ("double()", cast, ()),
        ("empty", lambda L, device: [len(L.nn.ParameterList()), list(L.nn.ParameterList().parameters())], ()),
        ("repr", lambda L, device: repr(pl(L)).replace("porta.", "torch."), ()),
    ]


def _parameterdict_programs():
    def pd(L):
        return L.nn.ParameterDict({"w": L.nn.Parameter(L.ones(2)), "b": L.zeros(3)})

    def container(L, device):
        m = pd(L)
        return {"len": len(m), "keys": list(m.keys()), "iter": list(m), "values": list(m.values()),
                "items": [[k, v] for k, v in m.items()], "in": ["w" in m, "z" in m], "getitem": m["b"],
                "Parameter": [isinstance(v, L.nn.Parameter) for v in m.values()],
                "requires_grad": [v.requires_grad for v in m.values()],
                "parameters": _names(m.named_parameters()), "state_dict": list(m.state_dict()),
                "get": [m.get("w"), m.get("zz"), m.get("zz", 5)]}

    def mutate(L, device):
        m = pd(L)
        m["c"] = L.full((1,), 2.0)
        m["w"] = L.nn.Parameter(L.full((4,), 3.0))
        out = {"after setitem": [[k, list(v.shape)] for k, v in m.items()]}
        out["pop"] = m.pop("b")
        del m["c"]
        out["after pop and del"] = list(m.keys())
        m.update({"d": L.ones(1)})
        m.update([("e", L.zeros(2))])
        out["after update"] = _names(m.named_parameters())
        m.clear()
        out["after clear"] = len(m)
        return out

    def in_module(L, device, x):
        class M(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.p = L.nn.ParameterDict({"scale": L.nn.Parameter(L.ones(3) * 2), "shift": L.nn.Parameter(
                    L.ones(3))})

            def forward(self, x):
                return x * self.p["scale"] + self.p["shift"]
        m = M().to(device)
        out = m(x)
        backward(L, device, out)
        return {"out": out, "parameters": _names(m.named_parameters()), "state_dict": list(m.state_dict()),
                "grads": {k: v.grad for k, v in m.p.items()}}

    def missing_key(L, device):
        return pd(L)["zz"]

    def int_key(L, device):
        m = pd(L)
        m[3] = L.ones(1)
        return list(m.keys())

    return [
        ("container", container, ()), ("setitem, pop, del, update, clear", mutate, ()),
        ("in a Module", in_module, (T("float32", (2, 3), grad=True),)), ("missing key", missing_key, ()),
        ("int key", int_key, ()),
        ("repr", lambda L, device: repr(pd(L)).replace("porta.", "torch."), ()),
        ("double()", lambda L, device: [str(p.dtype).split(".")[-1] for p in pd(L).double().values()], ()),
    ]


def _rnnbase_programs():
    def build(L, device, mode, **kw):
        m = L.nn.RNNBase(mode, 3, 4, **kw)
        return {"parameters": _names(m.named_parameters()), "state_dict": list(m.state_dict()),
                "all_weights": [[list(w.shape) for w in layer] for layer in m.all_weights],
                "attrs": [m.mode, m.input_size, m.hidden_size, m.num_layers, m.bias, m.batch_first, m.dropout,
                          m.bidirectional, m.proj_size]}

    def forward(L, device, x):
        return L.nn.RNNBase("LSTM", 3, 4)(x)

    def subclasses(L, device):
        return [isinstance(c(3, 4), L.nn.RNNBase) for c in (L.nn.RNN, L.nn.LSTM, L.nn.GRU)] + [
            L.nn.LSTM(3, 4).mode, L.nn.GRU(3, 4).mode, L.nn.RNN(3, 4).mode, L.nn.RNN(3, 4, nonlinearity="relu").mode]

    def flatten(L, device):
        m = L.nn.LSTM(3, 4)
        m.flatten_parameters()
        return len(list(m.parameters()))

    def reset(L, device):
        m = L.nn.GRU(3, 4)
        m.reset_parameters()
        bound = 1 / math.sqrt(4)
        return [bool((p.abs() <= bound).all()) for p in m.parameters()]

    return [
        ("RNNBase('LSTM', 3, 4)", lambda L, device: build(L, device, "LSTM"), ()),
        ("RNNBase('GRU', 3, 4, num_layers=2, bidirectional=True)",
         lambda L, device: build(L, device, "GRU", num_layers=2, bidirectional=True), ()),
        ("RNNBase('RNN_TANH', 3, 4, bias=False, batch_first=True)",
         lambda L, device: build(L, device, "RNN_TANH", bias=False, batch_first=True), ()),
        ("RNNBase('RNN_RELU', 3, 4, dropout=0.5, num_layers=2)",
         lambda L, device: build(L, device, "RNN_RELU", dropout=0.5, num_layers=2), ()),
        ("RNNBase('LSTM', 3, 4, proj_size=2)", lambda L, device: build(L, device, "LSTM", proj_size=2), ()),
        ("RNNBase('NOPE', 3, 4)", lambda L, device: build(L, device, "NOPE"), ()),
        ("forward", forward, (T("float32", (5, 2, 3)),)),
        ("subclasses and mode", subclasses, ()),
        ("flatten_parameters", flatten, ()),
        ("reset_parameters", reset, ()),
    ]


def _rnncellbase_programs():
    def build(L, device, *args, **kw):
        m = L.nn.RNNCellBase(*args, **kw)
        return {"parameters": _names(m.named_parameters()), "attrs": [m.input_size, m.hidden_size, m.bias]}

    def subclasses(L, device):
        return [isinstance(c(3, 4), L.nn.RNNCellBase) for c in (L.nn.RNNCell, L.nn.LSTMCell, L.nn.GRUCell)] + [
            [list(p.shape) for p in c(3, 4).parameters()] for c in (L.nn.RNNCell, L.nn.LSTMCell, L.nn.GRUCell)]

    def reset(L, device):
        m = L.nn.LSTMCell(3, 4)
        m.reset_parameters()
        bound = 1 / math.sqrt(4)
        return [bool((p.abs() <= bound).all()) for p in m.parameters()]

    def extra_repr(L, device):
        return [m.extra_repr() for m in (L.nn.RNNCell(3, 4), L.nn.LSTMCell(3, 4, bias=False),
                                         L.nn.RNNCell(3, 4, nonlinearity="relu"))]

    return [
        ("RNNCellBase(3, 4, True, 4)", lambda L, device: build(L, device, 3, 4, True, 4), ()),
        ("RNNCellBase(3, 4, bias=False, num_chunks=3)",
         lambda L, device: build(L, device, 3, 4, bias=False, num_chunks=3), ()),
        ("subclasses", subclasses, ()),
        ("reset_parameters", reset, ()),
        ("extra_repr", extra_repr, ()),
    ]


def containers():
    for cls, programs in (("Module", _module_programs()), ("Sequential", _sequential_programs()),
                          ("ModuleList", _modulelist_programs()), ("ModuleDict", _moduledict_programs()),
                          ("Parameter", _parameter_programs()), ("ParameterList", _parameterlist_programs()),
                          ("ParameterDict", _parameterdict_programs()), ("RNNBase", _rnnbase_programs()),
                          ("RNNCellBase", _rnncellbase_programs())):
        for tag, program, args in programs:
            yield Case(f"nn.{cls}", args, program=program, tag=tag)


# ---------------------------------------------------------------- initialization


def _init_program(build, rules):
    """The default initialization's distribution: for each parameter, by the first rule whose key is in its name,
    ("uniform", bound): inside +-bound, reaching past half of it, centred; ("normal", std): its std and mean;
    ("const", v): every element v."""
    def program(L, device):
        L.manual_seed(0)
        m = build(L)
        out = {}
        for name, p in m.named_parameters():
            kind, a = next(rule for key, rule in rules if key in name)
            p = p.detach().double()
            if kind == "uniform":
                top = p.abs().max().item()
                out[name] = [top <= a * (1 + 1e-6), top >= 0.5 * a] + (
                    [abs(p.mean().item()) < 0.2 * a] if p.numel() >= 100 else [])
            elif kind == "normal":
                out[name] = [abs(p.std().item() - a) < 0.2 * a, abs(p.mean().item()) < 0.2 * a]
            else:
                out[name] = bool((p == a).all())
        return out
    return program


def inits():
    u = "uniform"
    table = (
        ("Linear", (16, 32), {}, (("", (u, 1 / 4)),)),
        ("Linear", (64, 8), {"dtype": D("float64")}, (("", (u, 1 / 8)),)),
        ("Conv1d", (4, 8, 3), {}, (("", (u, 1 / math.sqrt(12))),)),
        ("Conv2d", (4, 8, 3), {}, (("", (u, 1 / 6)),)),
        ("Conv2d", (4, 8, 3), {"groups": 2}, (("", (u, 1 / math.sqrt(18))),)),
        ("ConvTranspose1d", (4, 8, 3), {}, (("", (u, 1 / math.sqrt(24))),)),
        ("ConvTranspose2d", (4, 8, 3), {}, (("", (u, 1 / math.sqrt(72))),)),
        ("ConvTranspose2d", (4, 8, 3), {"groups": 2}, (("", (u, 1 / math.sqrt(36))),)),
        ("Embedding", (64, 8), {}, (("", ("normal", 1.0)),)),
        ("RNN", (8, 16), {"num_layers": 2, "bidirectional": True}, (("", (u, 1 / 4)),)),
        ("LSTM", (8, 16), {}, (("", (u, 1 / 4)),)),
        ("GRU", (8, 16), {}, (("", (u, 1 / 4)),)),
        ("RNNCell", (8, 16), {}, (("", (u, 1 / 4)),)),
        ("LSTMCell", (8, 16), {}, (("", (u, 1 / 4)),)),
        ("GRUCell", (8, 16), {}, (("", (u, 1 / 4)),)),
        ("MultiheadAttention", (8, 2), {}, (("in_proj_weight", (u, math.sqrt(6 / 32))), ("bias", ("const", 0.0)),
                                            ("out_proj.weight", (u, 1 / math.sqrt(8))))),
        ("LayerNorm", (8,), {}, (("weight", ("const", 1.0)), ("bias", ("const", 0.0)))),
        ("GroupNorm", (2, 8), {}, (("weight", ("const", 1.0)), ("bias", ("const", 0.0)))),
        ("BatchNorm1d", (8,), {}, (("weight", ("const", 1.0)), ("bias", ("const", 0.0)))),
        ("BatchNorm2d", (8,), {}, (("weight", ("const", 1.0)), ("bias", ("const", 0.0)))),
        ("TransformerEncoderLayer", (8, 2), {"dim_feedforward": 16},
         (("in_proj_weight", (u, math.sqrt(6 / 32))), ("in_proj_bias", ("const", 0.0)),
          ("out_proj.bias", ("const", 0.0)), ("out_proj.weight", (u, 1 / math.sqrt(8))),
          ("linear1", (u, 1 / math.sqrt(8))), ("linear2", (u, 1 / 4)), ("norm", ("const", 1.0)))),
    )
    for cls, args, kwargs, rules in table:
        if cls == "TransformerEncoderLayer":
            rules = tuple((k, r) if k != "norm" else None for k, r in rules)
            rules = tuple(r for r in rules if r) + (("norm1.weight", ("const", 1.0)), ("norm2.weight", ("const", 1.0)),
                                                    ("norm1.bias", ("const", 0.0)), ("norm2.bias", ("const", 0.0)))
        yield Case(f"nn.{cls}", (), program=_init_program(builder(cls, args, kwargs), rules),
                   tag=_text(cls, args, kwargs) + " init")
        if cls not in ("MultiheadAttention", "TransformerEncoderLayer"):  # PyTorch's have no public one
            yield Case(f"nn.{cls}", (), program=_reset_program(builder(cls, args, kwargs)),
                       tag=_text(cls, args, kwargs) + " reset_parameters")


def _reset_program(build):
    """reset_parameters() draws new values (norm layers: back to ones and zeros): which parameters still hold the
    7.0 they were filled with."""
    def program(L, device):
        m = build(L)
        with L.no_grad():
            for p in m.parameters():
                p.fill_(7.0)
        m.reset_parameters()
        return {n: bool((p == 7.0).all()) for n, p in m.named_parameters()}
    return program


# ---------------------------------------------------------------- classes Porta may lack


def missing_classes():
    """Module classes of PyTorch that real programs use; where Porta lacks one, its cases count as missing."""
    def tcfg(**kw):
        return dict({"d_model": 4, "nhead": 2, "dim_feedforward": 8, "dropout": 0.0}, **kw)
    x = T("float32", (3, 2, 4), grad=True)
    mem = T("float32", (5, 2, 4), grad=True)
    causal = T("bool", (3, 3), CAUSAL3)
    for kw in (tcfg(), tcfg(norm_first=True), tcfg(batch_first=True, activation="gelu")):
        shape = (2, 3, 4) if kw.get("batch_first") else (3, 2, 4)
        mshape = (2, 5, 4) if kw.get("batch_first") else (5, 2, 4)
        yield mod("TransformerDecoderLayer", ((), kw), (T("float32", shape, grad=True),
                                                        T("float32", mshape, grad=True)), train=False)
        yield mod("TransformerDecoderLayer", ((), kw), (T("float32", shape, grad=True),
                                                        T("float32", mshape, grad=True)),
                  {"tgt_mask": causal, "tgt_is_causal": True}, train=False)
    yield from structure("TransformerDecoderLayer", (), tcfg())
    tr = {"d_model": 4, "nhead": 2, "num_encoder_layers": 1, "num_decoder_layers": 1, "dim_feedforward": 8,
          "dropout": 0.0}
    yield mod("Transformer", ((), tr), (mem, x), train=False)
    yield mod("Transformer", ((), dict(tr, batch_first=True)), (T("float32", (2, 5, 4), grad=True),
                                                                 T("float32", (2, 3, 4), grad=True)),
              {"tgt_mask": causal}, train=False)
    yield from structure("Transformer", (), tr)

    def encoder(L, layers=2, norm=False, **kw):
        layer = L.nn.TransformerEncoderLayer(4, 2, 8, 0.0, **kw)
        return L.nn.TransformerEncoder(layer, layers, norm=L.nn.LayerNorm(4) if norm else None,
                                       enable_nested_tensor=False)
    for tag, build, fwd in (("(layer, 2)", lambda L: encoder(L), {}),
                            ("(layer, 2, norm=LayerNorm(4))", lambda L: encoder(L, norm=True), {}),
                            ("(layer batch_first, 1) masks", lambda L: encoder(L, 1, batch_first=True),
                             {"mask": causal, "src_key_padding_mask": T("bool", (2, 3), PAD_FIRST)})):
        inp = T("float32", (2, 3, 4), grad=True) if "batch_first" in tag else x
        yield Case("nn.TransformerEncoder", (inp,), fwd, program=module_program(build, train=False), tag=tag)
    yield Case("nn.TransformerEncoder", (), program=_structure_program(lambda L: encoder(L)), tag="structure")
    yield Case("nn.TransformerDecoder", (x, mem), program=module_program(
        lambda L: L.nn.TransformerDecoder(L.nn.TransformerDecoderLayer(4, 2, 8, 0.0), 2), train=False),
        tag="(layer, 2)")
    # Bilinear
    for kw in ({}, {"bias": False}):
        yield mod("Bilinear", ((3, 2, 4), kw), (T("float32", (5, 3), grad=True), T("float32", (5, 2), grad=True)))
        yield from structure("Bilinear", (3, 2, 4), kw)
    yield mod("Bilinear", ((3, 2, 4), {}), (T("float32", (3,)), T("float32", (2,))), tag="unbatched")
    # elementwise
    for cls, ctors in (("PReLU", (((), {}), ((3,), {}), ((), {"init": 0.1}))), ("Hardswish", (((), {}),)),
                       ("Mish", (((), {}),)), ("Softsign", (((), {}),)), ("Hardsigmoid", (((), {}),)),
                       ("CELU", (((), {"alpha": 0.5}),)), ("SELU", (((), {}),)), ("Tanhshrink", (((), {}),)),
                       ("Softmin", (((), {"dim": 1}),)), ("Threshold", (((0.1, 20.0), {}),)),
                       ("GLU", (((), {}),))):
        for ctor in ctors:
            yield mod(cls, ctor, (T("float32", (2, 3, 4), grad=True),))
            yield mod(cls, ctor, (T("float64", (3, 4), "grid", grad=True),))
            yield from structure(cls, *ctor)
    for cls in ("Hardswish", "Mish", "Softsign"):
        for d in ("float16", "bfloat16", "int64"):
            yield mod(cls, ((), {}), (T(d, (2, 3)),))
        yield mod(cls, ((), {}), (T("float64", (12,), "special", grad=True),))
    yield mod("Hardswish", ((), {"inplace": True}), (T("float32", (2, 3)),), grads=False, mutates=True)
    yield mod("Mish", ((), {"inplace": True}), (T("float32", (2, 3)),), grads=False, mutates=True)
    # distances
    for ctor in (((), {}), ((), {"dim": 0}), ((), {"eps": 0.5})):
        yield mod("CosineSimilarity", ctor, (T("float32", (4, 3), grad=True), T("float32", (4, 3), grad=True)))
    yield mod("CosineSimilarity", ((), {}), (T("float32", (4, 3), grad=True), T("float32", (3,), grad=True)),
              tag="broadcast")
    for ctor in (((), {}), ((), {"p": 1.0}), ((), {"keepdim": True}), ((), {"p": math.inf, "eps": 0.0})):
        yield mod("PairwiseDistance", ctor, (T("float32", (4, 3), grad=True), T("float32", (4, 3), grad=True)))
    # shapes
    for args, shape in (((1, (2, 3)), (4, 6)), ((-1, (2, 2)), (3, 4)), ((1, (2, -1)), (4, 6, 5))):
        yield mod("Unflatten", (args, {}), (T("float32", shape, grad=True),))
    yield from structure("Unflatten", (1, (2, 3)))
    for d in ("float32", "int64"):
        yield mod("PixelShuffle", ((2,), {}), (T(d, (1, 8, 2, 3), grad=d == "float32"),))
    yield mod("PixelUnshuffle", ((2,), {}), (T("float32", (1, 2, 4, 6), grad=True),))
    yield mod("PixelShuffle", ((2,), {}), (T("float32", (8, 2, 3)),), tag="unbatched")
    # pools
    for ctor in (((2,), {}), (((3, 2),), {}), ((2,), {"return_indices": True}), (((None, 2),), {})):
        yield mod("AdaptiveMaxPool2d", ctor, (T("float32", (2, 3, 5, 6), "grid", grad=True),))
    yield mod("AdaptiveMaxPool1d", ((2,), {}), (T("float32", (2, 3, 5), grad=True),))
    yield mod("AdaptiveAvgPool1d", ((2,), {}), (T("float32", (2, 3, 5), grad=True),))
    for cls in ("MaxPool1d", "AvgPool1d"):
        for ctor in (((2,), {}), ((3,), {"stride": 1, "padding": 1}), ((2,), {"ceil_mode": True})):
            yield mod(cls, ctor, (T("float32", (2, 3, 7), "grid", grad=True),))
            yield from structure(cls, *ctor)
        yield mod(cls, ((2,), {}), (T("float32", (3, 7), grad=True),), tag="unbatched")
    yield mod("MaxPool1d", ((2,), {"return_indices": True}), (T("float32", (2, 3, 7), grad=True),))
    yield mod("MaxPool3d", ((2,), {}), (T("float32", (1, 2, 4, 4, 4), grad=True),))
    yield mod("AvgPool3d", ((2,), {}), (T("float32", (1, 2, 4, 4, 4), grad=True),))
    yield mod("AdaptiveAvgPool3d", ((1,), {}), (T("float32", (1, 2, 3, 4, 4), grad=True),))
    # norms
    for cls, shape in (("InstanceNorm1d", (2, 3, 5)), ("InstanceNorm2d", (2, 3, 4, 4)),
                       ("InstanceNorm3d", (2, 3, 2, 2, 3))):
        for kw in ({}, {"affine": True}, {"track_running_stats": True}):
            for train in (True, False):
                yield mod(cls, ((3,), kw), (T("float32", shape, grad=True),), train=train)
        yield from structure(cls, (3,), {"affine": True})
    yield mod("InstanceNorm2d", ((3,), {}), (T("float32", (3, 4, 4), grad=True),), tag="unbatched")
    for train in (True, False):
        yield mod("BatchNorm3d", ((3,), {}), (T("float32", (2, 3, 2, 2, 3), grad=True),), train=train)
        yield mod("BatchNorm3d", ((3,), {"affine": False, "momentum": None}), (T("float32", (2, 3, 2, 2, 3),
                                                                                  grad=True),), train=train)
        yield mod("SyncBatchNorm", ((3,), {}), (T("float32", (2, 3, 2, 2), grad=True),), train=train)
        yield mod("LocalResponseNorm", ((2,), {}), (T("float32", (2, 3, 2, 2), grad=True),), train=train)
    yield from structure("BatchNorm3d", (3,))
    yield mod("RMSNorm", ((4,), {}), (T("float32", (3, 4), grad=True),))
    yield mod("RMSNorm", ((4,), {"eps": 1e-3, "elementwise_affine": False}), (T("float32", (3, 4), grad=True),))
    yield from structure("RMSNorm", (4,))
    # convs
    for kw in ({}, {"stride": 2, "padding": 1}, {"groups": 2}, {"padding": "same", "bias": False}):
        yield mod("Conv3d", ((2, 4, 2), kw), (T("float32", (1, 2, 3, 4, 4), grad=True),))
        yield from structure("Conv3d", (2, 4, 2), kw)
    yield mod("Conv3d", ((2, 4, 2), {}), (T("float32", (2, 3, 4, 4), grad=True),), tag="unbatched")
    yield mod("ConvTranspose3d", ((2, 4, 2), {"stride": 2}), (T("float32", (1, 2, 2, 3, 3), grad=True),))
    yield mod("Fold", ((), {"output_size": (4, 5), "kernel_size": 2}), (T("float32", (1, 12, 12), grad=True),))
    yield mod("Unfold", ((), {"kernel_size": 2}), (T("float32", (1, 3, 4, 5), grad=True),))
    # EmbeddingBag
    idx = T("int64", (8,), values=(0, 2, 4, 4, 1, 3, 0, 2))
    offsets = T("int64", (3,), values=(0, 3, 3))
    for mode in ("mean", "sum", "max"):
        yield mod("EmbeddingBag", ((5, 3), {"mode": mode}), (idx, offsets))
        yield mod("EmbeddingBag", ((5, 3), {"mode": mode}), (T("int64", (2, 4), "index:5"),), tag="2-d input")
    yield mod("EmbeddingBag", ((5, 3), {"mode": "sum"}), (idx, offsets),
              {"per_sample_weights": T("float32", (8,), grad=True)})
    yield mod("EmbeddingBag", ((5, 3), {"padding_idx": 0}), (idx, offsets))
    yield mod("EmbeddingBag", ((5, 3), {"include_last_offset": True}), (idx, offsets))
    yield from structure("EmbeddingBag", (5, 3), {"mode": "max"})
    # losses Porta may lack
    yield mod("CosineEmbeddingLoss", ((), {}), (T("float32", (4, 3), grad=True), T("float32", (4, 3), grad=True),
                                                T("float32", (4,), (1.0, -1.0))))
    yield mod("MarginRankingLoss", ((), {"margin": 0.5}), (T("float32", (4,), grad=True), T("float32", (4,),
                                                                                            grad=True),
                                                          T("float32", (4,), (1.0, -1.0))))
    yield mod("TripletMarginLoss", ((), {}), (T("float32", (4, 3), grad=True), T("float32", (4, 3), grad=True),
                                              T("float32", (4, 3), grad=True)))
    yield mod("SoftMarginLoss", ((), {}), (T("float32", (4,), grad=True), T("float32", (4,), (1.0, -1.0))))
    yield mod("MultiLabelSoftMarginLoss", ((), {}), (T("float32", (2, 3), grad=True), T("float32", (2, 3),
                                                                                        (0.0, 1.0))))
    yield mod("PoissonNLLLoss", ((), {}), (T("float32", (2, 3), grad=True), T("float32", (2, 3), "positive")))
    yield mod("GaussianNLLLoss", ((), {}), (T("float32", (2, 3), grad=True), T("float32", (2, 3)),
                                            T("float32", (2, 3), "positive", grad=True)))
    yield mod("CTCLoss", ((), {}), (T("float32", (6, 2, 4), grad=True), T("int64", (2, 3), values=(1, 2, 3)),
                                    T("int64", (2,), values=(6, 6)), T("int64", (2,), values=(3, 2))))
    yield mod("MultiMarginLoss", ((), {}), (T("float32", (4, 3), grad=True), T("int64", (4,), "index:3")))
    yield mod("HingeEmbeddingLoss", ((), {}), (T("float32", (4,), grad=True), T("float32", (4,), (1.0, -1.0))))
    # misc
    yield mod("ChannelShuffle", ((2,), {}), (T("float32", (1, 4, 2, 2)),))
    yield mod("ZeroPad1d", ((1,), {}), (T("float32", (2, 3, 4), grad=True),))
    yield mod("ConstantPad3d", ((1, 2.0), {}), (T("float32", (1, 2, 2, 2, 2), grad=True),))
    yield mod("ReflectionPad3d", ((1,), {}), (T("float32", (1, 2, 2, 2, 2), grad=True),))
    yield mod("ReplicationPad3d", ((1,), {}), (T("float32", (1, 2, 2, 2, 2), grad=True),))
    yield mod("AlphaDropout", ((0.5,), {}), (T("float32", (2, 3)),), train=False)
    yield mod("Softmax2d", ((), {}), (T("float32", (1, 3, 2, 2), grad=True),))
    yield mod("Hardshrink", ((), {}), (T("float32", (2, 3), grad=True),))
    yield mod("Softshrink", ((), {}), (T("float32", (2, 3), grad=True),))
    yield mod("RReLU", ((), {}), (T("float32", (2, 3), grad=True),), train=False)
    yield Case("nn.LazyLinear", (T("float32", (2, 3)),), program=_lazy_linear, tag="LazyLinear(4)")


def _lazy_linear(L, device, x):
    m = L.nn.LazyLinear(4)
    out = m(x)
    return {"out shape": list(out.shape), "parameters": _names(m.named_parameters())}


def cases():
    seen = set()
    for c in _all():
        if c.id not in seen:  # sweeps that overlap give the same case twice
            seen.add(c.id)
            yield c


def _all():
    yield from activations()
    yield from softmaxes()
    yield from linears()
    yield from convs()
    yield from conv_transposes()
    yield from pools()
    yield from pads()
    yield from upsamples()
    yield from norms()
    yield from embeddings()
    yield from dropouts()
    yield from flattens()
    yield from regression_losses()
    yield from classification_losses()
    yield from attention()
    yield from recurrent()
    yield from containers()
    yield from inits()
    yield from missing_classes()
    for cls in ("ReLU", "ReLU6", "SiLU", "Sigmoid", "Tanh", "LogSigmoid", "Identity"):
        yield from structure(cls)
    for cls, ctors in (("GELU", ({"approximate": "tanh"},)), ("ELU", ({"alpha": 0.5, "inplace": True},)),
                       ("LeakyReLU", ({"negative_slope": 0.2},)), ("Hardtanh", ({"min_val": -2.0, "max_val": 2.0},)),
                       ("Softplus", ({"beta": 2.0, "threshold": 10.0},)), ("Softmax", ({"dim": 1}, {})),
                       ("LogSoftmax", ({"dim": -1},)), ("ReLU", ({"inplace": True},)),
                       ("ReLU6", ({"inplace": True},)), ("SiLU", ({"inplace": True},))):
        for kw in ctors:
            yield from structure(cls, (), kw)
