"""sample_weight in scikit-learn's convention (issue 42, item 4): integer weights fit the repeated rows, weight 0 drops
the row, bad weights say so, and the estimators that cannot weigh their loss refuse weights naming the alternative.

Tolerances: the boosting ensembles and the ridge solves are exact up to rounding (1e-9); libsvm stops where the
largest KKT violation is below ``tol``, so a per-sample C and repeated rows reach the same optimum only to about
``tol`` in f: the SVM-based estimators are fitted at tol = 1e-8 (decision values then agree to ~1e-7 on values of
order 1; ``atol=1e-5``), and those whose SVC keeps scikit-learn's tol = 1e-3 (SelectedSVC, SelectedSVR) are compared
at 1e-2 relative to the largest |f| (measured 6e-4 and 5e-4).
"""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.metrics import mean_squared_error, zero_one_loss

from mkbench import (
    AdaBoostECCClassifier,
    AdaBoostMHClassifier,
    InfiniteEnsembleSVC,
    LearnerAdaBoostClassifier,
    MARKRegressor,
    RFFClassifier,
    SelectedKernelColumnRidge,
    SelectedKernelRidge,
    SelectedSVC,
    SelectedSVR,
    SILPClassifier,
    SimpleMKLClassifier,
    SSMKClassifier,
)
from mkbench.estimators import KernelColumnRidge, StagedSearchCV

KERNELS = ["linear", {"name": "rbf", "sigma": 2.0}]
EXACT = {"rtol": 1e-9, "atol": 1e-9}
TIGHT_SVM = {"rtol": 0.0, "atol": 1e-5}

CLASSIFIERS = {
    "adaboost-mh": (AdaBoostMHClassifier(20), EXACT),
    "adaboost-ecc": (AdaBoostECCClassifier(20, random_state=0), EXACT),
    "adaboost-stumps": (LearnerAdaBoostClassifier("stump", n_estimators=10, random_state=0), EXACT),
    "adaboost-perceptrons": (
        LearnerAdaBoostClassifier("perceptron", n_estimators=10, n_candidates=50, random_state=0),
        EXACT,
    ),
    "silp": (SILPClassifier(KERNELS, svm_tol=1e-8, tol=1e-6), TIGHT_SVM),
    "simplemkl": (SimpleMKLClassifier(KERNELS, svm_tol=1e-8, tol=1e-6), TIGHT_SVM),
    "silp-defaults": (SILPClassifier(svm_tol=1e-8, tol=1e-6), TIGHT_SVM),  # range scaling, 'auto' grid, C = sum(w)
    "rff-libsvm": (RFFClassifier(n_components=200, random_state=0, tol=1e-8), TIGHT_SVM),
    "rff-liblinear": (RFFClassifier(n_components=50, random_state=0, tol=1e-8, max_iter=100_000), TIGHT_SVM),
    "stump-svm": (InfiniteEnsembleSVC(tol=1e-8), TIGHT_SVM),
    "perceptron-svm": (InfiniteEnsembleSVC("perceptron", tol=1e-8), TIGHT_SVM),
    "svc-one-candidate": (SelectedSVC(search="grid", param_grid={"C": [1.0], "gamma": [0.2]}), None),
}
REGRESSORS = {
    "krr-eq8": (KernelColumnRidge(), EXACT),
    "krr-eq8-one-candidate": (SelectedKernelColumnRidge(search="grid", param_grid={"C": [0.5], "gamma": [0.1]}), EXACT),
    "krr-one-candidate": (SelectedKernelRidge(search="grid", param_grid={"alpha": [0.5], "gamma": [0.1]}), EXACT),
    "svr-one-candidate": (SelectedSVR(search="grid", param_grid={"C": [2.0], "gamma": [0.1]}), None),
}


@pytest.fixture(scope="module")
def weighted():
    X, y = make_classification(80, 5, n_informative=3, random_state=0)
    X_reg, y_reg = make_regression(80, 5, noise=5.0, random_state=0)
    weights = np.random.default_rng(0).integers(0, 4, size=80)  # some zeros: those rows are absent
    X_new = make_classification(40, 5, n_informative=3, random_state=1)[0]
    return X, y, X_reg, y_reg, weights, X_new


