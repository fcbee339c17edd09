"""What a call returned, written down the same way for both libraries, as JSON-able data.

A tensor: its dtype name, shape, requires_grad, device ("@" for the device the case ran
on) and its values as base64 of their bytes (float16 and bfloat16 widened to float32,
exactly). Python numbers keep their type; sequences (tuples, lists, named tuples,
torch.return_types) become lists; a Size its ints; a dtype or device its name.
"""
import base64

import numpy as np

_STORE = {"float16": "float32", "bfloat16": "float32"}


def dtype_name(dt):
    return str(dt).replace("torch.", "").replace("porta.", "")


def encode_tensor(t, device, random):
    name = dtype_name(t.dtype)
    dev = str(t.device)
    record = {"dt": name, "shape": list(t.shape), "rg": bool(t.requires_grad), "dev": "@" if dev == device else dev}
    if not random:
        host = t.detach().cpu()
        if name in _STORE:
            host = host.float()
        arr = np.ascontiguousarray(host.numpy())
        record["v"] = base64.b64encode(arr.tobytes()).decode()
    return record


def encode(x, L, device, random=False):
    if isinstance(x, L.Tensor):
        return encode_tensor(x, device, random)
    if x is None:
        return None
    if isinstance(x, bool):
        return {"py": "bool", "v": x}
    if isinstance(x, int):
        return {"py": "int", "v": x}
    if isinstance(x, float):
        return {"py": "float", "v": x}
    if isinstance(x, str):
        return {"py": "str", "v": x}
    if isinstance(x, L.dtype):
        return {"dtype": dtype_name(x)}
    if isinstance(x, L.device):
        return {"device": "@" if str(x) == device else str(x)}
    if isinstance(x, L.Size):
        return {"size": [int(i) for i in x]}
    if isinstance(x, (list, tuple)):
        return {"seq": [encode(i, L, device, random) for i in x]}
    if isinstance(x, dict):
        return {"dict": {str(k): encode(v, L, device, random) for k, v in x.items()}}
    if isinstance(x, np.ndarray):  # numpy(): compared as a tensor of its values (NaN equal to NaN)
        if x.dtype == object:
            return {"object": "ndarray"}
        name = "bfloat16" if x.dtype.name == "bfloat16" else x.dtype.name
        values = x.astype(np.float32) if name in _STORE else x
        return {"ndarray": name, "dt": name, "shape": list(x.shape), "rg": False, "dev": "cpu",
                "v": base64.b64encode(np.ascontiguousarray(values).tobytes()).decode()}
    if isinstance(x, np.generic):
        return encode(x.item(), L, device, random)
    return {"object": type(x).__name__}


def decode_values(record):
    """The values of an encoded tensor as a NumPy array of its shape."""
    store = _STORE.get(record["dt"], record["dt"])
    arr = np.frombuffer(base64.b64decode(record["v"]), dtype=np.dtype(store))
    return arr.reshape(record["shape"])
