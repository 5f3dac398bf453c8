"""The papers' claims about their results, and our verdict on each.

The catalogue ``config/claims.yaml`` lists every claim the five papers make about
their experiments: the paper's words (``quote``), a testable restatement with the
threshold the words imply (``claim``), the paper's own evidence, and a ``check``
(:mod:`mkbench.harness.claim_checks`) that computes the deciding numbers from our records.
A claim that no record of ours can decide gives a ``reason`` instead.

Verdicts
--------
holds
    Every comparison of the check meets its threshold, none of them within noise.
contradicted
    At least one comparison misses its threshold by more than two standard errors
    (or has no standard error: a single measured number).
inconclusive
    The records are not there yet, the claim cannot be judged on our data (the
    reason is given), or the comparisons that would decide it are within noise.

A claim's ``items`` name the tables and figures of ``config/reproduction.yaml``
that carry it: a figure with claims is judged by them instead of being "drawn".
"""

from __future__ import annotations

import json
import shlex
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path


from .claim_checks import REDUCTIONS, MissingRecords, run_check
from .config import check_schema, read_yaml
from ..exceptions import ConfigError

VERDICTS = {
    "holds": "every comparison that decides the claim meets the threshold the paper's words imply",
    "contradicted": "at least one comparison misses that threshold beyond noise (two standard errors)",
    "inconclusive": "our records cannot decide it: not run yet, data that differs (reason given), or within noise",
}

_NAMES = {"anyOf": [{"type": "string"}, {"type": "array", "minItems": 1, "items": {"type": "string"}}]}
_BOUNDS = {"at_least": {"type": "number"}, "at_most": {"type": "number"}}
_RECORDS = {
    "experiment": _NAMES,
    "a": {"type": "string"},
    "b": _NAMES,
    "metric": _NAMES,
    "where": {"type": "object"},
    "by": {"type": "array", "items": {"type": "string"}},
    "select": {"type": "string"},
    "statistic": {"enum": ["difference", "ratio", "trend"]},
    **_BOUNDS,
}
def _kind(source: str, required: list[str], properties: dict) -> dict:
    """The keys of a check reading ``source``: those checks only, named in errors."""
    return {
        "if": {"properties": {"source": {"const": source}}},
        "then": {
            "required": required,
            "properties": {"source": {}, **properties},
            "additionalProperties": False,
        },
    }


_CHECK = {
    "type": "object",
    "required": ["source"],
    "properties": {"source": {"enum": ["summary", "history", "bench"]}},
    "allOf": [
        _kind("summary", ["experiment", "a", "metric"], _RECORDS),
        _kind(
            "history",
            ["experiment", "a", "metric", "reduce"],
            {"x": {"type": "string"}, "reduce": {"enum": list(REDUCTIONS)}, "at": {"type": "number"}, **_RECORDS},
        ),
        _kind(
            "bench",
            ["bench", "values"],
            {
                "bench": {"type": "string"},
                "values": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "array"}},
                **_BOUNDS,
            },
        ),
    ],
}
_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["claims"],
    "properties": {
        "claims": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "paper", "where", "quote", "claim", "evidence"],
                "properties": {
                    "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
                    "paper": {"type": "string"},
                    "where": {"type": "string"},
                    "quote": {"type": "string"},
                    "claim": {"type": "string"},
                    "evidence": {"type": "string"},
                    "items": {"type": "array", "items": {"type": "string"}},
                    "check": _CHECK,
                    "reason": {"type": "string"},
                    "caveat": {"type": "string"},
                },
            },
        }
    },
}


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


@dataclass(frozen=True)
class Verdict:
    """Our verdict on a claim: ``holds``, ``contradicted`` or ``inconclusive``, with its numbers."""

    verdict: str
    numbers: str
    why: str = ""


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
    counts = Counter(spec["id"] for spec in raw["claims"])
    problems += [f"  claim id {name!r} is listed {n} times" for name, n in counts.items() if n > 1]
    if problems:
        raise ConfigError(f"invalid claims catalogue {os.fspath(path)!r}:\n" + "\n".join(problems))
    return [Claim(**{**spec, "items": tuple(spec.get("items", ()))}) for spec in raw["claims"]]


