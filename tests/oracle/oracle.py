#!/usr/bin/env python3
"""PyTorch as the oracle: every case of samples/ through Porta, against PyTorch's answers.

  oracle.py record                  PyTorch's answers to every case -> answers.json.gz (needs torch:
                                    scripts/record-oracle.sh runs it from build/venv-bench)
  oracle.py replay [--device D]     Porta's answers on D (default cpu) against the recorded ones
  oracle.py replay --live           ... against an installed torch, run beside Porta in this process
  oracle.py coverage                every public name Porta shares with PyTorch has cases
  oracle.py list [--filter GLOB]    the case ids

replay exits 1 when a case differs from PyTorch's answer (or answers where PyTorch raises) and
neither docs/differences-from-pytorch.md (the deliberate differences) nor expected_failures/<device
type>.txt (the known bugs not fixed yet) lists it, and when a case listed as a known bug gives
PyTorch's answer now; --update-expected rewrites that file from this run. A case where Porta raises
and PyTorch answers is counted as missing, by call form. --filter GLOB keeps the cases whose ids match; --show N prints
N problems (default 40); --missing FILE writes the missing call forms, most cases first.
"""
import argparse
import collections
import faulthandler
import fnmatch
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import answers  # noqa: E402
import compare  # noqa: E402
import differences  # noqa: E402
import engine  # noqa: E402
import expected  # noqa: E402
import export_cpp  # noqa: E402
import names  # noqa: E402
import samples  # noqa: E402


def import_porta():
    """The porta package: this checkout's against build/lib/libporta.so (and the mock plugin), unless
    PORTA_TEST_INSTALLED=1 or PORTA_LIBRARY says otherwise."""
    if os.environ.get("PORTA_TEST_INSTALLED") != "1":
        lib = os.environ.setdefault("PORTA_LIBRARY", os.path.join(REPO, "build", "lib", "libporta.so"))
        mock = os.path.join(os.path.dirname(os.path.realpath(lib)), "porta", "test-plugins", "mock")
        os.environ.setdefault("PORTA_PLUGIN_PATH", mock)
        sys.path.insert(0, os.path.join(REPO, "bindings", "python"))
    import porta
    return porta


def on_device(device):
    """The cases that run on `device`: all on cpu, all but the cpu_only ones elsewhere."""
    cpu = device.split(":")[0] == "cpu"
    return [c for c in samples.all_cases() if cpu or not c.cpu_only]


def selected(args):
    cases = on_device(args.device)
    if args.filter:
        cases = [c for c in cases if fnmatch.fnmatchcase(c.id, args.filter)]
    return cases


def torch_answer(case, torch):
    """PyTorch's record of a case on the CPU, with the results that stay on the CPU whatever the device marked."""
    record = engine.run(case, torch, "cpu")
    if "error" not in record:
        engine.mark_host_results(record, engine.run(case, torch, "meta", read_values=False))
    return record


def cmd_record(args):
    import torch
    torch.set_num_threads(1)
    cases = samples.all_cases()
    start = time.time()
    data = {"torch": torch.__version__.split("+")[0], "digest": answers.digest(cases),
            "names": names.public_names(torch), "answers": {}}
    for c in cases:
        data["answers"][c.id] = torch_answer(c, torch)
    answers.save(data)
    export_cpp.export(cases, data)
    print(f"recorded PyTorch {data['torch']}'s answers to {len(cases)} cases in {time.time() - start:.0f} s: "
          f"{os.path.relpath(answers.PATH)} ({os.path.getsize(answers.PATH) / 1e6:.1f} MB)")


