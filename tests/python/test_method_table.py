"""The Tensor methods and porta's free functions come from one table (porta/_methods.py, grouped by
concept): the class has exactly the methods of its own body (_tensor.py) and of that table, each the table's
function (or the out=/keyword-alias wrapper of it), and importing an op module changes nothing on the class."""
import ast
import os

import porta
from porta import _methods, _tensor


def _unwrapped(value):
    while hasattr(value, "__wrapped__"):
        value = value.__wrapped__
    return value


def test_the_class_is_its_core_and_the_table():
    names = _methods.names()
    attached = set(vars(porta.Tensor)) - _tensor.CORE_NAMES
    assert attached == set(names), (f"attached but not in the table: {sorted(attached - set(names))}; in the "
                                    f"table but not attached: {sorted(set(names) - attached)}")


def test_each_method_is_the_tables():
    wrong = []
    for group, methods in _methods.METHODS.items():
        for name, method in methods.items():
            if _unwrapped(vars(porta.Tensor)[name]) is not _unwrapped(method):
                wrong.append(f"{group}: {name}")
    assert not wrong, wrong


def test_groups_are_concepts_and_disjoint():
    assert {"math", "views", "indexing", "random", "autograd", "sorting"} <= set(_methods.METHODS)
    names = _methods.names()  # raises on a name in two groups, or one replacing the class body's
    assert "add" in names and "__getitem__" in names and "backward" in names
    assert not set(names) & _tensor.CORE_NAMES


def test_every_function_of_the_table_is_exported():
    functions = _methods.functions()  # raises on a name in two groups
    assert {"add", "reshape", "sort", "cummax", "var", "cat", "movedim"} <= set(functions)
    wrong = [name for name, f in functions.items() if _unwrapped(getattr(porta, name, None)) is not _unwrapped(f)]
    assert not wrong, wrong


def _module_level_class_writes(tree):
    """(line, text) of each module-level write of an attribute of Tensor: Tensor.x = ..., setattr(Tensor, ...)."""
    found = []

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if (isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Store) and
                    isinstance(child.value, ast.Name) and child.value.id in tensor_names):
                found.append((child.lineno, f"{child.value.id}.{child.attr} = ..."))
            if (isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "setattr" and
                    child.args and isinstance(child.args[0], ast.Name) and child.args[0].id in tensor_names):
                found.append((child.lineno, f"setattr({child.args[0].id}, ...)"))
            visit(child)

    tensor_names = {"Tensor"}  # and any module-level alias of it (T = Tensor)
    for st in tree.body:
        if (isinstance(st, ast.Assign) and isinstance(st.value, ast.Name) and st.value.id == "Tensor"):
            tensor_names.update(t.id for t in st.targets if isinstance(t, ast.Name))
    visit(tree)
    return found


def test_no_module_changes_the_class_when_imported():
    folder = os.path.dirname(porta.__file__)
    found = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py") or name in ("_methods.py", "_tensor.py", "__init__.py"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            writes = _module_level_class_writes(ast.parse(f.read()))
        found += [f"{name}:{line}: {text}" for line, text in writes]
    assert not found, "add Tensor methods to porta/_methods.py's table instead:\n  " + "\n  ".join(found)
