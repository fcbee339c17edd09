"""Shape and layout ops: views (reshape, view, flatten, squeeze, permute, transpose, expand, narrow, select,
split, chunk, unbind, diagonal, unfold, T/mT, ...), copies that rearrange values (cat, stack, tile, repeat,
repeat_interleave, flip, roll, diag, tril/triu, clone, contiguous, meshgrid) and the shape queries (size, shape,
stride, storage_offset, is_contiguous, numel, element_size, nbytes, ...).

Besides each call's value, the cases check what a view is: programs that return the result's strides, storage
offset and contiguity (tag "layout"), programs that write distinct values into the result in place and return the
base, so a view must write through and a copy must not (tag "write"), the same write with autograd recording it
(tag "write-grad"), and the write into a view of a leaf that requires grad, which PyTorch refuses
(tag "leaf-write")."""
from spec import DTYPES, FLOATS, Case, D, NP, Seq, T

from .common import LAYOUTS, every_dtype

# --- helpers (programs shared by many names) -------------------------------------------------------------------


def _invoke(L, name, x, args, kw):
    """`name` called on x as the engine calls it: a method (or the attributes T/mT/H/mH) or a torch function."""
    space, _, attr = name.partition(".")
    if space == "Tensor":
        if attr in ("T", "mT", "H", "mH"):
            return getattr(x, attr)
        return getattr(x, attr)(*args, **kw)
    return getattr(L, attr)(x, *args, **kw)


def _items(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _write_distinct(L, v):
    """Distinct values written into v in place (100, 101, ... ; alternating for bool) with copy_."""
    src = L.arange(v.numel()).reshape(tuple(v.shape))
    src = (src % 2) == 0 if v.dtype == L.bool else src + 100
    v.copy_(src)


def _layout(name):
    """The result's strides, storage offset and contiguity (each output's, for the ops that return several)."""
    def program(L, device, x, *args, **kw):
        return [(o.stride(), o.storage_offset(), o.is_contiguous()) for o in _items(_invoke(L, name, x, args, kw))]
    return program


def _write(name):
    """Writes distinct values into the (first) result in place and returns the base and the result(s): a view
    writes through into the base, a copy leaves it alone."""
    def program(L, device, x, *args, **kw):
        out = _invoke(L, name, x, args, kw)
        _write_distinct(L, _items(out)[0])
        return x, out
    return program


def _write_grad(name):
    """The op on a non-leaf (x * 1), its (first) result doubled in place, both returned: autograd must see the
    in-place write through the view (PyTorch refuses it on the outputs of split/chunk/unbind). In PyTorch x * 1 keeps
    x's strides, so for a transposed x the op sees a transposed non-leaf (reshape/flatten/contiguous then copy)."""
    def program(L, device, x, *args, **kw):
        y = x * 1
        out = _invoke(L, name, y, args, kw)
        _items(out)[0].mul_(2)
        return y, out
    return program


def _leaf_write(name):
    """The op on a leaf that requires grad and its (first) result doubled in place: PyTorch refuses it when the
    result is a view of the leaf (or the leaf itself)."""
    def program(L, device, x, *args, **kw):
        out = _invoke(L, name, x, args, kw)
        _items(out)[0].mul_(2)
        return out
    return program


def out_case(name, args, out):
    """An out= case (the out tensor is resized when its shape is not the result's)."""
    return Case(name, args, {"out": out}, mutates=True, exact=True)


def C(name, *args, **kw):
    """A plain value-moving case: exact values."""
    return Case(name, args, kw, exact=True)


def G(name, *args, **kw):
    """A gradient case."""
    return Case(name, args, kw, grad=True)


def checks(name, x, *args, view=True, grad=True, **kw):
    """The layout, write-through, write-with-autograd and leaf-write programs for `name` on x."""
    yield Case(name, (x,) + args, kw, program=_layout(name), tag="layout")
    yield Case(name, (x,) + args, kw, program=_write(name), exact=True, tag="write")
    if grad and x.dtype in FLOATS and x.layout in ("contiguous", "transposed"):
        g = T(x.dtype, x.shape, x.values, x.layout, grad=True)
        yield Case(name, (g,) + args, kw, program=_write_grad(name), grad=True, tag="write-grad")
        if view:
            yield Case(name, (g,) + args, kw, program=_leaf_write(name), tag="leaf-write")


def on_layouts(name, shape, *args, view=True, **kw):
    """The checks on contiguous, transposed, stepped and expanded inputs."""
    for lay in ("contiguous",) + LAYOUTS:
        yield from checks(name, T("float32", shape, layout=lay), *args, view=view, **kw)


def grads(name, shape, *args, **kw):
    """Gradients in float32 and float64 (special values) and on a transposed leaf (float32 only for the method form
    of a name that has both)."""
    yield G(name, T("float32", shape, grad=True), *args, **kw)
    if name in _METHOD_TOO:
        return
    yield G(name, T("float64", shape, "special", grad=True), *args, **kw)
    if len(shape) >= 2:
        yield G(name, T("float32", shape, layout="transposed", grad=True), *args, **kw)


def sweep(name, shape, *args, **kw):
    """Every dtype, and the special values (NaN, -0.0, the extremes) of the floats and int64, for the torch.X form
    (a few dtypes for the method form of a name that has both)."""
    if name in _METHOD_TOO:
        for t in every_dtype(shape, ("float32", "float16", "int64", "bool")):
            yield C(name, t, *args, **kw)
        return
    for t in every_dtype(shape):
        yield C(name, t, *args, **kw)
    for t in every_dtype(shape, FLOATS + ("int64",), values="special"):
        yield C(name, t, *args, **kw)


# the names swept in both forms, torch.X and Tensor.X, whose method form gets a thinner sample (_some, sweep, grads)
_METHOD_TOO = {f"Tensor.{n}" for n in (
    "reshape", "flatten", "ravel", "squeeze", "unsqueeze", "transpose", "swapaxes", "moveaxis", "movedim", "t",
    "narrow", "select", "split", "chunk", "unbind", "tile", "repeat_interleave", "flip", "fliplr", "flipud", "roll",
    "diag", "diagonal", "tril", "triu")}


def both(name):
    """torch.X and Tensor.X."""
    assert f"Tensor.{name}" in _METHOD_TOO, name
    return (f"torch.{name}", f"Tensor.{name}")


def _some(fn, seq):
    """All of seq for the torch.X form; every third item for the method form of a name that has both."""
    seq = tuple(seq)
    return seq if fn not in _METHOD_TOO else seq[::3]


# --- reshape, view, view_as, reshape_as, flatten, ravel ------------------------------------------------------------


def reshape_cases():
    x = T("float32", (2, 3, 4))
    good = ((24,), (4, 6), (-1,), (2, -1), (-1, 4), (1, 24, 1), (4, 3, 2), (2, 3, 4), (6, -1, 2), (1, -1))
    bad = ((5, 5), (-1, -1), (-2, 12), (0, -1), (7, -1), (25,), (2, 3, 4, 0))
    for fn in both("reshape"):
        yield from sweep(fn, (2, 3), (3, 2))
        for s in _some(fn, good + bad):
            yield C(fn, x, s)
        for s in _some(fn, ((), (1,), (-1,), (1, 1), (1, -1, 1), (2,))):
            yield C(fn, T("float32", ()), s)
        for s in _some(fn, ((0,), (0, 5), (-1, 3), (3, 0, -1), (0, -1), (6, 0), (1,))):
            yield C(fn, T("float32", (2, 0, 3)), s)
        for s in _some(fn, ((12,), (4, 3), (2, 6), (3, 2, 2), (-1,))):
            for lay in LAYOUTS:
                yield C(fn, T("float32", (3, 4), layout=lay), s)
        yield from grads(fn, (3, 4), (2, 6))
        yield from grads(fn, (3, 4), (-1,))
    yield C("Tensor.reshape", x, 4, 6)
    yield C("Tensor.reshape", x, -1)
    yield C("Tensor.reshape", x, [4, -1])
    yield C("Tensor.reshape", x, Seq((NP("int64", 4), 6), "tuple"))
    yield C("Tensor.reshape", x, 4, 6.0)
    yield C("Tensor.reshape", x, shape=(4, 6))
    yield C("torch.reshape", x, shape=[6, 4])
    yield C("torch.reshape", x, [6, 4])
    yield C("Tensor.reshape", T("float32", ()))
    for s in ((12,), (3, 2, 2)):
        yield from on_layouts("Tensor.reshape", (3, 4), s)
    yield from checks("torch.reshape", T("int64", (2, 3)), (6,))
    yield from checks("Tensor.reshape", T("float32", ()), (1,))


def view_cases():
    x = T("float32", (2, 3, 4))
    yield from sweep("Tensor.view", (2, 3), (3, 2))
    for s in ((24,), (4, 6), (-1,), (2, -1), (1, 24, 1), (6, -1, 2), (5, 5), (-1, -1), (0, -1), (-2, 12)):
        yield C("Tensor.view", x, s)
    yield C("Tensor.view", x, 4, 6)
    yield C("Tensor.view", x, -1)
    yield C("Tensor.view", x, [4, -1])
    yield C("Tensor.view", x, size=(4, 6))
    for s in ((), (1,), (-1,), (1, 1), (2,)):
        yield C("Tensor.view", T("float32", ()), s)
    for s in ((0,), (0, 5), (-1, 3), (0, -1)):
        yield C("Tensor.view", T("float32", (2, 0, 3)), s)
    for s in ((12,), (4, 3), (3, 4), (3, 2, 2), (1, 3, 4), (-1,), (6, 2)):
        for lay in LAYOUTS:
            yield C("Tensor.view", T("float32", (3, 4), layout=lay), s)
    for s in ((12,), (3, 2, 2)):
        yield from on_layouts("Tensor.view", (3, 4), s)
    yield from grads("Tensor.view", (3, 4), (2, 6))
    yield from grads("Tensor.view", (3, 4), (3, 2, 2))
    # view(dtype): the bits reinterpreted; the last dim scales with the element sizes
    for a in DTYPES:
        for b in DTYPES:
            yield C("Tensor.view", T(a, (2, 8)), D(b))
        yield C("Tensor.view", T(a, (2, 8), "special"), D("int8"))
        yield C("Tensor.view", T(a, (2, 8), "special"), D("float32"))
    for b in ("int16", "float64", "float32", "uint8"):
        yield C("Tensor.view", T("float32", ()), D(b))
        yield C("Tensor.view", T("float32", (3, 4), layout="transposed"), D(b))
        yield C("Tensor.view", T("float32", (3, 4), layout="stepped"), D(b))
        yield C("Tensor.view", T("float32", (3, 4), layout="expanded"), D(b))
        yield C("Tensor.view", T("float32", (0, 4)), D(b))
        yield C("Tensor.view", T("float32", (2, 3)), D(b))
        yield C("Tensor.view", T("int8", (2, 3)), D(b))
    yield C("Tensor.view", T("float32", (2, 8)), dtype=D("int16"))
    for b in ("int32", "int16", "float64"):
        yield from checks("Tensor.view", T("float32", (2, 4)), D(b), grad=False)
    yield G("Tensor.view", T("float32", (2, 4), grad=True), D("int32"))
    yield G("Tensor.view", T("float32", (2, 4), grad=True), D("float32"))
    yield Case("Tensor.view", (T("float32", (2, 4), grad=True), D("int32")), program=_leaf_write("Tensor.view"),
               tag="leaf-write")


def as_cases():
    for fn in ("Tensor.view_as", "Tensor.reshape_as"):
        for d in DTYPES:
            yield C(fn, T(d, (2, 3)), T("int64", (3, 2)))
            yield C(fn, T("float32", (2, 3)), T(d, (6,)))
        yield C(fn, T("float32", (2, 3)), T("float32", (4,)))
        yield C(fn, T("float32", ()), T("float32", (1, 1)))
        yield C(fn, T("float32", (1,)), T("float32", ()))
        yield C(fn, T("float32", (2, 0)), T("float32", (0, 5)))
        for lay in LAYOUTS:
            yield C(fn, T("float32", (3, 4), layout=lay), T("float32", (12,)))
            yield C(fn, T("float32", (3, 4)), T("float32", (3, 4), layout=lay))
            yield C(fn, T("float32", (3, 4), layout=lay), T("float32", (3, 2, 2)))
        for lay in ("contiguous",) + LAYOUTS:
            yield from checks(fn, T("float32", (3, 4), layout=lay), T("float32", (12,)))
        yield G(fn, T("float32", (3, 4), grad=True), T("float32", (2, 6), grad=True))
        yield G(fn, T("float64", (3, 4), "special", grad=True), T("float64", (12,)))


def flatten_cases():
    x = T("float32", (2, 3, 4))
    args = ((), (1,), (0, 1), (1, 2), (-2, -1), (0, -1), (1, 1), (-3, 0), (2, 1), (3,), (-4,), (0, 3))
    for fn in both("flatten"):
        yield from sweep(fn, (2, 3, 2))
        for a in _some(fn, args):
            yield C(fn, x, *a)
        yield C(fn, x, start_dim=1)
        yield C(fn, x, end_dim=-2)
        yield C(fn, x, start_dim=-2, end_dim=2)
        for a in _some(fn, ((), (0,), (0, 0), (0, -1), (-1, -1), (1,), (0, 1))):
            yield C(fn, T("float32", ()), *a)
        for a in _some(fn, ((), (1,), (0, 1), (1, 2))):
            yield C(fn, T("float32", (2, 0, 3)), *a)
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay))
            yield C(fn, T("float32", (3, 4), layout=lay), 1)
        yield from grads(fn, (3, 4))
        yield G(fn, T("float32", (2, 3, 4), grad=True), 1)
    for a in ((), (0, 0)):
        yield from on_layouts("Tensor.flatten", (3, 4), *a)
    yield from on_layouts("Tensor.flatten", (2, 3, 4), 1, 2)
    yield from checks("torch.flatten", T("float32", ()))
    yield from checks("torch.flatten", T("int32", (2, 3)))


