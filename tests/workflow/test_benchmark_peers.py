"""The benchmarks that measure the peers users would pick beside ours (issue 44): cgens_across_c and mkl_speed.

Each runs with ``--quick --json`` as in test_benchmarks.py: with its peers (skipped
without the optional ``[peers]`` extra) and with their packages hidden, when the script
must still run and record the peers as skipped.
"""

import os
from pathlib import Path

import pytest

from .test_benchmarks import check_record, run_quick


def without(tmp_path: Path, *packages: str) -> dict[str, str]:
    """The environment of a run in which importing each of ``packages`` fails, as if it were not installed."""
    for package in packages:
        (tmp_path / "hidden" / package).mkdir(parents=True)
        (tmp_path / "hidden" / package / "__init__.py").write_text('raise ImportError("hidden by the test")\n')
    return {**os.environ, "PYTHONPATH": str(tmp_path / "hidden")}


STUMP_PEERS = ("LightGBM, num_leaves=2", "XGBoost, max_depth=1, hist")


def check_cgens_across_c(record: dict, peer_goals: int) -> None:
    """Per C: vs AdaBoost, vs each stump peer (``peer_goals`` of them), vs tight masters; at C = 1 also n_jobs=2 vs
    one thread and our masters vs liblinear's on the same path. Every method's fit time and test error in one table;
    the note on CG-Boost's n_jobs."""
    check_record(record, "cgens_across_c")
    per_C = ["<= 0.5", *["<= 1.0"] * peer_goals, None]
    assert [r["goal"] for r in record["ratios"]] == per_C * 2 + ["<= 0.6", None]
    jobs, one = record["timings"]["cgens"]["1.0"]["n_jobs=2"], record["timings"]["cgens"]["1.0"]["defaults"]
    assert record["ratios"][-2]["value"] == pytest.approx(jobs["seconds"] / one["seconds"])
    assert jobs["test_error"] == one["test_error"] and jobs["iterations"] == one["iterations"]  # the same model
    ada, cgens = record["timings"]["adaboost"], record["timings"]["cgens"]
    for C, r in zip(("0.01", "1.0"), record["ratios"][:: len(per_C)], strict=False):
        run = cgens[C]["defaults"]
        assert run["n_iter"] == 10 and r["value"] == pytest.approx(run["seconds"] / ada["seconds"])
        assert 0 <= run["test_error"] <= 1
    run, liblinear = cgens["1.0"]["defaults"], cgens["1.0"]["liblinear masters"]
    assert record["ratios"][-1]["value"] == pytest.approx(run["master_seconds"] / liblinear["seconds"])
    assert 0 < run["master_seconds"] < run["seconds"] and liblinear["objective_rel_diff"] < 1e-3  # the same optimum
    (table,) = record["tables"]
    assert [row[0] for row in table["rows"]] == [
        "scikit-learn AdaBoost (SAMME), stumps",
        "CGEns defaults, C = 0.01",
        "CGEns defaults, C = 1.0",
        *STUMP_PEERS,
        "LightGBM defaults",
        "XGBoost defaults",
    ]
    assert table["rows"][1][1:3] == [
        cgens["0.01"]["defaults"]["seconds"],
        100 * cgens["0.01"]["defaults"]["test_error"],
    ]
    assert any(note.startswith("issue 44's n_jobs goal for CG-Boost") for note in record["notes"])


@pytest.mark.mirror
def test_cgens_across_c(tmp_path, mirror):
    """Issue 44's goals against LightGBM and XGBoost with stumps: time, and the test error as the goal's condition."""
    pytest.importorskip("lightgbm", reason="the optional peer: pip install -e '.[peers]'")
    pytest.importorskip("xgboost", reason="the optional peer: pip install -e '.[peers]'")
    record = run_quick("cgens_across_c", tmp_path, "--mirror", str(mirror))
    check_cgens_across_c(record, peer_goals=2)
    peers, cgens = record["timings"]["peers"], record["timings"]["cgens"]
    assert set(peers) == {*STUMP_PEERS, "LightGBM defaults", "XGBoost defaults"}
    for C, at in (("0.01", 1), ("1.0", 5)):
        ours = cgens[C]["defaults"]
        for r, label in zip(record["ratios"][at : at + 2], STUMP_PEERS, strict=True):
            peer = peers[label]
            assert label in r["what"] and r["value"] == pytest.approx(ours["seconds"] / peer["seconds"])
            assert r["condition"]["met"] == (ours["test_error"] <= peer["test_error"] + 0.005)
            assert r["note"] == peer["version"] and peer["version"].split()[0] in {"lightgbm", "xgboost"}
    assert all(not note.startswith(STUMP_PEERS) for note in record["notes"])


