import os

from mkbench.harness.config import plan_jobs, split_path, validate_config

# Validate against the package's JSON schema (mkbench/harness/config.schema.yaml): errors
# name the wrong key and why. Defaults are filled in place.
validate_config(config)

JOBS = plan_jobs(config)
MIRROR = config["data"]["mirror"] or os.environ.get("MKBENCH_DATA_MIRROR")
DATA_HOME = config["data"]["home"]


wildcard_constraints:
    seed=r"\d+",
    split=r"\d+",
    dataset=r"[^/]+",
    experiment=r"[^/]+",
    method=r"[^/]+",
    param=r"[^/]+",
    protocol=r"[^/]+",
    table=r"[^/]+",
    figure=r"[^/]+",


def all_outputs():
    """Every table and figure of the config (their inputs pull in every job)."""
    tables = expand("results/tables/{table}.{ext}", table=config["tables"], ext=("csv", "md"))
    figures = expand("results/figures/{figure}.{ext}", figure=config["figures"], ext=("png", "pdf"))
    summaries = expand("results/summary/{experiment}.csv", experiment=config["experiments"])
    return tables + figures + summaries


def get_split(wildcards):
    """The split file a fit job reads: its experiment fixes the protocol."""
    protocol = config["experiments"][wildcards.experiment]["protocol"]
    return split_path(wildcards.dataset, protocol, int(wildcards.seed), int(wildcards.split))


def get_records(wildcards):
    """Every record of one experiment."""
    return [job.record_path for job in JOBS if job.experiment == wildcards.experiment]


def get_summary(kind):
    """The summary CSV(s) a table or figure is drawn from: per job, or per iteration for curves."""

    def _summary(wildcards):
        spec = config[kind][getattr(wildcards, kind.rstrip("s"))]
        suffix = ".history.csv" if spec.get("kind") == "curve" else ".csv"
        experiments = spec["experiment"] if isinstance(spec["experiment"], list) else [spec["experiment"]]
        return [f"results/summary/{experiment}{suffix}" for experiment in experiments]

    return _summary
