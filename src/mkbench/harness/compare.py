"""``mkbench compare``: one estimator on one experiment's splits, tabled beside the papers' methods, without Snakemake.

For the "single run" user: name an estimator (an import path ``package.module:Class``
or a registered method) and an experiment of the config. :func:`compare` adds the
estimator to the experiment as an added method (``added: true``; see
:func:`mkbench.harness.config.added_methods`), runs its jobs in this process on the
experiment's data sets, protocol, seeds and preprocessing (the same splits the
workflow draws), writes each record under ``<out>/runs/`` (a record that exists is
read, not refitted: a stopped comparison resumes), and writes every table of the
config over that experiment with its rows added, marked ``†``, beside the papers'
methods as the committed summary ``results/summary/<experiment>.csv`` holds them
(restricted to the same splits) and the published values.
"""

from __future__ import annotations

import copy
import glob
import os
from collections.abc import Mapping
from typing import Any

import pandas as pd

from .._io import write_json
from ..exceptions import ConfigError, DataError, UnknownNameError
from .config import Job, plan_jobs, validate_config
from .report import JOB_KEYS, collect_records, load_reference, write_table

__all__ = ["compare"]


def compare(
    config: dict[str, Any],
    estimator: str,
    experiment: str,
    *,
    label: str = "mine",
    params: Mapping[str, Any] | None = None,
    grid: Mapping[str, list] | None = None,
    datasets: list[str] | None = None,
    max_splits: int | None = None,
    out: str = "results/compare",
    summaries: str = "results/summary",
) -> list[str]:
    """Fit ``estimator`` on ``experiment``'s splits and write the experiment's tables with its rows added.

    Parameters
    ----------
    config : dict
        A validated workflow config (:func:`mkbench.harness.config.load_config`).
    estimator : str
        An import path ``"package.module:Class"`` or a registered method name.
    experiment : str
        An experiment of ``config``.
    label : str, default="mine"
        The method's label in the records and tables; not one of the experiment's.
    params, grid : mapping, optional
        As a config method's ``params`` and ``grid`` (one job per grid setting).
    datasets : list of str, optional
        Only these of the experiment's data sets.
    max_splits : int, optional
        Only the first splits of each seed (and the papers' rows on those splits only).
    out : str, default="results/compare"
        Folder of the records (``runs/``) and tables (``<table>.md`` and ``.csv``).
    summaries : str, default="results/summary"
        Folder of the committed summaries the papers' rows are read from.

    Returns
    -------
    list of str
        The Markdown tables written.

    Raises
    ------
    UnknownNameError
        If the experiment, a data set or the estimator is unknown.
    ConfigError
        If the label is taken, or a parameter is not the estimator's.
    """
    from .datasets import load
    from .experiment import protocol_splits, run_configured_job

    if experiment not in config["experiments"]:
        raise UnknownNameError(f"unknown experiment {experiment!r}; known: {', '.join(config['experiments'])}")
    exp = config["experiments"][experiment]
    if label in exp["methods"]:
        raise ConfigError(f"--label {label!r} is a method of {experiment} already: choose another")
    unknown = sorted(set(datasets or ()) - set(exp["datasets"]))
    if unknown:
        raise UnknownNameError(f"data set(s) {unknown} are not in {experiment}: {', '.join(exp['datasets'])}")
    config = copy.deepcopy(config)
    method = {"estimator": estimator, "params": dict(params or {}), "grid": dict(grid or {}), "added": True}
    config["experiments"][experiment]["methods"][label] = method
    if datasets:
        config["experiments"][experiment]["datasets"] = list(datasets)
    config = validate_config(config)  # the estimator imported, its parameters checked
    jobs = [job for job in plan_jobs(config, [experiment]) if job.method == label]
    if max_splits is not None:
        jobs = [job for job in jobs if job.split < max_splits]
    paths = []
    for name in dict.fromkeys(job.dataset for job in jobs):
        dataset = load(name, mirror=config["data"]["mirror"], data_home=config["data"]["home"])
        splits: dict[int, list] = {}
        for job in (j for j in jobs if j.dataset == name):
            path = _record_path(out, job)
            if not os.path.exists(path):
                if job.seed not in splits:
                    splits[job.seed] = protocol_splits(config, job.protocol, dataset, job.seed)
                write_json(path, run_configured_job(config, job, dataset, splits[job.seed][job.split]))
            paths.append(path)
    ours = collect_records(paths)
    return _write_tables(config, experiment, ours, label, out, summaries)


def _record_path(out: str, job: Job) -> str:
    return os.path.join(out, "runs", job.record_path.removeprefix("results/runs/"))


def _write_tables(config: dict, experiment: str, ours: pd.DataFrame, label: str, out: str, summaries: str) -> list[str]:
    """Each table of ``config`` over ``experiment``: the committed summary's runs on our splits, and ours."""
    theirs = _papers_runs(experiment, ours, summaries)
    written = []
    for name, spec in config["tables"].items():
        experiments = spec["experiment"] if isinstance(spec["experiment"], list) else [spec["experiment"]]
        if experiments != [experiment]:
            continue
        ref = spec.get("reference")
        reference = load_reference(os.path.join(config["reference_dir"], ref["file"]), ref["table"]) if ref else None
        records = pd.concat([theirs, ours], ignore_index=True)
        stem = os.path.join(out, name)
        write_table(
            records,
            spec["metrics"],
            stem,
            caption=spec["caption"],
            reference=reference,
            select=spec.get("select"),
            layout=spec["layout"],
            accept_status=spec["accept_status"],
            added=[label],
        )
        written.append(f"{stem}.md")
    if not written:
        raise ConfigError(f"no table of the config is over {experiment} alone; its records are under {out}/runs")
    return written


def _papers_runs(experiment: str, ours: pd.DataFrame, summaries: str) -> pd.DataFrame:
    """The summary's runs of the experiment's own methods on the data sets, seeds and splits ``ours`` ran on."""
    path = os.path.join(summaries, f"{experiment}.csv")
    if not glob.glob(path):
        raise DataError(
            f"no summary {path!r} of {experiment}'s methods: run it first (snakemake results/summary/{experiment}.csv) "
            "or run mkbench compare from the folder that holds results/"
        )
    theirs = pd.read_csv(path)
    where = ["dataset", "seed", "split"]
    ran = ours[where].drop_duplicates()
    theirs = theirs.merge(ran, on=where, how="inner")
    return theirs.sort_values(JOB_KEYS[1:], kind="stable")
