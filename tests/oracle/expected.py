"""The known differences not fixed yet, per device type: expected_failures/<type>.txt, one case id
per line, then a tab and the first problem found (for the reader). Like OpInfo's expected failures,
each must still fail: a case that now gives PyTorch's answer fails the replay until it is taken out,
so the list only shrinks. Deliberate differences belong in docs/differences-from-pytorch.md instead.
"""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected_failures")


def path(device):
    return os.path.join(HERE, device.split(":")[0] + ".txt")


def load(device):
    if not os.path.exists(path(device)):
        return set()
    with open(path(device), encoding="utf-8") as f:
        return {line.split("\t", 1)[0] for line in f if line.strip()}


def save(device, failing, ran, existing):
    """Rewrites the file: this run's failures, plus the known ones of existing cases this run did not run
    (--filter); a case that no longer exists leaves the file."""
    ran, existing = set(ran), set(existing)
    lines = {i: p for i, p in failing.items()}
    if os.path.exists(path(device)):
        with open(path(device), encoding="utf-8") as f:
            for line in f:
                case_id, _, problem = line.rstrip("\n").partition("\t")
                if case_id not in ran and case_id in existing:
                    lines[case_id] = problem
    os.makedirs(HERE, exist_ok=True)
    with open(path(device), "w", encoding="utf-8") as f:
        for case_id in sorted(lines):
            f.write(f"{case_id}\t{lines[case_id][:200]}\n")
