"""torch.nn.functional: activations (and their inplace= and trailing-underscore forms), softmax, the losses
(every reduction, weights, ignore_index, label smoothing, class-probability targets, saturated probabilities),
the normalizations, linear and the convolutions, pooling, interpolate, pad, embedding, one_hot, dropout and
scaled_dot_product_attention; and, as cases that count as missing where Porta lacks them, the functional
names real programs use that Porta may not have (normalize, cosine_similarity, unfold, fold, ...)."""
from spec import DTYPES, FLOATS, NP, Case, D, T

from .common import SHAPES_0, SMALL_SCALARS, every_dtype, grad_inputs, layouts

REDUCTIONS = ("mean", "sum", "none")
INF, NAN = float("inf"), float("nan")
# probabilities for binary targets and inputs: the ends, ties and values between
PROBS = (0.0, 1.0, 0.25, 0.5, 0.75, 1.0, 0.0, 0.1, 0.9, 0.3, 0.6, 1.0)
INSIDE = (0.1, 0.5, 0.9, 0.25, 0.75, 0.3, 0.6, 0.05, 0.95, 0.4, 0.2, 0.8)  # strictly inside (0, 1)


def _F(L):
    return L.nn.functional


def _on_nonleaf(name, **fixed):
    """F.<name> on a non-leaf (x * 1), so autograd records an in-place form; the leaf's gradient is compared."""
    return lambda L, device, x, *rest, **kw: getattr(_F(L), name)(x * 1, *rest, **fixed, **kw)


# --------------------------------------------------------------------------------------------------- activations

ACTIVATIONS = {
    "relu": ({},), "relu6": ({},), "sigmoid": ({},), "tanh": ({},), "silu": ({},), "logsigmoid": ({},),
    "gelu": ({}, {"approximate": "tanh"}, {"approximate": "none"}),
    "elu": ({}, {"alpha": 0.5}, {"alpha": 0.0}, {"alpha": -1.5}, {"alpha": 2}),
    "leaky_relu": ({}, {"negative_slope": 0.2}, {"negative_slope": 0}, {"negative_slope": -0.5},
                   {"negative_slope": 1.5}),
    "hardtanh": ({}, {"min_val": -0.5, "max_val": 2.0}, {"min_val": 0.5, "max_val": 0.5}, {"min_val": -2, "max_val": 2},
                 {"min_val": 0.0, "max_val": 6.0}),
    "softplus": ({}, {"beta": 2.0}, {"beta": 0.5, "threshold": 1.0}, {"beta": -1.0}, {"threshold": 0.0}, {"beta": 2},
                 {"beta": 1.0, "threshold": 100.0}),
}
# names PyTorch has that Porta may lack (they count as missing)
MORE_ACTIVATIONS = {
    "hardswish": ({},), "hardsigmoid": ({},), "mish": ({},), "softsign": ({},), "tanhshrink": ({},),
    "selu": ({},), "celu": ({}, {"alpha": 0.5}), "hardshrink": ({}, {"lambd": 0.25}),
    "softshrink": ({}, {"lambd": 0.25}),
}
INPLACE_KW = ("relu", "relu6", "silu", "elu", "leaky_relu", "hardtanh", "hardswish", "hardsigmoid", "mish", "selu",
              "celu")
UNDERSCORE = {"elu_": {"alpha": 0.5}, "leaky_relu_": {"negative_slope": 0.2},
              "hardtanh_": {"min_val": -0.5, "max_val": 0.5}}
MORE_UNDERSCORE = {"relu_": {}, "selu_": {}, "celu_": {}, "rrelu_": {"training": False}}


def activation(name, variants, full=True):
    fn = f"F.{name}"
    ts = every_dtype((2, 3)) + every_dtype((12,), values="special")
    if not full:
        ts = [T(d, (2, 3)) for d in ("float32", "float64", "float16", "bfloat16", "int64")] + \
            [T("float32", (12,), "special")]
    for t in ts:
        yield Case(fn, (t,))
    if full:
        for shape in SHAPES_0:
            yield Case(fn, (T("float32", shape),))
        for t in layouts():
            yield Case(fn, (t,))
    for t in grad_inputs():
        yield Case(fn, (t,), grad=True)
    yield Case(fn, (T("bfloat16", (3, 4), grad=True),), grad=True)
    if full:
        yield Case(fn, (T("float16", (12,), "special", grad=True),), grad=True)
        yield Case(fn, (T("float64", (2, 0, 3), grad=True),), grad=True)
        # saturating inputs: large magnitudes where exp overflows and the tails flatten
        yield Case(fn, (T("float32", (8,), (-100.0, -30.0, -20.0, -5.0, 5.0, 20.0, 30.0, 100.0), grad=True),),
                   grad=True)
    for kw in variants[1:]:
        for t in (T("float32", (12,), "special"), T("float64", (3, 4), "grid"), T("bfloat16", (2, 3)),
                  T("float16", (2, 3)), T("int64", (2, 3))):
            yield Case(fn, (t,), kw)
        yield Case(fn, (T("float64", (12,), "special", grad=True),), kw, grad=True)
        yield Case(fn, (T("float32", (3, 4), "grid", grad=True),), kw, grad=True)


def inplace_forms(name, kw, underscore):
    """inplace=True (or the name_ function): every float dtype and a few others, an expanded input (PyTorch refuses
    to write overlapping memory), a leaf that requires grad (refused), and a non-leaf's gradient."""
    fn = f"F.{name}"
    if not underscore:
        kw = dict(kw, inplace=True)
    for d in ("float32", "float64", "float16", "bfloat16", "int64", "uint8", "bool"):
        yield Case(fn, (T(d, (2, 3)),), kw, mutates=True)
    yield Case(fn, (T("float32", (12,), "special"),), kw, mutates=True)
    yield Case(fn, (T("float32", (2, 3), layout="expanded"),), kw, mutates=True)
    yield Case(fn, (T("float32", (3, 4), layout="transposed"),), kw, mutates=True)
    yield Case(fn, (T("float32", (2, 3), grad=True),), kw, tag="leaf")
    yield Case(fn, (T("float32", (3, 4), "grid", grad=True),), kw, program=_on_nonleaf(name), grad=True,
               tag="non-leaf")
    yield Case(fn, (T("float64", (12,), "special", grad=True),), kw, program=_on_nonleaf(name), grad=True,
               tag="non-leaf")


def activations():
    for name, variants in ACTIVATIONS.items():
        yield from activation(name, variants)
    for name, variants in MORE_ACTIVATIONS.items():
        yield from activation(name, variants, full=False)
    for name in INPLACE_KW:
        variants = ACTIVATIONS.get(name) or MORE_ACTIVATIONS[name]
        yield from inplace_forms(name, variants[-1], underscore=False)
        yield Case(f"F.{name}", (T("float32", (2, 3)),), {"inplace": False}, mutates=True)
    for name, kw in UNDERSCORE.items():
        yield from inplace_forms(name, {}, underscore=True)
        yield from inplace_forms(name, kw, underscore=True)
    for name, kw in MORE_UNDERSCORE.items():
        yield Case(f"F.{name}", (T("float32", (2, 3)),), kw, mutates=True)
    # positional arguments, and arguments PyTorch refuses
    x = T("float32", (3, 4), "grid")
    yield Case("F.elu", (x, 0.5))
    yield Case("F.elu", (x, 0.5, False))
    yield Case("F.leaky_relu", (x, 0.2))
    yield Case("F.hardtanh", (x, -0.5, 0.5))
    yield Case("F.softplus", (x, 2, 5))
    yield Case("F.gelu", (x, "tanh"))
    yield Case("F.gelu", (x,), {"approximate": "erf"})
    yield Case("F.gelu", (x,), {"approximate": None})
    yield Case("F.hardtanh", (x,), {"min_val": 1.0, "max_val": -1.0})
    yield Case("F.hardtanh", (x,), {"min_val": True, "max_val": 3})
    yield Case("F.elu", (x,), {"alpha": "1"})
    yield Case("F.softplus", (x,), {"beta": 0.0})
    yield Case("F.softplus", (x,), {"beta": 1e-30})
    yield Case("F.relu", (x,), {"inplace": 1}, mutates=True)
    yield Case("F.sigmoid", (x,), {"inplace": True})
    yield Case("F.relu6", (T("float32", (2, 3)), True), mutates=True)
    yield Case("F.relu", (T("float32", (2, 3), layout="stepped"),), {"inplace": True}, mutates=True, tag="a view")
    # threshold and glu (names Porta may lack)
    for t in (T("float32", (3, 4), "grid"), T("float64", (12,), "special"), T("int64", (2, 3)), T("float16", (2, 3))):
        yield Case("F.threshold", (t, 0.5, -1.0))
    yield Case("F.threshold", (T("float32", (3, 4), "grid", grad=True), 0.0, 0.0), grad=True)
    yield Case("F.threshold", (T("float32", (3, 4), "grid", grad=True), 0.5, 2.0), grad=True)
    yield Case("F.threshold", (T("float32", (3, 4), "grid"), 0.5, 2.0), {"inplace": True}, mutates=True)
    yield Case("F.threshold_", (T("float32", (3, 4), "grid"), 0.5, 2.0), mutates=True)
    for dim in (-1, 0, 1):
        yield Case("F.glu", (T("float32", (4, 6)),), {"dim": dim})
    yield Case("F.glu", (T("float32", (4, 6), grad=True),), grad=True)
    yield Case("F.glu", (T("float64", (2, 4, 2), grad=True),), {"dim": 1}, grad=True)
    yield Case("F.glu", (T("float32", (3, 5)),))
    yield Case("F.glu", (T("float32", ()),))
    yield Case("F.prelu", (T("float32", (2, 3, 4)), T("float32", (3,), "positive")))
    yield Case("F.prelu", (T("float32", (2, 3, 4), grad=True), T("float32", (1,), "positive", grad=True)), grad=True)
    yield Case("F.rrelu", (T("float32", (2, 3)),), {"training": False})
    yield Case("F.rrelu", (T("float32", (2, 3)),), {"training": True}, random=True)
    yield Case("F.relu", (T("float32", (2, 3)), False))
    # Python scalars of each kind, and NumPy scalars, for the numeric options
    for v in SMALL_SCALARS + (2**60 + 1, NP("float32", 0.5), NP("int64", 2)):
        yield Case("F.elu", (x,), {"alpha": v})
        yield Case("F.leaky_relu", (x,), {"negative_slope": v})
        yield Case("F.softplus", (x,), {"beta": v})
        yield Case("F.softplus", (x,), {"threshold": v})
        yield Case("F.hardtanh", (x,), {"min_val": -10, "max_val": v})


# ------------------------------------------------------------------------------------------------------ softmax

def softmaxes():
    rows = T("float32", (5, 3), (-INF, -INF, -INF, 0.0, -INF, 1.0, INF, 1.0, 2.0, NAN, 0.0, 1.0, INF, INF, -INF))
    for name in ("softmax", "log_softmax"):
        fn = f"F.{name}"
        for t in every_dtype((2, 3)):
            yield Case(fn, (t,), {"dim": -1})
        for dim in (0, 1, 2, -1, -3, 3, -4):
            yield Case(fn, (T("float32", (2, 3, 4)),), {"dim": dim})
        for shape in ((), (3,), (2, 3), (2, 3, 4), (2, 1, 3, 2)):
            yield Case(fn, (T("float32", shape),))
        for dim in (0, -1, 1):
            yield Case(fn, (T("float32", ()),), {"dim": dim})
        for shape, dim in (((0, 3), 1), ((0, 3), 0), ((2, 0), 1), ((2, 0), 0)):
            yield Case(fn, (T("float32", shape),), {"dim": dim})
        for src, to in (("float32", "float64"), ("float16", "float32"), ("int64", "float32"), ("bfloat16", "float64"),
                        ("float64", "float16"), ("bool", "float32"), ("float32", "int64")):
            yield Case(fn, (T(src, (2, 3)),), {"dim": 1, "dtype": D(to)})
        yield Case(fn, (rows,), {"dim": 1})
        yield Case(fn, (rows,), {"dim": 0})
        yield Case(fn, (T("float64", (12,), "special"),), {"dim": 0})
        yield Case(fn, (T("float32", (3,), (1000.0, 1001.0, 1002.0)),), {"dim": 0})
        yield Case(fn, (T("float32", (3,), (-1000.0, 0.0, 1000.0)),), {"dim": 0})
        yield Case(fn, (T("float16", (4,), (60000.0, 60000.0, -60000.0, 1.0)),), {"dim": 0})
        yield Case(fn, (T("bfloat16", (2, 8)),), {"dim": 1})
        for t in layouts():
            yield Case(fn, (t,), {"dim": 0})
            yield Case(fn, (t,), {"dim": -1})
        for t in grad_inputs():
            yield Case(fn, (t,), {"dim": -1}, grad=True)
            yield Case(fn, (t,), {"dim": 0}, grad=True)
        yield Case(fn, (T("float32", (2, 3), grad=True),), {"dim": 1, "dtype": D("float64")}, grad=True)
        yield Case(fn, (T("float64", (5, 3), rows.values, grad=True),), {"dim": 1}, grad=True)
        yield Case(fn, (T("float64", (3,), (-INF, 0.0, 1.0), grad=True),), {"dim": 0}, grad=True)
        yield Case(fn, (T("bfloat16", (2, 5), grad=True),), {"dim": 1}, grad=True)
        yield Case(fn, (T("float16", (2, 5), grad=True),), {"dim": 1}, grad=True)
        yield Case(fn, (T("float32", (2, 3, 4), grad=True),), {"dim": 1}, grad=True)
        yield Case(fn, (T("float32", (2, 3)), 1))
        yield Case(fn, (T("float32", (2, 3)), 0, 3, D("float64")))
        yield Case(fn, (T("float32", (2, 3)),), {"dim": (1,)})
        yield Case(fn, (T("float32", (2, 3)),), {"dim": NP("int64", 1)})
        yield Case(fn, (T("float32", (2, 3)),), {"dim": True})
    yield Case("F.softmin", (T("float32", (2, 3)),), {"dim": 1})
    yield Case("F.softmin", (T("float32", (2, 3), grad=True),), {"dim": 0}, grad=True)
    yield Case("F.gumbel_softmax", (T("float32", (2, 3)),), random=True)


