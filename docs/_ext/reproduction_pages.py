"""The reproduction pages of the site: one page per paper, generated at build time from the committed results.

One source, two renderings. :func:`collect` runs the very function that writes ``results/REPRODUCTION.md``
(:func:`mkbench.harness.reproduction.build_reproduction`, on the catalogues ``config/reproduction.yaml`` and
``config/claims.yaml`` and the files under ``results/``) and keeps, besides its Markdown, what it rendered:
the papers, the catalogue's entries, each entry's :class:`~mkbench.harness.reproduction.Assessment`, the claims
and their verdicts. :func:`write_pages` renders the same objects as MyST pages: the paper's verdict, its
claims with verdict badges, each item's tables as HTML (ours ± sd beside the paper's, the cells outside
tolerance marked with why), each item's figures inline. Nothing here decides a status or a verdict.

``tests/docs/test_docs.py`` checks that the pages and ``results/REPRODUCTION.md`` agree (:func:`facts`).

Run alone (no Sphinx needed)::

    python docs/_ext/reproduction_pages.py docs/reproduction
"""

from __future__ import annotations

import html
import inspect
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]

#: Sphinx-design badge colour of each claim verdict and item status (the status's first words).
VERDICT_BADGE = {"holds": "success", "contradicted": "danger", "inconclusive": "warning"}
STATUS_BADGE = {
    "reproduced": "success",
    "deviates": "warning",
    "not reproduced": "danger",
    "incomplete": "warning",
    "claims": "info",
    "drawn": "info",
    "not run yet": "secondary",
    "not configured yet": "secondary",
    "not reproducible": "secondary",
}
#: Short titles of the papers' pages, by catalogue id (anything else: the id).
TITLES = {"cgboost": "CG-Boost", "mark": "MARK", "ssmk": "SSMK", "mkl": "SILP / SimpleMKL", "cgens": "CGEns"}


@dataclass
class Reproduction:
    """What :func:`mkbench.harness.reproduction.build_reproduction` rendered, as objects."""

    markdown: str
    config: dict[str, Any]
    papers: dict[str, dict]
    entries: list
    assessments: list
    claims: list = field(default_factory=list)
    verdicts: list = field(default_factory=list)
    claim_counts: dict[str, Counter] = field(default_factory=dict)

    def rows(self, paper: str) -> list[tuple[Any, Any]]:
        """The paper's (entry, assessment) pairs, in the catalogue's order."""
        return [(e, a) for e, a in zip(self.entries, self.assessments, strict=True) if e.paper == paper]

    def paper_claims(self, paper: str) -> list[tuple[Any, Any]]:
        """The paper's (claim, verdict) pairs, in the catalogue's order."""
        return [(c, v) for c, v in zip(self.claims, self.verdicts, strict=True) if c.paper == paper]


def collect(root: str | Path = ROOT) -> Reproduction:
    """Build REPRODUCTION.md's text as ``mkbench report --reproduction`` does, keeping what its renderers got."""
    from mkbench.harness import reproduction
    from mkbench.harness.config import load_config

    root = Path(root)
    config = load_config(root / "config" / "config.yaml")
    seen: dict[str, dict[str, Any]] = {}

    def spy(name: str, real):
        signature = inspect.signature(real)

        def wrapper(*args, **kwargs):
            seen[name] = signature.bind(*args, **kwargs).arguments
            return real(*args, **kwargs)

        return wrapper

    with (
        mock.patch.object(reproduction, "render", spy("render", reproduction.render)),
        mock.patch.object(reproduction, "render_claims", spy("claims", reproduction.render_claims)),
    ):
        text = reproduction.build_reproduction(
            config,
            root / "config" / "reproduction.yaml",
            root=root,
            command="mkbench report --config config/config.yaml --reproduction results/REPRODUCTION.md",
        )
    rendered = seen["render"]
    claims = seen.get("claims", {})
    return Reproduction(
        markdown=text,
        config=config,
        papers=rendered["papers"],
        entries=list(rendered["entries"]),
        assessments=list(rendered["assessments"]),
        claims=list(claims.get("claims", [])),
        verdicts=list(claims.get("verdicts", [])),
        claim_counts=dict(rendered.get("claim_counts") or {}),
    )


