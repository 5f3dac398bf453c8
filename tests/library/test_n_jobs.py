"""``n_jobs`` where the work of a fit splits (issue 44, item 3): the same models as one thread, bit for bit.

A stump search split over chunks of features (:mod:`mkbench.learners._chunks`) must
return the one-thread search's stump, score and sum of squares exactly, ties (plenty
on integer features under integer weights) included, for the exact, sparse and binned
families and for 1, 2, 3 and more chunks than features; the estimators fitted with
``n_jobs=2`` then give the models of ``n_jobs=None``. Over kernel columns ``n_jobs`` is the
fit's BLAS threads (the same model up to rounding); ``StagedSearchCV`` fits its grid
``n_jobs`` at a time (the same errors and choice). ``n_jobs=0`` is refused.
"""

import numpy as np
import pytest
import scipy.sparse
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.utils._param_validation import InvalidParameterError
from threadpoolctl import threadpool_info

from mkbench import (
    AdaBoostECCClassifier,
    AdaBoostMHClassifier,
    CGBoostClassifier,
    CGBoostRegressor,
    CGEnsClassifier,
    CGEnsSLSClassifier,
    ColumnGenerationClassifier,
    LearnerAdaBoostClassifier,
    LPBoostClassifier,
    StagedSearchCV,
)
from mkbench.learners import BinnedStumps, SparseStumps, Stumps
from mkbench.learners._chunks import ONE_CHUNK, FeatureChunks, split_search


def _tied_points(n: int = 120, d: int = 7, seed: int = 0) -> np.ndarray:
    """Few integer values per feature, twin features (every stump of one tied with the other's), many zeros."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(float)
    X[:, 3] = X[:, 0]  # a twin in another chunk than its original
    X[:, -1] = X[:, 1]
    X[rng.random((n, d)) < 0.4] = 0.0
    return X


def _families(X: np.ndarray) -> dict:
    return {
        "exact": Stumps(X, constant=True),
        "sparse": SparseStumps(scipy.sparse.csr_array(X), constant=True),
        "binned": BinnedStumps(X, max_bins=255, constant=True),
        "binned-sparse": BinnedStumps(scipy.sparse.csc_array(X), max_bins=16),
    }


def _searches(family, w: np.ndarray, W: np.ndarray) -> list:
    """Every search a family offers: best, best_each, the summed-edge search, and their sums of squares."""
    row, feature, scores, squares = family.search(W)
    return [
        family.best(w),
        *family.best_each(W),
        (row, feature, scores.tolist(), squares),
    ]


@pytest.mark.parametrize("kind", ["exact", "sparse", "binned", "binned-sparse"])
@pytest.mark.parametrize("n_chunks", [2, 3, 12])  # 12 > 7 features: empty chunks
def test_chunked_search_is_the_one_thread_search_bit_for_bit(kind, n_chunks):
    X = _tied_points()
    rng = np.random.default_rng(1)
    for weights in ("integer", "gaussian"):
        for _ in range(4):
            W = (
                rng.integers(-2, 3, size=(X.shape[0], 3)).astype(float)
                if weights == "integer"
                else rng.normal(size=(120, 3))
            )
            family = _families(X)[kind]
            alone = _searches(family, W[:, 0], W)
            family.chunks = FeatureChunks(n_chunks)
            try:
                chunked = _searches(family, W[:, 0], W)
            finally:
                family.chunks.close()
                family.chunks = ONE_CHUNK
            for a, b in zip(alone, chunked, strict=True):
                if isinstance(a, tuple):
                    assert a == b
                else:
                    assert (a.learner, a.score, a.sum_squares, a.n_candidates) == (
                        b.learner,
                        b.score,
                        b.sum_squares,
                        b.n_candidates,
                    )


def test_ties_across_chunks_go_to_the_lowest_feature():
    """Feature 3 is feature 0's twin: every search ties them, and the one-thread rule keeps feature 0 (chunk 1)."""
    X = np.zeros((30, 6))
    X[:, 0] = np.arange(30) % 5
    X[:, 3] = X[:, 0]
    w = np.where(X[:, 0] < 2, 1.0, -1.0)
    family = Stumps(X)
    with split_search(family, 2):
        assert family.chunks.bounds(6) == [(0, 3), (3, 6)]
        best = family.best(w)
    assert best.learner is not None and best.learner.feature == 0
    assert family.chunks is ONE_CHUNK  # the threads end with the block


def test_chunks_cover_the_features_in_order():
    for n_chunks, d in [(1, 5), (2, 5), (3, 7), (8, 3)]:
        bounds = FeatureChunks(n_chunks).bounds(d)
        assert len(bounds) == n_chunks and bounds[0][0] == 0 and bounds[-1][1] == d
        assert all(hi == lo for (_, hi), (lo, _) in zip(bounds[:-1], bounds[1:], strict=True))


