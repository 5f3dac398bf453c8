"""Results follow the config (issue 23): a changed parameter reruns exactly the jobs it affects,
a deleted record is fitted again, and a mistyped parameter stops the workflow before any job.

The workflow tests run Snakemake once on a copy of ``workflow/`` and ``config/`` with a small
config (tests/workflow/test_resilience.py's helpers), then only dry runs and one refit.
"""

import re

import pytest
import yaml

from ..conftest import ROOT
from .test_resilience import _records, _snakemake, workflow_copy
from .test_workflow import _dry_run

#: One experiment, 3-fold CV: 6 fit jobs, one summary, one table.
METHODS = {"smoke-regression": ["svr", "krr"]}


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """A working copy of the workflow whose small config has been run to the end."""
    folder = workflow_copy(tmp_path_factory.mktemp("rerun"), METHODS)
    result = _snakemake(folder)
    assert result.returncode == 0, result.stderr[-3000:]
    return folder


def _planned(workdir):
    """The jobs a dry run would run: (rule, its first output or "" for rule all, the reason)."""
    result = _snakemake(workdir, "-n")
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = []
    for block in re.split(r"^(?=rule \S+:$)", result.stdout, flags=re.M)[1:]:
        rule = re.match(r"rule (\S+):", block).group(1)
        output = re.search(r"^    output: ([^,\n]+)", block, flags=re.M)
        reason = re.search(r"^    reason: (.*)$", block, flags=re.M).group(1)
        jobs.append((rule, output.group(1) if output else "", reason))
    return jobs


def test_a_changed_parameter_reruns_that_methods_fits_and_what_is_drawn_from_them(ran):
    assert _planned(ran) == []  # the same config twice: nothing to do
    config_path = ran / "small.yaml"
    original = config_path.read_text()
    config = yaml.safe_load(original)
    config["experiments"]["smoke-regression"]["methods"]["svr"]["params"]["max_evals"] += 1
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    try:
        planned = _planned(ran)
    finally:
        config_path.write_text(original)
    svr_records = sorted(str(p.relative_to(ran)) for p in _records(ran) if "/svr/" in str(p))
    assert len(svr_records) == 3
    assert sorted(output for rule, output, _ in planned if rule == "fit") == svr_records
    assert all(reason.startswith("Params have changed") for rule, _, reason in planned if rule == "fit")
    assert sorted((rule, output) for rule, output, _ in planned if rule != "fit") == [
        ("aggregate", "results/summary/smoke-regression.csv"),
        ("all", ""),
        ("table", "results/tables/smoke-regression.csv"),
    ]
    assert _planned(ran) == []  # the config restored, its records are current again


def test_a_deleted_record_is_fitted_again_and_its_table_redrawn(ran):
    record = next(p for p in _records(ran) if "/krr/" in str(p))
    table = ran / "results" / "tables" / "smoke-regression.md"
    table_written = table.stat().st_mtime_ns
    record.unlink()
    assert sorted((rule, output) for rule, output, _ in _planned(ran)) == [
        ("aggregate", "results/summary/smoke-regression.csv"),
        ("all", ""),
        ("fit", str(record.relative_to(ran))),
        ("table", "results/tables/smoke-regression.csv"),
    ]
    result = _snakemake(ran)
    assert result.returncode == 0, result.stderr[-3000:]
    assert record.exists() and table.stat().st_mtime_ns > table_written
    assert _planned(ran) == []


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "search: pattern, max_evals: 8",
            "search: pattern, max_evalz: 8",
            "at experiments/smoke-regression/methods/svr/params: method 'svr' has no parameter(s) max_evalz; "
            "valid parameters: epsilon, max_evals, min_improvement, min_step, n_jobs,",
        ),
        (
            "cv3: {name: kfold, n_folds: 3}",
            "cv3: {name: kfold, n_fold: 3}",
            "at protocols/cv3: protocol 'kfold' has no parameter(s) n_fold; its parameters: n_folds, shuffle, stratify",
        ),
    ],
    ids=["method-parameter", "protocol-parameter"],
)
def test_a_mistyped_parameter_stops_the_dry_run_with_the_key_and_the_valid_ones(tmp_path, old, new, message):
    text = (ROOT / "config" / "smoke.yaml").read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    result = _dry_run("--configfile", str(bad))
    assert result.returncode != 0
    assert message in result.stdout + result.stderr
    assert "KeyError" not in result.stdout + result.stderr
