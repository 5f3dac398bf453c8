"""The ``mkbench`` command: data sets, one job, reports.

    mkbench datasets list
    mkbench datasets fetch NAME [--mirror DIR] [--data-home DIR]
    mkbench run --config FILE --experiment E --method M --dataset D [--seed S] [--split K] [--param P] [--out FILE]
    mkbench report --config FILE [--table NAME ...] [--reproduction FILE [--catalogue FILE]]
    mkbench cost --config FILE [--plan OVERLAY ...] [--catalogue FILE]
    mkbench compare --estimator PATH --experiment E [--param K=V ...] [--grid K=V1,V2 ...] [--max-splits N]
    mkbench list {experiments,tables,figures,methods,datasets} [--config FILE]

Errors from mkbench (unknown names, bad config, missing data) are printed as one
message, without a traceback, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import sys
import tempfile
import textwrap

from .. import __version__
from ..exceptions import MkbenchError


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mkbench`` console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        args.func(args)
    except MkbenchError as exc:
        print(f"mkbench: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped early (mkbench list tables | head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mkbench",
        description="Reproduce CG-Boost, MARK, SSMK, SILP/SimpleMKL and CGEns from raw public data.",
    )
    parser.add_argument("--version", action="version", version=f"mkbench {__version__}")
    sub = parser.add_subparsers(title="commands")

    ds = sub.add_parser("datasets", help="list or fetch the registered data sets")
    ds_sub = ds.add_subparsers(title="datasets commands")
    ds.set_defaults(func=_datasets_list)  # `mkbench datasets` alone lists them
    ds_list = ds_sub.add_parser("list", help="registered data sets, their task and source")
    ds_list.set_defaults(func=_datasets_list)
    fetch = ds_sub.add_parser("fetch", help="download (or copy from a mirror) and verify raw files")
    fetch.add_argument("name", help="a name from 'mkbench datasets list'")
    _data_options(fetch)
    fetch.set_defaults(func=_datasets_fetch)

    run = sub.add_parser("run", help="run one job of a config and write its record")
    run.add_argument("--config", required=True, help="workflow config YAML")
    run.add_argument("--experiment", required=True)
    run.add_argument("--method", required=True, help="a method label of the experiment")
    run.add_argument("--dataset", required=True)
    run.add_argument("--param", default="default", help="parameter setting name (see the grid)")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--split", type=int, default=0, help="index of the split in the protocol")
    run.add_argument("--out", help="record path (default: the workflow's path under results/runs)")
    _data_options(run)
    run.set_defaults(func=_run)

    report = sub.add_parser(
        "report",
        help="build tables from the records under results/runs, or the reproduction status",
        description="Without --reproduction: rebuild every table of the config (or the --table ones) "
        "from the records. With --reproduction FILE: write the status of every table and figure of "
        "the papers (e.g. results/REPRODUCTION.md) from the tables and figures already in results/; "
        "tables are then rebuilt first only if --table names them.",
    )
    report.add_argument("--config", required=True, help="workflow config YAML")
    report.add_argument("--table", action="append", help="only this table (repeatable)")
    report.add_argument("--reproduction", metavar="FILE", help="write the reproduction status (Markdown) here")
    report.add_argument(
        "--catalogue",
        metavar="FILE",
        help="catalogue of the papers' tables and figures (default: reproduction.yaml beside --config)",
    )
    report.set_defaults(func=_report)

    cost = sub.add_parser(
        "cost",
        help="CPU time of every experiment: measured, and estimated for the planned jobs",
        description="From the summaries under results/summary (one row per fit job and its fit and "
        "predict seconds): per experiment of the config, the planned, measured and unmeasured jobs and "
        "their CPU hours (see mkbench.harness.cost).",
    )
    cost.add_argument("--config", required=True, help="workflow config YAML (the one the summaries were run with)")
    cost.add_argument(
        "--plan",
        nargs="+",
        metavar="OVERLAY",
        help="price the config with these overlays merged over it instead (e.g. one restoring a paper's full "
        "protocol where the config cuts it); each job's measured time is scaled by its model fits",
    )
    cost.add_argument(
        "--catalogue",
        metavar="FILE",
        help="reproduction catalogue (e.g. config/reproduction.yaml): add each experiment's role (behind a "
        "paper's table or figure, or only its sensitivity tables) and a subtotal per role",
    )
    cost.set_defaults(func=_cost)

    cmp = sub.add_parser(
        "compare",
        help="fit your estimator on an experiment's splits and table it beside the papers' methods",
        description="Runs the estimator (an import path package.module:Class, or a registered method) on the "
        "experiment's data sets, protocol, seeds and preprocessing, in this process, and writes the "
        "experiment's tables with its rows added (marked †) beside the papers' methods, read from "
        "results/summary/<experiment>.csv on the same splits, and the published values (see "
        "mkbench.harness.compare). Records go under OUT/runs; a rerun reads them instead of refitting.",
    )
    cmp.add_argument("--estimator", required=True, help="package.module:Class (on the Python path) or a method name")
    cmp.add_argument("--experiment", required=True, help="an experiment of --config ('mkbench list experiments')")
    cmp.add_argument("--config", default="config/config.yaml", help="workflow config YAML (default: %(default)s)")
    cmp.add_argument("--label", default="mine", help="the method's row label (default: %(default)s)")
    cmp.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the estimator, VALUE read as YAML (repeatable)",
    )
    cmp.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="a parameter to sweep, one job per value (repeatable); chosen as the table selects",
    )
    cmp.add_argument("--dataset", action="append", help="only this data set of the experiment (repeatable)")
    cmp.add_argument("--max-splits", type=int, help="only the first N splits of each seed (the papers' rows too)")
    cmp.add_argument("--out", default="results/compare", help="folder of the records and tables (default: %(default)s)")
    cmp.set_defaults(func=_compare)

    listing = sub.add_parser(
        "list",
        help="what exists: the experiments, tables and figures of a config, the methods, the data sets",
        description="experiments, tables and figures: those of --config with their titles or captions "
        "(each table or figure is a Snakemake target: results/tables/NAME.md, results/figures/NAME.png); "
        "methods: the estimator names a config's methods can use; datasets: as 'mkbench datasets list'.",
    )
    listing.add_argument("what", choices=LISTINGS)
    listing.add_argument("--config", default="config/config.yaml", help="workflow config YAML (default: %(default)s)")
    listing.set_defaults(func=_list)
    return parser


#: What ``mkbench list`` lists.
LISTINGS = ("experiments", "tables", "figures", "methods", "datasets")


def _list(args) -> None:
    if args.what == "datasets":
        _datasets_list(args)
        return
    if args.what == "methods":
        from .methods import METHODS

        for name, path in sorted(METHODS.items()):
            print(f"{name:28s} {path.replace(':', '.')}")
        return
    from .config import load_config

    config = load_config(args.config)
    for name, spec in config[args.what].items():
        text = " ".join((spec.get("title") or spec.get("caption") or "").split())
        print(f"{name:36s} {textwrap.shorten(text, 100, placeholder=' …')}")  # cut between words


def _data_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mirror", help="folder tried before the canonical URLs (or MKBENCH_DATA_MIRROR)")
    parser.add_argument("--data-home", help="cache of raw files (or MKBENCH_DATA_HOME)")


def _datasets_list(args) -> None:
    from .datasets import list_datasets

    for spec in list_datasets():
        flag = "" if spec.public else "  [data not public]"
        print(f"{spec.name:18s} {spec.task:11s} {spec.description}{flag}")


def _datasets_fetch(args) -> None:
    from .datasets import fetch

    for path in fetch(args.name, mirror=args.mirror, data_home=args.data_home):
        print(path)


def _run(args) -> None:
    from .._io import write_json
    from .config import Job, load_config, param_settings
    from .datasets import load
    from ..exceptions import UnknownNameError
    from .experiment import protocol_splits, run_configured_job

    config = load_config(args.config)
    exp = config["experiments"].get(args.experiment)
    if exp is None:
        raise UnknownNameError(f"unknown experiment {args.experiment!r}; known: {', '.join(config['experiments'])}")
    _require(args.method, exp["methods"], "method label")
    _require(args.dataset, exp["datasets"], "data set of the experiment")
    _require(args.param, param_settings(exp["methods"][args.method]), "parameter setting")
    job = Job(args.experiment, args.method, args.param, args.dataset, exp["protocol"], args.seed, args.split)
    # the config's data folders, as the Snakefile reads them (relative to where the workflow runs)
    dataset = load(
        args.dataset, mirror=args.mirror or config["data"]["mirror"], data_home=args.data_home or config["data"]["home"]
    )
    splits = protocol_splits(config, job.protocol, dataset, job.seed)
    if not 0 <= job.split < len(splits):
        raise MkbenchError(f"--split {job.split} is out of range: the protocol has {len(splits)} splits")
    out = args.out or job.record_path
    _check_writable(os.path.dirname(out) or ".")  # before the fit, which may take hours
    record = run_configured_job(config, job, dataset, splits[job.split])
    with _writes_to(out):
        write_json(out, record)
    print(out)


def _require(value, known, what: str) -> None:
    from ..exceptions import UnknownNameError

    if value not in known:
        raise UnknownNameError(f"unknown {what} {value!r}; known: {', '.join(map(str, known))}")


@contextlib.contextmanager
def _writes_to(target: str):
    """Turn an OSError while writing ``target`` (a read-only folder, a file where a folder
    should be) into one error naming it; :mod:`mkbench._io` leaves no partial file."""
    try:
        yield
    except OSError as exc:
        raise MkbenchError(f"cannot write {target!r}: {exc}; make it writable or write elsewhere") from None


def _check_writable(folder: str) -> None:
    """Create ``folder`` and write a nameless temporary file in it, before any work is done."""
    with _writes_to(folder):
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()


def _compare(args) -> None:
    import yaml

    from .compare import compare
    from .config import load_config

    def pairs(items: list[str], option: str) -> dict:
        parsed = {}
        for item in items:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise MkbenchError(f"{option} {item!r}: write KEY=VALUE")
            parsed[key] = value
        return parsed

    params = {key: yaml.safe_load(value) for key, value in pairs(args.param, "--param").items()}
    grid = {key: [yaml.safe_load(v) for v in value.split(",")] for key, value in pairs(args.grid, "--grid").items()}
    config = load_config(args.config)
    _check_writable(args.out)
    for path in compare(
        config,
        args.estimator,
        args.experiment,
        label=args.label,
        params=params,
        grid=grid,
        datasets=args.dataset,
        max_splits=args.max_splits,
        out=args.out,
    ):
        with open(path, encoding="utf-8") as fh:
            print(fh.read())
        print(f"(written to {path})")


def _report(args) -> None:
    from .config import load_config

    config = load_config(args.config)
    if args.table or not args.reproduction:
        _write_tables(config, args.table or list(config["tables"]))
    if args.reproduction:
        _write_reproduction(config, args)


def _cost(args) -> None:
    from .config import load_config
    from .cost import catalogue_roles, estimate, to_markdown

    config = load_config(args.config)
    plan = load_config(args.config, *args.plan) if args.plan else None
    by_role = catalogue_roles(config, args.catalogue) if args.catalogue else None
    print(to_markdown(estimate(config, plan=plan), by_role))


def _write_reproduction(config: dict, args) -> None:
    from .._io import write_text
    from .reproduction import build_reproduction

    catalogue = args.catalogue or os.path.join(os.path.dirname(args.config), "reproduction.yaml")
    command = f"mkbench report --config {args.config} --reproduction {args.reproduction}"
    if args.catalogue:
        command += f" --catalogue {args.catalogue}"
    text = build_reproduction(config, catalogue, command=command)
    with _writes_to(args.reproduction):
        write_text(args.reproduction, text)
    print(args.reproduction)


def _write_tables(config: dict, tables: list[str]) -> None:
    from ..exceptions import DataError
    from .report import collect_histories, collect_records, table_reference, write_config_table

    references, records, histories = {}, {}, {}
    for name in tables:  # every name, reference file and record is checked before a table is written
        _require(name, config["tables"], "table")
        spec = config["tables"][name]
        references[name] = table_reference(config, name)
        experiments = spec["experiment"] if isinstance(spec["experiment"], list) else [spec["experiment"]]
        paths = sorted(p for e in experiments for p in glob.glob(f"results/runs/{e}/**/*.json", recursive=True))
        if not paths:
            where = ", ".join(os.path.abspath(f"results/runs/{e}") for e in experiments)
            raise DataError(
                f"no records for table {name!r} under {where}: run its experiments first "
                f"(snakemake --cores 8 results/tables/{name}.md), or run mkbench from the folder that holds results/"
            )
        records[name] = collect_records(paths)
        histories[name] = collect_histories(paths) if spec.get("stop") else None
    _check_writable("results/tables")
    for name in tables:
        with _writes_to(f"results/tables/{name}"):
            write_config_table(
                config,
                name,
                records[name],
                f"results/tables/{name}",
                history=histories[name],
                reference=references[name],
            )
        print(f"results/tables/{name}.md")


if __name__ == "__main__":
    sys.exit(main())
