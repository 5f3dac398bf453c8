"""Tests of Breiman's twonorm, ringnorm and waveform generators."""

import numpy as np
import pytest
from scipy.stats import norm

from mkbench.exceptions import ConfigError
from mkbench.harness.datasets.breiman import make_ringnorm, make_twonorm, make_waveform

GENERATORS = [make_twonorm, make_ringnorm, make_waveform]
N_LARGE = 100_000


def _waves():
    """CART's three triangular waves on attributes 1..21, written out independently."""
    i = np.arange(1, 22)
    h1 = np.clip(6 - np.abs(i - 11), 0, None)
    return h1, np.clip(6 - np.abs(i - 4 - 11), 0, None), np.clip(6 - np.abs(i + 4 - 11), 0, None)


@pytest.mark.parametrize("make", GENERATORS)
def test_same_seed_same_arrays(make):
    X1, y1 = make(50, random_state=3)
    X2, y2 = make(50, random_state=3)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X3, _ = make(50, random_state=4)
    assert not np.array_equal(X1, X3)


@pytest.mark.parametrize(
    ("make", "n_features", "n_classes"),
    [(make_twonorm, 20, 2), (make_ringnorm, 20, 2), (make_waveform, 21, 3)],
)
def test_shapes_and_dtypes(make, n_features, n_classes):
    X, y = make(7, random_state=0)
    assert X.shape == (7, n_features) and X.dtype == np.float64
    assert y.shape == (7,) and np.issubdtype(y.dtype, np.integer)
    X, y = make(3000, random_state=0)
    assert set(np.unique(y)) == set(range(n_classes))


def test_n_features_is_honoured():
    X, _ = make_twonorm(5, n_features=3, random_state=0)
    assert X.shape == (5, 3)
    X, _ = make_ringnorm(5, n_features=7, random_state=0)
    assert X.shape == (5, 7)


@pytest.mark.parametrize("make", [make_twonorm, make_ringnorm])
def test_binary_classes_balanced(make):
    _, y = make(N_LARGE, random_state=1)
    assert abs(y.mean() - 0.5) < 0.01


def test_waveform_classes_balanced():
    _, y = make_waveform(N_LARGE, random_state=1)
    np.testing.assert_allclose(np.bincount(y) / y.size, 1 / 3, atol=0.01)


def test_twonorm_class_means():
    X, y = make_twonorm(N_LARGE, random_state=2)
    a = 2 / np.sqrt(20)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), a, atol=0.03)
    np.testing.assert_allclose(X[y == 0].mean(axis=0), -a, atol=0.03)
    np.testing.assert_allclose(X[y == 1].var(axis=0), 1.0, atol=0.05)


def test_twonorm_bayes_error():
    """The optimal rule sign(sum x) errs with probability Phi(-a sqrt(20)) = Phi(-2)."""
    X, y = make_twonorm(N_LARGE, random_state=5)
    error = np.mean((X.sum(axis=1) > 0).astype(int) != y)
    assert error == pytest.approx(norm.cdf(-2.0), abs=0.003)


def test_ringnorm_moments():
    X, y = make_ringnorm(N_LARGE, random_state=6)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), 0.0, atol=0.05)
    np.testing.assert_allclose(X[y == 1].var(axis=0), 4.0, atol=0.15)
    np.testing.assert_allclose(X[y == 0].mean(axis=0), 1 / np.sqrt(20), atol=0.03)
    np.testing.assert_allclose(X[y == 0].var(axis=0), 1.0, atol=0.05)


def test_waveform_class_means_are_wave_midpoints():
    """With E[u] = 1/2, class k has mean (h_a + h_b) / 2 for its two waves."""
    h1, h2, h3 = _waves()
    X, y = make_waveform(N_LARGE, random_state=7)
    for k, (ha, hb) in enumerate([(h1, h2), (h1, h3), (h2, h3)]):
        np.testing.assert_allclose(X[y == k].mean(axis=0), (ha + hb) / 2, atol=0.1)


def test_waveform_is_a_convex_combination_plus_unit_noise():
    """Class 0 is u h1 + (1 - u) h2 + e: the residual off the segment has unit variance."""
    h1, h2, _ = _waves()
    X, y = make_waveform(N_LARGE, random_state=8)
    Z = X[y == 0] - h2
    d = (h1 - h2).astype(float)
    u_hat = Z @ d / (d @ d)
    residual = Z - np.outer(u_hat, d)
    # Projecting out one direction leaves 20 unit-variance noise dimensions out of 21.
    assert residual.var(axis=0).sum() == pytest.approx(20.0, rel=0.02)
    assert u_hat.mean() == pytest.approx(0.5, abs=0.02)


@pytest.mark.parametrize("make", GENERATORS)
@pytest.mark.parametrize("bad", [-1, 2.5, "10", True])
def test_bad_n_samples(make, bad):
    with pytest.raises(ConfigError, match="n_samples"):
        make(bad)


def test_bad_n_features():
    with pytest.raises(ConfigError, match="n_features=0"):
        make_twonorm(10, n_features=0)


def test_zero_samples():
    X, y = make_waveform(0, random_state=0)
    assert X.shape == (0, 21) and y.shape == (0,)
