"""The statistics that decide a published claim, computed from our records.

A claim's check (``config/claims.yaml``) names one of three sources and reduces it
to *comparisons*: one number per group (data set, grid setting...) set against a
threshold the claim implies.

``summary``
    ``results/summary/<experiment>.csv``, one row per fit job. Each run's value is
    a record field (or the sum of several, e.g. columns of every kernel).
``history``
    ``results/summary/<experiment>.history.csv``, one row per iteration of each
    run. Each run's value reduces its curve: its ``final`` or ``min`` value, its
    ``mean`` over iterations, its ``rise`` from the minimum to the end (a curve
    that goes up: over-fitting), its ``tail_drop`` over the last fifth of the
    iterations (a curve still falling: not finished learning), or its value ``at``
    a given x. ``reach`` compares two methods' curves: the x at which each first
    gets to the worse of their two final values.
``bench``
    ``results/bench/<name>.json``, a benchmark record: values read by key paths (one
    measurement each), or the log-log slope of one of its series (``{series: label}``).

A run of a grid setting is named ``method@param`` (``mark-l-C@C=1.0``), unless
the check selects one setting per split (``select: validation_error``).
With two methods (``a``, the subject of the claim, and ``b``, the one it is set
against) a comparison is ``b - a`` paired over the runs both have (same data set,
seed and split; statistic ``difference``), ``mean(b) / mean(a)`` over the same runs
(``ratio``), or ``trend``, Spearman's rho between the last grouping field and the size
of the groups' mean differences (does the difference shrink as the field grows?).
With one method it is that method's mean value. Each carries its standard error
(:mod:`mkbench.harness.claim_statistics`). Each comparison must be ``>= at_least``,
``<= at_most``, or both; one whose distance to a threshold is under two standard
errors is *within noise*.

This module reads files and computes; it never runs a method.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..exceptions import ConfigError
from .claim_statistics import Comparison, difference, loglog_slope, mean_se, ratio, trend
from .selection import select_by

__all__ = ["REDUCTIONS", "RUN_KEYS", "Comparison", "MissingRecords", "run_check"]

#: What identifies one run across methods: two methods are paired on these.
RUN_KEYS = ["dataset", "seed", "split"]

#: Reductions of a run's curve to one number (``history`` checks).
REDUCTIONS = ("final", "min", "mean", "rise", "tail_drop", "at", "reach")


class MissingRecords(Exception):
    """The records a check needs are not on disk (the experiment was not run yet)."""


def run_check(check: dict[str, Any], root: str | os.PathLike = ".") -> list[Comparison]:
    """The comparisons of one claim's check, computed from the files under ``root``.

    Raises
    ------
    MissingRecords
        If a file the check reads does not exist, or it has no rows for a method.
    ConfigError
        If the check names a field or reduction the records do not have.
    """
    source = check["source"]
    if source == "bench":
        return _bench(check, Path(root))
    values = _run_values(check, Path(root))
    groups = check.get("by", ["dataset"])
    bounds = {key: check[key] for key in ("at_least", "at_most") if key in check}
    if "b" not in check:
        return [_single(label, frame, bounds, check["a"]) for label, frame in _grouped(values, groups)]
    comparisons = []
    for b in _as_list(check["b"]):
        paired = values[["a", b]].dropna()
        if paired.empty:
            raise MissingRecords(f"no run has both {check['a']!r} and {b!r}")
        if check.get("statistic") == "trend":
            comparisons.append(_trend(paired, b, check, groups, bounds))
            continue
        for label, frame in _grouped(paired, groups):
            operator = " / " if check.get("statistic") == "ratio" else " − "
            comparisons.append(_pair(f"{label}{b}{operator}{check['a']}", frame, b, check, bounds))
    return comparisons


def _run_values(check: dict[str, Any], root: Path) -> pd.DataFrame:
    """One row per run (grouping fields and RUN_KEYS as index), one column per method: its value."""
    methods = {"a": check["a"], **{b: b for b in _as_list(check.get("b", []))}}
    frame = _read(check, root)
    param = frame["param"].astype(str) if "param" in frame else pd.Series("default", index=frame.index)
    frame = frame.assign(method=frame["method"].where(param == "default", frame["method"] + "@" + param))
    wanted = frame["method"].isin(list(methods.values()))
    wanted |= frame["method"].str.split("@").str[0].isin(list(methods.values()))
    frame = frame[wanted]
    for field, allowed in check.get("where", {}).items():
        if field not in frame:
            raise ConfigError(f"claim check filters on {field!r}, which the records do not have")
        frame = frame[frame[field].astype(str).isin([str(v) for v in _as_list(allowed)])]
    keys = list(dict.fromkeys([*check.get("by", ["dataset"]), *RUN_KEYS]))
    if check["source"] == "summary":
        runs = frame.assign(_value=_metric(frame, check["metric"]))[[*keys, "method", "_value"]]
    elif check.get("reduce") == "reach":
        runs = _reach(frame, check, keys, methods)
    else:
        runs = _reduce_curves(frame, check, keys)
    if runs.duplicated([*keys, "method"]).any():
        raise ConfigError(
            f"claim check on {_files(check)} has several rows per run and method (grid settings?): "
            "pick one with `where: {param: ...}` or `select: validation_error`"
        )
    table = runs.pivot_table(index=keys, columns="method", values="_value", aggfunc="first")
    for method in methods.values():
        if method not in table:
            settings = sorted(name for name in runs["method"].unique() if name.startswith(f"{method}@"))
            hint = f"; its grid settings are {', '.join(settings)}, or select one per split" if settings else ""
            raise MissingRecords(f"no records of method {method!r} in {_files(check)}{hint}")
    return table.rename(columns={methods["a"]: "a"})


def _read(check: dict[str, Any], root: Path) -> pd.DataFrame:
    suffix = ".csv" if check["source"] == "summary" else ".history.csv"
    frames = []
    for experiment in _as_list(check["experiment"]):
        path = root / "results" / "summary" / f"{experiment}{suffix}"
        if not path.exists():
            raise MissingRecords(f"{path.relative_to(root)} is missing")
        frames.append(pd.read_csv(path))
    frame = pd.concat(frames, ignore_index=True)
    if check.get("select"):
        frame = select_by(frame, check["select"])
    return frame


def _files(check: dict[str, Any]) -> str:
    suffix = ".csv" if check["source"] == "summary" else ".history.csv"
    return ", ".join(f"results/summary/{e}{suffix}" for e in _as_list(check["experiment"]))


def _metric(frame: pd.DataFrame, metric: str | list[str]) -> pd.Series:
    """A record field, or the sum of several (a field absent from a row counts 0, e.g. no RBF columns)."""
    fields = _as_list(metric)
    missing = [field for field in fields if field not in frame]
    if len(missing) == len(fields):
        raise ConfigError(f"claim check reads {metric!r}, which the records do not have")
    present = [field for field in fields if field in frame]
    values = frame[present].apply(pd.to_numeric, errors="coerce")
    return values.sum(axis=1, min_count=1) if len(fields) > 1 else values[present[0]]


def _curves(frame: pd.DataFrame, check: dict[str, Any], keys: list[str]):
    """Each run's curve: (keys + method, x values, y values), x ascending."""
    x, y = check.get("x", "iteration"), check["metric"]
    for field in (x, y):
        if field not in frame:
            raise ConfigError(f"claim check reads {field!r}, which the histories do not have")
    frame = frame.dropna(subset=[y]).sort_values(x, kind="stable")
    for run, curve in frame.groupby([*keys, "method"], sort=False):
        yield run, curve[x].to_numpy(float), curve[y].to_numpy(float)


