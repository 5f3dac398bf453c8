"""Hyper-parameters chosen at a grid edge: counted from hand-made records of both selection routes, listed
under tables and counted in REPRODUCTION.md."""

import pandas as pd
import pytest
import yaml

from mkbench.harness.report import write_table
from mkbench.harness.reproduction import build_reproduction
from mkbench.harness.selection import describe_edges, grid_edges


def _validation_records():
    """Method m, grid C in {0.1, 1, 10} and nu in {0.5} (one value: never a choice), 4 splits.

    The lowest validation error (0.1) is at C = 10 (splits 0, 1), C = 1 (split 2) and C = 0.1 (split 3); the
    other settings are worse by 0.2, 0.05, 0.8 and 0.1: the margin of the edge choices is at most 0.2 (split 2
    chose inside the grid, so its margin never counts).
    """
    best = {0: "10", 1: "10", 2: "1", 3: "0.1"}
    worse = {0: 0.3, 1: 0.15, 2: 0.9, 3: 0.2}
    rows = []
    for split, chosen in best.items():
        for c in ("0.1", "1", "10"):
            rows.append(
                {
                    "dataset": "d",
                    "method": "m",
                    "seed": 0,
                    "split": split,
                    "status": "optimal",
                    "param": f"C={c},nu=0.5",
                    "validation_error": 0.1 if c == chosen else worse[split],
                    "test_error": 0.2,
                }
            )
    return pd.DataFrame(rows)


def test_validation_choices_at_the_top_and_bottom_of_the_grid_are_counted():
    edges = grid_edges(_validation_records(), "validation_error")
    assert edges.to_dict("records") == [
        {
            "dataset": "d",
            "method": "m",
            "parameter": "C",
            "low": 0.1,
            "high": 10.0,
            "n_runs": 4,
            "n_low": 1,
            "n_high": 2,
            "margin": pytest.approx(0.2),
        }
    ]
    assert describe_edges(edges) == [
        "m C: top (10) in 2, bottom (0.1) in 1 of 4 runs (the best setting inside the grid at most 0.2 worse)"
    ]
    assert grid_edges(_validation_records(), None).empty  # no selection: every setting is its own row


def test_a_tie_that_reaches_inside_the_grid_is_not_an_edge_choice():
    records = _validation_records()
    scores = {
        0: {"0.1": 0.1, "1": 0.1, "10": 0.1},  # the same model for every C: no edge
        1: {"0.1": 0.1, "1": 0.1, "10": 0.3},  # ties at the bottom and inside: no edge
        2: {"0.1": 0.3, "1": 0.2, "10": 0.2},  # ties inside and at the top: no edge
        3: {"0.1": 0.3, "1": 0.3, "10": 0.2},
    }  # the top alone: an edge
    records["validation_error"] = [scores[r.split][r.param.split(",")[0][2:]] for r in records.itertuples()]
    edges = grid_edges(records, "validation_error")
    assert edges[["n_runs", "n_low", "n_high"]].values.tolist() == [[4, 0, 1]]


def test_cross_validated_choices_read_the_grid_and_the_default_iteration_counts():
    rows = [
        {
            "dataset": "d",
            "method": "cv",
            "estimator": "staged-cv",
            "seed": 0,
            "split": s,
            "status": "optimal",
            "param": "default",
            "p_param_grid": "{'C': [0.01, 0.1, 1.0]}",
            "s_C": c,
            "p_svc_bandwidth_grid": "{'C': [1.0], 'gamma': [0.1, 1.0]}",
            "s_gamma": 0.1,
            "s_max_iter": it,
            "p_n_iters": float("nan"),
        }
        for s, (c, it) in enumerate([(0.1, 25), (1.0, 100), (0.01, 500)])
    ]
    edges = grid_edges(pd.DataFrame(rows)).set_index("parameter")
    assert edges.loc["C", ["n_runs", "n_low", "n_high"]].tolist() == [3, 1, 1]
    assert edges.loc["gamma", ["low", "high", "n_low", "n_high"]].tolist() == [0.1, 1.0, 3, 0]
    # StagedSearchCV's default iteration counts are 25 ... 500
    assert edges.loc["iterations", ["low", "high", "n_low", "n_high"]].tolist() == [25, 500, 1, 1]
    one_count = pd.DataFrame(
        [{**rows[0], "p_n_iters": "[500]", "p_param_grid": "{'C': [1.0]}", "s_C": 1.0, "p_svc_bandwidth_grid": None}]
    )
    assert grid_edges(one_count).empty  # a grid of one value is not a choice