# ------------------------------------------------------------------------------------------------------- losses

def pointwise_loss(name, options):
    """l1, mse, smooth_l1, huber: every reduction and dtype, special values and ties, broadcasting, 0-size,
    the legacy arguments, and each option."""
    fn = f"F.{name}"
    for a in DTYPES:
        yield Case(fn, (T(a, (2, 3)), T(a, (2, 3))))
    for a, b in (("float32", "float64"), ("float64", "float32"), ("float16", "float32"), ("int64", "float32"),
                 ("float32", "int64"), ("bfloat16", "float16")):
        yield Case(fn, (T(a, (2, 3)), T(b, (2, 3))))
    for r in REDUCTIONS:
        for d in FLOATS:
            yield Case(fn, (T(d, (2, 3)), T(d, (2, 3))), {"reduction": r})
        yield Case(fn, (T("float32", (3, 4), grad=True), T("float32", (3, 4), grad=True)), {"reduction": r}, grad=True)
        yield Case(fn, (T("float64", (12,), "special", grad=True), T("float64", (12,), "grid", grad=True)),
                   {"reduction": r}, grad=True)
        yield Case(fn, (T("float64", (3, 4), "grid", grad=True), T("float64", (3, 4), "grid", grad=True)),
                   {"reduction": r}, grad=True)
        yield Case(fn, (T("bfloat16", (3, 4), grad=True), T("bfloat16", (3, 4))), {"reduction": r}, grad=True)
        yield Case(fn, (T("float32", (0, 3)), T("float32", (0, 3))), {"reduction": r})
        yield Case(fn, (T("float32", (0, 3), grad=True), T("float32", (0, 3))), {"reduction": r}, grad=True)
        yield Case(fn, (T("float32", ()), T("float32", ())), {"reduction": r})
        yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (3,))), {"reduction": r}, grad=True)
    # the same value on both sides: |d| = 0, where |d| has no derivative
    same = (0.5, -1.0, 2.0, 0.0, 3.0, -0.25)
    yield Case(fn, (T("float32", (6,), same, grad=True), T("float32", (6,), same, grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3)), T("float32", (3,))))
    yield Case(fn, (T("float32", (3,)), T("float32", (2, 3))))
    yield Case(fn, (T("float32", (2, 3)), T("float32", (4,))))
    yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3))), {"reduction": "avg"})
    yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3))), {"reduction": "batchmean"})
    yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3))), {"reduction": None})
    if name != "huber_loss":
        yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3))), {"size_average": False})
        yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3))), {"reduce": False})
        yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3))), {"size_average": True, "reduce": True})
    for t in layouts():
        yield Case(fn, (t, T("float32", (3, 4))))
    yield Case(fn, (T("float32", (3, 4), layout="transposed", grad=True), T("float32", (3, 4))), grad=True)
    yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3), grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3)), 1.0))
    for kw in options:
        for r in REDUCTIONS:
            yield Case(fn, (T("float64", (3, 4), "grid", grad=True), T("float64", (3, 4), "grid", grad=True)),
                       dict(kw, reduction=r), grad=True)
        yield Case(fn, (T("float32", (12,), "special"), T("float32", (12,), "grid")), kw)
        yield Case(fn, (T("float16", (2, 3)), T("float16", (2, 3))), kw)


def regression_losses():
    yield from pointwise_loss("l1_loss", ())
    yield from pointwise_loss("mse_loss", ())
    yield from pointwise_loss("smooth_l1_loss", ({"beta": 0.5}, {"beta": 2.0}, {"beta": 0.0}, {"beta": 0.25}))
    yield from pointwise_loss("huber_loss", ({"delta": 0.5}, {"delta": 2.0}, {"delta": 0.25}))
    yield Case("F.smooth_l1_loss", (T("float32", (2, 3)), T("float32", (2, 3))), {"beta": -1.0})
    yield Case("F.huber_loss", (T("float32", (2, 3)), T("float32", (2, 3))), {"delta": 0.0})
    yield Case("F.huber_loss", (T("float32", (2, 3)), T("float32", (2, 3))), {"delta": -1.0})
    yield Case("F.smooth_l1_loss", (T("float32", (2, 3)), T("float32", (2, 3)), None, None, "sum", 0.5))
    # weight= (a newer argument of l1_loss, mse_loss and huber_loss)
    for name in ("l1_loss", "mse_loss", "huber_loss"):
        for r in REDUCTIONS:
            yield Case(f"F.{name}", (T("float32", (2, 3), grad=True), T("float32", (2, 3))),
                       {"reduction": r, "weight": T("float32", (2, 3), "positive")}, grad=True)
        yield Case(f"F.{name}", (T("float32", (2, 3)), T("float32", (2, 3))),
                   {"weight": T("float32", (3,), "positive")})


def kl_divs():
    fn = "F.kl_div"
    for r in REDUCTIONS + ("batchmean",):
        for lt in (False, True):
            target = T("float32", (3, 4), "positive" if not lt else "random", grad=True)
            yield Case(fn, (T("float32", (3, 4), grad=True), target), {"reduction": r, "log_target": lt}, grad=True)
            yield Case(fn, (T("float64", (3, 4), grad=True), T("float64", (3, 4), PROBS, grad=True)),
                       {"reduction": r, "log_target": lt}, grad=True)
        yield Case(fn, (T("float32", (0, 4)), T("float32", (0, 4), "positive")), {"reduction": r})
        yield Case(fn, (T("float32", ()), T("float32", (), "positive")), {"reduction": r})
        yield Case(fn, (T("float32", (2, 3, 4)), T("float32", (2, 3, 4), "positive")), {"reduction": r})
    for d in DTYPES:
        yield Case(fn, (T(d, (2, 3)), T(d, (2, 3), "positive")), {"reduction": "sum"})
    yield Case(fn, (T("float64", (12,), "special", grad=True), T("float64", (12,), PROBS, grad=True)),
               {"reduction": "none"}, grad=True)
    yield Case(fn, (T("float64", (12,), "grid", grad=True), T("float64", (12,), "special", grad=True)),
               {"reduction": "none"}, grad=True)
    yield Case(fn, (T("float64", (12,), "grid", grad=True), T("float64", (12,), "special", grad=True)),
               {"reduction": "none", "log_target": True}, grad=True)
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4))), {"reduction": "none"}, tag="negative targets")
    yield Case(fn, (T("float32", (3, 4)), T("float32", (4,), "positive")), {"reduction": "sum"})
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), "positive")))
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), "positive")), {"reduction": "avg"})
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), "positive")), {"size_average": False})
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), "positive")), {"reduce": False})
    yield Case(fn, (T("float16", (3, 4)), T("float16", (3, 4), "positive")), {"reduction": "batchmean"})
    yield Case(fn, (T("bfloat16", (3, 4), grad=True), T("bfloat16", (3, 4), "positive")), {"reduction": "batchmean"},
               grad=True)
    yield Case(fn, (T("float32", (3, 4), layout="transposed"), T("float32", (3, 4), "positive")),
               {"reduction": "batchmean"})


def _bce_of_sigmoid(L, device, z, y, **kw):
    """binary_cross_entropy of sigmoid(z): for large |z| the probability rounds to 0 or 1, the log to -inf, and
    PyTorch clamps the log at -100 (and its gradient's denominator at 1e-12)."""
    return _F(L).binary_cross_entropy(L.sigmoid(z), y, **kw)


def binary_losses():
    fn = "F.binary_cross_entropy"
    p, y = T("float32", (3, 4), INSIDE, grad=True), T("float32", (3, 4), PROBS, grad=True)
    for r in REDUCTIONS:
        yield Case(fn, (p, y), {"reduction": r}, grad=True)
        yield Case(fn, (T("float64", (3, 4), INSIDE, grad=True), T("float64", (3, 4), PROBS)), {"reduction": r},
                   grad=True)
        yield Case(fn, (p, y), {"reduction": r, "weight": T("float32", (4,), "positive")}, grad=True)
        yield Case(fn, (p, y), {"reduction": r, "weight": T("float32", (3, 4), "positive", grad=True)}, grad=True)
        # probabilities exactly 0 and 1: the log is clamped at -100
        yield Case(fn, (T("float32", (12,), PROBS, grad=True), T("float32", (12,), INSIDE)), {"reduction": r},
                   grad=True)
        yield Case(fn, (T("float32", (0, 3)), T("float32", (0, 3))), {"reduction": r})
        yield Case(fn, (T("float32", (), INSIDE, grad=True), T("float32", (), PROBS)), {"reduction": r}, grad=True)
    z = (30.0, -30.0, 100.0, -100.0, 17.0, -17.0, 0.5, 40.0)
    for d in ("float32", "float64"):
        for r in REDUCTIONS:
            yield Case(fn, (T(d, (8,), z, grad=True), T(d, (8,), (0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0))),
                       {"reduction": r}, program=_bce_of_sigmoid, grad=True, tag="sigmoid(z)")
    yield Case(fn, (T("float32", (8,), z, grad=True), T("float32", (8,), (0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0))),
               {"weight": T("float32", (8,), "positive")}, program=_bce_of_sigmoid, grad=True, tag="sigmoid(z)")
    for d in DTYPES:
        yield Case(fn, (T(d, (3, 4), INSIDE), T(d, (3, 4), PROBS)))
    yield Case(fn, (T("float32", (2, 3), INSIDE), T("float64", (2, 3), PROBS)))
    yield Case(fn, (T("float32", (2, 3)), T("float32", (2, 3), PROBS)), tag="outside [0, 1]")
    yield Case(fn, (T("float32", (12,), "special"), T("float32", (12,), PROBS)))
    yield Case(fn, (T("float32", (2, 3), INSIDE), T("float32", (3,), PROBS)))
    yield Case(fn, (T("float32", (2, 3), INSIDE), T("float32", (2, 3), PROBS)), {"reduction": "batchmean"})
    yield Case(fn, (T("float32", (2, 3), INSIDE), T("float32", (2, 3), PROBS)), {"size_average": False})
    yield Case(fn, (T("float32", (3, 4), INSIDE, layout="transposed"), T("float32", (3, 4), PROBS)))
    yield Case(fn, (T("float32", (2, 3), INSIDE), T("float32", (2, 3), (2.0, -1.0, 0.5, 0.5, 0.5, 0.5))),
               tag="targets outside [0, 1]")
    yield Case(fn, (T("float16", (3, 4), INSIDE, grad=True), T("float16", (3, 4), PROBS)), grad=True)
    yield Case(fn, (T("bfloat16", (3, 4), INSIDE, grad=True), T("bfloat16", (3, 4), PROBS)), grad=True)

    fn = "F.binary_cross_entropy_with_logits"
    x, y = T("float32", (3, 4), grad=True), T("float32", (3, 4), PROBS, grad=True)
    for r in REDUCTIONS:
        yield Case(fn, (x, y), {"reduction": r}, grad=True)
        yield Case(fn, (T("float64", (3, 4), grad=True), T("float64", (3, 4), PROBS, grad=True)), {"reduction": r},
                   grad=True)
        yield Case(fn, (x, y), {"reduction": r, "weight": T("float32", (4,), "positive", grad=True)}, grad=True)
        yield Case(fn, (x, y), {"reduction": r, "pos_weight": T("float32", (4,), "positive", grad=True)}, grad=True)
        yield Case(fn, (x, y), {"reduction": r, "weight": T("float32", (3, 1), "positive"),
                                "pos_weight": T("float32", (4,), "positive")}, grad=True)
        yield Case(fn, (T("float64", (12,), "special", grad=True), T("float64", (12,), PROBS)), {"reduction": r},
                   grad=True)
        yield Case(fn, (T("float32", (8,), z, grad=True), T("float32", (8,), PROBS[:8])), {"reduction": r}, grad=True,
                   tag="large logits")
        yield Case(fn, (T("float32", (3, 4), "grid", grad=True), T("float32", (3, 4), PROBS)), {"reduction": r},
                   grad=True)
        yield Case(fn, (T("float32", (6,), (0.0, -0.0, 1e-8, -1e-8, 0.0, 2.0), grad=True),
                        T("float32", (6,), (0.5, 0.5, 0.5, 0.5, 0.75, 0.75))), {"reduction": r}, grad=True,
                   tag="zero logits")
        yield Case(fn, (T("float32", (0, 3)), T("float32", (0, 3))), {"reduction": r})
    for d in DTYPES:
        yield Case(fn, (T(d, (3, 4)), T(d, (3, 4), PROBS)))
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), PROBS)), {"pos_weight": T("float32", (3, 4),
                                                                                           "positive")})
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), PROBS)), {"pos_weight": T("float32", (), "positive")})
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), PROBS)), {"pos_weight": T("float32", (3,), "positive")})
    yield Case(fn, (T("float32", (3, 4)), T("float32", (4,), PROBS)))
    yield Case(fn, (T("float32", (3, 4)), T("float64", (3, 4), PROBS)))
    yield Case(fn, (T("float32", ()), T("float32", (), PROBS)))
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), PROBS)), {"reduction": "bad"})
    yield Case(fn, (T("float32", (3, 4), layout="transposed"), T("float32", (3, 4), PROBS)))
    yield Case(fn, (T("bfloat16", (3, 4), grad=True), T("bfloat16", (3, 4), PROBS)), grad=True)
    yield Case(fn, (T("float16", (3, 4), grad=True), T("float16", (3, 4), PROBS)), grad=True)
    yield Case(fn, (T("float32", (3, 4)), T("float32", (3, 4), PROBS)), {"reduce": False})


