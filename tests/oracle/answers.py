"""The recorded answers: tests/oracle/answers.json.gz, written by `oracle.py record` (torch),
read by every replay. It holds PyTorch's version, the digest of the cases it answers (their
ids and the sources that make their inputs), PyTorch's public names per namespace (what
the coverage check compares Porta's with), and one record per case id.
"""
import gzip
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.environ.get("PORTA_ORACLE_ANSWERS") or os.path.join(HERE, "answers.json.gz")
RECORD_COMMAND = "scripts/record-oracle.sh"
_SOURCES = ("spec.py", "engine.py", "encoding.py")


def digest(cases):
    h = hashlib.sha256()
    for name in _SOURCES + tuple(sorted(f"samples/{n}" for n in os.listdir(os.path.join(HERE, "samples"))
                                        if n.endswith(".py"))):
        with open(os.path.join(HERE, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    for c in cases:
        h.update(c.id.encode() + b"\n")
    return h.hexdigest()


def save(data, path=PATH):
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    with open(path, "wb") as f:
        # mtime=0: the same answers give the same bytes
        with gzip.GzipFile(fileobj=f, mode="wb", compresslevel=9, mtime=0) as z:
            z.write(raw)


def load(path=PATH):
    if not os.path.exists(path):
        raise SystemExit(f"{path} does not exist: record PyTorch's answers with {RECORD_COMMAND}")
    with gzip.open(path, "rb") as f:
        return json.loads(f.read())


def check_fresh(data, cases):
    """SystemExit naming the command to run when the answers were recorded for other cases."""
    if data.get("digest") != digest(cases):
        raise SystemExit(f"the recorded answers ({os.path.relpath(PATH)}) are stale: the cases or the sources that "
                         f"make their inputs changed since they were recorded. Record them again with "
                         f"{RECORD_COMMAND} (it runs PyTorch {data.get('torch', '?')} from build/venv-bench)")
