"""_lib.py's ctypes declarations checked against porta.h itself.

The signature table (porta/_signatures.py) and the enums, constants and
structs of porta/_abi.py must be what generate_signatures.py makes of the
headers today; each generated Structure has the size porta.h's
PORTA_<NAME>_SIZE states. Independently of that generator, the header is parsed
here (its PORTA_EXPORT declarations and its porta_* structs) and compared with
what _lib declares: each exported function has a signature with the same
number of parameters, each parameter and the result of the same shape
(pointer, or integer/float/struct of the same size), and each struct's fields
have the header's names, in order, at the offsets C gives them.
"""
import ctypes
import functools
import importlib.util
import os
import re

import pytest

from porta import _abi, _lib, _signatures

REPO = os.path.join(os.path.dirname(__file__), "..", "..")
HEADER = os.path.join(REPO, "abi", "porta", "porta.h")
GENERATOR = os.path.join(REPO, "bindings", "python", "generate_signatures.py")

pytestmark = pytest.mark.skipif(not os.path.isfile(HEADER), reason="porta.h not found beside the tests")

# By-value C types that are not pointers: (kind, size in bytes).
_SCALARS = {
    "int": ("int", 4), "int32_t": ("int", 4), "uint32_t": ("int", 4), "int64_t": ("int", 8),
    "uint64_t": ("int", 8), "size_t": ("int", 8), "uint8_t": ("int", 1), "uint16_t": ("int", 2), "char": ("int", 1),
    "double": ("float", 8), "float": ("float", 4), "porta_status": ("int", 4),
    "DLDevice": ("struct", 8), "DLDataType": ("struct", 4),
}


def _header_text():
    with open(HEADER, encoding="utf-8") as f:
        text = f.read()
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def _enums(text):
    return set(re.findall(r"typedef\s+enum\s+\w+\s*\{[^}]*\}\s*(\w+)\s*;", text))


@functools.lru_cache(maxsize=None)
def _function_pointer_types():
    """The header's callback typedefs (porta_log_callback, porta_grad_hook, ...): passed as pointers."""
    return set(re.findall(r"typedef\s+[\w\s\*]+\(\s*\*\s*(\w+)\s*\)", _header_text()))


def _c_shape(ctype, enums):
    """(kind, size) of a C parameter or result type; ("ptr", 8) for any pointer."""
    t = re.sub(r"\bconst\b", " ", ctype).strip()
    if "*" in t or t in _function_pointer_types():
        return ("ptr", 8)
    t = " ".join(t.split())
    if t == "void":
        return ("void", 0)
    if t in enums:
        return ("int", 4)
    if t not in _SCALARS:
        raise AssertionError(f"porta.h type {ctype!r} is unknown to this test: add it to _SCALARS")
    return _SCALARS[t]


def _py_shape(t):
    if t is None:
        return ("void", 0)
    if t in (ctypes.c_void_p, ctypes.c_char_p) or issubclass(t, (ctypes._Pointer, ctypes._CFuncPtr)):
        return ("ptr", 8)
    if issubclass(t, ctypes.Structure):
        return ("struct", ctypes.sizeof(t))
    kind = "float" if t in (ctypes.c_double, ctypes.c_float) else "int"
    return (kind, ctypes.sizeof(t))


def _declarations():
    text = _header_text()
    enums = _enums(text)
    decls = {}
    for ret, name, params in re.findall(r"PORTA_EXPORT\s+([\w\s\*]+?)\s*\b(porta_\w+)\s*\(([^)]*)\)\s*;", text):
        shapes = []
        params = params.strip()
        if params and params != "void":
            for p in params.split(","):
                p = p.strip()
                m = re.match(r"(.*?[\s\*])(\w+)$", p)  # drop the parameter's name
                shapes.append(_c_shape(m.group(1) if m else p, enums))
        decls[name] = (_c_shape(ret, enums), shapes)
    return decls


def test_the_parser_sees_the_header():
    assert len(_declarations()) > 150


def test_every_exported_function_is_declared_alike():
    problems = []
    for name, (ret, params) in _declarations().items():
        sig = _lib._SIGNATURES.get(name)
        if sig is None:
            problems.append(f"{name}: exported by porta.h, no signature in _lib.py")
            continue
        py_ret, py_params = sig
        if _py_shape(py_ret) != ret:
            problems.append(f"{name}: result {ret} in porta.h, {_py_shape(py_ret)} in _lib.py")
        got = [_py_shape(p) for p in py_params]
        if got != params:
            problems.append(f"{name}: parameters {params} in porta.h, {got} in _lib.py")
    assert not problems, "\n".join(problems)