def test_tables_list_the_choices_at_an_edge(tmp_path):
    write_table(_validation_records(), ["test_error"], tmp_path / "t", caption="T", select="validation_error")
    text = (tmp_path / "t.md").read_text()
    assert text.rstrip().endswith(
        "Chosen at an edge of the grid (the grid may be too short): m C: top (10) in 2, "
        "bottom (0.1) in 1 of 4 runs (the best setting inside the grid at most 0.2 worse)."
    )


def test_tables_list_the_grid_settings_that_failed(tmp_path):
    records = _validation_records()
    top = records["param"] == "C=10,nu=0.5"
    records.loc[top & (records["split"] < 2), "status"] = "failed: the solver stopped"  # the top fails twice
    records.loc[top & (records["split"] < 2), "validation_error"] = float("nan")
    write_table(records, ["test_error"], tmp_path / "t", caption="T", select="validation_error")
    text = (tmp_path / "t.md").read_text()
    assert text.rstrip().endswith(
        "Grid settings that failed, left out of the choice (see the records' status): m C=10,nu=0.5 in 2 of 4 runs."
    )
    write_table(_validation_records(), ["test_error"], tmp_path / "u", caption="T", select="validation_error")
    assert "failed" not in (tmp_path / "u.md").read_text()  # nothing failed: no note


def test_reproduction_counts_the_choices_at_an_edge(tmp_path):
    (tmp_path / "results" / "summary").mkdir(parents=True)
    _validation_records().to_csv(tmp_path / "results" / "summary" / "exp.csv", index=False)
    write_table(
        _validation_records(),
        ["test_error"],
        tmp_path / "results" / "tables" / "tab",
        caption="T",
        select="validation_error",
    )
    config = {
        "experiments": {"exp": {"paper": "p", "methods": {"m": {"estimator": "cgboost"}}}},
        "figures": {},
        "tables": {"tab": {"experiment": "exp", "select": "validation_error", "metrics": ["test_error"]}},
    }
    catalogue = tmp_path / "reproduction.yaml"
    catalogue.write_text(
        yaml.safe_dump(
            {
                "papers": {"p": {"citation": "P"}},
                "items": [
                    {"paper": "p", "item": "Table 1", "shows": "s", "tables": ["tab"], "compare": {"test_error": 0.02}}
                ],
            }
        )
    )
    ref = pd.DataFrame(
        [
            {
                "paper": "p",
                "table": "T",
                "dataset": "d",
                "method": "m",
                "metric": "test_error",
                "mean": 0.2,
                "std": None,
                "unit": "",
                "note": "",
            }
        ]
    )
    write_table(
        _validation_records(),
        ["test_error"],
        tmp_path / "results" / "tables" / "tab",
        caption="T",
        reference=ref,
        select="validation_error",
    )
    text = build_reproduction(config, catalogue, root=tmp_path)
    assert "Hyper-parameter choices at an edge of our grid: 3 of 4" in text and "the paper states" not in text
    assert "At each, the best setting inside the grid is at most 0.2 worse in the error it was chosen by" in text
    assert (
        "- Chosen at an edge of our grid (3 of 4 choices): m C: top (10) in 2, bottom (0.1) in 1 of 4 runs "
        "(the best setting inside the grid at most 0.2 worse)."
    ) in text

    # The same choices on a grid the paper states: its protocol, counted apart with the paper's words.
    catalogue.write_text(
        yaml.safe_dump(
            {
                "papers": {"p": {"citation": "P"}},
                "items": [
                    {
                        "paper": "p",
                        "item": "Table 1",
                        "shows": "s",
                        "tables": ["tab"],
                        "compare": {"test_error": 0.02},
                        "paper_grids": [{"parameter": "C", "methods": ["m*"], "quote": "'C in {0.1, 1, 10}'"}],
                    }
                ],
            }
        )
    )
    text = build_reproduction(config, catalogue, root=tmp_path)
    assert "Hyper-parameter choices at an edge of our grid: 0 of 4" in text
    assert "At an edge of a grid the paper states: 3 more" in text
    assert (
        "- Chosen at an edge of the paper's grid (3 of 4 choices; its protocol, kept): m C: top (10) "
        "in 2, bottom (0.1) in 1 of 4 runs (the best setting inside the grid at most 0.2 worse); the paper's grid, "
        "C: 'C in {0.1, 1, 10}'."
    ) in text
    assert "Chosen at an edge of our grid" not in text


