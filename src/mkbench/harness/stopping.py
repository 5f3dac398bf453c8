"""Records read at one point: a traced run stopped early, a gridded method at one setting.

A traced run (the history of every iteration) can be stopped early by a table
(``stop``, :func:`stop_by`): the record is read at the iteration a stopping rule picks
(the lowest validation error, a relative duality gap, a violation tolerance), and
``fixed`` (:func:`keep_settings`) reads a gridded method at one named setting only.
The choice among grid settings is :mod:`mkbench.harness.selection`'s.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

import numpy as np
import pandas as pd

from ..exceptions import ConfigError


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
