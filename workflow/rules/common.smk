import os

from mkbench.harness.config import canonical_json, job_identity, job_of, plan_jobs, validate_config
from mkbench.harness.cost import KIND_FIELDS
from snakemake.exceptions import WorkflowError

# Validate against the package's JSON schema (mkbench/harness/config.schema.yaml), and every
# method's and protocol's parameters against the ones they accept: errors name the wrong key,
# where it is and why. Defaults are filled in place.
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
    tables = expand("results/tables/{table}.{ext}", table=config["tables"], ext=("csv", "md", "html"))
    figures = expand("results/figures/{figure}.{ext}", figure=config["figures"], ext=("png", "pdf"))
    summaries = expand("results/summary/{experiment}.csv", experiment=config["experiments"])
    return tables + figures + summaries


def get_split(wildcards):
    """The split file a fit job reads: its experiment fixes the protocol."""
    return job_of(config, wildcards).split_path


# Rerun triggers: what a job's output depends on in the config, as a canonical JSON string in
# the job's params. Snakemake reruns a job whose params changed since its output was written
# (--rerun-triggers, params by default), and then every job downstream of it.
def fit_identity(wildcards):
    """A fit job's estimator, parameters of its grid setting, preprocessing and protocol."""
    return canonical_json(job_identity(config, job_of(config, wildcards)))


def known_entry(section, name):
    """``config[section][name]``, or an error listing the known names (an unknown target such as
    results/tables/no-such-table.md)."""
    if name not in config[section]:
        known = ", ".join(config[section])
        raise WorkflowError(
            f"no {section[:-1]} {name!r} in the config; known {section}: {known} "
            f"(mkbench list {section}; each is results/{section}/NAME.{'md' if section == 'tables' else 'png'})"
        )
    return config[section][name]


def config_entry(section, wildcard):
    """The params function of a job drawn from ``config[section][<its wildcard>]`` (a protocol, table, figure)."""

    def _entry(wildcards):
        return canonical_json(known_entry(section, getattr(wildcards, wildcard)))

    return _entry


def get_records(wildcards):
    """Every record of one experiment."""
    return [job.record_path for job in JOBS if job.experiment == wildcards.experiment]


def timing_samples(experiment):
    """Timing samples (rules/timing.smk): the record paths of one job per kind (cost.KIND_FIELDS:
    method, grid setting, data set) of ``experiment``, its first planned one."""
    first = {}
    for job in JOBS:
        if job.experiment == experiment:
            first.setdefault(tuple(getattr(job, field) for field in KIND_FIELDS), job)
    return [job.record_path.replace("results/runs/", "results/timing/", 1) for job in first.values()]


def get_summary(kind):
    """The summary CSV(s) a table or figure is drawn from: per job, or per iteration for curves (and for a
    table that stops traced runs early, both)."""

    def _summary(wildcards):
        spec = known_entry(kind, getattr(wildcards, kind.rstrip("s")))
        suffix = ".history.csv" if spec.get("kind") == "curve" else ".csv"
        experiments = spec["experiment"] if isinstance(spec["experiment"], list) else [spec["experiment"]]
        paths = [f"results/summary/{experiment}{suffix}" for experiment in experiments]
        if kind == "tables" and spec.get("stop"):  # early stopping reads the runs' histories too
            paths += [f"results/summary/{experiment}.history.csv" for experiment in experiments]
        return paths

    return _summary


def get_reference(kind):
    """The CSV of the paper's published values a table or figure (``kind``) shows beside ours, if any."""

    def _reference(wildcards):
        reference = known_entry(kind, getattr(wildcards, kind.rstrip("s"))).get("reference")
        return [os.path.join(config["reference_dir"], reference["file"])] if reference else []

    return _reference