def test_a_searched_range_in_a_record_reaches_the_edge_count(tmp_path):
    from mkbench._io import write_json
    from mkbench.harness.report import collect_records

    paths = []
    for split, chosen in enumerate([0.1, 1.0, 10.0]):
        record = {
            "dataset": "d",
            "method": "svr",
            "seed": 0,
            "split": split,
            "param": "default",
            "status": "optimal",
            "test_mse": 1.0,
            "selected": {"C": chosen},
            "search_bounds": {"C": [0.1, 10.0]},
        }
        paths.append(tmp_path / f"r{split}.json")
        write_json(paths[-1], record)
    edges = grid_edges(collect_records(paths))
    assert edges[["parameter", "n_runs", "n_low", "n_high"]].values.tolist() == [["C", 3, 1, 1]]


def _cv_record(split, chosen_c, chosen_iter, scores, **extra):
    """A cross-validated record as the summary CSV holds it: the CV errors as text."""
    return {
        "dataset": "d",
        "method": "cv",
        "estimator": "staged-cv",
        "seed": 0,
        "split": split,
        "status": "optimal",
        "param": "default",
        "p_param_grid": "{'C': [0.01, 0.1, 1.0]}",
        "p_n_iters": "[50, 500]",
        "s_C": chosen_c,
        "s_max_iter": chosen_iter,
        "cv_results": str([{"C": c, "max_iter": t, "error": e} for (c, t), e in scores.items()]),
        **extra,
    }


def test_cross_validated_ties_that_reach_inside_the_grid_are_not_edge_choices():
    flat = {(c, t): 0.2 for c in (0.01, 0.1, 1.0) for t in (50, 500)}
    rows = [
        _cv_record(0, 0.01, 50, flat),  # every setting ties (a collapsed model): no edge
        _cv_record(
            1, 0.01, 500, {**flat, (0.01, 500): 0.1, (1.0, 500): 0.1}
        ),  # C ties at both ends: no edge; 500 alone
        _cv_record(2, 1.0, 500, {**flat, (1.0, 500): 0.1}),  # the top alone, both parameters: an edge
        _cv_record(3, 0.1, 50, {**flat, (0.1, 50): 0.1, (0.1, 500): 0.1}),  # C inside; counts tie at both ends
        _cv_record(4, 0.01, 50, {**flat, (0.01, 50): 0.1, (0.01, 500): 0.1}),  # the bottom of C alone: an edge
    ]
    edges = grid_edges(pd.DataFrame(rows)).set_index("parameter")
    assert edges.loc["C", ["n_runs", "n_low", "n_high"]].tolist() == [5, 1, 1]
    assert edges.loc["iterations", ["n_runs", "n_low", "n_high"]].tolist() == [5, 0, 2]
    assert edges.loc["C", "margin"] == pytest.approx(0.1)  # off the edge, the best CV error is 0.2 against 0.1
    # the same choices without the CV errors (older records) are all taken as edges where they sit, margin unknown
    bare = grid_edges(pd.DataFrame(rows).drop(columns="cv_results")).set_index("parameter")
    assert bare.loc["C", ["n_low", "n_high"]].tolist() == [3, 1] and bare["margin"].isna().all()


def test_the_svm_bandwidth_is_read_against_the_svm_cv_errors():
    scores = {(c, t): 0.2 for c in (0.01, 0.1, 1.0) for t in (50, 500)}

    def svc(errors):
        return str([{"C": 1.0, "gamma": g, "error": e} for g, e in zip((0.1, 1.0, 10.0), errors, strict=True)])

    rows = [
        _cv_record(
            s,
            0.01,
            50,
            scores,
            p_svc_bandwidth_grid="{'C': [1.0], 'gamma': [0.1, 1.0, 10.0]}",
            s_gamma=0.1,
            svc_cv_results=svc(errors),
        )
        for s, errors in enumerate([(0.1, 0.1, 0.3), (0.1, 0.2, 0.3)])
    ]
    edges = grid_edges(pd.DataFrame(rows)).set_index("parameter")
    assert edges.loc["gamma", ["n_runs", "n_low", "n_high"]].tolist() == [2, 1, 0]


