"""One-vs-rest over kernel columns shares one store of kernel values across the classes (issue 42, item 5).

The shared fits must give the unshared ones' models: each class's model equal to the
binary model of class c against the rest fitted on its own (what one-vs-rest did before
the classes shared their kernel columns), for every reading of alpha's sign, with and
without sample weights, one fit at a time and in threads. And each kernel column is
computed once for all the classes, not once per class.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.base import clone
from sklearn.datasets import load_digits, load_iris

from mkbench import CGBoostClassifier, ColumnGenerationClassifier
from mkbench.kernels import KernelColumns


def _digits() -> tuple[np.ndarray, np.ndarray]:
    """Four classes of digits, 40 points each (raw pixels)."""
    X, y = load_digits(return_X_y=True)
    rows = np.concatenate([np.flatnonzero(y == c)[:40] for c in range(4)])
    return X[rows], y[rows]


DATA = {"digits": _digits, "iris": lambda: load_iris(return_X_y=True)}


def _unshared(estimator, X, y, weights):
    """The binary models of each class against the rest, each fitted on its own (its own kernel columns)."""
    kept = slice(None) if weights is None else weights > 0
    fit_weights = {} if weights is None else {"sample_weight": weights[kept]}
    return [clone(estimator).fit(X[kept], (y[kept] == c).astype(int), **fit_weights) for c in np.unique(y)]


@pytest.mark.parametrize("n_jobs", [None, 2])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("positive", [True, False, "label"])
@pytest.mark.parametrize("data", sorted(DATA))
def test_shared_one_vs_rest_fits_the_unshared_models(data, positive, weighted, n_jobs):
    X, y = DATA[data]()
    weights = np.random.default_rng(0).integers(0, 3, len(y)).astype(float) if weighted else None
    estimator = CGBoostClassifier(positive=positive, n_jobs=n_jobs).fit(X, y, sample_weight=weights)
    references = _unshared(estimator, X, y, weights)
    assert len(estimator.estimators_) == len(references) == len(np.unique(y))
    for model, reference in zip(estimator.estimators_, references, strict=True):
        assert model.columns_ == reference.columns_
        np.testing.assert_allclose(model.coef_, reference.coef_, rtol=0, atol=1e-10)
        assert model.intercept_ == pytest.approx(reference.intercept_, abs=1e-10)
        assert model.status_ == reference.status_
        np.testing.assert_array_equal(model.predict(X), reference.predict(X))
    if positive == "label":  # alpha >= 0 on the columns y_j K(., x_j): coefficient y_j alpha_j has the sign of y_j
        kept = y if weights is None else y[weights > 0]
        for c, model in zip(estimator.classes_, estimator.estimators_, strict=True):
            centres = np.array([j for _, j in model.columns_], dtype=int)[model.coef_ != 0]
            np.testing.assert_array_equal(np.sign(model.coef_[model.coef_ != 0]), np.where(kept[centres] == c, 1, -1))
    f = np.column_stack([reference.decision_function(X) for reference in references])
    np.testing.assert_allclose(estimator.decision_function(X), f, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(estimator.predict(X), estimator.classes_[np.argmax(f, axis=1)])


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_columns_served_from_a_cache_within_the_memory_budget(n_jobs):
    """A budget too small to keep the Gram blocks: columns come from the shared cache; the same models."""
    X, y = load_iris(return_X_y=True)
    estimator = ColumnGenerationClassifier("L,R", positive="label", memory_budget=4096, n_jobs=n_jobs).fit(X, y)
    for model, reference in zip(estimator.estimators_, _unshared(estimator, X, y, None), strict=True):
        assert model.columns_ == reference.columns_
        np.testing.assert_allclose(model.coef_, reference.coef_, rtol=0, atol=1e-10)


_EVALUATED: list[int] = []  # columns K(., x_j) evaluated by _counting_linear (list.append: safe in threads)


def _counting_linear(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    _EVALUATED.append(A.shape[0])
    return A @ B.T


@pytest.mark.parametrize("n_jobs", [None, 2, -1])
@pytest.mark.parametrize("positive", [True, False])
def test_each_kernel_column_is_computed_once_across_the_classes(positive, n_jobs):
    X, y = load_iris(return_X_y=True)
    n, k = len(y), 3
    estimator = CGBoostClassifier([_counting_linear, "rbf"], positive=positive, normalize_kernels=False, n_jobs=n_jobs)
    _EVALUATED.clear()
    estimator.fit(X, y)
    assert sum(_EVALUATED) == n  # the callable's n columns, once
    assert estimator.n_kernel_columns_computed_ == 2 * n  # both kernels' Gram blocks, once
    assert sum(model.n_kernel_columns_computed_ for model in estimator.estimators_) == 2 * n
    _EVALUATED.clear()
    references = _unshared(estimator, X, y, None)
    assert sum(_EVALUATED) == k * n  # one-vs-rest without sharing: k times
    assert sum(reference.n_kernel_columns_computed_ for reference in references) == k * 2 * n


def test_threads_within_a_process_backend_context():
    """A ``parallel_config`` naming processes: the classes' fits still share the store in threads."""
    X, y = load_iris(return_X_y=True)
    alone = CGBoostClassifier("L,R", positive=True).fit(X, y)
    with parallel_config(backend="loky", n_jobs=2):
        shared = CGBoostClassifier("L,R", positive=True).fit(X, y)
    assert shared.n_kernel_columns_computed_ == alone.n_kernel_columns_computed_ == 2 * len(y)
    for model, reference in zip(shared.estimators_, alone.estimators_, strict=True):
        np.testing.assert_array_equal(model.coef_, reference.coef_)


def test_views_share_one_store_across_threads():
    """Label-signed views read from several threads: each Gram block computed once, each view's columns signed."""
    rng = np.random.default_rng(1)
    X, w = rng.normal(size=(50, 3)), rng.normal(size=50)
    signs = np.where(rng.normal(size=(8, 50)) > 0, 1.0, -1.0)
    store = KernelColumns(X, ["linear", "quadratic", "rbf"])
    views = [store.with_signs(s) for s in signs]
    with ThreadPoolExecutor(4) as pool:
        scores = list(pool.map(lambda view: view.scores(w), views))
    assert store.n_computed_total == 3 * 50
    for s, view, score in zip(signs, views, scores, strict=True):
        alone = KernelColumns(X, ["linear", "quadratic", "rbf"], signs=s)
        np.testing.assert_array_equal(score, alone.scores(w))
        np.testing.assert_array_equal(view.block(2, [4, 0, 7]), alone.block(2, [4, 0, 7]))
