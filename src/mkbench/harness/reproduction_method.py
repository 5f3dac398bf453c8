"""The opening of REPRODUCTION.md: its scope, its methodology (every rule that decides a status, an attribution or a
verdict, stated once, from the modules that apply it), and what was easy and what was hard."""

from __future__ import annotations

from .attribution import KINDS
from .catalogue import Entry
from .claim_rules import FACTOR_TOLERANCE, RULES
from .claim_statistics import BOOTSTRAP_RESAMPLES
from .claims import VERDICTS

#: What the statuses mean, in the order of the legend of REPRODUCTION.md.
STATUSES = {
    "reproduced": "every compared value of ours is within the tolerance of the paper's",
    "deviates": "at least one compared value is outside its tolerance, and the item is not 'not reproduced'",
    "not reproduced": "every reading of the paper's protocol that the catalogue lists for the item (its readings, "
    "named in its section) was run, and none reproduces it: some compared value stays outside tolerance with no "
    "attribution below",
    "incomplete": "every value we have is within tolerance, but some of the paper's have no value of ours",
    "claims": "a figure judged by the claims it carries (verdicts in the Claims section)",
    "drawn": "the figure exists; the paper gives no numbers for it and states no claim on it: compare visually",
    "not run yet": "configured, but an output is missing (run the command)",
    "not configured yet": "no experiment rebuilds it yet",
    "not reproducible": "the data or features are not available (reason given)",
}


def scope(report: dict, papers: dict[str, dict], entries: list[Entry], n_claims: int) -> list[str]:
    """What the report judges: the catalogue's words, then the papers, items and claims it covers."""
    n_tables = sum(bool(e.tables) for e in entries)
    lines = ["## Scope", ""]
    if report.get("scope"):
        lines += [report["scope"].strip(), ""]
    lines.append(
        f"It covers {len(papers)} papers: {len(entries)} tables and figures (items; {n_tables} with values compared "
        f"to the paper's) and {n_claims} claims the papers make about their own experiments."
    )
    lines += [f"- **{paper}**: {info['citation']}" for paper, info in papers.items()]
    return lines + [""]


def _tolerances(entries: list[Entry]) -> str:
    """The tolerance of each compared metric, grouped by tolerance."""
    by_tolerance: dict[str, set[str]] = {}
    for entry in entries:
        for metric, tolerance in entry.compare:
            by_tolerance.setdefault(str(tolerance), set()).add(metric)
    return "; ".join(f"{tol} for {', '.join(sorted(metrics))}" for tol, metrics in by_tolerance.items())


def methodology(entries: list[Entry], with_claims: bool) -> list[str]:
    """Every rule of the report, once: tables and figures, then claims."""
    lines = [
        "## Methodology",
        "",
        "Every rule below was fixed before the results it applies to were looked at, and is applied the same way "
        "to every item and claim; the code that applies it is named in brackets. Nothing here is edited by hand: "
        "change the catalogues (config/reproduction.yaml, config/claims.yaml) or the records and regenerate.",
        "",
        "### Tables and figures",
        "",
        "Each compared value is ours (the mean over our runs) against the paper's (config/reference/, shown beside "
        "ours in every table); the gap is ours minus the paper's, absolute or relative to the paper's value as the "
        "tolerance is. The tolerances are fixed per kind of metric, not per result: "
        f"{_tolerances(entries)}. Only the compared metrics decide a status; times measured on other machines "
        "never do. An item's status (catalogue.py, reproduction.py):",
        "",
    ]
    lines += [f"- **{status}**: {meaning}" for status, meaning in STATUSES.items()]
    lines += [
        "",
        "Each value outside its tolerance gets one attribution, the first that applies (attribution.py):",
        "",
        f"1. **{KINDS[0]}**: it differs from the paper's by less than two standard errors of the difference, "
        "sqrt(sd_ours^2 / n_ours + sd_paper^2 / n_paper), where the paper gives how many runs its value averages;",
        f"2. **{KINDS[1]}**: one variant of its method in a sensitivity table (another reading of a choice the "
        "paper leaves open, or a setting of a parameter it does not give) puts every compared value of its row "
        "(data set and method) within tolerance at once. One reading must give the paper's whole row, not one "
        "cell of it; the catalogue may scope an ablation to named metrics, with the reason written;",
        f"3. **{KINDS[2]}**: the catalogue names a difference of our data from the paper's and the data sets and "
        "metrics it causes;",
        f"4. **{KINDS[3]}**: any other value of an item that is not reproduced (every reading the catalogue lists "
        "for it was run, and none gives it): the item is counted as not reproduced, with its readings listed;",
        f"5. **{KINDS[4]}**: anything else. The unexplained values, as a share of all compared values, measure "
        "what we cannot account for (target: at most 10%).",
        "",
        "A hyper-parameter chosen at an edge of one of our grids means the grid is too short; one chosen at an edge "
        "of a grid given in the paper's text follows its protocol and is counted apart (reproduction_edges.py).",
        "",
    ]
    return lines + (_claims_method() if with_claims else [])


