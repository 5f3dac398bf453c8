"""Data sets declared in a workflow config: a user's local file or an OpenML data set, beside the registered ones.

A config's ``datasets:`` maps a name to one of

* a local file, ``{file: path, sha256: ..., task: ..., target: column}``: CSV, Parquet,
  libsvm/svmlight (``.svm``, ``.libsvm``, ``.txt``) or ``.npz`` (arrays ``X`` and ``y``,
  or the array named by ``target``); the format from the suffix, or ``format:``. The
  sha256 of the file's bytes is checked when the data set is prepared: a mismatch
  stops the run and says both digests (so a changed file is never used silently);
* an OpenML data set, ``{openml: id, task: ..., target: column}`` (target: OpenML's
  default target if omitted), read by scikit-learn's :func:`sklearn.datasets.fetch_openml`,
  which verifies OpenML's own md5 of the file and caches it under scikit-learn's data
  home (``$SCIKIT_LEARN_DATA``, ``~/scikit_learn_data``): an offline machine reads that
  cache. An optional ``sha256`` is checked against :func:`array_digest` of the loaded
  arrays.

:func:`declare` registers them (:func:`mkbench.harness.datasets._registry.register`), so
that they take the same split protocols, preprocessing and records as the registered
sets. Labels become what :class:`mkbench.harness.datasets.Dataset` holds: binary {-1, +1}
with the second of the sorted classes positive (scikit-learn's ``classes_[1]``),
multi-class codes 0..K-1 in sorted order, regression floats. Features must be numbers
(encode categories first); a missing value stops the run, naming the column.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from mkbench.exceptions import ConfigError, DataError, UnknownNameError

from ._registry import TASKS, DatasetSpec, Parsed, get_spec, register

__all__ = ["FORMATS", "array_digest", "declare", "file_digest"]

#: File formats by suffix; ``format:`` in the config overrides the suffix.
FORMATS = {
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".svm": "libsvm",
    ".libsvm": "libsvm",
    ".txt": "libsvm",
    ".npz": "npz",
}


def file_digest(path: str | Path) -> str:
    """sha256 of the file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def array_digest(X: np.ndarray, y: np.ndarray) -> str:
    """sha256 of the loaded arrays: X as C-ordered float64 bytes, then the labels as text, one per line."""
    digest = hashlib.sha256(np.ascontiguousarray(X, dtype=np.float64).tobytes())
    digest.update("\n".join(map(str, np.asarray(y).tolist())).encode())
    return digest.hexdigest()


def declare(datasets: Mapping[str, Mapping[str, Any]]) -> None:
    """Register the config's ``datasets`` (those not registered yet); the same declaration again is a no-op.

    Raises
    ------
    ConfigError
        If a name is already a registered data set of mkbench, a local file does not
        exist, or its format is unknown; the message names the data set and the key.
    """
    problems = []
    for name, entry in datasets.items():
        try:
            spec = _spec(name, dict(entry))
        except ConfigError as exc:
            problems.append(f"  at datasets/{name}: {exc}")
            continue
        try:
            known = get_spec(name)
        except UnknownNameError:  # not registered yet
            register(spec)
            continue
        if known != spec:
            problems.append(f"  at datasets/{name}: {name!r} is a data set of mkbench already; choose another name")
    if problems:
        raise ConfigError("invalid config:\n" + "\n".join(problems))


def _spec(name: str, entry: dict[str, Any]) -> DatasetSpec:
    task = entry["task"]
    if task not in TASKS:
        raise ConfigError(f"task {task!r} is not one of {', '.join(TASKS)}")
    if "openml" in entry:
        ident = int(entry["openml"])
        source, variant = f"https://www.openml.org/d/{ident}", f"OpenML data set {ident}"
    else:
        path = Path(entry["file"])
        kind = entry.get("format") or FORMATS.get(path.suffix.lower())
        if kind not in FORMATS.values():
            raise ConfigError(
                f"cannot tell the format of {str(path)!r}: add format: (one of {sorted(set(FORMATS.values()))})"
            )
        if kind in ("csv", "parquet") and not entry.get("target"):
            raise ConfigError(f"a {kind} file needs target: the name of its label column")
        if not path.is_file():
            raise ConfigError(f"file {str(path)!r} does not exist (relative paths start at the working directory)")
        source, variant = str(path), f"a local {kind} file, declared in the config"
    return DatasetSpec(
        name=name,
        task=task,
        description=entry.get("description") or f"{variant} ({task})",
        files=(),
        parser=_Parser(name, task, entry),
        source=source,
        citation=entry.get("citation", ""),
        variant=variant,
        preprocessing="as declared in the config: features as given, labels coded for the task",
        shape=None,
    )


