"""``max_bins`` of every estimator that searches decision stumps (issue 44): binned by default, exact with None.

On features with at most 255 distinct training values the binned family is the exact one
(:mod:`mkbench.learners.binning`): the same stumps, whose scores it sums in another order.
So each estimator at the default ``max_bins=255`` must fit the model of ``max_bins=None``
(the papers' exact search), the same stumps in the same order, the same coefficients and
predictions, wherever no two stumps tie exactly. Under uniform weights on integer features
exact ties are common (two thresholds apart by points whose weights cancel: scores of 116
and 116 of CGEns' first search, 246 and 246 of AdaBoost.MH's), and the order of summation
breaks them; under random sample weights (continuous) they are not, and the fits must be
equal. Under uniform weights the fits must agree up to their first parting, and part only
where the largest scores are equal. On continuous features the binned fit offers fewer
thresholds and must still fit about as well. A sparse X is binned from its stored entries
while the bins' tables fit ``SPARSE_BINS_BUDGET``, else searched exactly.
"""

from dataclasses import asdict

import numpy as np
import pytest
import scipy.sparse
from sklearn.base import clone
from sklearn.utils._param_validation import InvalidParameterError

import mkbench.learners.family as family_module
from mkbench import (
    AdaBoostECCClassifier,
    AdaBoostMHClassifier,
    CGEnsClassifier,
    CGEnsSLSClassifier,
    ColumnGenerationClassifier,
    LearnerAdaBoostClassifier,
    LPBoostClassifier,
)
from mkbench.estimators.learner_adaboost import WeakLearnerClassifier
from mkbench.learners import BinnedStumps, SparseStumps, make_family
from mkbench.learners.binned import table_bytes

#: Each estimator over stumps, small, and how many classes it is fitted on.
ESTIMATORS = {
    "cgens": (CGEnsClassifier(C=0.1, max_iter=15), 2),
    "cgens-libsvm": (CGEnsClassifier(C=0.1, max_iter=10, solver="libsvm", fit_intercept=True), 2),
    "lpboost": (LPBoostClassifier(C=0.1, max_iter=15), 2),
    "cgens-sls": (CGEnsSLSClassifier(max_iter=15), 3),
    "column-generation-l2": (ColumnGenerationClassifier("stump", max_iter=15), 2),
    "column-generation-l1": (ColumnGenerationClassifier("stump", penalty="l1", C=0.1, max_iter=15), 2),
    "column-generation-ovr": (ColumnGenerationClassifier("stump", max_iter=10), 3),
    "adaboost-mh": (AdaBoostMHClassifier(n_estimators=25), 3),
    "adaboost-ecc": (AdaBoostECCClassifier(n_estimators=25, random_state=0), 3),
    "adaboost-learners": (LearnerAdaBoostClassifier(n_estimators=15, random_state=0), 2),
    "weak-learner": (WeakLearnerClassifier("stump"), 2),
}


def _labels(X: np.ndarray, n_classes: int, rng: np.random.Generator) -> np.ndarray:
    """Classes by the tertiles (median) of a noisy score of three features."""
    score = X[:, 0] - X[:, 2] + 0.1 * X[:, 1] + rng.normal(scale=0.5 * X[:, 0].std(), size=X.shape[0])
    return np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))


