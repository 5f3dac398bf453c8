"""The Claims section of REPRODUCTION.md: one row per claim with its rule, verdict and robustness, then one block
per claim with the paper's words and evidence, our numbers and the command that rebuilds them."""

from __future__ import annotations

import json
import os
import shlex
from collections import Counter
from pathlib import Path

from . import claim_rules
from .claims import VERDICTS, Claim, Verdict


def render_claims(claims: list[Claim], verdicts: list[Verdict], root: str | os.PathLike = ".") -> list[str]:
    """The Claims section of REPRODUCTION.md: a count per verdict, the table of claims, then one block per claim."""
    counts = Counter(v.verdict for v in verdicts)
    fragile = sum(v.fragile for v in verdicts)
    lines = [
        "## Claims",
        "",
        f"{len(claims)} claims: "
        + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
        + f"; {fragile} of the verdicts are fragile (another reading the claim's words allow changes them). "
        "The rules, thresholds, readings and verdicts are those of Methodology above.",
        "",
        "| claim | paper | rule | verdict | robustness |",
        "|:--|:--|:--|:--|:--|",
    ]
    lines += [
        f"| [{c.id}](#{c.id}) | {c.paper}, {c.where} | {claim_rules.describe(c.rule) if c.rule else '—'} "
        f"| **{v.verdict}** | {_short(v)} |"
        for c, v in zip(claims, verdicts, strict=True)
    ]
    lines.append("")
    for claim, verdict in zip(claims, verdicts, strict=True):
        lines += [f"### {claim.id}", ""]
        lines.append(f"- **Paper** ({claim.paper}, {claim.where}): “{claim.quote.strip()}”")
        rule = f" (rule: {claim_rules.describe(claim.rule)})" if claim.rule else ""
        lines.append(f"- **Claim as checked**: {claim.claim.strip()}{rule}")
        lines.append(f"- **Paper's evidence**: {claim.evidence.strip()}")
        lines.append(f"- **Ours**: {verdict.numbers}")
        why = f" ({verdict.why})" if verdict.why else ""
        lines.append(f"- **Verdict**: **{verdict.verdict}**{why}")
        if claim.check is not None:
            lines.append(f"- **Other readings**: {verdict.robustness}")
        if claim.caveat:
            lines.append(f"- **Caveat**: {claim.caveat.strip()}")
        lines += [f"- **Rebuild**: `{rebuild_command(claim, root)}`", ""]
    return lines


def _short(verdict: Verdict) -> str:
    """The robustness column: robust, or fragile with the readings that change the verdict."""
    if verdict.fragile:
        return "**fragile**: " + "; ".join(
            f"{name}: {other}" for name, other in verdict.readings if other != verdict.verdict
        )
    return "robust" if verdict.readings else "—"


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
