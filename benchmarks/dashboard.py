"""The performance dashboard (issue 8): gather the benchmark records into results/BENCHMARKS.md.

Run: ``python benchmarks/dashboard.py results/bench/*.json [--out results/BENCHMARKS.md]
[--figure results/figures/bench-scaling.png] [--config config/config.yaml]``, or ``snakemake bench --cores 1``, which first
runs every benchmark script (workflow/rules/bench.smk).

It reads the JSON records the scripts write with ``--json`` (benchmarks/_common.py)
and writes, without measuring anything itself:

* one table of every ratio beside its goal (met / not met) and the goal's condition
  if it has one (an accuracy bound: met needs both), each measured within one script
  run against its peer;
* the side-by-side tables a record carries (the peers' accuracy, sparsity and
  time beside ours), one section per table, and the workflow's tables given with
  ``--tables`` (the peers of config/peers.yaml, fitted by the workflow beside ours on
  the papers' splits, results/tables/<name>.md), each as the workflow wrote it;
* the machine (CPU, cores, memory, OS, Python, package versions, BLAS) and the
  load average at the start and end of each benchmark;
* a log-log plot of time against problem size of every scaling series, one
  panel per kind of size (n, N, iterations), with the fitted slopes.
"""

from __future__ import annotations

import argparse
import json
import shlex
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from _common import loglog_slope

from mkbench._io import write_text

REGENERATE = "PYTHONPATH=src MKBENCH_DATA_MIRROR=<data mirror> snakemake bench --cores 1"


def read_records(paths: list[str]) -> list[dict[str, Any]]:
    """The records, ordered by issue then name; a file that is not a benchmark record is an error."""
    records = []
    for path in paths:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        missing = {"benchmark", "issue", "ratios", "series", "machine", "load"} - set(record)
        if missing:
            raise SystemExit(f"{path}: not a benchmark record (missing {', '.join(sorted(missing))})")
        records.append(record)
    return sorted(records, key=lambda r: (r["issue"], r["benchmark"]))


def _number(value: float, unit: str = "") -> str:
    text = f"{value:.3g}" if abs(value) < 1e4 else f"{value:.4g}"
    return f"{text} {unit}".strip()


def _met(met: bool | None) -> str:
    return {True: "met", False: "**not met**", None: "—"}[met]


def ratio_table(records: list[dict[str, Any]]) -> list[str]:
    lines = ["| issue | benchmark | what | ours vs peer | ratio | goal | met |", "|---:|:---|:---|:---|---:|:---|:---|"]
    for record in records:
        for r in record["ratios"]:
            ours, peer = r["ours"], r["peer"]
            versus = (
                f"{ours['label']}: {_number(ours['value'], ours['unit'])} vs "
                f"{peer['label']}: {_number(peer['value'], peer['unit'])}"
            )
            what = r["what"] + (f" ({r['note']})" if r.get("note") else "")
            goal, met = r["goal"] or "—", _met(r["met"])
            condition = r.get("condition")  # records before 2026-11-28 have none
            if condition:
                goal += f", and {condition['what']}"
                met += "" if condition["met"] else f" ({condition['what']}: not met)"
            lines.append(
                f"| {record['issue']} | {record['benchmark']} | {what} | {versus} | {_number(r['value'])} | {goal} | {met} |"
            )
    return lines


def _cell(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value).lower()
    if isinstance(value, int | float):
        return _number(value) if value == value else "—"  # NaN: not measured
    return str(value)