# -- the facts both renderings must agree on ------------------------------------------------------------------


def facts(rep: Reproduction) -> dict[str, dict]:
    """Per claim its verdict, per (paper, item) its status and largest gap: what a page and REPRODUCTION.md show."""
    return {
        "verdicts": {c.id: v.verdict for c, v in zip(rep.claims, rep.verdicts, strict=True)},
        "items": {(e.paper, e.item): (a.status, a.gap) for e, a in zip(rep.entries, rep.assessments, strict=True)},
        "gaps": {
            (e.paper, e.item, g.dataset, g.method, g.metric): (g.ours, g.paper)
            for e, a in zip(rep.entries, rep.assessments, strict=True)
            for g in a.gaps
        },
    }


# -- rendering ----------------------------------------------------------------------------------------------------


def _badge(kind: str, text: str) -> str:
    label = text.replace("`", "'")
    return f"{{bdg-{kind}}}`{label}`"


def status_badge(status: str) -> str:
    """The item's status as a badge: its first words coloured, the counts after them in plain text."""
    head = status.split(" (")[0].split(":")[0]
    colour = STATUS_BADGE.get(head, "secondary")
    rest = status[len(head) :].strip()
    return _badge(colour, head) + (f" {_md_text(rest)}" if rest else "")


def verdict_badge(verdict: str) -> str:
    return _badge(VERDICT_BADGE.get(verdict, "secondary"), verdict)


def _md_text(text: str) -> str:
    """Plain text in a MyST paragraph or table cell: no table pipes, no accidental roles or emphasis."""
    return str(text).replace("|", "\\|").replace("\n", " ").replace("*", "\\*").replace("_", "\\_")


