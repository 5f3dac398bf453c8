"""CGEns baselines: AdaBoost.MH picks the largest edge and follows AdaBoost's identities; the ensemble kernels."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench.estimators import (
    AdaBoostECCClassifier,
    AdaBoostMHClassifier,
    CGEnsClassifier,
    CGEnsSLSClassifier,
    InfiniteEnsembleSVC,
    SSMKClassifier,
    StagedSearchCV,
)
from mkbench.harness.methods import METHODS, make_method
from mkbench.kernels.ensemble import perceptron_kernel, perceptron_kernel_delta, stump_kernel, stump_kernel_delta
from mkbench.learners import Perceptrons, outputs

from ._weight_checks import LIBSVM, TIES, weight_checks


def test_stump_kernel_is_the_inner_product_of_all_stumps():
    """2 (Delta_S - ||x - z||_1) = sum_d integral over [L_d, R_d] of s(x_d - t) s(z_d - t) dt."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 3))
    lo, hi = X.min(0), X.max(0)
    inner = np.zeros((7, 7))
    for d in range(3):
        t, dt = np.linspace(lo[d], hi[d], 200_001, retstep=True)
        t = (t[:-1] + t[1:]) / 2
        S = np.where(X[:, d, None] > t, 1.0, -1.0)
        inner += S @ S.T * dt
    np.testing.assert_allclose(inner, 2 * stump_kernel(X, X, delta=stump_kernel_delta(X)), atol=1e-3)


def test_perceptron_kernel_is_the_expected_product_of_perceptrons():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(6, 4))
    family = Perceptrons(X, random_state=0)
    theta, kappa = family._draw(200_000)
    H = family._outputs(X @ theta - kappa)
    delta = perceptron_kernel_delta(X)
    np.testing.assert_allclose(delta * H @ H.T / H.shape[1], perceptron_kernel(X, X, delta=delta), atol=0.02 * delta)


@pytest.mark.parametrize("kernel", ["stump", "perceptron"])
def test_infinite_ensemble_svc_is_svc_on_the_kernel(kernel):
    rng = np.random.default_rng(2)
    X, X_new = rng.normal(size=(40, 3)), rng.normal(size=(9, 3))
    y = np.where(X[:, 0] * X[:, 1] > 0, "a", "b")
    model = InfiniteEnsembleSVC(kernel, C=2.0).fit(X, y)
    function = stump_kernel if kernel == "stump" else perceptron_kernel
    reference = SVC(kernel=lambda A, B: function(A, B), C=2.0).fit(X, y)  # Delta = 0: same SVM (free offset)
    np.testing.assert_allclose(model.decision_function(X_new), reference.decision_function(X_new), atol=1e-3)
    assert model.n_support_ == reference.n_support_.sum()


def _all_stump_outputs(X):
    columns = [np.ones(len(X))]
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        columns += [np.where(X[:, j] > t, 1.0, -1.0) for t in (values[:-1] + values[1:]) / 2]
    return np.column_stack(columns)


def test_adaboost_mh_rounds():
    X, y = load_iris(return_X_y=True)
    X = X[::3]
    y = y[::3]
    model = AdaBoostMHClassifier(n_estimators=12).fit(X, y)
    n, K = len(y), 3
    Y = -np.ones((n, K))
    Y[np.arange(n), y] = 1.0
    D = np.full((n, K), 1 / (n * K))
    Phi = _all_stump_outputs(X)
    normaliser = 1.0
    for phi, v, alpha, edge in zip(outputs(model.stumps_, X).T, model.votes_, model.alphas_, model.edges_, strict=True):
        assert edge == pytest.approx(np.abs(Phi.T @ (D * Y)).sum(axis=1).max(), rel=1e-10)  # best stump, brute force
        assert edge == pytest.approx(np.sum(D * Y * np.outer(phi, v)), rel=1e-10)
        D = D * np.exp(-alpha * np.outer(phi, v) * Y)
        normaliser *= D.sum()
        D /= D.sum()
        assert np.sum(D * Y * np.outer(phi, v)) == pytest.approx(0.0, abs=1e-12)  # the new weights void its edge
    f = model.decision_function(X)
    hamming = np.mean(np.sign(f) != Y)
    assert hamming <= normaliser + 1e-12  # Schapire & Singer Theorem 1: Hamming loss <= prod Z_t
    assert model.score(X, y) > 0.9
    staged = list(model.staged_decision_function(X))
    assert len(staged) == model.n_iter_ and np.allclose(staged[-1], f)
    assert [row["n_columns"] for row in model.history_] == list(range(1, model.n_iter_ + 1))
    np.testing.assert_array_equal([row["edge"] for row in model.history_], model.edges_)
    seconds = [row["seconds"] for row in model.history_]
    assert seconds[0] > 0 and np.all(np.diff(seconds) >= 0)  # cumulative training time (Fig. 3)


