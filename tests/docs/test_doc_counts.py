"""The counts docs/ and README.md state about the headers, computed from the headers.

A sentence such as "376 of 376 exported functions" or "the op table has 96 ops"
goes stale the day a function or an op is added; this check recomputes each
number and names the file and line that disagree. It reads text only (no
libporta), so it is cheap. docs/benchmarks-history.md is a dated diary and is
left as written.

Counted:
  exported functions  the porta_* names declared with PORTA_EXPORT in
                      abi/porta/porta.h, with the regex tests/unit/test_c_api_bad_args.cpp
                      uses (extern data such as porta_dtype_float32 is not a function)
  ops                 the rows of PORTA_OP_TABLE in abi/porta/ops.h
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIPPED = {"docs/benchmarks-history.md"}


def exported_functions():
    header = (ROOT / "abi/porta/porta.h").read_text()
    names = re.findall(r"PORTA_EXPORT[^;(]*?\b(porta_\w+)\s*\(", header)
    assert len(names) > 100, "the porta.h parser found too few declarations"
    assert len(set(names)) == len(names), "porta.h declares a name twice"
    return len(names)


def ops():
    header = (ROOT / "abi/porta/ops.h").read_text()
    ids = [int(i) for i in re.findall(r"^\s*R\(X,\s*\w+,\s*\w+,\s*(\d+),", header, re.M)]
    assert len(ids) > 50, "the ops.h parser found too few rows"
    assert ids == list(range(len(ids))), "ops.h's ids are not 0, 1, 2, ... in order"
    return len(ids)


def documents():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        name = path.relative_to(ROOT).as_posix()
        if name not in SKIPPED:
            yield name, path.read_text().splitlines()


def number(text):
    return int(text.replace(",", ""))


# Each phrasing a document may use, with the count it must equal. The numbers
# are found in a line joined to the next (a sentence may wrap between them).
N = r"(\d[\d,]*)"
PHRASES = [
    ("exported functions", exported_functions, [
        rf"\b{N} of {N} exported functions\b",
        rf"(?<! of )\b{N} exported functions\b",
        rf"\bexports {N} functions\b",
    ]),
    ("ops", ops, [
        rf"\bop table (?:has|holds|lists) {N} ops\b",
        rf"\b{N} ops in (?:the op table|`?abi/porta/ops\.h`?)",
    ]),
]


def found(patterns):
    seen = set()
    for name, lines in documents():
        for i, line in enumerate(lines):
            text = " ".join(s.strip() for s in lines[i:i + 2])
            for pattern in patterns:
                for m in re.finditer(pattern, text):
                    if m.start() >= len(line.strip()) + 1:
                        continue  # starts on the next line: counted there
                    key = (name, i + 1, m.group(0))
                    if key not in seen:
                        seen.add(key)
                        yield name, i + 1, m.group(0), [number(g) for g in m.groups()]


def test_documented_counts_match_the_headers():
    wrong = []
    for what, count, patterns in PHRASES:
        actual = count()
        hits = list(found(patterns))
        # A check that finds nothing would pass forever: each count is stated
        # somewhere (docs/reliability.md, docs/testing.md).
        assert hits, f"no document states the number of {what} any more: update tests/docs/test_doc_counts.py"
        for name, line, text, numbers in hits:
            if any(n != actual for n in numbers):
                wrong.append(f"{name}:{line}: \"{text}\" but there are {actual} {what}")
    assert not wrong, "documented counts drifted:\n" + "\n".join(wrong)


if __name__ == "__main__":  # ctest runs it as a plain script (docs.counts); pytest collects the test too
    test_documented_counts_match_the_headers()
    print(f"documented counts match: {exported_functions()} exported functions, {ops()} ops")
