"""Low-level readers shared by the parsers: text tables, ARFF, idx, label coding.

Every reader names the file and what is wrong with it in the
:class:`~mkbench.exceptions.DataError` it raises on a malformed file.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Sequence

import numpy as np

from mkbench.exceptions import DataError

GZIP_MAGIC = b"\x1f\x8b"
#: Errors that a damaged or truncated gzip stream raises while being read.
GZIP_ERRORS = (gzip.BadGzipFile, EOFError, zlib.error)


def read_bytes(path: str | os.PathLike) -> bytes:
    """The whole content of ``path``, decompressed if it is gzip (see :func:`gunzip`)."""
    with open(path, "rb") as raw:
        return gunzip(raw.read(), path)


def gunzip(data: bytes, source) -> bytes:
    """``data`` decompressed if it starts with the gzip magic number, else unchanged.

    Raises
    ------
    DataError
        If the gzip stream is damaged or truncated; the message names ``source``.
    """
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        return gzip.decompress(data)
    except GZIP_ERRORS as exc:
        raise DataError(f"{source}: damaged or truncated gzip data ({exc})") from exc


def read_rows(path: str | os.PathLike, *, n_fields: int, sep: str | None = None, skip_lines: int = 0) -> np.ndarray:
    """The fields of a text table file (gzip allowed); see :func:`split_rows`."""
    return split_rows(read_bytes(path).decode("latin-1"), path, n_fields=n_fields, sep=sep, skip_lines=skip_lines)


def split_rows(text: str, source, *, n_fields: int, sep: str | None = None, skip_lines: int = 0) -> np.ndarray:
    """Split the non-blank lines of a text table into fields.

    Parameters
    ----------
    text : str
        The table.
    source : path-like or str
        Named in error messages.
    n_fields : int
        Fields every row must have.
    sep : str or None, default=None
        Field separator; None splits on runs of whitespace. Fields are stripped.
    skip_lines : int, default=0
        Header lines to ignore.

    Returns
    -------
    ndarray of str, shape (n_rows, n_fields)

    Raises
    ------
    DataError
        If a row has the wrong number of fields or there is no row.
    """
    rows = []
    for lineno, line in enumerate(text.splitlines()[skip_lines:], start=skip_lines + 1):
        if not line.strip():
            continue
        fields = line.split() if sep is None else [f.strip() for f in line.split(sep)]
        if len(fields) != n_fields:
            raise DataError(
                f"{source}: line {lineno} has {len(fields)} fields, expected {n_fields}; "
                "the file is truncated or not the expected file"
            )
        rows.append(fields)
    if not rows:
        raise DataError(f"{source}: no data rows")
    return np.array(rows, dtype=str)


def to_float(cells, path: str | os.PathLike, what: str = "values") -> np.ndarray:
    """``np.asarray(cells, float64)``, raising :class:`DataError` naming ``path`` on a bad cell."""
    try:
        return np.asarray(cells, dtype=np.float64)
    except ValueError as exc:
        raise DataError(f"{path}: non-numeric {what} ({exc})") from exc


def read_arff(path: str | os.PathLike) -> tuple[np.ndarray, list[str]]:
    """Read an ARFF file (gzip allowed) with :func:`scipy.io.arff.loadarff`.

    Returns
    -------
    data : structured ndarray
        One field per attribute; nominal values are ``bytes``.
    names : list of str
        Attribute names in file order.
    """
    from scipy.io import arff

    text = io.StringIO(read_bytes(path).decode("latin-1"))
    try:
        data, meta = arff.loadarff(text)
    except (arff.ArffError, ValueError, IndexError) as exc:
        raise DataError(f"{path}: not a readable ARFF file ({exc})") from exc
    return data, list(meta.names())


def read_idx(path: str | os.PathLike) -> np.ndarray:
    """Read an idx file (LeCun's MNIST format, gzip allowed) of unsigned bytes.

    Raises
    ------
    DataError
        If the magic number is wrong or the file is shorter or longer than its header says.
    """
    data = read_bytes(path)
    if len(data) < 4 or data[:2] != b"\0\0" or data[2] != 0x08:
        raise DataError(f"{path}: not an idx file of unsigned bytes (bad magic number {data[:4]!r})")
    ndim = data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise DataError(f"{path}: idx header truncated ({len(data)} bytes)")
    shape = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim))
    expected = header + int(np.prod(shape))
    if len(data) != expected:
        raise DataError(
            f"{path}: idx file has {len(data)} bytes but its header {shape} needs {expected}; "
            "the file is truncated or damaged"
        )
    return np.frombuffer(data, dtype=np.uint8, offset=header).reshape(shape)


def binary_labels(
    values: Sequence[str] | np.ndarray, positive: str | Sequence[str], negative: str | Sequence[str], path
) -> np.ndarray:
    """Labels in {-1, +1}: +1 for ``positive`` values, -1 for ``negative`` ones.

    Raises
    ------
    DataError
        If a value is in neither group.
    """
    cells = np.asarray(values)
    pos = np.isin(cells, [positive] if isinstance(positive, str) else list(positive))
    neg = np.isin(cells, [negative] if isinstance(negative, str) else list(negative))
    _check_known(cells, pos | neg, path)
    return np.where(pos, 1, -1).astype(np.int64)


def class_codes(values: Sequence[str] | np.ndarray, classes: Sequence[str], path) -> np.ndarray:
    """Integer codes 0..K-1 of ``values`` in the order of ``classes``.

    Raises
    ------
    DataError
        If a value is not one of ``classes``.
    """
    cells = np.asarray(values)
    lookup = {c: i for i, c in enumerate(classes)}
    _check_known(cells, np.isin(cells, list(classes)), path)
    return np.fromiter((lookup[v] for v in cells), dtype=np.int64, count=cells.size)


def _check_known(values: np.ndarray, known: np.ndarray, path) -> None:
    if not known.all():
        bad = sorted(set(values[~known].tolist()))
        raise DataError(f"{path}: unexpected value(s) {bad[:5]}; not the expected file")


def one_hot(values: Sequence[str] | np.ndarray, levels: Sequence[str], name: str, path) -> tuple[np.ndarray, list[str]]:
    """One 0/1 column per level of a categorical variable, named ``name=level``.

    Raises
    ------
    DataError
        If a value is not one of ``levels``.
    """
    cells = np.asarray(values)
    _check_known(cells, np.isin(cells, list(levels)), path)
    columns = (cells[:, None] == np.asarray(levels)[None, :]).astype(np.float64)
    return columns, [f"{name}={level}" for level in levels]


def numbered(prefix: str, n: int) -> list[str]:
    """Feature names ``prefix1 .. prefixN``."""
    return [f"{prefix}{i}" for i in range(1, n + 1)]
