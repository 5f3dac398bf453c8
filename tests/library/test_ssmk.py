"""SSMK / IMK (ssmk Algorithm 1, LP 9): column generation reaches the full LP; scikit-learn's checks pass.

The reference is LP (9) with every column K_p(x_i, x_j) (j over labelled and
unlabelled points), built here from scikit-learn's kernels and solved directly by
HiGHS through scipy's linprog (``linprog_reference`` of _masters_common).
"""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import euclidean_distances, linear_kernel, rbf_kernel
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench import SSMKClassifier
from mkbench.estimators.ssmk import solve_lp9
from mkbench.kernels import KernelColumns

from ._masters_common import linprog_reference

C = 2.0
TOL = 1e-7


@pytest.fixture(scope="module")
def data():
    """40 labelled points (string labels), 60 unlabelled, 4 features, an XOR-like rule."""
    rng = np.random.default_rng(11)
    X = rng.normal(size=(40, 4))
    labels = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=40) > 0, "odd", "even")
    X_unlabeled = rng.normal(size=(60, 4))
    return X, labels, X_unlabeled


def _reference_kernels(Z):
    """Linear and RBF kernels with sigma = mean ||z_i - z_j||^2 over the centres Z (ordered pairs)."""
    gamma = 1.0 / euclidean_distances(Z, squared=True).mean()
    return [linear_kernel, lambda A, B: rbf_kernel(A, B, gamma=gamma)]


def _full_lp9(X, signed, Z):
    """The full LP (9) over all 2 * len(Z) columns, solved directly; its value and the matrix K."""
    K = np.hstack([kernel(X, Z) for kernel in _reference_kernels(Z)])
    return linprog_reference(K, signed, C, "free", "free"), K


def _objective_of(model, X, signed):
    """sum_j |alpha_j| + C sum_i xi_i of LP (9) at the fitted model (eq. 9)."""
    margins = signed * model.decision_function(X)
    return np.abs(model.coef_).sum() + C * np.maximum(0.0, 1.0 - margins).sum()


@pytest.mark.parametrize("semi_supervised", [True, False], ids=["SSMK", "IMK"])
def test_column_generation_reaches_the_full_lp9(data, semi_supervised):
    X, labels, X_unlabeled = data
    X_u = X_unlabeled if semi_supervised else None
    model = SSMKClassifier(C=C, tol=TOL).fit(X, labels, X_u)
    signed = np.where(labels == "odd", 1.0, -1.0)  # classes_ = ["even", "odd"]: "odd" is +1
    Z = X if X_u is None else np.vstack([X, X_u])
    expected, K = _full_lp9(X, signed, Z)

    assert model.status_ == "optimal"
    assert model.history_[-1]["objective"] == pytest.approx(expected, rel=1e-6)
    assert _objective_of(model, X, signed) == pytest.approx(expected, rel=1e-6)
    assert model.n_iter_ < K.shape[1]  # sparse: far fewer columns generated than the 2 (l + l_u) candidates
    assert model.n_lps_ == model.n_iter_ + 1 == len(model.history_)  # Algorithm 1: K_0 = e, one column per LP
    # Proposition 1 at termination: beta is feasible for the full dual (10) and its value equals the primal's
    beta = model.dual_coef_
    scores = K.T @ (signed * beta)
    assert np.abs(scores).max() <= 1 + TOL
    assert beta.min() >= -1e-9 and beta.max() <= C + 1e-9
    assert signed @ beta == pytest.approx(0.0, abs=1e-8)
    assert beta.sum() == pytest.approx(expected, rel=1e-6)


