"""The papers' claims about their results, and our verdict on each.

The catalogue ``config/claims.yaml`` lists every claim the five papers make about
their experiments: the paper's words (``quote``), a testable restatement (``claim``), the
``rule`` that turns its words into a threshold (:mod:`mkbench.harness.claim_rules`), the
paper's own evidence, and a ``check`` (:mod:`mkbench.harness.claim_checks`) that computes
the deciding statistics, each with its standard error, from our records. A claim that no
record of ours can decide gives a ``reason`` instead.

Verdicts
--------
holds
    Every comparison of the check meets its threshold, none of them within noise.
contradicted
    At least one comparison misses its threshold by more than two standard errors
    (a single run, which has none, as measured).
inconclusive
    The records are not there yet, the claim cannot be judged on our data (the reason is
    given), a comparison that would decide it is within noise, a run it reads stopped at a
    limit, or the item it is judged on is not reproduced (:mod:`mkbench.harness.claim_guards`).

Each verdict is also judged under the other readings the claim's words allow; a verdict that
changes under one of them is *fragile* (:mod:`mkbench.harness.claim_report` shows them). A
claim's ``items`` name the tables and figures of ``config/reproduction.yaml`` that carry it: a
figure with claims is judged by them instead of being "drawn".
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..exceptions import ConfigError
from . import claim_rules
from .claim_checks import MissingRecords, run_check
from .claim_guards import ItemState, deviating_baselines, truncated_runs, unreproduced_items
from .claim_statistics import Comparison
from .config import check_schema, read_yaml

VERDICTS = {
    "holds": "every comparison that decides the claim meets the threshold its rule gives, beyond noise",
    "contradicted": "at least one comparison misses that threshold beyond noise (two standard errors)",
    "inconclusive": "our records cannot decide it: not run yet, data that differs (reason given), within noise, "
    "a run stopped at a limit, or judged on an item that is not reproduced",
}

#: The schema of config/claims.yaml, a YAML file beside the config's (claims.schema.yaml).
_SCHEMA = read_yaml(Path(str(resources.files("mkbench.harness") / "claims.schema.yaml")), "claims schema")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper about its results, as the catalogue gives it."""

    id: str
    paper: str
    where: str
    quote: str
    claim: str
    evidence: str
    items: tuple[str, ...] = ()
    check: dict | None = None
    reason: str | None = None
    caveat: str = ""
    #: The rule that gives the check's threshold (:mod:`mkbench.harness.claim_rules`).
    rule: str | dict | None = None
    #: Method -> the paper's words fixing its iteration count: its runs stopping there are not cut short.
    iterations: dict | None = None
    #: Why the claim is about the protocol of its items itself (it is then judged even if they are not reproduced).
    about_protocol: str = ""
    #: Numbers of the evidence computed from the paper's tables (config/reference), with how.
    computed: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """Our verdict on a claim: ``holds``, ``contradicted`` or ``inconclusive``, with its numbers.

    ``readings`` are the other readings of the claim's words, each with the verdict under it
    (empty when the rule allows none, or when the claim is inconclusive under any reading).
    """

    verdict: str
    numbers: str
    why: str = ""
    readings: tuple[tuple[str, str], ...] = ()

    @property
    def fragile(self) -> bool:
        """Whether another reading of the claim's words changes the verdict."""
        return any(other != self.verdict for _, other in self.readings)

    @property
    def robustness(self) -> str:
        """The verdict under each other reading, led by robust or fragile."""
        if not self.readings:
            return "— (no other reading decides it)"
        shown = "; ".join(f"{name}: {other}" for name, other in self.readings)
        return ("**fragile**: " if self.fragile else "robust: ") + shown


