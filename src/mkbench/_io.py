"""Atomic file output: write to a temporary file in the same folder, then rename.

A reader never sees a half-written file. A writer killed before it could clean up
(SIGKILL, power loss) leaves a hidden ``.<name>.<random>.tmp`` sibling behind; the
next successful write of the same file removes it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w", **kwargs: Any) -> Iterator[IO]:
    """Open a temporary sibling of ``path`` for writing; rename it onto ``path`` on success.

    On any exception the temporary file is removed and ``path`` is left untouched.
    On success, temporary siblings that killed writers of ``path`` left behind are removed.
    The file gets the mode a plain ``open`` would give it (0666 less the umask), not
    the private 0600 of the temporary file, so others can read what a run wrote.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.fchmod(fd, 0o666 & ~_umask())
    started_ns = os.fstat(fd).st_mtime_ns
    try:
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _remove_stale(path, started_ns)


def _umask() -> int:
    """The process's umask (reading it means setting it: set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _remove_stale(path: Path, before_ns: int) -> None:
    """Remove ``.<name>.<random>.tmp`` siblings of ``path`` last modified before ``before_ns``.

    Those are left by writers killed before they could clean up. (A second live
    writer of the same file, a mistake anyway, whose file is that old fails
    loudly at its rename.) The random part has no dot, so temporary files of
    other names (``<name>.verified.json``...) never match.
    """
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[^.]+\.tmp")
    for stale in path.parent.iterdir():
        if pattern.fullmatch(stale.name):
            with contextlib.suppress(FileNotFoundError):
                if stale.stat().st_mtime_ns < before_ns:
                    stale.unlink()


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Write ``obj`` as indented JSON, atomically."""
    with atomic_open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=1, sort_keys=False, default=_json_default)
        fh.write("\n")


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` atomically."""
    with atomic_open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def _json_default(obj: Any) -> Any:
    """Serialise numpy scalars and arrays, which ``json`` does not know."""
    import numpy as np

    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"cannot serialise {type(obj).__name__} to JSON")
