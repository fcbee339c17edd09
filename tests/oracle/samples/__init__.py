"""The sample inputs of every public name Porta shares with PyTorch, by family (in the spirit of
PyTorch's OpInfo database): each module's cases() yields the family's cases. A shared name with no
case fails `oracle.py coverage`, unless its family's NOT_COMPARED says why it has nothing to compare."""
import functools
import importlib
import pkgutil

# every module of this package with a cases() function, in name order
FAMILIES = tuple(m for m in (importlib.import_module(f"{__name__}.{info.name}")
                             for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name))
                 if hasattr(m, "cases"))
# public names without cases, each with why there is nothing to compare: every family's NOT_COMPARED
NOT_COMPARED = {name: why for m in FAMILIES for name, why in getattr(m, "NOT_COMPARED", {}).items()}


@functools.lru_cache(maxsize=None)
def _cases():
    cases, seen = [], {}
    for family in FAMILIES:
        for c in family.cases():
            if c.id in seen:
                raise ValueError(f"two cases have the id {c.id!r} ({seen[c.id]} and {family.__name__}): give one "
                                 "a tag")
            seen[c.id] = family.__name__
            cases.append(c)
    return tuple(cases)


def all_cases():
    """Every case, in a fixed order."""
    return list(_cases())
