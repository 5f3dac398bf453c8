"""scipy sparse X in the ensembles of weak learners (issue 42): the model of X densified, without densifying X."""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.datasets import load_digits

import mkbench
from mkbench.learners import SparseStumps, Stumps, make_family


def _integer_sparse(n=150, d=40, seed=0):
    """A random sparse matrix, density 0.1, small integer values of both signs (many ties and exact zeros)."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-4, 5, size=(n, d)).astype(float)
    values[rng.random((n, d)) >= 0.1] = 0.0
    return sp.csr_array(values)


def _data_sets():
    X = _integer_sparse()
    y = (X[:, :6].sum(axis=1) > 0).astype(int)
    digits, target = load_digits(return_X_y=True)
    rows = np.random.default_rng(0).permutation(digits.shape[0])[:300]
    return {
        "integer": (X, y, np.arange(X.shape[0]) % 3),
        "digits": (sp.csr_matrix(digits[rows]), (target[rows] % 2), target[rows] % 4),
    }


DATA = _data_sets()

BINARY = [
    mkbench.CGEnsClassifier(max_iter=20, probability=True),
    mkbench.CGEnsClassifier("perceptron", max_iter=15, n_candidates=300, random_state=0),
    mkbench.LPBoostClassifier(max_iter=20),
    mkbench.LPBoostClassifier("perceptron", max_iter=15, n_candidates=300, random_state=0),
    mkbench.LearnerAdaBoostClassifier(n_estimators=15, random_state=0),
    mkbench.LearnerAdaBoostClassifier("perceptron", n_estimators=10, n_candidates=300, random_state=0),
]
MULTICLASS = [
    mkbench.CGEnsSLSClassifier(max_iter=20),
    mkbench.CGEnsSLSClassifier("perceptron", max_iter=15, n_candidates=300, random_state=0),
    mkbench.CGEnsSLSClassifier("fourier", max_iter=10, n_candidates=300, random_state=0),
    mkbench.AdaBoostMHClassifier(n_estimators=40),
    mkbench.AdaBoostECCClassifier(n_estimators=40, random_state=0),
    mkbench.ColumnGenerationClassifier("stump", max_iter=15, probability=True),
    mkbench.ColumnGenerationClassifier("perceptron", max_iter=10, n_candidates=300, random_state=0),
    # the exact search: the LP's vertex duals tie stumps exactly on digits, and the binned search of X sparse (its
    # zeros' bin the total minus the others) and of X dense (every bin summed) round those ties differently
    mkbench.ColumnGenerationClassifier("stump", penalty="l1", fit_intercept=False, max_iter=15, max_bins=None),
]


def _learners(model):
    """The weak learners of a fitted model: per learner its kind and parameters, flattened."""
    for name in ("learners_", "stumps_"):
        if hasattr(model, name):
            return [
                (type(h).__name__, np.hstack([np.ravel(v) for v in vars(h).values()])) for h in getattr(model, name)
            ]
    if hasattr(model, "ensemble_"):
        return [learner for weak in model.estimators_ for learner in _learners(_Fitted([weak.learner_]))]
    return [learner for binary in model.estimators_ for learner in _learners(binary)]


class _Fitted:
    def __init__(self, learners):
        self.learners_ = learners


def _check_same_learners(sparse, dense):
    """The same learners: stumps exactly (features, thresholds, signs); perceptrons and Fourier features to 1e-12."""
    assert [kind for kind, _ in sparse] == [kind for kind, _ in dense]
    for (kind, a), (_, b) in zip(sparse, dense, strict=True):
        if kind == "Stump":
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def _staged(model, X):
    method = getattr(model, "staged_decision_function", None) or getattr(model, "staged_predict", None)
    return [] if method is None else list(method(X))


def _check_same_model(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dense = clone(estimator).fit(X.toarray(), y)
        sparse = clone(estimator).fit(X, y)
    _check_same_learners(_learners(sparse), _learners(dense))
    for name in ("coef_", "intercept_", "alphas_", "votes_"):
        if hasattr(dense, name):
            np.testing.assert_allclose(getattr(sparse, name), getattr(dense, name), rtol=1e-12, atol=1e-12)
    for X_test in (X, sp.csc_matrix(X), sp.coo_matrix(X)):
        np.testing.assert_array_equal(sparse.predict(X_test), dense.predict(X.toarray()))
        np.testing.assert_allclose(
            sparse.decision_function(X_test), dense.decision_function(X.toarray()), rtol=1e-12, atol=1e-12
        )
    if hasattr(dense, "predict_proba"):
        np.testing.assert_allclose(sparse.predict_proba(X), dense.predict_proba(X.toarray()), rtol=1e-12, atol=1e-12)
    for a, b in zip(_staged(sparse, X), _staged(dense, X.toarray()), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("data", sorted(DATA))
@pytest.mark.parametrize("estimator", BINARY, ids=repr)
def test_binary_sparse_fit_is_the_dense_fit(estimator, data):
    X, y, _ = DATA[data]
    _check_same_model(estimator, X, y)


@pytest.mark.parametrize("data", sorted(DATA))
@pytest.mark.parametrize("estimator", MULTICLASS, ids=repr)
def test_multiclass_sparse_fit_is_the_dense_fit(estimator, data):
    X, _, y = DATA[data]
    _check_same_model(estimator, X, y)


def test_sparse_sample_weight_is_the_dense_fit():
    X, y, _ = DATA["integer"]
    weights = np.random.default_rng(1).integers(0, 3, X.shape[0]).astype(float)
    dense = mkbench.CGEnsClassifier(max_iter=10).fit(X.toarray(), y, sample_weight=weights)
    sparse = mkbench.CGEnsClassifier(max_iter=10).fit(X, y, sample_weight=weights)
    assert sparse.learners_ == dense.learners_
    np.testing.assert_allclose(sparse.coef_, dense.coef_, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("constant", [False, True])
def test_sparse_stumps_search_as_dense_bit_for_bit(constant):
    """Every search, sum of squares, count and exclusion of SparseStumps is the dense family's, with stored zeros."""
    rng = np.random.default_rng(2)
    X = _integer_sparse(n=60, d=12, seed=3).tocoo()
    X = sp.coo_array((np.r_[X.data, 0.0, -0.0, 2.0], (np.r_[X.row, 0, 1, 4], np.r_[X.col, 0, 1, 2])), shape=X.shape)
    dense, sparse = Stumps(X.toarray(), constant=constant), make_family("stump", X, constant=constant)
    assert isinstance(sparse, SparseStumps)
    for step in range(8):
        assert sparse.n_candidates == dense.n_candidates
        w = rng.standard_normal(60) if step % 2 else np.where(rng.random(60) < 0.5, -1.0, 1.0) / 60
        a, b = dense.best(w), sparse.best(w)
        assert (a.learner, a.score, a.sum_squares) == (b.learner, b.score, b.sum_squares)
        np.testing.assert_array_equal(a.column, b.column)
        W = rng.standard_normal((60, 3))
        assert [(x.learner, x.sum_squares) for x in dense.best_each(W)] == [
            (x.learner, x.sum_squares) for x in sparse.best_each(W)
        ]
        (row, feature, scores, squares), found = dense.search(W), sparse.search(W)
        assert (row, feature, squares) == (found[0], found[1], found[3])
        np.testing.assert_array_equal(scores, found[2])
        dense.exclude(a.learner)
        sparse.exclude(b.learner)


