"""porta.transforms: ToTensor, Normalize, Compose and Lambda, as torchvision.transforms."""
import numpy as np

from . import _dtype
from ._factories import tensor
from ._tensor import Tensor


class Compose:
    """Applies transforms in order."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        body = "".join(f"\n    {t!r}" for t in self.transforms)
        return f"Compose({body}\n)"


class ToTensor:
    """An image (H x W x C or H x W NumPy array, or a PIL image) as a C x H x W float32
    tensor; uint8 pixels are scaled to [0, 1]."""

    def __call__(self, pic):
        if isinstance(pic, Tensor):
            return pic
        arr = np.asarray(pic)
        if arr.ndim == 2:
            arr = arr[:, :, None]
        if arr.ndim != 3:
            raise TypeError(f"ToTensor: expected an H x W or H x W x C image, got shape {arr.shape}")
        arr = arr.transpose(2, 0, 1)
        if arr.dtype == np.uint8:
            arr = arr.astype(np.float32) * np.float32(1 / 255)
        return tensor(arr, dtype=_dtype.float32 if arr.dtype != np.float64 else _dtype.float64)

    def __repr__(self):
        return "ToTensor()"


class Normalize:
    """(x - mean[c]) / std[c] per channel of a C x H x W tensor."""

    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = tuple(mean), tuple(std), inplace
        if any(s == 0 for s in self.std):
            raise ValueError(f"Normalize: std evaluated to zero after conversion, leading to division by zero "
                             f"(std={self.std})")
        self._cache = {}

    def _constants(self, x):
        c = x.shape[-3]
        key = (str(x.device), x.dtype, c)
        consts = self._cache.get(key)
        if consts is None:
            mean = self.mean * c if len(self.mean) == 1 else self.mean
            std = self.std * c if len(self.std) == 1 else self.std
            if len(mean) != c or len(std) != c:
                raise ValueError(f"Normalize: {len(self.mean)} means and {len(self.std)} stds for {c} channels")
            consts = tuple(tensor(np.asarray(v, dtype=np.float64).reshape(c, 1, 1), dtype=x.dtype,
                                  device=x.device) for v in (mean, std))
            self._cache[key] = consts
        return consts

    def __call__(self, x):
        if not isinstance(x, Tensor) or not x.is_floating_point():
            raise TypeError("Normalize: expected a float tensor (use ToTensor() first)")
        mean, std = self._constants(x)
        out = (x - mean) / std
        return x.copy_(out) if self.inplace else out

    def __repr__(self):
        return f"Normalize(mean={self.mean}, std={self.std})"


class Lambda:
    """Applies a user function."""

    def __init__(self, lambd):
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)
