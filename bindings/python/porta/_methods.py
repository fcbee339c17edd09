"""The one table of Tensor methods defined outside _tensor.py (METHODS) and of porta's free functions
(FUNCTIONS), grouped by concept, and install(), which attaches the methods (porta/__init__.py calls it
once and exports the functions).

_tensor.py holds the class core (handle, metadata, transfers, grad state) and depends only on leaf
modules; the op modules depend on _tensor and never the reverse, so none of them changes the class
when it is imported, and the order they are imported in does not matter. A group is either listed
here name by name or is a module's METHODS dict, where the module makes its methods from the op
table (one per op of a kind) or builds them from each other. tests/python/test_method_table.py checks
that the class's attributes are exactly the core's plus this table's.
"""
from . import (_advanced_indexing, _autograd_engine, _convert, _dlpack, _factories, _format, _index_ops, _indexing,
               _math_ops, _matrix_ops, _order_scan_ops, _rearrange_ops, _reduction_ops, _sorting_ops, _views)
from ._tensor import CORE_NAMES as CORE, Tensor

METHODS = {
    # elementwise math, comparisons, Python's operators, the op table's reductions and scans: _math_ops.py
    "math": _math_ops.METHODS,
    # views and reshapes: _views.py
    "views": _views.METHODS,
    # statistics, logical reductions, norms, medians, histograms: _reduction_ops.py
    "reductions and statistics": _reduction_ops.METHODS,
    # products of matrices and vectors: _matrix_ops.py
    "matrix products": _matrix_ops.METHODS,
    # moving dims, diagonals, flips and rolls, repeats, triangles: _rearrange_ops.py
    "rearranging": _rearrange_ops.METHODS,
    "sorting": _sorting_ops.METHODS,
    "order scans": _order_scan_ops.METHODS,
    # gather / scatter / index_* / masked_* / split: _index_ops.py
    "gather and scatter": _index_ops.METHODS,
    "indexing": {
        "__getitem__": _indexing.index,
        "__setitem__": _indexing.assign,
        "index_put_": _advanced_indexing.index_put_,
        "index_put": _advanced_indexing.index_put,
    },
    "creation": {
        "__new__": staticmethod(_factories._new),
        "pin_memory": _factories._pin_memory,
        "copy_": _factories._copy_,
        "fill_": _factories._fill_,
        "__reduce__": _factories._reduce,
    },
    "random": {
        "uniform_": _factories._uniform_,
        "normal_": _factories._normal_,
        "bernoulli_": _factories._bernoulli_,
        "bernoulli": _factories._bernoulli,
        "multinomial": _factories._multinomial,
    },
    "autograd": {
        "backward": _autograd_engine.tensor_backward,
        "retain_grad": _autograd_engine.retain_grad,
        "retains_grad": property(_autograd_engine.retains_grad),
        "register_hook": _autograd_engine.register_hook,
        "_version": property(_autograd_engine.version),
    },
    "conversion to Python and NumPy": {
        "tolist": _convert._tolist,
        "item": _convert._item,
        "numpy": _convert._numpy,
        "__array__": _convert._array,
        "__len__": _convert._len,
        "__iter__": _convert._iter,
        "__bool__": _convert._bool,
        "__float__": _convert._float,
        "__int__": _convert._int,
        "__index__": _convert._index,
        "__format__": _convert._format,
    },
    "printing": {
        "__repr__": _format._repr,
        "__str__": _format._repr,
    },
    "DLPack": {
        "__dlpack__": _dlpack._dlpack,
        "__dlpack_device__": _dlpack._dlpack_device,
    },
}


# The free functions porta/__init__.py exports (porta.add, porta.reshape, ...), by the module defining them.
FUNCTIONS = {
    "math": _math_ops.FUNCTIONS,
    "gather and scatter": _index_ops.FUNCTIONS,
    "rearranging": _rearrange_ops.FUNCTIONS,
    "views": _views.FUNCTIONS,
    "reductions and statistics": _reduction_ops.FUNCTIONS,
    "matrix products": _matrix_ops.FUNCTIONS,
    "sorting": _sorting_ops.FUNCTIONS,
    "order scans": _order_scan_ops.FUNCTIONS,
}


def functions():
    """{name: function} of every free function of FUNCTIONS (a name in two groups raises)."""
    merged, group_of = {}, {}
    for group, table in FUNCTIONS.items():
        for name, f in table.items():
            if name in merged:
                raise RuntimeError(f"porta.{name} is in two groups of the function table: {group_of[name]!r} and "
                                   f"{group!r}")
            merged[name], group_of[name] = f, group
    return merged


def names():
    """Every method name of the table, each once (a name in two groups raises)."""
    seen = {}
    for group, methods in METHODS.items():
        for name in methods:
            if name in seen:
                raise RuntimeError(f"Tensor.{name} is in two groups of the method table: {seen[name]!r} and "
                                   f"{group!r}")
            if name in CORE:
                raise RuntimeError(f"Tensor.{name} of group {group!r} would replace _tensor.py's own")
            seen[name] = group
    return seen


def install(cls=Tensor):
    """Attaches every method of METHODS to the Tensor class."""
    names()
    for methods in METHODS.values():
        for name, method in methods.items():
            setattr(cls, name, method)
