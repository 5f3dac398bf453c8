"""When our records cannot decide a claim however its numbers come out, and what a contradiction rests on.

Three rules, applied to every claim before and after its comparisons
(:func:`mkbench.harness.claims.judge`):

* **truncated runs**: a claim about convergence or the end of a run (a history check that
  reduces each run's curve by its ``final``, ``min``, ``mean``, ``rise``, ``tail_drop`` or
  ``reach``) cannot be decided by a run that stopped at a time limit, or at an iteration limit
  the paper does not fix (the claim's ``iterations`` names, per method, the paper's words that fix
  the count); the claim is then inconclusive;
* **a protocol not reproduced**: a claim carried by an item that is not reproduced (every reading the
  catalogue lists for it was run and none gives it: :attr:`ItemState.not_reproduced`) is judged on a protocol that does not
  give the paper's item, and is inconclusive, unless it is about that protocol itself
  (``about_protocol``, with the reason);
* **a deviating baseline**: a comparison that contradicts the claim while one of its methods is
  beyond the tolerance of the paper's own value for it (the item's compared cells) rests on that
  deviation; the verdict says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .catalogue import Gap

if TYPE_CHECKING:  # pragma: no cover
    from .claim_statistics import Comparison
    from .claims import Claim

#: History reductions that read a whole run or its end: a run stopped early cannot give them.
END_OF_RUN = ("final", "min", "mean", "rise", "tail_drop", "reach")


@dataclass(frozen=True)
class ItemState:
    """What REPRODUCTION.md found for an item with compared values: whether it is reproduced and its cells."""

    not_reproduced: bool
    summary: str
    gaps: tuple[Gap, ...] = ()


def truncated_runs(claim: Claim, root: str | os.PathLike = ".") -> list[str]:
    """The methods of ``claim``'s history check whose runs stopped at a limit, each with how often and where."""
    check = claim.check or {}
    if check.get("source") != "history" or check.get("reduce", "final") not in END_OF_RUN:
        return []
    experiments = check["experiment"] if isinstance(check["experiment"], list) else [check["experiment"]]
    paths = [Path(root) / "results" / "summary" / f"{name}.csv" for name in experiments]
    found = [pd.read_csv(path) for path in paths if path.exists()]
    if not found:  # a history without its summary: no run's stopping status to read
        return []
    frame = pd.concat(found, ignore_index=True)
    param = frame["param"].astype(str) if "param" in frame else pd.Series("default", index=frame.index)
    frame["name"] = frame["method"].where(param == "default", frame["method"] + "@" + param)
    for field, allowed in check.get("where", {}).items():
        if field in frame:
            frame = frame[frame[field].astype(str).isin([str(v) for v in _as_list(allowed)])]
    stopped = frame["cg_status"].fillna(frame["status"]) if "cg_status" in frame else frame["status"]
    fixed = claim.iterations or {}
    found = []
    for method in [check["a"], *_as_list(check.get("b", []))]:
        runs = frame["name"].eq(method) | frame["name"].str.startswith(f"{method}@")
        paper_fixes = method in fixed or method.split("@")[0] in fixed
        limits = {"time_limit": "its time limit"} | ({} if paper_fixes else {"max_iter": "its iteration limit"})
        for status, words in limits.items():
            hit = frame[runs & stopped.eq(status)]
            if len(hit):
                where = f" after {_span(hit['n_iter'])} iterations" if "n_iter" in hit else ""
                found.append(f"{method} stopped at {words} in {len(hit)} of {int(runs.sum())} runs{where}")
    return found


def _span(values: pd.Series) -> str:
    low, high = int(values.min()), int(values.max())
    return f"{low}" if low == high else f"{low}-{high}"


def unreproduced_items(claim: Claim, items: dict[tuple[str, str], ItemState]) -> list[str]:
    """The items carrying ``claim`` that are not reproduced, unless the claim is about their protocol itself."""
    if claim.about_protocol:
        return []
    return [
        f"{item}: {items[(claim.paper, item)].summary}"
        for item in claim.items
        if (claim.paper, item) in items and items[(claim.paper, item)].not_reproduced
    ]


def deviating_baselines(
    claim: Claim, comparisons: list[Comparison], items: dict[tuple[str, str], ItemState]
) -> list[str]:
    """For each comparison that contradicts ``claim``: its methods whose compared values on its data sets are
    beyond the tolerance of the paper's (the mean over the data sets, for a pooled comparison)."""
    metric = (claim.check or {}).get("metric")
    if not isinstance(metric, str):
        return []
    states = [items[(claim.paper, item)] for item in claim.items if (claim.paper, item) in items]
    gaps = [g for state in states for g in state.gaps if g.metric == metric]
    notes = []
    for comparison in comparisons:
        if comparison.holds or comparison.within_noise:
            continue
        for method in comparison.methods:
            mine = [g for g in gaps if g.method == method and g.dataset in comparison.datasets]
            if not mine:
                continue
            ours = sum(g.ours for g in mine) / len(mine)
            paper = sum(g.paper for g in mine) / len(mine)
            tolerance = mine[0].tolerance
            if abs(tolerance.gap(ours, paper)) > tolerance.value:
                where = mine[0].dataset if len(mine) == 1 else f"the mean over {len(mine)} data sets"
                notes.append(
                    f"{comparison.label} rests on our {method} deviating from the paper's {method} on {where}: "
                    f"{metric} {ours:.4g} against the paper's {paper:.4g}, beyond the tolerance {tolerance}"
                )
    return notes


def _as_list(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]
