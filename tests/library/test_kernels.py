"""Kernels against scikit-learn and brute force; KernelColumns blocking, cache and counters."""

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from mkbench.exceptions import MkbenchError, UnknownNameError
from mkbench.kernels import (
    RBF,
    KernelColumns,
    Linear,
    Polynomial,
    Sum,
    WeakRBF,
    make_kernel,
    make_library,
    mean_squared_distance,
)


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(30, 4)) + 5.0, rng.normal(size=(7, 4)) + 5.0


def test_linear_and_polynomial_match_sklearn(data):
    X, Z = data
    np.testing.assert_allclose(Linear()(X, Z), linear_kernel(X, Z), rtol=1e-12)
    expected = polynomial_kernel(X, Z, degree=2, gamma=1.0, coef0=1.0)
    np.testing.assert_allclose(make_kernel("quadratic")(X, Z), expected, rtol=1e-12)
    expected = polynomial_kernel(X, Z, degree=3, gamma=1.0, coef0=0.5)
    np.testing.assert_allclose(Polynomial(3, 0.5)(X, Z), expected, rtol=1e-12)


def test_rbf_divides_by_sigma(data):
    X, Z = data
    np.testing.assert_allclose(RBF(sigma=7.0)(X, Z), rbf_kernel(X, Z, gamma=1 / 7.0), rtol=1e-10, atol=1e-14)


def test_mean_squared_distance_over_all_ordered_pairs(data):
    X, _ = data
    n = len(X)
    # pdist lists the pairs i < j once; the n diagonal pairs contribute 0.
    brute = 2 * np.sum(pdist(X, "sqeuclidean")) / n**2
    assert mean_squared_distance(X) == pytest.approx(brute, rel=1e-12)
    assert RBF().resolve(X).sigma == pytest.approx(brute, rel=1e-12)


def test_weak_rbf_uses_one_attribute(data):
    X, Z = data
    kernel = WeakRBF(attribute=2).resolve(X)
    sigma = 2 * np.sum(pdist(X[:, [2]], "sqeuclidean")) / len(X) ** 2
    assert kernel.sigma == pytest.approx(sigma, rel=1e-12)
    manual = np.exp(-((X[:, 2][:, None] - Z[:, 2][None, :]) ** 2) / sigma)
    np.testing.assert_allclose(kernel(X, Z), manual, rtol=1e-12)
    with pytest.raises(ValueError, match="attribute 9"):
        WeakRBF(9, 1.0)(X, Z)


def test_unresolved_sigma_is_an_error(data):
    X, Z = data
    with pytest.raises(MkbenchError, match="resolve"):
        RBF()(X, Z)
    with pytest.raises(ValueError, match="sigma"):
        RBF(sigma=0.0)


def test_sum_and_registry(data):
    X, Z = data
    lq = make_kernel("L+Q")
    assert isinstance(lq, Sum) and lq.name == "linear+quadratic"
    np.testing.assert_allclose(lq(X, Z), Linear()(X, Z) + Polynomial(2, 1.0)(X, Z), rtol=1e-12)
    assert make_kernel({"name": "poly", "degree": 3}) == Polynomial(3, 1.0)
    assert make_kernel({"name": "weak_rbf", "attribute": 1, "sigma": 2.0}) == WeakRBF(1, 2.0)
    assert [k.name for k in make_library("L,Q,R")] == ["linear", "quadratic", "rbf"]
    resolved = make_kernel("L+R").resolve(X)
    assert resolved.kernels[1].sigma == pytest.approx(mean_squared_distance(X))
    with pytest.raises(UnknownNameError, match="known kernels: linear"):
        make_kernel("gaussian")
    with pytest.raises(ValueError, match="does not accept"):
        make_kernel({"name": "linear", "degree": 2})


def _dense_K(cols):
    """[K^1 ... K^P] computed directly from the kernels."""
    return np.hstack([k(cols.X, cols.centres) for k in cols.kernels])


@pytest.mark.parametrize("budget", [2**30, 3 * 20 * 8])  # keeps the Gram blocks / blocks of 3 centres
def test_scores_equal_dense_product(budget):
    rng = np.random.default_rng(1)
    X, U = rng.normal(size=(20, 3)), rng.normal(size=(11, 3))
    cols = KernelColumns(X, ["linear", "quadratic", "rbf"], centres=np.vstack([X, U]), memory_budget=budget)
    assert cols._keep_grams == (budget == 2**30)
    w = rng.normal(size=20)
    expected = (_dense_K(cols).T @ w).reshape(3, 31)
    np.testing.assert_allclose(cols.scores(w), expected, rtol=1e-10, atol=1e-10)
    W = rng.normal(size=(20, 2))
    np.testing.assert_allclose(cols.scores(W)[2], _dense_K(cols)[:, 62:].T @ W, rtol=1e-10, atol=1e-10)
    subset = [30, 2, 5]
    np.testing.assert_allclose(cols.kernel_scores(1, w, subset), expected[1, subset], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(cols.block(2, subset), _dense_K(cols)[:, [62 + j for j in subset]], rtol=1e-12)


def test_counters_and_cache():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(15, 2))
    cols = KernelColumns(X, ["linear", "rbf"], memory_budget=15 * 8 * 4, cache_bytes=15 * 8 * 3)
    first = cols.column(1, 4)
    assert cols.n_computed == 1
    np.testing.assert_array_equal(cols.column(1, 4), first)
    assert cols.n_computed == 1  # served from the cache
    cols.block(1, [4, 5, 6])
    assert cols.n_computed == 3  # only 5 and 6 were computed
    cols.block(1, [7])  # the cache holds three columns: 4 is evicted (least recently used)
    cols.column(1, 4)
    assert cols.n_computed == 5
    cols.kernel_scores(0, np.ones(15), centres=[0, 1, 2, 3, 4])
    assert (cols.n_computed, cols.n_priced) == (10, 5)
    cols.scores(np.ones(15))
    assert (cols.n_computed, cols.n_priced) == (40, 35)


def test_kept_gram_is_computed_once_per_kernel():
    X = np.random.default_rng(3).normal(size=(10, 2))
    cols = KernelColumns(X, ["linear", "rbf"])
    cols.kernel_scores(1, np.ones(10), centres=[3])
    cols.scores(np.ones(10))
    cols.block(0, [1, 2])
    assert cols.n_computed == 20 and cols.n_priced == 21


def test_float32_columns():
    X = np.random.default_rng(4).normal(size=(12, 3))
    cols = KernelColumns(X, ["rbf"], dtype=np.float32)
    assert cols.block(0, [0, 1]).dtype == np.float32
    np.testing.assert_allclose(cols.scores(np.ones(12))[0], _dense_K(cols).sum(axis=0), rtol=1e-5)