def test_adaboost_ecc_rounds_follow_guruswami_sahai():
    """Every round, written out over the (point, mislabel) pairs with the model's colourings and
    brute-force stumps, gives the model's edge, alpha and votes; the prediction is argmax_l f_l."""
    X, y = load_iris(return_X_y=True)
    X, y = X[::3], y[::3]
    model = AdaBoostECCClassifier(n_estimators=15, random_state=0).fit(X, y)
    n, K = len(y), 3
    D = {(i, c): 1.0 / (n * (K - 1)) for i in range(n) for c in range(K) if c != y[i]}
    Phi = _all_stump_outputs(X)
    f = np.zeros((n, K))
    assert model.n_iter_ == 15 and model.colorings_.shape == (15, K)
    for t, mu in enumerate(model.colorings_):
        assert set(mu) == {-1.0, 1.0}
        d = np.zeros(n)
        for (i, c), weight in D.items():
            d[i] += weight * (mu[c] != mu[y[i]])
        d /= d.sum()
        scores = Phi.T @ (d * mu[y])  # gamma of every stump; its negation has -gamma
        best = int(np.argmax(np.abs(scores)))
        assert model.edges_[t] == pytest.approx(abs(scores[best]), rel=1e-10)
        h = np.sign(scores[best]) * Phi[:, best]
        np.testing.assert_array_equal(np.outer(outputs([model.stumps_[t]], X)[:, 0], model.votes_[t]), np.outer(h, mu))
        alpha = 0.5 * np.log((1 + abs(scores[best])) / max(1 - abs(scores[best]), 1e-12))  # finite if perfect
        assert model.alphas_[t] == pytest.approx(alpha, rel=1e-10)
        for i, c in D:
            if mu[c] != mu[y[i]]:
                D[i, c] *= np.exp(-alpha * h[i] * mu[y[i]])
        total = sum(D.values())
        D = {pair: weight / total for pair, weight in D.items()}
        f += alpha * np.outer(h, mu)
    np.testing.assert_allclose(model.decision_function(X), f, rtol=1e-10)
    np.testing.assert_array_equal(model.predict(X), model.classes_[np.argmax(f, axis=1)])
    assert model.score(X, y) > 0.9
    again = AdaBoostECCClassifier(n_estimators=15, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.colorings_, model.colorings_)  # seeded


def test_adaboost_ecc_with_two_classes_is_discrete_adaboost():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 3))
    y = np.where(X[:, 0] + X[:, 1] ** 2 > 0.6, "yes", "no")
    model = AdaBoostECCClassifier(n_estimators=10, random_state=1).fit(X, y)
    signed = np.where(y == "yes", 1.0, -1.0)
    w = np.full(len(y), 1 / len(y))
    Phi = _all_stump_outputs(X)
    F = np.zeros(len(y))
    for t in range(model.n_iter_):
        scores = Phi.T @ (w * signed)
        best = int(np.argmax(np.abs(scores)))
        h = np.sign(scores[best]) * Phi[:, best]
        alpha = 0.5 * np.log((1 + abs(scores[best])) / (1 - abs(scores[best])))
        assert model.alphas_[t] == pytest.approx(alpha, rel=1e-10)
        w *= np.exp(-alpha * signed * h)
        w /= w.sum()
        F += alpha * h
    np.testing.assert_array_equal(model.predict(X), np.where(F > 0, "yes", "no"))