def _targets(n, classes, with_ignored=False, ignore=-100):
    """Class indices (a fixed pattern) in [0, classes), some set to `ignore`."""
    vals = tuple((i * 3 + 1) % classes for i in range(n))
    if with_ignored:
        vals = tuple(ignore if i % 3 == 1 else v for i, v in enumerate(vals))
    return T("int64", (n,), vals)


def class_losses():
    for name in ("cross_entropy", "nll_loss"):
        fn = f"F.{name}"
        x = T("float32", (4, 5), grad=True)
        t = _targets(4, 5)
        w = T("float32", (5,), "positive")
        for r in REDUCTIONS:
            yield Case(fn, (x, t), {"reduction": r}, grad=True)
            yield Case(fn, (T("float64", (4, 5), grad=True), t), {"reduction": r}, grad=True)
            yield Case(fn, (x, t), {"reduction": r, "weight": w}, grad=True)
            yield Case(fn, (x, _targets(4, 5, True)), {"reduction": r}, grad=True)
            yield Case(fn, (x, _targets(4, 5, True)), {"reduction": r, "weight": w}, grad=True)
            yield Case(fn, (x, _targets(4, 5, True, ignore=2)), {"reduction": r, "ignore_index": 2, "weight": w},
                       grad=True)
            yield Case(fn, (x, T("int64", (4,), (-100,))), {"reduction": r}, grad=True, tag="all ignored")
            yield Case(fn, (x, T("int64", (4,), (-100,))), {"reduction": r, "weight": w}, grad=True,
                       tag="all ignored")
            yield Case(fn, (T("float32", (5,), grad=True), T("int64", (), (3,))), {"reduction": r}, grad=True)
            yield Case(fn, (T("float32", (5,), grad=True), T("int64", (), (3,))), {"reduction": r, "weight": w},
                       grad=True)
            yield Case(fn, (T("float32", (2, 5, 3), grad=True), T("int64", (2, 3), (0, 4, 2, -100, 1, 3))),
                       {"reduction": r, "weight": w}, grad=True)
            yield Case(fn, (T("float32", (2, 5, 2, 2), grad=True), T("int64", (2, 2, 2), "index:5")),
                       {"reduction": r}, grad=True)
            yield Case(fn, (T("float32", (0, 5), grad=True), T("int64", (0,))), {"reduction": r}, grad=True)
            yield Case(fn, (T("float32", (0, 5, 3)), T("int64", (0, 3))), {"reduction": r})
            yield Case(fn, (T("float64", (4, 5), "special", grad=True), t), {"reduction": r}, grad=True)
        for d in DTYPES:
            yield Case(fn, (T(d, (4, 5)), t))
        for td in ("int32", "int16", "uint8", "bool", "float32"):
            yield Case(fn, (T("float32", (4, 5)), T(td, (4,), (0, 1, 1, 0))), tag="target dtype")
        yield Case(fn, (T("float32", (4, 5)), T("int64", (4,), (0, 5, 1, 2))), tag="out of range")
        yield Case(fn, (T("float32", (4, 5)), T("int64", (4,), (0, -1, 1, 2))), tag="negative")
        yield Case(fn, (T("float32", (4, 5)), T("int64", (4,), (0, -1, 1, 2))), {"ignore_index": -1})
        yield Case(fn, (T("float32", (4, 5)), T("int64", (3,), (0, 1, 2))), tag="batch mismatch")
        yield Case(fn, (T("float32", (4, 5)), t), {"weight": T("float32", (4,), "positive")}, tag="weight size")
        yield Case(fn, (T("float32", (4, 5)), t), {"weight": T("float64", (5,), "positive")}, tag="weight dtype")
        yield Case(fn, (T("float32", (4, 5), grad=True), t), {"weight": T("float32", (5,), "positive", grad=True)},
                   grad=True, tag="weight requires grad")
        yield Case(fn, (T("float32", (4, 5)), t, T("float32", (5,), "positive")))
        yield Case(fn, (T("float32", (4, 5)), t), {"reduction": "batchmean"})
        yield Case(fn, (T("float32", (4, 5)), t), {"size_average": False})
        yield Case(fn, (T("float32", (4, 5)), t), {"reduce": False})
        yield Case(fn, (T("float32", (4, 5), layout="transposed"), t))
        yield Case(fn, (T("float32", (4, 5), layout="transposed", grad=True), t), {"weight": w}, grad=True)
        yield Case(fn, (T("float16", (4, 5), grad=True), t), grad=True)
        yield Case(fn, (T("bfloat16", (4, 5), grad=True), t), {"weight": T("bfloat16", (5,), "positive")}, grad=True)
        yield Case(fn, (T("float32", (4, 5)), T("int64", (4, 1), "index:5")), tag="target with a class dim")
        yield Case(fn, (T("float32", ()), T("int64", ())))
    # cross_entropy: label smoothing and class-probability targets
    fn = "F.cross_entropy"
    x = T("float32", (4, 5), grad=True)
    probs = T("float32", (4, 5), "positive", grad=True)
    w = T("float32", (5,), "positive")
    for r in REDUCTIONS:
        for ls in (0.1, 0.5, 1.0):
            yield Case(fn, (x, _targets(4, 5)), {"reduction": r, "label_smoothing": ls}, grad=True)
        yield Case(fn, (x, _targets(4, 5, True)), {"reduction": r, "label_smoothing": 0.2}, grad=True)
        yield Case(fn, (x, _targets(4, 5, True)), {"reduction": r, "label_smoothing": 0.2, "weight": w}, grad=True)
        yield Case(fn, (x, _targets(4, 5)), {"reduction": r, "label_smoothing": 0.2, "weight": w}, grad=True)
        yield Case(fn, (T("float32", (2, 5, 3), grad=True), T("int64", (2, 3), (0, 4, 2, -100, 1, 3))),
                   {"reduction": r, "label_smoothing": 0.3, "weight": w}, grad=True)
        yield Case(fn, (x, probs), {"reduction": r}, grad=True)
        yield Case(fn, (T("float64", (4, 5), grad=True), T("float64", (4, 5), "positive", grad=True)),
                   {"reduction": r}, grad=True)
        yield Case(fn, (x, probs), {"reduction": r, "weight": w}, grad=True)
        yield Case(fn, (x, probs), {"reduction": r, "label_smoothing": 0.2}, grad=True)
        yield Case(fn, (x, probs), {"reduction": r, "label_smoothing": 0.2, "weight": w}, grad=True)
        yield Case(fn, (T("float32", (2, 5, 3), grad=True), T("float32", (2, 5, 3), "positive", grad=True)),
                   {"reduction": r}, grad=True)
        yield Case(fn, (T("float32", (5,), grad=True), T("float32", (5,), "positive", grad=True)), {"reduction": r},
                   grad=True)
        yield Case(fn, (T("float32", (0, 5), grad=True), T("float32", (0, 5))), {"reduction": r}, grad=True)
        yield Case(fn, (T("float32", (0, 5), grad=True), T("int64", (0,))), {"reduction": r, "label_smoothing": 0.1},
                   grad=True)
    yield Case(fn, (x, probs), {"ignore_index": 1}, grad=True)
    yield Case(fn, (T("float32", (4, 5)), T("float64", (4, 5), "positive")))
    yield Case(fn, (T("float32", (4, 5)), T("float32", (4, 4), "positive")))
    yield Case(fn, (T("float32", (4, 5)), T("float32", (4, 5), "positive")), {"label_smoothing": 1.5})
    yield Case(fn, (T("float32", (4, 5)), _targets(4, 5)), {"label_smoothing": -0.1})
    yield Case(fn, (T("float64", (4, 5), "special", grad=True), T("float64", (4, 5), "positive", grad=True)),
               grad=True)
    yield Case(fn, (T("float32", (4, 5)), T("float32", (4, 5), (0.0, 1.0, 0.0, 0.0, 0.0))))
    yield Case(fn, (T("float16", (4, 5), grad=True), T("float16", (4, 5), "positive")), grad=True)
    yield Case(fn, (T("bfloat16", (4, 5), grad=True), T("bfloat16", (4, 5), "positive")), {"label_smoothing": 0.1},
               grad=True)
    # nll_loss: class-probability targets are not taken
    yield Case("F.nll_loss", (T("float32", (4, 5)), T("float32", (4, 5), "positive")))
    yield Case("F.nll_loss", (T("float32", (4, 5)), _targets(4, 5)), {"label_smoothing": 0.1})


def more_losses():
    """Losses PyTorch has that Porta may lack."""
    y = T("float32", (4,), (1.0, -1.0, 1.0, -1.0))
    for r in REDUCTIONS:
        kw = {"reduction": r}
        yield Case("F.margin_ranking_loss", (T("float32", (4,), grad=True), T("float32", (4,), grad=True), y),
                   dict(kw, margin=0.5), grad=True)
        yield Case("F.cosine_embedding_loss", (T("float32", (4, 3), grad=True), T("float32", (4, 3), grad=True), y),
                   dict(kw, margin=0.2), grad=True)
        yield Case("F.triplet_margin_loss", (T("float32", (4, 3), grad=True), T("float32", (4, 3), grad=True),
                                             T("float32", (4, 3), grad=True)), kw, grad=True)
        yield Case("F.poisson_nll_loss", (T("float32", (3, 4), grad=True), T("float32", (3, 4), "positive")), kw,
                   grad=True)
        yield Case("F.gaussian_nll_loss", (T("float32", (3, 4), grad=True), T("float32", (3, 4)),
                                           T("float32", (3, 4), "positive", grad=True)), kw, grad=True)
        yield Case("F.soft_margin_loss", (T("float32", (4,), grad=True), y), kw, grad=True)
        yield Case("F.hinge_embedding_loss", (T("float32", (4,), grad=True), y), kw, grad=True)
        yield Case("F.multilabel_soft_margin_loss", (T("float32", (3, 4), grad=True), T("float32", (3, 4), PROBS)),
                   kw, grad=True)
        yield Case("F.multi_margin_loss", (T("float32", (4, 5), grad=True), _targets(4, 5)), kw, grad=True)
    yield Case("F.margin_ranking_loss", (T("float32", (4,)), T("float32", (4,)), y))
    yield Case("F.margin_ranking_loss", (T("float64", (4,), grad=True), T("float64", (4,), grad=True), y), grad=True)
    yield Case("F.cosine_embedding_loss", (T("float32", (4, 3)), T("float32", (4, 3), (0.0,)), y))
    yield Case("F.triplet_margin_loss", (T("float32", (4, 3)), T("float32", (4, 3)), T("float32", (4, 3))),
               {"margin": 2.0, "p": 1, "swap": True})
    yield Case("F.triplet_margin_loss", (T("float32", (4, 3)), T("float32", (4, 3)), T("float32", (4, 3))),
               {"eps": 0.0})
    for kw in ({"log_input": False}, {"full": True}, {"log_input": False, "full": True, "eps": 1e-3}):
        yield Case("F.poisson_nll_loss", (T("float32", (3, 4), "positive", grad=True), T("float32", (3, 4),
                                                                                          "positive")), kw, grad=True)
    yield Case("F.gaussian_nll_loss", (T("float32", (3, 4), grad=True), T("float32", (3, 4)),
                                       T("float32", (3, 1), "positive")), {"full": True}, grad=True)
    yield Case("F.gaussian_nll_loss", (T("float32", (3, 4)), T("float32", (3, 4)), 0.5))
    yield Case("F.gaussian_nll_loss", (T("float32", (3, 4)), T("float32", (3, 4)), T("float32", (3, 4))),
               tag="negative variance")
    yield Case("F.ctc_loss", (T("float32", (6, 2, 4)), T("int64", (2, 3), (1, 2, 3, 1, 1, 2)),
                              T("int64", (2,), (6, 5)), T("int64", (2,), (3, 2))))


# ---------------------------------------------------------------------------------------------- normalizations

def _norm_around_100(name):
    """F.<name> of float16 (or bfloat16) data near 100 (x + 100 with x in about (-4, 4)): a mean that dwarfs the
    spread, where computing the variance as E[x^2] - E[x]^2 in the input's precision cancels badly."""
    def program(L, device, x, *rest, **kw):
        return getattr(_F(L), name)(x + 100, *rest, **kw)
    return program


