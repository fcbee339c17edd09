"""The one table of deliberate differences from PyTorch (docs/differences-from-pytorch.md),
as the suite reads it: each row's first cell holds one or more case-id patterns in backticks
(fnmatch: `*` any text, `?` one character, `[...]` a set, `[[]` a literal bracket), and the
cases they match may differ from PyTorch's answer, or answer where PyTorch raises, for the
row's one reason.
"""
import fnmatch
import os
import re

PATH = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "differences-from-pytorch.md")
_FIRST_CELL = re.compile(r"^\|\s*(`[^|]*`)\s*\|")
_PATTERN = re.compile(r"`([^`]+)`")


def load(path=PATH):
    """[(pattern, compiled regex)] of the table's patterns, in order (a row may hold several)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _FIRST_CELL.match(line)
            if m:
                rows.extend((p, re.compile(fnmatch.translate(p))) for p in _PATTERN.findall(m.group(1)))
    return rows


def listed(rows, case_id):
    """The first pattern that lists case_id, else None."""
    for pattern, regex in rows:
        if regex.match(case_id):
            return pattern
    return None
