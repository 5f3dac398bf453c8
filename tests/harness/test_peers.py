"""The peers through the workflow's door (issue 46, item 4): mkbench.peers' adapters and config/peers.yaml.

Each adapter is checked against its package called directly on the same inputs (EasyMKL and
AverageMKL on the same kernel lists, XGBoost on coded labels, colboost with the same seeded
stumps); the overlay is checked to be a valid config whose every peer is marked added, whose
MKL peers take the kernels and C of the experiment's SILP, and under which REPRODUCTION.md is
built unchanged. A test whose peer is not installed is skipped, naming the extra.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn.base import clone

from mkbench.exceptions import SolverError
from mkbench.harness.config import added_methods, load_config
from mkbench.harness.methods import make_method, method_parameters
from mkbench.harness.reproduction import build_reproduction
from mkbench.peers._require import Peer

from ..conftest import ROOT

INSTALL = "the optional peer: pip install -e '.[peers]'"
CONFIG, OVERLAY = ROOT / "config" / "config.yaml", ROOT / "config" / "peers.yaml"


def _binary(n: int = 80, d: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=n) > 0.4, 1, -1)
    return X[: n * 3 // 4], y[: n * 3 // 4], X[n * 3 // 4 :], y[n * 3 // 4 :]


def _gurobi_or_skip():
    pytest.importorskip("colboost", reason=INSTALL)
    gurobipy = pytest.importorskip("gurobipy", reason=INSTALL)
    try:
        gurobipy.Env().dispose()
    except gurobipy.GurobiError as error:
        pytest.skip(f"Gurobi does not start here: {error}")


# -- without the peers ---------------------------------------------------------------------------------------------


def test_a_missing_peer_stops_its_fit_naming_the_extra():
    peer = Peer("NoSuchPeer", "no_such_module_of_mkbench")
    assert peer.error is not None  # importing the adapter's module is no error
    with pytest.raises(ImportError, match=r"NoSuchPeer is not installed .*pip install 'mkbench\[peers\]'"):
        peer.require()


def test_the_adapters_parameters_are_checked_without_their_peers():
    assert method_parameters("mkbench.peers:EasyMKLClassifier") == ("C", "kernels", "lam", "n_jobs")
    assert method_parameters("mkbench.peers:AverageMKLClassifier") == ("C", "kernels", "n_jobs")
    assert method_parameters("mkbench.peers:ColboostLPBoostClassifier") == (
        "C",
        "max_iter",
        "random_state",
        "size_limit",
        "time_limit",
    )
    assert "max_depth" in method_parameters("mkbench.peers:XGBoostClassifier")
    with pytest.raises(Exception, match="has no parameter.s. lambda_"):
        make_method("mkbench.peers:EasyMKLClassifier", {"lambda_": 0.1})


def test_colboost_is_refused_beyond_the_licence_before_it_is_imported():
    from mkbench.peers import ColboostLPBoostClassifier
    from mkbench.peers._colboost import fits_licence

    assert fits_licence(1300, 700) and not fits_licence(1300, 701) and not fits_licence(2001, 0)
    assert fits_licence(5000, 5000, None)
    X, y, _, _ = _binary(n=80)
    with pytest.raises(SolverError, match="beyond the 2000 of Gurobi's size-limited licence"):
        ColboostLPBoostClassifier(max_iter=1950).fit(X, y)


# -- MKLpy ---------------------------------------------------------------------------------------------------------


def test_easymkl_through_the_adapter_equals_easymkl_on_the_same_kernel_lists():
    pytest.importorskip("MKLpy", reason=INSTALL)
    from MKLpy.algorithms import EasyMKL
    from sklearn.svm import SVC

    from mkbench.estimators import SILPClassifier
    from mkbench.kernels.grid import resolve_kernels, unit_trace_stack
    from mkbench.peers import EasyMKLClassifier

    X, y, X_test, y_test = _binary()
    model = EasyMKLClassifier(kernels="simplemkl", C=10.0, lam=0.2).fit(X, y)
    kernels = resolve_kernels("simplemkl", X)
    stack, scales = unit_trace_stack(kernels, X)
    direct = EasyMKL(learner=SVC(C=10.0), lam=0.2).fit(list(stack), y)
    test_lists = [k(X_test, X) * s for k, s in zip(kernels, scales, strict=True)]
    np.testing.assert_allclose(model.weights_, np.asarray(direct.solution.weights, dtype=float), rtol=1e-10)
    np.testing.assert_array_equal(model.predict(X_test), np.asarray(direct.predict(test_lists)))
    for mine, theirs in zip(model.test_kernels(X_test), test_lists, strict=True):
        np.testing.assert_allclose(mine, theirs)
    # the kernels SILP itself builds from the same `kernels` value (inputs as given, as the papers' MKL protocols)
    silp = SILPClassifier(kernels="simplemkl", C=10.0, scaling=None).fit(X, y)
    assert [k.name for k in model.kernels_] == [k.name for k in silp.kernels_]
    np.testing.assert_allclose(model.scales_, silp.kernel_scales_)
    assert model.n_kernels_selected_ == int(np.sum(model.weights_ > 1e-6)) <= len(kernels)
    assert set(model.predict(X_test)) <= {-1, 1}
    clone(model).fit(X, y)


def test_averagemkl_is_an_svm_on_the_mean_unit_trace_kernel():
    pytest.importorskip("MKLpy", reason=INSTALL)
    from sklearn.svm import SVC

    from mkbench.peers import AverageMKLClassifier

    X, y, X_test, _ = _binary(seed=1)
    model = AverageMKLClassifier(kernels="L,Q,R", C=5.0).fit(X, y)
    np.testing.assert_allclose(model.weights_, np.full(3, 1 / 3))
    assert model.n_kernels_selected_ == 3
    train = np.mean([k(X, X) * s for k, s in zip(model.kernels_, model.scales_, strict=True)], axis=0)
    test = np.mean(model.test_kernels(X_test), axis=0)
    svm = SVC(C=5.0, kernel="precomputed").fit(train, y)
    np.testing.assert_array_equal(model.predict(X_test), svm.predict(test))


# -- LightGBM and XGBoost ------------------------------------------------------------------------------------------


def test_lightgbm_needs_no_adapter_and_num_leaves_2_gives_stumps():
    pytest.importorskip("lightgbm", reason=INSTALL)
    X, y, X_test, _ = _binary(n=200)
    model = make_method(
        "lightgbm:LGBMClassifier",
        {"num_leaves": 2, "n_estimators": 30, "n_jobs": 1, "min_child_samples": 5, "random_state": 0},
    ).fit(X, y)
    assert set(model.predict(X_test)) <= {-1, 1} and list(model.classes_) == [-1, 1]
    trees = model.booster_.dump_model()["tree_info"]
    assert len(trees) == 30 and all(tree["num_leaves"] <= 2 for tree in trees)


def test_xgboost_adapter_codes_the_labels_and_changes_nothing_else():
    xgboost = pytest.importorskip("xgboost", reason=INSTALL)
    from mkbench.peers import XGBoostClassifier

    X, y, X_test, _ = _binary(n=200)
    model = XGBoostClassifier(max_depth=1, n_estimators=40).fit(X, y)
    direct = xgboost.XGBClassifier(max_depth=1, n_estimators=40, n_jobs=1, random_state=0).fit(X, (y == 1).astype(int))
    np.testing.assert_array_equal(model.predict(X_test), np.where(direct.predict(X_test) == 1, 1, -1))
    np.testing.assert_allclose(model.predict_proba(X_test), direct.predict_proba(X_test))
    assert model.n_iter_ == 40
    assert all(tree.count("leaf=") == 2 for tree in model.model_.get_booster().get_dump())  # stumps
    named = XGBoostClassifier(n_estimators=5).fit(X, np.where(y == 1, "yes", "no"))
    assert list(named.classes_) == ["no", "yes"] and set(named.predict(X_test)) <= {"no", "yes"}
    assert XGBoostClassifier().fit(X, y).n_iter_ == 100  # XGBoost's own default


# -- colboost ------------------------------------------------------------------------------------------------------


def test_colboost_adapter_equals_colboost_called_directly():
    _gurobi_or_skip()
    from colboost.ensemble import EnsembleClassifier
    from sklearn.tree import DecisionTreeClassifier

    from mkbench.peers import ColboostLPBoostClassifier

    X, y, X_test, _ = _binary(n=120, seed=2)
    model = ColboostLPBoostClassifier(C=0.3, max_iter=15).fit(X, y)
    direct = EnsembleClassifier(
        solver="lp_boost",
        base_estimator=DecisionTreeClassifier(max_depth=1, random_state=0),
        max_iter=15,
        tradeoff_hyperparam=0.3,
        early_stopping=False,
        check_dual_const=True,
        gurobi_num_threads=1,
        seed=0,
    ).fit(X, y)  # y is -1 / +1 already
    np.testing.assert_allclose(model.coef_, direct.weights)
    np.testing.assert_array_equal(model.predict(X_test), direct.predict(X_test))
    assert model.n_iter_ == direct.n_iter_ and model.status_ in ("max_iter", "dual test")
    assert model.lp_objective_ == pytest.approx(direct.objective_values_[-1], rel=1e-6)
    # refitted and cloned after fit, which colboost's own estimator cannot be
    np.testing.assert_array_equal(model.fit(X, y).predict(X_test), clone(model).fit(X, y).predict(X_test))
    # any two labels, the second one coded +1
    named = ColboostLPBoostClassifier(C=0.3, max_iter=15).fit(X, np.where(y == 1, "b", "a"))
    np.testing.assert_array_equal(named.predict(X_test), np.where(model.predict(X_test) == 1, "b", "a"))


def test_our_lpboost_reaches_at_most_colboosts_lp_objective():
    """The same LP: our LPBoost run to the optimum over all stumps is at or below colboost's objective."""
    _gurobi_or_skip()
    from mkbench.estimators import LPBoostClassifier
    from mkbench.learners import outputs
    from mkbench.peers import ColboostLPBoostClassifier

    X, y, _, _ = _binary(n=160, seed=3)
    theirs = ColboostLPBoostClassifier(C=0.3, max_iter=100).fit(X, y)
    ours = LPBoostClassifier(C=0.3, max_iter=10_000).fit(X, y)
    margins = np.where(y == ours.classes_[1], 1, -1) * (outputs(ours.learners_, X) @ ours.coef_)
    objective = np.sum(ours.coef_) + 0.3 * np.sum(np.maximum(0.0, 1.0 - margins))
    assert objective <= theirs.lp_objective_ * (1 + 1e-6)


