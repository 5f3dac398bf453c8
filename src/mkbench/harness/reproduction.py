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
import fnmatch
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .._io import write_text
from ..exceptions import ConfigError
from .attribution import KINDS, Attribution, attribute, describe
from .catalogue import Entry, Gap, load_catalogue
from .claims import VERDICTS, item_status, judge, load_claims, paper_counts, render_claims
from .selection import describe_edges, grid_edges

#: What the statuses mean, in the order of the legend of REPRODUCTION.md.
STATUSES = {
    "reproduced": "every compared value of ours is within the tolerance of the paper's",
    "deviates": "at least one compared value is outside its tolerance",
    "incomplete": "every value we have is within tolerance, but some of the paper's have no value of ours",
    "claims": "a figure judged by the claims it carries (verdicts in the Claims section)",
    "drawn": "the figure exists; the paper gives no numbers for it and states no claim on it: compare visually",
    "not run yet": "configured, but an output is missing (run the command)",
    "not configured yet": "no experiment rebuilds it yet",
    "not reproducible": "the data or features are not available (reason given)",
}

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
    keep &= _matches(table["dataset"], entry.datasets) & _matches(table["method"], entry.methods)
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
        Gap(row.dataset, row.method, row.metric, float(row.ours_mean), float(row.paper_mean), tolerances[row.metric],
            ours_sd=float(row.ours_std), ours_n=int(row.n) if pd.notna(getattr(row, "n", None)) else 0,
            paper_sd=float(row.paper_std))
        for row in published[ours].itertuples()
    ]
    missing = [f"{row.dataset} / {row.method} / {row.metric}" for row in published[~ours].itertuples()]
    failed = 0
    if "n_failed" in table:
        failed = int(table.groupby(["dataset", "method"])["n_failed"].max().fillna(0).sum())
    return gaps, missing, failed


def _matches(values: pd.Series, patterns: tuple[str, ...] | None) -> pd.Series:
    if patterns is None:
        return pd.Series(True, index=values.index)
    return values.astype(str).map(lambda v: any(fnmatch.fnmatchcase(v, p) for p in patterns))


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
    within = sum(gap.excess <= 1 for gap in gaps)
    total = len(gaps) + len(absent)
    if within < len(gaps):
        status = "deviates"
    elif absent:
        status = "incomplete"
    else:
        status = "reproduced"
    status += f" ({within} of {total} values within tolerance"
    status += f"; {failed} failed runs)" if failed else ")"
    largest = max(gaps, key=lambda gap: gap.excess, default=None)
    text = str(largest) if largest else "no value of ours to compare"
    if absent:
        text += f"; no value of ours for {len(absent)}: " + ", ".join(absent[:3]) + (", ..." if len(absent) > 3 else "")
    per_metric = [max((g for g in gaps if g.metric == metric), key=lambda g: g.excess, default=None) for metric, _ in entry.compare]
    return Assessment(
        status,
        text,
        "; ".join(str(g) for g in per_metric if g is not None),
        n_compared=len(gaps),
        attributions=tuple(attribute(entry, gaps, root)),
    )


@dataclass(frozen=True)
class Edges:
    """Choices at a grid edge for one entry: on our grids (``lines``, ``n_edge``) and on grids the paper
    states (``paper_lines``, ``n_paper_edge``), out of ``n_choices`` (one per run and chosen parameter).
    ``margin`` is the largest margin of :func:`mkbench.harness.selection.grid_edges` over our grids' edge
    choices; ``n_unknown`` counts those whose records keep no error per setting."""

    lines: tuple[str, ...] = ()
    n_edge: int = 0
    margin: float = float("nan")
    n_unknown: int = 0
    paper_lines: tuple[str, ...] = ()
    n_paper_edge: int = 0
    n_choices: int = 0


def chosen_at_edges(entry: Entry, config: dict[str, Any], root: str | os.PathLike = ".") -> Edges:
    """Hyper-parameters of the entry's table rows chosen at a grid edge, from the experiments' summaries.

    A choice at the edge of a grid the paper states (the entry's ``paper_grids``) follows
    the paper's protocol; it is counted apart, with the paper's words. Every other one
    means that our grid is too short. Tables whose summaries are not there yet count nothing.
    """
    frames = []
    for name in entry.tables:
        spec = config["tables"][name]
        names = spec["experiment"] if isinstance(spec["experiment"], list) else [spec["experiment"]]
        paths = [Path(root) / "results" / "summary" / f"{experiment}.csv" for experiment in names]
        if all(path.exists() for path in paths):
            records = pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)
            frames.append(grid_edges(records, spec.get("select")))
    if not frames:
        return Edges()
    edges = pd.concat(frames, ignore_index=True)
    edges = edges.loc[(_matches(edges["dataset"], entry.datasets) & _matches(edges["method"], entry.methods)).astype(bool)]
    stated = pd.Series(False, index=edges.index)
    quotes = []
    for parameter, methods, quote in entry.paper_grids:
        hit = (edges["parameter"] == parameter) & _matches(edges["method"], methods).astype(bool)
        if (hit & (edges["n_low"] + edges["n_high"] > 0)).any():
            quotes.append(f"{parameter}: {quote}")
        stated |= hit
    ours, paper = edges[~stated], edges[stated]
    paper_lines = describe_edges(paper)
    return Edges(
        lines=tuple(describe_edges(ours)),
        n_edge=int((ours["n_low"] + ours["n_high"]).sum()),
        margin=float(ours["margin"].max()),
        n_unknown=int((ours["n_low"] + ours["n_high"])[ours["margin"].isna()].sum()),
        paper_lines=tuple(paper_lines + [f"the paper's grid, {q}" for q in quotes] if paper_lines else ()),
        n_paper_edge=int((paper["n_low"] + paper["n_high"]).sum()),
        n_choices=int(edges["n_runs"].sum()),
    )


