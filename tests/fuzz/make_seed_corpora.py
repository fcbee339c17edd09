#!/usr/bin/env python3
"""Writes the generated seed inputs of corpus/<harness>/ (small valid files
and edge cases, in each harness's input format). Regression inputs
(regression-*) are kept by hand and never touched. Run from anywhere:
python3 tests/fuzz/make_seed_corpora.py"""
import gzip
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(harness, name, data):
    d = os.path.join(HERE, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def device_strings():
    for name, text in {"cpu": "cpu", "cpu-0": "cpu:0", "cpu-1": "cpu:1", "cuda-1": "cuda:1",
                       "leading-zero": "cpu:00", "empty": "", "no-type": ":0", "upper": "CPU",
                       "negative": "cpu:-1", "huge-index": "cpu:99999999999", "no-index": "cpu:",
                       "underscore": "my_npu2:3", "long-type": "a" * 40, "two-colons": "cpu:0:1",
                       "nul-inside": "cpu\0:1"}.items():
        write("fuzz_device_string", name, text)


def small(v):  # FuzzInput::take_mostly_small: one byte below 16, or 0x80 then an int64
    return bytes([v]) if 0 <= v < 16 else b"\x80" + struct.pack("<q", v)


def dlpack(mode=0, major=None, minor=None, flags=None, shape=(), strides=None, dtype=0, offset=0,
           device=None, null_shape=False, null_data=False):
    out = bytes([mode])
    if mode & 2: out += struct.pack("<I", major)
    if mode & 4: out += struct.pack("<I", minor)
    if mode & 8: out += struct.pack("<Q", flags)
    layout = (1 if strides is not None else 0) | (2 if device else 0) | (4 if null_shape else 0) | (8 if null_data else 0)
    out += struct.pack("<bB", len(shape), layout)
    out += b"".join(small(s) for s in shape)
    if strides is not None: out += b"".join(small(s) for s in strides)
    out += (dtype if isinstance(dtype, bytes) else bytes([dtype])) + small(offset)
    if device: out += struct.pack("<ii", *device)
    return out


def dlpack_seeds():
    seeds = {
        "float32-2x3": dlpack(shape=(2, 3)),
        "int64-strided": dlpack(shape=(3, 2), strides=(1, 3), dtype=3),
        "legacy": dlpack(mode=1, shape=(4,), dtype=2),
        "foreign-major": dlpack(mode=2, major=2, shape=(2,)),
        "newer-minor": dlpack(mode=4, minor=99, shape=(2,)),
        "read-only": dlpack(mode=8, flags=1, shape=(2, 2), dtype=1),
        "scalar": dlpack(dtype=4),
        "zero-size": dlpack(shape=(0, 5), null_data=True),
        "huge-stride": dlpack(shape=(2, 2), strides=(2**62, 1)),
        "misaligned": dlpack(shape=(2,), offset=1),
        "byte-offset": dlpack(shape=(3,), dtype=5, offset=3),
        "other-device": dlpack(shape=(2,), device=(2, 0)),
        "cpu-index-1": dlpack(shape=(2,), device=(1, 1)),
        "broadcast": dlpack(shape=(15, 15), strides=(0, 0)),
        "null-data": dlpack(shape=(2,), null_data=True),
        "null-shape": dlpack(shape=(2,), null_shape=True),
        "negative-shape": dlpack(shape=(-1,)),
        "float16": dlpack(shape=(2,), dtype=b"\xf5\x02\x10\x01\x00"),  # pick >= 0xF0, code 2, 16 bits, 1 lane
        "float8": dlpack(shape=(2,), dtype=b"\xf5\x02\x08\x01\x00"),
        "float32x4-lanes": dlpack(shape=(2,), dtype=b"\xf5\x02\x20\x04\x00"),
    }
    for name, data in seeds.items():
        write("fuzz_dlpack_import", name, data)


def safetensors(header, data=b""):
    h = json.dumps(header).encode() if not isinstance(header, bytes) else header
    return struct.pack("<Q", len(h)) + h + data


def safetensors_seeds():
    f32 = struct.pack("<4f", 1, 2, 3, 4)
    i64 = struct.pack("<3q", -1, 0, 7)
    two = {"__metadata__": {"format": "pt"},
           "w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
           "n": {"dtype": "I64", "shape": [3], "data_offsets": [16, 40]}}
    write("fuzz_safetensors", "two-tensors", safetensors(two, f32 + i64))
    write("fuzz_safetensors", "empty-header", safetensors({}))
    write("fuzz_safetensors", "bool", safetensors({"b": {"dtype": "BOOL", "shape": [3], "data_offsets": [0, 3]}}, b"\x01\x00\x01"))
    write("fuzz_safetensors", "bad-bool", safetensors({"b": {"dtype": "BOOL", "shape": [1], "data_offsets": [0, 1]}}, b"\x02"))
    write("fuzz_safetensors", "scalar-u8", safetensors({"s": {"dtype": "U8", "shape": [], "data_offsets": [0, 1]}}, b"\x05"))
    write("fuzz_safetensors", "zero-size", safetensors({"z": {"dtype": "F64", "shape": [0, 3], "data_offsets": [0, 0]}}))
    write("fuzz_safetensors", "unsupported-dtype", safetensors({"h": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]}}, b"\0\0"))
    write("fuzz_safetensors", "truncated", safetensors(two, f32))
    write("fuzz_safetensors", "overlap", safetensors({"a": {"dtype": "I32", "shape": [1], "data_offsets": [0, 4]},
                                                      "b": {"dtype": "I32", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4))
    write("fuzz_safetensors", "huge-header-length", struct.pack("<Q", 2**63) + b"{}")
    write("fuzz_safetensors", "short", b"\x02\x00\x00")
    # The header's JSON (core/src/io/json.cpp over nlohmann-json): exact int64s, limits, bytes JSON refuses.
    one = lambda offsets: b'{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,' + offsets + b']}}'
    write("fuzz_safetensors", "json-int-2p53-plus-1", safetensors(one(b"9007199254740993"), b"\0" * 8))
    write("fuzz_safetensors", "json-int64-overflow", safetensors(one(b"9223372036854775808"), b"\0" * 8))
    write("fuzz_safetensors", "json-exponent", safetensors(one(b"8e0"), b"\0" * 8))
    write("fuzz_safetensors", "json-leading-zero", safetensors(one(b"08"), b"\0" * 8))
    write("fuzz_safetensors", "json-deep", safetensors(b"[" * 70 + b"]" * 70))
    write("fuzz_safetensors", "json-duplicate-key", safetensors(b'{"__metadata__":{"k":"a","k":"b"}}'))
    write("fuzz_safetensors", "json-nul-after-value", safetensors(b'{}\0{"w":1}'))
    write("fuzz_safetensors", "json-bom", safetensors(b"\xef\xbb\xbf{}"))
    write("fuzz_safetensors", "json-bad-utf8-name", safetensors(b'{"w\xed\xa0\x80":1}'))
    write("fuzz_safetensors", "json-escaped-name",
          safetensors(b'{"q\\"\\u00e9\\ud83d\\ude00\\n":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', b"\x07"))


def idx(type_code, shape, payload):
    return bytes([0, 0, type_code, len(shape)]) + b"".join(struct.pack(">I", d) for d in shape) + payload


def idx_seeds():
    files = {
        "ubyte-2x3": idx(0x08, (2, 3), bytes(range(6))),
        "sbyte": idx(0x09, (2,), b"\xff\x01"),
        "short": idx(0x0B, (2,), struct.pack(">2h", -2, 300)),
        "int": idx(0x0C, (1, 2), struct.pack(">2i", -5, 9)),
        "float-2x2": idx(0x0D, (2, 2), struct.pack(">4f", 1.5, -2, 0, 3)),
        "double": idx(0x0E, (1,), struct.pack(">d", 2.25)),
        "truncated": idx(0x08, (4,), b"\x01\x02"),
        "trailing": idx(0x08, (1,), b"\x01\x02"),
        "bad-magic": b"\x01\x00\x08\x01\x00\x00\x00\x01\x00",
        "bad-type": idx(0x0A, (1,), b"\x00"),
        "zero-dims": bytes([0, 0, 8, 0]),
        "huge-shape": idx(0x0E, (0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF), b""),
        "zero-size": idx(0x0C, (0, 3), b""),
    }
    for name, data in files.items():
        write("fuzz_idx", name, b"\x00" + data)               # written as is
        write("fuzz_idx", name + ".gz", b"\x01" + data)       # gzip-compressed by the harness
    write("fuzz_idx", "raw-gzip-file", b"\x00" + gzip.compress(files["ubyte-2x3"], mtime=0))
    write("fuzz_idx", "raw-gzip-truncated", b"\x00" + gzip.compress(files["float-2x2"], mtime=0)[:-6])


def cifar10_seeds():
    record = lambda label: bytes([label]) + bytes(i % 256 for i in range(3072))
    write("fuzz_cifar10", "one-record", b"\x00" + record(3))
    write("fuzz_cifar10", "two-records.gz", b"\x01" + record(0) + record(9))
    write("fuzz_cifar10", "bad-label", b"\x00" + record(10))
    write("fuzz_cifar10", "partial-record", b"\x00" + record(1)[:100])
    write("fuzz_cifar10", "empty", b"\x00")
    write("fuzz_cifar10", "raw-gzip-file", b"\x00" + gzip.compress(record(5), mtime=0))


def plugin_table(size_pick=0, choices=0, major=None, minor=1, device_type=1, null_slots=0, name=b"cpu",
                 version=b"1.0", size=None):
    out = bytes([size_pick])
    if size_pick == 3: out += bytes([size])
    if size_pick == 4: out += struct.pack("<H", size)
    out += bytes([choices])
    if choices & 1: out += struct.pack("<I", major)
    out += struct.pack("<I", minor)
    out += struct.pack("<i", device_type) if choices & 2 else bytes([device_type])
    return out + struct.pack("<H", null_slots) + name + b"\0" + version + b"\0"


def plugin_table_seeds():
    seeds = {
        "valid": plugin_table(),
        "valid-1.0-size": plugin_table(size_pick=1),
        "larger-newer-table": plugin_table(size_pick=3, size=16),
        "header-only": plugin_table(size_pick=2),
        "tiny": plugin_table(size_pick=4, size=4),
        "odd-size": plugin_table(size_pick=4, size=100),
        "wrong-major": plugin_table(choices=1, major=99),
        "missing-initialize": plugin_table(null_slots=1),
        "pinned-without-free": plugin_table(null_slots=1 << 13),
        "bad-name": plugin_table(name=b"CPU"),
        "long-name": plugin_table(name=b"a" * 40),
        "null-name": plugin_table(choices=4),
        "null-version": plugin_table(choices=8),
        "device-type-0": plugin_table(device_type=0),
        "device-type-huge": plugin_table(choices=2, device_type=1 << 30),
    }
    for name, data in seeds.items():
        write("fuzz_plugin_table", name, data)


if __name__ == "__main__":
    device_strings()
    dlpack_seeds()
    safetensors_seeds()
    idx_seeds()
    cifar10_seeds()
    plugin_table_seeds()