def ravel_cases():
    for fn in both("ravel"):
        yield from sweep(fn, (2, 3))
        for shape in _some(fn, ((), (0,), (2, 0, 3), (1,), (2, 3, 4))):
            yield C(fn, T("float32", shape))
        yield from grads(fn, (3, 4))
    yield from on_layouts("Tensor.ravel", (3, 4))
    yield from on_layouts("torch.ravel", (2, 3, 4))
    yield from checks("Tensor.ravel", T("float32", ()))


# --- squeeze, unsqueeze --------------------------------------------------------------------------------------------


def squeeze_cases():
    x = T("float32", (1, 3, 1, 2))
    dims = ((), (0,), (-2,), (2,), (1,), (3,), (-1,), (-4,), ((0, 2),), ([0, 2],), ((0, 1),), ((),), ((-1, -4),),
            (4,), (-5,), ((0, 0),), ((0, 4),), ((0, -4),))
    for fn in both("squeeze"):
        yield from sweep(fn, (1, 3, 1))
        for d in _some(fn, DTYPES):
            yield C(fn, T(d, (1, 3, 1)), 0)
        for a in _some(fn, dims):
            yield C(fn, x, *a)
        yield C(fn, x, dim=0)
        yield C(fn, x, dim=(0, 2))
        for a in _some(fn, ((), (0,), (-1,), ((0,),), ((),), (1,), (-2,), ((0, 0),))):
            yield C(fn, T("float32", ()), *a)
        for a in _some(fn, ((), (0,), (1,), (2,), ((0, 2),))):
            yield C(fn, T("float32", (1, 0, 1)), *a)
        yield C(fn, T("float32", (1, 1, 1)))
        yield C(fn, T("float32", (1,)))
        yield C(fn, T("float32", (2, 0, 3)))
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 1), layout=lay))
            yield C(fn, T("float32", (1, 4), layout=lay), 0)
        yield from grads(fn, (1, 3, 1))
        yield G(fn, T("float32", (1, 3, 1), grad=True), (0, 2))
        yield G(fn, T("float64", (1, 3, 1), grad=True), -1)
    for a in ((), ((0, 1),)):
        yield from on_layouts("Tensor.squeeze", (1, 4), *a)
    yield from on_layouts("Tensor.squeeze", (3, 1))
    yield from checks("torch.squeeze", T("float32", (1,)))
    yield from checks("torch.squeeze", T("float32", ()), 0)


def unsqueeze_cases():
    for fn in both("unsqueeze"):
        yield from sweep(fn, (2, 3), 1)
        for dim in _some(fn, (0, 1, 2, -1, -2, -3, 3, -4)):
            yield C(fn, T("float32", (2, 3)), dim)
        for dim in _some(fn, (0, -1, 1, -2)):
            yield C(fn, T("float32", ()), dim)
        for dim in _some(fn, (0, 2, 3)):
            yield C(fn, T("float32", (2, 0, 3)), dim)
        yield C(fn, T("float32", (2, 3)), dim=-1)
        for lay in _some(fn, LAYOUTS):
            for dim in (0, 1, 2):
                yield C(fn, T("float32", (3, 4), layout=lay), dim)
        yield from grads(fn, (3, 4), 1)
        yield G(fn, T("float32", (), grad=True), 0)
    for dim in (0, -1):
        yield from on_layouts("Tensor.unsqueeze", (3, 4), dim)
    yield from checks("torch.unsqueeze", T("float32", ()), 0)


