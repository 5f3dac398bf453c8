"""Records -> tables with the papers' numbers beside ours, and seaborn figures.

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
from .figure_style import facets, human_axes, method_name, note_below, runs_note, title_text
from .render import in_percent, label, to_markdown
from .selection import (
    describe_edges,
    describe_failed_settings,
    describe_stops,
    grid_edges,
    keep_settings,
    select_by,
    stop_by,
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
    records = _labelled(records)
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


#: The mark of a method added beside a paper's in a table or figure (``added`` of :func:`write_table` and the
#: ``draw_*`` functions).
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
    """Write ``<out_stem>.csv`` and ``<out_stem>.md`` atomically; return the table.

    ``fixed`` keeps one grid setting of the methods it names (:func:`mkbench.harness.selection.keep_settings`).
    ``stop`` reads every traced job at the iteration a stopping rule picks in ``history`` (the runs'
    iteration histories, :func:`collect_histories`; :func:`mkbench.harness.selection.stop_by`), before
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
    return table


def _pyplot():
    """pyplot on the file backend, with the one seaborn theme every figure of the harness uses."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import seaborn as sns

    sns.set_theme(style="whitegrid", context="notebook", palette="colorblind")
    return plt


def _set_title(figure, title: str) -> None:
    """Figure title, each of its lines wrapped to the figure's width (about 10 characters an inch at 12 pt), never
    inside a phrase such as ``N' = 50`` (:func:`mkbench.harness.figure_style.title_text`)."""
    width = max(40, int(figure.get_figwidth() * 10))
    figure.suptitle(title_text(title, width), y=1.02, va="bottom")


#: No creation date or software version in the files: the same records draw the same bytes.
_METADATA = {"png": {"Software": None}, "pdf": {"CreationDate": None, "Producer": None, "Creator": None}}


def _save(figure, out_stem: str | os.PathLike) -> None:
    for ext in ("png", "pdf"):
        with atomic_open(f"{out_stem}.{ext}", "wb") as fh:
            figure.savefig(fh, format=ext, bbox_inches="tight", dpi=150, metadata=_METADATA[ext])
    _pyplot().close(figure)


