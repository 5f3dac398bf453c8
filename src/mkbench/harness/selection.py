"""Model selection in the records: the setting chosen per split, and choices at a grid edge.

A setting chosen at an edge of its grid (or of a searched range) is a sign that the
grid is too short.

A method's setting is chosen per split in one of two ways, and both leave their
trace in the records:

* on a validation part by the table (``select: validation_error``): every grid
  setting is a job of its own, named ``"C=0.1"`` or ``"C=10,nu=0.1"``
  (:func:`mkbench.harness.config.param_settings`), and :func:`select_by` keeps one per
  split; the grid of each parameter is every value its jobs took;
* by cross-validation inside the job (``StagedSearchCV``): the record keeps the
  grid (``p_param_grid``, ``p_svc_bandwidth_grid``, ``p_n_iters``), the choice
  (``s_C``, ``s_gamma``, ``s_max_iter`` or ``s_n_estimators``) and, in records
  written since, the mean CV error of every setting (``cv_results``, ``svc_cv_results``);
* by a search inside the job over a continuous range (the baselines' pattern
  search): the record keeps the range (``b_C_low``, ``b_C_high``) and the choice.

A parameter whose grid has fewer than two values is not chosen and never counts.
A table can also read a traced run early or a gridded method at one setting
(:mod:`mkbench.harness.stopping`).
"""

from __future__ import annotations

import ast

import numpy as np
import pandas as pd


from ..exceptions import ConfigError

#: Columns of :func:`grid_edges`.
COLUMNS = ["dataset", "method", "parameter", "low", "high", "n_runs", "n_low", "n_high", "margin"]

#: The fields that name one split of one method: a choice is made per such group.
_SPLIT_KEYS = ["dataset", "method", "seed", "split"]

#: The record fields holding a chosen iteration count (StagedSearchCV passes ``n_iters`` as one of them).
_ITERATION_FIELDS = ("s_max_iter", "s_n_estimators")


