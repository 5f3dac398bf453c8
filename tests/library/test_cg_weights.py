"""sample_weight and n_jobs of the column-generation estimators (issue 42, items 4-5): integer weights fit the repeated
rows, weight 0 drops the row, bad weights say so, and one-vs-rest in parallel is the same model.

Tolerances, from the masters' stopping rules (decision values here are of order 1-5):

* exact masters, 1e-6: HiGHS' LP vertex (CG-Boost l1, LPBoost, the LP over stumps) and the closed form of the
  simplex least squares (CGEns-SLS) agree to rounding (measured <= 1e-13); libsvm's full master (``strategy="all"``,
  eps = 1e-8 on its KKT gap) and Clarabel's interior point (gap 1e-8) to ~1e-8 (measured 2e-8);
* dual coordinate descent, 2e-2: it stops when the span of the dual's projected gradients 1 - y_i f(x_i) is
  below liblinear's tol = 1e-3 (CG-Boost's restricted masters, CGEns' ``solver_tol``), so a per-sample C and its
  copies reach that optimum by different coordinate paths, each to ~1e-3 in the margins; off the training points
  f sums such errors over the support (measured 3e-4 to 8e-3).

A weighted fit and the repeated rows generate their columns in different orders (a repeated row's column is
priced several times), so the fits are compared where column generation reaches the optimum ("optimal"), where the
model is the full master's, the same for both; LPBoost and CGEns-SLS at a fixed size follow the same path (the
stumps' scores are the same sums).
"""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_blobs, make_classification, make_regression
from sklearn.exceptions import ConvergenceWarning

from mkbench import (
    CGBoostClassifier,
    CGBoostRegressor,
    CGEnsClassifier,
    CGEnsSLSClassifier,
    ColumnGenerationClassifier,
    LPBoostClassifier,
)

EXACT = 1e-6
DUAL_CD = 2e-2

CLASSIFIERS = {
    "cgboost-l2-all-libsvm": (CGBoostClassifier(C=1.0), EXACT),
    "cgboost-l2-cg-dual-cd": (CGBoostClassifier(C=1.0, strategy="full"), DUAL_CD),
    "cgboost-l2-cg-clarabel": (CGBoostClassifier(C=1.0, strategy="full", solver="clarabel"), EXACT),
    "cgboost-l2-positive-clarabel": (CGBoostClassifier(C=1.0, positive=True, solver="clarabel"), EXACT),
    "cgboost-l2-label-dual-cd": (CGBoostClassifier(C=1.0, positive="label"), DUAL_CD),
    "cgboost-l2-cg-libsvm": (CGBoostClassifier(C=1.0, strategy="full", solver="libsvm"), EXACT),
    "cgboost-l1-primal": (CGBoostClassifier(C=1.0, penalty="l1"), EXACT),
    "cgboost-l1-dual": (CGBoostClassifier(C=1.0, penalty="l1", solver="dual", positive=True), EXACT),
    "cg-stumps-l2": (ColumnGenerationClassifier("stump", C=1.0), DUAL_CD),
    "cg-stumps-l1": (ColumnGenerationClassifier("stump", penalty="l1", C=1.0), EXACT),
    "cgens": (CGEnsClassifier(max_iter=500), DUAL_CD),
    "cgens-tight": (CGEnsClassifier(max_iter=500, tol=1e-6, solver_tol=1e-8, loose_tol=None), EXACT),
    "cgens-libsvm": (
        CGEnsClassifier(max_iter=500, tol=1e-6, solver_tol=1e-8, fit_intercept=True, solver="libsvm"),
        EXACT,
    ),
    "lpboost": (LPBoostClassifier(max_iter=30), EXACT),
    "cgens-sls": (CGEnsSLSClassifier(max_iter=30), EXACT),
}
REGRESSORS = {
    "regressor-all-libsvm": (CGBoostRegressor(C=1.0), EXACT),
    "regressor-cg-clarabel": (CGBoostRegressor(C=1.0, strategy="full"), EXACT),
    "regressor-cg-libsvm": (CGBoostRegressor(C=1.0, strategy="full", solver="libsvm"), EXACT),
}


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(40, 4, random_state=0)
    weights = np.random.RandomState(0).randint(0, 4, len(y))  # 0 to 3: some rows dropped, some repeated
    X_new = np.random.RandomState(1).randn(30, 4)
    return X, y, weights, X_new


