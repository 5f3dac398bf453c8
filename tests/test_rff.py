"""RFF baseline of CGEns Table II: RBFSampler + liblinear hinge SVM, equal to the direct scikit-learn pipeline."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import RBFSampler
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench.estimators import RFFClassifier, StagedSearchCV


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(160, noise=0.3, random_state=0)
    return X[:120], y[:120], X[120:], y[120:]


def _pipeline(gamma, C, n_components, random_state):
    return make_pipeline(
        RBFSampler(gamma=gamma, n_components=n_components, random_state=random_state),
        LinearSVC(C=C, loss="hinge", dual=True, tol=1e-4, max_iter=10000, random_state=random_state),
    )


@pytest.mark.parametrize("gamma, C", [(0.5, 1.0), (2.0, 10.0)])
def test_rff_equals_the_scikit_learn_pipeline(moons, gamma, C):
    X, y, X_new, _ = moons
    model = RFFClassifier(gamma=gamma, C=C, n_components=300, random_state=3).fit(X, y)
    reference = _pipeline(gamma, C, 300, 3).fit(X, y)
    np.testing.assert_allclose(model.decision_function(X_new), reference.decision_function(X_new), rtol=1e-12)
    np.testing.assert_array_equal(model.predict(X_new), reference.predict(X_new))
    assert model.sampler_.random_weights_.shape == (2, 300)
    # theta ~ N(0, 2 gamma I)
    np.testing.assert_allclose(model.sampler_.random_weights_.std(), np.sqrt(2 * gamma), rtol=0.1)


def test_default_gamma_is_scikit_learns_scale(moons):
    X, y, X_new, _ = moons
    model = RFFClassifier(n_components=100, random_state=0).fit(X, y)
    gamma = 1.0 / (X.shape[1] * X.var())
    assert model.gamma_ == pytest.approx(gamma, rel=1e-12)
    reference = _pipeline(gamma, 1.0, 100, 0).fit(X, y)
    np.testing.assert_allclose(model.decision_function(X_new), reference.decision_function(X_new), rtol=1e-12)


def test_c_and_gamma_by_cross_validation_equal_grid_search_cv(moons):
    """Table II's RFF: C and gamma by 5-fold CV (StagedSearchCV, n_iters=None) = GridSearchCV on the pipeline."""
    X, y, _, _ = moons
    grid = {"C": [0.1, 10.0], "gamma": [0.1, 1.0, 10.0]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        search = StagedSearchCV("rff", params={"n_components": 200, "random_state": 0}, param_grid=grid,
                                n_iters=None).fit(X, y)
        reference = GridSearchCV(
            _pipeline(1.0, 1.0, 200, 0), {"linearsvc__C": grid["C"], "rbfsampler__gamma": grid["gamma"]},
            cv=StratifiedKFold(5, shuffle=True, random_state=0),
        ).fit(X, y)
    np.testing.assert_allclose(search.cv_errors_[:, 0], 1.0 - reference.cv_results_["mean_test_score"], atol=1e-12)
    assert search.best_params_ == {
        "C": reference.best_params_["linearsvc__C"], "gamma": reference.best_params_["rbfsampler__gamma"]
    }


def test_multiclass_is_one_vs_rest_like_liblinear():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    model = RFFClassifier(gamma=0.3, C=1.0, n_components=50, random_state=0).fit(X, y)
    reference = _pipeline(0.3, 1.0, 50, 0).fit(X, y)
    assert model.decision_function(X).shape == (90, 3)
    np.testing.assert_array_equal(model.predict(X), reference.predict(X))


@pytest.mark.parametrize(
    "params, message",
    [
        ({"gamma": 0.0}, "gamma must be a finite number > 0 or None"),
        ({"gamma": "scale"}, "gamma must be a finite number > 0 or None"),
        ({"C": -1.0}, "C must be a finite number > 0"),
        ({"n_components": 0}, "n_components must be an integer >= 1"),
        ({"max_iter": 2.5}, "max_iter must be an integer >= 1"),
        ({"tol": 0}, "tol must be a number > 0"),
    ],
)
def test_bad_parameters_are_named(moons, params, message):
    X, y, _, _ = moons
    with pytest.raises(ValueError, match=message):
        RFFClassifier(**params).fit(X, y)


@parametrize_with_checks([RFFClassifier(n_components=50, random_state=0)])
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


def test_the_searchs_refit_warns_when_liblinear_stops_short_and_the_fold_fits_do_not(moons):
    """Only the refitted model's ConvergenceWarning reaches the caller of a search without staged counts."""
    X, y, _, _ = moons
    grid = {"C": [100.0, 1000.0]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        StagedSearchCV("rff", params={"gamma": 1.0, "n_components": 50, "max_iter": 2, "random_state": 0},
                       param_grid=grid, n_iters=None, cv=3).fit(X, y)
    assert [issubclass(w.category, ConvergenceWarning) for w in caught] == [True]  # the refit's; 6 fold fits silent
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        StagedSearchCV("rff", params={"gamma": 1.0, "n_components": 50, "random_state": 0},
                       param_grid={"C": [0.1, 1.0]}, n_iters=None, cv=3).fit(X, y)
