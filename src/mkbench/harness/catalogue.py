"""The catalogue of every table and figure of the five papers (``config/reproduction.yaml``).

Each entry names what a paper's table or figure shows and either the targets of
the workflow config that rebuild it (tables, figures, or a benchmark script) and
the metrics that decide its status with their tolerances, or the reason we cannot
rebuild it. :func:`load_catalogue` reads and checks it against the config;
:mod:`mkbench.harness.reproduction` assesses each entry.
"""

from __future__ import annotations

import math
import os
import shlex
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any


from ..exceptions import ConfigError
from .config import check_schema, read_yaml

#: The schema of config/reproduction.yaml, a YAML file beside the config's (reproduction.schema.yaml).
_SCHEMA = read_yaml(Path(str(resources.files("mkbench.harness") / "reproduction.schema.yaml")), "catalogue schema")

#: Why an item cannot be rebuilt; an entry without targets gives one of these (the schema's ``reason``).
REASONS = tuple(_SCHEMA["$defs"]["item"]["properties"]["reason"]["enum"])

__all__ = ["REASONS", "DataDifference", "Entry", "Gap", "Sensitivity", "Tolerance", "load_catalogue"]


@dataclass(frozen=True)
class Tolerance:
    """How far ours may be from the paper's value: absolute, or relative to the paper's."""

    value: float
    relative: bool

    @classmethod
    def parse(cls, spec: float | str) -> Tolerance:
        """``0.02`` (absolute, in the metric's unit) or ``"25%"`` (relative to the paper's value)."""
        if isinstance(spec, str):
            return cls(float(spec.rstrip("%")) / 100, relative=True)
        return cls(float(spec), relative=False)

    def gap(self, ours: float, paper: float) -> float:
        """``ours - paper``, divided by ``|paper|`` for a relative tolerance (inf if the paper's is 0)."""
        if not self.relative:
            return ours - paper
        if paper == 0:
            return 0.0 if ours == 0 else math.copysign(math.inf, ours)
        return (ours - paper) / abs(paper)

    def __str__(self) -> str:
        return f"{self.value * 100:g}%" if self.relative else f"{self.value:g}"


@dataclass(frozen=True)
class Gap:
    """One compared value: ours against the paper's, for a data set, method and metric."""

    dataset: str
    method: str
    metric: str
    ours: float
    paper: float
    tolerance: Tolerance
    ours_sd: float = math.nan
    ours_n: int = 0
    paper_sd: float = math.nan

    @property
    def gap(self) -> float:
        return self.tolerance.gap(self.ours, self.paper)

    @property
    def excess(self) -> float:
        """``|gap| / tolerance``: above 1 the value deviates."""
        return abs(self.gap) / self.tolerance.value

    def standard_error(self, paper_runs: int | None) -> float:
        """Standard error of ours - paper from both sides' spread over runs (nan if either is unknown)."""
        if not paper_runs or self.ours_n < 2:
            return math.nan
        return math.sqrt(self.ours_sd**2 / self.ours_n + self.paper_sd**2 / paper_runs)

    def __str__(self) -> str:
        if self.tolerance.relative:
            size = f"{self.gap:+.1%}" if math.isfinite(self.gap) else f"{self.ours - self.paper:+.4g} (paper 0)"
        else:
            size = f"{self.gap:+.4g}"
        return (
            f"{self.metric} {size} (tolerance {self.tolerance}): ours {self.ours:.4g} vs paper "
            f"{self.paper:.4g}, {self.dataset} / {self.method}"
        )


@dataclass(frozen=True)
class Sensitivity:
    """An ablation table whose rows ``template.format(method=...)...`` are a compared method under another reading.

    ``datasets`` maps a compared data set to the one its variants run on (empty when they run on the compared
    data sets themselves; an ablation of the data's coding runs on a data set of its own, e.g. splice-onehot
    for splice). A variant explains a value only when it is within tolerance on every compared value of its
    row at once, or, when ``metrics`` scopes the ablation (with its ``reason``), on every one of those.
    """

    table: str
    template: str
    datasets: tuple[tuple[str, str], ...] = ()
    metrics: tuple[str, ...] | None = None
    reason: str = ""


@dataclass(frozen=True)
class DataDifference:
    """A known difference of our data from the paper's (``reason``, naming it) and the compared values it causes:
    the ``metrics`` of the ``datasets`` (of ``methods`` only, when given)."""

    datasets: tuple[str, ...]
    metrics: tuple[str, ...]
    reason: str
    methods: tuple[str, ...] | None = None

    def causes(self, gap: Gap) -> bool:
        """Whether this difference is declared to cause ``gap``."""
        methods_match = self.methods is None or gap.method in self.methods
        return gap.dataset in self.datasets and gap.metric in self.metrics and methods_match