def render(
    papers: dict[str, dict],
    entries: list[Entry],
    assessments: list[Assessment],
    config: dict[str, Any],
    command: str,
    claims: list[str] | None = None,
    claim_counts: dict[str, Counter] | None = None,
) -> str:
    """REPRODUCTION.md: a legend, a count per status, a verdict per paper, one table per paper, then the
    ``claims`` section.

    ``claim_counts`` maps each paper id to the count of its claims' verdicts (holds, contradicted, inconclusive).
    """
    lines = [
        "# Reproduction status of every table and figure",
        "",
        f"Generated by `{command}` from the catalogue `config/reproduction.yaml` and the tables and "
        "figures in `results/`. Do not edit it by hand: change the catalogue or rerun the experiments.",
        "",
        "Gaps are ours minus the paper's, absolute or relative to the paper's value as the tolerance is; "
        "the largest is the one furthest outside (or closest to) its tolerance. Only the metrics listed "
        "under *compared* decide the status; times measured on other machines never do.",
        "",
    ]
    lines += [f"- **{status}**: {meaning}" for status, meaning in STATUSES.items()]
    counts = Counter(a.status.split(" (")[0].split(":")[0] for a in assessments)
    named = {"claims": "judged by their claims"}
    lines += ["", "Summary: " + ", ".join(f"{n} {named.get(status, status)}" for status, n in counts.most_common()) + ".", ""]
    lines += _attribution_summary(assessments)
    n_edge, n_choices = sum(a.n_edge for a in assessments), sum(a.n_choices for a in assessments)
    n_paper_edge = sum(a.n_paper_edge for a in assessments)
    margins = [a.edge_margin for a in assessments if a.n_edge and not pd.isna(a.edge_margin)]
    n_unknown = sum(a.n_edge_unknown for a in assessments)
    if n_choices:
        lines += [
            f"Hyper-parameter choices at an edge of our grid: {n_edge} of {n_choices} (one per run and "
            "chosen parameter; a choice at an edge means the grid is too short, the target is none)."
            + (
                f" At each, the best setting inside the grid is at most {max(margins):.3g} worse in the error "
                "it was chosen by (validation or CV error)"
                + (f", where the records keep every setting's error (not for {n_unknown})" if n_unknown else "")
                + "; each is listed under its item."
                if margins
                else ""
            )
            + (
                f" At an edge of a grid the paper states: {n_paper_edge} more (its protocol, kept and flagged "
                "under each item with the paper's words)."
                if n_paper_edge
                else ""
            ),
            "",
        ]
    lines += _paper_verdicts(papers, entries, assessments, claim_counts or {})
    for paper, info in papers.items():
        rows = [(e, a) for e, a in zip(entries, assessments) if e.paper == paper]
        if not rows:
            continue
        lines += [f"## {paper}: {info['citation']}", ""]
        frame = pd.DataFrame(
            [
                {
                    "item": e.item,
                    "shows": e.shows,
                    "status": a.status,
                    "largest gap (ours − paper)": a.gap,
                    "compared (tolerance)": ", ".join(f"{m} ({t})" for m, t in e.compare) or "—",
                    "rebuild": f"`{e.rebuild}`" if e.rebuild != "—" else "—",
                }
                for e, a in rows
            ]
        )
        lines += [frame.map(_cell).to_markdown(index=False), ""]
        for e, a in rows:
            if a.by_metric:
                lines.append(f"- {e.item}, largest gap per metric: {a.by_metric}.")
            if a.attributions:
                lines.append(f"- {e.item}, outside tolerance: " + "; ".join(describe(list(a.attributions))) + ".")
            if a.edges:
                lines.append(f"- {e.item}, chosen at an edge of our grid ({a.n_edge} of {a.n_choices} choices): " + "; ".join(a.edges) + ".")
            if a.paper_edges:
                lines.append(
                    f"- {e.item}, chosen at an edge of the paper's grid ({a.n_paper_edge} of {a.n_choices} choices; "
                    "its protocol, kept): " + "; ".join(a.paper_edges) + "."
                )
            if e.note:
                lines.append(f"- {e.item}: {e.note}")
        lines += [""]
    extra = _uncatalogued(entries, config)
    if extra:
        lines += ["## Also built (not in the papers)", ""]
        lines += [f"- {kind} `{name}`: {caption}" for kind, name, caption in extra]
        lines += [""]
    lines += claims or []
    return "\n".join(lines).rstrip() + "\n"