def _legend_below(grid) -> None:
    """Move a seaborn grid's legend under its panels, without a title or frame, so it takes no width."""
    import seaborn as sns

    if grid.legend is not None:
        texts = [t.get_text() for t in grid.legend.get_texts()]
        ncol = min(len(texts), 4 if sum(map(len, texts)) <= 80 else 2)  # long method names: two columns
        sns.move_legend(grid, "upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol, title=None, frameon=False)


def _labelled(frame: pd.DataFrame) -> pd.DataFrame:
    """Label each grid setting of a method as a method of its own, ``"method [C=1.0]"``."""
    frame = frame.copy()
    if "param" in frame:
        gridded = frame["param"].notna() & (frame["param"] != "default")
        frame.loc[gridded, "method"] = frame["method"] + " [" + frame["param"].astype(str) + "]"
    return frame


def _legend_names(methods: pd.Series, added: Iterable[str]) -> pd.Series:
    """The figures' names of ``methods`` (:func:`mkbench.harness.figure_style.method_name`), the ``added`` marked."""
    return mark_added(methods, added, methods.map(method_name))


def _added_note(before: pd.Series, after: pd.Series) -> str:
    """:data:`ADDED_NOTE` for a figure's note when a method was marked (``after`` differs from ``before``)."""
    return f"{ADDED_MARK}: {ADDED_NOTE}" if (before.map(method_name) != after).any() else ""


def draw_figure(
    records: pd.DataFrame, metric: str, out_stem: str | os.PathLike, *, title: str, added: Iterable[str] = ()
) -> None:
    """Per-split values of ``metric`` by method and data set (seaborn), as PNG and PDF; the methods ``added``
    beside the paper's marked :data:`ADDED_MARK`."""
    import seaborn as sns

    _pyplot()
    if metric not in records:
        raise ConfigError(f"metric {metric!r} is in no record")
    ok = in_percent(records[~records["status"].astype(str).str.startswith("failed")], metric)
    shown = _legend_names(ok["method"], added)
    marked = _added_note(ok["method"], shown)
    ok = ok.assign(method=shown)
    grid = sns.catplot(
        data=ok,
        x="method",
        y=metric,
        col="dataset",
        kind="box",
        sharey=False,
        height=3.2,
        aspect=1.1,
        color="0.85",
    )
    state = np.random.get_state()  # seaborn jitters the points with NumPy's global generator:
    np.random.seed(0)  # a fixed draw makes the same records give the same figure
    try:
        grid.map_dataframe(sns.stripplot, x="method", y=metric, color="k", size=3)
    finally:
        np.random.set_state(state)
    grid.set_axis_labels("method", label(metric))
    header = facets(grid, list(dict.fromkeys(ok["dataset"])))
    human_axes(grid)
    _set_title(grid.figure, title)
    note_below(grid.figure, None, "; ".join(filter(None, [header, "a point per run", marked])))
    _save(grid.figure, out_stem)


def draw_lines(
    frame: pd.DataFrame,
    x: str,
    y: str,
    out_stem: str | os.PathLike,
    *,
    title: str,
    logy: bool = False,
    logx: bool = False,
    reference: pd.DataFrame | None = None,
    added: Iterable[str] = (),
) -> None:
    """``y`` against ``x``, one line per method, as PNG and PDF; the methods ``added`` beside the paper's
    marked :data:`ADDED_MARK`.

    ``frame`` is either iteration histories (:func:`collect_histories`; e.g. the
    objective against columns generated, cgboost Fig. 1) or records (e.g. the test
    error against the number of labelled points, SSMK Fig. 1). Grid settings are
    drawn apart, unless ``x`` is a grid parameter (``p_C``: a method along its grid);
    each line is the mean over splits with a standard-deviation band, one panel per
    data set. ``reference`` (:func:`load_reference`) adds the paper's value of ``y``
    for each method drawn as a dashed level in the method's colour.
    """
    import seaborn as sns

    _pyplot()
    for name in (x, y):
        if name not in frame:
            raise ConfigError(f"{name!r} is not a field to draw; available: {', '.join(sorted(frame.columns))}")
    if "status" in frame:
        frame = frame[~frame["status"].astype(str).str.startswith("failed")]
    data = in_percent(frame if x.startswith("p_") else _labelled(frame), y)
    # on a log axis mean ± sd reaches below 0 (off the axis): the band is then the middle 68% of the runs
    band = ("pi", 68) if logy else "sd"
    note = runs_note(data, band="the middle 68% of the runs" if logy else "± 1 standard deviation over the runs")
    shown = _legend_names(data["method"], added)
    note = "; ".join(filter(None, [note, _added_note(data["method"], shown)]))
    data = data.assign(method=shown)
    methods = list(dict.fromkeys(data["method"]))
    palette = dict(zip(methods, sns.color_palette(n_colors=len(methods)), strict=True))
    grid = sns.relplot(
        data=data,
        x=x,
        y=y,
        hue="method",
        col="dataset",
        kind="line",
        errorbar=band,
        palette=palette,
        height=3.2,
        aspect=1.3,
        facet_kws={"sharey": False},
    )
    if reference is not None:
        paper = in_percent(reference[reference["metric"] == y].rename(columns={"mean": y}), y)
        paper = paper.assign(method=paper["method"].map(method_name))
        for dataset, ax in grid.axes_dict.items():
            for row in paper[(paper["dataset"] == dataset) & paper["method"].isin(methods)].itertuples():
                ax.axhline(getattr(row, y), color=palette[row.method], linestyle="--", linewidth=1)
    if logy:
        grid.set(yscale="log")
    if logx:
        grid.set(xscale="log")
    grid.set_axis_labels(label(x), label(y))
    header = facets(grid, list(dict.fromkeys(data["dataset"])))
    human_axes(grid)
    _legend_below(grid)
    _set_title(grid.figure, title)
    if reference is not None and len(paper):
        note += "; dashed: the paper's value"
    note_below(grid.figure, grid.legend, "; ".join(filter(None, [header, note])))
    _save(grid.figure, out_stem)


def draw_bars(
    records: pd.DataFrame, prefix: str, out_stem: str | os.PathLike, *, title: str, added: Iterable[str] = ()
) -> pd.DataFrame:
    """The record fields ``<prefix>_<k>`` (k = 1, 2, ...) as bars against k, one colour per method, as PNG and PDF;
    the methods ``added`` beside the paper's marked :data:`ADDED_MARK`.

    Each bar is the mean over splits with a standard-deviation whisker, one panel
    per data set: e.g. ``feature_count_<j>``, how many of an ensemble's stumps
    split on feature j (CGEns Fig. 5). Failed jobs are left out.

    Returns
    -------
    DataFrame
        The values drawn, one row per (record, k): dataset, method, k, ``prefix``.
    """
    import seaborn as sns

    _pyplot()
    fields = [c for c in records if c.startswith(f"{prefix}_") and c[len(prefix) + 1 :].isdigit()]
    if not fields:
        raise ConfigError(f"no record has fields {prefix}_1, {prefix}_2, ...; is the method's count_features set?")
    ok = records[~records["status"].astype(str).str.startswith("failed")]
    note = runs_note(ok, band="").replace("lines", "bars")
    note += "; whiskers: ± 1 standard deviation" if note.startswith("bars") else ""
    long = _labelled(ok).melt(id_vars=["dataset", "method"], value_vars=fields, var_name="k", value_name=prefix)
    long["k"] = long["k"].str[len(prefix) + 1 :].astype(int)
    shown = _legend_names(long["method"], added)
    note = "; ".join(filter(None, [note, _added_note(long["method"], shown)]))
    grid = sns.catplot(
        data=long.assign(method=shown),
        x="k",
        y=prefix,
        hue="method",
        col="dataset",
        col_wrap=1,
        kind="bar",
        errorbar="sd",
        height=3.2,
        aspect=max(1.3, len(fields) / 12),
        sharey=False,
    )
    grid.set_axis_labels(label("k"), label(prefix))
    header = facets(grid, list(dict.fromkeys(long["dataset"])))
    human_axes(grid)
    _legend_below(grid)
    _set_title(grid.figure, title)
    note_below(grid.figure, grid.legend, "; ".join(filter(None, [header, note])))
    _save(grid.figure, out_stem)
    return long