def layer_norms():
    fn = "F.layer_norm"
    x = T("float32", (2, 3, 4), grad=True)
    w, b = T("float32", (4,), grad=True), T("float32", (4,), grad=True)
    for t in every_dtype((2, 3, 4)):
        yield Case(fn, (t, (4,)))
    for d in FLOATS:
        yield Case(fn, (T(d, (2, 3, 4)), (4,), T(d, (4,)), T(d, (4,))))
        yield Case(fn, (T(d, (2, 3, 4), grad=True), (3, 4), T(d, (3, 4), grad=True), T(d, (3, 4), grad=True)),
                   grad=True)
    yield Case(fn, (x, 4), grad=True)
    yield Case(fn, (x, [4]), grad=True)
    yield Case(fn, (x, (4,), w, b), grad=True)
    yield Case(fn, (x, (4,), w), grad=True)
    yield Case(fn, (x, (4,), None, b), grad=True)
    yield Case(fn, (x, (4,)), {"weight": w, "bias": b, "eps": 1e-2}, grad=True)
    yield Case(fn, (x, (2, 3, 4)), grad=True)
    yield Case(fn, (T("float64", (2, 3, 4), grad=True), (4,), T("float64", (4,), grad=True),
                    T("float64", (4,), grad=True)), grad=True)
    yield Case(fn, (T("float64", (3, 4), "special", grad=True), (4,)), grad=True)
    yield Case(fn, (T("float64", (3, 4), "grid", grad=True), (4,), T("float64", (4,), "grid", grad=True),
                    T("float64", (4,), grad=True)), grad=True)
    # constant rows: zero variance, so the normalized value is 0 / sqrt(eps)
    yield Case(fn, (T("float32", (2, 4), (1.5,), grad=True), (4,), w, b), grad=True, tag="constant")
    yield Case(fn, (T("float32", (2, 4), (1.5,)), (4,)), {"eps": 0.0}, tag="constant")
    yield Case(fn, (T("float32", (1, 4), (1.0, 2.0, 3.0, 4.0)), (4,)), {"eps": 0.0})
    yield Case(fn, (T("float32", (0, 4), grad=True), (4,), w, b), grad=True)
    yield Case(fn, (T("float32", (4,)), (4,)))
    yield Case(fn, (T("float32", (2, 0)), (0,)))
    yield Case(fn, (T("float32", (2, 3, 4)), (3,)), tag="wrong shape")
    yield Case(fn, (T("float32", (2, 3, 4)), (4,), T("float32", (3,))), tag="wrong weight")
    yield Case(fn, (T("float32", (2, 3, 4)), (5, 3, 4)), tag="too many dims")
    for t in layouts(shape=(3, 4), grad=True):
        yield Case(fn, (t, (4,), w, b), grad=True)
    yield Case(fn, (T("float32", (4, 3), layout="transposed"), (4, 3)))
    # mixed precision: half data with float32 parameters
    yield Case(fn, (T("float16", (2, 4), grad=True), (4,), w, b), grad=True, tag="mixed")
    yield Case(fn, (T("bfloat16", (2, 4), grad=True), (4,), w, b), grad=True, tag="mixed")
    yield Case(fn, (T("float32", (2, 4)), (4,), T("float64", (4,)), T("float64", (4,))), tag="mixed")
    for d in ("float16", "bfloat16", "float32"):
        for shape, ns in (((2, 300), (300,)), ((3, 128), (128,))):
            yield Case(fn, (T(d, shape, grad=True), ns, T(d, ns, "positive", grad=True), T(d, ns, grad=True)),
                       program=_norm_around_100("layer_norm"), grad=True, tag="around 100")
            yield Case(fn, (T(d, shape, grad=True), ns), program=_norm_around_100("layer_norm"), grad=True,
                       tag="around 100")
    yield Case(fn, (T("float16", (2, 300), grad=True), (300,), T("float32", (300,), "positive", grad=True),
                    T("float32", (300,), grad=True)), program=_norm_around_100("layer_norm"), grad=True,
               tag="around 100")
    # rms_norm (newer, used by transformer programs)
    for kw in ({}, {"eps": 1e-6}):
        yield Case("F.rms_norm", (T("float32", (2, 3, 4), grad=True), (4,), T("float32", (4,), grad=True)), kw,
                   grad=True)
    yield Case("F.rms_norm", (T("float16", (2, 8)), (8,)))
    yield Case("F.rms_norm", (T("bfloat16", (2, 300), grad=True), (300,)), program=_norm_around_100("rms_norm"),
               grad=True, tag="around 100")


def group_norms():
    fn = "F.group_norm"
    for d in DTYPES:
        yield Case(fn, (T(d, (2, 4, 3)), 2))
    for d in FLOATS:
        yield Case(fn, (T(d, (2, 4, 3), grad=True), 2, T(d, (4,), grad=True), T(d, (4,), grad=True)), grad=True)
    x = T("float32", (2, 6, 2, 2), grad=True)
    w, b = T("float32", (6,), grad=True), T("float32", (6,), grad=True)
    for g in (1, 2, 3, 6):
        yield Case(fn, (x, g, w, b), grad=True)
    yield Case(fn, (x, 3), grad=True)
    yield Case(fn, (x, 3, w), grad=True)
    yield Case(fn, (x, 3, None, b), grad=True)
    yield Case(fn, (x, 3), {"weight": w, "bias": b, "eps": 1e-2}, grad=True)
    yield Case(fn, (T("float64", (2, 6, 2, 2), grad=True), 2, T("float64", (6,), grad=True),
                    T("float64", (6,), grad=True)), grad=True)
    yield Case(fn, (T("float64", (2, 4, 3), "special", grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (2, 4, 3), (0.5,), grad=True), 2, T("float32", (4,), grad=True),
                    T("float32", (4,), grad=True)), grad=True, tag="constant")
    yield Case(fn, (T("float32", (2, 4)), 2))
    yield Case(fn, (T("float32", (2, 4, 2, 2, 2), grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (0, 4, 3), grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (2, 4, 0)), 2))
    yield Case(fn, (T("float32", (4, 3)), 2), tag="unbatched")
    yield Case(fn, (T("float32", (2, 4, 3)), 3), tag="groups do not divide")
    yield Case(fn, (T("float32", (2, 4, 3)), 0))
    yield Case(fn, (T("float32", (2, 4, 3)), 2, T("float32", (3,))), tag="wrong weight")
    yield Case(fn, (T("float32", (2, 4, 3), layout="transposed", grad=True), 2, T("float32", (4,)),
                    T("float32", (4,))), grad=True)
    yield Case(fn, (T("float32", (1, 4, 3, 3), layout="expanded"), 2))
    yield Case(fn, (T("float16", (2, 4, 3)), 2, T("float32", (4,)), T("float32", (4,))), tag="mixed")
    yield Case(fn, (T("bfloat16", (2, 4, 3), grad=True), 2, T("float32", (4,), grad=True),
                    T("float32", (4,), grad=True)), grad=True, tag="mixed")
    for d in ("float16", "bfloat16", "float32"):
        yield Case(fn, (T(d, (2, 4, 80), grad=True), 2, T(d, (4,), "positive", grad=True), T(d, (4,), grad=True)),
                   program=_norm_around_100("group_norm"), grad=True, tag="around 100")
        yield Case(fn, (T(d, (2, 6, 8, 8), grad=True), 3), program=_norm_around_100("group_norm"), grad=True,
                   tag="around 100")
    # instance_norm and local_response_norm (names Porta may lack)
    yield Case("F.instance_norm", (T("float32", (2, 3, 4), grad=True),), grad=True)
    yield Case("F.instance_norm", (T("float32", (2, 3, 2, 2)),), {"weight": T("float32", (3,)),
                                                                  "bias": T("float32", (3,))})
    yield Case("F.local_response_norm", (T("float32", (2, 4, 3, 3)), 2))


def batch_norms():
    fn = "F.batch_norm"

    def stats(c=3, d="float32"):
        return T(d, (c,), "random"), T(d, (c,), "positive")
    rm, rv = stats()
    w, b = T("float32", (3,), grad=True), T("float32", (3,), grad=True)
    for shape in ((4, 3), (2, 3, 4), (2, 3, 2, 2), (2, 3, 1, 2, 2)):
        yield Case(fn, (T("float32", shape, grad=True), rm, rv, w, b), grad=True)
        yield Case(fn, (T("float32", shape, grad=True), rm, rv, w, b), {"training": True}, grad=True, mutates=True)
        yield Case(fn, (T("float32", shape, grad=True), None, None, w, b), {"training": True}, grad=True)
    for d in DTYPES:
        s = stats(3, d)
        yield Case(fn, (T(d, (4, 3)), s[0], s[1]))
        yield Case(fn, (T(d, (4, 3)), s[0], s[1]), {"training": True}, mutates=True)
    x = T("float32", (4, 3), grad=True)
    for mom in (0.0, 1.0, 0.5, None):
        yield Case(fn, (x, rm, rv, w, b), {"training": True, "momentum": mom}, grad=True, mutates=True)
    for eps in (1e-3, 0.0):
        yield Case(fn, (x, rm, rv, w, b), {"training": True, "eps": eps}, grad=True, mutates=True)
        yield Case(fn, (x, rm, rv), {"eps": eps}, grad=True)
    yield Case(fn, (x, rm, rv, w), grad=True)
    yield Case(fn, (x, rm, rv, None, b), {"training": True}, grad=True, mutates=True)
    yield Case(fn, (x, rm, rv), {"training": True}, grad=True, mutates=True)
    yield Case(fn, (x, None, None), {"training": False}, tag="eval without statistics")
    yield Case(fn, (x, rm, None), {"training": True}, tag="one statistic")
    yield Case(fn, (T("float64", (4, 3), grad=True), T("float64", (3,)), T("float64", (3,), "positive"),
                    T("float64", (3,), grad=True), T("float64", (3,), grad=True)), {"training": True}, grad=True,
               mutates=True)
    yield Case(fn, (T("float64", (4, 3), "grid", grad=True), None, None, T("float64", (3,), grad=True),
                    T("float64", (3,), grad=True)), {"training": True}, grad=True)
    yield Case(fn, (T("float64", (12, 1), "special", grad=True), None, None), {"training": True}, grad=True)
    # a channel with one value, or all equal values: zero variance
    yield Case(fn, (T("float32", (1, 3), grad=True), rm, rv), {"training": True}, grad=True, mutates=True)
    yield Case(fn, (T("float32", (1, 3, 1)), None, None), {"training": True})
    yield Case(fn, (T("float32", (1, 3, 2), grad=True), rm, rv), {"training": True}, grad=True, mutates=True)
    yield Case(fn, (T("float32", (4, 3), (2.0,), grad=True), rm, rv, w, b), {"training": True}, grad=True,
               mutates=True, tag="constant")
    yield Case(fn, (T("float32", (0, 3)), rm, rv), {"training": True}, mutates=True)
    yield Case(fn, (T("float32", (0, 3)), rm, rv))
    yield Case(fn, (T("float32", (4, 3)), T("float32", (4,)), T("float32", (4,), "positive")), tag="wrong size")
    yield Case(fn, (T("float32", (3,)), rm, rv), tag="1-d")
    # half data with float32 or half statistics
    for d in ("float16", "bfloat16"):
        yield Case(fn, (T(d, (4, 3), grad=True), rm, rv, w, b), {"training": True}, grad=True, mutates=True,
                   tag="mixed")
        yield Case(fn, (T(d, (4, 3)), rm, rv, w, b), tag="mixed")
        yield Case(fn, (T(d, (2, 3, 50), grad=True), T(d, (3,)), T(d, (3,), "positive"), T(d, (3,), grad=True),
                        T(d, (3,), grad=True)), {"training": True}, program=_norm_around_100("batch_norm"), grad=True,
                   mutates=True, tag="around 100")
    yield Case(fn, (T("float32", (4, 3), layout="transposed", grad=True), rm, rv, w, b), {"training": True},
               grad=True, mutates=True)
    yield Case(fn, (T("float32", (4, 3), layout="expanded"), rm, rv), {"training": True}, mutates=True)
    yield Case(fn, (x, rm, rv, w, b, True, 0.3, 1e-4), grad=True, mutates=True)


def linears():
    fn = "F.linear"
    for d in DTYPES:
        yield Case(fn, (T(d, (2, 3)), T(d, (4, 3)), T(d, (4,))))
        yield Case(fn, (T(d, (2, 3)), T(d, (4, 3))))
    for shape in ((3,), (2, 5, 3), (2, 1, 2, 3), (0, 3), (2, 0, 3)):
        yield Case(fn, (T("float32", shape, grad=True), T("float32", (4, 3), grad=True), T("float32", (4,), grad=True)),
                   grad=True)
    for d in ("float32", "float64", "bfloat16", "float16"):
        yield Case(fn, (T(d, (2, 3), grad=True), T(d, (4, 3), grad=True), T(d, (4,), grad=True)), grad=True)
        yield Case(fn, (T(d, (2, 3), grad=True), T(d, (4, 3), grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 0), grad=True), T("float32", (4, 0), grad=True), T("float32", (4,), grad=True)),
               grad=True)
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (0, 3), grad=True), T("float32", (0,), grad=True)),
               grad=True)
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True)), grad=True, tag="1-d weight")
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (3,), grad=True), T("float32", (), grad=True)),
               grad=True, tag="1-d weight")
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (4, 3), grad=True), T("float32", (), grad=True)),
               grad=True, tag="0-d bias")
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (4, 3), grad=True), T("float32", (1,), grad=True)),
               grad=True, tag="broadcast bias")
    yield Case(fn, (T("float64", (3, 4), "special", grad=True), T("float64", (2, 4), grad=True),
                    T("float64", (2,), grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3)), T("float32", (4, 5))), tag="mismatch")
    yield Case(fn, (T("float32", (2, 3)), T("float32", (4, 3)), T("float32", (5,))), tag="mismatch")
    yield Case(fn, (T("float32", (2, 3)), T("float64", (4, 3))), tag="mixed")
    yield Case(fn, (T("float32", (2, 3)), T("float32", (4, 3)), T("float64", (4,))), tag="mixed")
    yield Case(fn, (T("float16", (2, 3)), T("float32", (4, 3))), tag="mixed")
    yield Case(fn, (T("float32", ()), T("float32", (4, 3))), tag="0-d input")
    for t in layouts(shape=(3, 4), grad=True):
        yield Case(fn, (t, T("float32", (2, 4), grad=True), T("float32", (2,), grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3), grad=True), T("float32", (4, 3), layout="transposed", grad=True),
                    T("float32", (4,), layout="stepped", grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3)),), {"weight": T("float32", (4, 3)), "bias": T("float32", (4,))})
    yield Case("F.bilinear", (T("float32", (2, 3)), T("float32", (2, 4)), T("float32", (5, 3, 4)),
                              T("float32", (5,))))


