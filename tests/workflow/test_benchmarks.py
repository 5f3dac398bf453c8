"""The benchmark scripts (benchmarks/*.py) and the dashboard that gathers them (issue 8).

Every script runs here with ``--quick --json`` (tiny sizes: this checks that it
runs and what it records, not the speed); the data-based ones need the mirror.
The dashboard is rendered from a script's record and a hand-made one with a
scaling series; the Snakemake target ``bench`` plans every script.
"""

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mkbench.harness.config import load_config
from mkbench.harness.cost import estimate, to_markdown

from ..conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
SNAKEMAKE = shutil.which("snakemake") or str(Path(sys.executable).with_name("snakemake"))
sys.path.insert(0, str(BENCHMARKS))  # the scripts import their shared module as `_common`

import _common  # noqa: E402

ISSUES = {
    "pricing": 3,
    "lp_routes": 20,
    "fit_time": 20,
    "mark_scalability": 4,
    "mkl_speed": 6,
    "cgens_speed": 7,
    "cgens_across_c": 20,
    "sls_master": 20,
    "perceptron_pricing": 20,
    "stump_rows": 20,
    "mkl_precomputed": 48,
    "defaults": 42,
    "stump_binning": 44,
}


def run(script: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / f"{script}.py"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def run_quick(name: str, tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    out = tmp_path / f"{name}.json"
    done = run(name, "--quick", "--json", str(out), *args, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the script must keep printing its results"
    return json.loads(out.read_text())


def check_record(record: dict, name: str) -> None:
    assert record["benchmark"] == name and record["issue"] == ISSUES[name]
    assert record["parameters"]["quick"] is True and "json" not in record["parameters"]
    assert record["ratios"], "every benchmark measures at least one ratio"
    for r in record["ratios"]:
        assert set(r) == {"what", "ours", "peer", "value", "goal", "met", "condition", "note"}
        for side in (r["ours"], r["peer"]):
            assert set(side) == {"label", "value", "unit"} and math.isfinite(side["value"])
        if r["goal"] is None:
            assert r["met"] is None
        else:  # met is the goal applied to the value (a benchmark may add a condition, never relax one)
            assert isinstance(r["met"], bool) and (not r["met"] or _common.goal_met(r["value"], r["goal"]))
        if r["condition"] is not None:  # ... and then met needs both
            assert r["goal"] is not None and set(r["condition"]) == {"what", "met"}
            assert r["met"] == (_common.goal_met(r["value"], r["goal"]) and r["condition"]["met"])
    for s in record["series"]:
        assert len(s["sizes"]) == len(s["seconds"]) >= 2 and min(s["seconds"]) > 0
    machine = record["machine"]
    assert machine["cores"] >= 1 and machine["cpu"] and machine["python"]
    assert {"numpy", "scipy", "scikit-learn", "highspy", "lightgbm", "xgboost", "MKLpy"} <= set(machine["packages"])
    assert len(record["load"]["start"]) == len(record["load"]["end"]) == 3
    assert record["wall_seconds"] > 0 and record["command"].startswith("python ")


@pytest.fixture(scope="module")
def pricing_record(tmp_path_factory) -> dict:
    return run_quick("pricing", tmp_path_factory.mktemp("pricing"))


def test_goal_met():
    assert _common.goal_met(0.2, "<= 0.25") and not _common.goal_met(0.3, "<= 0.25")
    assert _common.goal_met(4.0, ">= 4") and not _common.goal_met(3.9, ">= 4")
    assert not _common.goal_met(float("nan"), "<= 0.25")
    assert _common.goal_met(1.0, None) is None
    with pytest.raises(ValueError, match="goal"):
        _common.goal_met(1.0, "at most 2")


def test_a_condition_qualifies_the_goal():
    ours, peer = _common.measure("ours", 1.0), _common.measure("peer", 2.0)
    met = _common.ratio("t", ours, peer, 0.5, "<= 1.0", condition=("test error <= peer's + 0.5 points", True))
    assert met["met"] is True and met["condition"] == {"what": "test error <= peer's + 0.5 points", "met": True}
    assert _common.ratio("t", ours, peer, 0.5, "<= 1.0", condition=("accurate", False))["met"] is False
    assert _common.ratio("t", ours, peer, 1.5, "<= 1.0", condition=("accurate", True))["met"] is False
    assert _common.ratio("t", ours, peer, 0.5, "<= 1.0")["condition"] is None
    with pytest.raises(ValueError, match="a condition .* qualifies a goal"):
        _common.ratio("t", ours, peer, 0.5, None, condition=("accurate", True))


def test_loglog_slope_and_series():
    sizes = [1000, 2000, 4000, 8000]
    assert _common.loglog_slope(sizes, [3e-6 * n**1.5 for n in sizes]) == pytest.approx(1.5)
    with pytest.raises(ValueError, match="2 sizes but 3 times"):
        _common.series("x", [1, 2], [1.0, 2.0, 3.0])


def test_best_of_takes_the_shortest(monkeypatch):
    clock = iter([0.0, 5.0, 10.0, 12.0, 20.0, 23.0])  # calls of 5, 2 and 3 seconds
    monkeypatch.setattr(_common.time, "perf_counter", lambda: next(clock))
    assert _common.best_of(lambda: None, repeats=3) == 2.0


def test_pricing(pricing_record):
    check_record(pricing_record, "pricing")
    assert pricing_record["ratios"][0]["goal"] == ">= 0.5"
    assert pricing_record["timings"]["full_gram_bytes"] == 3 * 1000**2 * 8


def test_lp_routes(tmp_path):
    record = run_quick("lp_routes", tmp_path)
    check_record(record, "lp_routes")
    [regime] = record["timings"]["regimes"]  # --quick: one regime
    routes = list(regime["seconds"])
    assert len(routes) == 5 and routes[0].startswith("dual, dual simplex, warm (DualLPMaster: LPBoost's default)")
    assert [r["goal"] for r in record["ratios"]] == [">= 0.83"] * 4  # LPBoost's route vs each other route
    for r, route in zip(record["ratios"], routes[1:], strict=True):
        assert r["value"] == pytest.approx(regime["seconds"][route] / regime["seconds"][routes[0]])


@pytest.mark.mirror
def test_fit_time(tmp_path, mirror):
    record = run_quick("fit_time", tmp_path, "--mirror", str(mirror))
    check_record(record, "fit_time")
    # per pixel scaling and variant: the time against the SVC grid, then the error against SVC(); goals at the
    # defaults; the defaults with n_jobs=2 give one ratio, their time against the one-thread defaults' (issue 44)
    goals = ["<= 0.25", "<= 0.5", "<= 0.6"] + [None] * 4
    assert [r["goal"] for r in record["ratios"]] == goals * 2
    variants = ["defaults", "defaults", "defaults", "paper", "paper", "paper-clarabel", "paper-clarabel"]
    assert [r["what"].split("(")[1].split(")")[0] for r in record["ratios"]] == variants * 2
    assert ["n_jobs=2 / one thread" in r["what"] for r in record["ratios"]] == [False, False, True, *[False] * 4] * 2
    assert ["raw pixels" in r["what"] for r in record["ratios"]] == [True] * 7 + [False] * 7
    assert ["centred pixels" in r["what"] for r in record["ratios"]] == [False] * 7 + [True] * 7
    threads = record["ratios"][2]
    assert threads["value"] == pytest.approx(threads["ours"]["value"] / threads["peer"]["value"])


def test_perceptron_pricing(tmp_path):
    """The script itself fails unless both scorings choose the same perceptrons with the same scores."""
    record = run_quick("perceptron_pricing", tmp_path)
    check_record(record, "perceptron_pricing")
    (r,) = record["ratios"]
    assert r["value"] == pytest.approx(r["ours"]["value"] / r["peer"]["value"]) and "m = 100, d = 5" in r["what"]


def test_defaults(tmp_path):
    """Each estimator and its peer fitted on the same split; a row per estimator x data set, its goals judged."""
    record = run_quick("defaults", tmp_path)
    check_record(record, "defaults")
    (table,) = record["tables"]
    rows = {(row[0], row[1]): row for row in table["rows"]}
    assert set(rows) == {
        ("CGBoostClassifier", "breast-cancer"),
        ("CGEnsClassifier", "breast-cancer"),
        ("CGBoostRegressor", "diabetes"),
    }
    assert rows[("CGBoostClassifier", "breast-cancer")][5] == "SVC()"
    assert rows[("CGEnsClassifier", "breast-cancer")][5] == "HistGradientBoostingClassifier()"
    assert rows[("CGBoostRegressor", "diabetes")][8].startswith("MSE: ")
    # the learner ensembles also beside boosted stumps (shown, not judged); the kernel methods are not
    assert (
        rows[("CGEnsClassifier", "breast-cancer")][9] != "-" and rows[("CGBoostClassifier", "breast-cancer")][9] == "-"
    )
    r = record["ratios"][0]
    assert r["value"] == pytest.approx(sum(row[-1] == "yes" for row in table["rows"]) / 3)
    # a second ratio, without a goal, only where a learner ensemble misses a goal
    missed = rows[("CGEnsClassifier", "breast-cancer")][-1] == "no"
    assert [x["goal"] for x in record["ratios"][1:]] == ([None] if missed else [])


def test_stump_rows(tmp_path):
    """The script itself fails unless the fused search chooses the stumps of the searches one by one."""
    record = run_quick("stump_rows", tmp_path)
    check_record(record, "stump_rows")
    (r,) = record["ratios"]
    assert r["value"] == pytest.approx(r["ours"]["value"] / r["peer"]["value"]) and "l = 3" in r["what"]


@pytest.mark.mirror
def test_sls_master(tmp_path, mirror):
    """Our J x J master against eq. 20's: the script itself fails unless both reach the same objectives."""
    record = run_quick("sls_master", tmp_path, "--mirror", str(mirror))
    check_record(record, "sls_master")
    (r,) = record["ratios"]
    timings = record["timings"]
    assert r["value"] == pytest.approx(timings["ours"] / timings["sherman_morrison"]) and timings["m"] == 500


@pytest.mark.mirror
def test_mark_scalability(tmp_path, mirror):
    record = run_quick("mark_scalability", tmp_path, "--mirror", str(mirror))
    check_record(record, "mark_scalability")
    assert [s["x"] for s in record["series"]] == ["N", "N"]  # MARK-L and SVR against N
    slope = record["ratios"][0]
    assert slope["value"] == pytest.approx(
        _common.loglog_slope(record["series"][0]["sizes"], record["series"][0]["seconds"])
    )
    equal, timing = record["ratios"][1], record["timings"]["equal_mse"]
    assert timing["svr_test_mse"] == record["timings"]["runs"][-1]["svr_test_mse"]
    assert timing["reached"] == (timing["test_mse"] <= timing["svr_test_mse"])
    assert equal["goal"] == "<= 1.0"  # issue 20's goal, replacing issue 4's <= 0.25
    assert equal["met"] == (timing["reached"] and equal["value"] <= 1.0)
    nystroem, peer = record["ratios"][2], record["timings"]["nystroem_ridge"]  # issue 44's goal, if MARK-L gets there
    assert nystroem["goal"] == "<= 1.0" and nystroem["ours"] == equal["ours"]
    assert nystroem["condition"] == {"what": "MARK-L reaches SVR's test MSE", "met": timing["reached"]}
    assert nystroem["met"] == (timing["reached"] and nystroem["value"] <= 1.0)
    assert nystroem["value"] == pytest.approx(timing["seconds"] / peer["seconds"])
    assert peer["n_components"] == 100 and peer["alpha"] in peer["alphas"]
    assert peer["reaches_svr"] == (peer["test_mse"] <= timing["svr_test_mse"])


@pytest.mark.mirror
def test_cgens_speed_and_figure2(tmp_path, mirror):
    figure = tmp_path / "figure2.png"
    record = run_quick("cgens_speed", tmp_path, "--mirror", str(mirror), "--figure", str(figure))
    check_record(record, "cgens_speed")
    runs = record["timings"]["iterations_run"]
    for name in ("CGEns", "LPBoost"):  # exactly max_iter learners, a cumulative time per iteration
        assert runs[name]["n_iter"] == len(runs[name]["curve"]) == record["parameters"]["max_iter"]
        assert runs[name]["curve"] == sorted(runs[name]["curve"]) and runs[name]["curve"][-1] <= runs[name]["seconds"]
    assert figure.read_bytes()[:4] == b"\x89PNG" and figure.with_suffix(".pdf").read_bytes()[:4] == b"%PDF"
    search = record["ratios"][0]
    assert search["what"].startswith("stump search time") and search["goal"] is None
    assert search["value"] == pytest.approx(search["ours"]["value"] / search["peer"]["value"])


def test_dashboard(tmp_path, pricing_record):
    pricing = tmp_path / "pricing.json"
    pricing.write_text(json.dumps(pricing_record))
    scaling = tmp_path / "scaling.json"
    record = _common.Record("scaling", 4, "a scaling series", _common.parser("x").parse_args(["--json", str(scaling)]))
    record.add_series("ours", [100, 200, 400], [1.0, 2.0, 4.0], x="N")
    record.add_ratio("time ours / peer", _common.measure("ours", 1.0), _common.measure("peer", 5.0), 0.2, "<= 0.25")
    for accurate in (True, False):  # a goal with a condition: met needs both
        record.add_ratio(
            f"time ours / peer, accurate {accurate}",
            _common.measure("ours", 1.0),
            _common.measure("peer", 2.0),
            0.5,
            "<= 1.0",
            condition=("test error <= peer's + 0.5 points", accurate),
        )
    record.add_table(
        "side by side",
        ["data set", "method", "test error"],
        [["toy", "ours", 0.25], ["toy", "peer", float("nan")]],
        note="a note",
    )
    record.write()
    out, figure = tmp_path / "BENCHMARKS.md", tmp_path / "figures" / "scaling.png"
    done = run(
        "dashboard",
        str(pricing),
        str(scaling),
        "--out",
        str(out),
        "--figure",
        str(figure),
        "--config",
        "config/smoke.yaml",
    )
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    # the cost of the smoke experiments, from whatever summaries the working copy holds
    cost = text.split("## What the workflow costs")[1].split("##")[0]
    assert "`mkbench cost --config config/smoke.yaml`" in cost
    assert to_markdown(estimate(load_config(ROOT / "config" / "smoke.yaml"), ROOT)) in cost
    assert "| issue | benchmark | what | ours vs peer | ratio | goal | met |" in text
    rows = [line for line in text.splitlines() if line.startswith(("| 3 |", "| 4 |"))]
    assert len(rows) == len(pricing_record["ratios"]) + 3
    assert "| 4 | scaling | time ours / peer | ours: 1 s vs peer: 5 s | 0.2 | <= 0.25 | met |" in rows
    goal = "<= 1.0, and test error <= peer's + 0.5 points"
    assert f"| 4 | scaling | time ours / peer, accurate True | ours: 1 s vs peer: 2 s | 0.5 | {goal} | met |" in rows
    assert (
        f"| 4 | scaling | time ours / peer, accurate False | ours: 1 s vs peer: 2 s | 0.5 | {goal} | "
        "**not met** (test error <= peer's + 0.5 points: not met) |"
    ) in rows
    assert pricing_record["machine"]["cpu"] in text and "snakemake bench" in text
    assert "](figures/scaling.png)" in text and figure.read_bytes()[:4] == b"\x89PNG"
    side = text.split("## Side by side")[1].split("## Scaling")[0]  # the tables, after the ratios
    assert (
        "### scaling: side by side\n\n| data set | method | test error |\n|:---|:---|---:|\n"
        "| toy | ours | 0.25 |\n| toy | peer | — |\n\na note\n"
    ) in side


def test_dashboard_shows_the_workflows_peer_tables(tmp_path, pricing_record):
    pricing = tmp_path / "pricing.json"
    pricing.write_text(json.dumps(pricing_record))
    built, missing = tmp_path / "mkl-peers.md", tmp_path / "cgens-table1-peers.md"
    built.write_text("A caption.\n\n| dataset | method |\n|:--|:--|\n| sonar | easymkl † |\n")
    out = tmp_path / "BENCHMARKS.md"
    done = run(
        "dashboard",
        str(pricing),
        "--out",
        str(out),
        "--figure",
        str(tmp_path / "f.png"),
        "--tables",
        str(built),
        str(missing),
    )
    assert done.returncode == 0, done.stderr
    side = out.read_text().split("## Side by side")[1].split("## Scaling")[0]
    assert f"### workflow: mkl-peers (`{built}`, config/peers.yaml)\n\nA caption.\n\n| dataset | method |" in side
    assert "| sonar | easymkl † |" in side
    assert f"### workflow: cgens-table1-peers (`{missing}`, config/peers.yaml)\n\nNot built here: `snakemake" in side


def test_versions():
    assert _common.versions(["numpy", "no-such-package-here"]) == f"numpy {np.__version__}, no-such-package-here absent"


def test_table_rows_match_columns():
    assert _common.table("t", ["a", "b"], [["x", 1]])["rows"] == [["x", 1]]
    with pytest.raises(ValueError, match="a row of 1 cells for 2 columns"):
        _common.table("t", ["a", "b"], [["x"]])


def test_dashboard_rejects_other_json(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"benchmark": "x"}))
    done = run("dashboard", str(other), "--out", str(tmp_path / "B.md"), "--figure", str(tmp_path / "f.png"))
    assert done.returncode != 0 and "not a benchmark record" in done.stderr
    assert not (tmp_path / "B.md").exists()


def test_snakemake_bench_plans_every_script(tmp_path):
    for item in ("workflow", "config", "benchmarks"):  # an empty working copy: no output hides a job
        shutil.copytree(ROOT / item, tmp_path / item)
    done = subprocess.run(
        [SNAKEMAKE, "bench", "-n", "--cores", "2", "--quiet", "rules", "--configfile", "config/smoke.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]  # the job stats: "<rule> <count>"
    counts = {row[0]: int(row[1]) for row in rows if len(row) == 2 and row[1].isdigit()}
    # one record per script (cgens_speed has its own rule: it also draws Figure 2), then the dashboard
    assert counts == {"bench_record": len(ISSUES) - 1, "bench_cgens_speed": 1, "bench": 1, "total": len(ISSUES) + 1}


@pytest.mark.parametrize("configfile", ["config/config.yaml", "config/smoke.yaml"])
def test_no_config_figure_is_a_benchmark_output(configfile):
    # rule all asks for the config's figures only; one named like these would collide with the bench rules
    figures = load_config(ROOT / configfile)["figures"]
    assert not {"cgens-figure2", "bench-scaling"} & set(figures)
