"""Multi-class (one-vs-rest) and probabilities (Platt scaling) of CG-Boost, SILP and SimpleMKL (issue 22):
each equals scikit-learn's own route (OneVsRestClassifier, CalibratedClassifierCV) on the same data."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.multiclass import OneVsRestClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench import SILPClassifier, SimpleMKLClassifier

from ._paper import paper_cgboost
from ._weight_checks import SPLIT, weight_checks

ESTIMATORS = {
    "cgboost-l1": paper_cgboost(["linear", "rbf"], penalty="l1", C=1.0),
    "cgboost-l2": paper_cgboost(["linear", "rbf"], C=1.0),
    "silp": SILPClassifier(["linear", "rbf"], C=10.0),
    "simplemkl": SimpleMKLClassifier(["linear", "rbf"], C=10.0),
}


@pytest.fixture(scope="module")
def three_classes():
    X, y = make_blobs(n_samples=90, centers=3, cluster_std=1.0, random_state=0)
    labels = np.array(["a", "b", "c"])[y]
    return X[:60], labels[:60], X[60:], labels[60:]


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_multiclass_is_one_vs_rest(three_classes, name):
    X, y, X_new, y_new = three_classes
    model = clone(ESTIMATORS[name]).fit(X, y)
    reference = OneVsRestClassifier(clone(ESTIMATORS[name])).fit(X, y)
    assert list(model.classes_) == ["a", "b", "c"] and len(model.estimators_) == 3
    np.testing.assert_allclose(model.decision_function(X_new), reference.decision_function(X_new), atol=1e-8)
    np.testing.assert_array_equal(model.predict(X_new), reference.predict(X_new))
    assert np.mean(model.predict(X_new) == y_new) > 0.8  # SVC: 0.87
    binary = clone(ESTIMATORS[name]).fit(X, y == "a")  # refit on two classes: binary again
    assert binary.estimators_ is None and binary.decision_function(X_new).shape == (30,)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_multiclass_status_is_the_least_finished_class(three_classes, name):
    """status_ beyond two classes: "optimal" when every one-vs-rest model is, else the first other status."""
    X, y = three_classes[:2]
    model = clone(ESTIMATORS[name]).fit(X, y)
    assert [estimator.status_ for estimator in model.estimators_] == ["optimal"] * 3
    assert model.status_ == "optimal"
    capped = clone(ESTIMATORS[name]).set_params(max_iter=1, tol=1e-12)
    with pytest.warns(ConvergenceWarning):
        capped.fit(X, y)
    statuses = [estimator.status_ for estimator in capped.estimators_]
    assert statuses != ["optimal"] * 3  # one iteration does not reach the optimum of every class here
    assert capped.status_ == next(status for status in statuses if status != "optimal")


@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("name", ["cgboost-l1", "silp"])
def test_probabilities_are_platt_scaling_on_5_fold_cv(three_classes, name, classes):
    X, y, X_new, _ = three_classes
    if classes == 2:
        X, y = X[y != "c"], y[y != "c"]
    model = clone(ESTIMATORS[name]).set_params(probability=True).fit(X, y)
    reference = CalibratedClassifierCV(clone(ESTIMATORS[name]), method="sigmoid", cv=5, ensemble=False).fit(X, y)
    proba = model.predict_proba(X_new)
    assert proba.shape == (30, classes)
    np.testing.assert_allclose(proba, reference.predict_proba(X_new), atol=1e-8)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(model.predict_log_proba(X_new), np.log(proba))
    assert not hasattr(clone(ESTIMATORS[name]), "predict_proba")  # only with probability=True, as SVC


def test_probability_errors(three_classes):
    X, y, _, _ = three_classes
    with pytest.raises(ValueError, match=r"'probability' parameter of CGBoostClassifier must be an instance of 'bool'"):
        paper_cgboost(probability="yes").fit(X, y)
    grams = [X @ X.T]
    with pytest.raises(ValueError, match="probability=True needs the data points .*CalibratedClassifierCV"):
        SILPClassifier("precomputed", probability=True).fit(grams, y == "a")


def _platt_is_not_the_sign(estimator):
    return {
        "check_classifiers_train": "as SVC(probability=True), whose documentation says so: Platt's sigmoid is "
        "fitted on cross-validated decision values, so its p = 0.5 need not fall at f = 0 and argmax(predict_proba) "
        "may differ from predict near the boundary",
        **weight_checks(SPLIT),  # Platt's folds; the estimators that take no sample_weight skip these checks
    }


@parametrize_with_checks(
    [
        paper_cgboost(["linear", "rbf"], penalty="l1", max_iter=50, probability=True),
        SILPClassifier(["linear", "rbf"], max_iter=30, probability=True),
    ],
    expected_failed_checks=_platt_is_not_the_sign,
)
def test_scikit_learn_estimator_checks_with_probabilities(estimator, check):
    check(estimator)