def _output(model, X):
    return model.decision_function(X) if hasattr(model, "decision_function") else model.predict(X)


def _close(name, ours, reference, tolerance):
    if tolerance is None:  # libsvm at scikit-learn's tol = 1e-3
        tolerance = {"rtol": 0.0, "atol": 1e-2 * np.max(np.abs(reference))}
    np.testing.assert_allclose(ours, reference, **tolerance, err_msg=name)


@pytest.mark.parametrize("name", sorted(CLASSIFIERS) + sorted(REGRESSORS))
def test_integer_weights_fit_the_repeated_rows(weighted, name):
    X, y, X_reg, y_reg, weights, X_new = weighted
    estimator, tolerance = CLASSIFIERS.get(name) or REGRESSORS[name]
    if name in REGRESSORS:
        X, y = X_reg, y_reg
    ours = clone(estimator).fit(X, y, sample_weight=weights)
    repeated = clone(estimator).fit(np.repeat(X, weights, axis=0), np.repeat(y, weights))
    _close(name, _output(ours, X_new), _output(repeated, X_new), tolerance)
    if hasattr(ours, "predict_proba"):
        _close(name, ours.predict_proba(X_new), repeated.predict_proba(X_new), tolerance)


@pytest.mark.parametrize("name", sorted(CLASSIFIERS) + sorted(REGRESSORS) + ["svc-selected", "svr-selected"])
def test_zero_weights_drop_the_rows(weighted, name):
    """The rows of weight 0 are dropped before anything sees them (a validation split included): the same model, up to
    the rounding of the weighted means (np.average) against the plain ones."""
    X, y, X_reg, y_reg, weights, X_new = weighted
    if name in ("svc-selected", "svr-selected"):
        estimator = (SelectedSVC if name == "svc-selected" else SelectedSVR)(max_evals=6, random_state=0)
    else:
        estimator = (CLASSIFIERS.get(name) or REGRESSORS[name])[0]
    if name in REGRESSORS or name == "svr-selected":
        X, y = X_reg, y_reg
    ones = (weights > 0).astype(float)
    ours = clone(estimator).fit(X, y, sample_weight=ones)
    dropped = clone(estimator).fit(X[weights > 0], y[weights > 0])
    np.testing.assert_allclose(_output(ours, X_new), _output(dropped, X_new), **EXACT, err_msg=name)


def test_mkl_weights_set_c_and_the_weighted_traces(weighted):
    X, y, _, _, weights, _ = weighted
    model = SILPClassifier(KERNELS).fit(X, y, sample_weight=weights)
    present = weights > 0
    assert model.C_ == weights.sum()  # C = "auto": n of the repeated rows
    repeated = SILPClassifier(KERNELS).fit(np.repeat(X, weights, axis=0), np.repeat(y, weights))
    np.testing.assert_allclose(model.kernel_scales_, repeated.kernel_scales_, rtol=1e-12)
    assert np.all(present[model.support_])  # support_ indexes fit's rows, never a dropped one


def test_mkl_precomputed_kernels_take_weights(weighted):
    X, y, _, _, weights, X_new = weighted
    kernels = [X @ X.T, np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 4.0)]
    tests = [X_new @ X.T, np.exp(-((X_new[:, None] - X[None]) ** 2).sum(-1) / 4.0)]
    ours = SILPClassifier("precomputed", svm_tol=1e-8).fit(kernels, y, sample_weight=weights)
    present = weights > 0
    dropped = SILPClassifier("precomputed", svm_tol=1e-8).fit(
        [K[np.ix_(present, present)] for K in kernels], y[present], sample_weight=weights[present]
    )
    np.testing.assert_allclose(
        ours.decision_function(tests), dropped.decision_function([K[:, present] for K in tests]), atol=1e-12
    )