@dataclass(frozen=True)
class Entry:
    """One table or figure of a paper (or a part of one), as the catalogue gives it."""

    paper: str
    item: str
    shows: str
    tables: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()
    command: str | None = None
    outputs: tuple[str, ...] = ()
    datasets: tuple[str, ...] | None = None
    methods: tuple[str, ...] | None = None
    compare: tuple[tuple[str, Tolerance], ...] = ()
    reason: str | None = None
    note: str = ""
    #: One sentence: what the item found (the opening of its section in REPRODUCTION.md).
    finding: str = ""
    #: The item whose protocol this one's runs follow (a figure drawn from a table's setup): a claim on this
    #: item is judged on that protocol, and is inconclusive when that item is not reproduced.
    protocol: str | None = None
    #: The entry's ablations (:class:`Sensitivity`).
    sensitivity: tuple[Sensitivity, ...] = ()
    #: The compared values a known difference of the data causes (:class:`DataDifference`).
    data_differs: tuple[DataDifference, ...] = ()
    #: (parameter, methods or None for all, the paper's words): grids the paper states; a choice
    #: at their edge follows the paper's protocol and is flagged apart from our too-short grids.
    paper_grids: tuple[tuple[str, tuple[str, ...] | None, str], ...] = ()
    #: Runs behind each of the paper's means and standard deviations, by data set ("*": any other),
    #: as its text says.
    paper_runs: tuple[tuple[str, int], ...] = ()
    #: (reading, its tables): every reading of the paper's protocol we list for the item, with the tables
    #: that run it (the primary's own tables for the primary reading). When every one exists and some compared
    #: value stays outside tolerance unexplained, the item is "not reproduced" (issue 43's definition).
    readings: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def readings_run(self, root: str | os.PathLike = ".") -> bool:
        """Whether the item lists readings and every table of every one exists under ``root``."""
        return bool(self.readings) and all(
            (Path(root) / "results" / "tables" / f"{table}.csv").exists()
            for _, tables in self.readings
            for table in tables
        )

    def runs_of(self, dataset: str) -> int | None:
        """How many runs the paper's value on ``dataset`` comes from, if its text says."""
        runs = dict(self.paper_runs)
        return runs.get(dataset, runs.get("*"))

    @property
    def targets(self) -> list[str]:
        """The files that must exist for the item to be judged."""
        return (
            [f"results/tables/{name}.csv" for name in self.tables]
            + [f"results/figures/{name}.png" for name in self.figures]
            + list(self.outputs)
        )

    @property
    def rebuild(self) -> str:
        """The command that rebuilds the item's targets."""
        if self.command:
            return self.command
        if self.reason:
            return "—"
        files = [f"results/tables/{name}.md" for name in self.tables]
        files += [f"results/figures/{name}.png" for name in self.figures]
        return "snakemake --cores 8 " + " ".join(files)


def load_catalogue(
    path: str | os.PathLike, config: dict[str, Any], root: str | os.PathLike = "."
) -> tuple[dict[str, dict], list[Entry]]:
    """Read and check the catalogue at ``path`` against the workflow ``config``.

    Returns the papers (id -> citation) and the entries, in the catalogue's order.

    Raises
    ------
    ConfigError
        Naming the entry and the problem: a missing or unknown key, an unknown paper,
        table, figure, metric or reason, targets and a reason together, a benchmark
        script that does not exist under ``root``.
    """
    raw = read_yaml(
        path, "reproduction catalogue", "; it lists every table and figure of the papers (config/reproduction.yaml)"
    )
    check_schema(raw, _SCHEMA, f"reproduction catalogue {os.fspath(path)!r}")
    entries = []
    problems = []
    for index, spec in enumerate(raw["items"]):
        where = f"  at items/{index} ({spec['paper']} {spec['item']})"
        found = _check_entry(spec, raw["papers"], config, Path(root))
        problems += [f"{where}: {problem}" for problem in found]
        if not found:
            entries.append(_entry(spec))
    seen = Counter((entry.paper, entry.item) for entry in entries)
    problems += [f"  {paper} {item!r} is listed {n} times" for (paper, item), n in seen.items() if n > 1]
    tabled = {(entry.paper, entry.item) for entry in entries if entry.tables}
    problems += [
        f"  {entry.paper} {entry.item!r}: its protocol {entry.protocol!r} is no item of {entry.paper} with tables"
        for entry in entries
        if entry.protocol and (entry.paper, entry.protocol) not in tabled
    ]
    if problems:
        raise ConfigError(f"invalid reproduction catalogue {os.fspath(path)!r}:\n" + "\n".join(problems))
    return raw["papers"], entries


def paper_of(config: dict[str, Any], kind: str, name: str) -> str | None:
    """The paper of a table or figure (``kind`` "tables" or "figures"): that of its (first) experiment."""
    experiments = config[kind][name]["experiment"]
    first = experiments if isinstance(experiments, str) else experiments[0]
    return config["experiments"][first].get("paper")


def existing_targets(catalogue: str | os.PathLike, config: dict[str, Any], root: str | os.PathLike = ".") -> list[str]:
    """The files named by the catalogue's entries (tables, figures, benchmark outputs) that exist."""
    _, entries = load_catalogue(catalogue, config, root)
    targets = sorted({path for entry in entries for path in entry.targets})
    return [path for path in targets if (Path(root) / path).exists()]


