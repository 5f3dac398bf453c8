"""Protocols by resampling with scikit-learn's splitters: k-fold, repeated random splits, leave-one-out.

Each protocol is a function ``(y, rng, **params) -> list of splits`` registered
in :data:`mkbench.harness.splits.PROTOCOLS`; the splitters get an integer
``random_state`` drawn from ``rng``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.model_selection import KFold, LeaveOneOut, ShuffleSplit, StratifiedKFold, StratifiedShuffleSplit

from mkbench.exceptions import ConfigError

from ._common import Split, _check_bool, _check_int, _check_test_size, _sklearn_seed


def _run_splitter(splitter: Any, y: np.ndarray, stratify: bool) -> list[Split]:
    """Collect the train/test splits of a scikit-learn splitter as split dicts."""
    try:
        pairs = list(splitter.split(np.zeros((y.size, 1)), y if stratify else None))
    except ValueError as exc:
        raise ConfigError(f"cannot split {y.size} points with {splitter!r}: {exc}") from exc
    return [{"train": np.sort(tr).astype(np.int64), "test": np.sort(te).astype(np.int64)} for tr, te in pairs]


def _kfold(
    y: np.ndarray,
    rng: np.random.Generator,
    *,
    n_folds: int,
    shuffle: bool = True,
    stratify: bool = False,
) -> list[Split]:
    """K-fold cross-validation, optionally shuffled and stratified."""
    _check_int("n_folds", n_folds, 2, y.size)
    _check_bool("shuffle", shuffle)
    _check_bool("stratify", stratify)
    random_state = _sklearn_seed(rng) if shuffle else None
    cls = StratifiedKFold if stratify else KFold
    splitter = cls(n_splits=n_folds, shuffle=shuffle, random_state=random_state)
    return _run_splitter(splitter, y, stratify)


def _random(
    y: np.ndarray,
    rng: np.random.Generator,
    *,
    test_size: float | int,
    n_repeats: int,
    stratify: bool = False,
) -> list[Split]:
    """Repeated random train/test splits."""
    _check_test_size(test_size, y.size)
    _check_int("n_repeats", n_repeats, 1)
    _check_bool("stratify", stratify)
    cls = StratifiedShuffleSplit if stratify else ShuffleSplit
    splitter = cls(n_splits=n_repeats, test_size=test_size, random_state=_sklearn_seed(rng))
    return _run_splitter(splitter, y, stratify)


def _loo(y: np.ndarray, rng: np.random.Generator) -> list[Split]:
    """Leave-one-out: one split per point, testing on that point."""
    return _run_splitter(LeaveOneOut(), y, stratify=False)