def load_claims(path: str | os.PathLike, items: dict[str, set[str]]) -> list[Claim]:
    """Read and check the claims catalogue at ``path``.

    ``items`` maps each paper id to the item labels of the reproduction catalogue;
    a claim must name a known paper and, in ``items``, labels of that paper.

    Raises
    ------
    ConfigError
        Naming the claim and the problem: invalid YAML, a missing or unknown key,
        an unknown paper or item, a claim with both or neither of check and reason,
        a duplicated id.
    """
    raw = read_yaml(path, "claims catalogue", " (config/claims.yaml)")
    check_schema(raw, _SCHEMA, f"claims catalogue {os.fspath(path)!r}")
    problems = []
    for spec in raw["claims"]:
        where = f"  claim {spec['id']!r}"
        if spec["paper"] not in items:
            problems.append(f"{where}: unknown paper {spec['paper']!r}; papers: {', '.join(items)}")
            continue
        unknown = [item for item in spec.get("items", []) if item not in items[spec["paper"]]]
        if unknown:
            problems.append(f"{where}: unknown items {unknown} of paper {spec['paper']!r}")
        if ("check" in spec) == ("reason" in spec):
            problems.append(f"{where}: give either a check or a reason why none can decide it, not both or neither")
        if "check" in spec and not {"at_least", "at_most"} & set(spec["check"]):
            problems.append(f"{where}: its check needs at_least and/or at_most, the threshold the claim implies")
        elif "check" in spec and "rule" not in spec:
            problems.append(f"{where}: its check needs a rule, the one that gives its threshold (claim_rules.py)")
        elif "check" in spec:
            problems += [f"{where}: {problem}" for problem in claim_rules.rule_problems(spec["rule"], spec["check"])]
    counts = Counter(spec["id"] for spec in raw["claims"])
    problems += [f"  claim id {name!r} is listed {n} times" for name, n in counts.items() if n > 1]
    if problems:
        raise ConfigError(f"invalid claims catalogue {os.fspath(path)!r}:\n" + "\n".join(problems))
    return [
        Claim(**{**spec, "items": tuple(spec.get("items", ())), "computed": tuple(spec.get("computed", ()))})
        for spec in raw["claims"]
    ]


def judge(
    claim: Claim, root: str | os.PathLike = ".", items: dict[tuple[str, str], ItemState] | None = None
) -> Verdict:
    """Our verdict on ``claim``, from the records under ``root``.

    ``items`` maps ``(paper, item)`` to what REPRODUCTION.md found for the items with compared values
    (whether each is reproduced, its cells): a claim carried by one that is not is inconclusive, and a
    contradiction that rests on a method deviating from the paper's value says so.
    """
    if claim.check is None:
        return Verdict("inconclusive", "—", claim.reason or "")
    items = items or {}
    try:
        comparisons = run_check(claim.check, root)
    except MissingRecords as exc:
        return Verdict("inconclusive", "—", f"not run yet: {exc}")
    numbers = "; ".join(str(c) for c in comparisons)
    verdict, why = decide(comparisons)
    alone = f"; on the comparisons alone: {verdict}"
    stopped = truncated_runs(claim, root)
    if stopped:
        why = "a run stopped at a limit cannot decide a claim about the end of a run: " + "; ".join(stopped)
        return Verdict("inconclusive", numbers, why + alone)
    unreproduced = unreproduced_items(claim, items)
    if unreproduced:
        why = "judged on an item that is not reproduced: " + "; ".join(unreproduced)
        return Verdict("inconclusive", numbers, why + alone)
    if verdict == "contradicted":
        why = "; ".join([why, *deviating_baselines(claim, comparisons, items)])
    return Verdict(verdict, numbers, why, _readings(claim, root))


def decide(comparisons: list[Comparison]) -> tuple[str, str]:
    """The verdict of a set of comparisons and why: a miss beyond noise contradicts, one within noise leaves
    the claim open, else it holds."""
    failed = [c for c in comparisons if not c.holds and not c.within_noise]
    if failed:
        return "contradicted", f"{len(failed)} of {len(comparisons)} comparisons miss the threshold"
    noisy = [c for c in comparisons if c.within_noise]
    if noisy:
        return "inconclusive", f"{len(noisy)} of {len(comparisons)} comparisons are within noise"
    return "holds", ""


def _readings(claim: Claim, root: str | os.PathLike) -> tuple[tuple[str, str], ...]:
    """The verdict under each other reading of the claim's words (:func:`claim_rules.alternatives`)."""
    if claim.rule is None or claim.check is None:  # a rule reads a check's threshold: none without one
        return ()
    alternatives = claim_rules.alternatives(claim.rule, claim.check)
    return tuple((name, decide(run_check(check, root))[0]) for name, check in alternatives)


def item_status(claims: list[Claim], verdicts: list[Verdict]) -> dict[tuple[str, str], str]:
    """The status of each reproduction item that carries claims: ``claims: 2 hold, 1 contradicted``."""
    by_item: dict[tuple[str, str], Counter] = {}
    for claim, verdict in zip(claims, verdicts, strict=True):
        for item in claim.items:
            by_item.setdefault((claim.paper, item), Counter())[verdict.verdict] += 1
    return {
        key: "claims: " + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
        for key, counts in by_item.items()
    }


def paper_counts(claims: list[Claim], verdicts: list[Verdict]) -> dict[str, Counter]:
    """The count of each verdict among each paper's claims."""
    counts: dict[str, Counter] = {}
    for claim, verdict in zip(claims, verdicts, strict=True):
        counts.setdefault(claim.paper, Counter())[verdict.verdict] += 1
    return counts