def _integer_data(n_classes: int, seed: int = 0, n: int = 240) -> tuple[np.ndarray, np.ndarray]:
    """At most 255 distinct values per feature: small integers, a pixel-like feature (0..254, 60 % zeros), a twin."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-15, 15, size=(n, 8)).astype(float)
    X[:, 1] = rng.integers(0, 255, size=n) * (rng.random(n) < 0.4)
    X[:, 4] = X[:, 3]  # twin features: tied scores, broken alike
    X[:, 5][rng.random(n) < 0.7] = 0.0
    assert max(np.unique(x).size for x in X.T) <= 255
    return X, _labels(X, n_classes, rng)


def _continuous_data(n_classes: int, seed: int = 1, n: int = 700) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    return X, _labels(X, n_classes, rng)


def _one_vs_rest(estimator) -> list:
    """The binary models of a one-vs-rest ColumnGenerationClassifier; [] for any other fit."""
    binaries = getattr(estimator, "estimators_", None)  # None for two classes; CGEns' raises AttributeError
    return binaries if binaries and hasattr(binaries[0], "learners_") else []


def _model(estimator) -> tuple[list, np.ndarray]:
    """The chosen stumps, in order, and the coefficients that weigh them."""
    if _one_vs_rest(estimator):
        models = [_model(binary) for binary in _one_vs_rest(estimator)]
        return [h for learners, _ in models for h in learners], np.concatenate([coef for _, coef in models])
    if hasattr(estimator, "learners_"):  # column generation: w (and b) of the restricted master
        return estimator.learners_, np.r_[np.ravel(estimator.coef_), np.ravel(estimator.intercept_)]
    if hasattr(estimator, "stumps_"):  # AdaBoost.MH / ECC: alpha_t and the votes v_t
        return estimator.stumps_, np.r_[estimator.alphas_, estimator.votes_.ravel()]
    if hasattr(estimator, "ensemble_"):  # scikit-learn's AdaBoost over WeakLearnerClassifier
        return [weak.learner_ for weak in estimator.estimators_], estimator.ensemble_.estimator_weights_
    return [estimator.learner_], np.zeros(0)


def _fit(name: str, X, y, sample_weight=None, **params):
    estimator, _ = ESTIMATORS[name]
    return clone(estimator).set_params(**params).fit(X, y, sample_weight=sample_weight)


def _same_fit(ours, theirs, X) -> None:
    (learners, coef), (expected_learners, expected_coef) = _model(ours), _model(theirs)
    # stumps: features, thresholds and signs, in order (perceptrons: theta, kappa and sign)
    np.testing.assert_equal([asdict(h) for h in learners], [asdict(h) for h in expected_learners])
    np.testing.assert_allclose(coef, expected_coef, rtol=0, atol=1e-10)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    if hasattr(ours, "decision_function"):
        np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), rtol=0, atol=1e-10)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_default_is_binned_at_255_as_histogram_boosting(name):
    assert ESTIMATORS[name][0].get_params()["max_bins"] == 255


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("seed", [1, 2])
def test_binned_fit_is_the_exact_fit_on_features_of_at_most_255_values(name, seed):
    X, y = _integer_data(ESTIMATORS[name][1], seed)
    w = np.random.default_rng(seed + 100).uniform(0.5, 2.0, size=y.size)  # no exact ties (module docstring)
    binned, exact = _fit(name, X, y, w), _fit(name, X, y, w, max_bins=None)
    assert len(_model(exact)[0]) >= (1 if name == "weak-learner" else 10)  # a fit with something to compare
    _same_fit(binned, exact, _integer_data(ESTIMATORS[name][1], seed=9)[0])  # on fresh points too


def _paths(estimator) -> list[tuple[list, np.ndarray]]:
    """Per binary model (one-vs-rest: each class's), its stumps in order and the largest score of each search."""
    if _one_vs_rest(estimator):
        return [path for binary in _one_vs_rest(estimator) for path in _paths(binary)]
    if hasattr(estimator, "learners_"):  # history_[t]: the search after t learners, which found learner t + 1
        return [(estimator.learners_, np.array([row["max_violation"] for row in estimator.history_]))]
    if hasattr(estimator, "stumps_"):
        return [(estimator.stumps_, estimator.edges_)]
    return [([weak.learner_ for weak in estimator.estimators_], estimator.ensemble_.estimator_errors_)]


@pytest.mark.parametrize("name", [name for name in ESTIMATORS if name != "weak-learner"])
def test_under_uniform_weights_binned_and_exact_fits_part_only_at_exact_ties(name):
    for seed in range(5):
        X, y = _integer_data(ESTIMATORS[name][1], seed)
        binned, exact = _fit(name, X, y), _fit(name, X, y, max_bins=None)
        for (learners, scores), (expected, expected_scores) in zip(_paths(binned), _paths(exact), strict=True):
            k = next((t for t, (h, g) in enumerate(zip(learners, expected, strict=True)) if h != g), len(expected))
            # the same searches up to the parting one, whose largest score both found (LPBoost at C = 0.1, whose
            # vertex duals tie often, parts in every draw, first at its 2nd to 13th stump)
            np.testing.assert_allclose(scores[: k + 1], expected_scores[: k + 1], rtol=1e-12)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_binned_fit_on_continuous_features_fits_about_as_well(name):
    X, y = _continuous_data(ESTIMATORS[name][1])
    binned, exact, coarse = _fit(name, X, y), _fit(name, X, y, max_bins=None), _fit(name, X, y, max_bins=4)
    assert abs(binned.score(X, y) - exact.score(X, y)) <= 0.03
    # 4 bins offer 3 thresholds per feature: a different model, each threshold one of the exact search's midpoints
    assert _model(coarse)[0] != _model(exact)[0]
    assert coarse.score(X, y) > 1 / ESTIMATORS[name][1] + 0.05


def _sparse_continuous(n_classes: int) -> tuple[scipy.sparse.csr_array, np.ndarray]:
    X, y = _continuous_data(n_classes)
    X[np.random.default_rng(2).random(X.shape) < 0.5] = 0.0  # half zeros, about 350 distinct values stored
    return scipy.sparse.csr_array(X), y


@pytest.mark.parametrize("name", ESTIMATORS)
def test_sparse_input_is_binned_from_its_entries_while_the_tables_fit(name, monkeypatch):
    X, y = _sparse_continuous(ESTIMATORS[name][1])
    binned = _fit(name, X, y, max_bins=4)
    _same_fit(binned, _fit(name, X.toarray(), y, max_bins=4), X)  # the bins of X densified, read from its entries
    exact = _fit(name, X, y, max_bins=None)
    assert _model(binned)[0] != _model(exact)[0]
    monkeypatch.setattr(family_module, "SPARSE_BINS_BUDGET", table_bytes(X.shape[1], 4) - 1)
    _same_fit(_fit(name, X, y, max_bins=4), exact, X)  # past the budget: the exact search of SparseStumps


def test_the_sparse_rule_compares_the_tables_with_the_budget(monkeypatch):
    # the shipped budget: 256 MiB, about 62 000 features at 255 bins (867 MB of tables at 200 000)
    assert table_bytes(61_000, 255) <= family_module.SPARSE_BINS_BUDGET < table_bytes(62_000, 255)
    X = scipy.sparse.random(30, 50, density=0.2, format="csc", random_state=0)
    monkeypatch.setattr(family_module, "SPARSE_BINS_BUDGET", table_bytes(50, 255))
    assert type(make_family("stump", X, max_bins=255)) is BinnedStumps
    assert type(make_family("stump", X, max_bins=None)) is SparseStumps
    monkeypatch.setattr(family_module, "SPARSE_BINS_BUDGET", table_bytes(50, 255) - 1)
    assert type(make_family("stump", X, max_bins=255)) is SparseStumps
    assert type(make_family("stump", X, max_bins=128)) is BinnedStumps
    assert type(make_family("stump", X.toarray(), max_bins=255)) is BinnedStumps  # a dense X: always binned


@pytest.mark.parametrize("name", ["cgens", "lpboost", "adaboost-learners"])
def test_other_learners_ignore_max_bins(name):
    X, y = _continuous_data(2, n=200)
    params = {"learner": "perceptron", "n_candidates": 50, "random_state": 0}
    _same_fit(_fit(name, X, y, max_bins=4, **params), _fit(name, X, y, max_bins=None, **params), X)


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("max_bins", [1, 300, 2.5, "a"])
def test_bad_max_bins_is_refused_by_name(name, max_bins):
    X, y = _integer_data(ESTIMATORS[name][1], n=20)
    with pytest.raises(InvalidParameterError, match=r"The 'max_bins' parameter of \w+ must be an int in the range"):
        _fit(name, X, y, max_bins=max_bins)
