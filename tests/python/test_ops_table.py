"""The Python op table (porta/_ops.py) is PORTA_OP_LIST of abi/porta/ops.h."""
import os
import re

import porta
from porta import _ops
from conftest import REPO

_ENTRY = re.compile(r"X\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\d+)\s*,\s*PORTA_OP_KIND_(\w+)\s*,\s*(\d+)\s*\)")


def _ops_h():
    with open(os.path.join(REPO, "abi", "porta", "ops.h")) as f:
        text = f.read()
    body = text[text.index("#define PORTA_OP_LIST(X)"):text.index("/* clang-format on */")]
    return [(a, b, int(c), d, int(e)) for a, b, c, d, e in _ENTRY.findall(body)]


def test_table_matches_ops_h():
    assert [tuple(op) for op in _ops.OPS] == _ops_h()


def test_every_user_op_is_bound():
    for op in _ops.of_kind(*_ops.USER_KINDS):
        assert hasattr(porta.Tensor, op.name), op.name
        assert hasattr(porta, op.name), op.name
        assert hasattr(porta._lib.fn, "porta_" + op.name), op.name
        if op.kind in ("BINARY", "COMPARE"):
            assert hasattr(porta._lib.fn, f"porta_{op.name}_scalar"), op.name


def test_no_function_missing_but_dlpack():
    assert [n for n in porta._lib.missing if "dlpack" not in n and n != "porta_tensor_is_read_only"
            and n != "porta_tensor_data_ptr"] == []
