"""The Snakemake workflow plans every job of the shipped configs, and rejects bad ones."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mkbench.harness.config import load_config, plan_jobs

from .conftest import ROOT

SNAKEMAKE = shutil.which("snakemake") or str(Path(sys.executable).with_name("snakemake"))


def _dry_run(*args, cwd=ROOT):
    return subprocess.run(
        [SNAKEMAKE, "-n", "--cores", "8", "--quiet", "rules", *args],
        cwd=cwd, capture_output=True, text=True, timeout=300,
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


@pytest.mark.parametrize(("target", "kind"), [("results/tables/no-such-table.md", "table"),
                                              ("results/figures/no-such-figure.png", "figure")])
def test_unknown_target_lists_the_known_ones(target, kind):
    result = subprocess.run(  # the target first: --quiet and --configfile take several values
        [SNAKEMAKE, "-n", target, "--cores", "1", "--configfile", "config/smoke.yaml"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0
    known = load_config(ROOT / "config" / "smoke.yaml")[f"{kind}s"]
    assert f"no {kind} '{target.split('/')[-1].rsplit('.', 1)[0]}' in the config; known {kind}s: {', '.join(known)}" in output
    assert f"mkbench list {kind}s" in output
