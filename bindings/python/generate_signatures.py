#!/usr/bin/env python3
"""Writes porta/_signatures.py, the ctypes signature of every function porta.h exports.

    python3 bindings/python/generate_signatures.py [abi/porta/porta.h] [porta/_signatures.py]

porta.h is the source of truth; _lib.py declares each C function from the
generated table, and tests/python/test_lib_matches_header.py fails (saying to
run this script) when the committed table is not what porta.h gives. Each C
type is spelled with _lib.py's aliases (T = porta_tensor*, OUT = porta_tensor**,
I32, P_I64, POINTER(PluginInfo), ...), which _lib resolves.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_HEADER = os.path.join(HERE, "..", "..", "abi", "porta", "porta.h")
DEFAULT_OUTPUT = os.path.join(HERE, "porta", "_signatures.py")

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


def main(argv):
    header = argv[1] if len(argv) > 1 else DEFAULT_HEADER
    output = argv[2] if len(argv) > 2 else DEFAULT_OUTPUT
    text = render(header)
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {output} ({text.count(chr(10)) - 6} functions)")


if __name__ == "__main__":
    main(sys.argv)