def normalizations():
    yield from layer_norms()
    yield from group_norms()
    yield from batch_norms()
    # normalize, cosine_similarity, pairwise_distance (names Porta may lack)
    for kw in ({}, {"p": 1.0}, {"dim": 0}, {"dim": -1}, {"p": INF}, {"eps": 0.5}):
        yield Case("F.normalize", (T("float32", (3, 4), grad=True),), kw, grad=True)
    yield Case("F.normalize", (T("float32", (3, 4), (0.0,) * 4 + (1.0,) * 8, grad=True),), grad=True, tag="zero row")
    yield Case("F.normalize", (T("float32", (4,)),), {"dim": 0})
    yield Case("F.normalize", (T("float64", (3, 4), "special", grad=True),), grad=True)
    yield Case("F.normalize", (T("float16", (3, 4)),))
    yield Case("F.normalize", (T("float32", (0, 4)),))
    for kw in ({}, {"dim": 0}, {"dim": -1}, {"eps": 1e-3}):
        yield Case("F.cosine_similarity", (T("float32", (3, 4), grad=True), T("float32", (3, 4), grad=True)), kw,
                   grad=True)
    yield Case("F.cosine_similarity", (T("float32", (3, 4), grad=True), T("float32", (1, 4), grad=True)), grad=True)
    yield Case("F.cosine_similarity", (T("float32", (3, 4), (0.0,), grad=True), T("float32", (3, 4), grad=True)),
               grad=True, tag="zero vectors")
    yield Case("F.cosine_similarity", (T("float64", (3, 4), grad=True), T("float64", (3, 4), grad=True)), grad=True)
    yield Case("F.cosine_similarity", (T("float32", (4,)), T("float32", (4,))), {"dim": 0})
    for kw in ({}, {"p": 1.0}, {"keepdim": True}, {"eps": 0.0}, {"p": INF}):
        yield Case("F.pairwise_distance", (T("float32", (3, 4), grad=True), T("float32", (3, 4), grad=True)), kw,
                   grad=True)
    same = T("float32", (2, 3), (1.0, 2.0, 3.0, -1.0, 0.0, 0.5), grad=True)
    yield Case("F.pairwise_distance", (same, same), {"eps": 0.0}, grad=True, tag="equal inputs")
    yield Case("F.pairwise_distance", (T("float32", (3, 4)), T("float32", (4,))))
    yield Case("F.pdist", (T("float32", (4, 3)),))


# -------------------------------------------------------------------------------------------------- convolutions

def convolutions():
    # conv2d: x [N, C, H, W], weight [F, C / groups, KH, KW]
    fn = "F.conv2d"
    x, w, b = T("float32", (2, 3, 5, 5), grad=True), T("float32", (4, 3, 3, 3), grad=True), T("float32", (4,),
                                                                                              grad=True)
    for d in DTYPES:
        yield Case(fn, (T(d, (1, 2, 4, 4)), T(d, (3, 2, 2, 2)), T(d, (3,))))
    for kw in ({}, {"stride": 2}, {"stride": (2, 1)}, {"padding": 1}, {"padding": (1, 2)}, {"padding": "same"},
               {"padding": "valid"}, {"dilation": 2}, {"dilation": (1, 2)}, {"stride": 2, "padding": 2, "dilation": 2},
               {"padding": 3}, {"stride": 3, "padding": 1}, {"padding": "same", "dilation": 2}, {"stride": [2, 2]}):
        yield Case(fn, (x, w, b), kw, grad=True)
    yield Case(fn, (x, w), grad=True)
    yield Case(fn, (x, w, None, 1, 1), grad=True)
    yield Case(fn, (x, w, b, 2, 1, 1, 1), grad=True)
    yield Case(fn, (T("float32", (2, 4, 5, 5), grad=True), T("float32", (6, 2, 3, 3), grad=True),
                    T("float32", (6,), grad=True)), {"groups": 2}, grad=True)
    yield Case(fn, (T("float32", (2, 4, 5, 5), grad=True), T("float32", (4, 1, 3, 3), grad=True),
                    T("float32", (4,), grad=True)), {"groups": 4, "padding": 1}, grad=True, tag="depthwise")
    yield Case(fn, (T("float32", (2, 4, 5, 5), grad=True), T("float32", (8, 1, 3, 3), grad=True)), {"groups": 4},
               grad=True, tag="depthwise multiplier")
    yield Case(fn, (T("float32", (3, 5, 5), grad=True), w, b), grad=True, tag="unbatched")
    yield Case(fn, (x, T("float32", (4, 3, 2, 2), grad=True), b), {"padding": "same"}, grad=True, tag="even kernel")
    yield Case(fn, (x, T("float32", (4, 3, 2, 3), grad=True), b), {"padding": "same", "dilation": (1, 3)},
               grad=True, tag="even kernel")
    yield Case(fn, (x, T("float32", (4, 3, 1, 1), grad=True), b), grad=True, tag="1x1")
    yield Case(fn, (x, T("float32", (4, 3, 2, 3), grad=True), b), {"stride": (1, 2)}, grad=True, tag="2x3")
    yield Case(fn, (T("float32", (0, 3, 5, 5), grad=True), w, b), grad=True)
    yield Case(fn, (T("float64", (2, 3, 5, 5), grad=True), T("float64", (4, 3, 3, 3), grad=True),
                    T("float64", (4,), grad=True)), {"padding": 1}, grad=True)
    yield Case(fn, (T("float64", (1, 1, 4, 3), "special", grad=True), T("float64", (1, 1, 2, 2), grad=True)),
               grad=True)
    for d in ("float16", "bfloat16"):
        yield Case(fn, (T(d, (1, 2, 4, 4), grad=True), T(d, (3, 2, 3, 3), grad=True), T(d, (3,), grad=True)),
                   {"padding": 1}, grad=True)
    yield Case(fn, (T("float32", (1, 3, 5, 4), layout="transposed", grad=True), w, b), grad=True)
    yield Case(fn, (T("float32", (1, 3, 5, 5), layout="expanded"), w, b))
    yield Case(fn, (x, T("float32", (4, 3, 3, 3), layout="stepped"), b))
    for kw, tag in (({"padding": "same", "stride": 2}, ""), ({"groups": 0}, ""), ({"groups": 2}, "channels"),
                    ({"padding": "full"}, ""), ({"stride": 0}, ""), ({"padding": -1}, ""), ({"dilation": 0}, ""),
                    ({}, "kernel too big"), ({"stride": (1, 1, 1)}, "")):
        wt = T("float32", (4, 3, 6, 6)) if tag == "kernel too big" else w
        yield Case(fn, (T("float32", (2, 3, 5, 5)), wt, b), kw, tag=tag)
    yield Case(fn, (T("float32", (2, 2, 5, 5)), w), tag="channel mismatch")
    yield Case(fn, (T("float32", (2, 3, 5, 5)), w, T("float32", (3,))), tag="bias size")
    yield Case(fn, (T("float32", (2, 3, 5, 5)), T("float64", (4, 3, 3, 3))), tag="mixed")
    yield Case(fn, (T("float32", (5, 5)), T("float32", (4, 3, 3, 3))), tag="2-d")

    fn = "F.conv1d"
    x, w, b = T("float32", (2, 3, 7), grad=True), T("float32", (4, 3, 3), grad=True), T("float32", (4,), grad=True)
    for d in DTYPES:
        yield Case(fn, (T(d, (1, 2, 5)), T(d, (3, 2, 2)), T(d, (3,))))
    for kw in ({}, {"stride": 2}, {"stride": (2,)}, {"padding": 1}, {"padding": (2,)}, {"padding": "same"},
               {"padding": "valid"}, {"dilation": 2}, {"stride": 2, "padding": 2, "dilation": 2}, {"padding": 4},
               {"padding": "same", "dilation": 3}):
        yield Case(fn, (x, w, b), kw, grad=True)
    yield Case(fn, (x, w), grad=True)
    yield Case(fn, (x, w, b, 2, 1, 1, 1), grad=True)
    yield Case(fn, (T("float32", (2, 4, 7), grad=True), T("float32", (6, 2, 3), grad=True),
                    T("float32", (6,), grad=True)), {"groups": 2}, grad=True)
    yield Case(fn, (T("float32", (2, 4, 7), grad=True), T("float32", (4, 1, 3), grad=True)), {"groups": 4},
               grad=True, tag="depthwise")
    yield Case(fn, (T("float32", (3, 7), grad=True), w, b), grad=True, tag="unbatched")
    yield Case(fn, (x, T("float32", (4, 3, 4), grad=True), b), {"padding": "same"}, grad=True, tag="even kernel")
    yield Case(fn, (T("float32", (0, 3, 7), grad=True), w, b), grad=True)
    yield Case(fn, (T("float64", (2, 3, 7), grad=True), T("float64", (4, 3, 3), grad=True),
                    T("float64", (4,), grad=True)), {"padding": 1}, grad=True)
    yield Case(fn, (T("float64", (1, 1, 12), "special", grad=True), T("float64", (1, 1, 2), grad=True)), grad=True)
    for d in ("float16", "bfloat16"):
        yield Case(fn, (T(d, (1, 2, 6), grad=True), T(d, (3, 2, 3), grad=True), T(d, (3,), grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3, 7), layout="transposed", grad=True), w, b), grad=True)
    for kw in ({"padding": "same", "stride": 2}, {"groups": 0}, {"padding": (1, 1)}, {"stride": 0}):
        yield Case(fn, (T("float32", (2, 3, 7)), w, b), kw)
    yield Case(fn, (T("float32", (2, 3, 2)), w), tag="kernel too big")

    # conv_transpose2d: x [N, C, H, W], weight [C, F / groups, KH, KW]
    fn = "F.conv_transpose2d"
    x, w, b = T("float32", (2, 4, 3, 3), grad=True), T("float32", (4, 3, 3, 3), grad=True), T("float32", (3,),
                                                                                              grad=True)
    for d in DTYPES:
        yield Case(fn, (T(d, (1, 2, 3, 3)), T(d, (2, 3, 2, 2)), T(d, (3,))))
    for kw in ({}, {"stride": 2}, {"stride": 2, "output_padding": 1}, {"stride": (2, 3), "output_padding": (1, 2)},
               {"padding": 1}, {"padding": (1, 0)}, {"dilation": 2}, {"stride": 2, "padding": 1, "dilation": 2},
               {"stride": 3, "padding": 2, "output_padding": 2}, {"output_padding": 1, "stride": 2, "dilation": 2}):
        yield Case(fn, (x, w, b), kw, grad=True)
    yield Case(fn, (x, w), grad=True)
    yield Case(fn, (x, w, b, 2, 1, 1, 1, 1), grad=True)
    yield Case(fn, (x, T("float32", (4, 2, 3, 3), grad=True), T("float32", (4,), grad=True)), {"groups": 2},
               grad=True)
    yield Case(fn, (x, T("float32", (4, 1, 2, 2), grad=True)), {"groups": 4, "stride": 2}, grad=True,
               tag="depthwise")
    yield Case(fn, (T("float32", (4, 3, 3), grad=True), w, b), grad=True, tag="unbatched")
    yield Case(fn, (T("float32", (0, 4, 3, 3), grad=True), w, b), grad=True)
    yield Case(fn, (T("float64", (2, 4, 3, 3), grad=True), T("float64", (4, 3, 3, 3), grad=True),
                    T("float64", (3,), grad=True)), {"stride": 2}, grad=True)
    for d in ("float16", "bfloat16"):
        yield Case(fn, (T(d, (1, 2, 3, 3), grad=True), T(d, (2, 3, 2, 2), grad=True), T(d, (3,), grad=True)),
                   {"stride": 2}, grad=True)
    yield Case(fn, (T("float32", (1, 4, 3, 3), layout="transposed", grad=True), w, b), grad=True)
    for kw in ({"output_padding": 1}, {"stride": 2, "output_padding": 2}, {"groups": 3}, {"padding": "same"},
               {"padding": 5}, {"stride": 0}):
        yield Case(fn, (T("float32", (2, 4, 3, 3)), w, b), kw)

    fn = "F.conv_transpose1d"
    x, w, b = T("float32", (2, 4, 5), grad=True), T("float32", (4, 3, 3), grad=True), T("float32", (3,), grad=True)
    for d in DTYPES:
        yield Case(fn, (T(d, (1, 2, 4)), T(d, (2, 3, 2)), T(d, (3,))))
    for kw in ({}, {"stride": 2}, {"stride": 2, "output_padding": 1}, {"stride": (3,), "output_padding": (2,)},
               {"padding": 1}, {"dilation": 2}, {"stride": 2, "padding": 1, "dilation": 3, "output_padding": 1}):
        yield Case(fn, (x, w, b), kw, grad=True)
    yield Case(fn, (x, w), grad=True)
    yield Case(fn, (x, w, b, 2, 1, 1, 1, 1), grad=True)
    yield Case(fn, (x, T("float32", (4, 2, 3), grad=True), T("float32", (4,), grad=True)), {"groups": 2},
               grad=True)
    yield Case(fn, (T("float32", (4, 5), grad=True), w, b), grad=True, tag="unbatched")
    yield Case(fn, (T("float32", (0, 4, 5), grad=True), w, b), grad=True)
    yield Case(fn, (T("float64", (2, 4, 5), grad=True), T("float64", (4, 3, 3), grad=True),
                    T("float64", (3,), grad=True)), {"stride": 2}, grad=True)
    for d in ("float16", "bfloat16"):
        yield Case(fn, (T(d, (1, 2, 4), grad=True), T(d, (2, 3, 2), grad=True), T(d, (3,), grad=True)), grad=True)
    for kw in ({"output_padding": 1}, {"groups": 3}, {"padding": "same"}):
        yield Case(fn, (T("float32", (2, 4, 5)), w, b), kw)
    # conv3d and conv_transpose3d (names Porta may lack)
    yield Case("F.conv3d", (T("float32", (1, 2, 3, 3, 3), grad=True), T("float32", (2, 2, 2, 2, 2), grad=True)),
               grad=True)
    yield Case("F.conv_transpose3d", (T("float32", (1, 2, 2, 2, 2)), T("float32", (2, 2, 2, 2, 2))))


