"""What the workflow costs before it is run: CPU time per experiment, from the committed summaries.

Every row of ``results/summary/<experiment>.csv`` is one fit job with its measured
``fit_seconds`` and ``predict_seconds`` (one core, one BLAS thread in the workflow).
For each experiment of a config, :func:`estimate` counts the planned jobs
(:func:`mkbench.harness.config.plan_jobs`), the measured ones that the config still
plans (same method, setting, data set, seed and split), and estimates the planned
jobs' CPU time: per method and data set, the mean time of its measured jobs times
its planned jobs. A method and data set without a measured job that is still
planned is counted apart ("unmeasured jobs"). Times leave out each job's start-up (Python, imports, reading
the data: a few seconds). A job is known by its name only: a job whose parameters
changed under the same name is priced at its old time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from .config import plan_jobs

#: The fields that name a job in a summary row and in a planned job.
JOB_FIELDS = ["method", "param", "dataset", "seed", "split"]

#: Columns of :func:`estimate`.
COLUMNS = ["experiment", "planned jobs", "measured jobs", "unmeasured jobs", "measured CPU h", "estimated CPU h"]


def estimate(config: dict[str, Any], root: str | os.PathLike = ".") -> pd.DataFrame:
    """One row per experiment of ``config`` (:data:`COLUMNS`), from the summaries under ``root``."""
    rows = []
    for experiment in config["experiments"]:
        planned = pd.DataFrame([vars(job) for job in plan_jobs(config, [experiment])])[JOB_FIELDS]
        path = Path(root) / "results" / "summary" / f"{experiment}.csv"
        measured = _job_seconds(pd.read_csv(path)) if path.exists() else pd.DataFrame(columns=[*JOB_FIELDS, "seconds"])
        still = planned.merge(measured, on=JOB_FIELDS, how="inner")
        mean = still.groupby(["method", "dataset"])["seconds"].mean().rename("mean").reset_index()
        priced = planned.merge(mean, on=["method", "dataset"], how="left")
        rows.append({
            "experiment": experiment,
            "planned jobs": len(planned),
            "measured jobs": len(still),
            "unmeasured jobs": int(priced["mean"].isna().sum()),
            "measured CPU h": still["seconds"].sum() / 3600,
            "estimated CPU h": priced["mean"].sum() / 3600,
        })
    return pd.DataFrame(rows, columns=COLUMNS)


def to_markdown(frame: pd.DataFrame) -> str:
    """The estimate as a Markdown table with a total row, times to 0.01 h."""
    total = frame.drop(columns="experiment").sum().to_dict() | {"experiment": "**total**"}
    shown = pd.concat([frame, pd.DataFrame([total])], ignore_index=True)
    for column in ("measured CPU h", "estimated CPU h"):
        shown[column] = shown[column].map(lambda hours: f"{hours:.2f}")
    for column in ("planned jobs", "measured jobs", "unmeasured jobs"):
        shown[column] = shown[column].astype(int)
    return shown.to_markdown(index=False, disable_numparse=True, colalign=["left"] + ["right"] * (len(COLUMNS) - 1))


def _job_seconds(summary: pd.DataFrame) -> pd.DataFrame:
    """A job's fit and predict seconds (a failed job's missing times count as 0)."""
    times = summary.reindex(columns=["fit_seconds", "predict_seconds"]).apply(pd.to_numeric).fillna(0.0)
    out = summary[JOB_FIELDS].assign(seconds=times.sum(axis=1))
    return out.astype({"param": str, "seed": int, "split": int})