# --- permute, transpose, swapaxes, moveaxis, movedim, t, T, mT -------------------------------------------------------


def permute_cases():
    x = T("float32", (2, 3, 4))
    yield from sweep("torch.permute", (2, 3, 4), (2, 0, 1))
    yield from sweep("Tensor.permute", (2, 3), (1, 0))
    for dims in ((2, 0, 1), (0, 1, 2), (-1, 0, 1), (-1, -2, -3), [1, 2, 0], (0, 1), (0, 0, 1), (0, 1, 3),
                 (0, 1, 2, 3), (0, -4, 1)):
        yield C("torch.permute", x, dims)
        yield C("Tensor.permute", x, dims)
    yield C("Tensor.permute", x, 2, 0, 1)
    yield C("Tensor.permute", x, -1, 0, 1)
    yield C("Tensor.permute", x, dims=(2, 0, 1))
    yield C("torch.permute", x, dims=[2, 0, 1])
    yield C("torch.permute", T("float32", ()), ())
    yield C("Tensor.permute", T("float32", ()))
    yield C("Tensor.permute", T("float32", ()), 0)
    yield C("torch.permute", T("float32", (2, 0, 3)), (2, 0, 1))
    for lay in LAYOUTS:
        yield C("torch.permute", T("float32", (3, 4), layout=lay), (1, 0))
    for dims in ((1, 0),):
        yield from on_layouts("Tensor.permute", (3, 4), dims)
    yield from checks("torch.permute", T("float32", (2, 3, 4)), (2, 0, 1))
    yield from grads("torch.permute", (3, 4), (1, 0))
    yield G("Tensor.permute", T("float32", (2, 3, 4), grad=True), 2, 0, 1)
    yield G("Tensor.permute", T("float64", (2, 3, 4), "special", grad=True), 1, 2, 0)


def transpose_cases():
    x = T("float32", (2, 3, 4))
    for name in ("transpose", "swapaxes"):
        for fn in both(name):
            if fn == "Tensor.swapaxes":
                for a, b in ((0, 1), (-1, 0), (0, 3)):
                    yield C(fn, x, a, b)
                yield C(fn, T("int8", (2, 3)), 1, 0)
                yield G(fn, T("float32", (3, 4), grad=True), 0, 1)
                continue
            yield from sweep(fn, (2, 3), 0, 1)
            for a, b in _some(fn, ((0, 1), (0, 2), (-1, 0), (1, 1), (-1, -3), (0, 3), (-4, 0), (2, -2))):
                yield C(fn, x, a, b)
            for a, b in _some(fn, ((0, 0), (0, -1), (-1, -1), (0, 1), (1, 0))):
                yield C(fn, T("float32", ()), a, b)
            yield C(fn, T("float32", (3,)), 0, 0)
            yield C(fn, T("float32", (3,)), 0, -1)
            yield C(fn, T("float32", (2, 0, 3)), 0, 2)
            for lay in _some(fn, LAYOUTS):
                yield C(fn, T("float32", (3, 4), layout=lay), 0, 1)
            yield from grads(fn, (3, 4), 0, 1)
            yield G(fn, T("float32", (2, 3, 4), grad=True), 0, -1)
    yield C("torch.transpose", x, dim0=0, dim1=2)
    yield C("Tensor.transpose", x, dim0=-1, dim1=0)
    yield C("torch.swapaxes", x, axis0=0, axis1=2)
    yield C("Tensor.swapaxes", x, axis0=-1, axis1=0)
    yield from on_layouts("Tensor.transpose", (3, 4), 0, 1)
    yield from on_layouts("torch.swapaxes", (2, 3, 4), 0, 2)
    yield from checks("Tensor.transpose", T("float32", ()), 0, -1)


def movedim_cases():
    x = T("float32", (2, 3, 4))
    args = ((0, 2), (-1, 0), (1, 1), ((0, 1), (2, 0)), ([0, 1], [1, 2]), ((0, 1, 2), (2, 1, 0)), ((), ()),
            ((0, 1), (1, 1)), ((0, 0), (1, 2)), ((0,), (1, 2)), (3, 0), (0, -4), ((-1, -2), (0, 1)))
    for name in ("moveaxis", "movedim"):
        for fn in both(name):
            if fn == "Tensor.moveaxis":
                for a in args[:5] + ((3, 0),):
                    yield C(fn, x, *a)
                yield C(fn, T("bool", (2, 3)), 1, 0)
                yield G(fn, T("float32", (3, 4), grad=True), 0, 1)
                continue
            yield from sweep(fn, (2, 3), 0, 1)
            for a in _some(fn, args):
                yield C(fn, x, *a)
            yield C(fn, T("float32", ()), 0, 0)
            yield C(fn, T("float32", ()), -1, 0)
            yield C(fn, T("float32", ()), 0, 1)
            yield C(fn, T("float32", (2, 0, 3)), 1, -1)
            for lay in _some(fn, LAYOUTS):
                yield C(fn, T("float32", (3, 4), layout=lay), 0, 1)
            yield from grads(fn, (3, 4), 1, 0)
            yield G(fn, T("float32", (2, 3, 4), grad=True), (0, 1), (2, 0))
    yield C("torch.movedim", x, source=0, destination=2)
    yield C("Tensor.movedim", x, source=(0, 1), destination=(-1, 0))
    yield C("torch.moveaxis", x, source=0, destination=2)
    yield C("Tensor.moveaxis", x, 0, destination=-1)
    yield from on_layouts("torch.movedim", (2, 3, 4), 0, 2)
    yield from on_layouts("torch.moveaxis", (3, 4), 1, 0)


def t_cases():
    for fn in both("t"):
        yield from sweep(fn, (2, 3))
        for shape in _some(fn, ((), (3,), (0,), (2, 0), (1, 3), (2, 3, 4))):
            yield C(fn, T("float32", shape))
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay))
        yield from grads(fn, (3, 4))
        yield G(fn, T("float32", (3,), grad=True))
    yield from on_layouts("Tensor.t", (3, 4))
    yield from checks("torch.t", T("float32", (3,)))
    yield from checks("Tensor.t", T("float32", ()))
    for attr in ("Tensor.T", "Tensor.mT"):
        for t in every_dtype((2, 3)) + every_dtype((2, 3, 2), values="special"):
            yield Case(attr, (t,), attr=True, exact=True)
        for shape in ((), (3,), (0,), (2, 0), (1, 3), (2, 3, 4), (2, 0, 3), (1, 2, 3, 4)):
            yield Case(attr, (T("float32", shape),), attr=True, exact=True)
        for lay in LAYOUTS:
            yield Case(attr, (T("float32", (3, 4), layout=lay),), attr=True, exact=True)
            yield Case(attr, (T("float32", (2, 3, 4), layout=lay),), attr=True, exact=True)
        for shape in ((3, 4), (2, 3, 4)):
            for lay in ("contiguous",) + LAYOUTS if (attr == "Tensor.T") == (len(shape) == 2) else ("contiguous",):
                yield from checks(attr, T("float32", shape, layout=lay))
            yield Case(attr, (T("float32", shape, grad=True),), attr=True, grad=True)
            yield Case(attr, (T("float64", shape, "special", grad=True),), attr=True, grad=True)
            yield Case(attr, (T("float32", shape, layout="transposed", grad=True),), attr=True, grad=True)


# --- expand, expand_as -----------------------------------------------------------------------------------------------


