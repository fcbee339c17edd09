"""docs/examples/<file> loaded as a module, as it is or with its source rewritten first (the tests that run an
example on PyTorch swap its import lines)."""
import importlib.util
import pathlib

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples"


def load_example(filename, rewrite=None, name=None):
    """The module of EXAMPLES/filename, its source passed through rewrite(source) when given."""
    path = EXAMPLES / filename
    source = path.read_text()
    if rewrite is not None:
        source = rewrite(source)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name or path.stem, loader=None))
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec"), module.__dict__)  # noqa: S102
    return module
