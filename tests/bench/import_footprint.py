#!/usr/bin/env python3
"""What `import X` plus a first cpu op costs: wall time and peak RSS, each case
in a fresh process (repeated; the median is reported), side by side in one run:

* porta, as it is: plugins load on first use (only the cpu plugin here);
* porta with every plugin loaded, as every import did before lazy loading
  (porta.plugins() first: CUDA with cuBLAS, PoCL with LLVM);
* porta built from another checkout, if --before LIBPORTA is given (its
  libporta.so and plugins, this checkout's Python package);
* torch (when importable).

Usage: import_footprint.py [--runs N] [--before /path/to/old/build/lib/libporta.so]
Prints a markdown table (ratios against torch).
"""
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "..", "..", "bindings", "python")

PROBE = """
import resource, sys, time
t0 = time.perf_counter()
{setup}
t1 = time.perf_counter()
maps = open('/proc/self/maps').read()
peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
libs = [n for n in ('libporta_plugin_cpu', 'libporta_plugin_cuda', 'libporta_plugin_opencl', 'libcublas', 'libLLVM')
        if n in maps]
print(f"{{(t1 - t0) * 1e3:.1f}} {{peak_kib}} {{','.join(libs) or '-'}}")
"""

CASES = {
    "porta (lazy: plugins on first use)": "import porta\n(porta.ones(2) + 1).sum().item()",
    "porta, every plugin loaded (as before)": "import porta\nporta.plugins()\n(porta.ones(2) + 1).sum().item()",
    "torch": "import torch\n(torch.ones(2) + 1).sum().item()",
}


def run(setup, env):
    out = subprocess.run([sys.executable, "-c", PROBE.format(setup=setup)], env=env, capture_output=True, text=True,
                         timeout=300)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    ms, kib, libs = out.stdout.split()
    return float(ms), int(kib), libs


def main():
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    before = sys.argv[sys.argv.index("--before") + 1] if "--before" in sys.argv else None
    env = dict(os.environ, PYTHONPATH=PACKAGE)
    env.pop("PORTA_PLUGIN_PATH", None)
    cases = dict(CASES)
    if before:
        cases["porta before lazy loading (--before)"] = "import porta\n(porta.ones(2) + 1).sum().item()"
    rows = []
    for name, setup in cases.items():
        case_env = dict(env, PORTA_LIBRARY=before) if name.endswith("(--before)") else env
        if name == "torch":
            try:
                run("import torch", case_env)
            except RuntimeError:
                continue
        results = [run(setup, case_env) for _ in range(runs)]
        rows.append((name, statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
                     results[-1][2]))
    torch_row = next((r for r in rows if r[0] == "torch"), None)
    print(f"{runs} fresh processes per case, medians; {sys.executable}\n")
    print("| case | import + first cpu op | peak RSS | vs torch (time, RSS) | libraries mapped |")
    print("|---|---|---|---|---|")
    for name, ms, kib, libs in rows:
        ratio = f"{ms / torch_row[1]:.2f}x, {kib / torch_row[2]:.2f}x" if torch_row else "-"
        print(f"| {name} | {ms:.0f} ms | {kib / 1024:.0f} MiB | {ratio} | {libs} |")


main()
