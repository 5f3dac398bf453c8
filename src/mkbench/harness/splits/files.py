"""Splits on disk: one split and its metadata per ``.npz`` file, written atomically."""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Mapping
from typing import Any

import numpy as np

from mkbench._io import _json_default, atomic_open
from mkbench.exceptions import DataError

from ._common import Split, _check_split

__all__ = ["load_split", "save_split"]

_META_KEY = "meta"


def save_split(path: str | os.PathLike, split: Mapping[str, Any], meta: Mapping[str, Any]) -> None:
    """Write one split and its metadata to an ``.npz`` file, atomically.

    Parameters
    ----------
    path : path-like
        Destination file; its folder is created if needed.
    split : mapping of str to array-like
        Part name -> indices, as returned by :func:`~mkbench.harness.splits.make_splits`.
    meta : mapping
        JSON-serialisable description (data set, protocol, seed, repeat...),
        stored as a JSON string under the key ``"meta"``.
    """
    # Any values: savez's stub would otherwise read a part named "allow_pickle" as its flag
    arrays: dict[str, Any] = _check_split(split, None, f"split for {os.fspath(path)}")
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
