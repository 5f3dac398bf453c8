"""What the workflow costs before it is run: CPU time per experiment, from the committed summaries.

Every row of ``results/summary/<experiment>.csv`` is one fit job with its measured
``fit_cpu_seconds`` and ``predict_cpu_seconds`` (CPU time of the job's process; one
BLAS thread in the workflow), or, in records older than 2026-11-26, only the wall-clock
``fit_seconds`` and ``predict_seconds``, which count the waits of a loaded machine too.
For each experiment of a config, :func:`estimate` counts the planned jobs
(:func:`mkbench.harness.config.plan_jobs`), the measured ones that the config still
plans (same method, setting, data set, seed and split), and estimates the planned
jobs' CPU time: per method, grid setting and data set (a job kind), the mean time of its measured
jobs times its planned jobs. Its best measure prices a kind: its timing samples, else
its CPU-timed jobs, else its wall times. ``results/timing/<experiment>.csv`` holds the
samples, jobs rerun by ``snakemake timing`` (workflow/rules/timing.smk: the first planned
job of each kind, CPU-timed, on the current code), so one job per kind
replaces the older times of its kind in the estimate and prices a kind that has no
summary row yet; samples add no measured jobs. A kind with neither a measured job
nor a sample is counted apart ("unmeasured jobs"). Times leave out each job's
start-up (Python, imports, reading the data: a few seconds). A job is known by its
name only: a job whose parameters changed under the same name is priced at its old
time.

A *plan* (another config, e.g. the committed one with an overlay that restores a
paper's full protocol where the config cuts it:
:func:`mkbench.harness.config.load_config`) is priced from the summaries of the
config that produced them: its jobs are planned from the plan, and each job's
mean time is scaled by the model fits one job makes under the plan over those under
the measured config (:func:`fits_per_job`: cross-validation folds times grid
settings, plus the refit), to first order: a fold fit on 4/5 of the points is
counted like one on 2/3.

:func:`roles` sorts the experiments by what the reproduction catalogue makes of them:
those behind a table or figure of a paper, and those behind its sensitivity tables
only (ablations), so the cost of the papers' protocols can be told from that of the
ablations (:func:`to_markdown` adds a subtotal per role).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .catalogue import Entry, load_catalogue
from .config import plan_jobs

#: The fields that name a job in a summary row and in a planned job.
JOB_FIELDS = ["method", "param", "dataset", "seed", "split"]

#: The fields of a job kind, priced by one mean (and sampled once by ``snakemake timing``).
KIND_FIELDS = ["method", "param", "dataset"]

#: Columns of :func:`estimate`.
COLUMNS = ["experiment", "planned jobs", "measured jobs", "unmeasured jobs", "measured CPU h", "estimated CPU h"]

#: What an experiment is for (:func:`roles`), in the order of :func:`to_markdown`'s subtotals.
ROLES = ("paper", "sensitivity", "other")


def estimate(
    config: dict[str, Any], root: str | os.PathLike = ".", *, plan: dict[str, Any] | None = None
) -> pd.DataFrame:
    """One row per experiment (:data:`COLUMNS`), from the summaries under ``root``.

    Parameters
    ----------
    config : dict
        The validated config whose jobs the summaries measured.
    root : path, default="."
        The folder holding ``results/summary`` (and the timing samples, ``results/timing``).
    plan : dict, optional
        A validated config to price instead (the same experiment names): its planned
        jobs, each at the measured mean of its kind times
        :func:`fits_per_job` under ``plan`` over under ``config``.
        None prices ``config`` itself.
    """
    plan = config if plan is None else plan
    rows = []
    for experiment in plan["experiments"]:
        planned = pd.DataFrame([vars(job) for job in plan_jobs(plan, [experiment])])[JOB_FIELDS]
        measured, timing = (
            _summary_seconds(Path(root) / "results" / folder / f"{experiment}.csv") for folder in ("summary", "timing")
        )
        if experiment in config["experiments"]:  # only jobs the config still plans (known by their names)
            configured = pd.DataFrame([vars(job) for job in plan_jobs(config, [experiment])])[JOB_FIELDS]
            measured, timing = (frame.merge(configured, on=JOB_FIELDS) for frame in (measured, timing))
        still = planned.merge(measured, on=JOB_FIELDS, how="inner")
        # per kind, the best measure it has: its timing samples, else its CPU-timed rows, else its wall times
        pool = pd.concat(
            [measured.assign(rank=measured["cpu"].astype(int)), timing[timing["cpu"]].assign(rank=2)], ignore_index=True
        )
        sampled = pool[pool["rank"] == pool.groupby(KIND_FIELDS)["rank"].transform("max")]
        mean = sampled.groupby(KIND_FIELDS)["seconds"].mean().rename("mean").reset_index()
        mean["mean"] *= mean["method"].map(lambda method: _work_ratio(plan, config, experiment, method))  # noqa: B023
        priced = planned.merge(mean, on=KIND_FIELDS, how="left")
        rows.append(
            {
                "experiment": experiment,
                "planned jobs": len(planned),
                "measured jobs": len(still),
                "unmeasured jobs": int(priced["mean"].isna().sum()),
                "measured CPU h": still["seconds"].sum() / 3600,
                "estimated CPU h": priced["mean"].sum() / 3600,
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def fits_per_job(method: dict[str, Any]) -> int:
    """Model fits one job of a config method makes: for ``staged-cv``, the folds times the grid settings
    (and times the bandwidth grid of ``svc_bandwidth_grid``) plus the refit, or the refit alone when
    there is nothing to choose (one setting, at most one iteration count); else 1."""
    if method["estimator"] != "staged-cv":
        return 1
    from ..estimators.staged_search import N_ITERS, chooses  # the estimators load only when a job needs them

    params = method["params"]
    folds = params.get("cv", 5)
    settings = _settings(params.get("param_grid", {}))
    if not chooses(settings, len(params.get("n_iters", N_ITERS) or ()), "svc_bandwidth_grid" in params):
        return 1
    fits = folds * settings + 1
    if "svc_bandwidth_grid" in params:
        fits += folds * _settings(params["svc_bandwidth_grid"])
    return fits


def _settings(grid: dict[str, list]) -> int:
    return int(np.prod([len(values) for values in grid.values()])) if grid else 1


def _work_ratio(plan: dict[str, Any], config: dict[str, Any], experiment: str, method: str) -> float:
    """Fits per job of ``method`` under ``plan`` over under ``config`` (1 where ``config`` lacks it)."""
    measured = config["experiments"].get(experiment, {}).get("methods", {}).get(method)
    if measured is None:
        return 1.0
    return fits_per_job(plan["experiments"][experiment]["methods"][method]) / fits_per_job(measured)


def catalogue_roles(config: dict[str, Any], catalogue: str | os.PathLike) -> dict[str, str]:
    """:func:`roles` by the reproduction catalogue file ``catalogue`` (checked against ``config``)."""
    return roles(config, load_catalogue(catalogue, config)[1])


def roles(config: dict[str, Any], entries: Sequence[Entry]) -> dict[str, str]:
    """Each experiment of ``config`` by its role (:data:`ROLES`) in the catalogue's ``entries``.

    "paper": it feeds a table or figure an entry reproduces; "sensitivity": only an
    entry's sensitivity tables (its ablations); "other": neither.
    """

    def experiments(kind: str, name: str) -> list[str]:
        named = config[kind][name]["experiment"]
        return [named] if isinstance(named, str) else list(named)

    paper = {
        experiment
        for entry in entries
        for kind, names in (("tables", entry.tables), ("figures", entry.figures))
        for name in names
        for experiment in experiments(kind, name)
    }
    ablations = {
        experiment
        for entry in entries
        for study in entry.sensitivity
        for experiment in experiments("tables", study.table)
    }
    return {
        name: "paper" if name in paper else "sensitivity" if name in ablations else "other"
        for name in config["experiments"]
    }


def to_markdown(frame: pd.DataFrame, roles: dict[str, str] | None = None) -> str:
    """The estimate as a Markdown table with a total row, times to 0.01 h.

    With ``roles`` (:func:`roles`), a role column and a subtotal row per role come first.
    """
    numbers = frame.drop(columns="experiment")
    subtotals = []
    if roles is not None:
        frame = frame.assign(role=frame["experiment"].map(roles))
        subtotals = [
            numbers[frame["role"] == role].sum().to_dict() | {"experiment": f"**{role} total**", "role": role}
            for role in ROLES
            if (frame["role"] == role).any()
        ]
    total = numbers.sum().to_dict() | {"experiment": "**total**"} | ({"role": ""} if roles is not None else {})
    shown = pd.concat([frame, pd.DataFrame([*subtotals, total])], ignore_index=True)
    for column in ("measured CPU h", "estimated CPU h"):
        shown[column] = shown[column].map(lambda hours: f"{hours:.2f}")
    for column in ("planned jobs", "measured jobs", "unmeasured jobs"):
        shown[column] = shown[column].astype(int)
    if roles is not None:
        shown = shown[["experiment", "role", *COLUMNS[1:]]]
    align = ["left"] * (2 if roles is not None else 1) + ["right"] * (len(COLUMNS) - 1)
    return shown.to_markdown(index=False, disable_numparse=True, colalign=align)


def _summary_seconds(path: Path) -> pd.DataFrame:
    """:func:`_job_seconds` of the summary at ``path``; no rows when there is none."""
    if path.exists():
        return _job_seconds(pd.read_csv(path))
    return pd.DataFrame(columns=[*JOB_FIELDS, "seconds", "cpu"]).astype({"cpu": bool})


def _job_seconds(summary: pd.DataFrame) -> pd.DataFrame:
    """A job's fit and predict seconds: CPU time where the record has it (since 2026-11-26; ``cpu`` True),
    else wall time, which load inflates (a failed job's missing times count as 0)."""

    def seconds(part: str) -> pd.Series:
        wall, cpu = (
            summary.reindex(columns=[name])[name].apply(pd.to_numeric)
            for name in (f"{part}_seconds", f"{part}_cpu_seconds")
        )
        return cpu.fillna(wall).fillna(0.0)

    cpu = summary.reindex(columns=["fit_cpu_seconds"])["fit_cpu_seconds"].notna()
    out = summary[JOB_FIELDS].assign(seconds=seconds("fit") + seconds("predict"), cpu=cpu)
    return out.astype({"param": str, "seed": int, "split": int})
