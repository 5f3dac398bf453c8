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
    y: np.ndarray, rng: np.random.Generator, *, train_idx: Any, test_idx: Any
) -> list[Split]:
    """The single predefined split that comes with a data set."""
    return [_check_split({"train": train_idx, "test": test_idx}, y.size, "official split")]
