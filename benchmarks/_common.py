"""What every benchmark script shares: timing, the machine, ratios against goals, and the JSON record.

Each script in this folder measures its method and a peer *in the same run* and
prints the ratios; with ``--json PATH`` it also writes a small record that
``benchmarks/dashboard.py`` gathers into ``results/BENCHMARKS.md``::

    {"benchmark": "pricing", "issue": 3, "title": ..., "command": ...,
     "parameters": {...},                       # what it ran with (argparse values)
     "ratios": [{"what", "ours", "peer", "value", "goal", "met", "condition", "note"}],
     "series": [{"label", "x", "sizes", "seconds"}],   # for the log-log scaling plot
     "tables": [{"title", "columns", "rows", "note"}], # side-by-side tables (peers), optional
     "timings": {...},                          # the raw measurements
     "notes": [...],                            # deviations from the issue's sizes, etc.
     "machine": {...}, "load": {"start": [1, 5, 15 min], "end": [...]},
     "started": ISO date, "wall_seconds": ...}

``ours`` and ``peer`` are ``{"label", "value", "unit"}``; ``goal`` is a string
``"<= 0.25"`` / ``">= 4"`` or None (a measured ratio the issues set no goal for),
and ``met`` is the goal applied to ``value`` (None without a goal). A goal may carry a
second requirement that is not a ratio, e.g. issue 44's "at a test error no worse than
the peer's + 0.5 points": ``condition`` is then ``{"what", "met"}`` and ``met`` requires
both (``condition`` is None otherwise; records before 2026-11-28 lack the key). A table's
``rows`` are lists of cells (str or number), one per ``columns`` entry; the
dashboard renders each one under its benchmark.
"""

from __future__ import annotations

import argparse
import operator
import os
import platform
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from mkbench._io import write_json

#: Versions recorded in "machine" ("absent" if not installed); the last four are the optional peers measured
#: beside ours (the ``[peers]`` extra; torch computes MKLpy's EasyMKL).
PACKAGES = (
    *("numpy", "scipy", "scikit-learn", "highspy", "osqp", "clarabel", "numba", "mkbench"),
    *("lightgbm", "xgboost", "MKLpy", "torch"),
)
_GOAL_OPERATORS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Wall-clock seconds of one call of ``fn`` and what it returned."""
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def best_of(fn: Callable[[], Any], repeats: int = 5) -> float:
    """The shortest of ``repeats`` timed calls of ``fn``: the least disturbed by other load."""
    return min(timed(fn)[0] for _ in range(repeats))


def loglog_slope(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) against log(size): the empirical order of growth."""
    return float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])


def measure(label: str, value: float, unit: str = "s") -> dict[str, Any]:
    """One side of a ratio: what was measured, its value and unit."""
    return {"label": label, "value": float(value), "unit": unit}


def goal_met(value: float, goal: str | None) -> bool | None:
    """Whether ``value`` meets ``goal`` ("<= 0.25", ">= 4"...); None when there is no goal.

    Raises
    ------
    ValueError
        If the goal is not an operator among <=, >=, <, > followed by a number.
    """
    if goal is None:
        return None
    op, _, threshold = goal.partition(" ")
    if op not in _GOAL_OPERATORS:
        raise ValueError(f"goal {goal!r} must be '<op> <number>' with <op> one of {', '.join(_GOAL_OPERATORS)}")
    return bool(np.isfinite(value) and _GOAL_OPERATORS[op](value, float(threshold)))


def ratio(
    what: str,
    ours: dict[str, Any],
    peer: dict[str, Any],
    value: float,
    goal: str | None = None,
    note: str = "",
    condition: tuple[str, bool] | None = None,
) -> dict[str, Any]:
    """A measured ratio beside its goal; ``value`` is given, since its direction depends on ``what``.

    Parameters
    ----------
    what : str
        What is compared, for the dashboard.
    ours, peer : dict
        The two sides (:func:`measure`).
    value : float
        The ratio.
    goal : str or None, default=None
        ``"<op> <number>"`` (:func:`goal_met`), or None for a ratio without goal.
    note : str, default=""
        Shown after ``what``.
    condition : (str, bool) or None, default=None
        A second requirement of the goal and whether it holds, e.g. ``("test error <=
        LightGBM's + 0.5 points", True)``: ``met`` is then the goal applied to ``value``
        and the condition.

    Raises
    ------
    ValueError
        If a condition is given without a goal.
    """
    if condition is not None and goal is None:
        raise ValueError(f"ratio {what!r}: a condition ({condition[0]!r}) qualifies a goal; give the goal too")
    met = goal_met(value, goal)
    if condition is not None:
        met = bool(met and condition[1])
    return {
        "what": what,
        "ours": ours,
        "peer": peer,
        "value": float(value),
        "goal": goal,
        "met": met,
        "condition": None if condition is None else {"what": condition[0], "met": bool(condition[1])},
        "note": note,
    }


