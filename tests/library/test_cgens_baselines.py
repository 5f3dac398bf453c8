"""Table II-IV baselines: AdaBoost over sampled perceptrons, CGEns at the RBF SVM's bandwidth, feature counts."""

import warnings

import numpy as np
import pytest
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench.estimators import (
    AdaBoostMHClassifier,
    CGEnsClassifier,
    CGEnsSLSClassifier,
    LearnerAdaBoostClassifier,
    StagedSearchCV,
)
from mkbench.estimators.feature_counts import feature_counts
from mkbench.estimators.learner_adaboost import WeakLearnerClassifier
from mkbench.learners import Perceptrons

from ._weight_checks import weight_checks
from .test_boosting import _all_stump_outputs  # every stump up to negation, and the constant learner, by brute force


def _data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] ** 2 + X[:, 1] > 0.6, 1, -1)
    return X, y


def _weighted_error(h, y, D):
    return float(D[h != y].sum() / D.sum())


def test_weak_stump_has_the_least_weighted_error_of_all_stumps():
    X, y = _data()
    D = np.random.default_rng(1).uniform(size=len(y))
    H = _all_stump_outputs(X)
    H = np.hstack([H, -H])
    best = min(_weighted_error(h, y, D) for h in H.T)
    weak = WeakLearnerClassifier("stump").fit(X, y, sample_weight=D)
    assert _weighted_error(weak.predict(X), y, D) == pytest.approx(best, abs=1e-12)


def test_weak_perceptron_is_the_best_of_its_draws():
    X, y = _data()
    D = np.random.default_rng(2).uniform(size=len(y))
    weak = WeakLearnerClassifier("perceptron", n_candidates=300, random_state=5).fit(X, y, sample_weight=D)
    family = Perceptrons(X, n_candidates=300, random_state=check_random_state(5))
    theta, kappa = family._draw(300)  # the same draws, in one block
    H = family._outputs(X @ theta - kappa)
    best = min(_weighted_error(h, y, D) for h in np.hstack([H, -H]).T)
    assert _weighted_error(weak.predict(X), y, D) == pytest.approx(best, abs=1e-12)
    assert best <= 0.5


def test_adaboost_over_stumps_is_discrete_adaboost_by_hand():
    """SAMME with two classes: alpha = ln((1 - e) / e), D_i *= exp(alpha [h(x_i) != y_i]), each round the
    stump with the least weighted error (brute force); F = sum_t alpha_t h_t."""
    X, y = _data(30, seed=3)
    model = LearnerAdaBoostClassifier("stump", n_estimators=8, random_state=0).fit(X, y)
    H = _all_stump_outputs(X)
    H = np.hstack([H, -H])
    D = np.full(len(y), 1 / len(y))
    F = np.zeros(len(y))
    for t in range(model.n_iter_):
        errors = np.array([_weighted_error(h, y, D) for h in H.T])
        h = H[:, np.argmin(errors)]
        e = errors.min()
        assert model.ensemble_.estimator_errors_[t] == pytest.approx(e, abs=1e-12)
        alpha = np.log((1 - e) / e)
        assert model.ensemble_.estimator_weights_[t] == pytest.approx(alpha, rel=1e-10)
        F += alpha * h
        D = D * np.exp(alpha * (h != y))
        D /= D.sum()
    np.testing.assert_array_equal(model.predict(X), np.where(F > 0, 1, -1))
    staged = list(model.staged_predict(X))
    assert len(staged) == model.n_iter_ == 8
    np.testing.assert_array_equal(staged[-1], model.predict(X))


def test_adaboost_over_perceptrons_is_scikit_learns_adaboost_over_the_weak_learner():
    X, y = _data(50, seed=4)
    model = LearnerAdaBoostClassifier("perceptron", n_estimators=10, n_candidates=200, random_state=7).fit(X, y)
    reference = AdaBoostClassifier(WeakLearnerClassifier(n_candidates=200), n_estimators=10, random_state=7).fit(X, y)
    np.testing.assert_allclose(model.decision_function(X), reference.decision_function(X))
    thetas = [h.learner_.theta for h in model.estimators_]
    assert not np.allclose(thetas[0], thetas[1])  # every round draws its own perceptrons


