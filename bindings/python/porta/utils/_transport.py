"""Batches from a worker process to the loader, over the worker's pipe. The batch is pickled (any structure of
dicts, lists, namedtuples, numbers, strings, custom objects) with every tensor taken out of the stream: the pickle
carries each tensor's dtype and shape, and its bytes follow as raw messages, which the loader receives straight into
new tensors (one copy into Porta's memory, none through Python objects). A tensor of another device travels through
the host and is moved back to that device on arrival."""
import io
import pickle

import numpy as np

from .. import _dtype, _factories
from .._tensor import Tensor


def _arrived(t, device, requires_grad):
    """Called by the loader's unpickling with the tensor the bytes were received into."""
    if device != "cpu":
        t = t.to(device)
    return t.requires_grad_(True) if requires_grad else t


class _BatchPickler(pickle.Pickler):
    def __init__(self, file):
        super().__init__(file, protocol=5, buffer_callback=lambda _: False)
        self.specs, self.hosts = [], []

    def reducer_override(self, obj):
        if not isinstance(obj, Tensor):
            return NotImplemented
        if obj.requires_grad and not obj.is_leaf:
            raise RuntimeError("a DataLoader worker cannot send a non-leaf tensor that requires grad (autograd does "
                               "not cross processes); detach() it in the dataset or collate_fn")
        host = obj.detach().to("cpu").contiguous()
        self.specs.append((host.dtype.name, tuple(host.shape)))
        self.hosts.append(host)
        return _arrived, (pickle.PickleBuffer(_bytes_of(host)), str(obj.device), obj.requires_grad)


def _bytes_of(t):
    """A flat uint8 NumPy view of a contiguous cpu tensor's memory (zero-copy)."""
    return t.numpy().reshape(-1).view(np.uint8)


def send(conn, status, task, payload):
    """Sends (status, task, payload) to the loader, payload's tensors as raw messages after the pickle."""
    buf = io.BytesIO()
    pickler = _BatchPickler(buf)
    pickler.dump(payload)
    conn.send((status, task, pickler.specs, buf.getvalue()))
    for host in pickler.hosts:
        conn.send_bytes(_bytes_of(host))


def receive(conn):
    """(status, task, payload) sent by send(): each tensor's bytes received into a new cpu tensor."""
    status, task, specs, data = conn.recv()
    tensors = []
    for dtype_name, shape in specs:
        t = _factories.empty(shape, dtype=_dtype.by_name(dtype_name))
        flat = _bytes_of(t)
        n = conn.recv_bytes_into(flat) if flat.size else len(conn.recv_bytes())
        if n != flat.size:
            raise RuntimeError(f"DataLoader: a worker sent {n} bytes for a {dtype_name} tensor of shape {shape} "
                               f"({flat.size} bytes expected)")
        tensors.append(t)
    return status, task, pickle.loads(data, buffers=tensors)