def test_a_search_record_keeps_every_setting_cv_error_and_the_edge_rule_reads_it(tmp_path):
    import json

    import numpy as np
    from sklearn.datasets import make_blobs

    from mkbench.estimators.staged_search import StagedSearchCV
    from mkbench.harness.experiment import _model_size
    from mkbench.harness.report import collect_records

    # two far-apart blobs: every C gives a perfect SVM, so the CV errors tie over the whole grid
    X, y = make_blobs(60, centers=[[-5, 0], [5, 0]], cluster_std=0.5, random_state=0)
    search = StagedSearchCV("svc-rbf", param_grid={"C": [0.1, 1.0, 10.0]}, n_iters=None, cv=3).fit(X, y)
    assert search.cv_results_["params"] == [{"C": 0.1}, {"C": 1.0}, {"C": 10.0}]
    np.testing.assert_array_equal(search.cv_results_["mean_test_error"], search.cv_errors_.ravel())
    assert search.svc_cv_results_ is None
    record = {
        "dataset": "d",
        "method": "svm",
        "estimator": "staged-cv",
        "seed": 0,
        "split": 0,
        "status": "optimal",
        "param": "default",
        "p_param_grid": {"C": [0.1, 1.0, 10.0]},
        "p_n_iters": None,
        **_model_size(search),
    }
    assert record["cv_results"] == [{"C": c, "error": 0.0} for c in (0.1, 1.0, 10.0)]
    (tmp_path / "r.json").write_text(json.dumps(record))
    summary = tmp_path / "s.csv"
    collect_records([tmp_path / "r.json"]).to_csv(summary, index=False)  # the route the tables read
    edges = grid_edges(pd.read_csv(summary))
    assert record["selected"] == {"C": 0.1}  # the bottom of the grid is chosen, yet every C ties
    assert edges[["n_runs", "n_low", "n_high"]].values.tolist() == [[1, 0, 0]]


def test_a_search_with_nothing_to_choose_leaves_a_record_without_choices(tmp_path):
    """One fixed setting through staged-cv (MNIST's CGEns-SLS of Table III): no CV errors in the record, and
    the summary route and the edge rule read it (a NaN error there once broke the table)."""
    import json

    from sklearn.datasets import make_blobs

    from mkbench.estimators.staged_search import StagedSearchCV
    from mkbench.harness.experiment import _model_size
    from mkbench.harness.report import collect_records

    X, y = make_blobs(60, centers=[[-5, 0], [5, 0]], cluster_std=0.5, random_state=0)
    search = StagedSearchCV("svc-rbf", params={"C": 1.0}, n_iters=None, cv=3).fit(X, y)
    record = {
        "dataset": "d",
        "method": "svm",
        "estimator": "staged-cv",
        "seed": 0,
        "split": 0,
        "status": "optimal",
        "param": "default",
        "p_params": {"C": 1.0},
        "p_n_iters": None,
        **_model_size(search),
    }
    assert "cv_results" not in record and record["selected"] == {}
    (tmp_path / "r.json").write_text(json.dumps(record, allow_nan=False))
    summary = tmp_path / "s.csv"
    collect_records([tmp_path / "r.json"]).to_csv(summary, index=False)
    assert grid_edges(pd.read_csv(summary)).empty


def test_an_empty_ensemble_at_the_bottom_of_c_is_the_limit_of_the_grid_not_an_edge():
    """A column-generation model that took no column at the bottom C (the offset alone) is what every smaller C
    gives too: not counted as an edge. A model with columns there, or a method without a column-generation
    status, still is."""
    scores = {(c, t): 0.2 for c in (0.01, 0.1, 1.0) for t in (50, 500)}
    scores[(0.01, 500)] = 0.1
    base = _cv_record(0, 0.01, 500, scores)
    rows = [
        {**base, "split": 0, "cg_status": "optimal", "n_iter": 0},  # empty: the limit
        {**base, "split": 1, "cg_status": "max_iter", "n_iter": 500},  # learners at the bottom: an edge
        {**base, "split": 2, "n_iter": 0},
    ]  # no column-generation status (e.g. an SVM's solver count): an edge
    edges = grid_edges(pd.DataFrame(rows)).set_index("parameter")
    assert edges.loc["C", ["n_runs", "n_low", "n_high"]].tolist() == [3, 2, 0]