def test_the_signature_table_is_what_porta_h_gives():
    generator = _generator()
    with open(_signatures.__file__, encoding="utf-8") as f:
        committed = f.read()
    assert committed == generator.render(HEADER), (
        "porta/_signatures.py is not what porta.h gives: run python3 bindings/python/generate_signatures.py")


def _generator():
    spec = importlib.util.spec_from_file_location("generate_signatures", GENERATOR)
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    return generator


def test_the_abi_module_is_what_the_headers_give():
    with open(_abi.__file__, encoding="utf-8") as f:
        committed = f.read()
    assert committed == _generator().render_abi(HEADER), (
        "porta/_abi.py is not what abi/porta/*.h give: run python3 bindings/python/generate_signatures.py")


def test_every_generated_struct_has_the_size_porta_h_states():
    """porta.h follows each struct with #define PORTA_<NAME>_SIZE (its LP64 size)."""
    problems = []
    for c_name, cls in _abi.STRUCTS.items():
        size = getattr(_abi, c_name.upper() + "_SIZE", None)
        if size is None:
            problems.append(f"{c_name}: porta.h states no {c_name.upper()}_SIZE")
        elif ctypes.sizeof(cls) != size:
            problems.append(f"{c_name}: {c_name.upper()}_SIZE is {size}, ctypes.sizeof({cls.__name__}) is "
                            f"{ctypes.sizeof(cls)}")
    assert len(_abi.STRUCTS) >= 15
    assert not problems, "\n".join(problems)


def test_lib_uses_the_generated_structs():
    for c_name, cls in _abi.STRUCTS.items():
        assert getattr(_lib, cls.__name__) is cls, f"_lib.{cls.__name__} is not _abi's {c_name}"


def test_the_enums_hold_what_porta_h_documents():
    """A few values checked against their literal C spelling, independently of the generator."""
    text = _header_text()
    for name, value in re.findall(r"\b(PORTA_(?:REDUCTION|PAD|RNN|MESHGRID|GELU|PLUGIN|ERROR_DETAIL)_\w+)\s*=\s*(\d+)\b",
                                  text):
        assert getattr(_abi, name) == int(value), name
    assert _abi.ENUMS["porta_reduction"]["PORTA_REDUCTION_SUM"] == _abi.PORTA_REDUCTION_SUM


def _c_fields(body, enums):
    """(name, size, alignment) of each field of a struct body."""
    fields = []
    for decl in body.split(";"):
        decl = " ".join(decl.split())
        if not decl:
            continue
        m = re.match(r"(.*?[\s\*])(\w+)(?:\[(\d+)\])?$", decl)
        assert m, f"cannot parse the field {decl!r}"
        kind, size = _c_shape(m.group(1), enums)
        count = int(m.group(3)) if m.group(3) else 1
        align = 4 if kind == "struct" else size
        fields.append((m.group(2), size * count, align))
    return fields


def _python_struct(c_name):
    return _abi.STRUCTS.get(c_name)


def test_every_struct_has_the_headers_layout():
    text = _header_text()
    enums = _enums(text)
    structs = re.findall(r"typedef\s+struct\s+(porta_\w+)\s*\{(.*?)\}\s*\1\s*;", text, flags=re.S)
    assert len(structs) >= 8
    problems = []
    for c_name, body in structs:
        cls = _python_struct(c_name)
        if cls is None:
            problems.append(f"{c_name}: no ctypes Structure in _abi.STRUCTS: run generate_signatures.py")
            continue
        offset, max_align = 0, 1
        py_fields = [f[0] for f in cls._fields_]
        c_fields = _c_fields(body, enums)
        if py_fields != [f[0] for f in c_fields]:
            problems.append(f"{c_name}: fields {[f[0] for f in c_fields]} in porta.h, {py_fields} in _lib.py")
            continue
        for name, size, align in c_fields:
            offset = (offset + align - 1) // align * align
            max_align = max(max_align, align)
            if getattr(cls, name).offset != offset:
                problems.append(f"{c_name}.{name}: offset {offset} in C, {getattr(cls, name).offset} in _lib.py")
            offset += size
        size = (offset + max_align - 1) // max_align * max_align
        if ctypes.sizeof(cls) != size:
            problems.append(f"{c_name}: size {size} in C, {ctypes.sizeof(cls)} in _lib.py")
    assert not problems, "\n".join(problems)
