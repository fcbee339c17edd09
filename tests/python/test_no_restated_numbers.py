"""No Python file of the porta package restates a C number: the enums, #define constants and DLPack
numbers of abi/porta/*.h come from the generated porta/_abi.py (bindings/python/generate_signatures.py).
Read from the source with ast: a module-level (or class-level) assignment of a bare integer literal to an
ALL_CAPS name (FOO = 3, _FOO = -2**31, A, B = 1, 2) outside the generated modules is a restated C constant,
unless it is a Python-side number listed below with its reason.
"""
import ast
import os
import re

from conftest import REPO

PACKAGE_DIR = os.path.join(REPO, "bindings", "python", "porta")
GENERATED = {"_abi.py", "_signatures.py"}
CONSTANT_NAME = re.compile(r"_?[A-Z][A-Z0-9_]*")

# "file: [Class.]NAME" -> why it is not a C number. The list may only shrink: an entry no longer found fails.
PYTHON_NUMBERS = {
    "_serialization.py: _STRUCTURE_VERSION": "the version of porta.save's own JSON layout, not of the C ABI",
    "_generator.py: _DEFAULT_SEED": "PyTorch's default seed, which porta's global generator starts from",
    "_indexing.py: _BIG": "a stop past any dim for an open Python slice (t[a:]), clamped as Python clamps it",
    "amp.py: GradScaler._READY": "GradScaler's own step state (PyTorch's OptState), Python only",
    "amp.py: GradScaler._UNSCALED": "GradScaler's own step state (PyTorch's OptState), Python only",
    "amp.py: GradScaler._STEPPED": "GradScaler's own step state (PyTorch's OptState), Python only",
}


def _is_int_literal(node):
    """An int spelled with literals only: 3, -1, -2**31, 1 << 4 (not True/False, not a name)."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        return _is_int_literal(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_int_literal(node.left) and _is_int_literal(node.right)
    return False


def restated(source):
    """[(line, "[Class.]NAME")] of the module- and class-level int-literal assignments to ALL_CAPS names."""
    found = []

    def scan(body, prefix):
        for st in body:
            if isinstance(st, ast.ClassDef):
                scan(st.body, prefix + st.name + ".")
            elif isinstance(st, (ast.If, ast.Try)):  # module-level conditionals still define module constants
                scan(st.body, prefix)
                scan(st.orelse, prefix)
            if isinstance(st, ast.Assign):
                pairs = []
                for target in st.targets:
                    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(st.value, (ast.Tuple, ast.List)):
                        pairs += zip(target.elts, st.value.elts)
                    else:
                        pairs.append((target, st.value))
            elif isinstance(st, ast.AnnAssign) and st.value is not None:
                pairs = [(st.target, st.value)]
            else:
                continue
            for target, value in pairs:
                if isinstance(target, ast.Name) and CONSTANT_NAME.fullmatch(target.id) and _is_int_literal(value):
                    found.append((st.lineno, prefix + target.id))

    scan(ast.parse(source).body, "")
    return found


def _package_files():
    for folder, dirs, files in os.walk(PACKAGE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py") and name not in GENERATED:
                path = os.path.join(folder, name)
                yield os.path.relpath(path, PACKAGE_DIR).replace(os.sep, "/"), path


def test_no_c_number_is_restated():
    found, listed = [], set()
    for rel, path in _package_files():
        with open(path, encoding="utf-8") as f:
            for line, name in restated(f.read()):
                key = f"{rel}: {name}"
                if key in PYTHON_NUMBERS:
                    listed.add(key)
                else:
                    found.append(f"{rel}:{line}: {name}")
    assert not found, ("use the generated constant of porta/_abi.py (extend bindings/python/generate_signatures.py "
                       "if it lacks one), or list a Python-only number in PYTHON_NUMBERS with its reason:\n  "
                       + "\n  ".join(found))
    gone = sorted(set(PYTHON_NUMBERS) - listed)
    assert not gone, f"remove these from PYTHON_NUMBERS, they are gone: {gone}"


def test_the_checker_sees_restated_numbers():
    source = ("from . import _abi\n"
              "FOO = 3\n_BAR = -2**31\nA, B = 1, 2\nok = 4\nFLAG = True\nNAME = _abi.PORTA_OK\n"
              "class K:\n    SUM = 0\n    def f(self):\n        LOCAL = 5\n"
              "if True:\n    MASK = 1 << 4\n")
    assert restated(source) == [(2, "FOO"), (3, "_BAR"), (4, "A"), (4, "B"), (9, "K.SUM"), (13, "MASK")]
