"""Markdown tables a reader can hold beside the paper: its rows in its order, its units, ours beside its values.

:func:`to_markdown` renders :func:`mkbench.harness.report.paper_vs_ours`:

* rows in the paper's order (the order of the reference file), ours without a
  published value after them, in the order they come;
* a cell per metric, ``ours ± sd (paper)``; error rates in percent, as the papers
  print them;
* the data set column only when the table has more than one; the failed and
  not-optimal run counts only when some run failed or stopped early;
* at most :data:`MAX_COLUMNS` columns: a wider table is split into parts that
  repeat the row labels.

With ``layout="methods"`` a row is a data set and a column a method, one part
per metric, as the CGEns paper prints its tables. :func:`to_html` gives the same
Markdown as a standalone HTML page (the Snakemake report shows HTML inline).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Widest table before it is split into parts.
MAX_COLUMNS = 10

#: Names of the record fields the tables and figures show (others: the name with spaces).
LABELS = {
    "train_error": "train error (%)",
    "test_error": "test error (%)",
    "validation_error": "validation error (%)",
    "unlabeled_error": "unlabelled error (%)",
    "train_mse": "train MSE",
    "test_mse": "test MSE",
    "fit_seconds": "fit (s)",
    "predict_seconds": "predict (s)",
    "columns_linear": "L columns",
    "columns_quadratic": "Q columns",
    "columns_rbf": "R columns",
    "n_support": "support vectors",
    "storage_ratio": "storage (× MARK-L)",
    "n_iter": "iterations",
    "n_lps": "restricted LPs",
    "n_kernels": "kernels",
    "max_problem_rows": "largest LP rows",
    "max_problem_columns": "largest LP columns",
    "test_q2": "test Q²",
    "train_q2": "train Q²",
    "objective": "restricted master objective",
    "n_columns": "columns generated",
    "n_priced": "kernel columns computed",
    "seconds": "training time (s)",
    "n_train": "labelled points l",
    "p_C": "C",
    "feature_count": "stumps on the feature",
    "k": "feature",
}


def label(field: str) -> str:
    """A reader's name for a record field: :data:`LABELS`, else the name with spaces."""
    return LABELS.get(field, field.replace("_", " "))


def in_percent(frame: pd.DataFrame, field: str) -> pd.DataFrame:
    """``frame`` with an error-rate ``field`` in percent, as the tables and the papers show it."""
    return frame.assign(**{field: frame[field] * 100.0}) if field.endswith("_error") else frame


def to_markdown(
    table: pd.DataFrame,
    caption: str,
    metrics: list[str] | None = None,
    order: list[tuple[str, str]] | None = None,
    layout: str = "rows",
) -> str:
    """The caption, then the table (in parts if wider than :data:`MAX_COLUMNS`).

    ``metrics`` orders the metric columns (default: as they come); ``order`` lists
    (dataset, method) rows in the paper's order (default: as they come); ``layout``
    is "rows" (a row per data set and method) or "methods" (a column per method).
    """
    metrics = metrics or list(dict.fromkeys(table["metric"]))
    rows = list(dict.fromkeys(zip(table["dataset"], table["method"], strict=True)))
    rank = {row: i for i, row in enumerate(dict.fromkeys(order or []))}
    rows.sort(key=lambda row: rank.get(row, len(rank)))  # stable: ours without a paper value keep their order
    cells = {(r.dataset, r.method, r.metric): r for r in table.itertuples()}
    if layout == "methods":
        return _by_method(table, caption, metrics, rows, cells)
    labels = pd.DataFrame(rows, columns=["dataset", "method"])
    if labels["dataset"].nunique() == 1:
        caption += f" Data set: {labels['dataset'].iloc[0]}."
        labels = labels[["method"]]
    values = pd.DataFrame({label(m): [_cell(cells.get((d, meth, m)), m) for d, meth in rows] for m in metrics})
    extra = _counts(table, rows)
    width = MAX_COLUMNS - labels.shape[1] - extra.shape[1]
    parts = [values.iloc[:, i : i + max(width, 1)] for i in range(0, values.shape[1], max(width, 1))]
    out = [caption, ""]
    for k, part in enumerate(parts):
        frame = pd.concat([labels.reset_index(drop=True), part, extra if k == len(parts) - 1 else None], axis=1)
        if len(parts) > 1:
            out += [f"Part {k + 1} of {len(parts)}:", ""]
        out += [frame.to_markdown(index=False), ""]
    return "\n".join(out)


