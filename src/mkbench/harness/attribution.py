"""Why a compared cell is outside its tolerance: an ablation that explains it, a data difference, or nothing.

A catalogue entry (``config/reproduction.yaml``) may name

* ``paper_runs``: how many runs each of the paper's means and standard deviations
  comes from (one number, or one per data set with ``"*"`` for the others). A deviating cell is then *within noise* when ours and the paper's
  differ by less than two standard errors of the difference,
  ``sqrt(sd_ours^2 / n_ours + sd_paper^2 / n_paper)``: the runs of either side do
  not establish a difference (a two-sample test at about the 5% level);
* ``sensitivity``: tables of ablations over the choices the paper leaves open,
  whose rows are the compared methods under another reading, named by a prefix
  template such as ``"{method}~"`` (``cgboost-l1-R~raw-pixels``). A deviating
  cell is *explained by an ablation* when some variant of its method, on the same
  data set (or on the data set the table's ``datasets`` mapping names for it, for
  an ablation of the data's coding such as splice-onehot for splice), is within
  the tolerance of the paper's value. With ``whole_rows`` (for a sweep of a
  continuous parameter, where some value hits any single cell: a training error
  falls monotonically with C), the variant must be within tolerance on every
  compared value of the row (data set and method) at once;
* ``data_differs``: data sets whose data is known to differ from the paper's
  (with the reason). A deviating cell of such a data set that no ablation explains
  is *attributed to the data*.

Every other deviating cell is *unexplained*. The variants are read from the
sensitivity tables' CSV (:func:`mkbench.harness.report.write_table`); this module
never runs anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .catalogue import Entry, Gap

#: The kinds of attribution, in the order they are tried.
KINDS = ("within noise", "explained by an ablation", "data differs", "unexplained")


@dataclass(frozen=True)
class Attribution:
    """One deviating cell and why it deviates: ``kind`` is one of :data:`KINDS`."""

    gap: Gap
    kind: str
    detail: str = ""

    def __str__(self) -> str:
        cell = f"{self.gap.dataset} / {self.gap.method} / {self.gap.metric}"
        return f"{cell} ({self.detail})" if self.kind in KINDS[:2] else cell


def attribute(entry: Entry, gaps: list[Gap], root: str | os.PathLike = ".") -> list[Attribution]:
    """An :class:`Attribution` for every gap of ``entry`` outside its tolerance."""
    variants = _variants(entry, Path(root))
    out = []
    for gap in (g for g in gaps if g.excess > 1):
        within = []
        for template, datasets, rows, whole_rows in variants:
            prefix = template.format(method=gap.method)
            dataset = datasets.get(gap.dataset, gap.dataset)
            mine = rows[(rows["dataset"] == dataset) & rows["method"].astype(str).str.startswith(prefix)]
            mine = mine[mine["ours_mean"].notna()]
            row_gaps = [g for g in gaps if (g.dataset, g.method) == (gap.dataset, gap.method)] if whole_rows else [gap]
            for method, values in mine.groupby("method", sort=False):
                value = dict(zip(values["metric"], values["ours_mean"].astype(float)))
                if all(g.metric in value and _within(g, value[g.metric]) for g in row_gaps):
                    within.append(f"{method} {value[gap.metric]:.4g}" + (" (the whole row)" if whole_rows else ""))
        reasons = [reason for datasets, reason in entry.data_differs if gap.dataset in datasets]
        error = gap.standard_error(entry.runs_of(gap.dataset))
        if abs(gap.ours - gap.paper) < 2 * error:  # False when the error is unknown (nan)
            out.append(Attribution(gap, KINDS[0], f"{gap.ours - gap.paper:+.3g}, 2 s.e. {2 * error:.3g}"))
        elif within:
            out.append(Attribution(gap, KINDS[1], "within tolerance: " + ", ".join(within)))
        elif reasons:
            out.append(Attribution(gap, KINDS[2], reasons[0]))
        else:
            out.append(Attribution(gap, KINDS[3]))
    return out


def _within(gap: Gap, value: float) -> bool:
    """Whether ``value`` is within the tolerance of ``gap``'s published value."""
    return abs(gap.tolerance.gap(value, gap.paper)) <= gap.tolerance.value


def _variants(entry: Entry, root: Path) -> list[tuple[str, dict[str, str], pd.DataFrame, bool]]:
    """The rows of each sensitivity table that exists, with its variant template, data set mapping and
    whole-rows flag."""
    found = []
    for table, template, datasets, whole_rows in entry.sensitivity:
        path = root / "results" / "tables" / f"{table}.csv"
        if path.exists():
            found.append((template, dict(datasets), pd.read_csv(path), whole_rows))
    return found


def describe(attributions: list[Attribution], most: int | None = None) -> list[str]:
    """One line per kind that occurs: its count and its cells (the ``most`` furthest outside, default all)."""
    lines = []
    for kind in KINDS:
        cells = sorted((a for a in attributions if a.kind == kind), key=lambda a: -a.gap.excess)
        if cells:
            shown = "; ".join(str(a) for a in cells[:most]) + ("; ..." if most is not None and len(cells) > most else "")
            reasons = sorted({a.detail for a in cells}) if kind == KINDS[2] else []
            lines.append(f"{kind}: {len(cells)} ({shown})" + "".join(f", {reason}" for reason in reasons))
    return lines