# -- the overlay ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def overlaid():
    pytest.importorskip("lightgbm", reason=INSTALL)  # named by its import path: reading the config imports it
    return load_config(CONFIG, OVERLAY)


def _overlay_methods() -> dict[str, list[str]]:
    overlay = yaml.safe_load(OVERLAY.read_text(encoding="utf-8"))
    return {name: list(exp["methods"]) for name, exp in overlay["experiments"].items()}


def test_the_peers_overlay_is_a_valid_config_that_only_adds_methods(overlaid):
    base = load_config(CONFIG)
    assert set(_overlay_methods()) == {"mkl-uci", "mkl-credit", "cgens-table1"}
    for name, peers in _overlay_methods().items():
        assert sorted(added_methods(overlaid, name)) == sorted(peers), name  # every peer marked added
        assert not set(peers) & set(base["experiments"][name]["methods"])  # none replaces a paper's method
        papers = {m: s for m, s in overlaid["experiments"][name]["methods"].items() if m not in peers}
        assert papers == base["experiments"][name]["methods"]  # the papers' methods unchanged
        assert {k: v for k, v in overlaid["experiments"][name].items() if k != "methods"} == {
            k: v for k, v in base["experiments"][name].items() if k != "methods"
        }  # splits and preprocessing too
    for table in ("mkl-peers", "mkl-peers-credit", "cgens-table1-peers"):
        assert table in overlaid["tables"] and table not in base["tables"]


