"""Protocols of disjoint random subsets of fixed sizes: ``subsets`` and the semi-supervised splits (SSMK §4).

Each protocol is a function ``(y, rng, **params) -> list of splits`` registered
in :data:`mkbench.harness.splits.PROTOCOLS`; every part is cut from one random
permutation drawn from ``rng``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from sklearn.model_selection import train_test_split

from mkbench.exceptions import ConfigError

from ._common import PARTS, Split, _check_bool, _check_int, _sklearn_seed


def _draw_subsets(rng: np.random.Generator, n: int, sizes: Mapping[str, int]) -> Split:
    """Cut one random permutation of ``range(n)`` into consecutive parts of the given sizes."""
    perm = rng.permutation(n)
    bounds = np.cumsum([0, *sizes.values()])
    return {part: np.sort(perm[lo:hi]) for part, lo, hi in zip(sizes, bounds[:-1], bounds[1:], strict=True)}


def _check_total(sizes: Mapping[str, int], n: int) -> None:
    """Raise :class:`ConfigError` when the parts need more points than the data set has."""
    if sum(sizes.values()) > n:
        raise ConfigError(
            f"the parts {dict(sizes)} need {sum(sizes.values())} points but the data set has only {n}; reduce the sizes"
        )


def _subsets(y: np.ndarray, rng: np.random.Generator, *, sizes: Mapping[str, int], n_repeats: int) -> list[Split]:
    """Repeated mutually exclusive random subsets of fixed sizes."""
    valid = isinstance(sizes, Mapping) and {"train", "test"} <= set(sizes) <= set(PARTS)
    if not valid:
        raise ConfigError(
            f"sizes={sizes!r} is invalid; give a mapping from part names {list(PARTS)} "
            "to numbers of points, with at least 'train' and 'test'"
        )
    for part, size in sizes.items():
        _check_int(f"sizes[{part!r}]", size, 1)
    _check_int("n_repeats", n_repeats, 1)
    ordered = {part: sizes[part] for part in PARTS if part in sizes}
    _check_total(ordered, y.size)
    return [_draw_subsets(rng, y.size, ordered) for _ in range(n_repeats)]


def _pick_labeled(
    y: np.ndarray, rng: np.random.Generator, n_labeled: int, stratify: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Split ``range(len(y))`` into ``n_labeled`` labelled points and the rest."""
    if not stratify:
        perm = rng.permutation(y.size)
        return perm[:n_labeled], perm[n_labeled:]
    try:
        labeled, rest = train_test_split(
            np.arange(y.size), train_size=n_labeled, stratify=y, random_state=_sklearn_seed(rng)
        )
    except ValueError as exc:
        raise ConfigError(f"cannot draw a stratified labelled part of n_labeled={n_labeled}: {exc}") from exc
    missing = np.setdiff1d(np.unique(y), y[labeled])
    if missing.size:
        raise ConfigError(
            f"n_labeled={n_labeled} is too small for the stratified labelled part to hold "
            f"class(es) {missing.tolist()}; increase n_labeled"
        )
    return labeled, rest


def _semisupervised(
    y: np.ndarray,
    rng: np.random.Generator,
    *,
    n_labeled: int,
    n_unlabeled: int,
    n_test: int,
    n_repeats: int,
    stratify_labeled: bool = True,
) -> list[Split]:
    """Repeated splits into a labelled ``train``, an ``unlabeled`` and a ``test`` part.

    The test part is drawn first, then the unlabelled part, then the labelled
    points from the rest (SSMK §4), so that for one seed the test and unlabelled
    parts are the same whatever ``n_labeled`` is: a learning curve over l
    compares the same points.
    """
    _check_int("n_labeled", n_labeled, 1)
    _check_int("n_unlabeled", n_unlabeled, 1)
    _check_int("n_test", n_test, 1)
    _check_int("n_repeats", n_repeats, 1)
    _check_bool("stratify_labeled", stratify_labeled)
    _check_total({"train": n_labeled, "unlabeled": n_unlabeled, "test": n_test}, y.size)
    splits = []
    for _ in range(n_repeats):
        perm = rng.permutation(y.size)
        rest = perm[n_test + n_unlabeled :]
        labeled, _ = _pick_labeled(y[rest], rng, n_labeled, stratify_labeled)
        splits.append(
            {
                "train": np.sort(rest[labeled]).astype(np.int64),
                "unlabeled": np.sort(perm[n_test : n_test + n_unlabeled]).astype(np.int64),
                "test": np.sort(perm[:n_test]).astype(np.int64),
            }
        )
    return splits
