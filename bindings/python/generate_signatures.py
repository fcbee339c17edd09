#!/usr/bin/env python3
"""Writes the Python package's generated view of the C ABI (porta.h is the source of truth):

  porta/_signatures.py  the ctypes signature of every function porta.h exports;
  porta/_abi.py         every enum value and integer constant (#define PORTA_*) of
                        types.h, porta.h and ops.h, the DLPack numbers porta.h's
                        "For other languages (FFI)" section lists, a ctypes
                        Structure for every porta_* struct of porta.h, and
                        OP_TRAITS: the op table's columns that porta_op_get_info
                        does not report (since, domain, autocast, vector).

    python3 bindings/python/generate_signatures.py [abi/porta/porta.h] [porta/_signatures.py] [porta/_abi.py]

_lib.py declares each C function from the signature table and re-exports the
Structures; the rest of the package takes every C number from _abi.py.
tests/python/test_lib_matches_header.py fails (saying to run this script) when
a committed file is not what the headers give. Each C type in the signature
table is spelled with _lib.py's aliases (T = porta_tensor*, OUT =
porta_tensor**, I32, P_I64, POINTER(PluginInfo), ...), which _lib resolves.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_HEADER = os.path.join(HERE, "..", "..", "abi", "porta", "porta.h")
DEFAULT_OUTPUT = os.path.join(HERE, "porta", "_signatures.py")
DEFAULT_ABI_OUTPUT = os.path.join(HERE, "porta", "_abi.py")

# By-value types.
_VALUES = {
    "porta_status": "STATUS", "int": "INT", "int32_t": "I32", "int64_t": "I64", "uint32_t": "c_uint32",
    "uint64_t": "U64", "size_t": "SZ", "double": "D", "DLDevice": "DEV", "DLDataType": "DT",
    "porta_log_callback": "LOG_CALLBACK", "porta_grad_hook": "GRAD_HOOK", "porta_release_callback": "RELEASE_CALLBACK",
    "porta_function_backward": "FUNCTION_BACKWARD", "porta_function_backward_outputs": "FUNCTION_BACKWARD_OUTPUTS",
}
# Pointers to these: their alias.
_POINTERS = {
    "porta_tensor": "T", "char": "c_char_p", "void": "c_void_p", "int32_t": "P_I32", "int64_t": "P_I64",
    "int": "P_INT", "double": "P_D", "porta_optimizer": "c_void_p", "porta_tensor_list": "c_void_p",
    "DLManagedTensor": "c_void_p", "DLManagedTensorVersioned": "c_void_p", "porta_process_group": "c_void_p",
    "porta_work": "c_void_p", "porta_reducer": "c_void_p",
}


def header_text(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def enums(text):
    return set(re.findall(r"typedef\s+enum\s+\w+\s*\{[^}]*\}\s*(\w+)\s*;", text))


def _class_name(struct):
    """porta_plugin_info -> PluginInfo: the ctypes Structure _lib.py mirrors it with."""
    return "".join(part.capitalize() for part in struct[len("porta_"):].split("_"))


def spell(ctype, enum_names):
    """_lib.py's spelling of a C parameter or result type."""
    t = " ".join(re.sub(r"\bconst\b", " ", ctype).replace("*", " * ").split())
    base, stars = t.replace(" *", "").strip(), t.count("*")
    if stars == 0:
        if base == "void":
            return None
        if base in enum_names:
            return "INT"
        return _VALUES[base]
    if base == "porta_tensor" and stars == 2 and not re.search(r"\*\s*const\s*\*", ctype):
        return "OUT"  # a new reference written back (an array of inputs is porta_tensor* const*)
    inner = _POINTERS.get(base) or (f"POINTER({_class_name(base)})" if base.startswith("porta_") else None)
    if inner is None:
        inner = {"uint64_t": "POINTER(c_uint64)", "size_t": "POINTER(SZ)", "DLDevice": "POINTER(DLDevice)",
                 "DLDataType": "POINTER(DLDataType)"}.get(base)
    if inner is None:
        raise SystemExit(f"generate_signatures.py: no ctypes spelling for {ctype!r}: add it")
    for _ in range(stars - 1):
        inner = f"POINTER({inner})"
    return inner


def signatures(header):
    """[(name, result, (parameters...))] in header order."""
    text = header_text(header)
    enum_names = enums(text)
    out = []
    for ret, name, params in re.findall(r"PORTA_EXPORT\s+([\w\s\*]+?)\s*\b(porta_\w+)\s*\(([^)]*)\)\s*;", text):
        args = []
        params = params.strip()
        if params and params != "void":
            for p in params.split(","):
                m = re.match(r"(.*?[\s\*])(\w+)$", p.strip())  # the type, without the parameter's name
                args.append(spell(m.group(1) if m else p, enum_names))
        out.append((name, spell(ret, enum_names), tuple(args)))
    return out


