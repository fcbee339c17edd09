"""The one table of deliberate differences from PyTorch (docs/differences-from-pytorch.md),
as the suite reads it: each row's first cell is a case-id pattern in backticks (fnmatch:
`*` any text, `?` one character, `[...]` a set, `[[]` a literal bracket), and the cases
it matches may differ from PyTorch's answer, or answer where PyTorch raises.
"""
import fnmatch
import os
import re

PATH = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "differences-from-pytorch.md")
_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")


def load(path=PATH):
    """[(pattern, compiled regex)] of the table's rows, in order."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _ROW.match(line)
            if m:
                rows.append((m.group(1), re.compile(fnmatch.translate(m.group(1)))))
    return rows


def listed(rows, case_id):
    """The first pattern that lists case_id, else None."""
    for pattern, regex in rows:
        if regex.match(case_id):
            return pattern
    return None
