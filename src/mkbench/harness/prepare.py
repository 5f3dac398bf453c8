"""Prepared data set files: one ``.npz`` per data set, read by every fit job.

The workflow's *prepare* rule parses the raw files once (:func:`mkbench.harness.datasets.load`)
and stores the arrays here, so that hundreds of fit jobs do not re-parse them.
"""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np

from .._io import atomic_open
from .datasets import Dataset, load
from ..exceptions import DataError


def prepare(name: str, path: str | os.PathLike, *, mirror=None, data_home=None) -> Dataset:
    """Load data set ``name`` (fetching it if needed) and write it to ``path`` atomically."""
    ds = load(name, mirror=mirror, data_home=data_home)
    save_prepared(path, ds)
    return ds


def save_prepared(path: str | os.PathLike, ds: Dataset) -> None:
    """Write ``ds`` as an ``.npz`` file (arrays plus a JSON header), atomically."""
    header = {
        "name": ds.name,
        "task": ds.task,
        "feature_names": list(ds.feature_names),
        "metadata": ds.metadata,
    }
    with atomic_open(path, "wb") as fh:
        np.savez(fh, X=ds.X, y=ds.y, header=np.array(json.dumps(header, default=_jsonable)))


def load_prepared(path: str | os.PathLike) -> Dataset:
    """Read a file written by :func:`save_prepared`.

    Raises
    ------
    DataError
        If the file is missing, truncated or not a prepared data set.
    """
    try:
        with np.load(path, allow_pickle=False) as npz:
            header = json.loads(str(npz["header"]))
            X, y = npz["X"], npz["y"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise DataError(
            f"prepared data file {os.fspath(path)!r} is unreadable ({exc}); "
            "delete it and rerun the workflow to rebuild it"
        ) from exc
    return Dataset(
        name=header["name"],
        X=X,
        y=y,
        feature_names=header["feature_names"],
        task=header["task"],
        metadata=header["metadata"],
    )


def _jsonable(obj):
    """Turn numpy values in the metadata (e.g. predefined split indices) into lists."""
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(f"metadata value of type {type(obj).__name__} is not JSON-serialisable")