def expand_cases():
    yield from sweep("Tensor.expand", (1, 3), 2, 3)
    cases = (((1, 3), (2, 3)), ((3, 1), (3, 4)), ((3,), (2, 3)), ((1, 3), (-1, 3)), ((1, 3), (2, -1)),
             ((1, 3), (2, 2, 3)), ((1, 3), (0, 3)), ((1, 3), (2, 4)), ((1, 3), (-1, 2, 3)), ((2, 3), (2, 3)),
             ((2, 3), (3,)), ((1, 3), (1, 3, 1)), ((2, 1, 3), (2, 4, 3)), ((1, 1), (3, 0)), ((0,), (2, 0)),
             ((0,), (2, 1)), ((1, 3), (-2, 3)), ((1,), (1, 1, 1, 5)))
    for shape, size in cases:
        yield C("Tensor.expand", T("float32", shape), *size)
    for size in ((3,), (2, 2), (), (1,), (0,), (-1,)):
        yield C("Tensor.expand", T("float32", ()), *size)
    yield C("Tensor.expand", T("float32", (1, 3)), (2, 3))
    yield C("Tensor.expand", T("float32", (1, 3)), [2, 3])
    yield C("Tensor.expand", T("float32", (1, 3)), size=(2, 3))
    yield C("Tensor.expand", T("float32", (1, 3)), 2, 3, implicit=True)
    for lay in LAYOUTS:
        yield C("Tensor.expand", T("float32", (3, 1), layout=lay), 3, 4)
        yield C("Tensor.expand", T("float32", (3, 4), layout=lay), 2, 3, 4)
        yield from checks("Tensor.expand", T("float32", (3, 1), layout=lay), 3, 4)
    yield from checks("Tensor.expand", T("float32", (1, 3)), 2, 3)
    yield from checks("Tensor.expand", T("float32", (2, 3)), 2, 3)
    yield from checks("Tensor.expand", T("float32", ()), 3)
    yield from grads("Tensor.expand", (1, 3), 4, 3)
    yield from grads("Tensor.expand", (3, 1), 2, 3, 4)
    yield G("Tensor.expand", T("float32", (), grad=True), 2, 3)
    for d in DTYPES:
        yield C("Tensor.expand_as", T(d, (1, 3)), T("int64", (2, 3)))
    yield C("Tensor.expand_as", T("float32", (3,)), T("bool", (2, 2, 3)))
    yield C("Tensor.expand_as", T("float32", ()), T("float32", (2, 0)))
    yield C("Tensor.expand_as", T("float32", (2, 3)), T("float32", (3,)))
    yield C("Tensor.expand_as", T("float32", (2, 3)), T("float32", (2, 4)))
    for lay in LAYOUTS:
        yield C("Tensor.expand_as", T("float32", (3, 1), layout=lay), T("float32", (3, 4)))
        yield C("Tensor.expand_as", T("float32", (1, 4)), T("float32", (3, 4), layout=lay))
    yield from checks("Tensor.expand_as", T("float32", (1, 3)), T("float32", (2, 3)))
    yield G("Tensor.expand_as", T("float32", (1, 3), grad=True), T("float32", (4, 3), grad=True))
    yield G("Tensor.expand_as", T("float64", (3, 1), "special", grad=True), T("float64", (2, 3, 4)))


# --- narrow, select, split, chunk, unbind --------------------------------------------------------------------------


def narrow_cases():
    x = T("float32", (3, 4))
    args = ((0, 1, 2), (1, 0, 4), (1, 3, 0), (-1, 1, 2), (0, -2, 2), (0, -3, 3), (1, 4, 0), (0, 2, 2),
            (1, 5, 0), (2, 0, 1), (-3, 0, 1), (0, 0, -1), (0, -4, 1), (1, 1, 3))
    for fn in both("narrow"):
        yield from sweep(fn, (3, 4), 1, 1, 2)
        for a in _some(fn, args):
            yield C(fn, x, *a)
        yield C(fn, x, 1, T("int64", (), (1,)), 2)
        yield C(fn, x, 1, T("int64", (), (-3,)), 2)
        yield C(fn, x, 1, T("int64", (1,), (1,)), 2)
        yield C(fn, x, 1, T("float32", (), (1.0,)), 2)
        yield C(fn, x, dim=1, start=1, length=2)
        yield C(fn, T("float32", ()), 0, 0, 1)
        yield C(fn, T("float32", (2, 0, 3)), 2, 1, 2)
        yield C(fn, T("float32", (2, 0, 3)), 1, 0, 0)
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), 1, 1, 2)
            yield C(fn, T("float32", (3, 4), layout=lay), 0, 1, 2)
        yield from grads(fn, (3, 4), 1, 1, 2)
        yield G(fn, T("float32", (3, 4), grad=True), 0, -2, 2)
    for a in ((1, 1, 2), (0, 3, 0)):
        yield from on_layouts("Tensor.narrow", (3, 4), *a)
    yield from checks("torch.narrow", T("int8", (3, 4)), 1, 1, 2)


def select_cases():
    x = T("float32", (3, 4))
    for fn in both("select"):
        yield from sweep(fn, (3, 4), 1, 2)
        for a in _some(fn, ((0, 1), (1, -1), (-1, 0), (-2, 2), (0, 3), (0, -4), (0, -3), (2, 0), (-3, 0), (1, 4))):
            yield C(fn, x, *a)
        yield C(fn, x, dim=1, index=2)
        yield C(fn, x, 1, NP("int64", 2))
        yield C(fn, T("float32", ()), 0, 0)
        yield C(fn, T("float32", (2, 0, 3)), 0, 1)
        yield C(fn, T("float32", (2, 0, 3)), 1, 0)
        yield C(fn, T("float32", (3,)), 0, 1)
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), 1, 2)
            yield C(fn, T("float32", (3, 4), layout=lay), 0, 2)
        yield from grads(fn, (3, 4), 1, 2)
        yield G(fn, T("float32", (3,), grad=True), 0, -1)
    for a in ((0, 1), (1, 2)):
        yield from on_layouts("Tensor.select", (3, 4), *a)
    yield from checks("torch.select", T("float32", (3,)), 0, 1)
    yield from checks("torch.select", T("bool", (3, 4)), 1, 0)


def split_cases():
    x = T("float32", (5, 4))
    args = ((2,), (5,), (6,), (1,), ([2, 3],), ((2, 3),), ([5],), ([1, 0, 4],), ([2, 2],), ([2, 4],), (0,),
            (-1,), ([3, -1, 3],), (2, 1), (3, -1), ([1, 3], 1), ([1, 3], -1), (2, 2), (2, -3), ([],))
    for fn in both("split"):
        yield from sweep(fn, (5, 4), 2)
        for a in _some(fn, args):
            yield C(fn, x, *a)
        yield C(fn, x, 2, dim=1)
        yield C(fn, T("float32", (0, 4)), 2)
        yield C(fn, T("float32", (0, 4)), 0)
        yield C(fn, T("float32", (0, 4)), [0])
        yield C(fn, T("float32", (0, 4)), [0, 0])
        yield C(fn, T("float32", (2, 0)), 1)
        yield C(fn, T("float32", ()), 1)
        yield C(fn, T("float32", (5,)), NP("int64", 2))
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), 2, 1)
            yield C(fn, T("float32", (3, 4), layout=lay), [1, 2])
        yield from grads(fn, (5, 4), 2)
        yield G(fn, T("float32", (5, 4), grad=True), [1, 3], 1)
    yield C("torch.split", x, split_size_or_sections=2, dim=1)
    yield C("Tensor.split", x, split_size=2, dim=1)
    for a in ((2,), ([1, 3], 1)):
        yield from on_layouts("Tensor.split", (3, 4), *a)
    yield from checks("torch.split", T("float32", (5, 4)), [3, 2])
    yield from checks("torch.split", T("float32", (5, 4)), 5)


def chunk_cases():
    x = T("float32", (5, 4))
    args = ((2,), (3,), (5,), (6,), (1,), (0,), (-1,), (3, 1), (4, 1), (2, -1), (3, -2), (2, 2), (2, -3))
    for fn in both("chunk"):
        yield from sweep(fn, (5, 4), 2)
        for a in _some(fn, args):
            yield C(fn, x, *a)
        yield C(fn, x, chunks=3, dim=1)
        for n in _some(fn, (2, 3, 4, 5, 7)):
            yield C(fn, T("float32", (6,)), n)
        yield C(fn, T("float32", (0, 4)), 2)
        yield C(fn, T("float32", (0, 4)), 2, 1)
        yield C(fn, T("float32", (0, 4)), 1)
        yield C(fn, T("float32", (2, 0)), 3, 1)
        yield C(fn, T("float32", ()), 1)
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), 2, 1)
            yield C(fn, T("float32", (3, 4), layout=lay), 2)
        yield from grads(fn, (5, 4), 3)
        yield G(fn, T("float32", (5, 4), grad=True), 3, 1)
    for a in ((2,), (3, 1)):
        yield from on_layouts("Tensor.chunk", (3, 4), *a)
    yield from checks("torch.chunk", T("float32", (5, 4)), 1)
    yield from checks("torch.chunk", T("float32", (0, 4)), 2)


