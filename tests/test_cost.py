"""The workflow's cost, measured and estimated from summary rows, on the smoke config."""

import pandas as pd
import pytest

from mkbench.harness.config import load_config, plan_jobs
from mkbench.harness.cli import main
from mkbench.harness.cost import estimate, to_markdown

from .conftest import ROOT


@pytest.fixture
def smoke():
    return load_config(ROOT / "config" / "smoke.yaml")


def _write_summary(root, config, experiment, seconds, keep):
    """A summary of the first ``keep`` planned jobs of ``experiment``, each taking ``seconds(job)``."""
    jobs = plan_jobs(config, [experiment])[:keep]
    rows = [{**vars(job), "fit_seconds": seconds(job), "predict_seconds": 1.0} for job in jobs]
    rows.append({**vars(jobs[0]), "param": "C=999", "fit_seconds": 1e6, "predict_seconds": 0.0})  # no longer planned
    (root / "results" / "summary").mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(root / "results" / "summary" / f"{experiment}.csv", index=False)
    return jobs


def test_measured_jobs_are_summed_and_the_planned_ones_priced_by_method_and_data_set(smoke, tmp_path):
    experiment = "smoke-regression"  # 2 methods x 3 folds
    planned = plan_jobs(smoke, [experiment])
    first = planned[0].method
    jobs = _write_summary(tmp_path, smoke, experiment, lambda job: 35.0 if job.method == first else 71.0, keep=4)
    row = estimate(smoke, tmp_path).set_index("experiment").loc[experiment]
    measured = sum(36.0 if job.method == first else 72.0 for job in jobs)
    assert row["planned jobs"] == len(planned) == 6 and row["measured jobs"] == 4 and row["unmeasured jobs"] == 0
    assert row["measured CPU h"] * 3600 == pytest.approx(measured)
    # every planned job at its method's mean: 3 x 36 s + 3 x 72 s (the stale C=999 row prices nothing)
    assert {job.method for job in jobs} == {job.method for job in planned}
    assert row["estimated CPU h"] * 3600 == pytest.approx(3 * 36.0 + 3 * 72.0)
    other = estimate(smoke, tmp_path).set_index("experiment").loc["smoke-classification"]
    assert other["measured jobs"] == 0 and other["unmeasured jobs"] == other["planned jobs"] > 0


def test_markdown_has_a_total_row_and_the_command_prints_it(smoke, tmp_path, monkeypatch, capsys):
    _write_summary(tmp_path, smoke, "smoke-regression", lambda job: 3599.0, keep=6)
    text = to_markdown(estimate(smoke, tmp_path))
    total = text.splitlines()[-1]
    cells = [cell.strip() for cell in total.strip("|").split("|")]
    assert cells[0] == "**total**" and cells[-2:] == ["6.00", "6.00"]  # 6 jobs x 1 h, all measured
    monkeypatch.chdir(tmp_path)
    assert main(["cost", "--config", str(ROOT / "config" / "smoke.yaml")]) == 0
    assert capsys.readouterr().out.strip() == text
