"""RFF baseline of CGEns Table II: RBFSampler + a linear SVM (libsvm on the features' Gram matrix, or liblinear),
equal to the direct scikit-learn pipelines."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import RBFSampler
from sklearn.model_selection import GridSearchCV, ParameterGrid, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC, LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench.estimators import RFFClassifier, StagedSearchCV

from ._weight_checks import LIBSVM, weight_checks


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(160, noise=0.3, random_state=0)
    return X[:120], y[:120], X[120:], y[120:]


def _pipeline(gamma, C, n_components, random_state, solver="libsvm"):
    """The features, then libsvm's SVM with a linear kernel on them (free offset), or liblinear's (offset penalised)."""
    svm = (
        SVC(C=C, kernel="linear")
        if solver == "libsvm"
        else LinearSVC(C=C, loss="hinge", dual=True, tol=1e-4, max_iter=10000, random_state=random_state)
    )
    return make_pipeline(RBFSampler(gamma=gamma, n_components=n_components, random_state=random_state), svm)


@pytest.mark.parametrize("solver", ["libsvm", "liblinear"])
@pytest.mark.parametrize("gamma, C", [(0.5, 1.0), (2.0, 10.0), (2.0, 1e4)])
def test_rff_equals_the_scikit_learn_pipeline(moons, gamma, C, solver):
    X, y, X_new, _ = moons
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # liblinear at C = 10^4
        model = RFFClassifier(gamma=gamma, C=C, n_components=300, solver=solver, random_state=3).fit(X, y)
        reference = _pipeline(gamma, C, 300, 3, solver).fit(X, y)
    assert model.solver_ == solver
    # libsvm: the same SMO on kernel values computed by BLAS here and by libsvm there
    rtol = 1e-6 if solver == "libsvm" else 1e-12
    np.testing.assert_allclose(model.decision_function(X_new), reference.decision_function(X_new), rtol=rtol, atol=1e-9)
    np.testing.assert_array_equal(model.predict(X_new), reference.predict(X_new))
    assert model.sampler_.random_weights_.shape == (2, 300)
    # theta ~ N(0, 2 gamma I)
    np.testing.assert_allclose(model.sampler_.random_weights_.std(), np.sqrt(2 * gamma), rtol=0.1)


def test_default_gamma_is_scikit_learns_scale(moons):
    X, y, X_new, _ = moons
    model = RFFClassifier(n_components=100, random_state=0).fit(X, y)
    gamma = 1.0 / (X.shape[1] * X.var())
    assert model.gamma_ == pytest.approx(gamma, rel=1e-12)
    reference = _pipeline(gamma, 1.0, 100, 0, model.solver_).fit(X, y)  # 120 points > 100 features: liblinear
    assert model.solver_ == "liblinear"
    np.testing.assert_allclose(model.decision_function(X_new), reference.decision_function(X_new), rtol=1e-12)


def test_c_and_gamma_by_cross_validation_equal_grid_search_cv(moons):
    """Table II's RFF: C and gamma by 5-fold CV (StagedSearchCV, n_iters=None) = GridSearchCV on the pipeline."""
    X, y, _, _ = moons
    grid = {"C": [0.1, 10.0], "gamma": [0.1, 1.0, 10.0]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        search = StagedSearchCV(
            "rff", params={"n_components": 200, "random_state": 0}, param_grid=grid, n_iters=None
        ).fit(X, y)
        reference = GridSearchCV(
            _pipeline(1.0, 1.0, 200, 0),
            {"svc__C": grid["C"], "rbfsampler__gamma": grid["gamma"]},
            cv=StratifiedKFold(5, shuffle=True, random_state=0),
        ).fit(X, y)
    errors = {
        (p["svc__C"], p["rbfsampler__gamma"]): 1.0 - score
        for p, score in zip(reference.cv_results_["params"], reference.cv_results_["mean_test_score"], strict=True)
    }
    expected = [errors[p["C"], p["gamma"]] for p in ParameterGrid(grid)]  # the search's order, C outermost
    np.testing.assert_allclose(search.cv_errors_[:, 0], expected, atol=1e-12)
    assert search.best_params_ == {
        "C": reference.best_params_["svc__C"],
        "gamma": reference.best_params_["rbfsampler__gamma"],
    }


def test_auto_solver_takes_the_smaller_side():
    """libsvm's Gram matrix is n x n: "auto" takes it while n <= D, liblinear's primal features beyond."""
    X, y = make_moons(120, noise=0.3, random_state=0)
    assert RFFClassifier(n_components=120, random_state=0).fit(X, y).solver_ == "libsvm"
    assert RFFClassifier(n_components=119, random_state=0).fit(X, y).solver_ == "liblinear"


@pytest.mark.parametrize("solver", ["libsvm", "liblinear"])
def test_multiclass_is_the_solvers_own(solver):
    """One-vs-one with libsvm (as SVC), one-vs-rest with liblinear."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    model = RFFClassifier(gamma=0.3, C=1.0, n_components=50, solver=solver, random_state=0).fit(X, y)
    reference = _pipeline(0.3, 1.0, 50, 0, solver).fit(X, y)
    assert model.decision_function(X).shape == (90, 3)
    np.testing.assert_array_equal(model.predict(X), reference.predict(X))


@pytest.mark.parametrize(
    "params, message",
    [
        ({"gamma": 0.0}, r"'gamma' parameter of RFFClassifier must be a float in the range \(0.0, inf\) or None"),
        ({"gamma": "scale"}, r"'gamma' parameter .* Got 'scale' instead"),
        ({"C": -1.0}, r"'C' parameter .* must be a float in the range \(0.0, inf\)\. Got -1.0"),
        ({"n_components": 0}, r"'n_components' parameter .* must be an int in the range \[1, inf\)\. Got 0"),
        ({"max_iter": 2.5}, r"'max_iter' parameter .* must be an int in the range \[1, inf\) or None\. Got 2.5"),
        ({"tol": 0}, r"'tol' parameter .* must be a float in the range \(0.0, inf\) or None\. Got 0"),
        ({"solver": "lbfgs"}, r"'solver' parameter .* must be a str among .*'libsvm'.* Got 'lbfgs'"),
    ],
)
def test_bad_parameters_are_named(moons, params, message):
    X, y, _, _ = moons
    with pytest.raises(ValueError, match=message):
        RFFClassifier(**params).fit(X, y)


@parametrize_with_checks(
    [RFFClassifier(n_components=50, random_state=0)], expected_failed_checks=lambda estimator: weight_checks(LIBSVM)
)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


def test_the_searchs_refit_warns_when_the_solver_stops_short_and_the_fold_fits_do_not(moons):
    """Only the refitted model's ConvergenceWarning reaches the caller of a search without staged counts."""
    X, y, _, _ = moons
    grid = {"C": [100.0, 1000.0]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        StagedSearchCV(
            "rff",
            params={"gamma": 1.0, "n_components": 50, "max_iter": 2, "random_state": 0},
            param_grid=grid,
            n_iters=None,
            cv=3,
        ).fit(X, y)
    assert [issubclass(w.category, ConvergenceWarning) for w in caught] == [True]  # the refit's; 6 fold fits silent
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        StagedSearchCV(
            "rff",
            params={"gamma": 1.0, "n_components": 50, "random_state": 0},
            param_grid={"C": [0.1, 1.0]},
            n_iters=None,
            cv=3,
        ).fit(X, y)