def test_full_route_and_cg_give_the_same_objective(data):
    X, labels, X_unlabeled = data
    signed = np.where(labels == "odd", 1.0, -1.0)
    for X_u in (None, X_unlabeled):  # IMK as the paper ran it (one full LP), and SSMK
        cg = SSMKClassifier(C=C, tol=TOL).fit(X, labels, X_u)
        full = SSMKClassifier(C=C, solve="full").fit(X, labels, X_u)
        n_candidates = 2 * (len(X) + (0 if X_u is None else len(X_u)))
        assert full.history_[-1]["objective"] == pytest.approx(cg.history_[-1]["objective"], rel=1e-6)
        assert _objective_of(full, X, signed) == pytest.approx(_objective_of(cg, X, signed), rel=1e-6)
        assert full.n_lps_ == 1 and full.n_iter_ == len(full.coef_) == n_candidates  # every column entered
        assert [(r["problem_rows"], r["problem_columns"]) for r in full.history_] == [(40, n_candidates + 1)]
        # Algorithm 1: K_0 = e, then one column per iteration
        sizes = [(r["problem_rows"], r["problem_columns"]) for r in cg.history_]
        assert sizes == [(40, t) for t in range(1, cg.n_lps_ + 1)]  # iteration t solves an l x t LP
        assert cg.n_iter_ == len(cg.coef_) == cg.n_lps_ - 1


@pytest.mark.parametrize("solve", ["cg", "full"])
def test_split_variables_are_complementary(data, solve):
    X, labels, X_unlabeled = data
    signed = np.where(labels == "odd", 1.0, -1.0)
    columns = KernelColumns(X, ["linear", "rbf"], centres=np.vstack([X, X_unlabeled]))
    fit = solve_lp9(columns, signed, C, solve=solve, tol=TOL)
    u, v = fit.split
    assert u.min() >= 0 and v.min() >= 0
    assert np.max(u * v) <= 1e-12  # u_j v_j = 0 at the optimum (§3, after eq. 9)
    np.testing.assert_array_equal(u - v, fit.result.solution.alpha)
    assert np.count_nonzero(u) + np.count_nonzero(v) == np.count_nonzero(u - v)


def test_columns_name_their_centres_and_predictions_use_them(data):
    X, labels, X_unlabeled = data
    model = SSMKClassifier(C=C, solve="full").fit(X, labels, X_unlabeled)
    assert (model.n_labeled_, model.n_unlabeled_) == (40, 60)
    for (_name, j, labelled), centre in zip(model.columns_, model.centres_, strict=True):
        np.testing.assert_array_equal(centre, (X if labelled else X_unlabeled)[j])
    assert {name for name, _, _ in model.columns_} == {"linear", "rbf"}
    assert sum(not labelled for _, _, labelled in model.columns_) == 2 * 60
    # decision_function evaluates the expansion (eq. 2) with the kernels, checked with scikit-learn's
    X_new = X[:7] + 0.01
    kernels = dict(zip(["linear", "rbf"], _reference_kernels(np.vstack([X, X_unlabeled])), strict=True))
    by_hand = np.full(7, model.intercept_)
    for (name, _, _), centre, coef in zip(model.columns_, model.centres_, model.coef_, strict=True):
        by_hand += coef * kernels[name](X_new, centre[None, :])[:, 0]
    np.testing.assert_allclose(model.decision_function(X_new), by_hand, rtol=1e-9, atol=1e-9)
    assert set(model.predict(X_new)) <= {"odd", "even"}
    assert sum(model.n_columns_by_kernel_.values()) == model.n_support_ == np.count_nonzero(model.coef_)


def test_max_iter_stops_with_a_warning(data):
    X, labels, X_unlabeled = data
    with pytest.warns(ConvergenceWarning, match=r"stopped \(max_iter\) after 2 columns"):
        model = SSMKClassifier(max_iter=2).fit(X, labels, X_unlabeled)
    assert (model.status_, model.n_iter_, model.n_lps_, len(model.coef_)) == ("max_iter", 2, 3, 2)