def _anchor(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-")


def _fmt(mean: float, std: float, metric: str) -> str:
    from mkbench.harness import render

    return render._fmt(mean, std, 100.0 if metric.endswith("_error") else 1.0)


def table_html(rep: Reproduction, entry, assessment, name: str) -> str:
    """One table of an item as HTML: a row per data set and method (the paper's order), per metric ours ± sd over
    the paper's; compared cells outside tolerance marked, with their gap and why in the cell's title."""
    import pandas as pd
    from mkbench.harness import render
    from mkbench.harness.reproduction_edges import matches

    table = pd.read_csv(ROOT / "results" / "tables" / f"{name}.csv")
    table = table[matches(table["dataset"], entry.datasets) & matches(table["method"], entry.methods)]
    compared = [metric for metric, _ in entry.compare]
    metrics = [m for m in compared if m in set(table["metric"])]
    metrics += [m for m in dict.fromkeys(table["metric"]) if m not in metrics]
    rows = list(dict.fromkeys(zip(table["dataset"], table["method"], strict=True)))
    spec = rep.config["tables"].get(name, {})
    order: list[tuple[str, str]] = []
    if spec.get("reference"):
        from mkbench.harness.report import load_reference

        reference_dir = ROOT / rep.config.get("reference_dir", "config/reference")
        reference = load_reference(reference_dir / spec["reference"]["file"], spec["reference"]["table"])
        order = list(dict.fromkeys(zip(reference["dataset"], reference["method"], strict=True)))
    rank = {row: i for i, row in enumerate(order)}
    rows.sort(key=lambda row: rank.get(row, len(rank)))
    cells = {(r.dataset, r.method, r.metric): r for r in table.itertuples()}
    gaps = {(g.dataset, g.method, g.metric): g for g in assessment.gaps}
    why = {(b.gap.dataset, b.gap.method, b.gap.metric): b for b in assessment.attributions}
    out = [f'<div class="mk-table-wrap"><table class="table mk-repro" data-table="{html.escape(name)}">', "<thead><tr>"]
    out += ["<th>data set</th><th>method</th>"]
    out += [f"<th>{html.escape(render.label(m))}{' *' if m in compared else ''}</th>" for m in metrics]
    out.append("</tr></thead><tbody>")
    for dataset, method in rows:
        out.append(f"<tr><td>{html.escape(dataset)}</td><td>{html.escape(method)}</td>")
        for metric in metrics:
            rec = cells.get((dataset, method, metric))
            if rec is None:
                out.append('<td class="mk-none">—</td>')
                continue
            ours = _fmt(rec.ours_mean, rec.ours_std, metric)
            paper = _fmt(rec.paper_mean, rec.paper_std, metric)
            classes, title = ["mk-cell"], ""
            gap = gaps.get((dataset, method, metric))
            if gap is not None:
                classes.append("mk-compared")
                if gap.excess > 1:
                    kind = why[(dataset, method, metric)].kind if (dataset, method, metric) in why else "unexplained"
                    classes += ["mk-out", "mk-" + _anchor(kind)]
                    title = f"{gap}; {kind}"
                    detail = why.get((dataset, method, metric))
                    if detail is not None and detail.detail:
                        title += f": {detail.detail}"
                else:
                    classes.append("mk-within")
                    title = f"{gap}; within tolerance"
            paper_html = "" if paper == "—" else f'<span class="mk-paper">paper {html.escape(paper)}</span>'
            attrs = f' class="{" ".join(classes)}"' + (f' title="{html.escape(title)}"' if title else "")
            out.append(f'<td{attrs}><span class="mk-ours">{html.escape(ours)}</span>{paper_html}</td>')
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _figure_block(rep: Reproduction, name: str, paper: str, item: str, depth: int) -> list[str]:
    from mkbench.harness.figure_style import title_text

    path = "../" * depth + f"results/figures/{name}.png"
    caption = title_text(rep.config["figures"].get(name, {}).get("caption", name), 10**6)  # Q^2 as Q², as drawn
    return [
        f"```{{figure}} {path}",
        f":alt: {item} of {TITLES.get(paper, paper)}, as rebuilt: {caption.replace(chr(10), ' ')}",
        ":scale: 55",  # every figure at one text size (they are drawn at 150 dpi)
        ":class: mk-figure",
        "",
        f"{_md_text(caption)} (`results/figures/{name}.png`)",
        "```",
        "",
    ]


def _item_claims(rep: Reproduction, paper: str, item: str) -> list[tuple[Any, Any]]:
    return [(c, v) for c, v in rep.paper_claims(paper) if item in (c.items or ())]


def paper_page(rep: Reproduction, paper: str) -> str:
    """The MyST page of one paper."""
    from mkbench.harness.attribution import KINDS, describe

    info = rep.papers[paper]
    title = TITLES.get(paper, paper)
    rows = rep.rows(paper)
    claims = rep.paper_claims(paper)
    counts = Counter(v.verdict for _, v in claims)
    kinds = Counter(b.kind for _, a in rows for b in a.attributions)
    compared = sum(a.n_compared for _, a in rows)
    lines = [
        "---",
        "html_theme.sidebar_secondary.remove: true",  # the tables take the width of the right-hand column
        "---",
        "% Generated by docs/_ext/reproduction_pages.py from the catalogues and results/: do not edit.",
        "",
        f"# {title}",
        "",
        f"*{_md_text(info['citation'])}*",
        "",
        ":::{admonition} Verdict",
        ":class: mk-verdict",
        "",
        _md_text(info.get("verdict", "").strip()) or "No written verdict in the catalogue yet.",
        ":::",
        "",
    ]
    summary = []
    if claims:
        summary.append(
            f"**{len(claims)} claims**: "
            + ", ".join(f"{verdict_badge(v)} {counts[v]}" for v in VERDICT_BADGE if counts[v])
        )
    if compared:
        outside = sum(kinds.values())
        parts = ", ".join(f"{kinds[k]} {k}" for k in KINDS if kinds[k])
        summary.append(
            f"**{compared} compared values**: {compared - outside} within tolerance"
            + (f"; outside: {parts}" if parts else "")
        )
    statuses = Counter(a.status.split(" (")[0].split(":")[0] for _, a in rows)
    summary.append(f"**{len(rows)} items**: " + ", ".join(f"{n} {s}" for s, n in statuses.most_common()))
    lines += [" · ".join(summary), ""]
    lines += ["## Items", "", "| item | shows | status |", "|:--|:--|:--|"]
    lines += [
        f"| [{_md_text(e.item)}](#{paper}-item-{_anchor(e.item)}) | {_md_text(e.shows)} | {status_badge(a.status)} |"
        for e, a in rows
    ]
    lines.append("")
    if claims:
        lines += [
            "## Claims",
            "",
            "Each claim is a sentence of the paper, checked against the threshold its words imply "
            "(see {doc}`methodology`).",
            "",
            "| claim | where | verdict | other readings |",
            "|:--|:--|:--|:--|",
        ]
        for claim, verdict in claims:
            robust = "fragile" if verdict.fragile else ("robust" if verdict.readings else "—")
            lines.append(
                f"| [{claim.id}](#{paper}-claim-{_anchor(claim.id)}) | {_md_text(claim.where)} "
                f"| {verdict_badge(verdict.verdict)} | {robust} |"
            )
        lines.append("")
    for entry, assessment in rows:
        lines += [f"({paper}-item-{_anchor(entry.item)})=", f"## {_md_text(entry.item)}", ""]
        lines += [status_badge(assessment.status), ""]
        lines += [f"**Shows:** {_md_text(entry.shows)}", ""]
        if entry.finding:
            lines += [_md_text(entry.finding.strip()), ""]
        if assessment.gap and assessment.gap not in ("—", "see Claims"):
            lines += [f"**Largest gap (ours − paper):** {_md_text(assessment.gap)}", ""]
        for claim, verdict in _item_claims(rep, paper, entry.item):
            lines.append(f"- Claim [{claim.id}](#{paper}-claim-{_anchor(claim.id)}): {verdict_badge(verdict.verdict)}")
        if _item_claims(rep, paper, entry.item):
            lines.append("")
        for name in entry.tables:
            caption = rep.config["tables"].get(name, {}).get("caption", name)
            lines += [f"**Table `{name}`.** {_md_text(caption)}", ""]
            lines += ["```{raw} html", table_html(rep, entry, assessment, name), "```", ""]
        if entry.tables:
            lines += [
                '<p class="mk-legend">Each cell: ours (mean ± sd over our runs) above the paper\'s value. '
                "Columns marked * are compared; a compared cell is "
                '<span class="mk-swatch mk-within">within tolerance</span> or outside it: '
                '<span class="mk-swatch mk-within-noise">within noise</span> '
                '<span class="mk-swatch mk-explained-by-an-ablation">explained by an ablation</span> '
                '<span class="mk-swatch mk-data-differs">data differs</span> '
                '<span class="mk-swatch mk-unexplained">unexplained</span>; hover for the gap.</p>',
                "",
            ]
        if assessment.attributions:
            lines += ["Outside tolerance: " + _md_text("; ".join(describe(list(assessment.attributions)))) + ".", ""]
        for name in entry.figures:
            lines += _figure_block(rep, name, paper, entry.item, depth=2)
        details = []
        if entry.protocol:
            details.append(f"Runs the protocol of {_md_text(entry.protocol)}.")
        if assessment.edges:
            details.append(
                f"Chosen at an edge of our grid ({assessment.n_edge} of {assessment.n_choices} choices): "
                + _md_text("; ".join(assessment.edges))
                + "."
            )
        if assessment.paper_edges:
            details.append(
                f"Chosen at an edge of the paper's grid ({assessment.n_paper_edge} of "
                f"{assessment.n_choices} choices; its protocol, kept): "
                + _md_text("; ".join(assessment.paper_edges))
                + "."
            )
        if entry.note:
            details.append("Note: " + _md_text(entry.note.strip()))
        if entry.rebuild != "—":
            details.append(f"Rebuild: `{entry.rebuild}`")
        if details:
            lines += ["::::{dropdown} Notes, grid edges and how to rebuild", ""]
            lines += [d + "\n" for d in details]
            lines += ["::::", ""]
    if claims:
        from mkbench.harness import claim_rules
        from mkbench.harness.claim_report import rebuild_command

        lines += ["## The claims in full", ""]
        for claim, verdict in claims:
            lines += [f"({paper}-claim-{_anchor(claim.id)})=", f"### {claim.id}", ""]
            lines += [verdict_badge(verdict.verdict) + (f" {_md_text(verdict.why)}" if verdict.why else ""), ""]
            lines += [f"> “{_md_text(claim.quote.strip())}” ({_md_text(claim.where)})", ""]
            rule = f" (rule: {_md_text(claim_rules.describe(claim.rule))})" if claim.rule else ""
            lines += [f"- **Claim as checked**: {_md_text(claim.claim.strip())}{rule}"]
            lines += [f"- **Paper's evidence**: {_md_text(claim.evidence.strip())}"]
            lines += [f"- **Ours**: {_md_text(verdict.numbers)}"]
            if claim.check is not None:
                lines += [f"- **Other readings**: {_md_text(verdict.robustness.replace('**', ''))}"]
            if claim.caveat:
                lines += [f"- **Caveat**: {_md_text(claim.caveat.strip())}"]
            lines += [f"- **Rebuild**: `{rebuild_command(claim, ROOT)}`", ""]
    return "\n".join(lines).rstrip() + "\n"


def index_page(rep: Reproduction) -> str:
    """The reproduction section's front page: per paper its verdict in one line and the counts."""
    from mkbench.harness.attribution import KINDS

    lines = [
        "% Generated by docs/_ext/reproduction_pages.py from the catalogues and results/: do not edit.",
        "",
        "# Reproduction",
        "",
        "Does each paper hold up? Every table, figure and claim of the five papers, rebuilt from the raw public "
        "data with this library and judged by rules fixed in advance ({doc}`methodology`). These pages and "
        "`results/REPRODUCTION.md` are two renderings of the same computation "
        "(`mkbench report --reproduction`), on the committed results.",
        "",
        "| paper | claims | compared values | within tolerance | unexplained | verdict |",
        "|:--|:--|--:|--:|--:|:--|",
    ]
    for paper, info in rep.papers.items():
        rows = rep.rows(paper)
        counts = Counter(v.verdict for _, v in rep.paper_claims(paper))
        kinds = Counter(b.kind for _, a in rows for b in a.attributions)
        compared = sum(a.n_compared for _, a in rows)
        claims = " ".join(f"{verdict_badge(v)} {counts[v]}" for v in VERDICT_BADGE if counts[v]) or "—"
        verdict = (info.get("verdict") or "").strip().split(". ")[0].rstrip(".") + "."
        unexplained = f"{kinds[KINDS[-1]]} ({kinds[KINDS[-1]] / compared:.0%})" if compared else "—"
        lines.append(
            f"| [{TITLES.get(paper, paper)}]({paper}.md) | {claims} | {compared or '—'} "
            f"| {compared - sum(kinds.values()) if compared else '—'} | {unexplained} | {_md_text(verdict)} |"
        )
    lines += ["", "```{toctree}", ":maxdepth: 1", ":hidden:", "", *rep.papers, "methodology", "```", ""]
    return "\n".join(lines)


def methodology_page(rep: Reproduction) -> str:
    """Scope and methodology: the same text as REPRODUCTION.md's, from the same functions."""
    from mkbench.harness.reproduction_method import methodology

    body = methodology(rep.entries, bool(rep.claims))
    body = [
        line.replace("## Methodology", "# Methodology", 1) if line.startswith("## Methodology") else line
        for line in body
    ]
    return "% Generated by docs/_ext/reproduction_pages.py: do not edit.\n\n" + "\n".join(body) + "\n"


def write_pages(out: str | Path, rep: Reproduction | None = None) -> list[Path]:
    """Write the index, the methodology and one page per paper under ``out``; return the paths written."""
    rep = rep or collect()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    pages = {"index.md": index_page(rep), "methodology.md": methodology_page(rep)}
    pages.update({f"{paper}.md": paper_page(rep, paper) for paper in rep.papers})
    written = []
    for name, text in pages.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:  # unchanged pages keep Sphinx's cache
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _generate(app) -> None:
    write_pages(Path(app.srcdir) / "reproduction")


def setup(app):
    """Sphinx hook: generate the pages before Sphinx reads the sources."""
    app.connect("builder-inited", _generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    for path in write_pages(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "reproduction"):
        print(path)
