"""The Python the tests run is the project's own, exactly as pinned.

Run by ctest (python.environment) with the interpreter every Python suite
uses. It fails when that interpreter is not a virtual environment, sees the
machine's site-packages, or holds a package that scripts/python-requirements.txt
does not pin (or at another version): the ways a test comes to depend on what
a machine happens to have, as the packaging test once did on `wheel`.
Usage: check_environment.py REQUIREMENTS_FILE
"""
import importlib.metadata
import os
import re
import sys


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path):
    out = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep:
            sys.exit(f"{path}: '{line}' is not pinned with ==")
        out[canonical(name)] = version.strip()
    return out


def main():
    problems = []
    if sys.prefix == sys.base_prefix:
        problems.append(f"{sys.executable} is not a virtual environment: configure with "
                        "-DPython3_EXECUTABLE=<repo>/build/venv/bin/python (scripts/build.sh does)")
    cfg = os.path.join(sys.prefix, "pyvenv.cfg")
    if os.path.exists(cfg) and re.search(r"include-system-site-packages\s*=\s*true", open(cfg).read()):
        problems.append(f"{cfg}: the venv sees the machine's site-packages")
    want = pins(sys.argv[1])
    have = {canonical(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()}
    for name, version in sorted(have.items()):
        if name not in want:
            problems.append(f"{name}=={version} is installed but not pinned in {sys.argv[1]}")
        elif want[name] != version:
            problems.append(f"{name} is {version}, pinned {want[name]}")
    problems += [f"{name}=={version} is pinned but not installed" for name, version in sorted(want.items())
                 if name not in have]
    if problems:
        sys.exit("the test Python is not the project's pinned venv (run scripts/install-deps.sh):\n  " +
                 "\n  ".join(problems))
    print(f"{sys.executable}: {len(have)} packages, all pinned")


main()
