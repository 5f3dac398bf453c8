"""Weak learners h (CGEns §IV, §VI-A): decision stumps, perceptrons, Fourier features, and their outputs.

A weak learner h maps inputs X to outputs h(X), one column of the ensemble's
feature map Phi (eq. 3); :func:`outputs` computes Phi(X) for a list of learners.
:class:`Best` is what a family's search returns (:mod:`mkbench.learners.stumps`,
:mod:`mkbench.learners.sampled`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import scipy.sparse

__all__ = ["Best", "FourierFeature", "Perceptron", "Stump", "outputs"]


def _points(X: np.ndarray) -> np.ndarray:
    """X as a 2-D float64 array, or a scipy sparse X as a float64 CSR or CSC array (not densified)."""
    if scipy.sparse.issparse(X):
        S: Any = X  # scipy's sparse types are Any (no type information)
        S = S.astype(np.float64, copy=False) if S.format in ("csr", "csc") else S.tocsr().astype(np.float64)
        return scipy.sparse.csr_array(S) if S.format == "csr" else scipy.sparse.csc_array(S)
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D array of points (n_samples, n_features), got shape {X.shape}")
    return X


def _columns(X: np.ndarray, features: np.ndarray | int) -> np.ndarray:
    """The columns ``features`` of X (points from :func:`_points`), dense: of a sparse X, only those densified."""
    if scipy.sparse.issparse(X):
        S: Any = X  # scipy's sparse types are Any (no type information)
        dense = S[:, np.atleast_1d(features)].toarray()
        return dense if np.ndim(features) else dense[:, 0]
    return X[:, features]


def _signs(positive: np.ndarray) -> np.ndarray:
    return np.where(positive, 1.0, -1.0)


@dataclass(frozen=True)
class Stump:
    """Decision stump h(x) = sign * (+1 if x[feature] > threshold else -1).

    ``threshold=+inf`` gives the constant learner -sign.
    """

    feature: int
    threshold: float
    sign: float = 1.0

    def __call__(self, X: np.ndarray) -> np.ndarray:
        return self.sign * _signs(_columns(_points(X), self.feature) > self.threshold)


@dataclass(frozen=True, eq=False)
class Perceptron:
    """Perceptron h(x) = sign * sign(theta'x - kappa), with sign(0) = -1 (a stump when theta = e_d)."""

    theta: np.ndarray
    kappa: float
    sign: float = 1.0

    def __call__(self, X: np.ndarray) -> np.ndarray:
        return self.sign * _signs(_points(X) @ self.theta > self.kappa)


@dataclass(frozen=True, eq=False)
class FourierFeature:
    """Fourier weak learner h(x) = cos(theta'x - kappa) (Rahimi & Recht 2007; §VI-A)."""

    theta: np.ndarray
    kappa: float

    def __call__(self, X: np.ndarray) -> np.ndarray:
        return np.cos(_points(X) @ self.theta - self.kappa)


@dataclass(frozen=True)
class Best:
    """The outcome of one search: the learner with the largest |score|, signed so that score >= 0.

    Attributes
    ----------
    learner : Stump, Perceptron or FourierFeature, or None
        None when the family has no candidate left.
    score : float
        sum_i w_i h(x_i) >= 0 of ``learner`` (eq. 6, 8); -inf when there is none.
    column : ndarray of shape (n_samples,) or None
        h(x_i) on the training points.
    n_candidates : int
        Learners scored in this search, counting h and -h once.
    sum_squares : float
        Sum of score^2 over every candidate scored (the duality gap of Claim IV.1 is
        half of it when the family is searched exhaustively).
    """

    learner: Stump | Perceptron | FourierFeature | None
    score: float
    column: np.ndarray | None
    n_candidates: int
    sum_squares: float = field(default=float("nan"))


def outputs(learners: Sequence[Stump | Perceptron | FourierFeature], X: np.ndarray) -> np.ndarray:
    """Phi(X) = [h_1(X), ..., h_J(X)] (eq. 3), vectorised when every learner is of one kind.

    Parameters
    ----------
    learners : sequence of Stump, Perceptron or FourierFeature
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        A sparse X is not densified: a stump reads its feature's column, a perceptron or
        Fourier feature the sparse product X theta.

    Returns
    -------
    ndarray of shape (n_samples, len(learners))
    """
    X = _points(X)
    if not learners:
        return np.zeros((X.shape[0], 0))
    kinds = {type(h) for h in learners}
    if kinds == {Stump}:
        stumps = cast(Sequence[Stump], learners)  # one kind, by the test: mypy does not narrow by it
        features = np.array([h.feature for h in stumps], dtype=np.intp)
        thresholds = np.array([h.threshold for h in stumps])
        return _signs(_columns(X, features) > thresholds) * np.array([h.sign for h in stumps])
    if kinds == {Perceptron}:
        perceptrons = cast(Sequence[Perceptron], learners)
        theta = np.column_stack([h.theta for h in perceptrons])
        kappa = np.array([h.kappa for h in perceptrons])
        return _signs(X @ theta > kappa) * np.array([h.sign for h in perceptrons])
    if kinds == {FourierFeature}:
        fourier = cast(Sequence[FourierFeature], learners)
        theta = np.column_stack([h.theta for h in fourier])
        return np.cos(X @ theta - np.array([h.kappa for h in fourier]))
    return np.column_stack([h(X) for h in learners])
