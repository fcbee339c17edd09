"""The Python op table (porta/_ops.py) is the loaded library's own (porta_op_get_info), and every op of a
user-facing kind is bound as a function, a Tensor method and a C declaration."""
import ctypes

import porta
from porta import _lib, _ops


def test_table_is_the_librarys():
    count = ctypes.c_int32()
    assert _lib.fn.porta_op_count(ctypes.byref(count)) == 0
    assert [op.id for op in _ops.OPS] == list(range(count.value))
    assert len({op.name for op in _ops.OPS}) == count.value
    add = next(op for op in _ops.OPS if op.name == "add")
    assert (add.NAME, add.kind, add.inputs, add.differentiable) == ("ADD", "BINARY", 2, True)
    assert next(op for op in _ops.OPS if op.name == "eq").differentiable is False
    info = _lib.OpInfo(struct_size=ctypes.sizeof(_lib.OpInfo))
    assert _lib.fn.porta_op_get_info(count.value, ctypes.byref(info)) != 0, "one past the last id is refused"


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