def test_two_classes_only():
    X, _ = _data()
    y = np.arange(len(X)) % 3
    with pytest.raises(ValueError, match="Only binary classification is supported.*use AdaBoostMHClassifier"):
        LearnerAdaBoostClassifier().fit(X, y)
    with pytest.raises(ValueError, match="The 'learner' parameter of WeakLearnerClassifier must be a str among"):
        WeakLearnerClassifier("fourier").fit(X, y % 2)
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        WeakLearnerClassifier("stump").fit(X, y % 2, sample_weight=-np.ones(len(y)))


def test_cgens_at_the_bandwidth_of_the_cross_validated_rbf_svm():
    """Table II: gamma = the RBF SVM's 5-fold CV choice (= scikit-learn's GridSearchCV on the same folds)."""
    X, y = _data(60, seed=5)
    grid = {"C": [1.0, 10.0], "gamma": [0.03, 0.3, 3.0]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        search = StagedSearchCV(
            "cgens",
            params={"learner": "fourier", "n_candidates": 100, "random_state": 0},
            param_grid={"C": [0.1, 1.0]},
            n_iters=[5, 20],
            svc_bandwidth_grid=grid,
        ).fit(X, y)
    reference = GridSearchCV(SVC(), grid, cv=StratifiedKFold(5, shuffle=True, random_state=0)).fit(X, y)
    assert search.best_params_["gamma"] == reference.best_params_["gamma"]
    assert search.best_estimator_.gamma == reference.best_params_["gamma"]
    svm = StagedSearchCV("svc-rbf", param_grid=grid, n_iters=None).fit(X, y)
    assert svm.best_params_ == reference.best_params_
    assert svm.n_iter_ == reference.best_estimator_.n_iter_.sum()  # libsvm's iterations, one count per class pair
    assert set(search.best_params_) == {"gamma", "C", "max_iter"}
    # the SVM's CV errors are kept: scikit-learn's mean test scores on the same folds, as errors
    assert search.svc_cv_results_["params"] == reference.cv_results_["params"]
    np.testing.assert_allclose(
        search.svc_cv_results_["mean_test_error"], 1.0 - reference.cv_results_["mean_test_score"], atol=1e-12
    )
    assert svm.svc_cv_results_ is None
    with pytest.raises(ValueError, match="svc_bandwidth_grid must be a dict of SVC parameters with a 'gamma' list"):
        StagedSearchCV("cgens", svc_bandwidth_grid={"C": [1.0]}).fit(X, y)


def test_feature_counts_of_every_stump_ensemble():
    X, y = _data(60, seed=6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        cgens = CGEnsClassifier(max_iter=12).fit(X, y)
        sls = CGEnsSLSClassifier(max_iter=7).fit(X, np.digitize(X[:, 2], [-0.3, 0.3]))
        perceptrons = CGEnsClassifier("perceptron", max_iter=3, n_candidates=20, random_state=0).fit(X, y)
    np.testing.assert_array_equal(feature_counts(cgens), np.bincount([h.feature for h in cgens.learners_], minlength=3))
    np.testing.assert_array_equal(feature_counts(sls), np.bincount([h.feature for h in sls.learners_], minlength=3))
    assert feature_counts(cgens).sum() == cgens.n_iter_ == 12
    mh = AdaBoostMHClassifier(n_estimators=9).fit(X, y)
    np.testing.assert_array_equal(
        feature_counts(mh), np.bincount([h.feature for h in mh.stumps_ if np.isfinite(h.threshold)], minlength=3)
    )
    samme = AdaBoostClassifier(n_estimators=15, random_state=0).fit(X, y)
    np.testing.assert_array_equal(
        feature_counts(samme), np.bincount([t.tree_.feature[0] for t in samme.estimators_], minlength=3)
    )
    search = StagedSearchCV("adaboost", params={"random_state": 0}, n_iters=[4, 15], cv=2).fit(X, y)
    assert feature_counts(search).sum() == search.n_iter_
    ours = LearnerAdaBoostClassifier("stump", n_estimators=6).fit(X, y)
    assert feature_counts(ours).sum() <= 6
    assert feature_counts(perceptrons) is None
    assert feature_counts(SVC().fit(X, y)) is None


def _expected_failures(estimator):
    if isinstance(estimator, WeakLearnerClassifier):
        return weight_checks(
            "a point of weight 0 still splits the sorted values, so the best stump's threshold (between "
            "equally good ones) can differ from the one fitted without that point"
        )
    return {}


@parametrize_with_checks(
    [
        LearnerAdaBoostClassifier("perceptron", n_estimators=5, n_candidates=30, random_state=0),
        WeakLearnerClassifier("stump"),
    ],
    expected_failed_checks=_expected_failures,
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
