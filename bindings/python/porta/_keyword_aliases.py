"""PyTorch's other spellings of keyword arguments, on the functions and methods that take them: NumPy's axis=
and keepdims= for dim= and keepdim= (x.sum(axis=1), x.max(axis=0, keepdims=True)), and the keyword names of
the variadic shape arguments (x.reshape(shape=(2, 3)), x.permute(dims=(1, 0)), porta.zeros(size=(2,))). Each
wrapper renames, then calls the one implementation."""
import functools

# where PyTorch takes axis= / keepdims=
NUMPY_NAMES = ("max", "min", "median", "logsumexp", "count_nonzero", "cummax", "cummin", "softmax", "log_softmax",
               "cumsum_", "cumprod_")
# where a variadic shape argument also has a keyword name: {function: keyword}
VARIADIC_KEYWORDS = {"reshape": "shape", "view": "size", "permute": "dims", "expand": "size", "tile": "dims",
                     "flip": "dims"}
FACTORY_SIZES = ("zeros", "ones", "empty")
# plain renames: {function: {PyTorch's keyword: ours}}
RENAMES = {"split": {"split_size": "split_size_or_sections"}}


def numpy_names(f):
    """f(..., dim=, keepdim=) taking axis= and keepdims= as well."""
    if getattr(f, "_numpy_names", False):
        return f

    @functools.wraps(f)
    def g(*args, axis=None, keepdims=None, **kwargs):
        for alias, name, value in (("axis", "dim", axis), ("keepdims", "keepdim", keepdims)):
            if value is not None:
                if name in kwargs:
                    raise TypeError(f"{f.__name__}() got both {name} and {alias} (they are the same argument)")
                kwargs[name] = value
        return f(*args, **kwargs)
    g._numpy_names = True
    return g


def variadic_keyword(f, keyword, leading=1):
    """f(self, *values) taking its values as one keyword argument too: f(self, keyword=(2, 3)); `leading`
    arguments (self) come before the values."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        if keyword in kwargs:
            if len(args) > leading:
                raise TypeError(f"{f.__name__}() got multiple values for argument '{keyword}'")
            value = kwargs.pop(keyword)
            return f(*args, *((value,) if isinstance(value, int) else tuple(value)), **kwargs)
        return f(*args, **kwargs)
    return g


def renamed(f, names):
    """f taking PyTorch's keyword names `names` ({theirs: ours}) for its own."""
    @functools.wraps(f)
    def g(*args, **kwargs):
        for theirs, ours in names.items():
            if theirs in kwargs:
                kwargs[ours] = kwargs.pop(theirs)
        return f(*args, **kwargs)
    return g


def install(tensor_class, namespace):
    """Wraps the methods of tensor_class and the functions of namespace (porta's module dict) in place."""
    def wrap(name, wrapper):
        if hasattr(tensor_class, name):
            setattr(tensor_class, name, wrapper(getattr(tensor_class, name)))
        if callable(namespace.get(name)):
            namespace[name] = wrapper(namespace[name])

    for name in NUMPY_NAMES:
        wrap(name, numpy_names)
    for name, keyword in VARIADIC_KEYWORDS.items():
        wrap(name, lambda f, k=keyword: variadic_keyword(f, k))
    for name in FACTORY_SIZES:
        namespace[name] = variadic_keyword(namespace[name], "size", leading=0)
    for name, names in RENAMES.items():
        wrap(name, lambda f, n=names: renamed(f, n))