def _data(tied: bool, classes: int = 2):
    X, y = make_classification(200, 10, n_informative=5, n_classes=classes, random_state=0)
    return (np.round(X).clip(-2, 2), y) if tied else (X, y)


ESTIMATORS = [
    CGEnsClassifier(max_iter=30),
    CGEnsClassifier(max_iter=30, max_bins=None, C=100.0),
    LPBoostClassifier(max_iter=30),
    LPBoostClassifier(max_iter=30, max_bins=None),
    ColumnGenerationClassifier("stump", max_iter=30),
    CGEnsSLSClassifier(max_iter=30),
    AdaBoostMHClassifier(50),
    AdaBoostECCClassifier(50, random_state=0),
    LearnerAdaBoostClassifier(n_estimators=20),
]


def _model(estimator) -> list:
    """What a fit chose: coefficients and learners (or the rounds' stumps and weights)."""
    names = ("coef_", "intercept_", "learners_", "stumps_", "votes_", "alphas_", "colorings_", "n_iter_")
    found = [getattr(estimator, name) for name in names if hasattr(estimator, name)]
    if hasattr(estimator, "ensemble_"):
        found += [e.learner_ for e in estimator.estimators_] + [estimator.ensemble_.estimator_weights_]
    return found


@pytest.mark.parametrize("tied", [True, False], ids=["integer-features", "continuous"])
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_two_threads_fit_the_one_thread_model(estimator, tied):
    classes = 3 if isinstance(estimator, CGEnsSLSClassifier | AdaBoostMHClassifier) else 2
    X, y = _data(tied, classes)
    one = estimator.set_params(n_jobs=None).fit(X, y)
    serial, predictions = _model(one), one.predict(X)
    two = estimator.set_params(n_jobs=2).fit(X, y)
    for a, b in zip(serial, _model(two), strict=True):
        if isinstance(a, np.ndarray | float | int):
            np.testing.assert_array_equal(a, b)
        else:
            assert a == b
    np.testing.assert_array_equal(two.predict(X), predictions)


def test_sparse_inputs_fit_the_one_thread_model():
    X, y = _data(tied=True)
    X = scipy.sparse.csr_array(X)
    for max_bins in (None, 255):
        one = CGEnsClassifier(max_iter=20, max_bins=max_bins).fit(X, y)
        two = CGEnsClassifier(max_iter=20, max_bins=max_bins, n_jobs=2).fit(X, y)
        assert one.learners_ == two.learners_
        np.testing.assert_array_equal(one.coef_, two.coef_)


def test_one_vs_rest_spends_n_jobs_on_the_classes():
    """With more classes, each class's fit searches on one thread: the same models as n_jobs=None."""
    X, y = _data(tied=True, classes=3)
    one = ColumnGenerationClassifier("stump", max_iter=20).fit(X, y)
    two = ColumnGenerationClassifier("stump", max_iter=20, n_jobs=2).fit(X, y)
    assert [e.n_jobs for e in two.estimators_] == [1, 1, 1]
    np.testing.assert_array_equal(one.decision_function(X), two.decision_function(X))


@pytest.mark.parametrize("estimator", ESTIMATORS[::2], ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("n_jobs", [0, 1.5, "2"])
def test_bad_n_jobs_is_refused(estimator, n_jobs):
    X, y = _data(tied=False)
    with pytest.raises(InvalidParameterError, match="'n_jobs' parameter"):
        estimator.set_params(n_jobs=n_jobs).fit(X, y)


@pytest.mark.parametrize("estimator", [CGBoostClassifier(C=1.0), CGBoostRegressor(C=1.0, strategy="full")], ids=str)
def test_kernel_columns_take_n_jobs_blas_threads(estimator):
    """Over kernel columns n_jobs is BLAS threads (one by default): the same columns, coefficients up to rounding."""
    X, y = make_classification(120, 6, random_state=0)
    seen = []

    def threads(_):
        seen.append(max(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"))

    one = clone(estimator).set_params(callback=threads).fit(X, y)
    assert set(seen) == {1}
    seen.clear()
    two = clone(estimator).set_params(n_jobs=2, callback=threads).fit(X, y)
    assert set(seen) == {2}
    assert one.columns_ == two.columns_
    np.testing.assert_allclose(two.coef_, one.coef_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(two.predict(X), one.predict(X), rtol=1e-9, atol=1e-9)


def test_staged_search_fits_its_grid_n_jobs_at_a_time():
    X, y = _data(tied=True)
    search = StagedSearchCV(CGEnsClassifier(), param_grid={"C": [0.1, 1.0]}, n_iters=(5, 10), cv=3)
    one = clone(search).fit(X, y)
    two = clone(search).set_params(n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(two.cv_errors_, one.cv_errors_)
    assert two.best_params_ == one.best_params_
    np.testing.assert_array_equal(two.best_estimator_.coef_, one.best_estimator_.coef_)
    with pytest.raises(InvalidParameterError, match="'n_jobs' parameter"):
        clone(search).set_params(n_jobs=0).fit(X, y)
