"""Deterministic train/test splits of a data set.

A *split* is a ``dict[str, numpy.ndarray]`` mapping part names (``"train"``,
``"test"`` and optionally ``"validation"`` and ``"unlabeled"``) to sorted
``int64`` arrays of row indices into the data set; the parts never overlap.

:func:`make_splits` builds the list of splits of an evaluation protocol from
the protocol's parameters, an integer seed and the labels ``y`` (only their
number matters unless a protocol stratifies). Every random draw comes from
``numpy.random.default_rng(seed)``, and scikit-learn splitters get an integer
``random_state`` drawn from that generator, so the same inputs always give the
same splits. The protocols are registered in :data:`PROTOCOLS`:

``kfold(n_folds, shuffle=True, stratify=False)``
    ``n_folds`` splits whose test parts partition the data.
``random(test_size, n_repeats, stratify=False)``
    ``n_repeats`` random train/test splits; ``test_size`` is a fraction in
    (0, 1) or a number of points (70/30 is ``test_size=0.3``, 3:2 is ``0.4``).
``subsets(sizes, n_repeats)``
    Mutually exclusive random subsets of fixed sizes, e.g.
    ``{"train": 1000, "validation": 2000, "test": 10000}``.
``semisupervised(n_labeled, n_unlabeled, n_test, n_repeats, stratify_labeled=True)``
    A labelled ``train`` part, an ``unlabeled`` part and a ``test`` part.
``raetsch(n_train, n_test, n_repeats, predefined=None)``
    The IDA benchmark protocol: the first ``n_repeats`` of the ``predefined``
    realisations (pairs of 0-based train and test indices) when there are that
    many, otherwise seeded random splits of the same sizes (CGEns §VI-A).
``loo()``
    Leave-one-out: one split per point.
``official(train_idx, test_idx)``
    The single split distributed with the data set (MNIST, USPS...).

Splits are stored one per ``.npz`` file with :func:`save_split` and read back
with :func:`load_split`.
"""

from __future__ import annotations

import inspect
import json
import numbers
import os
import zipfile
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.model_selection import (
    KFold,
    LeaveOneOut,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
    train_test_split,
)

from mkbench._io import _json_default, atomic_open
from mkbench.exceptions import ConfigError, DataError, UnknownNameError

__all__ = [
    "PARTS",
    "PROTOCOLS",
    "Split",
    "add_validation",
    "load_split",
    "make_splits",
    "protocol_parameters",
    "save_split",
]

Split = dict[str, np.ndarray]

PARTS = ("train", "validation", "unlabeled", "test")
"""The part names a split may hold, in the order random subsets are drawn."""

_META_KEY = "meta"


# --------------------------------------------------------------------------- checks


def _check_int(name: str, value: Any, low: int, high: int | None = None) -> None:
    """Raise :class:`ConfigError` unless ``value`` is an integer in ``[low, high]``."""
    is_int = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not is_int or value < low or (high is not None and value > high):
        allowed = f"an integer >= {low}" if high is None else f"an integer in [{low}, {high}]"
        raise ConfigError(f"{name}={value!r} is invalid; give {allowed}")


def _check_bool(name: str, value: Any) -> None:
    """Raise :class:`ConfigError` unless ``value`` is a boolean."""
    if not isinstance(value, bool | np.bool_):
        raise ConfigError(f"{name}={value!r} is invalid; give true or false")


def _check_test_size(value: Any, n: int) -> None:
    """Accept a fraction in (0, 1) or a number of points in [1, n - 1]."""
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        if not 0.0 < value < 1.0:
            raise ConfigError(
                f"test_size={value!r} is invalid; give a fraction in (0, 1) "
                f"or a number of points in [1, {n - 1}]"
            )
        return
    _check_int("test_size", value, 1, n - 1)


def _check_labels(y: Any) -> np.ndarray:
    """Return ``y`` as a non-empty 1-D array."""
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ConfigError(
            f"y has shape {y.shape}; give the data set's labels as a non-empty 1-D array"
        )
    return y


def _check_indices(name: str, indices: Any, n: int | None) -> np.ndarray:
    """Return ``indices`` as a sorted ``int64`` array of distinct indices in ``[0, n)``."""
    arr = np.asarray(indices)
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise ConfigError(
            f"{name} must be a non-empty 1-D array of integer indices, "
            f"got shape {arr.shape} and dtype {arr.dtype}"
        )
    arr = np.sort(arr.astype(np.int64))
    if arr[0] < 0 or (n is not None and arr[-1] >= n):
        bad = arr[0] if arr[0] < 0 else arr[-1]
        bound = "" if n is None else f" and < {n}, the data set's size"
        hint = " (1-based indices? subtract 1)" if bad == n else ""
        raise ConfigError(f"{name} holds index {bad}; indices must be >= 0{bound}{hint}")
    if np.any(arr[1:] == arr[:-1]):
        repeated = arr[1:][arr[1:] == arr[:-1]][0]
        raise ConfigError(f"{name} repeats index {repeated}; give distinct indices")
    return arr


