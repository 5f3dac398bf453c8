"""The data set registry: what a data set is made of, and how to look one up.

A :class:`DatasetSpec` names the raw files (:class:`RawFile`) a data set is
built from, the parser that turns them into arrays, and the documentation of
the variant and preprocessing. The spec modules (``uci``, ``vision``,
``raetsch``, ``bundled``) call :func:`register` at import time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from mkbench.exceptions import UnknownNameError

TASKS = ("binary", "multiclass", "regression")


@dataclass(frozen=True)
class RawFile:
    """One raw file of a data set, with how to get it and how to check it.

    Attributes
    ----------
    path : str
        Relative path, the same inside the cache and inside a mirror
        (e.g. ``"uci/abalone/abalone.data"``).
    url : str or None
        Canonical download URL; None when the file only exists in the mirror.
    sha256 : str or None
        sha256 of the *normalised content* (see :func:`mkbench.harness.datasets._fetch.content_digest`),
        shared by the mirror copy and a canonical download. None means the digest
        could not be known offline: the file is trusted on first use and its
        digest recorded in the cache.
    mirror_sha256 : str or None
        sha256 of the exact bytes of the mirror copy (``MANIFEST.tsv``).
    text : bool
        Text files are normalised before hashing (CRLF to LF, ``skip_lines``,
        ``rewrite``, trailing whitespace at the end removed); binary files are
        only decompressed.
    skip_lines : int
        Leading lines left out of the digest (a header that differs between copies).
    rewrite : tuple of (bytes, bytes)
        Regular-expression substitutions applied before hashing, for copies
        that differ from the canonical file in a documented, harmless way.
    optional : bool
        Used when present in the cache or mirror, never required.
    """

    path: str
    url: str | None
    sha256: str | None
    mirror_sha256: str | None = None
    text: bool = True
    skip_lines: int = 0
    rewrite: tuple[tuple[bytes, bytes], ...] = ()
    optional: bool = False


class Parsed(NamedTuple):
    """What a parser returns; :func:`mkbench.harness.datasets.load` adds the spec's documentation."""

    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    metadata: dict[str, Any]


Parser = Callable[[Mapping[str, Path]], Parsed]


@dataclass(frozen=True)
class DatasetSpec:
    """A registered data set.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"mnist"``.
    task : {"binary", "multiclass", "regression"}
    description : str
        One line for listings.
    files : tuple of RawFile
        The raw files, in the order :func:`~mkbench.harness.datasets.fetch` returns them.
    parser : callable
        ``parser(files) -> Parsed`` where ``files`` maps :attr:`RawFile.path` to
        the verified local file.
    source : str
        Canonical URL of the data (landing page or file).
    citation : str
        Who made the data, where it was published.
    variant : str
        Which version of the data this is (e.g. a stand-in for another set).
    preprocessing : str
        What :func:`~mkbench.harness.datasets.load` does to the raw files, in a sentence.
    shape : tuple of int, or None
        ``(n_samples, n_features)`` of the registered variant, checked on load.
    notes : str
        Caveats: unverified digests, unconfirmed label groupings, availability.
    public : bool
        False when the data cannot be obtained (loading raises :class:`DataError`).
    fallback_files : tuple of RawFile
        A second, complete source used when ``files`` cannot be obtained; the
        parser recognises which set it was given.
    """

    name: str
    task: str
    description: str
    files: tuple[RawFile, ...]
    parser: Parser | None = field(compare=False, repr=False)
    source: str
    citation: str
    variant: str
    preprocessing: str
    shape: tuple[int, int] | None
    notes: str = ""
    public: bool = True
    fallback_files: tuple[RawFile, ...] = ()

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ValueError(f"{self.name}: task {self.task!r} is not one of {TASKS}")
        if self.public and self.parser is None:
            raise ValueError(f"{self.name}: a public data set needs a parser")


_REGISTRY: dict[str, DatasetSpec] = {}


def register(*specs: DatasetSpec) -> None:
    """Add ``specs`` to the registry; a name may be registered once only."""
    for spec in specs:
        if spec.name in _REGISTRY:
            raise ValueError(f"data set {spec.name!r} is registered twice")
        _REGISTRY[spec.name] = spec


def list_datasets() -> list[DatasetSpec]:
    """Every registered data set, sorted by name."""
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def get_spec(name: str) -> DatasetSpec:
    """The spec registered as ``name``.

    Raises
    ------
    UnknownNameError
        If ``name`` is not registered; the message lists every known name.
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownNameError(f"unknown data set {name!r}; known data sets: {', '.join(sorted(_REGISTRY))}") from None
