"""The package classifies errors by porta_status and porta_last_error_detail() (ABI 1.15), never by the
message, and takes every C number (status codes, enums, the ABI version) from the generated _abi.py."""
from ctypes import byref, c_int32

import pytest

import porta
from porta import _abi, _errors, _lib, _runtime, distributed


def test_a_dimension_out_of_range_is_reported_by_its_detail():
    x = porta.arange(6.0).view(2, 3)
    with pytest.raises(porta.DimensionError) as raised:
        x.sum(dim=5)
    assert isinstance(raised.value, IndexError) and isinstance(raised.value, porta.InvalidArgumentError)
    assert raised.value.status == _abi.PORTA_ERROR_INVALID_ARGUMENT
    assert _lib.fn.porta_last_error_detail() == _abi.PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE


def test_the_class_follows_the_detail_not_the_message():
    x = porta.arange(6.0).view(2, 3)
    with pytest.raises(porta.DimensionError):
        x.transpose(0, 5)
    # The same status with the detail of the failure just recorded: a DimensionError whatever the message says.
    assert type(_errors.error(_abi.PORTA_ERROR_INVALID_ARGUMENT, "anything")) is porta.DimensionError
    # A new failure resets the detail: another INVALID_ARGUMENT is no DimensionError.
    status = _lib.fn.porta_tensor_ndim(None, None)
    assert status == _abi.PORTA_ERROR_INVALID_HANDLE
    assert _lib.fn.porta_last_error_detail() == _abi.PORTA_ERROR_DETAIL_NONE
    e = _errors.error(_abi.PORTA_ERROR_INVALID_ARGUMENT)
    assert type(e) is porta.InvalidArgumentError and not isinstance(e, IndexError)


def test_every_status_has_its_class_with_the_headers_value():
    statuses = _abi.ENUMS["porta_status"]
    for name, value in statuses.items():
        if value == _abi.PORTA_OK:
            continue
        cls = _errors._BY_STATUS[value]
        assert cls.status == value
        assert cls(name).status_name == name
    assert set(_errors._BY_STATUS) == set(statuses.values()) - {_abi.PORTA_OK}


def test_reduce_op_is_porta_reduce_op():
    assert distributed.ReduceOp.SUM == _abi.PORTA_REDUCE_SUM
    assert [int(op) for op in distributed.ReduceOp] == sorted(_abi.ENUMS["porta_reduce_op"].values())


def test_the_library_implements_the_headers_abi_version():
    major, minor = c_int32(), c_int32()
    _errors.check(_lib.fn.porta_version(None, None, None, byref(major), byref(minor)))
    assert (major.value, minor.value) == (_abi.PORTA_ABI_MAJOR, _abi.PORTA_ABI_MINOR)


def test_log_levels_keep_their_names():
    assert _runtime.LOG_LEVELS == ("debug", "info", "warn", "error", "off")
    before = _runtime.get_log_level()
    try:
        _runtime.set_log_level("error")
        assert _runtime.get_log_level() == "error"
    finally:
        _runtime.set_log_level(before)
