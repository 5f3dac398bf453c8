"""Early stopping of traced runs by a table (``stop``) and one grid setting read alone (``fixed``), on synthetic
records (issue 43: CG-Boost Table 1's readings of column generation stopped early)."""

import numpy as np
import pandas as pd
import pytest

from mkbench.exceptions import ConfigError
from mkbench.harness.report import base_method, write_table
from mkbench.harness.stopping import keep_settings, stop_by

KEYS = {"experiment": "e", "dataset": "d", "seed": 1, "split": 0}


def _job(method, param, strategy, status, trace):
    """One record and its history: ``trace`` rows (validation, test, gap, objective, violation, used_linear)."""
    record = {
        **KEYS,
        "method": method,
        "param": param,
        "p_strategy": strategy,
        "status": status,
        "train_error": 0.0,
        "validation_error": trace[-1][0],
        "test_error": trace[-1][1],
        "columns_linear": trace[-1][5],
        "n_support": trace[-1][5],
        "n_iter": len(trace) - 1,
        "fit_seconds": 99.0,
    }
    history = [
        {
            **KEYS,
            "method": method,
            "param": param,
            "iteration": t,
            "n_columns": t,
            "seconds": float(t),
            "validation_error": v,
            "test_error": te,
            "train_error": v / 2,
            "duality_gap": gap,
            "objective": obj,
            "max_violation": viol,
            "used_linear": used,
        }
        for t, (v, te, gap, obj, viol, used) in enumerate(trace)
    ]
    return record, history


def _frames(*jobs):
    return pd.DataFrame([r for r, _ in jobs]), pd.DataFrame([row for _, h in jobs for row in h])


TRACE = [  # validation, test, gap, objective, max violation, columns used
    (0.50, 0.51, 10.0, 1.0, 1.0, 0),
    (0.20, 0.22, 0.5, 1.0, 0.1, 1),
    (0.10, 0.12, 0.05, 1.0, 0.01, 2),
    (0.10, 0.11, 0.005, 1.0, 0.001, 3),
    (0.15, 0.16, 0.0, 1.0, 0.0, 3),
]


def test_the_validation_minimum_is_read_first_of_ties():
    records, history = _frames(_job("m~full", "C=1", "full", "optimal", TRACE))
    row = stop_by(records, history, "validation_error").iloc[0]
    assert (row["s_n_columns"], row["test_error"], row["train_error"]) == (2, 0.12, 0.05)
    assert (row["columns_linear"], row["n_support"], row["n_iter"], row["fit_seconds"]) == (2, 2, 2, 2.0)
    assert not row["stop_at_end"]


@pytest.mark.parametrize("rule, columns", [("gap_tol=0.1", 2), ("gap_tol=0.01", 3), ("tol=0.05", 2), ("tol=0.1", 1)])
def test_a_tolerance_stops_at_the_first_iteration_within_it(rule, columns):
    records, history = _frames(_job("m~full", "C=1", "full", "optimal", TRACE))
    assert stop_by(records, history, rule).iloc[0]["s_n_columns"] == columns


def test_a_rule_that_never_stops_within_a_cut_run_gives_no_value_and_says_so():
    cut = [row for row in TRACE[:3]]
    records, history = _frames(_job("m~full", "C=1", "full", "max_iter", cut))
    row = stop_by(records, history, "gap_tol=0.001").iloc[0]
    assert np.isnan(row["test_error"]) and row["stop_at_end"]
    no_gap = stop_by(records, history.assign(duality_gap=np.nan), "gap_tol=0.1").iloc[0]  # e.g. stratified scans
    assert np.isnan(no_gap["test_error"]) and no_gap["stop_at_end"]
    at_cap = stop_by(records, history, "validation_error").iloc[0]  # the minimum at the last row of a cut run
    assert at_cap["s_n_columns"] == 2 and at_cap["stop_at_end"]


def test_tol_reads_full_scans_only_and_bad_rules_are_refused():
    records, history = _frames(
        _job("m~full", "C=1", "full", "optimal", TRACE), _job("m~strat", "C=1", "stratified", "optimal", TRACE)
    )
    assert list(stop_by(records, history, "tol=0.05")["method"]) == ["m~full"]
    for bad in ("gap_tol=x", "nonsense=1"):
        with pytest.raises(ConfigError, match="stop rule"):
            stop_by(records, history, bad)
    with pytest.raises(ConfigError, match="needs 'no_such_error'"):
        stop_by(records, history, "no_such_error")


def test_fixed_keeps_one_setting_and_refuses_an_absent_one():
    records, _ = _frames(
        _job("m~a", "C=1", "full", "optimal", TRACE),
        _job("m~a", "C=10", "full", "optimal", TRACE),
        _job("other", "C=10", "full", "optimal", TRACE),
    )
    kept = keep_settings(records, {"m~*": "C=10"})
    assert sorted(zip(kept["method"], kept["s_param"].fillna(kept["param"]), strict=True)) == [
        ("m~a", "C=10"),
        ("other", "C=10"),
    ]
    with pytest.raises(ConfigError, match="no record of the methods 'm~\\*' has the setting 'C=3'"):
        keep_settings(records, {"m~*": "C=3"})


def test_a_table_stops_then_selects_jointly_and_labels_several_rules(tmp_path):
    low = [(v + 0.05, t + 0.05, g, o, x, u) for v, t, g, o, x, u in TRACE]
    records, history = _frames(
        _job("m~full", "C=1", "full", "optimal", TRACE), _job("m~full", "C=10", "full", "optimal", low)
    )
    table = write_table(
        records,
        ["test_error", "columns_linear"],
        tmp_path / "t",
        caption="c",
        select="validation_error",
        stop="validation_error",
        history=history,
    )
    assert table.set_index("metric").loc["test_error", "ours_mean"] == 0.12  # C = 1 at 2 columns, jointly
    several = write_table(
        records,
        ["test_error"],
        tmp_path / "u",
        caption="c",
        fixed={"m~*": "C=1"},
        stop=["validation_error", "gap_tol=0.01"],
        history=history,
    )
    assert sorted(several["method"]) == ["m~full (stop gap_tol=0.01)", "m~full (stop validation_error)"]
    assert set(base_method(several["method"])) == {"m"}
    with pytest.raises(ConfigError, match="needs the runs' histories"):
        write_table(records, ["test_error"], tmp_path / "v", caption="c", stop="validation_error")


def test_grid_edges_tell_tiny_grid_values_apart():
    """A choice at 2.37e-14 in a grid from 2.37e-22 is inside it (numpy's default atol would call them equal)."""
    from mkbench.harness.selection import grid_edges

    grid = [2.37e-22, 2.37e-18, 2.37e-14, 2.37e-10]
    records = pd.DataFrame(
        [
            {
                **KEYS,
                "method": "m",
                "param": f"C={c:g}",
                "status": "optimal",
                "validation_error": 0.1 if c == 2.37e-14 else 0.3,
            }
            for c in grid
        ]
    )
    edges = grid_edges(records, "validation_error")
    assert (edges["n_low"] == 0).all() and (edges["n_high"] == 0).all()
