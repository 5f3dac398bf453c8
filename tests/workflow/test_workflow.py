"""The Snakemake workflow plans every job of the shipped configs, and rejects bad ones."""

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mkbench.harness.config import load_config, plan_jobs

from ..conftest import ROOT

SNAKEMAKE = shutil.which("snakemake") or str(Path(sys.executable).with_name("snakemake"))


def _dry_run(*args, cwd=ROOT):
    return subprocess.run(
        [SNAKEMAKE, "-n", "--cores", "8", "--quiet", "rules", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("configfile", ["config/config.yaml", "config/smoke.yaml"])
def test_dry_run_plans_every_fit_job(configfile, tmp_path):
    # Plan from an empty working copy, so that no earlier output hides a job.
    for item in ("workflow", "config"):
        shutil.copytree(ROOT / item, tmp_path / item)
    result = _dry_run("--configfile", configfile, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    n_fits = len(plan_jobs(load_config(ROOT / configfile)))
    fit_lines = [line for line in result.stdout.splitlines() if line.split()[:1] == ["fit"]]
    assert fit_lines and int(fit_lines[0].split()[1]) == n_fits


def test_config_typo_stops_the_workflow_with_the_key_named(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((ROOT / "config" / "smoke.yaml").read_text().replace("  cv3: {name: kfold", "  cv3: {nme: kfold"))
    result = _dry_run("--configfile", str(bad))
    assert result.returncode != 0
    assert "at protocols/cv3: 'name' is a required property" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("target", "kind"), [("results/tables/no-such-table.md", "table"), ("results/figures/no-such-figure.png", "figure")]
)
def test_unknown_target_lists_the_known_ones(target, kind):
    result = subprocess.run(  # the target first: --quiet and --configfile take several values
        [SNAKEMAKE, "-n", target, "--cores", "1", "--configfile", "config/smoke.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0
    known = load_config(ROOT / "config" / "smoke.yaml")[f"{kind}s"]
    assert (
        f"no {kind} '{target.split('/')[-1].rsplit('.', 1)[0]}' in the config; known {kind}s: {', '.join(known)}"
        in output
    )
    assert f"mkbench list {kind}s" in output


def test_timing_samples_one_job_per_method_and_data_set_and_prices_the_experiment(tmp_path):
    """`snakemake results/timing/<experiment>.csv` reruns the first job of each kind; mkbench cost prices from it."""
    from mkbench.harness.cost import estimate

    for item in ("workflow", "config"):
        shutil.copytree(ROOT / item, tmp_path / item)
    shutil.copy(ROOT / "environment.yml", tmp_path)  # the rules' conda environment, which Snakemake records
    experiment = "smoke-regression"  # 2 methods on one data set, 3 folds each
    result = subprocess.run(  # the target first: --configfile takes several values
        [SNAKEMAKE, f"results/timing/{experiment}.csv", "--cores", "2", "--configfile", "config/smoke.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    samples = pd.read_csv(tmp_path / "results" / "timing" / f"{experiment}.csv")
    config = load_config(ROOT / "config" / "smoke.yaml")
    first = {}
    for job in plan_jobs(config, [experiment]):
        first.setdefault((job.method, job.param, job.dataset), (job.seed, job.split))
    runs = zip(samples["seed"], samples["split"], strict=True)
    assert sorted(zip(samples["method"], samples["param"], samples["dataset"], runs, strict=True)) == sorted(
        (method, param, dataset, job) for (method, param, dataset), job in first.items()
    )
    assert (samples["fit_cpu_seconds"] > 0).all() and not (tmp_path / "results" / "runs").exists()
    row = estimate(config, tmp_path).set_index("experiment").loc[experiment]
    per_kind = (samples["fit_cpu_seconds"] + samples["predict_cpu_seconds"]).to_numpy()
    assert row["measured jobs"] == 0 and row["unmeasured jobs"] == 0
    assert row["estimated CPU h"] * 3600 == pytest.approx(3 * per_kind.sum())  # 3 folds of each kind
