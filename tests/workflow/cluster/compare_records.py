"""Check that two results/runs trees hold the same records, timing fields aside.

Usage::

    python tests/workflow/cluster/compare_records.py LEFT/results/runs RIGHT/results/runs [--rtol 1e-9]

Both trees must hold the same record files (``<experiment>/<dataset>/<method>/<param>/
seed<S>-split<K>.json``), and every field of every record must be equal, except the fields
that measure the run rather than the result: ``fit_seconds``, ``predict_seconds``, their ``_cpu_`` twins,
``finished``, ``host``, ``versions`` and ``history[*].seconds``. Floats are equal when
they agree to ``rtol`` (relative); NaN equals NaN. Exits 0 when the trees agree, 1 naming
the first file and field that differ, 2 on bad arguments (a missing or empty tree).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

#: Top-level record fields that describe the run, not its result.
TIMING_FIELDS = frozenset(
    {"fit_seconds", "predict_seconds", "fit_cpu_seconds", "predict_cpu_seconds", "finished", "host", "versions"}
)
#: Fields of each ``history`` entry that describe the run.
HISTORY_TIMING_FIELDS = frozenset({"seconds"})


def record_files(root: Path) -> list[str]:
    """The record files under ``root``, as sorted POSIX paths relative to it."""
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*.json"))


def _ignored(path: tuple) -> bool:
    """Whether the field at ``path`` (keys and list indices from the record's root) is timing."""
    if len(path) == 1 and path[0] in TIMING_FIELDS:
        return True
    return len(path) == 3 and path[0] == "history" and path[2] in HISTORY_TIMING_FIELDS


def _format(path: tuple) -> str:
    return "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")


def first_difference(left, right, rtol: float, path: tuple = ()) -> str | None:
    """The first field where two JSON values differ, as ``"field: left != right"``, or None."""
    where = _format(path) or "<record>"
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            if _ignored(path + (key,)):
                continue
            if key not in left or key not in right:
                side = "left" if key not in left else "right"
                return f"{_format(path + (key,))}: missing on the {side}"
            found = first_difference(left[key], right[key], rtol, path + (key,))
            if found:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            return f"{where}: {len(left)} items != {len(right)} items"
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            found = first_difference(a, b, rtol, path + (index,))
            if found:
                return found
        return None
    numbers = (int, float)
    if (
        isinstance(left, numbers)
        and isinstance(right, numbers)
        and not isinstance(left, bool)
        and not isinstance(right, bool)
    ):
        if left == right or (math.isnan(left) and math.isnan(right)):
            return None
        if math.isclose(left, right, rel_tol=rtol, abs_tol=0.0):
            return None
        return f"{where}: {left!r} != {right!r}"
    if type(left) is not type(right) or left != right:
        return f"{where}: {left!r} != {right!r}"
    return None


def compare_trees(left: Path, right: Path, rtol: float = 1e-9) -> tuple[int, str | None]:
    """Compare two runs trees: (number of records found equal, the first difference or None)."""
    left_files, right_files = record_files(left), record_files(right)
    only_left = sorted(set(left_files) - set(right_files))
    only_right = sorted(set(right_files) - set(left_files))
    if only_left or only_right:
        name, side = (only_left[0], right) if only_left else (only_right[0], left)
        missing = len(only_left) + len(only_right)
        return 0, f"{name}: missing from {side} ({missing} file(s) in one tree only)"
    for index, name in enumerate(left_files):
        with open(left / name) as a, open(right / name) as b:
            found = first_difference(json.load(a), json.load(b), rtol)
        if found:
            return index, f"{name}: {found}"
    return len(left_files), None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("left", type=Path, help="a results/runs directory")
    parser.add_argument("right", type=Path, help="the results/runs directory to compare with")
    parser.add_argument("--rtol", type=float, default=1e-9, help="relative tolerance for floats")
    args = parser.parse_args(argv)
    for root in (args.left, args.right):
        if not root.is_dir() or not record_files(root):
            print(f"error: {root} is not a directory holding record files (*.json)", file=sys.stderr)
            return 2
    count, difference = compare_trees(args.left, args.right, args.rtol)
    if difference:
        print(f"records differ: {difference}", file=sys.stderr)
        return 1
    print(f"{count} records equal in every non-timing field ({args.left} vs {args.right})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