def _by_method(table: pd.DataFrame, caption: str, metrics: list[str], rows, cells) -> str:
    """A part per metric: a row per data set, a column per method (both in the paper's order)."""
    datasets = list(dict.fromkeys(d for d, _ in rows))
    methods = list(dict.fromkeys(m for _, m in rows))
    width = MAX_COLUMNS - 1
    out = [caption, ""]
    for metric in metrics:
        for start in range(0, len(methods), width):
            chunk = methods[start : start + width]
            frame = pd.DataFrame(
                {
                    "dataset": datasets,
                    **{m: [_cell(cells.get((d, m, metric)), metric) for d in datasets] for m in chunk},
                }
            )
            part = f" (methods {start + 1}-{start + len(chunk)} of {len(methods)})" if len(methods) > width else ""
            out += [f"{label(metric)}{part}:", "", frame.to_markdown(index=False), ""]
    counts = _counts(table, rows)
    runs = sorted(set(counts["runs"])) if "runs" in counts else []
    if runs:
        out.append(f"Runs per cell: {', '.join(runs)}.")
    for name in ("failed", "not optimal"):
        if name in counts:
            hit = [f"{d} / {m}: {n}" for (d, m), n in zip(rows, counts[name], strict=True) if n not in ("0", "—")]
            out.append(f"{name.capitalize()} runs: " + "; ".join(hit) + ".")
    if "note" in counts:
        out += [f"- {d} / {m}: {note}" for (d, m), note in zip(rows, counts["note"], strict=True) if note]
    return "\n".join(out) + "\n"


def _cell(rec, metric: str) -> str:
    """``ours ± sd (paper ± sd)``, in percent for error rates; "—" for a missing side."""
    if rec is None:
        return "—"
    scale = 100.0 if metric.endswith("_error") else 1.0  # as in_percent
    ours = _fmt(rec.ours_mean, rec.ours_std, scale)
    paper = _fmt(rec.paper_mean, rec.paper_std, scale)
    return ours if paper == "—" else f"{ours} ({paper})"


def _fmt(mean, std, scale: float = 1.0) -> str:
    if mean is None or not np.isfinite(mean):
        return "—"
    text = f"{mean * scale:.4g}"
    if std is not None and np.isfinite(std):
        text += f" ± {std * scale:.3g}"
    return text


def _counts(table: pd.DataFrame, rows: list[tuple[str, str]]) -> pd.DataFrame:
    """Runs per row, and the failed and not-optimal ones when there are any; the notes when there are any."""
    grouped = table.groupby(["dataset", "method"], sort=False)
    columns = {}
    if "n" in table and table["n"].notna().any():
        for name, field in (("runs", "n"), ("failed", "n_failed"), ("not optimal", "n_not_optimal")):
            counts = grouped[field].max() if field in table else pd.Series(dtype=float)
            column = [counts.get(row, np.nan) for row in rows]
            if name == "runs" or np.nansum(column) > 0:
                columns[name] = ["—" if np.isnan(c) else str(int(c)) for c in column]
    notes = grouped["note"].agg(lambda n: "; ".join(dict.fromkeys(part for x in n if x for part in x.split("; "))))
    column = [notes.get(row, "") for row in rows]
    if any(column):
        columns["note"] = column
    return pd.DataFrame(columns)


#: The page around a table's HTML (:func:`to_html`): readable without the report's styles.
_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; font-size: 14px; margin: 1em; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1em; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.5em; }}
th {{ background: #f2f2f2; }}
</style>
</head>
<body>
{body}</body>
</html>
"""


def to_html(markdown: str, title: str) -> str:
    """``markdown`` (:func:`to_markdown`'s text: paragraphs and pipe tables) as a standalone HTML page.

    Rendered by markdown-it-py (CommonMark with GitHub's tables), the parser of the documentation site.
    """
    from html import escape

    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)  # text, never markup
    return _PAGE.format(title=escape(title), body=body)
