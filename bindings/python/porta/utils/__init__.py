"""porta.utils: data loading (porta.utils.data)."""
from . import data  # noqa: F401
