"""What many families' samples share: the dtypes, the Python scalars of each kind and the
special values, and the standard sweeps (every dtype, every layout, every dtype pair)."""
from spec import DTYPES, FLOATS, INTS, T

# Python scalars of every kind PyTorch treats differently: bool, small and huge ints (past 2**53, past
# int32, wrapping a uint8), floats integral and not, -0.0, NaN and the infinities.
SCALARS = (True, False, 0, 3, -3, 300, 3_000_000_000, 2**60 + 1, -2**63, 2.5, -1.5, 2.0, -0.0, float("nan"),
           float("inf"), float("-inf"))
SMALL_SCALARS = (True, 3, -3, 2.5, -0.0, float("nan"))
NUMERIC = FLOATS + INTS
LAYOUTS = ("transposed", "stepped", "expanded")
SHAPES_0 = ((), (0,), (2, 0, 3))  # 0-d and 0-size


def every_dtype(shape=(2, 3), dtypes=DTYPES, **kw):
    return [T(d, shape, **kw) for d in dtypes]


def layouts(dtype="float32", shape=(3, 4), **kw):
    return [T(dtype, shape, layout=lay, **kw) for lay in LAYOUTS]


def grad_inputs(shape=(3, 4)):
    """Differentiable inputs: ordinary values, the special values (non-smooth and non-finite points), and a grid
    with ties and zeros."""
    return [T("float32", shape, grad=True), T("float64", (12,), "special", grad=True),
            T("float64", shape, "grid", grad=True)]