def render(header):
    lines = ['"""Generated from abi/porta/porta.h by bindings/python/generate_signatures.py: do not edit.',
             "",
             "Every function porta.h exports: name -> (result, parameters), spelled with _lib.py's",
             'ctypes aliases (T = porta_tensor*, OUT = porta_tensor**, ...)."""',
             "SIGNATURES = {"]
    for name, ret, args in signatures(header):
        params = ", ".join(f'"{a}"' for a in args)
        if len(args) == 1:
            params += ","
        result = "None" if ret is None else f'"{ret}"'
        lines.append(f'    "{name}": ({result}, ({params})),')
    lines.append("}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ _abi.py

# The headers _abi.py takes enums and #define numbers from, in this order (beside porta.h).
_ABI_HEADERS = ("types.h", "porta.h", "ops.h")
# Enums left out: porta_op is built by an X-macro (the library reports its ops: porta_op_get_info).
_SKIPPED_ENUMS = {"porta_op"}
# Struct field types by value: their ctypes spelling.
_FIELD_TYPES = {
    "size_t": "c_size_t", "int32_t": "c_int32", "int64_t": "c_int64", "uint32_t": "c_uint32",
    "uint64_t": "c_uint64", "double": "c_double", "char": "c_char", "int": "c_int",
}


def _evaluate(expr, known):
    """The integer a C constant expression of the headers spells: a literal, INT32_MIN, or a name defined earlier."""
    expr = expr.strip()
    while expr.startswith("(") and expr.endswith(")"):
        expr = expr[1:-1].strip()
    if re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)[uUlL]*", expr):
        return int(expr.rstrip("uUlL"), 0)
    if expr == "INT32_MIN":
        return -2**31
    if expr in known:
        return known[expr]
    return None


def header_enums(text, known):
    """[(enum name, [(value name, value)])] of a header's typedef enums, values evaluated in order."""
    out = []
    for body, name in re.findall(r"typedef\s+enum\s+\w+\s*\{([^}]*)\}\s*(\w+)\s*;", text):
        if name in _SKIPPED_ENUMS:
            continue
        values, nxt = [], 0
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            key, _, expr = item.partition("=")
            key = key.strip()
            value = _evaluate(expr, known) if expr else nxt
            if value is None:
                raise SystemExit(f"generate_signatures.py: cannot evaluate {name}'s {item!r}: teach _evaluate")
            known[key] = value
            values.append((key, value))
            nxt = value + 1
        out.append((name, values))
    return out


def header_defines(text, known):
    """[(name, value)] of a header's integer #define PORTA_* constants (not PORTA_LAYOUT_*, not macros)."""
    out = []
    for name, expr in re.findall(r"^[ \t]*#[ \t]*define[ \t]+(PORTA_\w+)(?!\()[ \t]+([^\n]+)", text, flags=re.M):
        if name.startswith("PORTA_LAYOUT_"):
            continue
        value = _evaluate(expr, known)
        if value is not None:
            known[name] = value
            out.append((name, value))
    return out


def ffi_dlpack_values(header):
    """The DLPack numbers porta.h's "For other languages (FFI)" comment lists (kDLCPU = 1, DLPACK_* = n):
    dlpack.h is not in this repository; tests/unit/test_ffi_values.cpp checks that section against it."""
    with open(header, encoding="utf-8") as f:
        raw = f.read()
    start = raw.index("For other languages (FFI)")
    section = raw[start:raw.index("*/", start)]
    out, seen = [], set()
    for name, value in re.findall(r"\b(kDL\w+|DLPACK_\w+) = (-?\d+)", section):
        if name not in seen:
            seen.add(name)
            out.append((name, int(value)))
    return out


def _field_spelling(ctype, count, enum_names):
    t = " ".join(re.sub(r"\bconst\b", " ", ctype).replace("*", " * ").split())
    base, stars = t.replace(" *", "").strip(), t.count("*")
    if stars == 0:
        spelled = "c_int32" if base in enum_names else _FIELD_TYPES.get(base)
    elif stars == 1 and base == "char":
        spelled = "c_char_p"
    elif stars == 1:
        spelled = "c_void_p"
    else:  # porta_tensor** and porta_tensor* const*: arrays of handles
        spelled = "POINTER(" * (stars - 1) + "c_void_p" + ")" * (stars - 1)
    if spelled is None:
        raise SystemExit(f"generate_signatures.py: no ctypes spelling for the struct field type {ctype!r}: add it")
    return f"{spelled} * {count}" if count else spelled


def header_structs(text, enum_names):
    """[(C name, class name, [(field, ctypes spelling)])] of porta.h's typedef structs, in header order."""
    out = []
    for c_name, body in re.findall(r"typedef\s+struct\s+(porta_\w+)\s*\{(.*?)\}\s*\1\s*;", text, flags=re.S):
        fields = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            m = re.match(r"(.*?[\s\*])(\w+)(?:\[(\w+)\])?$", decl)
            if not m:
                raise SystemExit(f"generate_signatures.py: cannot parse {c_name}'s field {decl!r}")
            fields.append((m.group(2), _field_spelling(m.group(1), m.group(3), enum_names)))
        out.append((c_name, _class_name(c_name), fields))
    return out