def test_staged_search_equals_separate_fits_per_setting():
    """One fit per fold and C, read at 3 and 8 learners, equals fitting CGEns with max_iter = 3 and 8."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] ** 2 + X[:, 1] > 0.5, 1, 0)
    search = StagedSearchCV("cgens", param_grid={"C": [0.1, 1.0]}, n_iters=[8, 3], cv=3).fit(X, y)
    errors = np.zeros((2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # T learners is CGEns' size: no warning
        for train, test in StratifiedKFold(3, shuffle=True, random_state=0).split(X, y):
            for g, C in enumerate([0.1, 1.0]):
                for k, T in enumerate([3, 8]):
                    model = CGEnsClassifier(C=C, max_iter=T).fit(X[train], y[train])
                    errors[g, k] += np.mean(model.predict(X[test]) != y[test]) / 3
    np.testing.assert_allclose(search.cv_errors_, errors)
    g, k = np.unravel_index(np.argmin(errors), errors.shape)
    assert search.best_params_ == {"C": [0.1, 1.0][g], "max_iter": [3, 8][k]}
    assert search.best_estimator_.n_iter_ == search.n_iter_ == [3, 8][k]
    np.testing.assert_array_equal(search.predict(X), search.best_estimator_.predict(X))


def test_staged_search_takes_an_estimator_object_as_grid_search_does():
    """StagedSearchCV(CGEnsClassifier("perceptron", ...)) searches a clone of that object: the same search as the name."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] ** 2 + X[:, 1] > 0.5, 1, 0)
    options = dict(param_grid={"C": [0.1, 1.0]}, n_iters=[3, 8], cv=3)
    template = CGEnsClassifier("perceptron", n_candidates=50, random_state=0)
    by_object = StagedSearchCV(template, **options).fit(X, y)
    by_name = StagedSearchCV(
        "cgens", params={"learner": "perceptron", "n_candidates": 50, "random_state": 0}, **options
    ).fit(X, y)
    np.testing.assert_array_equal(by_object.cv_errors_, by_name.cv_errors_)
    assert by_object.best_params_ == by_name.best_params_
    assert by_object.best_estimator_ is not template and not hasattr(template, "coef_")  # cloned, never fitted
    np.testing.assert_array_equal(by_object.predict(X), by_name.predict(X))


def test_staged_search_counts_rounds_for_adaboost():
    X, y = load_iris(return_X_y=True)
    search = StagedSearchCV("adaboost-mh", n_iters=[2, 10], cv=3).fit(X, y)
    assert set(search.best_params_) == {"n_estimators"}
    assert search.cv_errors_.shape == (1, 2)