@pytest.mark.mirror
def test_cgens_across_c_without_the_peers(tmp_path, mirror):
    """Without LightGBM and XGBoost (an optional extra) the script runs; their rows say skipped, their goals are not set."""
    env = without(tmp_path, "lightgbm", "xgboost")
    record = run_quick("cgens_across_c", tmp_path, "--mirror", str(mirror), env=env)
    check_cgens_across_c(record, peer_goals=0)
    assert {label: run for label, run in record["timings"]["peers"].items()} == {
        "LightGBM, num_leaves=2": {"skipped": "lightgbm not installed"},
        "XGBoost, max_depth=1, hist": {"skipped": "xgboost not installed"},
        "LightGBM defaults": {"skipped": "lightgbm not installed"},
        "XGBoost defaults": {"skipped": "xgboost not installed"},
    }
    assert record["tables"][0]["rows"][3] == ["LightGBM, num_leaves=2", "—", "—", "skipped: lightgbm not installed"]
    assert "LightGBM, num_leaves=2: skipped, lightgbm not installed" in record["notes"]


def check_mkl_speed(record: dict) -> list[dict]:
    """What every run records; returns the ratios against EasyMKL."""
    check_record(record, "mkl_speed")
    assert set(record["timings"]) == {"credit", "ionosphere", "sonar", "memory", "at_defaults"}  # the config's MKL sets
    memory = record["timings"]["memory"]
    assert memory["stack_bytes"] == memory["n_kernels"] * memory["n_train"] ** 2 * 8
    certificate = [r for r in record["ratios"] if r["what"].startswith("seconds to SimpleMKL's certificate")]
    assert len(certificate) == 3  # one per data set, at the same duality-gap certificate
    for ratio in certificate:
        assert ratio["value"] == pytest.approx(ratio["ours"]["value"] / ratio["peer"]["value"])
    defaults = [r for r in record["ratios"] if "issue 44's 30 s budget" in r["what"]]  # an absolute goal, as a ratio
    assert [r["what"].split("Classifier")[0] for r in defaults] == ["fit time SimpleMKL", "fit time SILP"]
    for r, name in zip(defaults, ("SimpleMKL", "SILP"), strict=True):
        assert "make_classification(150, 50), 20 kernels" in r["what"] and r["peer"]["value"] == 30.0
        assert (
            r["value"] == pytest.approx(record["timings"]["at_defaults"][name]["seconds"] / 30.0)
            and r["goal"] == "<= 1.0"
        )
    return [r for r in record["ratios"] if "/ EasyMKL" in r["what"]]


@pytest.mark.mirror
def test_mkl_speed(tmp_path, mirror):
    """SimpleMKL and SILP against EasyMKL on the same splits: time, and the test error within noise as the condition."""
    pytest.importorskip("MKLpy", reason="the optional peer: pip install -e '.[peers]'")
    record = run_quick("mkl_speed", tmp_path, "--mirror", str(mirror))
    easymkl = check_mkl_speed(record)
    assert len(easymkl) == 6  # SimpleMKL and SILP, per data set
    for r in easymkl:
        name, runs = r["what"].split()[2], record["timings"][r["what"].split("), ")[1].split(",")[0]]
        ours, peer = runs["simplemkl" if name == "SimpleMKL" else "silp"][0], runs["easymkl"][0]
        assert r["value"] == pytest.approx(ours["fit_seconds"] / peer["fit_seconds"])
        # one split (--quick): no standard error, the bound is one test point
        assert r["condition"]["met"] == (ours["test_error"] - peer["test_error"] <= 1 / peer["n_test"])
    assert not any(note.startswith("EasyMKL skipped") for note in record["notes"])


@pytest.mark.mirror
def test_mkl_speed_without_mklpy(tmp_path, mirror):
    env = without(tmp_path, "MKLpy")
    record = run_quick("mkl_speed", tmp_path, "--mirror", str(mirror), env=env)
    assert check_mkl_speed(record) == []
    assert set(record["timings"]["credit"]) == {"silp", "simplemkl"}
    assert [note.split(" (")[0] for note in record["notes"] if note.startswith("EasyMKL")] == [
        "EasyMKL skipped: MKLpy not installed"
    ]


def test_within_noise():
    import mkl_speed

    assert mkl_speed.within_noise([0.10, 0.20], [0.10, 0.10], 100) == (True, pytest.approx(0.05), pytest.approx(0.05))
    assert mkl_speed.within_noise([0.12, 0.12], [0.10, 0.10], 100) == (False, pytest.approx(0.02), 0.01)
    assert mkl_speed.within_noise([0.11], [0.10], 100)[0]  # one test point
    assert mkl_speed.within_noise([0.05, 0.05], [0.10, 0.10], 100)[0]  # better is within
    assert mkl_speed.within_noise([3 / 63, 2 / 63], [0.0, 2 / 63], 63)[0]  # the mean is its standard error
    assert not mkl_speed.within_noise([3 / 63, 3 / 63], [0.0, 2 / 63], 63)[0]