def unbind_cases():
    x = T("float32", (3, 4))
    for fn in both("unbind"):
        yield from sweep(fn, (3, 4))
        for a in _some(fn, ((), (0,), (1,), (-1,), (-2,), (2,), (-3,))):
            yield C(fn, x, *a)
        yield C(fn, x, dim=1)
        yield C(fn, T("float32", (0, 3)), 0)
        yield C(fn, T("float32", (0, 3)), 1)
        yield C(fn, T("float32", ()))
        yield C(fn, T("float32", (3,)))
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay))
            yield C(fn, T("float32", (3, 4), layout=lay), 1)
        yield from grads(fn, (3, 4))
        yield G(fn, T("float32", (3, 4), grad=True), 1)
    for a in ((), (1,)):
        yield from on_layouts("Tensor.unbind", (3, 4), *a)
    yield from checks("torch.unbind", T("int16", (3, 4)), -1)


# --- cat, concat, concatenate, stack ---------------------------------------------------------------------------------


def cat_cases():
    def L_(*ts, kind="list"):
        return Seq(tuple(ts), kind)
    f = lambda shape, **kw: T("float32", shape, **kw)  # noqa: E731
    for a in DTYPES:
        for b in DTYPES:
            yield C("torch.cat", L_(T(a, (2, 3)), T(b, (1, 3))))
    for fn in ("torch.cat", "torch.concat", "torch.concatenate"):
        if fn != "torch.cat":
            for a, b in (("float32", "int64"), ("int8", "uint8"), ("bool", "int16"), ("float16", "bfloat16"),
                         ("bool", "bool"), ("int32", "float64")):
                yield C(fn, L_(T(a, (2, 3)), T(b, (1, 3))))
        full = fn == "torch.cat"
        for d in DTYPES if full else ("float32", "bool"):
            yield C(fn, L_(T(d, (12,), "special"), T(d, (3,), "special")))
        yield C(fn, L_(f((2, 3)), f((1, 3)), f((3, 3))))
        yield C(fn, L_(f((2, 3)), f((2, 1)), f((2, 4))), 1)
        yield C(fn, L_(f((2, 3)), f((2, 1))), -1)
        yield C(fn, L_(f((2, 3)), f((2, 3))), -2)
        yield C(fn, L_(f((2, 3)), f((2, 3))), 2)
        yield C(fn, L_(f((2, 3)), f((2, 3))), -3)
        yield C(fn, L_(f((2, 3)), f((2, 4))))
        yield C(fn, L_(f((2, 3)), f((3,))))
        yield C(fn, L_(f((2, 3)), f((2, 3, 1))))
        yield C(fn, L_())
        yield C(fn, L_(f(()), f(())))
        yield C(fn, L_(f(()),))
        yield C(fn, L_(f((2, 3)),))
        yield C(fn, L_(f((2, 3)), f((1, 3)), kind="tuple"))
        # legacy empty 1-D tensors are skipped, whatever their shape, but take part in type promotion
        yield C(fn, L_(f((0,)), f((2, 3))))
        yield C(fn, L_(f((2, 3)), f((0,))))
        yield C(fn, L_(f((2, 3)), f((0,)), f((1, 3))))
        yield C(fn, L_(f((2, 3)), f((0,))), 1)
        yield C(fn, L_(f((0,)), f((0,))))
        yield C(fn, L_(f((0,)), f((3,))))
        yield C(fn, L_(T("float64", (0,)), T("int32", (2, 3))))
        yield C(fn, L_(T("int32", (2, 3)), T("bool", (0,))))
        yield C(fn, L_(f((0, 3)), f((2, 3))))
        yield C(fn, L_(f((0, 3)), f((2, 3))), 1)
        yield C(fn, L_(f((2, 0)), f((2, 3))), 1)
        yield C(fn, L_(f((2, 0)), f((2, 3))))
        yield C(fn, L_(f((0, 2)), f((0, 3))), 1)
        for lay in LAYOUTS if full else ():
            yield C(fn, L_(f((3, 4), layout=lay), f((3, 4))))
            yield C(fn, L_(f((3, 4)), f((3, 4), layout=lay)), 1)
        yield C(fn, L_(f((2, 3)), f((1, 3))), dim=0)
        yield C(fn, L_(f((2, 3)), f((2, 1))), axis=1)
        for out in ((3, 3), (0,), (2, 2), (9,)) if full else ((3, 3),):
            yield out_case(fn, (L_(f((2, 3)), f((1, 3))),), f(out))
        for out in ("float32", "float64", "int32", "float16", "bool") if full else ("float32", "int32"):
            yield Case(fn, (L_(f((2, 3)), f((1, 3))),), {"out": T(out, (3, 3))}, mutates=True, exact=True)
        yield Case(fn, (L_(T("int32", (2, 3)), T("int64", (1, 3))),), {"out": T("float32", (3, 3))}, mutates=True,
                   exact=True)
        yield Case(fn, (L_(f((2, 3)), f((1, 3))),), {"out": f((3, 3), layout="transposed")}, mutates=True,
                   exact=True)
        yield G(fn, L_(f((2, 3), grad=True), f((1, 3), grad=True)))
        yield G(fn, L_(T("float64", (2, 3), "special", grad=True), T("float64", (2, 1), grad=True)), 1)
        yield G(fn, L_(f((2, 3), grad=True), T("float64", (1, 3), grad=True)))
        yield G(fn, L_(f((2, 3), grad=True), T("int64", (1, 3))))
        yield G(fn, L_(f((0,), grad=True), f((2, 3), grad=True)))
        yield G(fn, L_(f((3, 4), layout="transposed", grad=True), f((3, 4), layout="expanded", grad=True)), 1)
    # a single input is copied: writing into the result leaves the input alone
    yield Case("torch.cat", (L_(f((2, 3)),),), program=lambda L, device, ts: (_write_distinct(L, L.cat(ts)), ts)[1],
               exact=True, tag="write")


def stack_cases():
    def L_(*ts, kind="list"):
        return Seq(tuple(ts), kind)
    f = lambda shape, **kw: T("float32", shape, **kw)  # noqa: E731
    for d in DTYPES:
        yield C("torch.stack", L_(T(d, (2, 3)), T(d, (2, 3))))
    for a, b in (("float32", "int64"), ("int8", "uint8"), ("bool", "int16"), ("float16", "bfloat16"),
                 ("int32", "float64"), ("bool", "float32"), ("uint8", "bool")):
        yield C("torch.stack", L_(T(a, (2, 3)), T(b, (2, 3))))
    for dim in (0, 1, 2, -1, -2, -3, 3, -4):
        yield C("torch.stack", L_(f((2, 3)), f((2, 3))), dim)
    yield C("torch.stack", L_(f((2, 3)), f((2, 3))), dim=1)
    yield C("torch.stack", L_(f((2, 3)), f((3, 2))))
    yield C("torch.stack", L_(f((2, 3)), f((3,))))
    yield C("torch.stack", L_())
    yield C("torch.stack", L_(f(()), f(()), f(())))
    yield C("torch.stack", L_(f(()), f(())), 1)
    yield C("torch.stack", L_(f(()), f(())), -1)
    yield C("torch.stack", L_(f((2, 3)),))
    yield C("torch.stack", L_(f((0,)), f((0,))))
    yield C("torch.stack", L_(f((0,)), f((3,))))
    yield C("torch.stack", L_(f((2, 0)), f((2, 0))), 1)
    yield C("torch.stack", L_(f((2, 3)), f((2, 3)), kind="tuple"), 1)
    for lay in LAYOUTS:
        yield C("torch.stack", L_(f((3, 4), layout=lay), f((3, 4))))
        yield C("torch.stack", L_(f((3, 4)), f((3, 4), layout=lay)), 2)
    for out in ((2, 2, 3), (0,), (12,)):
        yield out_case("torch.stack", (L_(f((2, 3)), f((2, 3))),), f(out))
    yield Case("torch.stack", (L_(f((2, 3)), f((2, 3))),), {"out": f((2, 2, 3))}, mutates=True, exact=True)
    yield Case("torch.stack", (L_(f((2, 3)), f((2, 3))),), {"out": T("float64", (2, 2, 3))}, mutates=True,
               exact=True)
    yield Case("torch.stack", (L_(f((2, 3)), f((2, 3))),), {"out": T("int32", (2, 2, 3))}, mutates=True, exact=True)
    yield G("torch.stack", L_(f((2, 3), grad=True), f((2, 3), grad=True)))
    yield G("torch.stack", L_(f((2, 3), grad=True), T("float64", (2, 3), grad=True)), 1)
    yield G("torch.stack", L_(T("float64", (2, 3), "special", grad=True), f((2, 3), layout="transposed", grad=True)),
            -1)
    yield G("torch.stack", L_(f((), grad=True), f((), grad=True)))
    yield Case("torch.stack", (L_(f((2, 3)),),),
               program=lambda L, device, ts: (_write_distinct(L, L.stack(ts)), ts)[1], exact=True, tag="write")


# --- tile, repeat, repeat_interleave -------------------------------------------------------------------------------


