"""The reproduction dashboard: every table and figure of the five papers, and where we stand.

The catalogue (:mod:`mkbench.harness.catalogue`) lists each table and figure of the
papers; :func:`write_reproduction` turns it into ``results/REPRODUCTION.md``.
Everything in that file is computed from what is on disk:

* the status: whether each target exists and, for tables, whether every compared
  value of ours is within the catalogue's tolerance of the paper's;
* the largest gap between ours and the paper, read from the tables written by
  :func:`mkbench.harness.report.write_table` (one CSV row per data set, method and metric,
  with ``ours_mean`` beside the published ``paper_mean``);
* the command that rebuilds it.

This module never runs a method and never rebuilds a table.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .._io import write_text
from ..exceptions import ConfigError
from .attribution import KINDS, Attribution, attribute
from .catalogue import Entry, Gap, load_catalogue
from .claim_guards import ItemState
from .claim_report import render_claims
from .claims import item_status, judge, load_claims, paper_counts
from .reproduction_edges import chosen_at_edges, matches
from .config import read_yaml
from .reproduction_method import STATUSES
from .reproduction_render import render

__all__ = ["STATUSES", "Assessment", "assess", "build_reproduction", "compare_tables", "write_reproduction"]


@dataclass(frozen=True)
class Assessment:
    """What :func:`assess` found for one entry."""

    status: str
    gap: str
    by_metric: str = ""
    edges: tuple[str, ...] = ()
    n_edge: int = 0
    n_choices: int = 0
    edge_margin: float = float("nan")
    n_edge_unknown: int = 0
    paper_edges: tuple[str, ...] = ()
    n_paper_edge: int = 0
    n_compared: int = 0
    attributions: tuple[Attribution, ...] = ()
    gaps: tuple[Gap, ...] = ()

    @property
    def not_reproduced(self) -> bool:
        """Whether every reading the catalogue lists for the item was run and none reproduces it."""
        return self.status.startswith("not reproduced (")


def compare_tables(entry: Entry, root: str | os.PathLike = ".") -> tuple[list[Gap], list[str], int]:
    """Ours against the paper's for the entry's rows and compared metrics.

    Returns the gaps (one per value both have), the values of the paper that have no
    value of ours (``"dataset / method / metric"``), and the number of failed runs in
    the compared rows.

    Raises
    ------
    ConfigError
        If a compared metric has no published value in the selected rows (the
        catalogue then compares nothing for it).
    """
    tolerances = dict(entry.compare)
    frames = [pd.read_csv(Path(root) / f"results/tables/{name}.csv") for name in entry.tables]
    table = pd.concat(frames, ignore_index=True)
    keep = table["metric"].isin(list(tolerances))
    keep &= matches(table["dataset"], entry.datasets) & matches(table["method"], entry.methods)
    table = table[keep]
    published = table[table["paper_mean"].notna()]
    for metric in tolerances:
        if not (published["metric"] == metric).any():
            raise ConfigError(
                f"{entry.paper} {entry.item}: no published value of {metric!r} in the selected rows of "
                f"{', '.join(entry.tables)}; remove it from compare or widen rows"
            )
    ours = published["ours_mean"].notna()
    gaps = [
        Gap(
            row.dataset,
            row.method,
            row.metric,
            float(row.ours_mean),
            float(row.paper_mean),
            tolerances[row.metric],
            ours_sd=float(row.ours_std),
            ours_n=int(row.n) if pd.notna(getattr(row, "n", None)) else 0,
            paper_sd=float(row.paper_std),
        )
        for row in published[ours].itertuples()
    ]
    missing = [f"{row.dataset} / {row.method} / {row.metric}" for row in published[~ours].itertuples()]
    failed = 0
    if "n_failed" in table:
        failed = int(table.groupby(["dataset", "method"])["n_failed"].max().fillna(0).sum())
    return gaps, missing, failed


def assess(entry: Entry, root: str | os.PathLike = ".") -> Assessment:
    """The status and largest gap of one entry, from the files under ``root``."""
    if entry.reason == "not configured yet":
        return Assessment("not configured yet", "—")
    if entry.reason:
        return Assessment(f"not reproducible ({entry.reason})", "—")
    missing = [path for path in entry.targets if not (Path(root) / path).exists()]
    if missing:
        return Assessment("not run yet", "missing: " + ", ".join(f"`{path}`" for path in missing))
    if not entry.tables:
        return Assessment("drawn", "figure: compare visually")
    gaps, absent, failed = compare_tables(entry, root)
    attributions = attribute(entry, gaps, root)
    within = sum(gap.excess <= 1 for gap in gaps)
    noise = sum(a.kind == KINDS[0] for a in attributions)
    total = len(gaps) + len(absent)
    unexplained = any(a.kind == KINDS[-1] for a in attributions)
    if unexplained and entry.readings_run(root):  # every listed reading run, none reproduces it (issue 43)
        status = "not reproduced"
        attributions = [dataclasses.replace(a, kind=KINDS[3]) if a.kind == KINDS[-1] else a for a in attributions]
    elif within < len(gaps):
        status = "deviates"
    elif absent:
        status = "incomplete"
    else:
        status = "reproduced"
    status += f" ({within} of {total} values within tolerance" + (f", {noise} within noise" if noise else "")
    status += f"; {failed} failed runs)" if failed else ")"
    largest = max(gaps, key=lambda gap: gap.excess, default=None)
    text = str(largest) if largest else "no value of ours to compare"
    if absent:
        text += f"; no value of ours for {len(absent)}: " + ", ".join(absent[:3]) + (", ..." if len(absent) > 3 else "")
    per_metric = [
        max((g for g in gaps if g.metric == metric), key=lambda g: g.excess, default=None)
        for metric, _ in entry.compare
    ]
    return Assessment(
        status,
        text,
        "; ".join(str(g) for g in per_metric if g is not None),
        n_compared=len(gaps),
        attributions=tuple(attributions),
        gaps=tuple(gaps),
    )


def item_states(entries: list[Entry], assessments: list[Assessment]) -> dict[tuple[str, str], ItemState]:
    """What the claims need of each item with compared values (whether it is reproduced, and its cells), and
    of each item that follows another's protocol (that item's state)."""
    states = {
        (e.paper, e.item): ItemState(a.not_reproduced, a.status, a.gaps)
        for e, a in zip(entries, assessments, strict=True)
        if a.n_compared
    }
    for e in entries:
        if e.protocol and (e.paper, e.protocol) in states:
            own = states[(e.paper, e.protocol)]
            summary = f"runs the protocol of {e.protocol}, {own.summary}"
            states[(e.paper, e.item)] = ItemState(own.not_reproduced, summary)
    return states


def build_reproduction(
    config: dict[str, Any],
    catalogue: str | os.PathLike,
    *,
    root: str | os.PathLike = ".",
    command: str = "mkbench report --config config/config.yaml --reproduction results/REPRODUCTION.md",
    claims: str | os.PathLike | None = None,
) -> str:
    """The text of REPRODUCTION.md: the catalogue checked, every entry assessed from the files under ``root``.

    ``command`` is the command quoted in the text as the one that regenerates it.
    ``claims`` is the claims catalogue (:mod:`mkbench.harness.claims`), by default
    ``claims.yaml`` beside ``catalogue``; without one there is no Claims section
    and every figure stays "drawn".
    """
    papers, entries = load_catalogue(catalogue, config, root)
    assessments = []
    for entry in entries:
        found = assess(entry, root)
        if entry.tables and not entry.reason:
            edges = chosen_at_edges(entry, config, root)
            found = dataclasses.replace(
                found,
                edges=edges.lines,
                n_edge=edges.n_edge,
                n_choices=edges.n_choices,
                edge_margin=edges.margin,
                n_edge_unknown=edges.n_unknown,
                paper_edges=edges.paper_lines,
                n_paper_edge=edges.n_paper_edge,
            )
        assessments.append(found)
    claims_path = Path(claims) if claims is not None else Path(catalogue).with_name("claims.yaml")
    if not claims_path.exists():
        if claims is not None:
            load_claims(claims_path, {})  # raises the named error
        return render(papers, entries, assessments, config, command, report=_report(catalogue))
    known = {paper: {e.item for e in entries if e.paper == paper} for paper in papers}
    catalogue_claims = load_claims(claims_path, known)
    states = item_states(entries, assessments)
    verdicts = [judge(claim, root, states) for claim in catalogue_claims]
    statuses = item_status(catalogue_claims, verdicts)
    assessments = [
        dataclasses.replace(a, status=statuses[(e.paper, e.item)], gap="see Claims")
        if a.status == "drawn" and (e.paper, e.item) in statuses
        else a
        for e, a in zip(entries, assessments, strict=True)
    ]
    section = render_claims(catalogue_claims, verdicts, root)
    counts = paper_counts(catalogue_claims, verdicts)
    return render(papers, entries, assessments, config, command, section, counts, report=_report(catalogue))


def _report(catalogue: str | os.PathLike) -> dict:
    """The catalogue's words for the report's scope and for what was easy and what was hard (its ``report``)."""
    return read_yaml(catalogue, "reproduction catalogue", "").get("report", {})


def write_reproduction(
    config: dict[str, Any], catalogue: str | os.PathLike, out: str | os.PathLike, **kwargs: Any
) -> str:
    """Write :func:`build_reproduction` to ``out`` atomically and return it.

    Every entry is assessed before anything is written, so a bad catalogue or table
    leaves ``out`` as it was.
    """
    text = build_reproduction(config, catalogue, **kwargs)
    write_text(out, text)
    return text