def select_by(records: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Model selection: per (dataset, method, seed, split), the grid setting with the lowest ``metric``.

    This is "C chosen on the validation set" (cgboost §5): every setting of a method's
    ``grid`` is fitted on the same split, and the one with the smallest validation
    error is kept; its setting is kept in ``param`` and the table reports it as
    one method. Failed jobs are never selected; a split where every setting
    failed keeps one failed row so that the failure is counted.
    """
    if metric not in records:
        raise ConfigError(f"cannot select by {metric!r}: it is in no record (is there a validation part?)")
    keys = _SPLIT_KEYS
    failed = records["status"].astype(str).str.startswith("failed")
    ranked = records.assign(_rank=np.where(failed, np.inf, pd.to_numeric(records[metric])))
    ranked = ranked.sort_values([*keys, "_rank"], kind="stable")
    chosen = ranked.groupby(keys, sort=False).head(1).drop(columns="_rank")
    return chosen.assign(s_param=chosen["param"], param="default")


def grid_edges(records: pd.DataFrame, select: str | None = None) -> pd.DataFrame:
    """Per data set, method and chosen parameter: how many runs chose the lowest or highest grid value.

    ``records`` are one experiment's records (a summary CSV); ``select`` is the
    table's selection metric, if it chooses among grid settings. Returns a frame
    with :data:`COLUMNS`, one row per (dataset, method, parameter) that was chosen.
    ``margin`` is, over the runs that chose an edge, the most by which the best setting
    inside the grid (any value of the parameter but the edge's) is worse in the selection
    error than the choice: near 0 on a plateau, where a longer grid would hardly move
    the model; NaN where the records keep no error per setting.
    """
    choices = []
    if select is not None and "param" in records and (records["param"] != "default").any():
        choices += _validation_choices(records, select)
    if "estimator" in records:
        choices += _cv_choices(records[records["estimator"] == "staged-cv"])
    choices += _searched_choices(records)
    if not choices:
        return pd.DataFrame(columns=COLUMNS)
    frame = pd.DataFrame(choices, columns=["dataset", "method", "parameter", "low", "high", "value", "margin"])
    frame = frame.assign(n_low=_same(frame["value"], frame["low"]), n_high=_same(frame["value"], frame["high"]))
    frame["margin"] = frame["margin"].astype(float).where(frame["n_low"] | frame["n_high"])
    return (
        frame.groupby(["dataset", "method", "parameter", "low", "high"], sort=True)
        .agg(n_runs=("value", "size"), n_low=("n_low", "sum"), n_high=("n_high", "sum"), margin=("margin", "max"))
        .reset_index()[COLUMNS]
    )


def describe_edges(edges: pd.DataFrame) -> list[str]:
    """One line per method and parameter chosen at an edge, summed over data sets (for tables and REPRODUCTION.md)."""
    lines = []
    for (method, parameter, low, high), group in edges.groupby(["method", "parameter", "low", "high"], sort=True):
        parts = [
            f"top ({high:g}) in {group['n_high'].sum()}" if group["n_high"].sum() else "",
            f"bottom ({low:g}) in {group['n_low'].sum()}" if group["n_low"].sum() else "",
        ]
        parts = [part for part in parts if part]
        if parts:
            margin = group["margin"].max()
            inside = f" (the best setting inside the grid at most {margin:.3g} worse)" if pd.notna(margin) else ""
            lines.append(f"{method} {parameter}: " + ", ".join(parts) + f" of {group['n_runs'].sum()} runs" + inside)
    return lines


def describe_failed_settings(records: pd.DataFrame, select: str | None) -> list[str]:
    """Grid settings that failed on some split, one line per method and setting (they were left out of the choice).

    Only for a choice on a validation part (``select``), where every setting is a job of
    its own: a failed setting silently shortens the grid the choice was made on, which a
    reader of the table must see. Cross-validated jobs fail or succeed as a whole and are
    counted in the table's failed runs.
    """
    if select is None or "status" not in records or records["param"].nunique() < 2:
        return []
    failed = records["status"].astype(str).str.startswith("failed")
    runs = records.groupby(["method", "param"]).size()
    lines = []
    for (method, param), n in records[failed].groupby(["method", "param"]).size().items():
        lines.append(f"{method} {param} in {n} of {runs[(method, param)]} runs")
    return lines


def _parse_setting(name: str) -> dict[str, float]:
    """``"C=10,nu=0.1"`` -> ``{"C": 10.0, "nu": 0.1}``; non-numeric values are left out."""
    out = {}
    for part in str(name).split(","):
        key, _, value = part.partition("=")
        try:
            out[key] = float(value)
        except ValueError:
            continue
    return out


def _validation_choices(records: pd.DataFrame, select: str) -> list[tuple]:
    """One choice per split and parameter. When several settings tie for the best ``select``, the
    choice is at an edge only if every tied setting is: a tie that reaches inside the grid is no sign
    of a short grid (e.g. a model that is the same for every C)."""
    grids: dict[tuple[str, str], list[float]] = {}
    for method, name in records[["method", "param"]].drop_duplicates().itertuples(index=False):
        for key, value in _parse_setting(name).items():
            grids.setdefault((method, key), []).append(value)
    ok = records[~records["status"].astype(str).str.startswith("failed")]
    ok = ok.assign(_score=pd.to_numeric(ok[select]))
    rows = []
    for (dataset, method, _, _), split in ok.groupby(_SPLIT_KEYS, sort=False):
        scores = [
            {**_parse_setting(name), "error": score}
            for name, score in zip(split["param"], split["_score"], strict=True)
        ]
        for key in _parse_setting(split["param"].iloc[0]):
            grid = grids[(method, key)]
            if len(set(grid)) > 1:
                low, high = min(grid), max(grid)
                edge = _edge_or_value(np.nan, low, high, _tied(scores, key))  # nan: not at an edge
                rows.append((dataset, method, key, low, high, edge, _margin(scores, key, edge)))
    return rows


def _cv_choices(records: pd.DataFrame) -> list[tuple]:
    """One choice per record and cross-validated parameter. A record that keeps the mean CV error of
    every setting (``cv_results``, ``svc_cv_results`` for the SVM's gamma) is read as the validation
    route is: with several settings tied for the lowest error, the choice is at an edge only if every
    tied setting is. Older records keep the choice alone, which is taken as it is."""
    from ..estimators.staged_search import N_ITERS  # the estimators load only when a record needs the default

    rows = []
    for _, record in records.iterrows():
        grid = _literal(record.get("p_param_grid")) or {}
        bandwidth = _literal(record.get("p_svc_bandwidth_grid")) or {}
        scores = _literal(record.get("cv_results"))
        from_svc = "gamma" in bandwidth and "gamma" not in grid
        if from_svc:
            grid["gamma"] = bandwidth["gamma"]
        for key, values in grid.items():
            if len(set(values)) > 1 and pd.notna(record.get(f"s_{key}")):
                tied = _tied(_literal(record.get("svc_cv_results")) if key == "gamma" and from_svc else scores, key)
                low, high = min(values), max(values)
                value = _edge_or_value(float(record[f"s_{key}"]), low, high, tied)
                if key == "C" and _same(value, low) and _empty_ensemble(record):
                    value = np.nan  # every smaller C gives the same empty model: the grid reaches its limit
                errors = _literal(record.get("svc_cv_results")) if key == "gamma" and from_svc else scores
                rows.append((record["dataset"], record["method"], key, low, high, value, _margin(errors, key, value)))
        iters = _literal(record.get("p_n_iters"))
        iters = N_ITERS if iters is None else iters
        for field in _ITERATION_FIELDS:
            if pd.notna(record.get(field)) and iters and len(set(iters)) > 1:
                low, high = min(iters), max(iters)
                tied = _tied(scores, field[len("s_") :])
                value = _edge_or_value(float(record[field]), low, high, tied)
                rows.append(
                    (
                        record["dataset"],
                        record["method"],
                        "iterations",
                        low,
                        high,
                        value,
                        _margin(scores, field[len("s_") :], value),
                    )
                )
    return rows


def _empty_ensemble(record: pd.Series) -> bool:
    """Whether the record's column-generation model took no column (``n_iter`` 0).

    Its pricing scores are bounded by C (every dual variable is), so no column enters at
    any smaller C either, and the model (the offset alone) is the same: a choice at the
    bottom of C is then the limit of the grid, not a sign that it is too short.
    """
    return pd.notna(record.get("cg_status")) and record.get("n_iter") == 0


def _tied(scores: list[dict] | None, key: str) -> np.ndarray | None:
    """The values of ``key`` among the settings tied for the lowest ``"error"`` in ``scores``; None if not recorded."""
    if not scores or any(key not in row for row in scores):
        return None
    errors = np.array([row["error"] for row in scores], dtype=float)
    if np.isnan(errors).all():
        return None
    best = np.isclose(errors, np.nanmin(errors), rtol=0, atol=1e-12)
    return np.array([row[key] for row in scores], dtype=float)[best]


def _margin(scores: list[dict] | None, key: str, edge: float) -> float:
    """How much worse in ``"error"`` the best setting of ``scores`` with ``key`` off ``edge`` is than the best
    of all; NaN when the errors are not recorded, ``edge`` is NaN or every setting sits at it."""
    if not scores or np.isnan(edge) or any(key not in row for row in scores):
        return np.nan
    errors = np.array([row["error"] for row in scores], dtype=float)
    inside = ~_same(np.array([row[key] for row in scores], dtype=float), edge) & ~np.isnan(errors)
    return float(errors[inside].min() - np.nanmin(errors)) if inside.any() else np.nan


def _same(a, b):
    """Whether grid values are the same setting: relative closeness only (grids of C reach 1e-30, where
    numpy's default absolute tolerance, 1e-8, would call every value equal)."""
    return np.isclose(a, b, rtol=1e-9, atol=0.0)


def _edge_or_value(chosen: float, low: float, high: float, tied: np.ndarray | None) -> float:
    """``chosen``, unless tied settings are known: then the edge every one of them sits at, or NaN (not at an edge)."""
    if tied is None:
        return chosen
    edge = [bound for bound in (low, high) if _same(tied, bound).all()]
    return edge[0] if edge else np.nan


def _searched_choices(records: pd.DataFrame) -> list[tuple]:
    """Choices of a continuous search (a pattern search) against the range it searched (``b_<key>_low/high``)."""
    rows = []
    for column in records.columns:
        if not (column.startswith("b_") and column.endswith("_low")):
            continue
        key = column[2 : -len("_low")]
        if f"s_{key}" not in records:
            continue
        found = records.dropna(subset=[column, f"b_{key}_high", f"s_{key}"])
        rows += [
            (r["dataset"], r["method"], key, float(r[column]), float(r[f"b_{key}_high"]), float(r[f"s_{key}"]), np.nan)
            for _, r in found.iterrows()
        ]
    return rows


def _literal(text):
    """A Python literal stored as text in a record (a grid dict or list); None if absent."""
    if text is None or (isinstance(text, float) and np.isnan(text)):
        return None
    return ast.literal_eval(text) if isinstance(text, str) else text
