#!/usr/bin/env python3
"""What is left missing, by how often real programs use it: reads the missing call forms a replay wrote
(`oracle.py replay --missing FILE`: "count<TAB>form" lines) and counts, in a corpus of programs (.py files
and the Python blocks of .md files: nanoGPT, minGPT, pytorch/examples, d2l-en), the uses of each form's
name, then prints a Markdown table of the names, most used first.

    oracle.py replay --missing /tmp/missing.txt
    usage.py /tmp/missing.txt CORPUS_DIR [--top N]
"""
import argparse
import collections
import os
import re

_CODE_BLOCK = re.compile(r"```(?:\{\.python[^}]*\}|python)\n(.*?)```", re.S)


def corpus_text(root):
    """The Python source under root: .py files whole, .md files' Python blocks."""
    parts = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            path = os.path.join(dirpath, f)
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            if f.endswith(".py"):
                parts.append(text)
            elif f.endswith(".md"):
                parts.extend(_CODE_BLOCK.findall(text))
    return "\n".join(parts)


def uses(text, name):
    """How often `name` is called or named as torch.X, F.X, nn.X, optim.X, lr_scheduler.X or .X(."""
    space, _, attr = name.partition(".")
    attr = attr.split(".")[-1]
    if space == "Tensor":
        pattern = rf"\.{re.escape(attr)}\("
    else:
        pattern = rf"\b(?:torch|F|nn|functional|optim|lr_scheduler|init|utils)\.{re.escape(attr)}\b"
    return len(re.findall(pattern, text))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("missing")
    parser.add_argument("corpus")
    parser.add_argument("--top", type=int, default=60)
    args = parser.parse_args()
    forms = collections.defaultdict(list)  # name -> [(cases, form)]
    with open(args.missing, encoding="utf-8") as f:
        for line in f:
            count, _, form = line.rstrip("\n").partition("\t")
            forms[form.split("(")[0]].append((int(count), form))
    text = corpus_text(args.corpus)
    rows = sorted(((uses(text, name), name, sum(c for c, _ in fs), len(fs)) for name, fs in forms.items()),
                  key=lambda r: (-r[0], -r[2], r[1]))
    print("| name | uses in the corpus | missing cases | call forms | the most common missing form |")
    print("|---|---|---|---|---|")
    for used, name, cases, n in rows[:args.top]:
        top = max(forms[name])[1].replace("|", "\\|")
        print(f"| `{name}` | {used} | {cases} | {n} | `{top}` |")
    rest = rows[args.top:]
    if rest:
        print(f"\n... and {len(rest)} more names ({sum(r[2] for r in rest)} cases), each used "
              f"{max(r[0] for r in rest)} times or fewer.")


if __name__ == "__main__":
    main()