# --------------------------------------------------------------------------------------------------------- pooling

def poolings():
    fn = "F.max_pool2d"
    x = T("float32", (2, 3, 6, 6), grad=True)
    for d in DTYPES:
        yield Case(fn, (T(d, (1, 2, 4, 4)), 2))
    opts = ({}, {"stride": 1}, {"kernel_size": 3, "stride": 2}, {"kernel_size": (2, 3), "stride": (1, 2)},
            {"kernel_size": 3, "padding": 1}, {"kernel_size": 3, "stride": 1, "padding": 1},
            {"dilation": 2}, {"kernel_size": 3, "stride": 2, "ceil_mode": True},
            {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}, {"kernel_size": 4, "stride": 3,
                                                                              "ceil_mode": True},
            {"kernel_size": (3, 2), "padding": (1, 0), "dilation": (1, 2)}, {"kernel_size": 1})
    for kw in opts:
        kw = dict({"kernel_size": 2}, **kw)
        yield Case(fn, (x,), kw, grad=True)
        yield Case(fn, (x,), dict(kw, return_indices=True), grad=True)
    yield Case(fn, (T("float32", (1, 1, 5, 5), grad=True),), {"kernel_size": 2, "ceil_mode": True}, grad=True)
    yield Case(fn, (T("float32", (1, 1, 5, 5), grad=True),), {"kernel_size": 2, "ceil_mode": True,
                                                              "return_indices": True}, grad=True)
    yield Case(fn, (T("float32", (3, 6, 6), grad=True), 2), grad=True, tag="unbatched")
    yield Case(fn, (T("float32", (3, 6, 6), grad=True), 2), {"return_indices": True}, grad=True, tag="unbatched")
    # ties (the gradient goes to one of them), -inf and NaN
    for kw in ({}, {"return_indices": True}):
        yield Case(fn, (T("float32", (1, 2, 4, 4), "grid", grad=True), 2), kw, grad=True)
        yield Case(fn, (T("float32", (1, 1, 4, 4), (1.0,), grad=True), 2), kw, grad=True, tag="all equal")
        yield Case(fn, (T("float64", (1, 1, 4, 3), "special", grad=True), 2), kw, grad=True)
        yield Case(fn, (T("float32", (1, 1, 2, 2), (-INF,), grad=True), 2), kw, grad=True, tag="all -inf")
        yield Case(fn, (T("float32", (1, 1, 2, 4), (1.0, NAN, 2.0, 3.0, NAN, NAN, 0.0, 5.0), grad=True), 2), kw,
                   grad=True, tag="nan")
        yield Case(fn, (T("float32", (1, 1, 3, 3), (-1.0,), grad=True), 2), dict(kw, padding=1), grad=True,
                   tag="negative with padding")
    yield Case(fn, (T("float64", (2, 3, 6, 6), grad=True),), {"kernel_size": 3, "stride": 2, "padding": 1}, grad=True)
    for d in ("float16", "bfloat16", "int64", "uint8"):
        yield Case(fn, (T(d, (1, 2, 4, 4), grad=d in FLOATS), 2), {"return_indices": True}, grad=d in FLOATS)
    yield Case(fn, (T("float32", (0, 3, 4, 4), grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (1, 3, 4, 4), layout="transposed", grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (1, 3, 4, 4), layout="expanded"), 2))
    yield Case(fn, (T("float32", (2, 3, 6, 6), grad=True), 3, 2, 1, 1, True, True), grad=True)
    yield Case(fn, (T("float32", (2, 3, 6, 6)), 2, None))
    yield Case(fn, (T("float32", (2, 3, 6, 6)), 2, ()))
    for kw, tag in (({"kernel_size": 2, "padding": 2}, ""), ({"kernel_size": 7}, ""), ({"kernel_size": 0}, ""),
                    ({"kernel_size": 2, "stride": 0}, ""), ({"kernel_size": 2, "dilation": 0}, ""),
                    ({"kernel_size": (2, 2, 2)}, "")):
        yield Case(fn, (T("float32", (2, 3, 6, 6)),), kw, tag=tag)
    yield Case(fn, (T("float32", (6, 6)), 2), tag="2-d")
    yield Case(fn, (T("float32", (2, 3, 1, 1)), 2), {"ceil_mode": True}, tag="too small")

    fn = "F.avg_pool2d"
    for d in DTYPES:
        yield Case(fn, (T(d, (1, 2, 4, 4)), 2))
    opts = ({}, {"stride": 1}, {"kernel_size": 3, "stride": 2}, {"kernel_size": (2, 3), "stride": (1, 2)},
            {"kernel_size": 3, "padding": 1}, {"kernel_size": 3, "padding": 1, "count_include_pad": False},
            {"kernel_size": 3, "stride": 2, "ceil_mode": True},
            {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
            {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False},
            {"kernel_size": 4, "stride": 3, "ceil_mode": True}, {"divisor_override": 3},
            {"kernel_size": 3, "padding": 1, "divisor_override": 2}, {"kernel_size": 1})
    for kw in opts:
        yield Case(fn, (x,), dict({"kernel_size": 2}, **kw), grad=True)
    yield Case(fn, (T("float32", (1, 1, 5, 5), grad=True),), {"kernel_size": 2, "ceil_mode": True}, grad=True)
    yield Case(fn, (T("float32", (1, 1, 5, 5), grad=True),), {"kernel_size": 2, "ceil_mode": True, "padding": 1,
                                                              "count_include_pad": False}, grad=True)
    yield Case(fn, (T("float32", (3, 6, 6), grad=True), 2), grad=True, tag="unbatched")
    yield Case(fn, (T("float64", (1, 1, 4, 3), "special", grad=True), 2), grad=True)
    yield Case(fn, (T("float64", (2, 3, 6, 6), grad=True),), {"kernel_size": 3, "stride": 2, "padding": 1}, grad=True)
    for d in ("float16", "bfloat16"):
        yield Case(fn, (T(d, (1, 2, 4, 4), grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (0, 3, 4, 4), grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (1, 3, 4, 4), layout="transposed", grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (2, 3, 6, 6), grad=True), 3, 2, 1, True, False, None), grad=True)
    for kw in ({"kernel_size": 2, "padding": 2}, {"kernel_size": 7}, {"kernel_size": 2, "divisor_override": 0},
               {"kernel_size": 2, "stride": 0}):
        yield Case(fn, (T("float32", (2, 3, 6, 6)),), kw)

    fn = "F.adaptive_avg_pool2d"
    x = T("float32", (2, 3, 6, 6), grad=True)
    for d in DTYPES:
        yield Case(fn, (T(d, (1, 2, 4, 4)), 2))
    for size in (1, 2, 3, 4, 6, (2, 3), (None, 2), (3, None), (None, None), (4, 5), (7, 7), [2, 2], (1, 6)):
        yield Case(fn, (x, size), grad=True)
    yield Case(fn, (T("float32", (2, 3, 5, 7), grad=True), (3, 4)), grad=True)
    yield Case(fn, (T("float32", (3, 5, 7), grad=True), (2, 3)), grad=True, tag="unbatched")
    yield Case(fn, (T("float64", (1, 1, 4, 3), "special", grad=True), 2), grad=True)
    for d in ("float16", "bfloat16", "float64"):
        yield Case(fn, (T(d, (1, 2, 5, 5), grad=True), 3), grad=True)
    yield Case(fn, (T("float32", (0, 3, 4, 4), grad=True), 2), grad=True)
    yield Case(fn, (T("float32", (1, 3, 4, 4), layout="transposed", grad=True), (2, 3)), grad=True)
    yield Case(fn, (T("float32", (1, 3, 4, 4)), 0))
    yield Case(fn, (T("float32", (1, 3, 4, 4)), (2, 2, 2)))
    yield Case(fn, (T("float32", (4, 4)), 2), tag="2-d")
    yield Case(fn, (T("float32", (1, 3, 0, 4)), 2))

    # pooling names Porta may lack
    for kw in ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1}, {"kernel_size": 2, "ceil_mode": True},
               {"kernel_size": 2, "return_indices": True}, {"kernel_size": 2, "dilation": 2}):
        yield Case("F.max_pool1d", (T("float32", (2, 3, 7), grad=True),), kw, grad=True)
    yield Case("F.max_pool1d", (T("float32", (3, 8)), 2), tag="unbatched")
    for kw in ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1},
               {"kernel_size": 3, "stride": 2, "padding": 1, "count_include_pad": False},
               {"kernel_size": 2, "ceil_mode": True}):
        yield Case("F.avg_pool1d", (T("float32", (2, 3, 7), grad=True),), kw, grad=True)
    for size in (1, 3, 4, 9):
        yield Case("F.adaptive_avg_pool1d", (T("float32", (2, 3, 7), grad=True), size), grad=True)
        yield Case("F.adaptive_max_pool1d", (T("float32", (2, 3, 7), grad=True), size), grad=True)
    for size in (1, 2, (2, 3), (None, 3)):
        yield Case("F.adaptive_max_pool2d", (T("float32", (2, 3, 5, 6), grad=True), size), grad=True)
    yield Case("F.adaptive_max_pool2d", (T("float32", (2, 3, 5, 6), grad=True), 2), {"return_indices": True},
               grad=True)
    yield Case("F.adaptive_max_pool2d", (T("float32", (1, 1, 4, 4), "grid", grad=True), 2), grad=True)
    yield Case("F.max_pool3d", (T("float32", (1, 2, 4, 4, 4), grad=True), 2), grad=True)
    yield Case("F.avg_pool3d", (T("float32", (1, 2, 4, 4, 4), grad=True), 2), grad=True)
    yield Case("F.adaptive_avg_pool3d", (T("float32", (1, 2, 4, 4, 4)), 2))
    yield Case("F.lp_pool2d", (T("float32", (1, 2, 4, 4), "positive"), 2, 2))
    yield Case("F.max_unpool2d", (T("float32", (1, 1, 2, 2)), T("int64", (1, 1, 2, 2), (0, 3, 9, 14)), 2))
    # unfold, fold, pixel_shuffle, pixel_unshuffle
    for kw in ({"kernel_size": 2}, {"kernel_size": (2, 3), "stride": 2, "padding": 1},
               {"kernel_size": 2, "dilation": 2}, {"kernel_size": 3, "padding": 1}):
        yield Case("F.unfold", (T("float32", (1, 2, 4, 5), grad=True),), kw, grad=True)
    yield Case("F.unfold", (T("float32", (2, 4, 5)),), {"kernel_size": 2}, tag="unbatched")
    yield Case("F.fold", (T("float32", (1, 8, 9), grad=True),), {"output_size": (4, 4), "kernel_size": 2}, grad=True)
    yield Case("F.fold", (T("float32", (1, 8, 4), grad=True),), {"output_size": (4, 4), "kernel_size": 2,
                                                                  "stride": 2}, grad=True)
    yield Case("F.fold", (T("float32", (1, 18, 4), grad=True),), {"output_size": (4, 4), "kernel_size": 3,
                                                                   "padding": 1, "stride": 2}, grad=True)
    yield Case("F.fold", (T("float32", (8, 9)),), {"output_size": 4, "kernel_size": 2}, tag="unbatched")
    for d in ("float32", "int64", "bool"):
        yield Case("F.pixel_shuffle", (T(d, (1, 8, 2, 3)), 2))
        yield Case("F.pixel_unshuffle", (T(d, (1, 2, 4, 6)), 2))
    yield Case("F.pixel_shuffle", (T("float32", (2, 9, 2, 2), grad=True), 3), grad=True)
    yield Case("F.pixel_shuffle", (T("float32", (1, 6, 2, 2)), 2))
    yield Case("F.pixel_unshuffle", (T("float32", (1, 2, 4, 6), grad=True), 2), grad=True)