def tile_cases():
    x = T("float32", (2, 3))
    reps = ((2,), (2, 2), (1, 1), (2, 1, 2), (0,), (1, 0), (), (1,), (3, 1, 1, 1), (-1,), (2, -1))
    for fn in both("tile"):
        yield from sweep(fn, (2, 3), (2, 1))
        for r in _some(fn, reps):
            yield C(fn, x, r)
        yield C(fn, x, [2, 2])
        yield C(fn, x, dims=(2, 1))
        for r in _some(fn, ((3,), (2, 2), (), (0,))):
            yield C(fn, T("float32", ()), r)
        yield C(fn, T("float32", (2, 0)), (2, 2))
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), (2, 1))
            yield C(fn, T("float32", (3, 4), layout=lay), (1, 2, 1))
        yield from grads(fn, (3, 4), (2, 3))
        yield G(fn, T("float32", (3,), grad=True), (2, 2))
    yield C("Tensor.tile", x, 2, 2)
    yield C("Tensor.tile", x, 2)
    for r in ((1, 1), (2, 1)):
        yield from on_layouts("Tensor.tile", (3, 4), r, view=False)
    yield from checks("torch.tile", T("float32", ()), (), view=False)


def repeat_cases():
    x = T("float32", (2, 3))
    fn = "Tensor.repeat"
    yield from sweep(fn, (2, 3), 2, 1)
    for r in ((2, 2), ((2, 2),), ([2, 2],), (1, 1), (2, 1, 1), (0, 2), (2,), (-1, 1), (1, 1, 0), (3, 1, 1, 1),
              ((),)):
        yield C(fn, x, *r)
    yield C(fn, x, repeats=(2, 1))
    for r in ((), (3,), (2, 2), (0,)):
        yield C(fn, T("float32", ()), *r)
    yield C(fn, T("float32", ()), ())
    yield C(fn, T("float32", (2, 0)), 2, 2)
    for lay in LAYOUTS:
        yield C(fn, T("float32", (3, 4), layout=lay), 2, 1)
        yield C(fn, T("float32", (3, 4), layout=lay), 1, 2, 1)
    yield from grads(fn, (3, 4), 2, 3)
    yield G(fn, T("float32", (3,), grad=True), 2, 2)
    yield G(fn, T("float32", (), grad=True), 3)
    for r in ((1, 1),):
        yield from on_layouts(fn, (3, 4), *r, view=False)
    yield from checks(fn, T("float32", ()), view=False)


def repeat_interleave_cases():
    x = T("float32", (2, 3))
    r2 = T("int64", (2,), (1, 2))
    r3 = T("int64", (3,), (0, 2, 1))
    args = ((2,), (2, 0), (2, 1), (2, -1), (r2, 0), (r3, 1), (r3, -1), (0,), (0, 1), (r3, 0), (r2, 1),
            (T("int64", (2,), (1, -1)), 0), (-1,), (T("int64", (), (2,)), 1), (T("int64", (1,), (2,)), 0),
            (T("float32", (2,), (1.0, 2.0)), 0), (T("int32", (3,), (1, 0, 2)), 1),
            (T("int64", (6,), (1, 0, 2, 1, 1, 0)),),
            (2, 2), (2, -3), (True, 0))
    for fn in both("repeat_interleave"):
        yield from sweep(fn, (2, 3), 2, 1)
        for d in _some(fn, DTYPES):
            yield C(fn, T(d, (2, 3)), r3, 1)
        for a in _some(fn, args):
            yield C(fn, x, *a)
        yield C(fn, x, 2, dim=1)
        yield C(fn, x, r3, dim=1, output_size=3)
        yield C(fn, x, r3, dim=1, output_size=4)
        yield C(fn, x, 2, dim=0, output_size=4)
        yield C(fn, x, repeats=2)
        yield C(fn, T("float32", ()), 3)
        yield C(fn, T("float32", ()), 3, 0)
        yield C(fn, T("float32", (2, 0)), 2, 0)
        yield C(fn, T("float32", (0, 3)), T("int64", (0,)), 0)
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), 2, 1)
            yield C(fn, T("float32", (3, 4), layout=lay), T("int64", (3,), (2, 0, 1)), 0)
        yield C(fn, T("float32", (3, 4)), T("int64", (4,), (1, 2, 0, 1), layout="stepped"), 1)
        yield from grads(fn, (3, 4), 2, 1)
        yield G(fn, T("float32", (3, 4), grad=True), T("int64", (3,), (2, 0, 1)), 0)
        yield G(fn, T("float64", (3, 4), "special", grad=True), 3)
    # the one-argument form: repeats of arange(len(repeats))
    for d in ("int64", "int32", "int16", "uint8", "float32", "bool"):
        yield C("torch.repeat_interleave", T(d, (4,), (1, 0, 3, 2)))
    yield C("torch.repeat_interleave", T("int64", (2, 2), (1, 0, 3, 2)))
    yield C("torch.repeat_interleave", T("int64", (0,)))
    yield C("torch.repeat_interleave", T("int64", (3,), (1, -1, 2)))
    yield C("torch.repeat_interleave", T("int64", (3,), (1, 0, 2)), output_size=3)
    yield C("torch.repeat_interleave", T("int64", (3,), (1, 0, 2)), output_size=4)
    yield from checks("Tensor.repeat_interleave", T("float32", (2, 3)), 1, 0, view=False)


# --- flip, fliplr, flipud, roll --------------------------------------------------------------------------------------


def flip_cases():
    x = T("float32", (2, 3, 4))
    dims = ((0,), (0, 2), (-1,), (), (0, 1, 2), (-1, -3), (0, 0), (0, -3), (3,), (-4,), [1, 2])
    for fn in both("flip"):
        yield from sweep(fn, (2, 3), (0, 1))
        yield from sweep(fn, (6,), (0,))
        for dd in _some(fn, dims):
            yield C(fn, x, dd)
        yield C(fn, x, dims=(0, 2))
        yield C(fn, T("float32", ()), ())
        yield C(fn, T("float32", ()), (0,))
        yield C(fn, T("float32", ()), (-1,))
        yield C(fn, T("float32", (2, 0, 3)), (0, 2))
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), (0,))
            yield C(fn, T("float32", (3, 4), layout=lay), (1,))
            yield C(fn, T("float32", (3, 4), layout=lay), (0, 1))
        yield from grads(fn, (3, 4), (0, 1))
        yield G(fn, T("float32", (2, 3, 4), grad=True), (1,))
    yield C("Tensor.flip", x, 0, 2)
    yield C("Tensor.flip", x, 0)
    yield C("Tensor.flip", x)
    for dd in ((0,), ()):
        yield from on_layouts("Tensor.flip", (3, 4), dd, view=False)
    for name in ("fliplr", "flipud"):
        for fn in both(name):
            yield from sweep(fn, (2, 3))
            for shape in _some(fn, ((), (3,), (2, 3, 4), (2, 0), (0,), (1, 1))):
                yield C(fn, T("float32", shape))
            for lay in _some(fn, LAYOUTS):
                yield C(fn, T("float32", (3, 4), layout=lay))
            yield from grads(fn, (3, 4))
        yield from on_layouts(f"torch.{name}", (3, 4), view=False)


def roll_cases():
    x = T("float32", (3, 4))
    args = ((1,), (-1,), (5,), (13,), (-13,), (0,), (1, 0), (1, -1), (3, 0), (-5, 1), ((1, 2), (0, 1)),
            ((1,), (0, 1)), ((1, 2),), ((1, 2), (0,)), (1, 2), (1, -3), ((1, 1), (0, 0)), ((), ()), ([2, -1], [1, 0]))
    for fn in both("roll"):
        yield from sweep(fn, (3, 4), 1, 1)
        yield from sweep(fn, (12,), 5)
        for a in _some(fn, args):
            yield C(fn, x, *a)
        yield C(fn, x, shifts=1, dims=1)
        yield C(fn, x, shifts=(1, 2), dims=(1, 0))
        yield C(fn, x, 1, dims=0)
        yield C(fn, T("float32", ()), 1)
        yield C(fn, T("float32", ()), 1, 0)
        yield C(fn, T("float32", (0, 4)), 1, 0)
        yield C(fn, T("float32", (0, 4)), 1, 1)
        yield C(fn, T("float32", (0, 4)), 1)
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay), 1)
            yield C(fn, T("float32", (3, 4), layout=lay), 1, 1)
            yield C(fn, T("float32", (3, 4), layout=lay), (2, -1), (0, 1))
        yield from grads(fn, (3, 4), 1, 1)
        yield G(fn, T("float32", (3, 4), grad=True), 5)
        yield G(fn, T("float64", (3, 4), grad=True), (1, 2), (0, 1))
    for a in ((0,),):
        yield from on_layouts("Tensor.roll", (3, 4), *a, view=False)