def test_selection_weighs_the_validation_loss(weighted):
    X, y, X_reg, y_reg, weights, _ = weighted
    grid = {"C": [0.1, 1.0, 10.0], "gamma": [0.2]}
    svc = SelectedSVC(search="grid", param_grid=grid, random_state=0).fit(X, y, sample_weight=weights)
    rows = svc.validation_indices_
    assert np.all(weights[rows] > 0)  # indices of fit's rows; the dropped ones are in neither part
    train = np.setdiff1d(np.flatnonzero(weights), rows)
    for params, loss in svc.search_history_:
        model = clone(svc.best_estimator_).set_params(**params)
        scaled = svc._scaled(X)
        model.fit(scaled[train], y[train], sample_weight=weights[train])
        assert loss == pytest.approx(zero_one_loss(y[rows], model.predict(scaled[rows]), sample_weight=weights[rows]))
    svr = SelectedSVR(search="grid", param_grid={"C": [3.0], "gamma": [0.1]}, random_state=0)
    svr.fit(X_reg, y_reg, sample_weight=weights)
    rows = svr.validation_indices_
    unweighted = mean_squared_error(
        y_reg[rows], SelectedSVR(**svr.get_params()).fit(X_reg[weights > 0], y_reg[weights > 0]).predict(X_reg[rows])
    )
    assert svr.best_score_ != pytest.approx(unweighted)  # the weighted loss, not the plain one


def test_staged_search_splits_the_weights(weighted):
    X, y, _, _, weights, X_new = weighted
    search = StagedSearchCV("adaboost-mh", n_iters=[3, 10], cv=3).fit(X, y, sample_weight=weights)
    present = weights > 0
    dropped = StagedSearchCV("adaboost-mh", n_iters=[3, 10], cv=3).fit(
        X[present], y[present], sample_weight=weights[present]
    )
    np.testing.assert_array_equal(search.cv_errors_, dropped.cv_errors_)
    np.testing.assert_array_equal(search.decision_function(X_new), dropped.decision_function(X_new))
    refit = AdaBoostMHClassifier(search.best_params_["n_estimators"]).fit(X, y, sample_weight=weights)
    np.testing.assert_array_equal(search.decision_function(X_new), refit.decision_function(X_new))
    with pytest.raises(ValueError, match="rows of positive sample_weight hold one class only"):
        StagedSearchCV("adaboost-mh", n_iters=[3], cv=2).fit(X, y, sample_weight=(y == 1).astype(float))


ALL_WEIGHTED = [
    AdaBoostMHClassifier(5),
    AdaBoostECCClassifier(5, random_state=0),
    LearnerAdaBoostClassifier("stump", n_estimators=3),
    SILPClassifier(KERNELS),
    SimpleMKLClassifier(KERNELS),
    RFFClassifier(n_components=20),
    InfiniteEnsembleSVC(),
    SelectedSVC(max_evals=3),
    SelectedSVR(max_evals=3),
    SelectedKernelRidge(max_evals=3),
    SelectedKernelColumnRidge(max_evals=3),
    KernelColumnRidge(),
]


@pytest.mark.parametrize("estimator", ALL_WEIGHTED, ids=lambda e: type(e).__name__)
def test_bad_weights_name_sample_weight(weighted, estimator):
    X, y, *_ = weighted
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        clone(estimator).fit(X, y, sample_weight=np.where(np.arange(80) == 3, -1.0, 1.0))
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(79,\), expected \(80,\)"):
        clone(estimator).fit(X, y, sample_weight=np.ones(79))
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number"):
        clone(estimator).fit(X, y, sample_weight=np.zeros(80))
    with pytest.raises(ValueError, match="Input sample_weight contains NaN"):
        clone(estimator).fit(X, y, sample_weight=np.where(np.arange(80) == 3, np.nan, 1.0))


@pytest.mark.parametrize(
    ("estimator", "alternative"),
    [(SSMKClassifier(), "SILPClassifier or SelectedSVC"), (MARKRegressor(max_iter=3), "SelectedKernelColumnRidge")],
    ids=lambda e: type(e).__name__ if not isinstance(e, str) else "",
)
def test_estimators_that_cannot_weigh_their_loss_refuse_weights(weighted, estimator, alternative):
    X, y, *_ = weighted
    with pytest.raises(
        TypeError, match=rf"{type(estimator).__name__}.fit does not take sample_weight: .*{alternative}"
    ):
        clone(estimator).fit(X, y, sample_weight=np.ones(80))
    with pytest.raises(TypeError, match="got unexpected keyword argument"):
        clone(estimator).fit(X, y, weights=np.ones(80))