def _claims_method() -> list[str]:
    """The rules that decide a claim's verdict."""
    lines = [
        "### Claims",
        "",
        "Each claim is a sentence of the paper about its experiments (quoted), restated as a test with the "
        "threshold its words imply under one of these rules; every threshold of config/claims.yaml is checked "
        "against its rule when the catalogue is read (claim_rules.py):",
        "",
        "| rule | the paper's words | threshold | other readings the words allow |",
        "|:--|:--|:--|:--|",
    ]
    lines += [f"| {rule} | {words} | {threshold} | {other} |" for rule, (words, threshold, other) in RULES.items()]
    lines += [
        "",
        f"A stated factor is judged by that factor, less the {FACTOR_TOLERANCE - 1:.0%} tolerance of counts; only a "
        "claim whose words state no number is judged by the intensifier rule. Every statistic carries its standard "
        "error from our runs (claim_statistics.py): a paired difference over splits or seeds, its paired standard "
        "error; a ratio of means, the delta method's; a trend, a seeded bootstrap of the runs within each group "
        f"({BOOTSTRAP_RESAMPLES} resamples); a scaling slope, its least-squares error. A single run has none: it "
        "is reported as measured and marked 'one run'. The verdicts:",
        "",
    ]
    lines += [f"- **{verdict}**: {meaning}" for verdict, meaning in VERDICTS.items()]
    lines += [
        "",
        "A claim is inconclusive, with its reason and what its comparisons alone would give, when (claim_guards.py):",
        "",
        "- a comparison is within two standard errors of its threshold;",
        "- it is about convergence or the end of a run (the final value, minimum, mean, rise, last fifth or reach of "
        "a curve) and a run it reads stopped at a time limit, or at an iteration limit the paper's words do not fix;",
        "- it is carried by an item that is not reproduced, or by a figure whose runs follow such an item's protocol "
        "(the catalogue's protocol key), unless the claim is about that protocol itself: our records then do not "
        "stand for the paper's setting.",
        "",
        "A contradiction that rests on one of its methods deviating from the paper's own value for it beyond "
        "tolerance (the item's compared values) says so in its verdict. Each verdict is also computed under the "
        "other readings its rule allows; a verdict that one of them changes is marked **fragile**.",
        "",
    ]
    return lines


def easy_and_hard(report: dict) -> list[str]:
    """What was easy and what was hard, in the catalogue's words."""
    parts = [(title, report.get(key, "").strip()) for key, title in (("easy", "Easy"), ("hard", "Hard"))]
    if not any(text for _, text in parts):
        return []
    lines = ["## What was easy and what was hard", ""]
    for title, text in parts:
        if text:
            lines += [f"**{title}.** {text}", ""]
    return lines