_OP_ROW = re.compile(r'^\s*R\(X,\s*(\w+),\s*(\w+),\s*(\d+),\s*\w+,\s*\d+,\s*\w+,\s*\w+,\s*\d,\s*(\d+),\s*(\w+),'
                     r'\s*(\w+),\s*(SLEEF\(\s*\w+,\s*\w+\)|SCALAR),', re.M)


def op_traits(ops_header):
    """[(name, id, since, domain, autocast, vector)] from ops.h's PORTA_OP_TABLE rows: the columns
    porta_op_get_info does not report (domain and autocast as their enum constants' names)."""
    with open(ops_header, encoding="utf-8") as f:
        text = f.read()
    rows = [(m.group(2), int(m.group(3)), int(m.group(4)), "PORTA_DOMAIN_" + m.group(5),
             "PORTA_AUTOCAST_" + m.group(6), " ".join(m.group(7).split())) for m in _OP_ROW.finditer(text)]
    if [r[1] for r in rows] != list(range(len(rows))):
        raise SystemExit("generate_signatures.py: ops.h's table rows did not parse as ids 0, 1, 2, ...: fix _OP_ROW")
    return rows


def render_abi(header):
    """The text of porta/_abi.py for porta.h at `header` (its siblings types.h and ops.h beside it)."""
    folder = os.path.dirname(os.path.abspath(header))
    known, enum_names = {}, set()
    lines = ['"""Generated from abi/porta/{types,porta,ops}.h by bindings/python/generate_signatures.py: do not edit.',
             "",
             "Every enum value and integer #define of the headers (as module constants, and each enum as a dict",
             "in ENUMS), the DLPack numbers porta.h's FFI section lists, and a ctypes Structure for every",
             'porta_* struct of porta.h (STRUCTS: C name -> class)."""',
             "from ctypes import POINTER, Structure, c_char, c_char_p, c_double, c_int, c_int32, c_int64, "
             "c_size_t, c_uint32, \\",
             "    c_uint64, c_void_p  # noqa: F401 (what the Structures below may use)",
             ""]
    enum_lines = ["ENUMS = {"]
    porta_text = None
    for name in _ABI_HEADERS:
        path = header if name == "porta.h" else os.path.join(folder, name)
        text = header_text(path)
        if name == "porta.h":
            porta_text = text
        # Enums and defines in header order, so a define may name an enum value and the other way round.
        items = []
        for m in re.finditer(r"typedef\s+enum\s+\w+\s*\{[^}]*\}\s*\w+\s*;|^[ \t]*#[ \t]*define[^\n]*", text,
                             flags=re.M):
            items.append(m.group(0))
        block = []
        for item in items:
            if item.lstrip().startswith("#"):
                for key, value in header_defines(item, known):
                    block.append(f"{key} = {value}")
            else:
                for enum_name, values in header_enums(item, known):
                    enum_names.add(enum_name)
                    block.append(f"# {enum_name}")
                    block.extend(f"{key} = {value}" for key, value in values)
                    enum_lines.append(f'    "{enum_name}": {{')
                    enum_lines.extend(f'        "{k}": {k},' for k, _ in values)
                    enum_lines.append("    },")
        lines.append(f"# ---- {name}")
        lines.extend(block)
        lines.append("")
    enum_lines.append("}")
    lines.extend(enum_lines)
    lines.append("")
    lines.append("# ---- DLPack (dlpack.h), as porta.h's \"For other languages (FFI)\" section lists them")
    lines.extend(f"{key} = {value}" for key, value in ffi_dlpack_values(header))
    lines.append("")
    lines.append("# ---- porta.h's structs")
    classes = []
    for c_name, cls, fields in header_structs(porta_text, enum_names):
        classes.append((c_name, cls))
        lines += ["", "", f"class {cls}(Structure):", f'    """{c_name}."""', "    _fields_ = ["]
        lines.extend(f'        ("{field}", {spelled}),' for field, spelled in fields)
        lines.append("    ]")
    lines += ["", "", "STRUCTS = {"]
    lines.extend(f'    "{c_name}": {cls},' for c_name, cls in classes)
    lines.append("}")
    lines += ["", "# ---- ops.h's op table: the columns porta_op_get_info does not report, by op name",
              "# (id, since: the plugin ABI minor, domain, autocast, vector)", "OP_TRAITS = {"]
    lines.extend(f'    "{name}": ({op_id}, {since}, {domain}, {autocast}, "{vector}"),'
                 for name, op_id, since, domain, autocast, vector in op_traits(os.path.join(folder, "ops.h")))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv):
    header = argv[1] if len(argv) > 1 else DEFAULT_HEADER
    output = argv[2] if len(argv) > 2 else DEFAULT_OUTPUT
    abi_output = argv[3] if len(argv) > 3 else DEFAULT_ABI_OUTPUT
    text = render(header)
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {output} ({text.count(chr(10)) - 6} functions)")
    abi = render_abi(header)
    with open(abi_output, "w", encoding="utf-8") as f:
        f.write(abi)
    print(f"wrote {abi_output} ({abi.count('(Structure)')} structs)")


if __name__ == "__main__":
    main(sys.argv)