def _reduce_curves(frame: pd.DataFrame, check: dict[str, Any], keys: list[str]) -> pd.DataFrame:
    reduce = check.get("reduce", "final")
    if reduce not in REDUCTIONS:
        raise ConfigError(f"unknown reduction {reduce!r}; reductions: {', '.join(REDUCTIONS)}")
    rows = []
    for run, x, y in _curves(frame, check, keys):
        if reduce == "final":
            value = y[-1]
        elif reduce == "min":
            value = y.min()
        elif reduce == "mean":
            value = y.mean()
        elif reduce == "rise":
            value = y[-1] - y.min()
        elif reduce == "tail_drop":
            start = np.searchsorted(x, x[0] + 0.8 * (x[-1] - x[0]))
            value = y[start] - y[-1]
        else:  # "at": the last value at or before x = check["at"]
            upto = np.searchsorted(x, check["at"], side="right")
            value = y[upto - 1] if upto else np.nan
        rows.append((*run, value))
    return pd.DataFrame(rows, columns=[*keys, "method", "_value"])


def _reach(frame: pd.DataFrame, check: dict[str, Any], keys: list[str], methods: dict) -> pd.DataFrame:
    """Per run pair: the x at which each method's curve first reaches the worse of their two final values.

    Lower values are better (an objective being minimised, an error). Every method
    named in the check is paired with ``a`` on the same run.
    """
    curves = {run: (x, y) for run, x, y in _curves(frame, check, keys)}
    rows = []
    for *run, method in curves:
        if method != methods["a"]:
            continue
        xa, ya = curves[(*run, method)]
        for b in methods.values():
            if b == method or (*run, b) not in curves:
                continue
            xb, yb = curves[(*run, b)]
            level = max(ya[-1], yb[-1])
            rows.append((*run, method, xa[np.argmax(ya <= level)]))
            rows.append((*run, b, xb[np.argmax(yb <= level)]))
    return pd.DataFrame(rows, columns=[*keys, "method", "_value"])