def _check_entry(spec: dict, papers: dict, config: dict, root: Path) -> list[str]:
    """What is wrong with one catalogue entry, checked against the workflow config."""
    problems = []
    if spec["paper"] not in papers:
        problems.append(f"unknown paper {spec['paper']!r}; papers: {', '.join(papers)}")
    has_targets = any(key in spec for key in ("tables", "figures", "script"))
    if has_targets == ("reason" in spec):
        problems.append(
            "give either targets (tables, figures or script) or a reason "
            f"({', '.join(REASONS)}), not {'both' if has_targets else 'neither'}"
        )
    if ("tables" in spec) != ("compare" in spec):
        problems.append("tables and compare go together: compare names the metrics that decide the status")
    for study in spec.get("sensitivity", []):
        if "tables" not in spec:
            problems.append("sensitivity explains the compared cells of tables; this entry has none")
        if study["table"] not in config["tables"]:
            problems.append(
                f"unknown sensitivity table {study['table']!r}; tables of the config: {', '.join(config['tables'])}"
            )
    compared = set(spec.get("compare", {}))
    for key in ("sensitivity", "data_differs"):
        for part in spec.get(key, []):
            unknown = sorted(set(part.get("metrics", [])) - compared)
            if unknown:
                problems.append(
                    f"{key} names metrics {unknown} that the entry does not compare ({', '.join(compared)})"
                )
    for reading in spec.get("readings", []):
        if "tables" not in spec:
            problems.append("readings judge the compared cells of tables; this entry has none")
        unknown = [name for name in reading["tables"] if name not in config["tables"]]
        if unknown:
            problems.append(f"reading {reading['reading']!r} names unknown table(s) {unknown}")
    if "paper_grids" in spec and "tables" not in spec:
        problems.append("paper_grids qualifies the choices counted in tables; this entry has none")
    if "data_differs" in spec and "tables" not in spec:
        problems.append("data_differs explains the compared cells of tables; this entry has none")
    if "rows" in spec and "tables" not in spec:
        problems.append("rows selects rows of tables; this entry has none")
    for kind in ("tables", "figures"):
        for name in spec.get(kind, []):
            if name not in config[kind]:
                problems.append(
                    f"unknown {kind[:-1]} {name!r}; {kind} of the config: {', '.join(config[kind]) or 'none'}"
                )
                continue
            owner = paper_of(config, kind, name)
            if owner not in (None, spec["paper"]):
                problems.append(f"{kind[:-1]} {name!r} is drawn from an experiment of paper {owner!r}")
    tables = [config["tables"][name] for name in spec.get("tables", []) if name in config["tables"]]
    metrics = {m for table in tables for m in table["metrics"]}
    for metric in spec.get("compare", {}):
        if metrics and metric not in metrics:
            problems.append(
                f"compare metric {metric!r} is in none of its tables; their metrics: {', '.join(sorted(metrics))}"
            )
    if "script" in spec:
        script = shlex.split(spec["script"]["command"])[1]
        if not (root / script).is_file():
            problems.append(f"benchmark script {script!r} does not exist")
    return problems


def _entry(spec: dict) -> Entry:
    rows = spec.get("rows", {})
    script = spec.get("script", {})
    return Entry(
        paper=spec["paper"],
        item=spec["item"],
        shows=spec["shows"],
        tables=tuple(spec.get("tables", ())),
        figures=tuple(spec.get("figures", ())),
        command=script.get("command"),
        outputs=tuple(script.get("outputs", ())),
        datasets=tuple(rows["datasets"]) if "datasets" in rows else None,
        methods=tuple(rows["methods"]) if "methods" in rows else None,
        compare=tuple((metric, Tolerance.parse(tol)) for metric, tol in spec.get("compare", {}).items()),
        reason=spec.get("reason"),
        note=spec.get("note", ""),
        finding=spec.get("finding", ""),
        protocol=spec.get("protocol"),
        sensitivity=tuple(
            Sensitivity(
                s["table"],
                s["variants"],
                tuple(s.get("datasets", {}).items()),
                tuple(s["metrics"]) if "metrics" in s else None,
                s.get("reason", ""),
            )
            for s in spec.get("sensitivity", ())
        ),
        data_differs=tuple(
            DataDifference(
                tuple(d["datasets"]), tuple(d["metrics"]), d["reason"], tuple(d["methods"]) if "methods" in d else None
            )
            for d in spec.get("data_differs", ())
        ),
        paper_runs=tuple(_runs(spec["paper_runs"]).items()) if "paper_runs" in spec else (),
        readings=tuple((r["reading"], tuple(r["tables"])) for r in spec.get("readings", ())),
        paper_grids=tuple(
            (g["parameter"], tuple(g["methods"]) if "methods" in g else None, g["quote"])
            for g in spec.get("paper_grids", ())
        ),
    )


def _runs(spec: int | dict[str, int]) -> dict[str, int]:
    """``paper_runs`` as a mapping data set -> runs: a number applies to every data set ("*")."""
    return {"*": spec} if isinstance(spec, int) else dict(spec)
