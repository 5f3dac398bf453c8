"""Breiman's synthetic classification problems: twonorm, ringnorm and waveform.

The definitions follow L. Breiman, "Bias, variance and arcing classifiers",
Technical Report 460, Statistics Department, UC Berkeley, 1996, whose
generators the IDA benchmark (Rätsch et al.) drew its realisations from; the
waveform problem is the 21-attribute version of Breiman, Friedman, Olshen and
Stone, *Classification and Regression Trees*, 1984, p. 49. They were checked
against the public ``mlbench`` R package (F. Leisch and E. Dimitriadou):
``mlbench.twonorm``, ``mlbench.ringnorm`` and the C source of
``mlbench.waveform`` (D. Aha's 1988 generator).

Every generator draws from ``numpy.random.default_rng(random_state)``, so the
same seed gives identical arrays. Classes are drawn independently with equal
probabilities, so class counts are binomial, not exactly balanced.
"""

from __future__ import annotations

import numbers

import numpy as np

from mkbench.exceptions import ConfigError

__all__ = ["make_ringnorm", "make_twonorm", "make_waveform"]

N_WAVEFORM_FEATURES = 21


def _triangle(peak: int) -> np.ndarray:
    """Triangular wave ``max(6 - |i - peak|, 0)`` on the attributes ``i = 1..21``."""
    i = np.arange(1, N_WAVEFORM_FEATURES + 1)
    return np.maximum(6 - np.abs(i - peak), 0).astype(np.float64)


# CART p. 49: h1(i) = max(6 - |i - 11|, 0), h2(i) = h1(i - 4), h3(i) = h1(i + 4).
_WAVES = np.stack([_triangle(11), _triangle(15), _triangle(7)])
# Class k mixes the waves _WAVES[_CLASS_WAVES[k, 0]] (weight u) and
# _WAVES[_CLASS_WAVES[k, 1]] (weight 1 - u).
_CLASS_WAVES = np.array([[0, 1], [0, 2], [1, 2]])


def _check_count(name: str, value: object, low: int) -> None:
    """Raise :class:`ConfigError` unless ``value`` is an integer ``>= low``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ConfigError(f"{name}={value!r} is invalid; give an integer >= {low}")


def make_twonorm(
    n_samples: int,
    *,
    n_features: int = 20,
    random_state: int | np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Draw Breiman's twonorm problem: two unit-covariance Gaussians.

    Class 1 is N(mu, I) and class 0 is N(-mu, I) with ``mu_i = 2 / sqrt(n_features)``
    for every coordinate, each class with probability 1/2. With the default 20
    features the Bayes rule is ``sign(sum(x))`` and its error is Phi(-2), about 2.3%.

    Parameters
    ----------
    n_samples : int
        Number of points, ``>= 0``.
    n_features : int, default=20
        Dimension; Breiman used 20.
    random_state : int, numpy.random.Generator or None, default=None
        Seed (or generator) passed to :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), int64, values in {0, 1}
    """
    _check_count("n_samples", n_samples, 0)
    _check_count("n_features", n_features, 1)
    rng = np.random.default_rng(random_state)
    y = rng.integers(0, 2, size=n_samples)
    a = 2.0 / np.sqrt(n_features)
    X = rng.standard_normal((n_samples, n_features)) + a * (2 * y - 1)[:, None]
    return X, y


def make_ringnorm(
    n_samples: int,
    *,
    n_features: int = 20,
    random_state: int | np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Draw Breiman's ringnorm problem: a wide Gaussian around a narrow shifted one.

    Class 1 is N(0, 4 I); class 0 is N(mu, I) with ``mu_i = 1 / sqrt(n_features)``
    for every coordinate; each class has probability 1/2.

    Parameters
    ----------
    n_samples : int
        Number of points, ``>= 0``.
    n_features : int, default=20
        Dimension; Breiman used 20.
    random_state : int, numpy.random.Generator or None, default=None
        Seed (or generator) passed to :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,), int64, values in {0, 1}
    """
    _check_count("n_samples", n_samples, 0)
    _check_count("n_features", n_features, 1)
    rng = np.random.default_rng(random_state)
    y = rng.integers(0, 2, size=n_samples)
    a = 1.0 / np.sqrt(n_features)
    Z = rng.standard_normal((n_samples, n_features))
    X = np.where(y[:, None] == 1, 2.0 * Z, Z + a)
    return X, y


def make_waveform(
    n_samples: int,
    *,
    random_state: int | np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Draw Breiman's waveform problem (version 1: 21 attributes, 3 classes).

    With the triangular waves ``h1(i) = max(6 - |i - 11|, 0)``, ``h2(i) = h1(i - 4)``
    and ``h3(i) = h1(i + 4)`` on ``i = 1..21`` (CART, p. 49), and ``u ~ U(0, 1)``:

    - class 0: ``u h1 + (1 - u) h2``
    - class 1: ``u h1 + (1 - u) h3``
    - class 2: ``u h2 + (1 - u) h3``

    plus independent N(0, 1) noise on every attribute; each class has probability
    1/3. The ``mlbench`` C generator draws the same three distributions but
    numbers the classes differently (its classes 1, 2, 3 are our 2, 1, 0), so
    labels are comparable with CART's, not with ``mlbench``'s.

    Parameters
    ----------
    n_samples : int
        Number of points, ``>= 0``.
    random_state : int, numpy.random.Generator or None, default=None
        Seed (or generator) passed to :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n_samples, 21), float64
    y : ndarray of shape (n_samples,), int64, values in {0, 1, 2}
    """
    _check_count("n_samples", n_samples, 0)
    rng = np.random.default_rng(random_state)
    y = rng.integers(0, 3, size=n_samples)
    u = rng.random(n_samples)[:, None]
    first, second = _WAVES[_CLASS_WAVES[y, 0]], _WAVES[_CLASS_WAVES[y, 1]]
    noise = rng.standard_normal((n_samples, N_WAVEFORM_FEATURES))
    X = u * first + (1.0 - u) * second + noise
    return X, y