def _fit(estimator, X, y, **fit_params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # LPBoost / CGEns-SLS at their size
        return clone(estimator).fit(X, y, **fit_params)


def _assert_same(weighted, repeated, X_new, atol):
    f = weighted.decision_function(X_new) if hasattr(weighted, "decision_function") else weighted.predict(X_new)
    g = repeated.decision_function(X_new) if hasattr(repeated, "decision_function") else repeated.predict(X_new)
    scale = max(1.0, float(np.max(np.abs(g))))
    np.testing.assert_allclose(f, g, rtol=0.0, atol=atol * scale)
    if getattr(weighted, "estimators_", None) is None and not isinstance(
        weighted, (CGEnsSLSClassifier, LPBoostClassifier)
    ):
        assert weighted.status_ == repeated.status_ == "optimal"


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_integer_weights_are_repeated_rows(data, name):
    estimator, atol = CLASSIFIERS[name]
    X, y, weights, X_new = data
    weighted = _fit(estimator, X, y, sample_weight=weights)
    repeated = _fit(estimator, np.repeat(X, weights, axis=0), np.repeat(y, weights))
    _assert_same(weighted, repeated, X_new, atol)


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_zero_weights_are_dropped_rows(data, name):
    estimator, atol = CLASSIFIERS[name]
    X, y, weights, X_new = data
    kept = weights > 0
    weighted = _fit(estimator, X, y, sample_weight=kept.astype(float))
    dropped = _fit(estimator, X[kept], y[kept])
    _assert_same(weighted, dropped, X_new, atol)  # the same rows; weighted means round differently


def test_unit_weights_are_no_weights(data):
    X, y, _, X_new = data
    for estimator in (CGBoostClassifier(C=1.0, strategy="full"), CGEnsClassifier(max_iter=20)):
        f = _fit(estimator, X, y, sample_weight=np.ones(len(y))).decision_function(X_new)
        np.testing.assert_allclose(f, _fit(estimator, X, y).decision_function(X_new), rtol=0.0, atol=1e-12)


@pytest.mark.parametrize("name", sorted(REGRESSORS))
def test_regressor_integer_weights_are_repeated_rows(name):
    estimator, atol = REGRESSORS[name]
    X, y = make_regression(40, 4, noise=5.0, random_state=0)
    weights = np.random.RandomState(0).randint(0, 4, len(y))
    X_new = np.random.RandomState(1).randn(30, 4)
    weighted = _fit(estimator, X, y, sample_weight=weights)
    repeated = _fit(estimator, np.repeat(X, weights, axis=0), np.repeat(y, weights))
    _assert_same(weighted, repeated, X_new, atol)
    assert weighted.y_mean_ == pytest.approx(repeated.y_mean_, rel=1e-12)
    assert weighted.y_scale_ == pytest.approx(repeated.y_scale_, rel=1e-12)
    kept = weights > 0
    dropped = _fit(estimator, X[kept], y[kept])
    _assert_same(_fit(estimator, X, y, sample_weight=kept * 1.0), dropped, X_new, atol)


def test_weighted_scalings_are_those_of_the_repeated_rows(data):
    X, y, weights, _ = data
    X = X * [1.0, 10.0, 100.0, 0.1] + 3.0  # raw units: the scaling, the RBF's width and the normalisation all matter
    for estimator in (CGBoostClassifier(C=1.0), CGBoostClassifier(C=1.0, penalty="l1")):
        weighted = _fit(estimator, X, y, sample_weight=weights)
        repeated = _fit(estimator, np.repeat(X, weights, axis=0), np.repeat(y, weights))
        np.testing.assert_allclose(weighted.input_mean_, repeated.input_mean_, rtol=1e-12)
        np.testing.assert_allclose(weighted.input_scale_, repeated.input_scale_, rtol=1e-12)
        for a, b in zip(weighted.kernels_, repeated.kernels_, strict=True):
            assert a.scale == pytest.approx(b.scale, rel=1e-10)
        assert weighted.kernels_[-1].kernel.sigma == pytest.approx(repeated.kernels_[-1].kernel.sigma, rel=1e-10)


def test_one_vs_rest_and_platt_pass_the_weights():
    X, y = make_blobs(60, 4, centers=3, cluster_std=2.0, random_state=0)
    weights = np.random.RandomState(0).randint(1, 4, len(y))
    X_new = np.random.RandomState(1).randn(20, 4)
    estimator = CGBoostClassifier(C=1.0, penalty="l1")
    weighted = _fit(estimator, X, y, sample_weight=weights)
    for c, model in zip(weighted.classes_, weighted.estimators_, strict=True):
        binary = _fit(estimator, X, (y == c).astype(int), sample_weight=weights)
        np.testing.assert_array_equal(model.decision_function(X_new), binary.decision_function(X_new))
    repeated = _fit(estimator, np.repeat(X, weights, axis=0), np.repeat(y, weights))
    _assert_same(weighted, repeated, X_new, EXACT)
    calibrated = _fit(estimator.set_params(probability=True), X, y, sample_weight=weights)
    np.testing.assert_array_equal(calibrated.decision_function(X_new), weighted.decision_function(X_new))
    unweighted = _fit(estimator, X, y)
    assert not np.allclose(calibrated.predict_proba(X_new), unweighted.predict_proba(X_new))


BAD = [
    (lambda n: -np.ones(n), "Negative values in data passed to `sample_weight`"),
    (lambda n: np.ones(n - 1), r"sample_weight.shape == \(39,\), expected \(40,\)"),
    (lambda n: np.zeros(n), "Sample weights must contain at least one non-zero number"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "Input sample_weight contains NaN"),
]


@pytest.mark.parametrize(
    "estimator",
    [
        CGBoostClassifier(C=1.0),
        ColumnGenerationClassifier("stump"),
        CGEnsClassifier(max_iter=5),
        LPBoostClassifier(max_iter=5),
        CGEnsSLSClassifier(max_iter=5),
        CGBoostRegressor(C=1.0),
    ],
    ids=lambda estimator: type(estimator).__name__ + ("-stump" if getattr(estimator, "columns", "") == "stump" else ""),
)
def test_bad_weights_name_sample_weight(data, estimator):
    X, y, _, _ = data
    for make, message in BAD:
        with pytest.raises(ValueError, match=message):
            clone(estimator).fit(X, y, sample_weight=make(len(y)))


@pytest.mark.parametrize("C", [np.inf, np.nan, 0.0, -1.0])
def test_a_bad_scalar_C_is_named_before_it_meets_the_weights(data, C):
    X, y, weights, _ = data
    for estimator in (
        ColumnGenerationClassifier("stump"),
        CGBoostClassifier(),
        CGEnsSLSClassifier(),
        CGBoostRegressor(),
    ):
        with pytest.raises(ValueError, match=rf"The 'C' parameter of {type(estimator).__name__} must be"):
            clone(estimator).set_params(C=C).fit(X, y, sample_weight=weights)


@pytest.mark.parametrize(
    "estimator",
    [
        CGBoostClassifier(C=1.0),
        CGBoostClassifier(C=1.0, penalty="l1"),
        ColumnGenerationClassifier("stump", C=1.0),
    ],
    ids=["cgboost-l2", "cgboost-l1", "cg-stumps"],
)
def test_n_jobs_gives_the_same_one_vs_rest_models(estimator):
    X, y = make_blobs(60, 4, centers=3, cluster_std=2.0, random_state=0)
    X_new = np.random.RandomState(1).randn(20, 4)
    serial = _fit(estimator, X, y)
    parallel = _fit(estimator.set_params(n_jobs=2), X, y)
    np.testing.assert_array_equal(parallel.decision_function(X_new), serial.decision_function(X_new))
    np.testing.assert_array_equal(parallel.n_iter_, serial.n_iter_)


def test_n_jobs_wherever_the_work_splits():
    """One-vs-rest, the stump search (CGEns, LPBoost) and BLAS (CGBoostRegressor) take it (issue 44, item 3)."""
    for estimator in (CGBoostClassifier(), ColumnGenerationClassifier(), CGEnsClassifier(), LPBoostClassifier()):
        assert estimator.get_params()["n_jobs"] is None
    assert CGBoostRegressor().get_params()["n_jobs"] is None
    with pytest.raises(ValueError, match="'n_jobs' parameter"):
        CGBoostClassifier(n_jobs="2").fit(*make_blobs(30, 2, centers=3, random_state=0))


def test_the_clarabel_fallback_takes_the_weights(data, monkeypatch):
    """Where the master solver="auto" picked fails, the refit with Clarabel gets the same per-sample C."""
    import mkbench.estimators.column_generation as engine
    from mkbench.exceptions import SolverError

    build = engine.make_hinge_master

    def failing_libsvm(*args, solver, **kwargs):
        if solver == "libsvm":
            raise SolverError("libsvm stalled (test)")
        return build(*args, solver=solver, **kwargs)

    monkeypatch.setattr(engine, "make_hinge_master", failing_libsvm)
    X, y, weights, X_new = data
    estimator = CGBoostClassifier(C=1.0)  # strategy "all", libsvm's full master, then Clarabel
    weighted = _fit(estimator, X, y, sample_weight=weights)
    repeated = _fit(estimator, np.repeat(X, weights, axis=0), np.repeat(y, weights))
    assert "refitted with 'clarabel'" in weighted.history_[0]["note"]
    _assert_same(weighted, repeated, X_new, EXACT)
