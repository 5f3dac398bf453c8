"""predict_proba on every classifier (issue 42, item 4): shapes, columns in classes_ order, rows summing to 1, argmax
agreeing with predict on most points, and a log loss that beats the class prior's on held-out points."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_wine, make_classification
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import NotFittedError
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from mkbench import (
    AdaBoostECCClassifier,
    AdaBoostMHClassifier,
    CGEnsClassifier,
    InfiniteEnsembleSVC,
    LPBoostClassifier,
    LearnerAdaBoostClassifier,
    RFFClassifier,
    SelectedSVC,
    SILPClassifier,
    SimpleMKLClassifier,
    SSMKClassifier,
    StagedSearchCV,
)
from mkbench.estimators.stump_adaboost import boosting_proba

KERNELS = ["linear", "rbf"]
#: (estimator, takes more than two classes)
CLASSIFIERS = {
    "adaboost-mh": (AdaBoostMHClassifier(30), True),
    "adaboost-ecc": (AdaBoostECCClassifier(30, random_state=0), True),
    "adaboost-perceptrons": (LearnerAdaBoostClassifier(n_estimators=20, n_candidates=200, random_state=0), False),
    "stump-svm": (InfiniteEnsembleSVC(probability=True), True),
    "rff": (RFFClassifier(n_components=300, random_state=0, probability=True), True),
    "rff-liblinear": (RFFClassifier(n_components=300, random_state=0, solver="liblinear", probability=True), True),
    "ssmk": (SSMKClassifier(probability=True), False),
    "cgens": (CGEnsClassifier(max_iter=30, probability=True), False),
    "lpboost": (LPBoostClassifier(max_iter=30, probability=True), False),
    "svc": (SelectedSVC(max_evals=6, random_state=0, probability=True), True),
    "silp": (SILPClassifier(KERNELS, probability=True), True),
    "simplemkl": (SimpleMKLClassifier(KERNELS, probability=True), True),
    "staged-search": (StagedSearchCV("adaboost-mh", n_iters=[10, 30], cv=3), True),
    "staged-search-rff": (
        StagedSearchCV(
            "rff",
            params={"n_components": 200, "random_state": 0, "probability": True},
            param_grid={"C": [0.1, 1.0]},
            n_iters=None,
            cv=3,
        ),
        True,
    ),
}


def _split(X, y, labels):
    X = StandardScaler().fit_transform(X)
    return train_test_split(X, labels[y], test_size=0.4, random_state=0, stratify=y)


@pytest.fixture(scope="module")
def problems():
    X, y = make_classification(200, 6, n_informative=4, random_state=0)
    wine_X, wine_y = load_wine(return_X_y=True)
    return {
        "binary": _split(X, y, np.array(["no", "yes"])),
        "multi-class": _split(wine_X, wine_y, np.array(["barolo", "grignolino", "barbera"])),
    }


@pytest.mark.parametrize("problem", ["binary", "multi-class"])
@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_predict_proba(problems, name, problem):
    estimator, multi_class = CLASSIFIERS[name]
    if problem == "multi-class" and not multi_class:
        pytest.skip("a binary method")
    X, X_test, y, y_test = problems[problem]
    model = clone(estimator).fit(X, y)
    proba = model.predict_proba(X_test)
    classes = np.unique(y)
    assert list(model.classes_) == list(classes)
    assert proba.shape == (len(X_test), classes.size)
    assert np.all(proba >= 0)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(model.predict_log_proba(X_test), np.log(proba))
    assert np.mean(classes[np.argmax(proba, axis=1)] == model.predict(X_test)) >= 0.9
    prior = np.mean(y[:, None] == classes, axis=0)
    loss = log_loss(y_test, proba, labels=classes)
    assert np.isfinite(loss) and loss < log_loss(y_test, np.tile(prior, (len(y_test), 1)), labels=classes)


@pytest.mark.parametrize("name", ["stump-svm", "rff", "ssmk", "svc", "silp"])
def test_probabilities_need_probability_true_where_they_cost_fits(name):
    estimator, _ = CLASSIFIERS[name]
    assert not hasattr(clone(estimator).set_params(probability=False), "predict_proba")  # as SVC
    with pytest.raises(ValueError, match="probability.*'yes'"):
        X, y = make_classification(40, 4, random_state=0)
        clone(estimator).set_params(probability="yes").fit(X, y)


@pytest.mark.parametrize("name", ["ssmk", "cgens", "silp"])
def test_probability_turned_on_after_the_fit_is_not_fitted(problems, name):
    """As SVC: a NotFittedError that says why, not an AttributeError from the absent sigmoid (a mypy finding)."""
    X, _, y, _ = problems["binary"]
    model = clone(CLASSIFIERS[name][0]).set_params(probability=False).fit(X, y)
    with pytest.raises(NotFittedError, match="fitted with probability=False"):
        model.set_params(probability=True).predict_proba(X)


def test_platt_scaling_is_calibrated_classifier_cv_on_5_folds(problems):
    """The shared rule (PlattMixin): scikit-learn's sigmoid on 5-fold cross-validated f, the fitted model's f scaled."""
    for problem in ("binary", "multi-class"):
        X, X_test, y, _ = problems[problem]
        estimator = InfiniteEnsembleSVC("perceptron", probability=True)
        reference = CalibratedClassifierCV(
            clone(estimator).set_params(probability=False), method="sigmoid", cv=5, ensemble=False
        ).fit(X, y)
        np.testing.assert_allclose(
            estimator.fit(X, y).predict_proba(X_test), reference.predict_proba(X_test), atol=1e-10
        )


def test_boosting_probabilities_are_scikit_learns_adaboost_rule(problems):
    """sigmoid / softmax of the vote over the sum of the learners' weights: what AdaBoostClassifier computes."""
    X, X_test, y, _ = problems["binary"]
    ours = LearnerAdaBoostClassifier("stump", n_estimators=15, random_state=0).fit(X, y)
    sigmoid = AdaBoostClassifier._compute_proba_from_decision(ours.decision_function(X_test), 2)
    np.testing.assert_allclose(ours.predict_proba(X_test), sigmoid, atol=1e-12)
    for problem in ("binary", "multi-class"):
        X, X_test, y, _ = problems[problem]
        mh = AdaBoostMHClassifier(20).fit(X, y)
        # scikit-learn's SAMME decision (f_2 - f_1 for two classes) over the sum of the learners' weights
        decision = mh.decision_function(X_test) / mh.alphas_.sum()
        expected = AdaBoostClassifier._compute_proba_from_decision(decision, mh.classes_.size)
        np.testing.assert_allclose(mh.predict_proba(X_test), expected, atol=1e-12)
    np.testing.assert_allclose(boosting_proba(np.zeros((3, 4)), 0.0), 0.25)  # no round yet: uniform