def cmd_replay(args):
    porta = import_porta()
    cases = selected(args)
    if args.live:
        import torch
        torch.set_num_threads(1)
        recorded = None
    else:
        data = answers.load()
        answers.check_fresh(data, samples.all_cases())
        recorded = data["answers"]
    table = differences.load()
    known = expected.load(args.device)
    tally = collections.Counter()
    missing_forms = collections.Counter()
    unlisted, listed_used, now_failing = [], set(), {}
    start = time.time()
    for c in cases:
        if args.verbose:
            print(c.id, flush=True)
        want = torch_answer(c, torch) if recorded is None else recorded[c.id]
        got = engine.run(c, porta, args.device)
        kind, problems = compare.outcome(want, got, c, args.device)
        if kind == "same":
            tally["same"] += 1
            if c.id in known:
                tally["fixed"] += 1
            continue
        pattern = differences.listed(table, c.id) if kind != "missing" else None  # a row never hides one
        if kind == "missing":
            tally["missing"] += 1
            missing_forms[c.form] += 1
        elif pattern is not None:
            tally["listed"] += 1
            listed_used.add(pattern)
        else:
            now_failing[c.id] = problems[0]
            if c.id in known:
                tally["known"] += 1
            else:
                tally["different"] += 1
                unlisted.append((c.id, problems))
    seconds = time.time() - start
    source = "an installed PyTorch" if recorded is None else f"PyTorch {data['torch']}'s recorded answers"
    print(f"oracle on {args.device}, against {source}: {len(cases)} cases in {seconds:.0f} s: {tally['same']} same, "
          f"{tally['missing']} missing ({len(missing_forms)} call forms), {tally['listed']} different and listed "
          f"in docs/differences-from-pytorch.md, {tally['known']} different and known (expected_failures/), "
          f"{tally['different']} different and not listed")
    if args.update_expected:
        expected.save(args.device, now_failing, [c.id for c in cases], [c.id for c in on_device(args.device)])
        print(f"wrote {expected.path(args.device)}: {len(now_failing)} known differences")
        return 0
    for case_id, problems in unlisted[:args.show]:
        print(f"DIFFERENT {case_id}\n    " + "\n    ".join(problems[:3]))
    if len(unlisted) > args.show:
        print(f"... and {len(unlisted) - args.show} more (--show N)")
    if args.missing:
        with open(args.missing, "w") as f:
            for form, n in missing_forms.most_common():
                f.write(f"{n}\t{form}\n")
    if not args.filter:
        every = samples.all_cases()  # a row may name cases of one device only (the cpu-only autocast ones)
        unmatched = [p for p, regex in table if not any(regex.match(c.id) for c in every)]
        for p in unmatched:
            print(f"docs/differences-from-pytorch.md lists `{p}`, which matches no case: fix or remove the row")
        if unmatched:
            return 1
    if tally["fixed"]:
        print(f"{tally['fixed']} cases listed in {expected.path(args.device)} now give PyTorch's answer: take them out "
              f"(oracle.py replay --device {args.device} --update-expected)")
    return 1 if unlisted or tally["fixed"] else 0


def cmd_coverage(args):
    porta = import_porta()
    recorded = answers.load()["names"]
    ours = names.public_names(porta)
    covered = {c.name for c in samples.all_cases()}
    uncovered = []
    for space, torch_names in recorded.items():
        for n in sorted(set(torch_names) & set(ours[space])):
            full = f"{space}.{n}"
            if full not in covered and full not in samples.NOT_COMPARED:
                uncovered.append(full)
    stale = sorted(n for n in samples.NOT_COMPARED if n in covered)
    shared = sum(len(set(recorded[s]) & set(ours[s])) for s in recorded)
    print(f"{shared} public names shared with PyTorch {answers.load()['torch']}: {len(covered)} with cases, "
          f"{len(samples.NOT_COMPARED)} not compared by value (their families' NOT_COMPARED say why)")
    for n in uncovered:
        print(f"NO SAMPLES: {n} is a public name of both Porta and PyTorch and no case calls it: add cases for it "
              "in tests/oracle/samples/ (or, when it returns nothing to compare, a reason in its family's NOT_COMPARED)")
    for n in stale:
        print(f"NOT_COMPARED lists {n}, which has cases now: remove it there")
    return 1 if uncovered or stale else 0


def cmd_list(args):
    for c in selected(args):
        print(c.id)
    return 0


def main():
    faulthandler.enable()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("record", "replay", "coverage", "list"))
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--live", action="store_true")
    parser.add_argument("--filter")
    parser.add_argument("--show", type=int, default=40)
    parser.add_argument("--missing")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--update-expected", action="store_true")
    args = parser.parse_args()
    return {"record": cmd_record, "replay": cmd_replay, "coverage": cmd_coverage, "list": cmd_list}[args.command](args)


if __name__ == "__main__":
    sys.exit(main() or 0)
