"""Protocols of the splits distributed with a data set: the IDA benchmark's realisations and an official split.

Each protocol is a function ``(y, rng, **params) -> list of splits`` registered
in :data:`mkbench.harness.splits.PROTOCOLS`. The IDA protocol (CGEns §VI-A)
falls back on seeded random subsets of the same sizes when the data set comes
with fewer realisations than asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mkbench.exceptions import ConfigError

from ._common import Split, _check_int, _check_split
from .subsets import _subsets


def _raetsch(
    y: np.ndarray,
    rng: np.random.Generator,
    *,
    n_train: int,
    n_test: int,
    n_repeats: int,
    predefined: Sequence[tuple[Any, Any]] | None = None,
) -> list[Split]:
    """The IDA benchmark's realisations if there are ``n_repeats`` of them, else random splits of the same sizes."""
    _check_int("n_train", n_train, 1)
    _check_int("n_test", n_test, 1)
    _check_int("n_repeats", n_repeats, 1)
    if predefined is None or len(predefined) < n_repeats:
        # e.g. banana, german, titanic: the mirror has only the first IDA realisation
        return _subsets(y, rng, sizes={"train": n_train, "test": n_test}, n_repeats=n_repeats)
    splits = []
    for i, (train_idx, test_idx) in enumerate(predefined[:n_repeats]):
        parts = {"train": train_idx, "test": test_idx}
        split = _check_split(parts, y.size, f"predefined split {i}")
        sizes = (split["train"].size, split["test"].size)
        if sizes != (n_train, n_test):
            raise ConfigError(
                f"predefined split {i} has {sizes[0]} training and {sizes[1]} test points "
                f"but n_train={n_train} and n_test={n_test}; make them agree"
            )
        splits.append(split)
    return splits


def _official(
    y: np.ndarray,
    rng: np.random.Generator,
    *,
    train_idx: Any,
    test_idx: Any,
    train_per_class: int | None = None,
    n_repeats: int = 1,
) -> list[Split]:
    """The predefined split that comes with a data set; or draws of ``train_per_class`` points per class from it.

    With ``train_per_class``, each of ``n_repeats`` splits trains on that many random
    points of each class of the official training part and tests on the whole
    official test part (CGEns §VI-B on MNIST: "we randomly sample 1000 examples from
    each class for training and use the original test set").
    """
    split = _check_split({"train": train_idx, "test": test_idx}, y.size, "official split")
    _check_int("n_repeats", n_repeats, 1)
    if train_per_class is None:
        if n_repeats != 1:
            raise ConfigError(
                f"the official split is one split; n_repeats={n_repeats} needs train_per_class (draws of the "
                f"training part)"
            )
        return [split]
    _check_int("train_per_class", train_per_class, 1)
    labels = y[split["train"]]
    classes, counts = np.unique(labels, return_counts=True)
    if counts.min() < train_per_class:
        raise ConfigError(
            f"train_per_class={train_per_class} but class {str(classes[counts.argmin()])!r} has only {counts.min()} "
            f"points in the official training part; lower train_per_class"
        )
    return [
        _check_split(
            {
                "train": np.concatenate(
                    [rng.choice(split["train"][labels == c], train_per_class, replace=False) for c in classes]
                ),
                "test": split["test"],
            },
            y.size,
            f"official split, draw {i} of {train_per_class} per class",
        )
        for i in range(n_repeats)
    ]