def test_wide_sparse_x_is_never_densified():
    """200 x 200 000 at density 1e-4: fit and predict allocate far less than one n x d float64 array (305 MiB)."""
    X = sp.random(200, 200_000, density=1e-4, format="csr", random_state=0)
    y = np.arange(200) % 2
    dense_bytes = X.shape[0] * X.shape[1] * 8
    for estimator in (
        mkbench.CGEnsClassifier(max_iter=3),
        mkbench.AdaBoostMHClassifier(n_estimators=3),
        mkbench.CGEnsClassifier("perceptron", max_iter=3, n_candidates=20, random_state=0),
    ):
        clone(estimator).fit(X[:20], y[:20])  # compiled before the count
        tracemalloc.start()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                estimator.fit(X, y).predict(X)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < dense_bytes / 4, (estimator, peak)


@pytest.mark.parametrize(
    "estimator",
    [
        mkbench.ColumnGenerationClassifier(),
        mkbench.CGBoostClassifier(),
    ],
    ids=repr,
)
def test_kernel_columns_refuse_sparse_naming_why_and_what_takes_it(estimator):
    X, y, _ = DATA["integer"]
    with pytest.raises(
        TypeError, match=rf"{type(estimator).__name__} does not take sparse X: .*dense.*CGEnsClassifier"
    ):
        estimator.fit(X, y)


def test_sparse_tags():
    assert mkbench.CGEnsClassifier().__sklearn_tags__().input_tags.sparse
    assert mkbench.AdaBoostMHClassifier().__sklearn_tags__().input_tags.sparse
    assert mkbench.LearnerAdaBoostClassifier().__sklearn_tags__().input_tags.sparse
    assert mkbench.CGEnsSLSClassifier().__sklearn_tags__().input_tags.sparse
    assert not mkbench.ColumnGenerationClassifier().__sklearn_tags__().input_tags.sparse
    assert mkbench.ColumnGenerationClassifier("stump").__sklearn_tags__().input_tags.sparse
