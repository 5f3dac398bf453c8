"""The workflow's cost, measured and estimated from summary rows, on the smoke config."""

import pandas as pd
import pytest

from mkbench.harness.config import load_config, plan_jobs
from mkbench.harness.cli import main
from mkbench.harness.cost import estimate, to_markdown

from ..conftest import ROOT


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


def test_a_kind_is_priced_by_its_timing_samples_else_its_cpu_times_else_its_wall_times(smoke, tmp_path):
    experiment = "smoke-regression"  # 2 methods x 3 folds
    planned = plan_jobs(smoke, [experiment])
    first = planned[0].method
    jobs = _write_summary(tmp_path, smoke, experiment, lambda job: 99.0, keep=3)  # the first method only
    summary = pd.read_csv(tmp_path / "results" / "summary" / f"{experiment}.csv")
    summary.loc[0, ["fit_cpu_seconds", "predict_cpu_seconds"]] = [39.0, 1.0]  # one CPU-timed job, the others wall times
    summary.to_csv(tmp_path / "results" / "summary" / f"{experiment}.csv", index=False)
    assert jobs[0].method == first
    second = next(job for job in planned if job.method != first)
    samples = [
        {
            **vars(planned[1]),
            "fit_seconds": 500.0,
            "fit_cpu_seconds": 9.0,
            "predict_seconds": 1.0,
            "predict_cpu_seconds": 1.0,
        },  # the newest measure of its kind: it replaces the summary's CPU times too
        {
            **vars(second),
            "fit_seconds": 70.0,
            "fit_cpu_seconds": 19.0,
            "predict_seconds": 1.0,
            "predict_cpu_seconds": 1.0,
        },
        {
            **vars(second),
            "param": "C=999",
            "fit_seconds": 1e6,
            "fit_cpu_seconds": 1e6,
            "predict_seconds": 0.0,
            "predict_cpu_seconds": 0.0,
        },
    ]  # a job the config no longer plans prices nothing
    (tmp_path / "results" / "timing").mkdir(parents=True)
    pd.DataFrame(samples).to_csv(tmp_path / "results" / "timing" / f"{experiment}.csv", index=False)
    row = estimate(smoke, tmp_path).set_index("experiment").loc[experiment]
    assert row["measured jobs"] == 3 and row["measured CPU h"] * 3600 == pytest.approx(40.0 + 2 * 100.0)  # no sample
    assert row["unmeasured jobs"] == 0
    assert row["estimated CPU h"] * 3600 == pytest.approx(3 * 10.0 + 3 * 20.0)  # each kind at its sample's CPU time
    (tmp_path / "results" / "timing" / f"{experiment}.csv").unlink()  # without samples: the CPU-timed job, then walls
    row = estimate(smoke, tmp_path).set_index("experiment").loc[experiment]
    assert row["unmeasured jobs"] == 3 and row["estimated CPU h"] * 3600 == pytest.approx(3 * 40.0)
    summary["fit_cpu_seconds"] = float("nan")
    summary.to_csv(tmp_path / "results" / "summary" / f"{experiment}.csv", index=False)
    row = estimate(smoke, tmp_path).set_index("experiment").loc[experiment]
    assert row["estimated CPU h"] * 3600 == pytest.approx(3 * 100.0)


def test_markdown_has_a_total_row_and_the_command_prints_it(smoke, tmp_path, monkeypatch, capsys):
    _write_summary(tmp_path, smoke, "smoke-regression", lambda job: 3599.0, keep=6)
    text = to_markdown(estimate(smoke, tmp_path))
    total = text.splitlines()[-1]
    cells = [cell.strip() for cell in total.strip("|").split("|")]
    assert cells[0] == "**total**" and cells[-2:] == ["6.00", "6.00"]  # 6 jobs x 1 h, all measured
    monkeypatch.chdir(tmp_path)
    assert main(["cost", "--config", str(ROOT / "config" / "smoke.yaml")]) == 0
    assert capsys.readouterr().out.strip() == text


def test_fits_per_job_count_the_folds_the_grids_and_the_refit():
    from mkbench.harness.cost import fits_per_job

    assert fits_per_job({"estimator": "svc", "params": {}}) == 1
    assert (
        fits_per_job({"estimator": "staged-cv", "params": {"param_grid": {"C": [1, 2], "gamma": [1, 2, 3]}, "cv": 3}})
        == 19
    )
    assert fits_per_job({"estimator": "staged-cv", "params": {}}) == 6  # 5 folds (StagedSearchCV's default) + refit
    bandwidth = {"param_grid": {"C": [1, 2]}, "cv": 3, "svc_bandwidth_grid": {"C": [1], "gamma": [1, 2]}}
    assert fits_per_job({"estimator": "staged-cv", "params": bandwidth}) == 3 * 2 + 1 + 3 * 2