def series(label: str, sizes: Sequence[float], seconds: Sequence[float], x: str = "n") -> dict[str, Any]:
    """A time-against-size series for the dashboard's log-log plot."""
    if len(sizes) != len(seconds):
        raise ValueError(f"series {label!r}: {len(sizes)} sizes but {len(seconds)} times")
    return {"label": label, "x": x, "sizes": [float(s) for s in sizes], "seconds": [float(s) for s in seconds]}


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], note: str = "") -> dict[str, Any]:
    """A side-by-side table for the dashboard: ``rows`` of cells (str or number), one cell per column.

    Raises
    ------
    ValueError
        If a row has not one cell per column.
    """
    for row in rows:
        if len(row) != len(columns):
            raise ValueError(f"table {title!r}: a row of {len(row)} cells for {len(columns)} columns: {list(row)}")
    return {"title": title, "columns": list(columns), "rows": [list(row) for row in rows], "note": note}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def _blas() -> list[dict[str, Any]]:
    from threadpoolctl import threadpool_info

    keys = ("internal_api", "version", "num_threads", "threading_layer", "architecture")
    found = [{key: info.get(key) for key in keys} for info in threadpool_info() if info.get("user_api") == "blas"]
    return sorted(found, key=lambda info: tuple(str(v) for v in info.values()))  # load order varies by script


def machine() -> dict[str, Any]:
    """CPU model, cores, memory, OS, Python, package versions and the BLAS in use."""
    packages = {}
    for name in PACKAGES:
        try:
            packages[name] = version(name)
        except PackageNotFoundError:
            packages[name] = "absent"
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "os": platform.platform(),
        "host": platform.node(),
        "python": platform.python_version(),
        "packages": packages,
        "blas": _blas(),
    }


def versions(names: Sequence[str]) -> str:
    """The installed versions of ``names`` ("colboost 0.1.5, gurobipy 13.0.3"; "absent" if not installed)."""
    found = []
    for name in names:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} absent")
    return ", ".join(found)


def parser(doc: str) -> argparse.ArgumentParser:
    """An argument parser with the options every benchmark takes: ``--json`` and ``--quick``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "--json", metavar="PATH", help="also write the measurements as JSON (see benchmarks/_common.py)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes (seconds): checks the script, measures nothing"
    )
    return parser


class Record:
    """The JSON record of one benchmark run; created at the start (load average, clock), written at the end.

    Parameters
    ----------
    name : str
        Benchmark name (the script's stem), e.g. "pricing".
    issue : int
        The issue whose performance goals it measures.
    title : str
        One line for the dashboard.
    args : argparse.Namespace
        The parsed options, recorded as the parameters.
    """

    def __init__(self, name: str, issue: int, title: str, args: argparse.Namespace) -> None:
        self.name, self.issue, self.title = name, issue, title
        self.parameters = {key: value for key, value in vars(args).items() if key != "json"}
        self.path = args.json
        self.ratios: list[dict[str, Any]] = []
        self.series: list[dict[str, Any]] = []
        self.tables: list[dict[str, Any]] = []
        self.timings: dict[str, Any] = {}
        self.notes: list[str] = []
        self._load_start = os.getloadavg()
        self._started = datetime.now(UTC).isoformat(timespec="seconds")
        self._clock = time.perf_counter()

    def add_ratio(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """Append :func:`ratio` (same arguments) and return it."""
        self.ratios.append(ratio(*args, **kwargs))
        return self.ratios[-1]

    def add_series(self, *args: Any, **kwargs: Any) -> None:
        """Append :func:`series` (same arguments)."""
        self.series.append(series(*args, **kwargs))

    def add_table(self, *args: Any, **kwargs: Any) -> None:
        """Append :func:`table` (same arguments)."""
        self.tables.append(table(*args, **kwargs))

    def write(self) -> None:
        """Write the record to the ``--json`` path, atomically; nothing without ``--json``."""
        if not self.path:
            return
        write_json(
            self.path,
            {
                "benchmark": self.name,
                "issue": self.issue,
                "title": self.title,
                "command": shlex.join(["python", *sys.argv]),
                "parameters": self.parameters,
                "ratios": self.ratios,
                "series": self.series,
                "tables": self.tables,
                "timings": self.timings,
                "notes": self.notes,
                "machine": machine(),
                "load": {"start": list(self._load_start), "end": list(os.getloadavg())},
                "started": self._started,
                "wall_seconds": time.perf_counter() - self._clock,
            },
        )
