"""porta.datasets: MNIST, FashionMNIST and CIFAR10 read from the standard files
in `root` (IDX files, gzip or not; the CIFAR-10 binary version). Porta never
downloads: put the files there first."""
import os
from ctypes import byref, c_void_p

from ._convert import host_array
from ._errors import check
from ._factories import from_numpy
from ._lib import fn
from ._tensor import wrap
from .utils.data import Dataset


def _not_found(cls, root, tried, download, what):
    how = ("download=True is not supported: Porta never downloads. " if download else "") + \
        f"Put {what} in one of those directories"
    return RuntimeError(f"{cls}: dataset not found under {root!r}; looked for:\n  " + "\n  ".join(tried) +
                        f"\n{how}.")


class _ImageDataset(Dataset):
    def __getitem__(self, index):
        img, target = self.data_array[index], self._targets[index]
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __len__(self):
        return len(self._targets)

    @property
    def targets(self):
        """The labels as a list of ints."""
        return self._targets

    def __repr__(self):
        return (f"Dataset {type(self).__name__}\n    Number of datapoints: {len(self)}\n    Root location: "
                f"{self.root}\n    Split: {'Train' if self.train else 'Test'}")


def _read_idx(path):
    out = c_void_p()
    check(fn.porta_read_idx(os.fsencode(path), byref(out)))
    return host_array(wrap(out))


class MNIST(_ImageDataset):
    """MNIST from {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz] in root, root/MNIST/raw or root/MNIST.
    Samples are (H x W uint8 NumPy image, int label) before transforms."""

    classes = [f"{i} - {w}" for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])]

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        self.root = os.path.expanduser(str(root))
        self.train, self.transform, self.target_transform = train, transform, target_transform
        split = "train" if train else "t10k"
        name = type(self).__name__
        dirs = [os.path.join(self.root, name, "raw"), os.path.join(self.root, name), self.root]
        files = {}
        tried = []
        for kind, stem in (("images", f"{split}-images-idx3-ubyte"), ("labels", f"{split}-labels-idx1-ubyte")):
            for d in dirs:
                for candidate in (os.path.join(d, stem), os.path.join(d, stem + ".gz")):
                    if os.path.isfile(candidate):
                        files[kind] = candidate
                        break
                    tried.append(candidate)
                if kind in files:
                    break
        if len(files) < 2:
            raise _not_found(name, self.root, tried, download, f"the {name} IDX files ({split}-*-ubyte[.gz])")
        images, labels = _read_idx(files["images"]), _read_idx(files["labels"])
        if images.ndim != 3 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
            raise RuntimeError(f"{name}: the files in {self.root} do not match: images {list(images.shape)}, "
                               f"labels {list(labels.shape)}")
        self.data_array = images
        self._targets = [int(v) for v in labels]

    @property
    def data(self):
        """The images as a uint8 tensor [N, H, W]."""
        return from_numpy(self.data_array)


class FashionMNIST(MNIST):
    """Fashion-MNIST (MNIST's file format); Debian's dataset-fashion-mnist puts it in
    /usr/share/datasets/fashion-mnist."""

    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]


class CIFAR10(_ImageDataset):
    """CIFAR-10 from the binary version's files (data_batch_1..5.bin, test_batch.bin) in root or
    root/cifar-10-batches-bin. Samples are (32 x 32 x 3 uint8 NumPy image, int label)."""

    classes = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        import numpy as np
        self.root = os.path.expanduser(str(root))
        self.train, self.transform, self.target_transform = train, transform, target_transform
        names = [f"data_batch_{i}.bin" for i in range(1, 6)] if train else ["test_batch.bin"]
        dirs = [os.path.join(self.root, "cifar-10-batches-bin"), self.root]
        folder = next((d for d in dirs if all(os.path.isfile(os.path.join(d, n)) for n in names)), None)
        if folder is None:
            tried = [os.path.join(d, n) for d in dirs for n in names]
            raise _not_found("CIFAR10", self.root, tried, download,
                             "the CIFAR-10 binary version (cifar-10-binary.tar.gz from "
                             "https://www.cs.toronto.edu/~kriz/cifar.html, extracted)")
        if download:
            print("Files already downloaded and verified")
        images, labels = [], []
        for n in names:
            img, lab = c_void_p(), c_void_p()
            check(fn.porta_read_cifar10(os.fsencode(os.path.join(folder, n)), byref(img), byref(lab)))
            images.append(host_array(wrap(img)))
            labels.append(host_array(wrap(lab)))
        # torchvision's layout: N x H x W x C.
        self.data = np.ascontiguousarray(np.concatenate(images).transpose(0, 2, 3, 1))
        self.data_array = self.data
        self._targets = [int(v) for v in np.concatenate(labels)]