def tables_section(records: list[dict[str, Any]], workflow_tables: list[str] | None = None) -> list[str]:
    """Every side-by-side table of the records (key ``tables``, optional), under its benchmark's name, then each
    of ``workflow_tables`` (a table's Markdown as the workflow wrote it: its caption, then the table); one that
    does not exist is named, with the command that builds it."""
    lines = []
    for record in records:
        for t in record.get("tables", []):
            lines += [f"### {record['benchmark']}: {t['title']}", ""]
            text = [all(isinstance(row[k], str) for row in t["rows"]) for k in range(len(t["columns"]))]
            lines += [
                "| " + " | ".join(t["columns"]) + " |",
                "|" + "|".join(":---" if is_text else "---:" for is_text in text) + "|",
            ]
            lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in t["rows"]]
            lines += ["", *([t["note"], ""] if t.get("note") else [])]
    for path in workflow_tables or []:
        lines += [f"### workflow: {Path(path).stem} (`{path}`, config/peers.yaml)", ""]
        if Path(path).exists():
            lines += [Path(path).read_text(encoding="utf-8").strip(), ""]
        else:
            lines += [
                f"Not built here: `snakemake --cores 2 {path} --configfile config/config.yaml "
                "config/peers.yaml` (pip install -e '.[peers]').",
                "",
            ]
    return ["## Side by side", "", *lines] if lines else []


def machine_section(records: list[dict[str, Any]]) -> list[str]:
    """The machines the records ran on; the BLAS libraries of one machine are merged over its records.

    Which BLAS libraries threadpoolctl finds depends on what a script has imported
    (numpy's and scipy's OpenBLAS are separate), so they do not tell machines apart.
    """
    machines: dict[str, dict[str, Any]] = {}
    blas: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in records:
        key = json.dumps({k: v for k, v in r["machine"].items() if k != "blas"}, sort_keys=True)
        machines[key] = r["machine"]
        blas[key].update({json.dumps(b, sort_keys=True): b for b in r["machine"]["blas"]})
    lines = []
    for key, machine in machines.items():
        libraries = (
            "; ".join(
                f"{b['internal_api']} {b['version']} ({b['num_threads']} threads, {b['architecture']})"
                for b in blas[key].values()
            )
            or "none found by threadpoolctl"
        )
        packages = ", ".join(f"{name} {v}" for name, v in machine["packages"].items())
        lines += [
            f"- CPU: {machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB memory",
            f"- OS: {machine['os']} (host {machine['host']}); Python {machine['python']}",
            f"- packages: {packages}",
            f"- BLAS: {libraries}",
        ]
    if len(machines) > 1:
        lines.insert(0, f"**The records come from {len(machines)} different machine setups:**")
    return lines


def load_table(records: list[dict[str, Any]]) -> list[str]:
    cores = max(r["machine"]["cores"] or 1 for r in records)
    lines = [
        "| benchmark | started (UTC) | wall time | load 1/5/15 min at start | at end |",
        "|:---|:---|---:|:---|:---|",
    ]
    for r in records:
        start, end = ("/".join(f"{x:.1f}" for x in r["load"][key]) for key in ("start", "end"))
        lines.append(f"| {r['benchmark']} | {r['started']} | {r['wall_seconds']:.0f} s | {start} | {end} |")
    peak = max(max(r["load"]["start"][0], r["load"]["end"][0]) for r in records)
    if peak > cores / 2:
        lines += [
            "",
            f"The machine was loaded by other work (1-min load average up to {peak:.1f} on {cores} cores): "
            "absolute times are inflated and noisy. Each ratio compares two methods timed in the same "
            "script run, one after the other, so it stays meaningful, but load that changed between the "
            "two fits biases it; compare ratios, not seconds, across runs.",
        ]
    return lines


