"""The porta package's import graph (docs/python-package-map.md): no cycle among
module-level imports, and no import of a porta module inside a function (the
usual way to hide a cycle). Read from the source with ast, so nothing is
imported; lazy imports of optional peers (numpy, torch, ml_dtypes, ...) are
fine, as they are not porta modules.
"""
import ast
import os

import pytest

from conftest import REPO

PACKAGE_DIR = os.path.join(REPO, "bindings", "python", "porta")
PACKAGE = "porta"


def _modules():
    """{dotted module name: path} for every .py file of the package."""
    found = {}
    for folder, dirs, files in os.walk(PACKAGE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), PACKAGE_DIR)[:-3].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            found[".".join([PACKAGE] + rel)] = os.path.join(folder, name)
    return found


def _targets(node, module, is_package, modules):
    """The porta modules an Import/ImportFrom node loads."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name == PACKAGE or a.name.startswith(PACKAGE + ".")]
    if node.level:
        parts = module.split(".")
        base = parts if is_package else parts[:-1]
        base = base[:len(base) - (node.level - 1)]
        if node.module:
            base = base + node.module.split(".")
        base = ".".join(base)
    else:
        base = node.module or ""
        if base != PACKAGE and not base.startswith(PACKAGE + "."):
            return []
    out = []
    for alias in node.names:  # from X import Y: Y is a submodule where one exists, else a name of X
        sub = f"{base}.{alias.name}"
        out.append(sub if sub in modules else base)
    return out


def _imports(modules):
    """(module-level edges {module: {imported}}, function-level [(module, imported, line)])."""
    top, inner = {m: set() for m in modules}, []
    for module, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        is_package = path.endswith("__init__.py")

        def visit(node, in_function):
            for child in ast.iter_child_nodes(node):
                nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for target in _targets(child, module, is_package, modules):
                        if target == module:
                            continue
                        if in_function:
                            inner.append((module, target, child.lineno))
                        elif not module.startswith(target + "."):  # a parent package is loaded first anyway
                            top[module].add(target)
                visit(child, nested)
        visit(tree, False)
    return top, inner


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan), each as a sorted list."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def connect(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def _one_cycle(graph, component):
    """One closed path through a component, for the message: a -> b -> ... -> a."""
    members = set(component)
    start = component[0]
    path, seen = [start], {start}
    while True:
        nxt = sorted(w for w in graph[path[-1]] if w in members)
        back = [w for w in nxt if w in seen]
        if back:
            return " -> ".join(path[path.index(back[0]):] + [back[0]])
        path.append(nxt[0])
        seen.add(nxt[0])


@pytest.fixture(scope="module")
def graph():
    modules = _modules()
    assert f"{PACKAGE}._tensor" in modules
    return _imports(modules)


def test_no_cycle_among_module_level_imports(graph):
    top, _ = graph
    cycles = _cycles(top)
    assert not cycles, "import cycles in the porta package:\n" + "\n".join(
        f"  {_one_cycle(top, c)}   (component: {', '.join(c)})" for c in cycles)


def test_no_function_level_import_of_a_porta_module(graph):
    _, inner = graph
    found = sorted(f"{m}:{line} imports {t} inside a function" for m, t, line in inner)
    assert not found, ("import porta modules at module level (a function-level import hides a cycle; see "
                       "docs/python-package-map.md for the layering):\n  " + "\n  ".join(found))


def test_the_checker_sees_a_cycle_and_a_function_level_import():
    modules = {"porta": "", "porta.a": "", "porta.b": ""}
    a = ast.parse("from . import b\ndef f():\n    from .b import g\n    import numpy\n")
    assert [_targets(n, "porta.a", False, modules) for n in ast.walk(a) if isinstance(n, ast.ImportFrom)] == [
        ["porta.b"], ["porta.b"]]
    assert _cycles({"porta.a": {"porta.b"}, "porta.b": {"porta.a"}}) == [["porta.a", "porta.b"]]
    assert _one_cycle({"porta.a": {"porta.b"}, "porta.b": {"porta.a"}}, ["porta.a", "porta.b"]) == \
        "porta.a -> porta.b -> porta.a"
