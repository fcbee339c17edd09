"""Writers of small, synthetic dataset files in the standard formats (IDX, CIFAR-10 binary)."""
import gzip
import os
import struct

import numpy as np


def write_idx(path, array, compress=False):
    """An IDX file of uint8 `array` (MNIST's format); gzip-compressed when asked."""
    array = np.ascontiguousarray(array, dtype=np.uint8)
    header = bytes([0, 0, 0x08, array.ndim]) + struct.pack(f">{array.ndim}i", *array.shape)
    opener = gzip.open if compress else open
    with opener(path, "wb") as f:
        f.write(header + array.tobytes())


def write_mnist(root, n=20, train=True, compress=False, seed=0):
    """{split}-images-idx3-ubyte and {split}-labels-idx1-ubyte in root; returns (images, labels)."""
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
    labels = (np.arange(n) % 10).astype(np.uint8)
    split = "train" if train else "t10k"
    suffix = ".gz" if compress else ""
    os.makedirs(root, exist_ok=True)
    write_idx(os.path.join(root, f"{split}-images-idx3-ubyte{suffix}"), images, compress)
    write_idx(os.path.join(root, f"{split}-labels-idx1-ubyte{suffix}"), labels, compress)
    return images, labels


def cifar_images(labels, seed=0):
    """Learnable 3 x 32 x 32 uint8 images: class k is a bright square at a class-specific
    place on a noisy background."""
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 60, size=(len(labels), 3, 32, 32), dtype=np.uint8)
    for i, k in enumerate(labels):
        r, c = divmod(int(k), 4)
        images[i, k % 3, 8 * r:8 * r + 8, 8 * c:8 * c + 8] = 255
    return images


def write_cifar10(root, per_batch=8, classes=10, seed=0):
    """root/cifar-10-batches-bin/{data_batch_1..5,test_batch}.bin; returns the training labels."""
    folder = os.path.join(root, "cifar-10-batches-bin")
    os.makedirs(folder, exist_ok=True)
    all_labels = []
    for b, name in enumerate([f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]):
        labels = np.arange(b * per_batch, (b + 1) * per_batch) % classes
        images = cifar_images(labels, seed + b)
        records = np.concatenate([labels.astype(np.uint8)[:, None], images.reshape(per_batch, -1)], axis=1)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(records.tobytes())
        if name != "test_batch.bin":
            all_labels.extend(int(v) for v in labels)
    return all_labels
