"""Hyper-parameters chosen at an edge of a grid, per entry of the reproduction catalogue (REPRODUCTION.md).

A choice at an edge of one of our grids means the grid is too short; a choice at an edge of a grid the
paper states follows the paper's protocol and is counted apart, with the paper's words. The choices are
read from the experiments' summaries (:func:`mkbench.harness.selection.grid_edges`).
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .catalogue import Entry
from .config import added_methods
from .selection import describe_edges, grid_edges


def matches(values: pd.Series, patterns: tuple[str, ...] | None) -> pd.Series:
    """Which ``values`` match one of the catalogue's glob ``patterns`` (all of them when there are none)."""
    if patterns is None:
        return pd.Series(True, index=values.index)
    return values.astype(str).map(lambda v: any(fnmatch.fnmatchcase(v, p) for p in patterns))


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
            records = records[~records["method"].isin(added_methods(config, names))]  # not the paper's: not judged
            frames.append(grid_edges(records, spec.get("select")))
    if not frames:
        return Edges()
    edges = pd.concat(frames, ignore_index=True)
    selected = matches(edges["dataset"], entry.datasets) & matches(edges["method"], entry.methods)
    edges = edges.loc[selected.astype(bool)]
    stated = pd.Series(False, index=edges.index)
    quotes = []
    for parameter, methods, quote in entry.paper_grids:
        hit = (edges["parameter"] == parameter) & matches(edges["method"], methods).astype(bool)
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