def _check_split(split: Mapping[str, Any], n: int | None, where: str) -> Split:
    """Validate a split's part names and indices and return it in canonical form.

    Parameters
    ----------
    split : mapping of str to array-like
        Part name to indices.
    n : int or None
        Size of the data set, or None when it is not known (indices are then
        only checked to be non-negative).
    where : str
        Names the split in error messages.

    Returns
    -------
    dict of str to ndarray
        The parts as sorted ``int64`` arrays, in the order of :data:`PARTS`.
    """
    unknown = sorted(set(split) - set(PARTS))
    if unknown:
        raise ConfigError(f"{where} has unknown part(s) {unknown}; allowed parts are {list(PARTS)}")
    for required in ("train", "test"):
        if required not in split:
            raise ConfigError(
                f"{where} has no {required!r} part; every split needs 'train' and 'test'"
            )
    parts = {p: _check_indices(f"{where}[{p!r}]", split[p], n) for p in PARTS if p in split}
    joined = np.sort(np.concatenate(list(parts.values())))
    if np.any(joined[1:] == joined[:-1]):
        shared = joined[1:][joined[1:] == joined[:-1]][0]
        raise ConfigError(
            f"{where}: index {shared} is in more than one part; parts must not overlap"
        )
    return parts


# --------------------------------------------------------------------------- helpers


def _sklearn_seed(rng: np.random.Generator) -> int:
    """Draw an integer ``random_state`` for a scikit-learn splitter."""
    return int(rng.integers(2**32))


def _run_splitter(splitter: Any, y: np.ndarray, stratify: bool) -> list[Split]:
    """Collect the train/test splits of a scikit-learn splitter as split dicts."""
    try:
        pairs = list(splitter.split(np.zeros((y.size, 1)), y if stratify else None))
    except ValueError as exc:
        raise ConfigError(f"cannot split {y.size} points with {splitter!r}: {exc}") from exc
    return [
        {"train": np.sort(tr).astype(np.int64), "test": np.sort(te).astype(np.int64)}
        for tr, te in pairs
    ]


def _draw_subsets(rng: np.random.Generator, n: int, sizes: Mapping[str, int]) -> Split:
    """Cut one random permutation of ``range(n)`` into consecutive parts of the given sizes."""
    perm = rng.permutation(n)
    bounds = np.cumsum([0, *sizes.values()])
    return {
        part: np.sort(perm[lo:hi])
        for part, lo, hi in zip(sizes, bounds[:-1], bounds[1:], strict=True)
    }


def _check_total(sizes: Mapping[str, int], n: int) -> None:
    """Raise :class:`ConfigError` when the parts need more points than the data set has."""
    if sum(sizes.values()) > n:
        raise ConfigError(
            f"the parts {dict(sizes)} need {sum(sizes.values())} points "
            f"but the data set has only {n}; reduce the sizes"
        )


# --------------------------------------------------------------------------- protocols


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


def _subsets(
    y: np.ndarray, rng: np.random.Generator, *, sizes: Mapping[str, int], n_repeats: int
) -> list[Split]:
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
        raise ConfigError(
            f"cannot draw a stratified labelled part of n_labeled={n_labeled}: {exc}"
        ) from exc
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


def _loo(y: np.ndarray, rng: np.random.Generator) -> list[Split]:
    """Leave-one-out: one split per point, testing on that point."""
    return _run_splitter(LeaveOneOut(), y, stratify=False)


def _official(
    y: np.ndarray, rng: np.random.Generator, *, train_idx: Any, test_idx: Any
) -> list[Split]:
    """The single predefined split that comes with a data set."""
    return [_check_split({"train": train_idx, "test": test_idx}, y.size, "official split")]


PROTOCOLS: dict[str, Callable[..., list[Split]]] = {
    "kfold": _kfold,
    "random": _random,
    "subsets": _subsets,
    "semisupervised": _semisupervised,
    "raetsch": _raetsch,
    "loo": _loo,
    "official": _official,
}
"""Protocol name -> function ``(y, rng, **params) -> list of splits``."""


# --------------------------------------------------------------------------- API


def make_splits(protocol: str, *, y: Any, seed: int, **params: Any) -> list[Split]:
    """Build the splits of an evaluation protocol, deterministically.

    Parameters
    ----------
    protocol : str
        A key of :data:`PROTOCOLS`; see the module docstring for each one's parameters.
    y : array-like of shape (n_samples,)
        The data set's labels; only their number matters unless the protocol stratifies.
    seed : int
        Non-negative seed of :func:`numpy.random.default_rng`; the same seed and
        parameters give identical splits.
    **params
        The protocol's parameters.

    Returns
    -------
    list of dict of str to ndarray
        The splits: part name -> sorted ``int64`` indices into ``y``.

    Raises
    ------
    UnknownNameError
        If ``protocol`` is not registered.
    ConfigError
        If a parameter is missing, unknown or out of range.
    """
    if protocol not in PROTOCOLS:
        raise UnknownNameError(
            f"unknown split protocol {protocol!r}; known protocols: {sorted(PROTOCOLS)}"
        )
    function = PROTOCOLS[protocol]
    y = _check_labels(y)
    _check_int("seed", seed, 0)
    rng = np.random.default_rng(seed)
    try:
        inspect.signature(function).bind(y, rng, **params)
    except TypeError as exc:
        raise ConfigError(
            f"split protocol {protocol!r}: {exc}; its parameters are {list(protocol_parameters(protocol))}"
        ) from exc
    return function(y, rng, **params)


