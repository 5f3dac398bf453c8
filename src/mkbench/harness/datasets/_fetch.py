"""Getting raw files into the cache: mirror first, then the canonical URL, always verified.

Checksums
---------
Mirror copies differ byte-wise from canonical downloads for several files
(re-gzipped, a final newline added, a header or CR removed), so each
:class:`~mkbench.harness.datasets.RawFile` carries two digests:

* ``sha256``: the sha256 of the *normalised content* (:func:`content_digest`),
  which the mirror copy and a canonical download share;
* ``mirror_sha256``: the sha256 of the exact bytes of the mirror copy.

A mirror copy must match both; a download must match ``sha256``. A file whose
digest could not be known offline (``sha256=None``) is trusted on first use:
its digest is recorded in the cache, a warning is issued once, and every later
copy must match the recorded digest.

Cache
-----
Files live at ``<data_home>/<RawFile.path>``; a sidecar
``<file>.verified.json`` records size, mtime, ctime and digest so that a file
already verified is not hashed again. The ctime (inode change time) changes with
every write and no tool can set it back, so even damage that keeps the size and
the mtime (a restore from backup, ``touch -r``) is hashed and caught. A cached
file that fails verification is renamed ``<file>.corrupt`` and fetched again.
Files are written to a temporary name and renamed only after they pass
verification, so no partial or unverified file is ever left under the real name.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import urllib.error
import urllib.request
import warnings
from pathlib import Path

from mkbench._io import atomic_open, write_json
from mkbench.exceptions import ChecksumError, DataError

from ._readers import gunzip
from ._registry import DatasetSpec, RawFile, get_spec

ENV_MIRROR = "MKBENCH_DATA_MIRROR"
ENV_DATA_HOME = "MKBENCH_DATA_HOME"
DOWNLOAD_TIMEOUT = 30.0
_CHUNK = 1 << 20
_MIRROR_HINT = (
    f"set {ENV_MIRROR}=/path/to/mirror, or pass --mirror DIR (command line) or `data: mirror: DIR` (workflow config)"
)


def resolve_data_home(data_home: str | os.PathLike | None = None) -> Path:
    """The cache folder: ``data_home``, else ``$MKBENCH_DATA_HOME``, else
    ``$XDG_CACHE_HOME/mkbench`` or ``~/.cache/mkbench``."""
    if data_home is not None:
        return Path(data_home).expanduser()
    if os.environ.get(ENV_DATA_HOME):
        return Path(os.environ[ENV_DATA_HOME]).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(xdg).expanduser() / "mkbench"


def resolve_mirror(mirror: str | os.PathLike | None = None) -> Path | None:
    """The mirror folder: ``mirror``, else ``$MKBENCH_DATA_MIRROR``, else None.

    Raises
    ------
    DataError
        If a mirror is named but is not a folder.
    """
    if mirror is None:
        mirror = os.environ.get(ENV_MIRROR) or None
    if mirror is None:
        return None
    path = Path(mirror).expanduser()
    if not path.is_dir():
        raise DataError(f"data mirror {str(path)!r} is not a folder; {_MIRROR_HINT}")
    return path


def normalise_text(data: bytes, raw: RawFile) -> bytes:
    """The normalised content of a text file: CRLF -> LF, the first ``skip_lines``
    lines dropped, ``raw.rewrite`` applied, trailing whitespace at the end removed."""
    data = data.replace(b"\r\n", b"\n")
    if raw.skip_lines:
        parts = data.split(b"\n", raw.skip_lines)
        data = parts[raw.skip_lines] if len(parts) > raw.skip_lines else b""
    for pattern, replacement in raw.rewrite:
        data = re.sub(pattern, replacement, data)
    return data.rstrip()


def content_digest(path: str | os.PathLike, raw: RawFile, *, source: str | None = None) -> str:
    """sha256 of the normalised content of ``path``: decompressed if gzip, and
    normalised with :func:`normalise_text` if ``raw.text``.

    Raises
    ------
    DataError
        If the file is a damaged or truncated gzip stream; the message names
        ``source`` (default: ``path``).
    """
    data = gunzip(Path(path).read_bytes(), source or path)
    if raw.text:
        data = normalise_text(data, raw)
    return hashlib.sha256(data).hexdigest()


def fetch(
    name: str,
    *,
    mirror: str | os.PathLike | None = None,
    data_home: str | os.PathLike | None = None,
    force: bool = False,
    include_optional: bool = False,
) -> list[Path]:
    """Put the raw files of data set ``name`` in the cache, verified, and return their paths.

    Parameters
    ----------
    name : str
        A registered name (:func:`~mkbench.harness.datasets.list_datasets`).
    mirror : path-like, optional
        Folder tried before the canonical URLs; default ``$MKBENCH_DATA_MIRROR``.
    data_home : path-like, optional
        Cache folder; see :func:`resolve_data_home`.
    force : bool, default=False
        Fetch again even if a verified copy is cached.
    include_optional : bool, default=False
        Also download optional files (e.g. the IDA ``benchmarks.mat``); by
        default they are used only when already in the cache or the mirror.

    Returns
    -------
    list of pathlib.Path
        The cached files (empty for data sets bundled with scikit-learn or generated).

    Raises
    ------
    UnknownNameError
        If ``name`` is not registered.
    DataError
        If the data are not public, or a file can be obtained neither from the
        mirror nor by download, or is damaged.
    ChecksumError
        If a copy does not match its digest; it is moved aside, never used.
    """
    files = obtain(get_spec(name), mirror=mirror, data_home=data_home, force=force, include_optional=include_optional)
    return list(files.values())


def obtain(
    spec: DatasetSpec,
    *,
    mirror: str | os.PathLike | None = None,
    data_home: str | os.PathLike | None = None,
    force: bool = False,
    include_optional: bool = False,
) -> dict[str, Path]:
    """Like :func:`fetch`, for a spec; returns ``{RawFile.path: cached file}``.

    When a file of ``spec.files`` is available from no source (as opposed to
    damaged) and the spec has ``fallback_files``, those are tried instead.
    """
    if not spec.public:
        raise DataError(f"data set {spec.name!r} is not public and cannot be fetched or loaded: {spec.notes}")
    options = dict(
        home=resolve_data_home(data_home), mirror=resolve_mirror(mirror), force=force, include_optional=include_optional
    )
    try:
        return _obtain_all(spec.files, **options)
    except _Unavailable as exc:
        if not spec.fallback_files:
            raise DataError(f"{exc} To use local copies, {_MIRROR_HINT}.") from exc
        try:
            return _obtain_all(spec.fallback_files, **options)
        except _Unavailable as alt:
            raise DataError(
                f"{exc} The alternative source of {spec.name!r} is unavailable too: {alt} "
                f"To use local copies, {_MIRROR_HINT}."
            ) from alt


class _Unavailable(DataError):
    """No copy of a file could be obtained (as opposed to a damaged copy)."""


def _obtain_all(files, *, home, mirror, force, include_optional) -> dict[str, Path]:
    out = {}
    for raw in files:
        download = include_optional or not raw.optional
        path = _fetch_file(raw, home, mirror, force=force, download=download)
        if path is not None:
            out[raw.path] = path
    return out


def _fetch_file(raw: RawFile, home: Path, mirror: Path | None, *, force: bool, download: bool) -> Path | None:
    """Return the verified cached copy of ``raw``, getting it if needed.

    Returns None only for an optional file (``download=False``) found neither
    in the cache nor in the mirror.
    """
    target = home / raw.path
    if target.exists() and not force:
        if _verify_cached(raw, target):
            return target
        moved = _quarantine(target)
        warnings.warn(f"cached {target} failed verification; moved to {moved} and fetching it again", stacklevel=3)

    failures = []
    mirror_error = None
    if mirror is None:
        failures.append("no data mirror is set")
    elif not (mirror / raw.path).is_file():
        failures.append(f"the mirror {mirror} has no {raw.path}")
    else:
        source = mirror / raw.path
        try:
            return _install(raw, target, lambda: open(source, "rb"), f"mirror copy {source}", mirror_copy=True)
        except DataError as exc:
            mirror_error = exc
        except OSError as exc:
            failures.append(f"reading the mirror copy {source} failed ({exc})")

    url = raw.url
    if download and url is None:
        failures.append("it has no download URL (the file exists only in the mirror)")
    elif download and url is not None:
        try:
            return _install(
                raw, target, lambda: urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT), f"download {raw.url}"
            )
        except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
            failures.append(f"download of {raw.url} failed ({getattr(exc, 'reason', exc)})")
    if mirror_error is not None:
        raise type(mirror_error)(f"{mirror_error} Then: {'; '.join(failures)}." if failures else str(mirror_error))
    if not download:
        return None
    raise _Unavailable(f"cannot obtain {raw.path}: {'; '.join(failures)}.")


def _install(raw: RawFile, target: Path, open_source, origin: str, *, mirror_copy: bool = False) -> Path:
    """Copy ``open_source()`` to ``target`` via a staging file, verify it, then rename it into place.

    A copy that fails verification is moved to ``<target>.corrupt`` and an
    error raised; on any other failure the staging file is removed.
    """
    staging = target.with_name(target.name + ".incoming")
    exact = hashlib.sha256()
    with open_source() as src, atomic_open(staging, "wb") as out:
        while chunk := src.read(_CHUNK):
            exact.update(chunk)
            out.write(chunk)
    try:
        if mirror_copy and raw.mirror_sha256 and exact.hexdigest() != raw.mirror_sha256:
            _fail(raw, origin, "exact bytes of the mirror copy", raw.mirror_sha256, exact.hexdigest(), staging, target)
        try:
            digest = content_digest(staging, raw, source=f"{raw.path} ({origin})")
        except DataError as exc:
            moved = _quarantine(staging, target)
            raise DataError(f"{exc}. The bad copy was moved to {moved} and is not used.") from exc
        expected, trust = _expected_digest(raw, target)
        if expected is not None and digest != expected:
            _fail(raw, origin, f"normalised content ({trust})", expected, digest, staging, target)
        os.replace(staging, target)
    finally:
        staging.unlink(missing_ok=True)
    _record(raw, target, digest, origin)
    return target


def _fail(raw, origin, what, expected, actual, staging, target) -> None:
    moved = _quarantine(staging, target)
    raise ChecksumError(
        f"checksum mismatch for {raw.path} ({origin}): sha256 of the {what} is {actual}, "
        f"expected {expected}. The bad copy was moved to {moved} and is not used."
    )


def _expected_digest(raw: RawFile, target: Path) -> tuple[str | None, str]:
    """The digest a copy of ``raw`` must have, and where it comes from."""
    if raw.sha256 is not None:
        return raw.sha256, "registry digest"
    record = _read_sidecar(target)
    if record and record.get("trust") == "first-use":
        return record["sha256"], f"digest recorded on first use in {_sidecar(target)}; delete it to trust a new copy"
    return None, "trust on first use"


def _verify_cached(raw: RawFile, target: Path) -> bool:
    """Whether the cached ``target`` is intact; cheap when its sidecar matches size, mtime and ctime."""
    expected, _ = _expected_digest(raw, target)
    record = _read_sidecar(target)
    stat = target.stat()
    if (
        record is not None
        and expected is not None
        and record.get("sha256") == expected
        and record.get("size") == stat.st_size
        and record.get("mtime_ns") == stat.st_mtime_ns
        and record.get("ctime_ns") == stat.st_ctime_ns
    ):
        return True
    try:
        digest = content_digest(target, raw)
    except DataError:
        return False
    if expected is not None and digest != expected:
        return False
    _record(raw, target, digest, "found in the cache")
    return True


def _record(raw: RawFile, target: Path, digest: str, origin: str) -> None:
    """Write the sidecar of a verified file; warn when its digest is trusted on first use."""
    previous = _read_sidecar(target)
    first_use = raw.sha256 is None and not (previous and previous.get("trust") == "first-use")
    if first_use:
        warnings.warn(
            f"{raw.path}: no published checksum is known offline; trusting this copy ({origin}) on "
            f"first use and recording sha256 {digest} in {_sidecar(target)}",
            stacklevel=4,
        )
    stat = target.stat()
    write_json(
        _sidecar(target),
        {
            "path": raw.path,
            "sha256": digest,
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
            "ctime_ns": stat.st_ctime_ns,
            "trust": "registry" if raw.sha256 is not None else "first-use",
            "origin": origin if first_use or previous is None else previous.get("origin", origin),
        },
    )


def _sidecar(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _read_sidecar(target: Path) -> dict | None:
    try:
        return json.loads(_sidecar(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _quarantine(path: Path, target: Path | None = None) -> Path:
    """Move ``path`` to ``<target or path>.corrupt`` (replacing an older one) and return the new name."""
    moved = (target or path).with_name((target or path).name + ".corrupt")
    os.replace(path, moved)
    return moved
