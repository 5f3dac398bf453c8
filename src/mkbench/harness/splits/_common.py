"""What every split protocol shares: the split type, its parts, the checks of parameters and indices, seeds.

A *split* is a ``dict[str, numpy.ndarray]`` (:data:`Split`) mapping part names
(:data:`PARTS`) to sorted ``int64`` arrays of row indices into the data set; the
parts never overlap (:func:`_check_split`).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from mkbench.exceptions import ConfigError

__all__ = ["PARTS", "Split"]

Split = dict[str, np.ndarray]

PARTS = ("train", "validation", "unlabeled", "test")
"""The part names a split may hold, in the order random subsets are drawn."""


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
        if not 0.0 < float(value) < 1.0:
            raise ConfigError(
                f"test_size={value!r} is invalid; give a fraction in (0, 1) or a number of points in [1, {n - 1}]"
            )
        return
    _check_int("test_size", value, 1, n - 1)


def _check_labels(y: Any) -> np.ndarray:
    """Return ``y`` as a non-empty 1-D array."""
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ConfigError(f"y has shape {y.shape}; give the data set's labels as a non-empty 1-D array")
    return y


def _check_indices(name: str, indices: Any, n: int | None) -> np.ndarray:
    """Return ``indices`` as a sorted ``int64`` array of distinct indices in ``[0, n)``."""
    arr = np.asarray(indices)
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise ConfigError(
            f"{name} must be a non-empty 1-D array of integer indices, got shape {arr.shape} and dtype {arr.dtype}"
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
            raise ConfigError(f"{where} has no {required!r} part; every split needs 'train' and 'test'")
    parts = {p: _check_indices(f"{where}[{p!r}]", split[p], n) for p in PARTS if p in split}
    joined = np.sort(np.concatenate(list(parts.values())))
    if np.any(joined[1:] == joined[:-1]):
        shared = joined[1:][joined[1:] == joined[:-1]][0]
        raise ConfigError(f"{where}: index {shared} is in more than one part; parts must not overlap")
    return parts


# --------------------------------------------------------------------------- helpers


def _sklearn_seed(rng: np.random.Generator) -> int:
    """Draw an integer ``random_state`` for a scikit-learn splitter."""
    return int(rng.integers(2**32))
