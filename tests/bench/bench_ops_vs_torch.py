#!/usr/bin/env python3
"""The ABI 1.4 to 1.6 ops against PyTorch on the CPU, each library in its own
process (their thread pools would fight), at sizes a transformer or an
embedding layer uses: gather, index_select, embedding forward + backward,
cumsum, sort and topk (logits of a 50k vocabulary), bmm, layer_norm,
scaled_dot_product_attention (causal); and 1.6's: a training step (forward
and backward) of docs/examples/char_lstm.py's model, a GRU forward, a
depthwise convolution, bilinear upsampling and reflect padding; and a
training step of docs/examples/char_gpt.py's transformer and of
resnet_fashion_mnist.py's ResNet (the example files themselves, their
import lines swapped for torch's on the PyTorch side); and 1.7's: a DCGAN-style
transposed convolution (forward + backward), einsum as attention spells it,
cummax, searchsorted of 100k values and ceil-mode max pooling; and an epoch of a
DataLoader with two worker processes (started, loading and sending batches back).

Usage: python3 tests/bench/bench_ops_vs_torch.py [--quick] [--only TEXT] [--rounds N]   (run by hand
or by scripts/bench.sh's venv, which has torch; prints a markdown table of ratios
torch time / porta time: above 1 means Porta is faster).
The two libraries run in turn, case by case: N rounds (default 3), each a
Porta process then a PyTorch one for every case. On a shared machine whose
speed drifts by 10-40% within minutes, each round's ratio compares times
taken seconds apart, and the table gives the median of the rounds' ratios and
their range (the times are the medians of each library's best-of-runs).
Internal: python3 bench_ops_vs_torch.py --run porta|torch [--quick] [--case NAME]
prints JSON; --list prints the case names.
"""
import json
import os
import subprocess
import sys
import timeit
from statistics import median

QUICK = "--quick" in sys.argv
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""  # the cases whose name has it
CASE = sys.argv[sys.argv.index("--case") + 1] if "--case" in sys.argv else None  # internal: this case alone
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3


EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "examples")
PORTA_IMPORTS = "import porta as torch\nimport porta.nn as nn\nimport porta.nn.functional as F\n"
TORCH_IMPORTS = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


def example(lib, filename):
    """docs/examples/<filename> as a module over `lib`: on torch its three import lines are swapped for torch's
    and `from porta import datasets` (data loading, which the benchmarks do not use) is dropped."""
    with open(os.path.join(EXAMPLES, filename)) as f:
        source = f.read()
    assert PORTA_IMPORTS in source
    if lib.__name__ == "torch":
        source = source.replace(PORTA_IMPORTS, TORCH_IMPORTS).replace("from porta import datasets\n", "")
    namespace = {"__name__": filename[:-3]}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102
    return namespace


