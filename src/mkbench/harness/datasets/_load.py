"""Turning a registered data set into arrays: :class:`Dataset` and :func:`load`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from mkbench.exceptions import DataError

from ._fetch import obtain
from ._registry import DatasetSpec, Parsed, get_spec


@dataclass(frozen=True)
class Dataset:
    """A loaded data set.

    Attributes
    ----------
    name : str
        Registry name.
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
        Inputs, not standardised (that depends on the split and is done later).
    y : ndarray of shape (n_samples,)
        ``int64`` in {-1, +1} for ``"binary"``, ``int64`` codes 0..K-1 for
        ``"multiclass"`` (names in ``metadata["classes"]``), ``float64`` for
        ``"regression"``.
    feature_names : list of str
    task : {"binary", "multiclass", "regression"}
    metadata : dict
        Always ``source``, ``citation``, ``variant``, ``preprocessing``,
        ``raw_files`` and ``n_samples``; binary sets add ``positive_class`` and ``negative_class``;
        where relevant ``official_split`` (``{"train": idx, "test": idx}``),
        ``predefined_splits`` (list of ``(train_idx, test_idx)``) and ``ida_sizes``
        (``(n_train, n_test)``).
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    task: str
    metadata: dict[str, Any]


_Y_DTYPES = {"binary": np.int64, "multiclass": np.int64, "regression": np.float64}


def load(name: str, *, mirror: str | os.PathLike | None = None, data_home: str | os.PathLike | None = None) -> Dataset:
    """Fetch (if needed) and parse data set ``name``.

    Parameters
    ----------
    name : str
        A registered name (:func:`~mkbench.harness.datasets.list_datasets`).
    mirror, data_home : path-like, optional
        As for :func:`~mkbench.harness.datasets.fetch`.

    Returns
    -------
    Dataset

    Raises
    ------
    UnknownNameError
        If ``name`` is not registered.
    DataError
        If the data are not public, cannot be obtained, or a file is malformed.
    ChecksumError
        If a copy does not match its digest.
    """
    spec = get_spec(name)
    files = obtain(spec, mirror=mirror, data_home=data_home)
    assert spec.parser is not None  # obtain refuses a data set that is not public, and a public one has a parser
    return assemble(spec, spec.parser(files), raw_files=list(files))


def assemble(spec: DatasetSpec, parsed: Parsed, *, raw_files: list[str]) -> Dataset:
    """Check a parser's output against the spec and attach the spec's documentation.

    ``raw_files`` (the :attr:`RawFile.path` of the files parsed) is recorded as
    ``metadata["raw_files"]``: it tells which source was used when a spec has a
    fallback. The registered ``shape`` is checked unless the parser reports
    another ``variant`` (the IDA ``benchmarks.mat`` pools).
    """
    X = np.ascontiguousarray(parsed.X, dtype=np.float64)
    y = np.asarray(parsed.y)
    if y.dtype.kind not in "iuf" or (spec.task != "regression" and y.dtype.kind == "f"):
        raise DataError(f"{spec.name}: parser returned labels of dtype {y.dtype} for a {spec.task} task")
    y = y.astype(_Y_DTYPES[spec.task])
    if X.ndim != 2 or y.shape != (X.shape[0],) or len(parsed.feature_names) != X.shape[1]:
        raise DataError(
            f"{spec.name}: inconsistent parse: X {X.shape}, y {y.shape}, {len(parsed.feature_names)} feature names"
        )
    if spec.task == "binary" and not np.isin(y, (-1, 1)).all():
        raise DataError(f"{spec.name}: binary labels must be -1/+1, got {np.unique(y)[:5]}")
    metadata = {
        "source": spec.source,
        "citation": spec.citation,
        "variant": spec.variant,
        "preprocessing": spec.preprocessing,
        **parsed.metadata,
        "raw_files": raw_files,
        "n_samples": X.shape[0],
    }
    if metadata["variant"] == spec.variant and spec.shape is not None and X.shape != spec.shape:
        raise DataError(
            f"{spec.name}: parsed shape {X.shape} differs from the registered {spec.shape}; "
            "the raw files are not the expected ones"
        )
    return Dataset(spec.name, X, y, list(parsed.feature_names), spec.task, metadata)