# --- diag, diagonal, tril, triu ---------------------------------------------------------------------------------------


def diag_cases():
    for fn in both("diag"):
        yield from sweep(fn, (3,))
        yield from sweep(fn, (3, 4))
        for k in _some(fn, (0, 1, -1, 2, -3, 5)):
            yield C(fn, T("float32", (3,)), k)
        for k in _some(fn, (1, -1, 3, 4, -2, -3, -4, 10)):
            yield C(fn, T("float32", (3, 4)), k)
        yield C(fn, T("float32", (3, 4)), diagonal=1)
        yield C(fn, T("float32", (2, 3, 4)))
        yield C(fn, T("float32", ()))
        yield C(fn, T("float32", (0,)))
        yield C(fn, T("float32", (0,)), 2)
        yield C(fn, T("float32", (0, 3)))
        yield C(fn, T("float32", (1,)))
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay))
            yield C(fn, T("float32", (3, 4), layout=lay), 1)
        yield from grads(fn, (3, 4), 1)
        yield G(fn, T("float32", (3,), grad=True), -1)
        yield G(fn, T("float64", (12,), "special", grad=True))
    yield C("Tensor.diag", T("float32", (3,)), 2)
    for out in ((3, 3), (0,), (2,)):
        yield out_case("torch.diag", (T("float32", (3,)),), T("float32", out))
    yield Case("torch.diag", (T("float32", (3,)),), {"out": T("float32", (3, 3))}, mutates=True, exact=True)
    yield Case("torch.diag", (T("float32", (3, 4)),), {"out": T("float32", (3,))}, mutates=True, exact=True)
    yield Case("torch.diag", (T("float32", (3, 4)),), {"out": T("float64", (3,))}, mutates=True, exact=True)
    yield from on_layouts("Tensor.diag", (3, 4), view=False)
    yield from checks("torch.diag", T("float32", (3,)), view=False)


def diagonal_cases():
    x = T("float32", (3, 4))
    x3 = T("float32", (2, 3, 4))
    for fn in both("diagonal"):
        yield from sweep(fn, (3, 4))
        yield from sweep(fn, (2, 3, 4), 1, 0, 2)
        for a in ((), (1,), (-1,), (3,), (4,), (5,), (-3,), (-4,), (0, 1, 0), (0, -1, -2), (1, -1, 0), (0, 0, 0),
                  (0, 0, 2), (0, -3, 0)):
            yield C(fn, x, *a)
        for a in _some(fn, ((), (0, 0, 2), (1, 1, 2), (-1, 2, 0), (0, -1, 0), (0, 0, 0), (0, 0, 3), (2, 1, 2),
                            (0, 2, 1))):
            yield C(fn, x3, *a)
        yield C(fn, x, offset=1)
        yield C(fn, x3, offset=-1, dim1=2, dim2=1)
        yield C(fn, x3, dim1=0, dim2=-1)
        yield C(fn, T("float32", ()))
        yield C(fn, T("float32", (3,)))
        yield C(fn, T("float32", (0, 3)))
        yield C(fn, T("float32", (2, 0, 3)), 0, 0, 2)
        for lay in _some(fn, LAYOUTS):
            yield C(fn, T("float32", (3, 4), layout=lay))
            yield C(fn, T("float32", (3, 4), layout=lay), 1)
            yield C(fn, T("float32", (2, 3, 4), layout=lay), -1, 0, 2)
        yield from grads(fn, (3, 4), 1)
        yield G(fn, T("float32", (2, 3, 4), grad=True), 0, 1, 2)
    for a in ((), (1,)):
        yield from on_layouts("Tensor.diagonal", (3, 4), *a)
    yield from on_layouts("torch.diagonal", (2, 3, 4), 1, 0, 2)


def tril_triu_cases():
    for name in ("tril", "triu"):
        for fn in both(name):
            yield from sweep(fn, (3, 4))
            for k in _some(fn, (1, -1, 2, -2, 5, -5, 0)):
                yield C(fn, T("float32", (3, 4)), k)
            yield C(fn, T("float32", (3, 4)), diagonal=1)
            yield C(fn, T("float32", (2, 3, 4)), 1)
            yield C(fn, T("float32", (2, 2, 3, 4)))
            yield C(fn, T("float32", (12, 1), "special"))
            yield C(fn, T("float32", (3,)))
            yield C(fn, T("float32", ()))
            yield C(fn, T("float32", (0, 3)))
            yield C(fn, T("float32", (2, 0, 3)))
            for lay in _some(fn, LAYOUTS):
                yield C(fn, T("float32", (3, 4), layout=lay))
                yield C(fn, T("float32", (3, 4), layout=lay), -1)
            yield from grads(fn, (3, 4), 1)
            yield from grads(fn, (3, 4), -1)
            yield G(fn, T("float32", (2, 3, 4), grad=True))
        fn = f"Tensor.{name}_"
        for t in every_dtype((3, 4)) + every_dtype((3, 4), FLOATS + ("int8",), values="special"):
            yield Case(fn, (t,), mutates=True, exact=True)
        for k in (1, -1, 5, -5):
            yield Case(fn, (T("float32", (3, 4)), k), mutates=True, exact=True)
        yield Case(fn, (T("float32", (3, 4)),), {"diagonal": 2}, mutates=True, exact=True)
        yield Case(fn, (T("float32", (2, 3, 4)),), mutates=True, exact=True)
        yield Case(fn, (T("float32", (3,)),), mutates=True, exact=True)
        yield Case(fn, (T("float32", (0, 3)),), mutates=True, exact=True)
        for lay in LAYOUTS:
            yield Case(fn, (T("float32", (3, 4), layout=lay),), mutates=True, exact=True)
        yield Case(fn, (T("float32", (3, 4), grad=True),), tag="leaf")
        yield Case(fn, (T("float32", (3, 4), grad=True),), program=_write_grad_inplace(fn[7:]), grad=True)
        yield Case(fn, (T("float64", (3, 4), "special", grad=True), 1), program=_write_grad_inplace(fn[7:]),
                   grad=True)
        for out in ("float32", "float64", "int32"):
            yield Case(f"torch.{name}", (T("float32", (3, 4)),), {"out": T(out, (3, 4))}, mutates=True, exact=True)
        yield out_case(f"torch.{name}", (T("float32", (3, 4)),), T("float32", (2,)))
        yield from on_layouts(f"Tensor.{name}", (3, 4), view=False)


def _write_grad_inplace(method):
    """An in-place method on a non-leaf (x * 1), so autograd records it."""
    return lambda L, device, x, *a, **kw: getattr(x * 1, method)(*a, **kw)


# --- unfold ----------------------------------------------------------------------------------------------------------


def unfold_cases():
    x = T("float32", (2, 7))
    fn = "Tensor.unfold"
    yield from sweep(fn, (2, 7), 1, 3, 2)
    for a in ((1, 3, 1), (1, 3, 2), (1, 2, 3), (1, 7, 1), (0, 1, 1), (0, 2, 1), (-1, 3, 3), (-2, 2, 2), (1, 8, 1),
              (1, 3, 0), (1, 3, -1), (1, 0, 1), (2, 1, 1), (-3, 1, 1), (1, 1, 10)):
        yield C(fn, x, *a)
    yield C(fn, x, dimension=1, size=3, step=2)
    yield C(fn, T("float32", ()), 0, 1, 1)
    yield C(fn, T("float32", ()), -1, 1, 2)
    yield C(fn, T("float32", ()), 0, 2, 1)
    yield C(fn, T("float32", (0, 3)), 1, 2, 1)
    yield C(fn, T("float32", (0, 3)), 0, 1, 1)
    yield C(fn, T("float32", (2, 3, 5)), 2, 2, 1)
    for lay in LAYOUTS:
        yield C(fn, T("float32", (3, 4), layout=lay), 1, 2, 1)
        yield C(fn, T("float32", (3, 4), layout=lay), 0, 2, 1)
    for a in ((1, 2, 2), (0, 2, 1)):
        yield from on_layouts(fn, (3, 4), *a)
    yield from grads(fn, (3, 4), 1, 2, 1)
    yield from grads(fn, (3, 4), 0, 2, 2)
    yield G(fn, T("float32", (7,), grad=True), 0, 3, 2)


# --- contiguous, clone -----------------------------------------------------------------------------------------------


