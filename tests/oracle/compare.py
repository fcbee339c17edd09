"""Whether Porta's record of a case is PyTorch's: the same outcome (an answer, or an error),
and for an answer the same structure, dtypes, shapes, devices, requires_grad and values:
equal for integers, bool and value-moving ops; within torch.testing's per-dtype tolerances
(times the case's factor) for floats, NaN where NaN, inf where inf.
"""
import numpy as np

from encoding import decode_values

# (rtol, atol): torch.testing.assert_close's defaults
TOLERANCE = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
             "float64": (1e-7, 1e-7)}


def _values(expected, actual, where, case):
    e, a = decode_values(expected), decode_values(actual)
    if expected["dt"] not in TOLERANCE or case.exact:
        same = (e == a) | (np.isnan(e) & np.isnan(a)) if e.dtype.kind == "f" else e == a
    else:
        rtol, atol = TOLERANCE[expected["dt"]]
        rtol, atol = rtol * case.tol, atol * case.tol
        with np.errstate(invalid="ignore", over="ignore"):
            e64, a64 = e.astype(np.float64), a.astype(np.float64)
            same = (e64 == a64) | (np.isnan(e64) & np.isnan(a64)) | (np.abs(e64 - a64) <= atol + rtol * np.abs(e64))
    if same.all():
        return []
    bad = np.argwhere(~same)
    first = tuple(int(i) for i in bad[0])
    return [f"{where}: {len(bad)} of {e.size} values differ, first at {list(first)}: PyTorch {e[first]!r}, "
            f"Porta {a[first]!r}"]


def _tensor(expected, actual, where, case, device):
    for key, what in (("dt", "dtype"), ("shape", "shape"), ("rg", "requires_grad")):
        if expected[key] != actual[key]:
            return [f"{where}: {what} {actual[key]} where PyTorch gives {expected[key]}"]
    # "@" is the device the case ran on
    want_dev = "cpu" if case.host else device if expected["dev"] == "@" else expected["dev"]
    got_dev = device if actual["dev"] == "@" else actual["dev"]
    if want_dev != got_dev:
        return [f"{where}: device {got_dev} where PyTorch gives {want_dev}"]
    if "v" in expected and not case.random:
        return _values(expected, actual, where, case)
    return []


def _kind(x):
    if x is None:
        return "None"
    if "dt" in x:
        return "tensor"
    if "py" in x:
        return x["py"]
    return next(iter(x))


def diff(expected, actual, case, device, where="result"):
    """The differences between two encoded values, as sentences (none: the same)."""
    ke, ka = _kind(expected), _kind(actual)
    if ke != ka:
        return [f"{where}: {ka} where PyTorch gives {ke} ({_short(expected)})"]
    if ke == "None":
        return []
    if ke == "tensor":
        return _tensor(expected, actual, where, case, device)
    if ke == "seq":
        if len(expected["seq"]) != len(actual["seq"]):
            return [f"{where}: {len(actual['seq'])} items where PyTorch gives {len(expected['seq'])}"]
        out = []
        for i, (e, a) in enumerate(zip(expected["seq"], actual["seq"])):
            out += diff(e, a, case, device, f"{where}[{i}]")
        return out
    if ke == "dict":
        if expected["dict"].keys() != actual["dict"].keys():
            return [f"{where}: keys {sorted(actual['dict'])} where PyTorch gives {sorted(expected['dict'])}"]
        out = []
        for k in expected["dict"]:
            out += diff(expected["dict"][k], actual["dict"][k], case, device, f"{where}[{k!r}]")
        return out
    if ke == "float":
        e, a = expected["v"], actual["v"]
        rtol, atol = TOLERANCE["float32"]
        if e == a or (e != e and a != a) or abs(e - a) <= (atol + rtol * abs(e)) * case.tol:
            return []
        return [f"{where}: {a!r} where PyTorch gives {e!r}"]
    if ke == "device":
        want = device if expected["device"] == "@" else expected["device"]
        got = device if actual["device"] == "@" else actual["device"]
        return [] if want == got else [f"{where}: device {got} where PyTorch gives {want}"]
    if ke == "object":
        return []  # an object of the library's own type (a module, a grad_fn): compared by the program
    if expected != actual:
        return [f"{where}: {_short(actual)} where PyTorch gives {_short(expected)}"]
    return []


def _short(x):
    text = repr(x.get("v", x) if isinstance(x, dict) and "dt" not in x else x)
    return text if len(text) < 120 else text[:117] + "..."


# Ops whose order among equal values PyTorch leaves unspecified (its docs: topk's and kthvalue's indices among
# ties, topk's order with sorted=False): their values are compared, in order unless sorted=False, and the
# indices only where the values differ. docs/differences-from-pytorch.md says so.
TIE_ORDER_UNSPECIFIED = ("torch.topk", "Tensor.topk", "torch.kthvalue", "Tensor.kthvalue")


def _without_tie_order(record, case):
    if case.name not in TIE_ORDER_UNSPECIFIED or "r" not in record or not isinstance(record["r"], dict):
        return record
    pair = record["r"].get("seq")
    if not pair or len(pair) != 2 or not isinstance(pair[0], dict) or "v" not in pair[0]:
        return record
    values = pair[0]
    if case.kwargs.get("sorted") is False or (case.name.endswith("topk") and len(case.args) >= 5
                                               and case.args[4] is False):
        arr = np.sort(decode_values(values), axis=-1)  # NaN last
        store = arr.astype(np.float32) if values["dt"] in ("float16", "bfloat16") else arr
        import base64
        values = dict(values, v=base64.b64encode(np.ascontiguousarray(store).tobytes()).decode())
    return dict(record, r={"seq": [values, {"dt": pair[1]["dt"], "shape": pair[1]["shape"], "rg": pair[1]["rg"],
                                            "dev": pair[1]["dev"]}]})


def outcome(expected, actual, case, device):
    """("same" | "missing" | "different", [sentences]) for a case's two records."""
    expected, actual = _without_tie_order(expected, case), _without_tie_order(actual, case)
    if "error" in expected:
        if "error" in actual:
            return "same", []
        return "different", [f"Porta answers where PyTorch raises {expected['error']}: {expected['msg']}"]
    if "error" in actual:
        return "missing", [f"{actual['error']}: {actual['msg']}"]
    problems = diff(expected["r"], actual["r"], case, device)
    if "after" in expected:
        problems += diff({"seq": expected["after"]}, {"seq": actual.get("after", [])}, case, device, "arguments after")
    if "g" in expected:
        e, a = expected["g"], actual.get("g")
        if isinstance(e, dict) and "error" in e:
            if not (isinstance(a, dict) and "error" in a):
                problems.append(f"backward: Porta answers where PyTorch raises {e['error']}: {e['msg']}")
        elif isinstance(a, dict) and "error" in a:
            return "missing", [f"backward: {a['error']}: {a['msg']}"]
        else:
            problems += diff({"seq": e}, {"seq": a}, case, device, "gradients")
    return ("different" if problems else "same"), problems