def _grouped(values: pd.DataFrame, groups: list[str]):
    """The rows of each group, labelled ``"value, "``; with no groups, all rows at once (pooled)."""
    if not groups:
        yield "all data sets, ", values
        return
    for label, frame in values.groupby(level=groups, sort=True):
        label = label if isinstance(label, tuple) else (label,)
        yield "".join(f"{part}, " for part in label), frame


def _datasets(frame: pd.DataFrame) -> tuple[str, ...]:
    """The data sets of a group's runs."""
    return tuple(sorted(map(str, frame.index.get_level_values("dataset").unique())))


def _single(label: str, frame: pd.DataFrame, bounds: dict, method: str) -> Comparison:
    values = frame["a"].dropna()
    if values.empty:
        raise MissingRecords(f"no value for {label.rstrip(', ')}")
    value, se = mean_se(values.to_numpy())
    return Comparison(
        label.rstrip(", ") or "all runs", value, se, len(values), **bounds, methods=(method,), datasets=_datasets(frame)
    )


def _pair(label: str, frame: pd.DataFrame, b: str, check: dict, bounds: dict) -> Comparison:
    statistic = check.get("statistic", "difference")
    if statistic not in ("difference", "ratio"):
        raise ConfigError(f"unknown statistic {statistic!r}; statistics: difference, ratio, trend")
    value, se = (difference if statistic == "difference" else ratio)(frame["a"].to_numpy(), frame[b].to_numpy())
    return Comparison(label, value, se, len(frame), **bounds, methods=(check["a"], b), datasets=_datasets(frame))


def _trend(paired: pd.DataFrame, b: str, check: dict, groups: list[str], bounds: dict) -> Comparison:
    """Spearman's rho between the last ``by`` field and the size ``|mean(b - a)|`` of each group's difference.

    A negative rho: the difference between the two methods shrinks as that field
    (e.g. the number of labelled points) grows. Its standard error is a seeded bootstrap of the runs.
    """
    if not groups:
        raise ConfigError("statistic trend needs `by` to end with the field the trend runs along (e.g. n_train)")
    along = groups[-1]
    diffs = (paired[b] - paired["a"]).groupby(level=along)
    levels = list(diffs.groups)
    rho, se = trend(np.array(levels, dtype=float), [diffs.get_group(k).to_numpy() for k in levels])
    shown = ", ".join(f"{k:g}: {v:.3g}" for k, v in diffs.mean().abs().items())
    label = f"rho of |{b} − {check['a']}| against {along} ({shown})"
    return Comparison(label, rho, se, len(levels), **bounds, methods=(check["a"], b), datasets=_datasets(paired))


def _bench(check: dict[str, Any], root: Path) -> list[Comparison]:
    """A benchmark record's values: one measured number each (a key path: one run, no uncertainty), or the
    log-log slope of a series (``{series: label}``) with its standard error."""
    path = root / "results" / "bench" / f"{check['bench']}.json"
    if not path.exists():
        raise MissingRecords(f"{path.relative_to(root)} is missing")
    with open(path, encoding="utf-8") as fh:
        record = json.load(fh)
    bounds = {key: check[key] for key in ("at_least", "at_most") if key in check}
    out = []
    for label, keys in check["values"].items():
        if isinstance(keys, dict):
            series = _lookup(record, ["series", {"label": keys["series"]}], path)
            slope, se = loglog_slope(series["sizes"], series["seconds"])
            out.append(Comparison(label, slope, se, len(series["sizes"]), **bounds))
        else:
            out.append(Comparison(label, float(_lookup(record, keys, path)), float("nan"), 1, **bounds))
    return out


def _lookup(record: Any, keys: list, path: Path) -> Any:
    """Follow ``keys`` into a JSON record; a ``{field: text}`` key picks the list item whose field contains text."""
    node = record
    for key in keys:
        if isinstance(key, dict):
            ((field, text),) = key.items()
            matches = [item for item in node if text in str(item.get(field, ""))]
            if len(matches) != 1:
                raise ConfigError(f"{path.name}: {len(matches)} items have {field!r} containing {text!r}; need one")
            node = matches[0]
        else:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                raise ConfigError(f"{path.name} has no {key!r} on the path {keys}") from None
    return node


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]