def contiguous_clone_cases():
    for fn in ("Tensor.contiguous", "Tensor.clone", "torch.clone"):
        yield from sweep(fn, (2, 3))
        for shape in ((), (0,), (2, 0, 3), (1, 1)):
            yield C(fn, T("float32", shape))
        for lay in LAYOUTS:
            yield C(fn, T("float32", (3, 4), layout=lay))
            yield C(fn, T("int64", (2, 3, 4), layout=lay))
        yield from on_layouts(fn, (3, 4), view=False)
        if fn == "Tensor.clone":
            yield from on_layouts(fn, (2, 3, 4), view=False)
        for lay in ("contiguous", "transposed"):
            yield from checks(fn, T("float32", (4, 1), layout=lay), view=False)
        yield from checks(fn, T("float32", ()), view=False)
        yield from grads(fn, (3, 4))
    yield from checks("Tensor.contiguous", T("float32", (3, 4)))  # contiguous() of a contiguous tensor is itself
    yield Case("Tensor.contiguous", (T("float32", (3, 4), grad=True),), grad=True,
               program=lambda L, device, x: (x.contiguous() is x, x.t().contiguous() is x), tag="identity")
    yield Case("Tensor.clone", (T("float32", (3, 4), grad=True),),
               program=lambda L, device, x: (x.clone().requires_grad, x.clone().is_leaf, x.detach().clone().is_leaf),
               tag="leaf")


# --- meshgrid ---------------------------------------------------------------------------------------------------------


def meshgrid_cases():
    a, b, c = T("float32", (2,)), T("float32", (3,)), T("float32", (4,))
    for ix in ("ij", "xy"):
        for d in DTYPES:
            yield C("torch.meshgrid", T(d, (2,)), T(d, (3,)), indexing=ix)
        yield C("torch.meshgrid", a, b, c, indexing=ix)
        yield C("torch.meshgrid", Seq((a, b)), indexing=ix)
        yield C("torch.meshgrid", Seq((a, b), "tuple"), indexing=ix)
        yield C("torch.meshgrid", a, indexing=ix)
        yield C("torch.meshgrid", T("float32", ()), b, indexing=ix)
        yield C("torch.meshgrid", T("float32", ()), T("float32", ()), indexing=ix)
        yield C("torch.meshgrid", T("float32", (0,)), b, indexing=ix)
        yield C("torch.meshgrid", a, T("float64", (3,)), indexing=ix)
        yield C("torch.meshgrid", a, T("int64", (3,)), indexing=ix)
        yield C("torch.meshgrid", T("float32", (2, 2)), b, indexing=ix)
        yield C("torch.meshgrid", T("float32", (4,), layout="stepped"), b, indexing=ix)
        yield G("torch.meshgrid", T("float32", (2,), grad=True), T("float32", (3,), grad=True), indexing=ix)
        yield G("torch.meshgrid", T("float64", (2,), grad=True), T("float64", (3,), "special", grad=True),
                T("float64", (2,), grad=True), indexing=ix)
        yield Case("torch.meshgrid", (a, b), {"indexing": ix}, exact=True, tag="layout",
                   program=lambda L, device, *ts, **kw: [(o.stride(), o.is_contiguous())
                                                          for o in L.meshgrid(*ts, **kw)])
        yield Case("torch.meshgrid", (a, b), {"indexing": ix}, exact=True, tag="write",
                   program=lambda L, device, *ts, **kw: (_write_distinct(L, L.meshgrid(*ts, **kw)[1]), ts)[1])
    yield C("torch.meshgrid", a, b)
    yield C("torch.meshgrid", a, b, indexing="xyz")
    yield C("torch.meshgrid")
    yield C("torch.meshgrid", Seq(()), indexing="ij")


# --- shape queries ---------------------------------------------------------------------------------------------------

QUERY_INPUTS = (T("float32", ()), T("float32", (2, 3)), T("float32", (2, 0, 3)), T("int64", (1,)),
                T("float32", (3, 4), layout="transposed"), T("float32", (3, 4), layout="stepped"),
                T("float32", (3, 4), layout="expanded"), T("float32", (4, 1), layout="transposed"),
                T("float32", (3, 1), layout="stepped"), T("float32", (3, 1), layout="expanded"),
                T("float32", (1, 1), layout="transposed"), T("float32", (2, 3, 4), layout="transposed"))


def query_cases():
    for i, x in enumerate(QUERY_INPUTS):
        empty = 0 in x.shape  # its strides come from NumPy: see the "zeros" cases below
        for m in ("size", "dim", "numel", "nelement", "stride", "storage_offset", "is_contiguous", "element_size"):
            if not (empty and m == "stride"):
                yield C(f"Tensor.{m}", x)
        for attr in ("shape", "ndim", "itemsize", "nbytes"):
            yield Case(f"Tensor.{attr}", (x,), attr=True)
        yield C("torch.numel", x)
        yield C("torch.is_tensor", x)
        for d in (0, 1, -1, -2, 2, -3, 3) if i < 3 else (0, -1, 2):
            yield C("Tensor.size", x, d)
            if not empty:
                yield C("Tensor.stride", x, d)
    # the strides of a 0-size tensor made by torch.zeros (the engine's come from NumPy, whose empty arrays have
    # all-zero strides that torch.from_numpy keeps)
    for a in ((), (0,), (1,), (-1,), (3,)):
        yield Case("Tensor.stride", (2, 0, 3) + a, program=_zeros_stride, tag="zeros")
    for d in DTYPES:
        x = T(d, (2, 3))
        yield C("Tensor.element_size", x)
        for attr in ("itemsize", "nbytes"):
            yield Case(f"Tensor.{attr}", (x,), attr=True)
        yield Case("Tensor.nbytes", (T(d, (3, 4), layout="expanded"),), attr=True)
        yield C("torch.is_tensor", x)
    x = T("float32", (2, 3, 4))
    yield C("Tensor.size", x, dim=1)
    yield C("Tensor.stride", x, dim=-1)
    yield C("Tensor.size", x, NP("int64", 1))
    yield C("Tensor.size", x, 1.0)
    yield C("Tensor.size", x, None)
    yield C("Tensor.stride", x, None)
    for v in (3, 2.5, True, None, [1, 2], "x", NP("float32", 1.0), Seq((T("float32", (2,)),))):
        yield C("torch.is_tensor", v)
    yield C("torch.numel", 3)
    yield C("torch.numel", [1, 2])
    # the layout of views, through the queries (offsets from narrow/select/diagonal/split and friends)
    views = {"narrow": lambda x: x.narrow(1, 1, 2), "select": lambda x: x.select(1, 2),
             "diagonal": lambda x: x.diagonal(1), "split": lambda x: x.split(2, 1)[1],
             "chunk": lambda x: x.chunk(3, 0)[2], "unbind": lambda x: x.unbind(0)[1],
             "unfold": lambda x: x.unfold(1, 2, 1)[1:], "t-narrow": lambda x: x.t().narrow(0, 2, 2),
             "expand-select": lambda x: x[:1].expand(3, 4).select(1, 3), "view-dtype": lambda x: x.view(x.dtype)[1:]}
    for key, f in views.items():
        for m in ("storage_offset", "stride", "is_contiguous", "size", "numel"):
            yield Case(f"Tensor.{m}", (T("float32", (3, 4)),), program=_query(f, m), tag=key)
        yield Case("Tensor.nbytes", (T("float32", (3, 4)),), program=lambda L, device, x, f=f: f(x).nbytes, tag=key)


def _zeros_stride(L, device, *args):
    x = L.zeros(args[:3], device=device)
    return x.stride(*args[3:])


def _query(view, method):
    return lambda L, device, x: getattr(view(x), method)()



def _families():
    yield from reshape_cases()
    yield from view_cases()
    yield from as_cases()
    yield from flatten_cases()
    yield from ravel_cases()
    yield from squeeze_cases()
    yield from unsqueeze_cases()
    yield from permute_cases()
    yield from transpose_cases()
    yield from movedim_cases()
    yield from t_cases()
    yield from expand_cases()
    yield from narrow_cases()
    yield from select_cases()
    yield from split_cases()
    yield from chunk_cases()
    yield from unbind_cases()
    yield from cat_cases()
    yield from stack_cases()
    yield from tile_cases()
    yield from repeat_cases()
    yield from repeat_interleave_cases()
    yield from flip_cases()
    yield from roll_cases()
    yield from diag_cases()
    yield from diagonal_cases()
    yield from tril_triu_cases()
    yield from unfold_cases()
    yield from contiguous_clone_cases()
    yield from meshgrid_cases()
    yield from query_cases()


def cases():
    """Every case once (the dtype sweeps repeat some of the hand-picked calls)."""
    seen = set()
    for c in _families():
        if c.id not in seen:
            seen.add(c.id)
            yield c