# ----------------------------------------------------------------------------------------------------- interpolate

def interpolations():
    fn = "F.interpolate"
    x = T("float32", (1, 2, 3, 4), grad=True)
    sizes = ({"size": 6}, {"size": (5, 7)}, {"size": (2, 3)}, {"size": (3, 4)}, {"size": [6, 2]}, {"size": 1},
             {"scale_factor": 2}, {"scale_factor": 2.0}, {"scale_factor": 1.5}, {"scale_factor": 0.5},
             {"scale_factor": (2, 3)}, {"scale_factor": (1.7, 0.6)}, {"scale_factor": 0.34},
             {"scale_factor": 1.7, "recompute_scale_factor": True},
             {"scale_factor": 1.7, "recompute_scale_factor": False})
    for mode in ("nearest", "nearest-exact", "area"):
        for kw in sizes:
            yield Case(fn, (x,), dict(kw, mode=mode), grad=True)
    for ac in (None, False, True):
        for kw in sizes:
            yield Case(fn, (x,), dict(kw, mode="bilinear", align_corners=ac), grad=True)
    yield Case(fn, (x,), {"size": 6}, grad=True, tag="default mode")
    yield Case(fn, (x, 6), grad=True)
    yield Case(fn, (x, None, 2.0, "bilinear", True), grad=True)
    for mode in ("nearest", "nearest-exact", "bilinear", "area"):
        for d in DTYPES:
            yield Case(fn, (T(d, (1, 2, 3, 3)),), {"scale_factor": 2, "mode": mode})
        yield Case(fn, (T("float64", (1, 2, 3, 3), grad=True),), {"size": (5, 4), "mode": mode}, grad=True)
        yield Case(fn, (T("float64", (1, 1, 4, 3), "special", grad=True),), {"size": (5, 4), "mode": mode}, grad=True)
        yield Case(fn, (T("float32", (1, 2, 3, 4), layout="transposed", grad=True),), {"size": (5, 6), "mode": mode},
                   grad=True)
        yield Case(fn, (T("float32", (0, 2, 3, 3), grad=True),), {"scale_factor": 2, "mode": mode}, grad=True)
        yield Case(fn, (T("float32", (2, 3, 3)),), {"scale_factor": 2, "mode": mode}, tag="3-d")
        yield Case(fn, (T("float32", (1, 2, 2, 3, 3)),), {"scale_factor": 2, "mode": mode}, tag="5-d")
        yield Case(fn, (T("float32", (1, 2, 3, 3)),), {"scale_factor": 0.1, "mode": mode}, tag="to nothing")
        yield Case(fn, (T("bfloat16", (1, 2, 3, 3), grad=True),), {"size": (4, 5), "mode": mode}, grad=True)
    # the other modes PyTorch has, and the 1-d and 3-d spatial cases
    for mode, shape in (("linear", (1, 2, 5)), ("bicubic", (1, 2, 3, 4)), ("trilinear", (1, 2, 2, 3, 3)),
                        ("nearest", (1, 2, 5)), ("nearest", (1, 2, 2, 3, 3)), ("nearest-exact", (1, 2, 5))):
        yield Case(fn, (T("float32", shape, grad=True),), {"scale_factor": 2, "mode": mode}, grad=True)
        if mode in ("linear", "bicubic", "trilinear"):
            yield Case(fn, (T("float32", shape, grad=True),), {"scale_factor": 1.5, "mode": mode,
                                                               "align_corners": True}, grad=True)
    yield Case(fn, (T("float32", (1, 2, 6, 8), grad=True),), {"size": (3, 3), "mode": "bilinear", "antialias": True},
               grad=True)
    yield Case(fn, (T("float32", (1, 2, 6, 8)),), {"size": (3, 3), "mode": "bicubic", "antialias": True})
    yield Case(fn, (T("float32", (1, 2, 6, 8)),), {"size": (3, 3), "mode": "lanczos", "antialias": True})
    yield Case(fn, (T("float32", (1, 2, 3, 4)),), {"scale_factor": 2, "mode": "lanczos"})
    for kw, tag in (({"size": 4, "scale_factor": 2}, "both"), ({}, "neither"),
                    ({"size": 4, "align_corners": True}, "align_corners with nearest"),
                    ({"size": 4, "mode": "area", "align_corners": False}, ""), ({"size": 4, "mode": "cubic"}, ""),
                    ({"size": (4, 4, 4)}, ""), ({"scale_factor": (2, 2, 2)}, ""), ({"size": 0}, ""),
                    ({"scale_factor": -1.0}, ""), ({"size": 4, "antialias": True}, "")):
        yield Case(fn, (T("float32", (1, 2, 3, 3)),), kw, tag=tag)
    fn = "F.upsample"
    for kw in ({"scale_factor": 2}, {"size": (5, 6)}, {"scale_factor": 2, "mode": "bilinear"},
               {"scale_factor": 2, "mode": "bilinear", "align_corners": True}, {"size": 5, "mode": "nearest-exact"},
               {"scale_factor": 1.5, "mode": "area"}):
        yield Case(fn, (T("float32", (1, 2, 3, 4), grad=True),), kw, grad=True)
    yield Case(fn, (T("float32", (1, 2, 3, 4)), 6))
    yield Case(fn, (T("uint8", (1, 2, 3, 4)),), {"scale_factor": 2})
    yield Case(fn, (T("float32", (1, 2, 5)),), {"scale_factor": 2, "mode": "linear"})
    yield Case(fn, (T("float32", (1, 2, 3, 4)),), {"scale_factor": 2, "size": 3})
    yield Case("F.upsample_nearest", (T("float32", (1, 2, 3, 4)),), {"scale_factor": 2})
    yield Case("F.upsample_bilinear", (T("float32", (1, 2, 3, 4)),), {"scale_factor": 2})
    yield Case("F.grid_sample", (T("float32", (1, 2, 3, 4)), T("float32", (1, 2, 2, 2), "unit")),
               {"align_corners": False})
    yield Case("F.affine_grid", (T("float32", (1, 2, 3)), [1, 2, 3, 4]), {"align_corners": False})


# ------------------------------------------------------------------------------------------------------------- pad

def pads():
    fn = "F.pad"
    x = T("float32", (2, 3, 4), grad=True)
    for p in ((1, 1), (1, 2, 0, 1), (0, 0), (-1, 1), (-1, -1, 2, 0), (1, 1, 1, 1, 1, 1), (0, 0, 0, 0, 0, 0),
              (2, -3), (-4, 0), (0, 0, -3, 0), (3, 0, 0, 2, -1, 1), [1, 2]):
        yield Case(fn, (x, p), grad=True)
        yield Case(fn, (x, p), {"value": 2.5}, grad=True)
    for v in (None, 0, -INF, NAN, True, 3):
        yield Case(fn, (T("float32", (2, 3)), (1, 1)), {"value": v})
    for d in DTYPES:
        yield Case(fn, (T(d, (2, 3)), (1, 2)))
        yield Case(fn, (T(d, (2, 3)), (1, 2)), {"value": 1})
        yield Case(fn, (T(d, (2, 3)), (1, 2)), {"value": 2.5})
    for bad in ((1,), (1, 1, 1), (1, 1, 1, 1, 1, 1, 1, 1), (-5, 0), (-3, -3)):
        yield Case(fn, (T("float32", (2, 3, 4)), bad))
    yield Case(fn, (T("float32", ()), (1, 1)))
    yield Case(fn, (T("float32", (0, 3)), (1, 1)))
    yield Case(fn, (T("float32", (0, 3)), (0, 0, 1, 1)))
    yield Case(fn, (T("float32", (2, 0)), (1, 1)))
    yield Case(fn, (T("float32", (2, 3, 4)), (1, 1)), {"mode": "constant", "value": -1.0})
    yield Case(fn, (T("float32", (2, 3)), (1, 1), "constant", 7.0))
    yield Case(fn, (T("float64", (12,), "special", grad=True), (2, 3)), grad=True)
    for t in layouts(shape=(3, 4), grad=True):
        yield Case(fn, (t, (1, 2, -1, 1)), grad=True)
    for mode in ("reflect", "replicate", "circular"):
        for shape, p in (((2, 3, 4), (1, 2)), ((2, 3, 4), (3, 3)), ((2, 3, 4), (4, 0)), ((2, 3, 4), (0, 0)),
                         ((1, 2, 3, 4), (1, 1, 2, 2)), ((1, 2, 3, 4), (2, 0, 0, 1)), ((1, 2, 3, 4), (3, 3, 1, 1)),
                         ((3, 4), (1, 2)), ((4,), (1, 1)), ((1, 1, 2, 3, 4), (1, 1, 1, 1, 1, 1)),
                         ((2, 3, 4), (-1, 1)), ((2, 3, 4), (-1, -1)), ((1, 2, 3, 4), (1, -1, 0, 1)),
                         ((2, 3, 4), (1, 1, 1, 1)), ((1, 2, 3, 4), (1, 1)), ((2, 3, 4), (5, 5)),
                         ((1, 2, 3, 4), (1, 1, 1, 1, 1, 1))):
            yield Case(fn, (T("float32", shape, grad=True), p), {"mode": mode}, grad=True)
        for d in DTYPES:
            yield Case(fn, (T(d, (2, 3, 4)), (1, 2)), {"mode": mode})
        yield Case(fn, (T("float64", (1, 3, 4), "special", grad=True), (2, 1)), {"mode": mode}, grad=True)
        yield Case(fn, (T("float32", (3, 4, 4), layout="transposed", grad=True), (1, 2, 2, 1)), {"mode": mode},
                   grad=True)
        yield Case(fn, (T("float32", (1, 3, 4), layout="expanded", grad=True), (2, 1)), {"mode": mode}, grad=True)
        yield Case(fn, (T("float32", (0, 3, 4)), (1, 1)), {"mode": mode})
        yield Case(fn, (T("float32", (2, 3, 0)), (1, 1)), {"mode": mode})
        yield Case(fn, (T("float32", (2, 3, 4)), (1, 1)), {"mode": mode, "value": 1.0})
        yield Case(fn, (T("float32", (2, 3, 4)), (1, 1)), {"mode": mode, "value": 0.0})
        yield Case(fn, (T("bfloat16", (2, 3, 4), grad=True), (2, 1)), {"mode": mode}, grad=True)
    yield Case(fn, (T("float32", (2, 3, 4)), (1, 1)), {"mode": "symmetric"})
    yield Case(fn, (T("float32", (2, 3, 4)), (1, 1)), {"mode": "zeros"})


# ------------------------------------------------------------------------------------------------------ embedding

def embeddings():
    fn = "F.embedding"
    w = T("float32", (5, 3), grad=True)
    for shape in ((), (4,), (2, 4), (0,), (2, 0), (2, 2, 3)):
        yield Case(fn, (T("int64", shape, "index:5"), w), grad=True)
    for d in DTYPES:
        yield Case(fn, (T("int64", (2, 4), "index:5"), T(d, (5, 3))))
    for d in ("int32", "int16", "int8", "uint8", "bool", "float32"):
        yield Case(fn, (T(d, (4,), (0, 1, 1, 0)), T("float32", (5, 3))), tag="index dtype")
    repeated = T("int64", (2, 4), (0, 2, 2, 4, 0, 0, 1, 2))
    yield Case(fn, (repeated, w), grad=True)
    yield Case(fn, (repeated, T("float64", (5, 3), grad=True)), grad=True)
    yield Case(fn, (repeated, T("bfloat16", (5, 3), grad=True)), grad=True)
    yield Case(fn, (repeated, T("float16", (5, 3), grad=True)), grad=True)
    for pi in (0, 2, -1, -5, 4):
        yield Case(fn, (repeated, w), {"padding_idx": pi}, grad=True)
    for pi in (5, -6):
        yield Case(fn, (repeated, T("float32", (5, 3))), {"padding_idx": pi})
    yield Case(fn, (repeated, w, 2), grad=True)
    yield Case(fn, (repeated, w), {"scale_grad_by_freq": True}, grad=True)
    yield Case(fn, (repeated, w), {"scale_grad_by_freq": True, "padding_idx": 2}, grad=True)
    yield Case(fn, (repeated, T("float32", (5, 3))), {"max_norm": 1.0}, mutates=True)
    yield Case(fn, (repeated, T("float32", (5, 3))), {"max_norm": 1.0, "norm_type": 1.0}, mutates=True)
    yield Case(fn, (repeated, T("float32", (5, 3))), {"sparse": True})
    yield Case(fn, (repeated, T("float32", (5, 3))), {"norm_type": 1.0})
    yield Case(fn, (repeated, w), {"padding_idx": NP("int64", 2)}, grad=True)
    yield Case(fn, (T("int64", (3,), (0, 5, 1)), T("float32", (5, 3))), tag="out of range")
    yield Case(fn, (T("int64", (3,), (0, -1, 1)), T("float32", (5, 3))), tag="negative")
    yield Case(fn, (T("int64", (4,), "index:5", layout="stepped"), T("float32", (5, 3), layout="transposed",
                                                                       grad=True)), grad=True)
    yield Case(fn, (T("int64", (4,), "index:5"), T("float32", (5,))), tag="1-d weight")
    yield Case(fn, (T("int64", (4,), "index:5"), T("float32", (5, 0), grad=True)), grad=True, tag="0 columns")
    yield Case(fn, (T("int64", (4,), "index:5"), T("float64", (5, 3), "special", grad=True)), grad=True)

    fn = "F.one_hot"
    for shape, nc in (((5,), -1), ((5,), 4), ((5,), 6), ((2, 3), -1), ((2, 3), 3), ((), -1), ((), 5), ((0,), 3),
                      ((0,), -1), ((2, 0), 4), ((5,), 0)):
        yield Case(fn, (T("int64", shape, "index:3"),), {"num_classes": nc})
    yield Case(fn, (T("int64", (5,), "index:4"),))
    yield Case(fn, (T("int64", (5,), "index:4"), 5))
    yield Case(fn, (T("int64", (5,), (0, 1, 7, 2, 3)),), {"num_classes": 4}, tag="too few classes")
    yield Case(fn, (T("int64", (5,), (0, 1, -1, 2, 3)),), {"num_classes": 4}, tag="negative")
    for d in ("int32", "int16", "int8", "uint8", "bool", "float32"):
        yield Case(fn, (T(d, (4,), (0, 1, 1, 0)),), {"num_classes": 3}, tag="dtype")
    yield Case(fn, (T("int64", (2, 3), "index:4", layout="transposed"),), {"num_classes": 4})