def test_staged_search_scores_a_setting_whose_fit_has_no_learner():
    """LPBoost with C <= 1/n is optimal before its first learner: that setting is scored by its
    learner-free prediction, not an error (IDA sets with the Table I grid)."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, 0)
    search = StagedSearchCV("lpboost", param_grid={"C": [0.005, 0.2]}, n_iters=[5, 10], cv=3).fit(X, y)
    lazy = []
    for train, test in StratifiedKFold(3, shuffle=True, random_state=0).split(X, y):
        model = make_method("lpboost", {"C": 0.005, "max_iter": 10}).fit(X[train], y[train])
        assert model.n_iter_ == 0
        lazy.append(np.mean(model.predict(X[test]) != y[test]))
    np.testing.assert_allclose(search.cv_errors_[0], np.mean(lazy))
    assert search.best_params_["C"] == 0.2


def test_plain_grid_search_without_iteration_counts():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, 0)
    search = StagedSearchCV("svm-ensemble-kernel", param_grid={"C": [0.01, 10.0]}, n_iters=None, cv=2).fit(X, y)
    errors = [
        np.mean(
            [
                np.mean(InfiniteEnsembleSVC(C=C).fit(X[a], y[a]).predict(X[b]) != y[b])
                for a, b in StratifiedKFold(2, shuffle=True, random_state=0).split(X, y)
            ]
        )
        for C in (0.01, 10.0)
    ]
    np.testing.assert_allclose(search.cv_errors_[:, 0], errors)
    assert search.best_params_ == {"C": (0.01, 10.0)[int(np.argmin(errors))]}


def test_adaboost_mh_bad_inputs():
    with pytest.raises(
        ValueError, match=r"The 'n_estimators' parameter of AdaBoostMHClassifier must be an int in the range \[1, inf\)"
    ):
        AdaBoostMHClassifier(n_estimators=0).fit(np.zeros((4, 1)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"'kernel' parameter of InfiniteEnsembleSVC must be a str among .*Got 'rbf'"):
        InfiniteEnsembleSVC("rbf").fit(np.zeros((4, 1)), [0, 1, 0, 1])


def _weighted_up_to(estimator) -> dict[str, str]:
    if isinstance(estimator, InfiniteEnsembleSVC):
        return weight_checks(LIBSVM)
    return weight_checks(TIES) if isinstance(estimator, AdaBoostMHClassifier) else {}  # ECC: a subclass


@parametrize_with_checks(
    [
        AdaBoostMHClassifier(n_estimators=10),
        AdaBoostECCClassifier(n_estimators=10, random_state=0),
        InfiniteEnsembleSVC(),
        StagedSearchCV("adaboost-mh", n_iters=[2, 5], cv=2),
    ],
    expected_failed_checks=_weighted_up_to,
)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


class _Spy(ClassifierMixin, BaseEstimator):
    """Records every fit: the rows of X it got and the extra fit parameters, as passed."""

    calls: list = []

    def __init__(self, C: float = 1.0) -> None:
        self.C = C

    def fit(self, X, y, X_unlabeled=None, note=None):
        _Spy.calls.append({"C": self.C, "n_rows": len(X), "X_unlabeled": X_unlabeled, "note": note})
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.fixture
def spy(monkeypatch):
    monkeypatch.setitem(METHODS, "spy", f"{__name__}:_Spy")
    monkeypatch.setattr(_Spy, "calls", [])
    return _Spy


def test_staged_search_passes_fit_params_unchanged_to_every_fold_and_the_refit(spy):
    """X_unlabeled (not sample-aligned: 7 rows against X's 20) and any other fit parameter reach all
    cv x grid fold fits and the refit as the very objects given, never indexed by the fold."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 2)), np.repeat([0, 1], 10)
    X_unlabeled, note = rng.normal(size=(7, 2)), {"a": 1}
    StagedSearchCV("spy", param_grid={"C": [1.0, 2.0, 3.0]}, n_iters=None, cv=4).fit(
        X, y, X_unlabeled=X_unlabeled, note=note
    )
    calls = spy.calls
    assert len(calls) == 4 * 3 + 1
    assert [c["n_rows"] for c in calls] == [15] * 12 + [20]  # the folds, then the refit on all of X
    assert all(c["X_unlabeled"] is X_unlabeled and c["note"] is note for c in calls)
    assert calls[-1]["C"] == 1.0  # every C ties: the first of the grid


def test_staged_search_without_fit_params_passes_none(spy):
    X, y = np.zeros((8, 1)), np.repeat([0, 1], 4)
    StagedSearchCV("spy", param_grid={"C": [1.0, 2.0]}, n_iters=None, cv=2).fit(X, y)
    assert len(spy.calls) == 5 and all(c["X_unlabeled"] is None and c["note"] is None for c in spy.calls)


@pytest.fixture(scope="module")
def ssmk_problem():
    """30 labelled points and 30 unlabelled ones: X_unlabeled has X's length, which fools GridSearchCV."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(30, 4))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=30) > 0, "odd", "even")
    return X, y, rng.normal(size=(30, 4))


SSMK_GRID = [0.1, 1.0, 10.0, 100.0]


def _ssmk_cv_errors(X, y, X_unlabeled, *, sliced: bool) -> np.ndarray:
    """Mean 5-fold error of SSMK per C, the unlabelled points given whole or (wrongly) cut by the fold."""
    errors = np.zeros(len(SSMK_GRID))
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        for g, C in enumerate(SSMK_GRID):
            centres = X_unlabeled[train] if sliced else X_unlabeled
            model = SSMKClassifier("L,R", C=C).fit(X[train], y[train], X_unlabeled=centres)
            errors[g] += np.mean(model.predict(X[test]) != y[test]) / 5
    return errors


def test_staged_search_cross_validates_ssmk_with_all_unlabelled_points(ssmk_problem):
    """The CV errors and the chosen C are those of an independent loop over the same folds that gives
    every fold fit all 30 unlabelled points; scikit-learn's GridSearchCV cuts X_unlabeled by the fold
    (it has X's length) and so scores other models and chooses another C here."""
    X, y, X_unlabeled = ssmk_problem
    search = StagedSearchCV(
        "ssmk", params={"kernels": "L,R"}, param_grid={"C": SSMK_GRID}, n_iters=None, cv=5, random_state=0
    ).fit(X, y, X_unlabeled=X_unlabeled)
    whole = _ssmk_cv_errors(X, y, X_unlabeled, sliced=False)
    np.testing.assert_allclose(search.cv_errors_[:, 0], whole)
    assert search.best_params_ == {"C": SSMK_GRID[int(np.argmin(whole))]}
    refit = search.best_estimator_
    assert refit.n_unlabeled_ == 30 and refit.C == search.best_params_["C"]
    direct = SSMKClassifier("L,R", C=refit.C).fit(X, y, X_unlabeled=X_unlabeled)
    np.testing.assert_array_equal(search.predict(X_unlabeled), direct.predict(X_unlabeled))

    cut = _ssmk_cv_errors(X, y, X_unlabeled, sliced=True)
    grid = GridSearchCV(SSMKClassifier("L,R"), {"C": SSMK_GRID}, cv=StratifiedKFold(5, shuffle=True, random_state=0))
    grid.fit(X, y, X_unlabeled=X_unlabeled)
    np.testing.assert_allclose(1 - grid.cv_results_["mean_test_score"], cut)  # GridSearchCV's cut
    assert not np.allclose(cut, whole)
    assert grid.best_params_["C"] != search.best_params_["C"]


def test_staged_search_reads_fitted_attributes_through_from_the_refit(ssmk_problem):
    X, y, X_unlabeled = ssmk_problem
    unfitted = StagedSearchCV("ssmk", param_grid={"C": [1.0]}, n_iters=None, cv=2)
    assert not hasattr(unfitted, "n_columns_by_kernel_") and not hasattr(unfitted, "history_")
    search = unfitted.fit(X, y, X_unlabeled=X_unlabeled)
    refit = search.best_estimator_
    for name in ("status_", "history_", "n_support_", "n_columns_by_kernel_", "coef_", "n_unlabeled_"):
        assert getattr(search, name) is getattr(refit, name) or getattr(search, name) == getattr(refit, name)
    assert search.n_iter_ == refit.n_iter_ == len(refit.coef_)  # the columns that entered LP (9)
    assert search.n_lps_ == refit.n_lps_ == len(search.history_)  # one history row per restricted LP
    assert not hasattr(search, "_kernel_idx")  # private: not read through
    with pytest.raises(AttributeError, match="nor has its refitted SSMKClassifier"):
        _ = search.storage_


def test_staged_search_with_nothing_to_choose_fits_once_without_folds():
    """One setting and no iteration choice: the refit alone, equal to the method fitted directly (a grid
    point overrides a fixed parameter), and staged_predict read through from the refit."""
    X, y = load_iris(return_X_y=True)
    fixed = StagedSearchCV("cgens-sls", params={"C": 0.01, "max_iter": 8}, n_iters=None, cv=3).fit(X, y)
    direct = CGEnsSLSClassifier(C=0.01, max_iter=8).fit(X, y)
    assert fixed.cv_errors_ is None and fixed.cv_results_ is None and fixed.best_params_ == {}
    np.testing.assert_array_equal(fixed.predict(X), direct.predict(X))
    for ours, theirs in zip(fixed.staged_predict(X), direct.staged_predict(X), strict=True):
        np.testing.assert_array_equal(ours, theirs)
    searched = StagedSearchCV(
        "cgens-sls", params={"C": 0.01, "max_iter": 8}, param_grid={"C": [1e-4, 1.0]}, n_iters=None, cv=3
    ).fit(X, y)
    assert np.isfinite(searched.cv_errors_).all() and searched.best_params_["C"] in (1e-4, 1.0)
    assert searched.best_estimator_.C == searched.best_params_["C"]
    assert not hasattr(StagedSearchCV("svm-ensemble-kernel", n_iters=None), "staged_predict")
