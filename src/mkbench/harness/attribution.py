"""Why a compared cell is outside its tolerance: noise, an ablation that explains it, a data difference, or nothing.

One rule decides, for every entry of ``config/reproduction.yaml``:

* ``paper_runs``: how many runs each of the paper's means and standard deviations
  comes from (one number, or one per data set with ``"*"`` for the others). A deviating cell is then *within
  noise* when ours and the paper's differ by less than two standard errors of the difference,
  ``sqrt(sd_ours^2 / n_ours + sd_paper^2 / n_paper)``: the runs of either side do not establish a
  difference (a two-sample test at about the 5% level);
* ``sensitivity``: tables of ablations over the choices the paper leaves open, whose rows are the compared
  methods under another reading, named by a prefix template such as ``"{method}~"``
  (``cgboost-l1-R~raw-pixels``). A deviating cell is *explained by an ablation* when one variant of its
  method, on the same data set (or on the data set the table's ``datasets`` mapping names for it, for an
  ablation of the data's coding such as splice-onehot for splice), puts **every compared value of the row**
  (data set and method) within the tolerance of the paper's at once: one reading must give the paper's whole
  row, not one cell of it (a sweep of C hits any single cell somewhere). An ablation that the catalogue
  scopes to named ``metrics`` (with the ``reason`` written) is judged on those metrics of the row only;
* ``data_differs``: a known difference of our data from the paper's, named (``reason``), with the data sets
  and the compared ``metrics`` (optionally ``methods``) it causes. A deviating cell it names that no ablation
  explains is *attributed to the data*; a difference never covers a whole item by default.

Every other deviating cell is *unexplained*, or, in an item whose every reading the catalogue lists
(``readings``) was run and none reproduces it, *not reproduced* (:func:`mkbench.harness.reproduction.assess`
relabels them; issue 43's definition). The variants are read from the sensitivity tables' CSV
(:func:`mkbench.harness.report.write_table`); this module never runs anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .catalogue import Entry, Gap, Sensitivity

#: The kinds of attribution, in the order they are tried. "not reproduced" is given by the item's status
#: (:func:`mkbench.harness.reproduction.assess`): a value no attribution explains, in an item whose every listed
#: reading was run (the catalogue's ``readings``) and none reproduces it; any other such value is "unexplained".
KINDS = ("within noise", "explained by an ablation", "data differs", "not reproduced", "unexplained")


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
        within = [found for study, rows in variants for found in _explaining(study, rows, gap, gaps)]
        reasons = [difference.reason for difference in entry.data_differs if difference.causes(gap)]
        error = gap.standard_error(entry.runs_of(gap.dataset))
        if abs(gap.ours - gap.paper) < 2 * error:  # False when the error is unknown (nan)
            out.append(Attribution(gap, KINDS[0], f"{gap.ours - gap.paper:+.3g}, 2 s.e. {2 * error:.3g}"))
        elif within:
            out.append(Attribution(gap, KINDS[1], "within tolerance: " + ", ".join(within)))
        elif reasons:
            out.append(Attribution(gap, KINDS[2], reasons[0]))
        else:
            out.append(Attribution(gap, KINDS[-1]))
    return out


def _explaining(study: Sensitivity, rows: pd.DataFrame, gap: Gap, gaps: list[Gap]) -> list[str]:
    """The variants of ``study`` that put the whole row of ``gap`` (or its scoped metrics) within tolerance."""
    if study.metrics is not None and gap.metric not in study.metrics:
        return []
    prefix = study.template.format(method=gap.method)
    dataset = dict(study.datasets).get(gap.dataset, gap.dataset)
    mine = rows[(rows["dataset"] == dataset) & rows["method"].astype(str).str.startswith(prefix)]
    mine = mine[mine["ours_mean"].notna()]
    row = [g for g in gaps if (g.dataset, g.method) == (gap.dataset, gap.method)]
    row = [g for g in row if study.metrics is None or g.metric in study.metrics]
    scope = f" (scoped to {', '.join(study.metrics)}: {study.reason})" if study.metrics is not None else ""
    found = []
    for method, values in mine.groupby("method", sort=False):
        value = dict(zip(values["metric"], values["ours_mean"].astype(float), strict=True))
        if all(g.metric in value and _within(g, value[g.metric]) for g in row):
            found.append(f"{method} {value[gap.metric]:.4g}{scope}")
    return found


def _within(gap: Gap, value: float) -> bool:
    """Whether ``value`` is within the tolerance of ``gap``'s published value."""
    return abs(gap.tolerance.gap(value, gap.paper)) <= gap.tolerance.value


def _variants(entry: Entry, root: Path) -> list[tuple[Sensitivity, pd.DataFrame]]:
    """Each sensitivity study of ``entry`` whose table exists, with the table's rows."""
    found = []
    for study in entry.sensitivity:
        path = root / "results" / "tables" / f"{study.table}.csv"
        if path.exists():
            found.append((study, pd.read_csv(path)))
    return found


def describe(attributions: list[Attribution], most: int | None = None) -> list[str]:
    """One line per kind that occurs: its count and its cells (the ``most`` furthest outside, default all).

    Cells attributed to the data are listed under the difference that causes them.
    """
    lines = []
    for kind in KINDS:
        cells = sorted((a for a in attributions if a.kind == kind), key=lambda a: -a.gap.excess)
        if not cells:
            continue
        if kind == KINDS[2]:
            reasons = dict.fromkeys(a.detail for a in cells)
            groups = {reason: [a for a in cells if a.detail == reason] for reason in reasons}
            shown = "; ".join(f"{reason}: " + ", ".join(str(a) for a in group) for reason, group in groups.items())
        else:
            more = "; ..." if most is not None and len(cells) > most else ""
            shown = "; ".join(str(a) for a in cells[:most]) + more
        lines.append(f"{kind}: {len(cells)} ({shown})")
    return lines