def plot_scaling(records: list[dict[str, Any]], path: Path) -> int:
    """Log-log plot of every series, one panel per size kind; returns the number of series drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    import seaborn as sns
    from matplotlib.ticker import NullFormatter

    rows = []
    for record in records:
        for s in record["series"]:
            slope = loglog_slope(s["sizes"], s["seconds"]) if len(s["sizes"]) > 1 else float("nan")
            label = f"{s['label']} (slope {slope:.2f})"
            rows += [
                {"x": s["x"], "series": label, "size": size, "seconds": sec}
                for size, sec in zip(s["sizes"], s["seconds"], strict=True)
            ]
    kinds = list(dict.fromkeys(row["x"] for row in rows))
    sns.set_theme(style="whitegrid")
    fig, axes = plt.subplots(1, max(len(kinds), 1), figsize=(5.5 * max(len(kinds), 1), 4.5), squeeze=False)
    frame = pd.DataFrame(rows)
    for ax, kind in zip(axes[0], kinds, strict=False):
        sns.lineplot(data=frame[frame["x"] == kind], x="size", y="seconds", hue="series", marker="o", ax=ax)
        ax.set(xscale="log", yscale="log", xlabel=kind, ylabel="seconds", title=f"time vs {kind}")
        ax.xaxis.set_minor_formatter(NullFormatter())  # labelled minor ticks overlap on short ranges
        ax.legend(fontsize=7)
    if not kinds:
        axes[0][0].text(0.5, 0.5, "no scaling series", ha="center", va="center")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150)
    plt.close(fig)
    return len({row["series"] for row in rows})


def cost_section(config_path: str | None, plan: list[str] | None = None, catalogue: str | None = None) -> list[str]:
    """What each experiment of the workflow config costs, from the summaries under results/summary, and
    what it would cost with the ``plan`` overlays (the papers' full protocols) merged over it; with the
    reproduction ``catalogue``, by role: the papers' tables and figures apart from the sensitivity studies."""
    if config_path is None:
        return []
    from mkbench.harness.config import load_config
    from mkbench.harness.cost import catalogue_roles, estimate, to_markdown

    config = load_config(config_path)
    by_role = catalogue_roles(config, catalogue) if catalogue else None
    frame = estimate(config)
    hours = frame["estimated CPU h"].sum()
    command = f"mkbench cost --config {config_path}" + (f" --catalogue {catalogue}" if catalogue else "")
    lines = [
        "## What the workflow costs",
        "",
        f"CPU time of every fit job of `{config_path}` (one core each; the process's CPU time in records since "
        "2026-11-26, wall time in older ones, which a loaded machine inflates; the estimate prices each kind of job, "
        "method, grid setting and data set, by its best measure: its timing samples of `snakemake timing` (one job "
        "per kind rerun on the current code, results/timing/), else its CPU-timed jobs, else its wall times), "
        "from the committed summaries "
        f"(`{command}`; see `mkbench.harness.cost`): {hours:.1f} CPU hours in all, "
        f"at best {hours / 8:.1f} h on 8 cores, not counting each job's few seconds of start-up."
        + (f" {_paper_share(frame, by_role, goal=not plan)}" if by_role else ""),
        "",
        to_markdown(frame, by_role),
        "",
    ]
    if plan:
        full = estimate(config, plan=load_config(config_path, *plan))
        full_hours = full["estimated CPU h"].sum()
        judged = full_hours if by_role is None else _hours(full, by_role, "paper")
        what = "in all" if by_role is None else "for the papers' tables and figures"
        committed = dict(zip(frame["experiment"], frame["estimated CPU h"], strict=True))
        changed = full[
            [
                abs(hours - committed.get(name, 0.0)) > 1e-6
                for name, hours in zip(full["experiment"], full["estimated CPU h"], strict=True)
            ]
        ]
        lines += [
            f"With the papers' full protocols ({', '.join(f'`{p}`' for p in plan)} over it; "
            f"`{command} --plan {' '.join(plan)}`): **{judged:.1f} CPU hours {what}** "
            f"(issue-20 goal: <= 10, {'met' if judged <= 10 else 'not met'})"
            + ("" if by_role is None else f", {full_hours:.1f} with the sensitivity studies")
            + ", estimated from the same summaries, each "
            "job's time scaled by its model fits (folds x grid settings + the refit). The experiments that change:",
            "",
            to_markdown(changed.reset_index(drop=True), by_role),
            "",
        ]
    return lines


def _hours(frame, by_role: dict[str, str], role: str) -> float:
    """Estimated CPU hours of the experiments with ``role``."""
    return float(frame.loc[frame["experiment"].map(by_role) == role, "estimated CPU h"].sum())


def _paper_share(frame, by_role: dict[str, str], goal: bool) -> str:
    """The papers' share and the ablations'; with ``goal``, the papers' share is the config's own full protocols
    (no overlay restores any), judged against issue 20's goal."""
    paper = _hours(frame, by_role, "paper")
    judged = f" (**issue-20 goal for the papers' full protocols: <= 10, {'met' if paper <= 10 else 'not met'}**)"
    return (
        f"Of them {paper:.1f} h rebuild the papers' tables and figures{judged if goal else ''} and "
        f"{_hours(frame, by_role, 'sensitivity'):.1f} h the sensitivity studies (ablations of the choices "
        "the papers leave open)."
    )


def render(
    records: list[dict[str, Any]],
    figure: Path,
    out: Path,
    config: str | None = None,
    plan: list[str] | None = None,
    catalogue: str | None = None,
    workflow_tables: list[str] | None = None,
) -> str:
    ratios = [r for record in records for r in record["ratios"]]
    with_goal = [r for r in ratios if r["goal"] is not None]
    try:
        figure_link = figure.resolve().relative_to(out.resolve().parent)
    except ValueError:
        figure_link = figure
    lines = [
        "# Benchmarks",
        "",
        f"Generated {datetime.now(UTC).isoformat(timespec='seconds')} by `benchmarks/dashboard.py` from "
        f"{len(records)} benchmark records (results/bench/*.json); regenerate with `{REGENERATE}`.",
        f"{sum(bool(r['met']) for r in with_goal)} of {len(with_goal)} goals met.",
        "",
        "## Ratios against peers, measured in the same run",
        "",
        *ratio_table(records),
        "",
        *tables_section(records, workflow_tables),
        "## Scaling",
        "",
        f"![time against problem size, log-log]({figure_link})",
        "",
        *cost_section(config, plan, catalogue),
        "## Notes",
        "",
        *[f"- {r['benchmark']}: {note}" for r in records for note in r["notes"]],
        "",
        "## Machine",
        "",
        *machine_section(records),
        "",
        *load_table(records),
        "",
        "## Commands",
        "",
        *[f"- `{r['command']}`" for r in records],
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("records", nargs="+", help="benchmark JSON records (results/bench/*.json)")
    cli.add_argument("--out", default="results/BENCHMARKS.md")
    cli.add_argument("--figure", default="results/figures/bench-scaling.png")
    cli.add_argument("--config", help="workflow config: add what its experiments cost (from results/summary)")
    cli.add_argument(
        "--plan",
        nargs="+",
        help="overlays of --config to price too (e.g. one restoring a paper's full protocol where the config cuts it)",
    )
    cli.add_argument("--catalogue", help="reproduction catalogue of --config: cost per role (papers' items, ablations)")
    cli.add_argument(
        "--tables",
        nargs="+",
        help="the workflow's side-by-side tables to show (results/tables/<name>.md, the peers of config/peers.yaml)",
    )
    args = cli.parse_args()
    records = read_records(args.records)
    n_series = plot_scaling(records, Path(args.figure))
    write_text(
        args.out,
        render(records, Path(args.figure), Path(args.out), args.config, args.plan, args.catalogue, args.tables),
    )
    by_issue = defaultdict(int)
    for record in records:
        by_issue[record["issue"]] += len(record["ratios"])
    print(
        f"{args.out}: {sum(by_issue.values())} ratios from {len(records)} records "
        f"(issues {', '.join(map(str, sorted(by_issue)))}); {args.figure}: {n_series} series"
        f" [{shlex.join(['dashboard.py', *args.records])}]"
    )


if __name__ == "__main__":
    main()
