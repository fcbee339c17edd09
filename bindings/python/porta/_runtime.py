"""Plugins, logging and threads: load_plugin, set_log_callback / set_log_level,
set_num_threads / get_num_threads (as torch spells them)."""
import os
from ctypes import byref, c_int32

from . import _abi
from ._errors import InvalidArgumentError, check
from ._lib import LOG_CALLBACK, fn

_LEVELS = {"debug": _abi.PORTA_LOG_DEBUG, "info": _abi.PORTA_LOG_INFO, "warn": _abi.PORTA_LOG_WARN,
           "error": _abi.PORTA_LOG_ERROR, "off": _abi.PORTA_LOG_OFF}  # porta_log_level
_LEVEL_NAMES = {number: name for name, number in _LEVELS.items()}
LOG_LEVELS = tuple(sorted(_LEVELS, key=_LEVELS.get))  # the names, least severe first


def load_plugin(path):
    """Loads the plugin file at `path` now; raises BackendError with the reason when it fails."""
    check(fn.porta_load_plugin(os.fsencode(path)))


def add_plugin_path(path):
    """Adds an absolute directory or plugin file to the search, loading nothing until it is needed."""
    check(fn.porta_add_plugin_path(os.fsencode(path)))


def set_num_threads(n):
    """Sets how many threads host kernels (cpu) use, like torch.set_num_threads."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"set_num_threads(): expected an int, got {type(n).__name__}")
    if not 1 <= n <= 2**31 - 1:
        raise InvalidArgumentError(f"set_num_threads(): the number of threads must be at least 1, got {n}")
    check(fn.porta_set_num_threads(n))


def get_num_threads():
    """The number of threads host kernels use (PORTA_NUM_THREADS, else OMP_NUM_THREADS, else every core)."""
    n = c_int32()
    check(fn.porta_get_num_threads(byref(n)))
    return n.value


def _level_number(level):
    if isinstance(level, str) and level.lower() in _LEVELS:
        return _LEVELS[level.lower()]
    raise InvalidArgumentError(f"unknown log level {level!r}: use one of {', '.join(LOG_LEVELS)}")


def set_log_level(level):
    """Drops log lines below `level`: 'debug', 'info', 'warn' (the default), 'error' or 'off'."""
    check(fn.porta_set_log_level(_level_number(level)))


def get_log_level():
    """The current log threshold, as a name ('warn', ...)."""
    n = c_int32()
    check(fn.porta_get_log_level(byref(n)))
    return _LEVEL_NAMES.get(n.value, str(n.value))


_installed = []  # every callback handed to the core stays alive: a line may be in flight to an old one


def set_log_callback(callback):
    """Sends the core's and plugins' log lines to ``callback(level, message)`` (level a name, e.g. 'warn')
    instead of stderr; None restores stderr. Lines may come from any thread. An exception the callback
    raises is printed, not propagated (it may run inside a C call)."""
    if callback is None:
        check(fn.porta_set_log_callback(LOG_CALLBACK(), None))
        return
    if not callable(callback):
        raise TypeError(f"set_log_callback(): expected a callable or None, got {type(callback).__name__}")

    def relay(level, message, _user):
        name = _LEVEL_NAMES.get(level, str(level))
        callback(name, message.decode(errors="replace"))

    c_relay = LOG_CALLBACK(relay)
    _installed.append(c_relay)
    check(fn.porta_set_log_callback(c_relay, None))
