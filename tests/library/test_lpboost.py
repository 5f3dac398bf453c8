"""LPBoost over stumps: column generation reaches the LP (eq. 4) over every stump, solved directly by HiGHS."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench.estimators.lpboost import LPBoostClassifier
from mkbench.learners import Stump
from mkbench.masters import solve_lp


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    X[:, 2] = np.round(X[:, 2])  # ties
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * X[:, 2] + 0.2 * rng.normal(size=50) > 0, "yes", "no")
    return X, y


def every_stump_and_negation(X):
    """All distinct stumps on X, both signs, and the constants +1 and -1: the negation-complete LP columns."""
    columns = [np.ones(len(X))]
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        columns += [np.where(X[:, j] > t, 1.0, -1.0) for t in (values[:-1] + values[1:]) / 2]
    K = np.column_stack(columns)
    return np.hstack([K, -K])


@pytest.mark.parametrize("solver", ["dual", "primal"])
@pytest.mark.parametrize("C", [0.05, 0.5])
def test_reaches_the_lp_over_all_stumps(data, C, solver):
    X, labels = data
    signed = np.where(labels == "yes", 1.0, -1.0)  # classes_ = ["no", "yes"]
    model = LPBoostClassifier(C=C, max_iter=1000, tol=1e-7, solver=solver).fit(X, labels)
    K = every_stump_and_negation(X)
    full = solve_lp(K, signed, C)  # alpha >= 0, no offset: eq. 4
    assert model.status_ == "optimal"
    assert model.history_[-1]["objective"] == pytest.approx(full.objective, rel=1e-6)
    assert np.all(model.coef_ >= -1e-12) and model.intercept_ == 0.0
    assert np.all(full.pricing_weights @ K <= 1 + 1e-7)  # the full LP's dual is feasible (eq. 5) ...
    margins = signed * model.decision_function(X)  # ... and the CG primal is feasible for it with the same value
    primal = model.coef_.sum() + C * np.maximum(0.0, 1.0 - margins).sum()
    assert primal == pytest.approx(full.objective, rel=1e-6)


def test_sparse_nonnegative_ensemble_and_staged_predictions(data):
    X, labels = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LPBoostClassifier(C=2.0, max_iter=5).fit(X, labels)
    assert model.n_iter_ == 5 and model.status_ == "max_iter"
    assert all(isinstance(h, Stump) for h in model.learners_)
    staged = list(model.staged_decision_function(X))
    np.testing.assert_allclose(staged[-1], model.decision_function(X))
    objectives = [row["objective"] for row in model.history_]
    assert all(a >= b - 1e-9 for a, b in zip(objectives, objectives[1:], strict=False))


def test_bad_inputs(data):
    X, labels = data
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        LPBoostClassifier().fit(X[:30], np.repeat(["a", "b", "c"], 10))
    with pytest.raises(ValueError, match=r"'C' parameter of LPBoostClassifier must be a float in the range \(0.0"):
        LPBoostClassifier(C=-1).fit(X, labels)


@parametrize_with_checks([LPBoostClassifier(max_iter=20)])
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