def _attribution_summary(assessments: list[Assessment]) -> list[str]:
    """The count of compared cells outside tolerance by attribution, against all compared cells."""
    compared = sum(a.n_compared for a in assessments)
    if not compared:
        return []
    counts = Counter(b.kind for a in assessments for b in a.attributions)
    outside = sum(counts.values())
    parts = ", ".join(f"{counts[kind]} {kind}" for kind in KINDS)
    return [
        f"Compared values: {compared}; within tolerance: {compared - outside}; outside: {outside} ({parts}). "
        f"Unexplained: {counts[KINDS[-1]] / compared:.0%} of the compared values (target: at most 10%). "
        "A value is within noise when it differs from the paper's by less than two standard errors of the "
        "difference (both sides' standard deviations over their runs; only where the paper says how many runs); "
        "an ablation explains a value when a variant of its method in a sensitivity table is within tolerance "
        "(for a sweep of a continuous parameter such as C, on every compared value of its row at once).",
        "",
    ]


def _paper_verdicts(
    papers: dict[str, dict], entries: list[Entry], assessments: list[Assessment], claim_counts: dict[str, Counter]
) -> list[str]:
    """"Does each paper hold up?": per paper, its claims' verdicts and its compared values by attribution,
    then the catalogue's written verdict of each paper (its ``verdict`` key), where it gives one."""
    rows = []
    for paper in papers:
        found = [(e, a) for e, a in zip(entries, assessments) if e.paper == paper]
        claims = claim_counts.get(paper, Counter())
        kinds = Counter(b.kind for _, a in found for b in a.attributions)
        compared = sum(a.n_compared for _, a in found)
        rows.append(
            {
                "paper": paper,
                "claims": (f"{sum(claims.values())}: " + ", ".join(f"{claims[v]} {v}" for v in VERDICTS))
                if claims
                else "—",
                "compared values": compared or "—",
                "within tolerance": compared - sum(kinds.values()) if compared else "—",
                **{kind: kinds[kind] if compared else "—" for kind in KINDS[:-1]},
                KINDS[-1]: f"{kinds[KINDS[-1]]} ({kinds[KINDS[-1]] / compared:.0%})" if compared else "—",
                "not reproducible": sum(a.status.startswith("not reproducible") for _, a in found) or "—",
            }
        )
    lines = [
        "## Does each paper hold up?",
        "",
        "Per paper: the verdicts on its claims (Claims section); its compared values, within tolerance or "
        "outside it by attribution (unexplained also as a share of the paper's compared values); and its items "
        "that are not reproducible (data or features not available).",
        "",
        pd.DataFrame(rows).to_markdown(index=False),
        "",
    ]
    verdicts = [f"- **{paper}**: {info['verdict'].strip()}" for paper, info in papers.items() if info.get("verdict")]
    return lines + (verdicts + [""] if verdicts else [])


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _uncatalogued(entries: list[Entry], config: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Tables and figures of the config that no catalogue entry names."""
    named = {("table", n) for e in entries for n in e.tables} | {("figure", n) for e in entries for n in e.figures}
    return [
        (kind[:-1], name, spec.get("caption", ""))
        for kind in ("tables", "figures")
        for name, spec in config[kind].items()
        if (kind[:-1], name) not in named
    ]


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
                found, edges=edges.lines, n_edge=edges.n_edge, n_choices=edges.n_choices,
                edge_margin=edges.margin, n_edge_unknown=edges.n_unknown,
                paper_edges=edges.paper_lines, n_paper_edge=edges.n_paper_edge,
            )
        assessments.append(found)
    claims_path = Path(claims) if claims is not None else Path(catalogue).with_name("claims.yaml")
    if not claims_path.exists():
        if claims is not None:
            load_claims(claims_path, {})  # raises the named error
        return render(papers, entries, assessments, config, command)
    known = {paper: {e.item for e in entries if e.paper == paper} for paper in papers}
    catalogue_claims = load_claims(claims_path, known)
    verdicts = [judge(claim, root) for claim in catalogue_claims]
    statuses = item_status(catalogue_claims, verdicts)
    assessments = [
        dataclasses.replace(a, status=statuses[(e.paper, e.item)], gap="see Claims")
        if a.status == "drawn" and (e.paper, e.item) in statuses
        else a
        for e, a in zip(entries, assessments)
    ]
    section = render_claims(catalogue_claims, verdicts, root)
    return render(papers, entries, assessments, config, command, section, paper_counts(catalogue_claims, verdicts))


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