def cases(lib):
    """name -> (setup, run) for `lib`, a module with torch's spelling (torch or porta)."""
    f = lib.nn.functional
    lib.manual_seed(0)
    big = lib.randn(4096, 512)
    idx_rows = lib.randint(0, 4096, (8192,))
    gather_idx = lib.randint(0, 512, (4096, 256))
    weight = lib.randn(5000, 256, requires_grad=True)
    tokens = lib.randint(0, 5000, (64, 128))
    seq = lib.randn(64, 4096)
    logits = lib.randn(64, 50000)
    a, b = lib.randn(32, 128, 64), lib.randn(32, 64, 128)
    x = lib.randn(64, 128, 512)
    w, bias = lib.ones(512), lib.zeros(512)
    q, k, v = (lib.randn(8, 8, 128, 64) for _ in range(3))

    def embedding_step():
        out = f.embedding(tokens, weight)
        out.sum().backward()
        weight.grad = None

    # docs/examples/char_lstm.py's model and batch: 76 characters, embedding 32, 2 x LSTM(128), [32, 64] tokens.
    embed, lstm, head = lib.nn.Embedding(76, 32), lib.nn.LSTM(32, 128, num_layers=2, batch_first=True), \
        lib.nn.Linear(128, 76)
    chars, targets = lib.randint(0, 76, (32, 64)), lib.randint(0, 76, (32 * 64,))
    gru, gru_in = lib.nn.GRU(128, 128), lib.randn(64, 32, 128)
    images, depthwise = lib.randn(8, 32, 32, 32), lib.randn(32, 1, 3, 3)
    maps = lib.randn(8, 32, 64, 64)

    def lstm_step():
        logits = head(lstm(embed(chars))[0])
        f.cross_entropy(logits.reshape(-1, 76), targets).backward()
        for p in [*embed.parameters(), *lstm.parameters(), *head.parameters()]:
            p.grad = None

    # docs/examples/char_gpt.py's model and batch: 2 blocks of width 64, 4 heads, [32, 64] tokens.
    gpt_example = example(lib, "char_gpt.py")
    gpt = gpt_example["GPT"](gpt_example["Config"](76))
    gpt_x, gpt_y = lib.randint(0, 76, (32, 64)), lib.randint(0, 76, (32, 64))

    def gpt_step():
        gpt(gpt_x, gpt_y)[1].backward()
        for p in gpt.parameters():
            p.grad = None

    # docs/examples/resnet_fashion_mnist.py's model and batch: [128, 1, 28, 28] images.
    resnet = example(lib, "resnet_fashion_mnist.py")["ResNet"]()
    resnet_images, labels = lib.randn(128, 1, 28, 28), lib.randint(0, 10, (128,))

    def resnet_step():
        f.cross_entropy(resnet(resnet_images), labels).backward()
        for p in resnet.parameters():
            p.grad = None

    up_in = lib.randn(16, 64, 16, 16, requires_grad=True)
    up_w = lib.randn(64, 32, 4, 4, requires_grad=True)

    def conv_transpose_step():
        f.conv_transpose2d(up_in, up_w, stride=2, padding=1).sum().backward()
        up_in.grad = up_w.grad = None

    boundaries, queries = lib.linspace(-3, 3, 1000), lib.randn(100000)
    pooled = lib.randn(8, 32, 63, 63)

    def gru_forward():
        with lib.no_grad():
            gru(gru_in)

    class Images(lib.utils.data.Dataset):  # Fashion-MNIST-sized items, normalized per item as a transform would
        def __init__(self):
            self.pixels, self.labels = lib.rand(2048, 1, 28, 28), lib.randint(0, 10, (2048,))

        def __len__(self):
            return 2048

        def __getitem__(self, i):
            return (self.pixels[i] - 0.5) / 0.25, self.labels[i]
    images_loader = lib.utils.data.DataLoader(Images(), batch_size=64, num_workers=2)

    return {
        "gather [4096, 512] by [4096, 256]": lambda: big.gather(1, gather_idx),
        "index_select 8192 rows of [4096, 512]": lambda: big.index_select(0, idx_rows),
        "embedding [5000, 256] x [64, 128], forward + backward": embedding_step,
        "cumsum [64, 4096] along dim 1": lambda: seq.cumsum(1),
        "sort [64, 4096] along dim 1": lambda: seq.sort(1),
        "topk 50 of [64, 50000]": lambda: logits.topk(50),
        "bmm [32, 128, 64] @ [32, 64, 128]": lambda: lib.bmm(a, b),
        "layer_norm [64, 128, 512]": lambda: f.layer_norm(x, (512,), w, bias),
        "scaled_dot_product_attention [8, 8, 128, 64], causal":
            lambda: f.scaled_dot_product_attention(q, k, v, is_causal=True),
        "char LSTM training step [32, 64] tokens, 2 x 128": lstm_step,
        "char GPT training step [32, 64] tokens, 2 blocks x 64": gpt_step,
        "ResNet training step [128, 1, 28, 28], 16-32-64 channels": resnet_step,
        "GRU(128, 128) forward [64, 32, 128]": gru_forward,
        "depthwise conv2d [8, 32, 32, 32], 3x3, groups 32":
            lambda: f.conv2d(images, depthwise, padding=1, groups=32),
        "interpolate bilinear [8, 32, 64, 64] to 128x128":
            lambda: f.interpolate(maps, scale_factor=2, mode="bilinear"),
        "pad reflect [8, 32, 64, 64] by 2": lambda: f.pad(maps, (2, 2, 2, 2), mode="reflect"),
        "conv_transpose2d [16, 64, 16, 16] to 32 x 32x32, 4x4 stride 2, forward + backward": conv_transpose_step,
        "einsum bhqd,bhkd->bhqk [8, 8, 128, 64]": lambda: lib.einsum("bhqd,bhkd->bhqk", q, k),
        "cummax [64, 4096] along dim 1": lambda: seq.cummax(1),
        "searchsorted 100000 values in 1000 boundaries": lambda: lib.searchsorted(boundaries, queries),
        "max_pool2d ceil_mode [8, 32, 63, 63], 2x2": lambda: f.max_pool2d(pooled, 2, ceil_mode=True),
        "DataLoader epoch: 2048 items [1, 28, 28], batch 64, 2 worker processes": lambda: list(images_loader),
    }


def import_library(which):
    if which == "torch":
        import torch as lib
    else:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python"))
        import porta as lib
    lib.set_num_threads(THREADS)
    return lib


def run(which):
    lib = import_library(which)
    out = {}
    for name, fn in cases(lib).items():
        if ONLY not in name or (CASE is not None and name != CASE):
            continue
        fn()  # warm up
        number = 3 if QUICK else 10
        out[name] = min(timeit.repeat(fn, number=number, repeat=3 if QUICK else 7)) / number * 1e3
    print(json.dumps(out))


def child(args):
    """This script run with `args`; the JSON its last line prints."""
    r = subprocess.run([sys.executable, __file__] + args, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"{' '.join(args[:2])} failed:\n{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    if "--run" in sys.argv:
        return run(sys.argv[sys.argv.index("--run") + 1])
    if "--list" in sys.argv:
        return print(json.dumps([name for name in cases(import_library("porta")) if ONLY in name]))
    extra = (["--quick"] if QUICK else []) + (["--only", ONLY] if ONLY else [])
    names = child(["--list"] + extra)
    times = {name: {"porta": [], "torch": []} for name in names}
    for _ in range(ROUNDS):
        for name in names:
            for which in ("porta", "torch"):
                times[name][which] += child(["--run", which] + extra + ["--case", name]).values()
    print(f"| op ({THREADS} threads, {ROUNDS} rounds, ms) | Porta | PyTorch | PyTorch / Porta (median) "
          "| rounds' range |")
    print("|---|---:|---:|---:|---|")
    for name, t in times.items():
        ratios = [b / a for a, b in zip(t["porta"], t["torch"])]
        print(f"| {name} | {median(t['porta']):.3f} | {median(t['torch']):.3f} | {median(ratios):.2f}x | "
              f"{min(ratios):.2f}-{max(ratios):.2f}x |")


if __name__ == "__main__":
    main()
