#!/usr/bin/env python3
"""Copies a cuda plugin source for the CUDA emulator, rewriting each launch

    kernel<Args...><<<grid, block, shared, stream>>>(arg0, arg1, ...)

as a call g++ understands (tests/cuda_emulator/include/cuda_runtime.h):

    ::cuda_emulator::launch(::cuda_emulator::Config(grid, block, shared, stream), "kernel<Args...>",
                            [](auto... cuda_emulator_args) { kernel<Args...>(cuda_emulator_args...); }, arg0, arg1, ...)

Line numbers are kept (a #line directive names the original file, and the
newlines a rewritten launch spanned follow it), so compiler errors point at
plugins/cuda. Usage: translate_launches.py SOURCE OUTPUT
"""
import os
import re
import sys


def kernel_start(src, end):
    """Index where the kernel expression ending just before `end` begins."""
    k = end
    if src[k - 1] == ">":  # template arguments: walk back to the matching '<'
        depth = 0
        while True:
            k -= 1
            if src[k] == ">":
                depth += 1
            elif src[k] == "<":
                depth -= 1
                if depth == 0:
                    break
    while k > 0 and (src[k - 1].isalnum() or src[k - 1] in "_:"):
        k -= 1
    return k


def matching_paren(src, open_at):
    depth = 0
    for q in range(open_at, len(src)):
        if src[q] == "(":
            depth += 1
        elif src[q] == ")":
            depth -= 1
            if depth == 0:
                return q
    raise SystemExit(f"unbalanced parentheses in the launch at offset {open_at}")


def rewrite(src):
    out, i, launches = [], 0, 0
    while (j := src.find("<<<", i)) >= 0:
        end = j
        while src[end - 1].isspace():
            end -= 1
        start = kernel_start(src, end)
        kernel = src[start:end]
        close = src.index(">>>", j)
        config = src[j + 3:close]
        p = close + 3
        while src[p].isspace():
            p += 1
        if src[p] != "(":
            raise SystemExit(f"expected '(' after '>>>' in the launch of {kernel}")
        q = matching_paren(src, p)
        args = src[p + 1:q]
        name = re.sub(r"\s+", " ", kernel)
        launch = (f'::cuda_emulator::launch(::cuda_emulator::Config({config}), "{name}", '
                  f"[](auto... cuda_emulator_args) {{ {kernel}(cuda_emulator_args...); }}")
        if args.strip():
            launch += f", {args}"
        launch += ")"
        newlines = src.count("\n", start, q + 1)
        out.append(src[i:start])
        out.append(launch.replace("\n", " ") + "\n" * newlines)
        i = q + 1
        launches += 1
    out.append(src[i:])
    return "".join(out), launches


def main():
    source, output = sys.argv[1], sys.argv[2]
    with open(source, encoding="utf-8") as f:
        text, _ = rewrite(f.read())
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "w", encoding="utf-8") as f:
        f.write(f'#line 1 "{source}"\n{text}')


if __name__ == "__main__":
    main()