def judge(claim: Claim, root: str | os.PathLike = ".") -> Verdict:
    """Our verdict on ``claim``, from the records under ``root``."""
    if claim.check is None:
        return Verdict("inconclusive", "—", claim.reason or "")
    try:
        comparisons = run_check(claim.check, root)
    except MissingRecords as exc:
        return Verdict("inconclusive", "—", f"not run yet: {exc}")
    numbers = "; ".join(str(c) for c in comparisons)
    failed = [c for c in comparisons if not c.holds and not c.within_noise]
    if failed:
        return Verdict("contradicted", numbers, f"{len(failed)} of {len(comparisons)} comparisons miss the threshold")
    noisy = [c for c in comparisons if c.within_noise]
    if noisy:
        return Verdict("inconclusive", numbers, f"{len(noisy)} of {len(comparisons)} comparisons are within noise")
    return Verdict("holds", numbers)


def rebuild_command(claim: Claim, root: str | os.PathLike = ".") -> str:
    """The command that rebuilds the records a claim's check reads."""
    check = claim.check
    if check is None:
        return "—"
    if check["source"] == "bench":
        path = Path(root) / "results" / "bench" / f"{check['bench']}.json"
        if path.exists():
            with open(path, encoding="utf-8") as fh:
                return _portable(json.load(fh).get("command", "snakemake bench --cores 1"))
        return "snakemake bench --cores 1"
    experiments = check["experiment"] if isinstance(check["experiment"], list) else [check["experiment"]]
    return "snakemake --cores 8 " + " ".join(f"results/summary/{name}.csv" for name in experiments)


def _portable(command: str) -> str:
    """A recorded command without its machine's data mirror (``--mirror DIR``; $MKBENCH_DATA_MIRROR serves instead)."""
    words = shlex.split(command)
    kept = [w for i, w in enumerate(words) if w != "--mirror" and (i == 0 or words[i - 1] != "--mirror")]
    return shlex.join(kept)


def item_status(claims: list[Claim], verdicts: list[Verdict]) -> dict[tuple[str, str], str]:
    """The status of each reproduction item that carries claims: ``claims: 2 hold, 1 contradicted``."""
    by_item: dict[tuple[str, str], Counter] = {}
    for claim, verdict in zip(claims, verdicts):
        for item in claim.items:
            by_item.setdefault((claim.paper, item), Counter())[verdict.verdict] += 1
    return {
        key: "claims: " + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
        for key, counts in by_item.items()
    }


def paper_counts(claims: list[Claim], verdicts: list[Verdict]) -> dict[str, Counter]:
    """The count of each verdict among each paper's claims."""
    counts: dict[str, Counter] = {}
    for claim, verdict in zip(claims, verdicts):
        counts.setdefault(claim.paper, Counter())[verdict.verdict] += 1
    return counts


def render_claims(claims: list[Claim], verdicts: list[Verdict], root: str | os.PathLike = ".") -> list[str]:
    """The Claims section of REPRODUCTION.md: a count per verdict, then one block per claim."""
    counts = Counter(v.verdict for v in verdicts)
    lines = ["## Claims", ""]
    lines += [f"- **{verdict}**: {meaning}" for verdict, meaning in VERDICTS.items()]
    lines += ["", f"{len(claims)} claims: " + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v]) + ".", ""]
    lines += ["| claim | paper | verdict |", "|:--|:--|:--|"]
    lines += [f"| [{c.id}](#{c.id}) | {c.paper}, {c.where} | **{v.verdict}** |" for c, v in zip(claims, verdicts)]
    lines.append("")
    for claim, verdict in zip(claims, verdicts):
        lines += [f"### {claim.id}", ""]
        lines.append(f"- **Paper** ({claim.paper}, {claim.where}): “{claim.quote.strip()}”")
        lines.append(f"- **Claim as checked**: {claim.claim.strip()}")
        lines.append(f"- **Paper's evidence**: {claim.evidence.strip()}")
        lines.append(f"- **Ours**: {verdict.numbers}")
        why = f" ({verdict.why})" if verdict.why else ""
        lines.append(f"- **Verdict**: **{verdict.verdict}**{why}")
        if claim.caveat:
            lines.append(f"- **Caveat**: {claim.caveat.strip()}")
        lines += [f"- **Rebuild**: `{rebuild_command(claim, root)}`", ""]
    return lines