def protocol_parameters(protocol: str) -> dict[str, Any]:
    """The parameters of the registered ``protocol``, each with its default.

    Parameters
    ----------
    protocol : str
        A key of :data:`PROTOCOLS`.

    Returns
    -------
    dict of str to object
        Parameter name -> default value, :data:`inspect.Parameter.empty` for a
        required parameter, in the order of the protocol's signature.
    """
    parameters = list(inspect.signature(PROTOCOLS[protocol]).parameters.values())[2:]  # after (y, rng)
    return {parameter.name: parameter.default for parameter in parameters}


def add_validation(
    train_idx: Any,
    *,
    fraction: float = 0.2,
    seed: int,
    y: Any = None,
    stratify: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Hold out a validation part of a training part for model selection.

    Parameters
    ----------
    train_idx : array-like of int
        Indices of the training part, into the data set.
    fraction : float, default=0.2
        Share of ``train_idx`` held out for validation, in (0, 1).
    seed : int
        Non-negative seed; the same seed gives the same parts.
    y : array-like of shape (n_samples,), optional
        Labels of the whole data set (indexed by ``train_idx``); needed only
        when ``stratify`` is true.
    stratify : bool, default=False
        Keep the class proportions of ``y[train_idx]`` in both parts.

    Returns
    -------
    fit_idx, val_idx : ndarray of int64
        Sorted disjoint indices whose union is ``train_idx``.
    """
    train_idx = _check_indices("train_idx", train_idx, None)
    is_real = isinstance(fraction, numbers.Real) and not isinstance(fraction, bool)
    if not is_real or not 0.0 < fraction < 1.0:
        raise ConfigError(f"fraction={fraction!r} is invalid; give a fraction in (0, 1)")
    _check_int("seed", seed, 0)
    _check_bool("stratify", stratify)
    labels = None
    if stratify:
        if y is None:
            raise ConfigError(
                "stratify=True needs y, the data set's labels; pass y or set stratify=False"
            )
        y = _check_labels(y)
        if train_idx[-1] >= y.size:
            raise ConfigError(
                f"train_idx holds index {train_idx[-1]} but y has only {y.size} labels; "
                "pass the labels of the whole data set"
            )
        labels = y[train_idx]
    random_state = _sklearn_seed(np.random.default_rng(seed))
    try:
        fit_idx, val_idx = train_test_split(
            train_idx, test_size=fraction, random_state=random_state, stratify=labels
        )
    except ValueError as exc:
        raise ConfigError(
            f"cannot hold out fraction={fraction} of {train_idx.size} training points: {exc}"
        ) from exc
    return np.sort(fit_idx), np.sort(val_idx)


def save_split(path: str | os.PathLike, split: Mapping[str, Any], meta: Mapping[str, Any]) -> None:
    """Write one split and its metadata to an ``.npz`` file, atomically.

    Parameters
    ----------
    path : path-like
        Destination file; its folder is created if needed.
    split : mapping of str to array-like
        Part name -> indices, as returned by :func:`make_splits`.
    meta : mapping
        JSON-serialisable description (data set, protocol, seed, repeat...),
        stored as a JSON string under the key ``"meta"``.
    """
    arrays = _check_split(split, None, f"split for {os.fspath(path)}")
    arrays[_META_KEY] = np.array(json.dumps(dict(meta), default=_json_default))
    with atomic_open(path, "wb") as fh:
        np.savez(fh, **arrays)


def load_split(path: str | os.PathLike) -> tuple[Split, dict[str, Any]]:
    """Read a split written by :func:`save_split`.

    Parameters
    ----------
    path : path-like
        The ``.npz`` file.

    Returns
    -------
    split : dict of str to ndarray
        Part name -> sorted ``int64`` indices.
    meta : dict
        The metadata stored with it.

    Raises
    ------
    DataError
        If the file is truncated, corrupt or not a split file.
    FileNotFoundError
        If the file does not exist.
    """
    try:
        with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as data:
            contents = {key: data[key] for key in data.files}
        meta = json.loads(str(contents.pop(_META_KEY)))
        split = _check_split(contents, None, f"split in {os.fspath(path)}")
    except FileNotFoundError:
        raise
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise DataError(
            f"split file {os.fspath(path)} is corrupt or truncated ({exc}); "
            "delete it and rerun the workflow to recreate it"
        ) from exc
    return split, meta
