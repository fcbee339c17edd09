#!/usr/bin/env python3
"""Keeps the README's code blocks equal to the tested example files.

Each block to keep is preceded by a line `<!-- example: <path> -->` naming
a file that the tests build and run (docs/examples/readme.cpp, ...); the
next fenced block is that file, verbatim.

  scripts/readme_examples.py          rewrites the blocks from the files
  scripts/readme_examples.py --check  fails, naming the blocks, when one differs
                                      (ctest runs this: docs.readme_examples)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^<!-- example: (\S+) -->\n(```[a-z]*\n)(.*?)^```$", re.M | re.S)


def main():
    readme_path = ROOT / "README.md"
    readme = readme_path.read_text()
    paths, stale = [], []

    def replace(m):
        path, fence, body = m.groups()
        wanted = (ROOT / path).read_text().rstrip() + "\n"
        paths.append(path)
        if body != wanted:
            stale.append(path)
        return f"<!-- example: {path} -->\n{fence}{wanted}```"

    new = BLOCK.sub(replace, readme)
    if not paths:
        sys.exit(f"{readme_path}: no '<!-- example: <path> -->' blocks found")
    if not stale:
        print(f"README.md: {len(paths)} example blocks match {', '.join(paths)}")
    elif "--check" in sys.argv[1:]:
        sys.exit(f"README.md: the blocks of {', '.join(stale)} differ from the tested files; "
                 "run scripts/readme_examples.py to copy them in")
    else:
        readme_path.write_text(new)
        print(f"README.md: rewrote the blocks of {', '.join(stale)}")


main()
