"""Every public classifier at its defaults treats the two classes alike (issue 42).

A two-class model separates the points; which class is called positive, and how the labels are
spelt, must not change the partition. For every classifier of ``mkbench.__all__`` (scikit-learn's
``is_classifier``), at its defaults, on a seeded, standardised subset of breast cancer (150 training
rows, the other 419 held out):

* ``fit(X, 1 - y)`` predicts ``1 -`` the predictions of ``fit(X, y)`` on every held-out point;
* string labels give the partition of the integer labels, in the integers' order
  (``["benign", "malignant"][y]``) and reversed (the data set's own names, ``["malignant",
  "benign"][y]``: malignant is 0, so ``classes_[1]``, the positive class, changes side).

A randomised fit (sampled learners, random colourings, random features, a random validation split)
gets the same ``random_state`` in every fit. Every fit here takes about a second or less, so every
estimator runs at its defaults, unchanged.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone, is_classifier
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import mkbench

CLASSIFIERS = [name for name in mkbench.__all__ if is_classifier(getattr(mkbench, name)())]
NAMES = np.array(["benign", "malignant"])  # sorted as 0, 1
REVERSED = np.array(["malignant", "benign"])  # load_breast_cancer's target_names: 0 is malignant


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[:150], order[150:]
    scaler = StandardScaler().fit(X[train])
    return scaler.transform(X[train]), y[train], scaler.transform(X[test])


def _default(name):
    """The estimator at its defaults; a randomised one seeded, so that every fit draws the same."""
    estimator = getattr(mkbench, name)()
    if "random_state" in estimator.get_params():
        estimator.set_params(random_state=0)
    return estimator


def _predict(estimator, X, y, X_test):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings at the defaults are the business of other tests
        return clone(estimator).fit(X, y).predict(X_test)


def test_every_public_classifier_is_covered():
    assert len(CLASSIFIERS) == 15
    assert {"CGBoostClassifier", "CGEnsClassifier", "SSMKClassifier", "SelectedSVC", "StagedSearchCV"} <= set(
        CLASSIFIERS
    )


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_swapping_or_renaming_the_classes_keeps_the_partition(name, data):
    X, y, X_test = data
    estimator = _default(name)
    predicted = _predict(estimator, X, y, X_test)
    assert set(predicted) == {0, 1}  # both sides of the partition are exercised
    assert_array_equal(_predict(estimator, X, 1 - y, X_test), 1 - predicted)
    assert_array_equal(_predict(estimator, X, NAMES[y], X_test), NAMES[predicted])
    assert_array_equal(_predict(estimator, X, REVERSED[y], X_test), REVERSED[predicted])


def test_selected_svc_validates_on_the_same_points_whichever_class_is_positive(data):
    X, y, _ = data
    on_y = clone(_default("SelectedSVC")).fit(X, y)
    on_flipped = clone(_default("SelectedSVC")).fit(X, 1 - y)
    assert_array_equal(on_flipped.validation_indices_, on_y.validation_indices_)
    # the papers' order (class_order="sorted") is stratify=y itself, scikit-learn's split
    rows = np.arange(len(y))
    _, expected = train_test_split(rows, test_size=0.2, random_state=0, stratify=y)
    sorted_split = clone(_default("SelectedSVC")).set_params(class_order="sorted", random_state=0).fit(X, y)
    assert_array_equal(sorted_split.validation_indices_, np.sort(expected))