def test_the_cut_overlay_only_cuts_table_i_splits(overlaid):
    cut = load_config(CONFIG, OVERLAY, ROOT / "config" / "peers-cgens-3splits.yaml")
    assert cut["experiments"]["cgens-table1"]["protocol"] == "cgens-ida3"
    assert cut["protocols"]["cgens-ida3"] == {**overlaid["protocols"]["ida5"], "n_repeats": 3}  # the first 3 of 5
    cut["experiments"]["cgens-table1"]["protocol"] = "ida5"
    assert cut["experiments"] == overlaid["experiments"]
    assert "first 3 of Table I's" in cut["tables"]["cgens-table1-peers"]["caption"]
    assert {k: v for k, v in cut["tables"].items() if k != "cgens-table1-peers"} == {
        k: v for k, v in overlaid["tables"].items() if k != "cgens-table1-peers"
    }


def test_the_mkl_peers_get_the_kernels_and_C_of_the_experiments_silp(overlaid):
    for name in ("mkl-uci", "mkl-credit"):
        methods = overlaid["experiments"][name]["methods"]
        for peer in ("easymkl", "averagemkl"):
            for key in ("kernels", "C"):
                assert (
                    methods[peer]["params"][key]
                    == methods["silp"]["params"][key]
                    == methods["simplemkl"]["params"][key]
                )


