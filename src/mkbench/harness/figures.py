"""Records and iteration histories -> seaborn figures (PNG and PDF), one panel per data set.

Every figure of the harness is drawn here, with one theme and the reading conventions of
:mod:`mkbench.harness.figure_style`; like :mod:`mkbench.harness.report` (the tables), this
module never runs a method. The methods added beside a paper's are marked
:data:`~mkbench.harness.report.ADDED_MARK` in legends and ticks.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterable

import numpy as np
import pandas as pd

from .._io import atomic_open
from ..exceptions import ConfigError
from .figure_style import facets, human_axes, method_name, note_below, runs_note, title_text
from .render import in_percent, label
from .report import ADDED_MARK, ADDED_NOTE, label_settings, mark_added


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


def _legend_below(grid, subtitles: Iterable[str] = ()) -> None:
    """Move a seaborn grid's legend under its panels, without a title or frame, so it takes no width; the
    ``subtitles`` seaborn writes above each variable's entries (hue, style) are left out."""
    import seaborn as sns

    if grid.legend is not None and subtitles:
        texts = [text.get_text() for text in grid.legend.get_texts()]
        entries = dict(zip(texts, grid.legend.legend_handles, strict=True))
        grid.legend.remove()
        grid.add_legend(legend_data={text: handle for text, handle in entries.items() if text not in subtitles})
    if grid.legend is not None:
        texts = [t.get_text() for t in grid.legend.get_texts()]
        ncol = min(len(texts), 4 if sum(map(len, texts)) <= 80 else 2)  # long method names: two columns
        sns.move_legend(grid, "upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol, title=None, frameon=False)


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
        aspect=max(1.1, 0.4 * ok["method"].nunique()),  # room for each method's box and its name
        color="0.85",
        showfliers=False,  # every run is drawn as a point below: no second mark for the outlying ones
    )
    state = np.random.get_state()  # seaborn jitters the points with NumPy's global generator:
    np.random.seed(0)  # a fixed draw makes the same records give the same figure
    try:
        grid.map_dataframe(sns.stripplot, x="method", y=metric, color="k", size=3)
    finally:
        np.random.set_state(state)
    grid.set_axis_labels("method", label(metric))
    for ax in grid.axes.flat:  # a long method name on two lines, not over its neighbour's
        ticks = ax.get_xticks()
        ax.set_xticks(
            ticks,
            [
                textwrap.fill(t.get_text(), 12, break_on_hyphens=False, break_long_words=False)
                for t in ax.get_xticklabels()
            ],
        )
    header = facets(grid, list(dict.fromkeys(ok["dataset"])))
    human_axes(grid)
    _set_title(grid.figure, title)
    note_below(grid.figure, None, "; ".join(filter(None, [header, "a point per run", marked])))
    _save(grid.figure, out_stem)


def draw_lines(
    frame: pd.DataFrame,
    x: str,
    y: str | list[str],
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
    for each method drawn as a dashed level in the method's colour. Several ``y``
    (``["train_q2", "test_q2"]``: the training and test curves of MARK Fig. 1) share one
    axis, each method's colour, one line style per part.
    """
    import seaborn as sns

    _pyplot()
    metrics = [y] if isinstance(y, str) else list(y)
    for name in (x, *metrics):
        if name not in frame:
            raise ConfigError(f"{name!r} is not a field to draw; available: {', '.join(sorted(frame.columns))}")
    if reference is not None and len(metrics) > 1:
        raise ConfigError("a figure with the paper's values (reference) draws one metric")
    if "status" in frame:
        frame = frame[~frame["status"].astype(str).str.startswith("failed")]
    data = frame if x.startswith("p_") else label_settings(frame)
    for metric in metrics:
        data = in_percent(data, metric)
    y, style = (metrics[0], None) if len(metrics) == 1 else _parts(metrics)
    if style is not None:
        rest = [c for c in data if c not in metrics]
        data = data.melt(id_vars=rest, value_vars=metrics, var_name=style, value_name=y)
        data[style] = data[style].str.partition("_")[0]
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
        style=style,
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
    grid.set_axis_labels(label(x), y if style else label(y))
    header = facets(grid, list(dict.fromkeys(data["dataset"])))
    human_axes(grid)
    _legend_below(grid, subtitles=("method", style) if style else ())
    _set_title(grid.figure, title)
    if reference is not None and len(paper):
        note += "; dashed: the paper's value"
    note_below(grid.figure, grid.legend, "; ".join(filter(None, [header, note])))
    _save(grid.figure, out_stem)


def _parts(metrics: list[str]) -> tuple[str, str]:
    """The axis of several metrics of one kind, ``["train_q2", "test_q2"]`` -> ``("Q²", "part")``: their label
    without the part (train, test, validation); each must name its part before ``_``."""
    kinds = {label(metric).partition(" ")[2] for metric in metrics}
    if len(kinds) != 1 or any("_" not in metric for metric in metrics):
        raise ConfigError(f"metrics {metrics} are not one quantity on several parts (e.g. train_q2, test_q2)")
    return kinds.pop(), "part"


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
    long = label_settings(ok).melt(id_vars=["dataset", "method"], value_vars=fields, var_name="k", value_name=prefix)
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