def test_bad_inputs_have_clear_messages(data):
    X, labels, X_unlabeled = data
    with pytest.raises(ValueError, match="X_unlabeled has 3 features, but X has 4"):
        SSMKClassifier().fit(X, labels, X_unlabeled[:, :3])
    with pytest.raises(ValueError, match="X_unlabeled.*NaN"):
        SSMKClassifier().fit(X, labels, np.where(X_unlabeled > 2, np.nan, X_unlabeled))
    with pytest.raises(ValueError, match="Expected 2D array"):
        SSMKClassifier().fit(X, labels, X_unlabeled[0])
    with pytest.raises(ValueError, match=r"y has only one class \('odd'\): a classifier needs two classes"):
        SSMKClassifier().fit(X, np.full(len(X), "odd"), X_unlabeled)
    with pytest.raises(ValueError, match="Only binary classification is supported.*3 class"):
        SSMKClassifier().fit(X[:30], np.repeat(["a", "b", "c"], 10))
    with pytest.raises(ValueError, match=r"'solve' parameter of SSMKClassifier must be a str among .*'cg'.*'simplex'"):
        SSMKClassifier(solve="simplex").fit(X, labels)
    with pytest.raises(ValueError, match=r"'C' parameter .* must be a float in the range \(0.0, inf\)\. Got 0"):
        SSMKClassifier(C=0).fit(X, labels)
    with pytest.raises(ValueError, match=r"'max_iter' parameter .* must be an int in the range \[0, inf\)\. Got -1"):
        SSMKClassifier(max_iter=-1).fit(X, labels)
    with pytest.raises(KeyError, match="unknown kernel 'sigmoid'; known kernels"):
        SSMKClassifier(kernels=["sigmoid"]).fit(X, labels)


@parametrize_with_checks([SSMKClassifier(max_iter=50), SSMKClassifier(solve="full")])
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_cross_validated_ssmk_record_has_the_fields_of_the_tables_and_figures(tmp_path):
    """A staged-cv SSMK job (config ssmk-l*): X_unlabeled reaches the search, and its record has
    what ssmk-sizes-l100 and ssmk-figure1-* read: n_iter, n_lps, columns per kernel, the largest LP (from
    the history), unlabelled and test errors, and the chosen C (s_C)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler

    from mkbench.harness import experiment
    from mkbench._io import write_json
    from mkbench.harness.datasets import Dataset
    from mkbench.harness.report import collect_records
    from mkbench.harness.splits import make_splits

    X, y = load_breast_cancer(return_X_y=True)
    data = Dataset("sk-breast-cancer", X, y, [f"x{i}" for i in range(X.shape[1])], "binary", {})
    split = make_splits("semisupervised", y=y, seed=0, n_labeled=40, n_unlabeled=100, n_test=200, n_repeats=1)[0]
    grid = [0.1, 1.0, 10.0]
    params = {"method": "ssmk", "params": {"kernels": "L,R"}, "param_grid": {"C": grid}, "n_iters": None, "cv": 5}
    record = experiment.run_job(data, split, method="ssmk", estimator="staged-cv", params=params, fit_unlabeled=True)
    write_json(tmp_path / "record.json", record)
    row = collect_records([tmp_path / "record.json"]).iloc[0]

    Z = StandardScaler().fit(X[split["train"]]).transform(X)  # run_job's default preprocessing
    X_l, y_l, X_u = Z[split["train"]], y[split["train"]], Z[split["unlabeled"]]
    errors = np.zeros(len(grid))
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(X_l, y_l):
        for g, C_ in enumerate(grid):
            model = SSMKClassifier("L,R", C=C_).fit(X_l[train], y_l[train], X_unlabeled=X_u)
            errors[g] += np.mean(model.predict(X_l[test]) != y_l[test]) / 5
    assert row["s_C"] == grid[int(np.argmin(errors))]
    direct = SSMKClassifier("L,R", C=row["s_C"]).fit(X_l, y_l, X_unlabeled=X_u)
    assert direct.n_unlabeled_ == 100
    for part in ("test", "unlabeled"):
        assert row[f"{part}_error"] == pytest.approx(np.mean(direct.predict(Z[split[part]]) != y[split[part]]))
    assert (row["n_iter"], row["n_lps"]) == (direct.n_iter_, direct.n_lps_)
    assert (row["columns_linear"], row["columns_rbf"]) == (
        direct.n_columns_by_kernel_["linear"],
        direct.n_columns_by_kernel_["rbf"],
    )
    assert row["n_support"] == direct.n_support_ and row["cg_status"] == "optimal"
    assert row["max_problem_rows"] == 40
    assert row["max_problem_columns"] == max(h["problem_columns"] for h in direct.history_)