def test_a_plan_is_priced_from_the_measured_config_scaled_by_its_fits(smoke, tmp_path):
    """The full-protocol overlay idea on the smoke config: 3 -> 5 folds and 2 -> 3 splits."""
    experiment = "smoke-cgens"  # 4 staged-cv methods, cv 3, 2 splits
    _write_summary(tmp_path, smoke, experiment, lambda job: 99.0, keep=len(plan_jobs(smoke, [experiment])))
    overlay = tmp_path / "plan.yaml"
    overlay.write_text(
        "protocols: {holdout3: {name: random, test_size: 0.3, n_repeats: 3, stratify: true}}\n"
        f"experiments: {{{experiment}: {{protocol: holdout3, methods: {{cgens: {{params: {{cv: 5}}}}}}}}}}\n"
    )
    plan = load_config(ROOT / "config" / "smoke.yaml", overlay)
    assert plan["experiments"][experiment]["methods"]["cgens"]["params"]["param_grid"] == {"C": [0.1, 1.0]}  # merged
    row = estimate(smoke, tmp_path, plan=plan).set_index("experiment").loc[experiment]
    assert row["planned jobs"] == 4 * 3
    # per job 100 s measured; cgens: 5 x 2 + 1 = 11 fits instead of 3 x 2 + 1 = 7; the others unchanged
    assert row["estimated CPU h"] * 3600 == pytest.approx(3 * 100.0 * (11 / 7 + 3))
    assert estimate(smoke, tmp_path).set_index("experiment").loc[experiment, "estimated CPU h"] * 3600 == pytest.approx(
        8 * 100.0
    )


def test_an_overlay_changes_only_the_aliased_mapping_it_names(tmp_path):
    """YAML aliases share one mapping: an overlay on one name must not reach the other."""
    from mkbench.harness.config import _merge

    base = {"a": {"x": 1, "deep": {"y": 2}}}
    base["b"] = base["a"]  # what an alias gives
    _merge(base, {"a": {"deep": {"y": 3}}})
    assert base["a"]["deep"]["y"] == 3 and base["b"]["deep"]["y"] == 2 and base["a"]["x"] == 1


def test_roles_tell_the_papers_items_from_their_ablations(smoke, tmp_path, monkeypatch, capsys):
    """An experiment behind an entry's table or figure is 'paper', one behind its sensitivity tables only is
    'sensitivity', any other 'other'; the Markdown gets a role column and a subtotal per role."""
    from mkbench.harness.catalogue import Entry, Sensitivity
    from mkbench.harness.cost import roles

    entries = [
        Entry(
            paper="p",
            item="Table 1",
            shows="",
            tables=("smoke-regression",),
            sensitivity=(Sensitivity("smoke-classification", "{method}~"),),
        )
    ]
    by_role = roles(smoke, entries)
    assert by_role["smoke-regression"] == "paper" and by_role["smoke-classification"] == "sensitivity"
    assert by_role["smoke-mark"] == "other"
    _write_summary(tmp_path, smoke, "smoke-regression", lambda job: 3599.0, keep=6)
    _write_summary(tmp_path, smoke, "smoke-classification", lambda job: 1799.0, keep=2)
    text = to_markdown(estimate(smoke, tmp_path), by_role)
    rows = {
        cells[0]: cells for cells in ([c.strip() for c in line.strip("|").split("|")] for line in text.splitlines())
    }
    assert rows["**paper total**"][1:2] == ["paper"] and rows["**paper total**"][-1] == "6.00"  # 6 jobs x 1 h
    assert rows["**sensitivity total**"][-2] == "1.00"  # 2 measured jobs x 0.5 h
    assert rows["**total**"][-2] == "7.00"
    assert rows["smoke-mark"][1] == "other"


def test_cost_command_with_the_catalogue_prices_the_papers_items_apart(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    config, catalogue = "config/config.yaml", "config/reproduction.yaml"
    assert main(["cost", "--config", config, "--catalogue", catalogue]) == 0
    lines = capsys.readouterr().out.splitlines()
    cells = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in lines[2:]}
    assert cells["cgens-table1"] == cells["cgboost-table1"] == cells["**paper total**"] == "paper"
    assert cells["cgboost-sensitivity-raw"] == cells["**sensitivity total**"] == "sensitivity"


def test_cpu_time_is_priced_where_the_records_have_it(smoke, tmp_path):
    """A job's CPU seconds (records since 2026-11-26) price it; older rows without them fall back to wall time."""
    experiment = "smoke-regression"
    jobs = plan_jobs(smoke, [experiment])
    rows = [
        {
            **vars(job),
            "fit_seconds": 100.0,
            "predict_seconds": 10.0,
            "fit_cpu_seconds": 40.0 if k % 2 == 0 else None,
            "predict_cpu_seconds": 2.0 if k % 2 == 0 else None,
        }
        for k, job in enumerate(jobs)
    ]
    (tmp_path / "results" / "summary").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(tmp_path / "results" / "summary" / f"{experiment}.csv", index=False)
    row = estimate(smoke, tmp_path).set_index("experiment").loc[experiment]
    cpu_rows, wall_rows = (len(jobs) + 1) // 2, len(jobs) // 2
    assert row["measured CPU h"] * 3600 == pytest.approx(cpu_rows * 42.0 + wall_rows * 110.0)
    # each method has CPU-timed jobs: they are its sample, and its wall-timed ones price nothing
    assert {job.method for k, job in enumerate(jobs) if k % 2 == 0} == {job.method for job in jobs}
    assert row["estimated CPU h"] * 3600 == pytest.approx(len(jobs) * 42.0)


def test_a_search_with_nothing_to_choose_is_one_fit():
    from mkbench.harness.cost import fits_per_job

    fixed = {"estimator": "staged-cv", "params": {"params": {"C": 0.001}, "n_iters": None, "cv": 5}}
    assert fits_per_job(fixed) == 1
    assert fits_per_job({**fixed, "params": {**fixed["params"], "n_iters": [500]}}) == 1
    assert fits_per_job({**fixed, "params": {**fixed["params"], "param_grid": {"C": [0.1, 1.0]}}}) == 11
