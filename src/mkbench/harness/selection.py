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

A traced run (the history of every iteration) can also be stopped early by a table
(``stop``, :func:`stop_by`): the record is read at the iteration a stopping rule picks
(the lowest validation error, a relative duality gap, a violation tolerance), and
``fixed`` (:func:`keep_settings`) reads a gridded method at one named setting only.
"""

from __future__ import annotations

import ast

import numpy as np
import pandas as pd

from fnmatch import fnmatchcase

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


#: The stopping rules of :func:`stop_by`: ``"<metric>"`` (a traced metric, lowest), ``"gap_tol=<g>"``,
#: ``"tol=<t>"``.
STOP_RULES = ("<traced metric>", "gap_tol=<g>", "tol=<t>")

#: Record fields identifying one job (a row of a summary CSV and the rows of its history).
_JOB_KEYS = ["experiment", "dataset", "method", "seed", "split", "param"]


def stop_by(records: pd.DataFrame, history: pd.DataFrame, rule: str) -> pd.DataFrame:
    """Each traced job read at the iteration a stopping ``rule`` picks in its history (cgboost §5, early termination).

    ``rule`` is one of :data:`STOP_RULES`:

    * a traced metric such as ``"validation_error"``: the iteration with its lowest value, the first of
      tied ones (the fewest columns): the number of columns chosen on the validation part;
    * ``"gap_tol=<g>"``: the first iteration whose duality gap is at most g times the objective, where
      column generation with ``gap_tol=g`` stops (:func:`mkbench.cg.column_generation`; the gap is known
      after full scans only: NaN rows never stop, and a run with no gap never stops by this rule);
    * ``"tol=<t>"``: the first iteration whose largest violation is at most t, where a run with
      ``tol=t`` stops. Only for full scans (``p_strategy`` "full"): a stratified process prices fewer
      columns and a looser tol also changes which kernel supplies a column, so its other jobs are left out.

    The path before a stop is the same whatever the rule (column generation adds the same columns until
    it stops), so one traced run gives every rule. Each kept record takes that iteration's traced fields
    (``<part>_error``, ``<part>_mse``, ``<part>_q2``), its columns with nonzero alpha per kernel
    (``used_<kernel>`` -> ``columns_<kernel>``, their sum ``n_support``), ``n_iter`` (columns generated)
    and ``fit_seconds`` (seconds to that iteration, the tracing included), and says where it stopped:
    ``s_n_columns``, and ``stop_at_end``, True when a rule picked the last row of a run that ended at an
    iteration or time limit (a longer run might have stopped later) or never stopped in it (the rules
    but the lowest metric: the record's values are then NaN, not a model the rule picks).

    Raises
    ------
    ConfigError
        If the rule is unknown, or no job has the fields it needs (is the run traced?).
    """
    name, _, value = rule.partition("=")
    if name in ("gap_tol", "tol"):
        try:
            threshold = float(value)
        except ValueError:
            raise ConfigError(f"stop rule {rule!r}: {value!r} is not a number") from None
        field = "duality_gap" if name == "gap_tol" else "max_violation"
    elif value:
        raise ConfigError(f"unknown stop rule {rule!r}; the rules: {', '.join(STOP_RULES)}")
    else:
        threshold, field = None, name
    if field not in history:
        raise ConfigError(f"stop rule {rule!r} needs {field!r} in the runs' histories; is the experiment traced?")
    if name == "tol" and "p_strategy" in records:
        records = records[records["p_strategy"].astype(str) == "full"]
    rows = []
    histories = {key: group for key, group in history.groupby(_JOB_KEYS, sort=False, dropna=False)}
    for _, record in records.iterrows():
        trace = histories.get(tuple(record[key] for key in _JOB_KEYS))
        if trace is None or (threshold is None and trace[field].isna().all()):
            raise ConfigError(f"stop rule {rule!r}: job {tuple(record[k] for k in _JOB_KEYS)} has no traced {field!r}")
        trace = trace.sort_values("iteration", kind="stable")
        values = pd.to_numeric(trace[field])
        limited = str(record.get("status", "optimal")) != "optimal"
        if threshold is None:
            at = values.idxmin()
            rows.append(_stopped(record, trace, at, at == trace.index[-1] and limited))
            continue
        scale = pd.to_numeric(trace["objective"]).abs() if name == "gap_tol" else 1.0
        hit = values.le(threshold * scale) & values.notna()
        if hit.any():
            rows.append(_stopped(record, trace, hit.idxmax(), False))
        else:  # the run never stopped by the rule: nothing to read
            rows.append(_stopped(record, trace, None, True))
    return pd.DataFrame(rows, columns=[*records.columns, *_STOP_FIELDS]).reset_index(drop=True)


_STOP_FIELDS = ["s_n_columns", "stop_at_end"]


def _stopped(record: pd.Series, trace: pd.DataFrame, at, at_end: bool) -> pd.Series:
    """``record`` with the fields of ``trace``'s row ``at`` (None: NaN, the rule did not stop)."""
    out = record.copy()
    traced = [c for c in trace if c.endswith(("_error", "_mse", "_q2")) and c in record.index]
    used = [c for c in trace if c.startswith("used_")]
    row = trace.loc[at] if at is not None else pd.Series(np.nan, index=trace.columns)
    for field in traced:
        out[field] = row[field]
    for field in used:
        out["columns_" + field[len("used_") :]] = row[field]
    if used:
        out["n_support"] = pd.to_numeric(row[used]).sum(min_count=1)
    for field, source in (("n_iter", "n_columns"), ("fit_seconds", "seconds")):
        if field in record.index and source in trace:
            out[field] = row[source]
    out["s_n_columns"] = row.get("n_columns", np.nan)
    out["stop_at_end"] = bool(at_end)
    return out


def keep_settings(records: pd.DataFrame, fixed: dict[str, str]) -> pd.DataFrame:
    """Only the grid setting ``fixed[pattern]`` (e.g. ``"C=1e-07"``) of the methods matching ``pattern`` (fnmatch).

    A gridded method read at one setting, e.g. the one another table's selection chose, instead
    of a choice among its settings: it is reported as one method (``param`` "default", the setting in
    ``s_param``, as :func:`select_by` does). A pattern whose setting no record of its methods has is an error.
    """
    keep = pd.Series(True, index=records.index)
    for pattern, setting in fixed.items():
        mine = records["method"].astype(str).map(lambda method, p=pattern: fnmatchcase(method, p))
        if mine.any() and not (records.loc[mine, "param"].astype(str) == setting).any():
            raise ConfigError(
                f"fixed: no record of the methods {pattern!r} has the setting {setting!r}; "
                f"theirs: {', '.join(sorted(records.loc[mine, 'param'].astype(str).unique()))}"
            )
        keep &= ~mine | (records["param"].astype(str) == setting)
    kept = records[keep].copy()
    chosen = kept["method"].astype(str).map(lambda method: any(fnmatchcase(method, p) for p in fixed))
    kept.loc[chosen, "s_param"] = kept.loc[chosen, "param"]  # one method, as a selection reports its choice
    kept.loc[chosen, "param"] = "default"
    return kept


def describe_stops(records: pd.DataFrame) -> list[str]:
    """One line per method whose stop fell at the end of a run cut by a limit, or that never stopped by its rule."""
    if "stop_at_end" not in records:
        return []
    lines = []
    for method, group in records.groupby("method", sort=False):
        n = int(group["stop_at_end"].astype(bool).sum())
        if n:
            lines.append(f"{method} in {n} of {len(group)} runs")
    return lines
