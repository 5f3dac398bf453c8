"""tests/workflow/cluster/compare_records.py: the check run_slurm.sh relies on must catch differences."""

import copy
import json
import math

import pytest

from .compare_records import main

RECORD = {
    "experiment": "smoke",
    "method": "cgboost-lp",
    "p_C": 1.0,
    "test_error": 0.046783625730994,
    "n_support": 43,
    "status": "optimal",
    "duality_gap": math.nan,
    "history": [
        {"iteration": 0, "objective": 296.0, "max_violation": -math.inf, "seconds": 0.01},
        {"iteration": 1, "objective": 12.5, "max_violation": 0.25, "seconds": 0.02},
    ],
    "fit_seconds": 1.44,
    "predict_seconds": 0.001,
    "versions": {"numpy": "2.4.6"},
    "host": "vm",
    "finished": "2026-11-23T14:09:53+0000",
}
NAME = "smoke/sk-breast-cancer/cgboost-lp/default/seed0-split1.json"


def _tree(root, records):
    for name, record in records.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record))
    return root


def _compare(tmp_path, right_record, *, right_name=NAME, extra=()):
    left = _tree(tmp_path / "left", {NAME: RECORD})
    right = _tree(tmp_path / "right", {right_name: right_record})
    return main([str(left), str(right), *extra])


def _changed(path, value):
    record = copy.deepcopy(RECORD)
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


def test_records_differing_only_in_timing_fields_are_equal(tmp_path, capsys):
    other = copy.deepcopy(RECORD)
    other.update(
        fit_seconds=9.0,
        predict_seconds=2.0,
        host="node1",
        finished="2027-01-01T00:00:00+0000",
        versions={"numpy": "3.0"},
    )
    for row in other["history"]:
        row["seconds"] *= 7
    assert _compare(tmp_path, other) == 0
    assert "1 records equal" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("test_error",), 0.05, "test_error"),
        (("n_support",), 44, "n_support"),
        (("status",), "max_iter", "status"),
        (("duality_gap",), 0.0, "duality_gap"),
        (("history", 1, "objective"), 12.6, "history[1].objective"),
        (("history", 0, "max_violation"), math.inf, "history[0].max_violation"),
        (("history",), RECORD["history"][:1], "history: 2 items != 1 items"),
        (("p_C",), "1.0", "p_C"),
    ],
)
def test_a_changed_result_field_fails_naming_the_file_and_field(tmp_path, capsys, path, value, field):
    assert _compare(tmp_path, _changed(path, value)) == 1
    err = capsys.readouterr().err
    assert NAME in err and field in err


def test_a_missing_field_or_file_fails(tmp_path, capsys):
    record = copy.deepcopy(RECORD)
    del record["n_support"]
    assert _compare(tmp_path / "field", record) == 1
    assert "n_support: missing on the right" in capsys.readouterr().err
    assert _compare(tmp_path / "file", RECORD, right_name=NAME.replace("split1", "split2")) == 1
    assert "missing from" in capsys.readouterr().err


def test_floats_agree_to_the_relative_tolerance_only(tmp_path):
    close = _changed(("test_error",), RECORD["test_error"] * (1 + 1e-12))
    assert _compare(tmp_path / "close", close) == 0
    far = _changed(("test_error",), RECORD["test_error"] * (1 + 1e-6))
    assert _compare(tmp_path / "far", far) == 1
    assert _compare(tmp_path / "loose", far, extra=["--rtol", "1e-5"]) == 0


def test_an_empty_or_missing_tree_is_an_error_not_a_pass(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    left = _tree(tmp_path / "left", {NAME: RECORD})
    assert main([str(left), str(tmp_path / "empty")]) == 2
    assert main([str(tmp_path / "absent"), str(left)]) == 2
    assert "holding record files" in capsys.readouterr().err
