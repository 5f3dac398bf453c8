"""solve_precomputed makes the libsvm call SVC / SVR make: same duals, intercepts, convergence flag."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC, SVR

from mkbench.masters.libsvm_call import solve_precomputed


def _problem(seed, n=60, d=5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X @ X.T + 1.0, y, X[:, 1] + 0.1 * rng.normal(size=n)


def _scattered(model, n):
    coef = np.zeros(n)
    coef[model.support_] = model.dual_coef_[0]
    return coef


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_classification_equals_svc(seed, C):
    K, y, _ = _problem(seed)
    svc = SVC(kernel="precomputed", C=C, tol=1e-4).fit(K, y)
    dual = solve_precomputed(K, y, C=C, tol=1e-4)
    np.testing.assert_array_equal(dual.dual_coef, _scattered(svc, len(y)))
    assert dual.intercept == svc.intercept_[0]
    assert dual.iterations == int(np.sum(svc.n_iter_))
    assert dual.converged


def test_classification_first_label_does_not_flip_signs():
    # libsvm numbers classes in order of appearance; SVC's sign convention must hold either way.
    K, y, _ = _problem(7)
    order = np.argsort(-y, kind="stable")  # +1 first
    K, y = K[np.ix_(order, order)], y[order]
    dual = solve_precomputed(K, y, C=1.0, tol=1e-4)
    svc = SVC(kernel="precomputed", C=1.0, tol=1e-4).fit(K, y)
    np.testing.assert_array_equal(dual.dual_coef, _scattered(svc, len(y)))
    assert np.all(dual.dual_coef * y >= 0)  # y_i u_i with u >= 0


@pytest.mark.parametrize("epsilon", [0.0, 0.1, 0.5])
def test_regression_equals_svr(epsilon):
    K, _, target = _problem(3)
    svr = SVR(kernel="precomputed", C=10.0, tol=1e-4, epsilon=epsilon).fit(K, target)
    dual = solve_precomputed(K, target, C=10.0, tol=1e-4, epsilon=epsilon)
    np.testing.assert_array_equal(dual.dual_coef, _scattered(svr, len(target)))
    assert dual.intercept == svr.intercept_[0]


def test_iteration_cap_reported_as_not_converged():
    K, y, _ = _problem(1, n=200)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        SVC(kernel="precomputed", C=100.0, max_iter=3).fit(K, y)
    assert any(issubclass(c.category, ConvergenceWarning) for c in caught)
    dual = solve_precomputed(K, y, C=100.0, tol=1e-3, max_iter=3)
    assert not dual.converged
    assert dual.iterations == 3