# -------------------------------------------------------------------------------------------------------- dropout

def dropouts():
    spatial = {"dropout": ((4, 5), (2, 3, 4)), "dropout1d": ((2, 3, 5), (3, 5)),
               "dropout2d": ((2, 3, 4, 4), (3, 4, 4)), "dropout3d": ((2, 3, 2, 2, 2), (3, 2, 2, 2))}
    for name, shapes in spatial.items():
        fn = f"F.{name}"
        for shape in shapes:
            for p in (0.5, 0.2, 0.9):
                yield Case(fn, (T("float32", shape),), {"p": p}, random=True)
            yield Case(fn, (T("float32", shape, grad=True),), {"p": 0.5}, random=True, tag="requires grad")
            yield Case(fn, (T("float32", shape),), {"p": 0.5, "inplace": True}, random=True, mutates=True)
            # deterministic: not training, p = 0, p = 1
            yield Case(fn, (T("float32", shape, grad=True),), {"p": 0.5, "training": False}, grad=True)
            yield Case(fn, (T("float32", shape, grad=True),), {"p": 0.0}, grad=True)
            yield Case(fn, (T("float32", shape, grad=True),), {"p": 1.0}, grad=True)
            yield Case(fn, (T("float32", shape),), {"p": 0.0, "training": True, "inplace": True}, mutates=True)
            yield Case(fn, (T("float32", shape),), {"p": 1.0, "inplace": True}, mutates=True)
            yield Case(fn, (T("float32", shape),), {"p": 0.5, "training": False, "inplace": True}, mutates=True)
        shape = shapes[0]
        for d in DTYPES:
            yield Case(fn, (T(d, shape),), random=True)
            yield Case(fn, (T(d, shape),), {"training": False})
            yield Case(fn, (T(d, shape),), {"p": 0.0})
        yield Case(fn, (T("float64", (12,) + shape[1:], "special", grad=True),), {"p": 0.0}, grad=True)
        yield Case(fn, (T("float64", (12,) + shape[1:], "special"),), {"p": 1.0})
        for p in (-0.1, 1.5, NAN):
            yield Case(fn, (T("float32", shape),), {"p": p})
        yield Case(fn, (T("float32", shape), 0.5, False), tag="positional")
        yield Case(fn, (T("float32", (0,) + shape[1:]),), random=True)
        yield Case(fn, (T("float32", (0,) + shape[1:]),), {"training": False})
        yield Case(fn, (T("float32", shape, grad=True),), {"p": 0.0, "inplace": True}, program=_on_nonleaf(name),
                   grad=True, tag="non-leaf")
        yield Case(fn, (T("float32", shape, grad=True),), {"p": 1.0, "inplace": True}, program=_on_nonleaf(name),
                   grad=True, tag="non-leaf")
        yield Case(fn, (T("float32", shape, grad=True),), {"p": 0.5, "inplace": True}, tag="leaf")
        yield Case(fn, (T("float32", shape, layout="transposed"),), {"training": False})
    for name, shapes in (("dropout1d", ((4,), (2, 3, 4, 5))), ("dropout2d", ((3, 4), (2, 2, 3, 4, 4))),
                         ("dropout3d", ((2, 3, 4), (1, 2, 3, 2, 2, 2)))):
        for shape in shapes:
            yield Case(f"F.{name}", (T("float32", shape),), random=True, tag="other dims")
            yield Case(f"F.{name}", (T("float32", shape),), {"p": 0.0}, tag="other dims")
    for p in (0, 1, True, False, NP("float64", 0.0), NP("float32", 1.0)):
        yield Case("F.dropout", (T("float32", (4, 5)),), {"p": p})
    yield Case("F.dropout", (T("float32", ()),), random=True)
    yield Case("F.dropout", (T("float32", ()),), {"p": 0.0})
    yield Case("F.alpha_dropout", (T("float32", (4, 5)),), {"training": False})
    yield Case("F.alpha_dropout", (T("float32", (4, 5)),), random=True)
    yield Case("F.feature_alpha_dropout", (T("float32", (2, 3, 4)),), {"training": False})


# ----------------------------------------------------------------------------------------- scaled_dot_product_attention

def _causal_left_padded(n, pad):
    """A bool mask [n, n]: causal (key j <= query i) and the first `pad` keys masked out (left padding), so the
    first `pad` queries see no key at all."""
    return tuple(j <= i and j >= pad for i in range(n) for j in range(n))


def _sdpa_mask_program(L, device, q, k, v, pad=1, **kw):
    """SDPA under a mask built in the program: a causal mask (tril of ones) and a key-padding mask, as a model
    builds them; the first rows have no visible key."""
    n = q.shape[-2]
    causal = L.ones(n, n, dtype=L.bool, device=device).tril()
    keep = L.arange(n, device=device) >= pad
    return _F(L).scaled_dot_product_attention(q, k, v, attn_mask=causal & keep, **kw)


def attentions():
    fn = "F.scaled_dot_product_attention"

    def qkv(b=(2, 2), L=3, S=5, E=4, Ev=6, d="float32", grad=True, values="random"):
        return (T(d, b + (L, E), values, grad=grad), T(d, b + (S, E), values, grad=grad),
                T(d, b + (S, Ev), values, grad=grad))
    base = qkv()
    yield Case(fn, base, grad=True)
    yield Case(fn, qkv(b=()), grad=True)
    yield Case(fn, qkv(b=(2,)), grad=True)
    yield Case(fn, qkv(b=(2, 1, 2)), grad=True)
    yield Case(fn, qkv(E=4, Ev=4, L=4, S=4), grad=True)
    yield Case(fn, qkv(L=1, S=1), grad=True)
    for d in DTYPES:
        yield Case(fn, qkv(d=d, grad=False))
    for d in ("float64", "float16", "bfloat16"):
        yield Case(fn, qkv(d=d), grad=True)
        yield Case(fn, qkv(d=d, L=4, S=4), {"is_causal": True}, grad=True)
    yield Case(fn, qkv(d="float64", values="special"), grad=True)
    # masks: bool (False excluded) and additive float, broadcast, with fully masked rows
    for m in (T("bool", (3, 5)), T("bool", (2, 1, 3, 5)), T("bool", (1, 5)), T("bool", (2, 2, 3, 5))):
        yield Case(fn, base, {"attn_mask": m}, grad=True)
    yield Case(fn, base, {"attn_mask": T("float32", (3, 5), grad=True)}, grad=True)
    yield Case(fn, base, {"attn_mask": T("float32", (2, 1, 3, 5), "grid", grad=True)}, grad=True)
    minf = (0.0, -INF, -INF, 0.0, 1.0) + (-INF,) * 5 + (0.0, 0.5, -1.0, -INF, 2.0)
    yield Case(fn, base, {"attn_mask": T("float32", (3, 5), minf)}, grad=True, tag="a row of -inf")
    masked = (True, False, True, True, False) + (False,) * 5 + (True,) * 5
    yield Case(fn, base, {"attn_mask": T("bool", (3, 5), masked)}, grad=True, tag="a fully masked row")
    yield Case(fn, base, {"attn_mask": T("bool", (3, 5), (False,))}, grad=True, tag="all masked")
    for n, pad in ((4, 1), (4, 2), (5, 3)):
        sq = qkv(L=n, S=n, Ev=3)
        yield Case(fn, sq, {"attn_mask": T("bool", (n, n), _causal_left_padded(n, pad))}, grad=True,
                   tag="causal and left padding")
        yield Case(fn, sq, {"pad": pad}, program=_sdpa_mask_program, grad=True, tag="causal and left padding")
    yield Case(fn, qkv(L=4, S=4, d="float64"), {"pad": 2}, program=_sdpa_mask_program, grad=True,
               tag="causal and left padding")
    yield Case(fn, qkv(L=4, S=4, d="bfloat16"), {"pad": 1}, program=_sdpa_mask_program, grad=True,
               tag="causal and left padding")
    # is_causal: square, and L != S (PyTorch's causal mask is the top-left triangle)
    yield Case(fn, qkv(L=4, S=4), {"is_causal": True}, grad=True)
    yield Case(fn, base, {"is_causal": True}, grad=True)
    yield Case(fn, qkv(L=5, S=3), {"is_causal": True}, grad=True)
    yield Case(fn, base, {"is_causal": True, "attn_mask": T("bool", (3, 5))})
    # scale, dropout
    for s in (0.5, 1.0, 0.0, -1.0, 10.0):
        yield Case(fn, base, {"scale": s}, grad=True)
    yield Case(fn, base, {"dropout_p": 0.0}, grad=True)
    yield Case(fn, base, {"dropout_p": 0.0, "is_causal": True, "scale": 0.25}, grad=True)
    yield Case(fn, qkv(grad=False), {"dropout_p": 0.5}, random=True)
    yield Case(fn, qkv(grad=False), {"dropout_p": 1.0}, random=True)
    yield Case(fn, qkv(grad=False), {"dropout_p": 1.5})
    yield Case(fn, qkv(grad=False), {"attn_mask": T("bool", (3, 5)), "dropout_p": 0.0, "is_causal": False,
                                     "scale": None})
    yield Case(fn, qkv(grad=False) + (None, 0.0, True))
    # sizes: empty batch, no keys, no queries; errors
    yield Case(fn, qkv(b=(0, 2)), grad=True)
    yield Case(fn, qkv(S=0), grad=True)
    yield Case(fn, qkv(L=0), grad=True)
    yield Case(fn, (T("float32", (2, 2, 3, 4)), T("float32", (2, 2, 5, 3)), T("float32", (2, 2, 5, 6))),
               tag="E mismatch")
    yield Case(fn, (T("float32", (2, 2, 3, 4)), T("float32", (2, 2, 5, 4)), T("float32", (2, 2, 4, 6))),
               tag="S mismatch")
    yield Case(fn, (T("float32", (2, 2, 3, 4)), T("float64", (2, 2, 5, 4)), T("float32", (2, 2, 5, 6))),
               tag="mixed")
    yield Case(fn, (T("float32", (2, 2, 3, 4)), T("float32", (2, 2, 5, 4)), T("float32", (2, 2, 5, 6))),
               {"attn_mask": T("int64", (3, 5))}, tag="int mask")
    yield Case(fn, (T("float32", (2, 2, 3, 4)), T("float32", (2, 2, 5, 4)), T("float32", (2, 2, 5, 6))),
               {"attn_mask": T("float64", (3, 5))}, tag="float64 mask")
    yield Case(fn, (T("float32", (2, 2, 3, 4)), T("float32", (2, 2, 5, 4)), T("float32", (2, 2, 5, 6))),
               {"attn_mask": T("bool", (3, 4))}, tag="mask shape")
    # grouped-query attention: fewer key/value heads
    yield Case(fn, (T("float32", (1, 4, 3, 4), grad=True), T("float32", (1, 2, 5, 4), grad=True),
                    T("float32", (1, 2, 5, 6), grad=True)), {"enable_gqa": True}, grad=True)
    yield Case(fn, (T("float32", (1, 4, 3, 4)), T("float32", (1, 2, 5, 4)), T("float32", (1, 2, 5, 6))))
    for t in layouts(shape=(2, 5, 4), grad=True):
        yield Case(fn, (t, T("float32", (2, 4, 4), grad=True), T("float32", (2, 4, 3), grad=True)), grad=True)
    yield Case(fn, (T("float32", (2, 3, 4), grad=True), T("float32", (2, 5, 4), layout="transposed", grad=True),
                    T("float32", (2, 5, 6), grad=True)), grad=True, tag="key transposed")
    yield Case(fn, (T("float32", (1, 3, 4), layout="expanded"), T("float32", (2, 5, 4)), T("float32", (2, 5, 6))))


def cases():
    yield from activations()
    yield from softmaxes()
    yield from regression_losses()
    yield from kl_divs()
    yield from binary_losses()
    yield from class_losses()
    yield from more_losses()
    yield from normalizations()
    yield from linears()
    yield from convolutions()
    yield from poolings()
    yield from interpolations()
    yield from pads()
    yield from embeddings()
    yield from dropouts()
    yield from attentions()