class _Parser:
    """The parser of one declared data set; equal to another of the same declaration (so :func:`declare` is idempotent)."""

    def __init__(self, name: str, task: str, entry: dict[str, Any]) -> None:
        self.name, self.task, self.entry = name, task, entry

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Parser) and (self.name, self.task, self.entry) == (
            other.name,
            other.task,
            other.entry,
        )

    def __hash__(self) -> int:
        return hash((self.name, self.task))

    def __call__(self, files: Mapping[str, Path]) -> Parsed:
        entry = self.entry
        if "openml" in entry:
            X, y, names = _openml(int(entry["openml"]), entry.get("target"))
        else:
            path = Path(entry["file"])
            found = file_digest(path)
            if found != entry["sha256"].lower():
                raise DataError(
                    f"{self.name}: {str(path)!r} has sha256 {found}, the config declares {entry['sha256']}: the file "
                    "changed; if the new file is the one you mean, put its sha256 in the config"
                )
            kind = entry.get("format") or FORMATS[path.suffix.lower()]
            X, y, names = _READERS[kind](path, entry.get("target"))
        if "openml" in entry and entry.get("sha256") and array_digest(X, y) != entry["sha256"].lower():
            raise DataError(
                f"{self.name}: OpenML data set {entry['openml']} loads with array sha256 {array_digest(X, y)}, the "
                f"config declares {entry['sha256']}: OpenML's copy changed"
            )
        return _coded(self.name, self.task, np.asarray(X), np.asarray(y), names)


def _frame(frame, target: str | None, where: str):
    """X, y and the feature names of a table whose column ``target`` holds the labels."""
    if target is None or target not in frame.columns:
        raise DataError(f"{where}: target column {target!r} is not one of its columns {list(frame.columns)[:20]}")
    features = frame.drop(columns=[target])
    text = [c for c in features.columns if features[c].dtype.kind not in "biuf"]
    if text:
        raise DataError(f"{where}: feature column(s) {text[:5]} are not numbers: encode them first (e.g. one-hot)")
    return features.to_numpy(dtype=np.float64), frame[target].to_numpy(), [str(c) for c in features.columns]


def _csv(path: Path, target: str | None):
    import pandas as pd

    return _frame(pd.read_csv(path), target, str(path))


def _parquet(path: Path, target: str | None):
    import pandas as pd

    try:
        frame = pd.read_parquet(path)
    except ImportError as exc:
        raise DataError(f"{path}: reading Parquet needs pyarrow: pip install pyarrow ({exc})") from None
    return _frame(frame, target, str(path))


def _libsvm(path: Path, target: str | None):
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(str(path))
    return X.toarray(), y, [f"feature{j + 1}" for j in range(X.shape[1])]


def _npz(path: Path, target: str | None):
    with np.load(path, allow_pickle=False) as npz:
        key = target or "y"
        if "X" not in npz or key not in npz:
            raise DataError(f"{path}: an .npz data set needs arrays 'X' and {key!r}, it has {sorted(npz.files)}")
        X, y = npz["X"], npz[key]
    return X, y, [f"feature{j + 1}" for j in range(np.shape(X)[1])]


_READERS = {"csv": _csv, "parquet": _parquet, "libsvm": _libsvm, "npz": _npz}


def _openml(ident: int, target: str | None):
    from sklearn.datasets import fetch_openml

    try:
        bunch = fetch_openml(data_id=ident, as_frame=True, target_column=target or "default-target")
    except Exception as exc:  # no cache and no network, an unknown id or column: say which data set
        raise DataError(f"OpenML data set {ident} could not be read ({type(exc).__name__}: {exc})") from None
    return _frame(bunch.frame, target or bunch.target_names[0], f"OpenML data set {ident}")


def _coded(name: str, task: str, X: np.ndarray, y: np.ndarray, names: list[str]) -> Parsed:
    """Labels coded for ``task`` (binary -1/+1, multi-class 0..K-1, regression floats), with missing values refused."""
    if X.ndim != 2 or not np.isfinite(X).all():
        bad = [names[j] for j in np.flatnonzero(~np.isfinite(X).all(axis=0))[:5]] if X.ndim == 2 else []
        raise DataError(f"{name}: features must be a finite 2-D table; missing or infinite values in {bad}")
    if task == "regression":
        target = y.astype(np.float64)
        if not np.isfinite(target).all():
            raise DataError(f"{name}: the regression target has missing values")
        return Parsed(X, target, names, {})
    labels = y if y.dtype.kind in "biuf" else y.astype(str)  # numbers in numeric order, names in text order
    classes, codes = np.unique(labels, return_inverse=True)
    if task == "binary":
        if classes.size != 2:
            raise DataError(f"{name}: task binary, but the target has {classes.size} classes: declare task: multiclass")
        return Parsed(
            X,
            np.where(codes == 1, 1, -1),
            names,
            {"positive_class": str(classes[1]), "negative_class": str(classes[0])},
        )
    return Parsed(X, codes.astype(np.int64), names, {"classes": [str(c) for c in classes]})
