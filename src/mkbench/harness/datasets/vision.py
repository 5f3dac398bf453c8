"""Handwritten digits: MNIST (ten-class and odd-vs-even) and USPS."""

from __future__ import annotations

import numpy as np

from mkbench.exceptions import DataError

from ._files import (
    MNIST_FILES,
    MNIST_TEST_IMAGES,
    MNIST_TEST_LABELS,
    MNIST_TRAIN_IMAGES,
    MNIST_TRAIN_LABELS,
    USPS_ESL_TEST,
    USPS_ESL_TRAIN,
    USPS_H5,
)
from ._readers import numbered, read_idx, read_rows, to_float
from ._registry import DatasetSpec, Parsed, register

DIGITS = [str(d) for d in range(10)]
MNIST_CITATION = "LeCun, Y., Bottou, L., Bengio, Y. and Haffner, P. (1998), Proc. IEEE 86(11):2278-2324"
MNIST_SOURCE = "http://yann.lecun.com/exdb/mnist/"


def _official_split(n_train: int, n_test: int) -> dict[str, np.ndarray]:
    return {"train": np.arange(n_train), "test": np.arange(n_train, n_train + n_test)}


def _read_mnist(files) -> tuple[np.ndarray, np.ndarray, dict]:
    """Pixels scaled to [0, 1] (train rows first), digit labels, official split."""
    parts = []
    for images_file, labels_file in ((MNIST_TRAIN_IMAGES, MNIST_TRAIN_LABELS), (MNIST_TEST_IMAGES, MNIST_TEST_LABELS)):
        images, labels = read_idx(files[images_file.path]), read_idx(files[labels_file.path])
        if images.ndim != 3 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
            raise DataError(
                f"{files[images_file.path]}, {files[labels_file.path]}: images {images.shape} and labels "
                f"{labels.shape} do not match"
            )
        parts.append((images.reshape(images.shape[0], -1), labels))
    X = np.empty((sum(p[0].shape[0] for p in parts), parts[0][0].shape[1]), dtype=np.float64)
    np.divide(np.vstack([p[0] for p in parts]), 255.0, out=X)
    y = np.concatenate([p[1] for p in parts]).astype(np.int64)
    return X, y, {"official_split": _official_split(parts[0][1].size, parts[1][1].size)}


def _parse_mnist(files) -> Parsed:
    X, y, meta = _read_mnist(files)
    return Parsed(X, y, numbered("pixel", X.shape[1]), {"classes": DIGITS, **meta})


def _parse_mnist_odd_even(files) -> Parsed:
    X, digits, meta = _read_mnist(files)
    y = np.where(digits % 2 == 1, 1, -1)
    meta.update(positive_class="odd digits (1, 3, 5, 7, 9)", negative_class="even digits (0, 2, 4, 6, 8)")
    return Parsed(X, y, numbered("pixel", X.shape[1]), meta)


USPS_PIXELS = 256


def _parse_usps(files) -> Parsed:
    """From the mirror's HDF5 (pixels already in [0, 1]) or ESL's zip.train/zip.test (in [-1, 1])."""
    if USPS_H5.path in files:
        import h5py

        path = files[USPS_H5.path]
        try:
            with h5py.File(path, "r") as h5:
                parts = [(h5[f"{s}/data"][()], h5[f"{s}/target"][()]) for s in ("train", "test")]
        except (OSError, KeyError) as exc:
            raise DataError(f"{path}: not the expected USPS HDF5 file ({exc})") from exc
    else:
        parts = []
        for raw in (USPS_ESL_TRAIN, USPS_ESL_TEST):
            path = files[raw.path]
            values = to_float(read_rows(path, n_fields=USPS_PIXELS + 1), path)
            parts.append(((values[:, 1:] + 1.0) / 2.0, values[:, 0]))
    X = np.vstack([p[0] for p in parts]).astype(np.float64)
    y = np.concatenate([p[1] for p in parts]).astype(np.int64)
    if X.shape[1] != USPS_PIXELS or not np.isin(y, range(10)).all():
        raise DataError(f"USPS files {list(files.values())}: expected {USPS_PIXELS} pixels and digit labels")
    meta = {"classes": DIGITS, "official_split": _official_split(len(parts[0][1]), len(parts[1][1]))}
    return Parsed(X, y, numbered("pixel", USPS_PIXELS), meta)


register(
    DatasetSpec(
        name="mnist",
        task="multiclass",
        description="MNIST digits (70000 x 784), 10 classes, official 60000/10000 split",
        files=MNIST_FILES,
        parser=_parse_mnist,
        source=MNIST_SOURCE,
        citation=MNIST_CITATION,
        variant="MNIST idx files (train then t10k)",
        preprocessing="Pixels divided by 255 to lie in [0, 1]; the 60000 training rows come first, then the "
        "10000 test rows (official_split).",
        shape=(70000, 784),
    ),
    DatasetSpec(
        name="mnist-odd-even",
        task="binary",
        description="MNIST odd vs even digits (70000 x 784), odd = +1",
        files=MNIST_FILES,
        parser=_parse_mnist_odd_even,
        source=MNIST_SOURCE,
        citation=MNIST_CITATION,
        variant="MNIST idx files (train then t10k), two classes",
        preprocessing="As mnist (pixels / 255, official 60000/10000 split); odd digits = +1, even = -1.",
        shape=(70000, 784),
    ),
    DatasetSpec(
        name="usps",
        task="multiclass",
        description="USPS digits (9298 x 256), 10 classes, official 7291/2007 split",
        files=(USPS_H5,),
        fallback_files=(USPS_ESL_TRAIN, USPS_ESL_TEST),
        parser=_parse_usps,
        source="https://hastie.su.domains/ElemStatLearn/datasets/zip.info.txt",
        citation="Hull, J. J. (1994), IEEE TPAMI 16(5):550-554; Hastie, Tibshirani and Friedman, ESL",
        variant="ESL zip.train + zip.test (16x16 grey levels)",
        preprocessing="Grey levels rescaled from [-1, 1] to [0, 1] ((x + 1) / 2, as stored in the mirror's "
        "HDF5); the 7291 training rows first, then the 2007 test rows (official_split).",
        shape=(9298, 256),
        notes="The mirror's usps.h5 (Kaggle 'usps-dataset' layout) has no public direct URL; without it "
        "ESL's zip.train.gz/zip.test.gz are downloaded and trusted on first use.",
    ),
)
