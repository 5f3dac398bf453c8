"""Records -> tables with the papers' numbers beside ours (the figures: :mod:`mkbench.harness.figures`).

This module reads records (:mod:`mkbench.harness.experiment`) and the published values in
``config/reference/*.csv``; it never runs a method. A reference CSV has one row per
published number: ``paper, table, dataset, method, metric, mean, std, unit, note``.
Published values are shown in their own ``(paper)`` column, never in place of ours.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import atomic_open, write_text
from ..exceptions import ConfigError, DataError
from .render import to_html, to_markdown
from .stopping import describe_stops, keep_settings, stop_by
from .selection import (
    describe_edges,
    describe_failed_settings,
    grid_edges,
    select_by,
)

#: Storage of MARK-L's fixed policy (T = 100 weak RBF columns): 3T + 1 numbers (MARK §5.2).
MARK_L_STORAGE = 3 * 100 + 1

REFERENCE_COLUMNS = ["paper", "table", "dataset", "method", "metric", "mean", "std", "unit", "note"]


def collect_records(paths: Iterable[str | os.PathLike]) -> pd.DataFrame:
    """Read record files into a frame, one row per job (history and versions left out).

    Raises
    ------
    DataError
        If a record is missing or not valid JSON (a truncated record names its file).
    """
    rows = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                record = json.load(fh)
        except (OSError, json.JSONDecodeError) as exc:
            raise DataError(f"record {os.fspath(path)!r} is unreadable ({exc}); delete it and rerun its job") from exc
        history = record.pop("history", None) or []
        for size in ("problem_rows", "problem_columns"):  # the largest restricted problem (SSMK §4)
            if history and isinstance(history[0], dict) and size in history[0]:
                record[f"max_{size}"] = max(row[size] for row in history)
        record.pop("versions", None)
        for key, value in record.pop("selected", {}).items():
            record[f"s_{key}"] = value
        for key, (low, high) in record.pop("search_bounds", {}).items():
            record[f"b_{key}_low"], record[f"b_{key}_high"] = low, high
        rows.append(record)
    if not rows:
        raise DataError("no records to report on")
    frame = pd.DataFrame(rows)
    if "storage" in frame:
        # The papers' "Storage" rows are ratios to MARK-L's model (MARK Tables 1-3).
        frame["storage_ratio"] = frame["storage"] / MARK_L_STORAGE
    return frame


#: Columns identifying one job; the grid setting ``param`` is one of them.
JOB_KEYS = ["experiment", "dataset", "method", "seed", "split", "param"]


def collect_histories(paths: Iterable[str | os.PathLike]) -> pd.DataFrame:
    """Per-iteration histories of the records at ``paths`` in long format.

    One row per (job, iteration): the job's identifying fields (:data:`JOB_KEYS`)
    followed by the history fields (objective, duality gap, columns, a traced
    validation error...). Records without a history add no rows.
    """
    frames = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
        if record.get("history"):
            frame = pd.DataFrame(record["history"])
            for key in reversed(JOB_KEYS):
                frame.insert(0, key, record.get(key))
            frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=JOB_KEYS)


def summarise(records: pd.DataFrame, metrics: list[str], accept_status: Iterable[str] = ()) -> pd.DataFrame:
    """Mean, standard deviation and count of each metric per (dataset, method).

    A job whose ``status`` starts with ``"failed"`` is counted in ``n_failed`` and
    left out of the means, so a failure is visible rather than a silent number. A
    job that ended neither optimal nor failed (``"max_iter"``: an iteration or time
    limit; ``"not converged: ..."``: a scikit-learn solver's ConvergenceWarning) is
    averaged in and counted in ``n_not_optimal``, unless its status is in
    ``accept_status`` (the protocol's intended end, e.g. ``"max_iter"`` for an
    ensemble of T learners).
    Settings of a method's parameter grid are never averaged together: each is a
    method of its own, labelled ``"method [C=1.0]"``.
    """
    missing = [m for m in metrics if m not in records]
    if missing:
        raise ConfigError(
            f"metric(s) {', '.join(missing)} are in no record; available: "
            f"{', '.join(sorted(c for c in records if records[c].dtype.kind in 'fiu'))}"
        )
    records = label_settings(records)
    failed = records["status"].astype(str).str.startswith("failed")
    keys = ["dataset", "method"]
    ok = records[~failed]
    long = ok.melt(id_vars=keys, value_vars=metrics, var_name="metric")
    long["value"] = pd.to_numeric(long["value"])
    summary = long.groupby(keys + ["metric"], sort=False)["value"].agg(["mean", "std", "count"])
    summary = summary.rename(columns={"count": "n"}).reset_index()
    not_optimal = ~failed & ~records["status"].astype(str).isin(["optimal", *accept_status])
    for name, rows in (("n_failed", failed), ("n_not_optimal", not_optimal)):
        counts = records[rows].groupby(keys).size().rename(name).reset_index()
        summary = summary.merge(counts, on=keys, how="left")
        summary[name] = summary[name].fillna(0).astype(int)
    return summary


def load_reference(path: str | os.PathLike, table: str | list[str]) -> pd.DataFrame:
    """The published values of ``table`` (one id or a list) in the reference CSV at ``path``."""
    if not Path(path).exists():
        raise ConfigError(
            f"reference file {os.fspath(path)!r} does not exist; published numbers go in "
            "config/reference/<paper>.csv (columns: " + ", ".join(REFERENCE_COLUMNS) + ")"
        )
    ref = pd.read_csv(path, comment="#")
    absent = [c for c in REFERENCE_COLUMNS if c not in ref]
    if absent:
        raise ConfigError(f"reference file {os.fspath(path)!r} lacks column(s) {', '.join(absent)}")
    wanted = [table] if isinstance(table, str) else list(table)
    rows = ref[ref["table"].isin(wanted)]
    if rows.empty:
        raise ConfigError(
            f"reference file {os.fspath(path)!r} has no rows for table(s) {wanted}; "
            f"tables in it: {', '.join(sorted(ref['table'].unique()))}"
        )
    return rows


def paper_vs_ours(summary: pd.DataFrame, reference: pd.DataFrame | None) -> pd.DataFrame:
    """One row per (dataset, method, metric) with ours and the paper's values side by side.

    Methods or data sets that only the paper has (e.g. the HIV data, which is not
    public) keep their row, with empty "ours" fields and the reason in ``note``.
    A variant ``<method>~<variant>`` of a sensitivity table, or a grid setting
    ``<method> [C=1.0]`` of a table that does not select one, stands beside the paper's
    values of ``<method>``; a table with such rows keeps only the paper's values it has
    values of ours for (the paper-only rows belong to the primary table).
    """
    table = summary.rename(columns={"mean": "ours_mean", "std": "ours_std"})
    if reference is None:
        table["paper_mean"] = np.nan
        table["paper_std"] = np.nan
        table["note"] = ""
        return table
    ref = reference.rename(columns={"mean": "paper_mean", "std": "paper_std", "method": "base"})
    ref = ref[["dataset", "base", "metric", "paper_mean", "paper_std", "unit", "note"]]
    table["base"] = base_method(table["method"])
    variants = (table["base"] != table["method"]).any()
    table = table.merge(ref, on=["dataset", "base", "metric"], how="left" if variants else "outer")
    table["method"] = table["method"].fillna(table["base"])
    table["note"] = table["note"].fillna("")
    return table.drop(columns="base")


def base_method(methods: pd.Series) -> pd.Series:
    """The method a row varies: ``<method>`` of a sensitivity variant ``<method>~<variant>`` or of a grid
    setting ``<method> [C=1.0]`` (a table without ``select``); any other method is its own."""
    stripped = methods.astype(str).str.replace(r" \[[^\]]*\]$", "", regex=True)
    return stripped.str.replace(r" \(stop [^)]*\)$", "", regex=True).str.partition("~")[0]


#: The mark of a method added beside a paper's in a table or figure (``added`` of :func:`write_table` and of
#: :mod:`mkbench.harness.figures`).
ADDED_MARK = "†"

#: What :data:`ADDED_MARK` means, under a table or figure that shows one.
ADDED_NOTE = "added beside the paper's methods (not the paper's; no reproduction item or claim reads it)"


def mark_added(methods: pd.Series, added: Iterable[str], shown: pd.Series | None = None) -> pd.Series:
    """``shown`` (by default ``methods``) with :data:`ADDED_MARK` after every row whose method, or the method
    its variant or grid setting varies (:func:`base_method`), is one of ``added``."""
    shown = methods.astype(str) if shown is None else shown
    is_added = base_method(methods).isin(set(added))
    return shown.where(~is_added, shown + f" {ADDED_MARK}")


def write_table(
    records: pd.DataFrame,
    metrics: list[str],
    out_stem: str | os.PathLike,
    *,
    caption: str,
    reference: pd.DataFrame | None = None,
    select: str | None = None,
    layout: str = "rows",
    accept_status: Iterable[str] = (),
    added: Iterable[str] = (),
    stop: str | list[str] | None = None,
    history: pd.DataFrame | None = None,
    fixed: dict[str, str] | None = None,
) -> pd.DataFrame:
    """Write ``<out_stem>.csv``, ``<out_stem>.md`` and its HTML page ``<out_stem>.html`` atomically; return the table.

    ``fixed`` keeps one grid setting of the methods it names (:func:`mkbench.harness.stopping.keep_settings`).
    ``stop`` reads every traced job at the iteration a stopping rule picks in ``history`` (the runs'
    iteration histories, :func:`collect_histories`; :func:`mkbench.harness.stopping.stop_by`), before
    ``select``; with several rules, each is a method of its own, labelled ``"method (stop RULE)"``.
    Stops at the end of a run cut by a limit, or never reached, are listed under the Markdown table.

    With ``select`` (e.g. ``"validation_error"``), each method's grid setting is
    chosen per split by :func:`select_by` before summarising. Settings chosen at
    an edge of their grid (:func:`mkbench.harness.selection.grid_edges`) are listed under
    the Markdown table, and so are the grid settings that failed on some split
    (:func:`mkbench.harness.selection.describe_failed_settings`): the choice was made
    without them. ``layout`` is that of :func:`mkbench.harness.render.to_markdown`.
    Runs that ended with a status in ``accept_status`` are not counted as not optimal
    (:func:`summarise`); the Markdown says how many there were. The methods ``added``
    beside the paper's (a user's own, a peer) are marked so in the Markdown, after the paper's rows.
    """
    if stop is not None:
        if history is None:
            raise ConfigError("a table with stop needs the runs' histories (results/summary/<experiment>.history.csv)")
        rules = [stop] if isinstance(stop, str) else list(stop)
        stopped = [stop_by(records, history, rule) for rule in rules]
        if len(rules) > 1:
            stopped = [
                frame.assign(method=frame["method"] + f" (stop {rule})")
                for frame, rule in zip(stopped, rules, strict=True)
            ]
        records = pd.concat(stopped, ignore_index=True)
    if fixed:
        records = keep_settings(records, fixed)
    stops = describe_stops(records)
    edges = describe_edges(grid_edges(records, select))
    failed = describe_failed_settings(records, select)
    if select is not None:
        records = select_by(records, select)
    accepted = records["status"].astype(str).isin(list(accept_status))
    table = paper_vs_ours(summarise(records, metrics, accept_status), reference)
    with atomic_open(f"{out_stem}.csv", "w", encoding="utf-8", newline="") as fh:
        table.to_csv(fh, index=False)
    order = None
    if reference is not None:  # the paper's order, each variant of a method in its method's place
        rows = table[["dataset", "method"]].drop_duplicates()
        rows = rows.assign(base=base_method(rows["method"]))
        rows = rows[rows["method"] != rows["base"]]  # the variants and grid settings
        order = [
            (dataset, method)
            for dataset, base in zip(reference["dataset"], reference["method"], strict=True)
            for method in [base, *rows.loc[(rows["dataset"] == dataset) & (rows["base"] == base), "method"]]
        ]
    shown = table.assign(method=mark_added(table["method"], added))
    text = to_markdown(shown, caption, metrics, order, layout)
    if (shown["method"] != table["method"]).any():
        text += f"\n{ADDED_MARK} {ADDED_NOTE[:1].upper()}{ADDED_NOTE[1:]}.\n"
    if edges:
        text += "\nChosen at an edge of the grid (the grid may be too short): " + "; ".join(edges) + ".\n"
    if stops:
        text += (
            "\nStopped at the last iteration of a run cut by its iteration or time limit, or never stopped "
            "by its rule within it (no value): " + "; ".join(stops) + ".\n"
        )
    if failed:
        text += (
            "\nGrid settings that failed, left out of the choice (see the records' status): "
            + "; ".join(failed)
            + ".\n"
        )
    if accepted.any():
        ends = ", ".join(f"{status} in {n}" for status, n in records.loc[accepted, "status"].value_counts().items())
        text += f"\nRuns that ended with a status the protocol accepts (not counted as not optimal): {ends} of {len(records)}.\n"
    write_text(f"{out_stem}.md", text)
    write_text(f"{out_stem}.html", to_html(text, caption.splitlines()[0] if caption else Path(out_stem).name))
    return table


def label_settings(frame: pd.DataFrame) -> pd.DataFrame:
    """Label each grid setting of a method as a method of its own, ``"method [C=1.0]"``."""
    frame = frame.copy()
    if "param" in frame:
        gridded = frame["param"].notna() & (frame["param"] != "default")
        frame.loc[gridded, "method"] = frame["method"] + " [" + frame["param"].astype(str) + "]"
    return frame


def write_config_table(
    config: dict,
    name: str,
    records: pd.DataFrame,
    out_stem: str | os.PathLike,
    *,
    history: pd.DataFrame | None = None,
    reference: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Write the config's table ``name`` from its experiments' ``records`` (:func:`write_table` with the table's
    settings): the workflow's table rule and ``mkbench report`` both write a table through this, so the two agree.

    The paper's values are ``reference``, or read from the table's ``reference`` entry when not given
    (:func:`table_reference`); the methods the config adds beside the paper's
    (:func:`mkbench.harness.config.added_methods`) are marked.
    """
    from .config import added_methods

    spec = config["tables"][name]
    reference = table_reference(config, name) if reference is None else reference
    return write_table(
        records,
        spec["metrics"],
        out_stem,
        caption=spec["caption"],
        reference=reference,
        select=spec.get("select"),
        layout=spec["layout"],
        accept_status=spec["accept_status"],
        added=added_methods(config, spec["experiment"]),
        stop=spec.get("stop"),
        history=history,
        fixed=spec.get("fixed"),
    )


def table_reference(config: dict, name: str) -> pd.DataFrame | None:
    """The paper's values the config's table ``name`` shows beside ours (its ``reference`` entry), or None."""
    ref = config["tables"][name].get("reference")
    return load_reference(os.path.join(config["reference_dir"], ref["file"]), ref["table"]) if ref else None