def test_colboost_runs_only_where_its_lp_fits_the_licence(overlaid):
    from mkbench.harness.datasets.raetsch_pools import IDA_SIZES
    from mkbench.peers._colboost import fits_licence

    exp = overlaid["experiments"]["cgens-table1"]
    cap = exp["methods"]["colboost-lpboost"]["params"]["max_iter"]
    for dataset in exp["datasets"]:
        assert fits_licence(IDA_SIZES[dataset][0], cap), dataset  # IDA's training sizes, 140 .. 1300


def _with_peer_rows(root, tmp_path, config):
    """A results tree under ``tmp_path`` equal to ``root``'s but for rows of every peer method of the overlay in the
    summaries and tables of its experiments: a paper method's rows renamed, every value 0 (a peer that would win
    every comparison it entered)."""
    for path in root.iterdir():
        if path.name != "results" and not path.name.startswith("."):
            (tmp_path / path.name).symlink_to(path)
    written = ("results", "results/summary", "results/tables")
    for folder in written:  # real folders first: a symlinked one would take the writes into the repository's
        (tmp_path / folder).mkdir(parents=True)
    for folder in written:
        for path in (root / folder).iterdir():
            if not (tmp_path / folder / path.name).exists():
                (tmp_path / folder / path.name).symlink_to(path)
    for experiment, peers in _overlay_methods().items():
        tables = [
            name
            for name, spec in config["tables"].items()
            if experiment in ([spec["experiment"]] if isinstance(spec["experiment"], str) else spec["experiment"])
        ]
        for name in [f"summary/{experiment}.csv", *(f"tables/{table}.csv" for table in tables)]:
            path = root / "results" / name
            if not path.exists():
                continue
            frame = pd.read_csv(path)
            like = frame[frame["method"] == frame["method"].iloc[0]]
            numbers = [c for c in like.columns if c.endswith(("_error", "_seconds", "_mean")) or c.startswith("n_")]
            # a peer fits once at its settings: no CV choices (s_*, cv_result, selected) and no parameters of ours
            chosen = [c for c in like.columns if c.startswith(("s_", "p_", "cv_result", "svc_cv_result", "selected"))]
            estimators = {peer: config["experiments"][experiment]["methods"][peer]["estimator"] for peer in peers}
            rows = [
                like.assign(method=peer, **{c: 0.0 for c in numbers}, **{c: np.nan for c in chosen}).assign(
                    **({"estimator": estimators[peer]} if "estimator" in like else {})
                )
                for peer in peers
            ]
            for row in rows:
                if "paper_mean" in row:
                    row[["paper_mean", "paper_std"]] = float("nan")
            target = tmp_path / "results" / name
            assert target.is_symlink() and not target.parent.is_symlink()
            target.unlink()
            pd.concat([frame, *rows], ignore_index=True).to_csv(target, index=False)


def test_the_overlay_changes_no_verdict_or_attribution(overlaid, tmp_path):
    """REPRODUCTION.md built with the overlay, from summaries and tables holding the peers' rows, is the one built
    without it, but for its list of the tables built beside the papers' (the overlay's three, with their captions)."""
    catalogue = ROOT / "config" / "reproduction.yaml"
    before = build_reproduction(load_config(CONFIG), catalogue, root=ROOT)
    _with_peer_rows(ROOT, tmp_path, overlaid)
    after = build_reproduction(copy.deepcopy(overlaid), catalogue, root=tmp_path)
    overlay_tables = yaml.safe_load(OVERLAY.read_text(encoding="utf-8"))["tables"]
    listed = [line for line in after.splitlines() if line.startswith(tuple(f"- table `{t}`: " for t in overlay_tables))]
    assert len(listed) == len(overlay_tables)  # under "Also built (not in the papers)"
    rest = "\n".join(line for line in after.splitlines() if line not in listed)
    for peers in _overlay_methods().values():
        for peer in peers:
            assert peer not in rest
    assert rest == "\n".join(before.splitlines())
