"""Sampled families: random perceptrons and random Fourier features, the best of ``n_candidates`` draws.

:class:`Perceptrons` and :class:`FourierFeatures` draw ``n_candidates`` random
learners per search from the distributions behind the perceptron kernel (Lin &
Li 2008) and the Gaussian RBF kernel (Rahimi & Recht 2007), as CGEns §VI-A does
with 2000 candidates, and return the best of them. Fourier scores are computed in
float32 and the near-best rescored in float64, so the learner chosen is the float64
search's (:meth:`FourierFeatures._scores`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from numbers import Integral, Real
from typing import Any

import numpy as np
import scipy.sparse
from sklearn.utils import check_random_state

from .weak import Best, FourierFeature, Perceptron, _points, _signs

__all__ = ["FourierFeatures", "Perceptrons"]

_BLOCK_ELEMENTS = 2**22
"""Scores are computed in blocks of about this many (point, candidate) pairs (32 MiB of float64)."""


def _check_n_candidates(n_candidates: int) -> int:
    if not (isinstance(n_candidates, Integral) and n_candidates >= 1):
        raise ValueError(f"n_candidates must be an integer >= 1, got {n_candidates!r}")
    return int(n_candidates)


class _Sampled(ABC):
    """A family searched by drawing ``n_candidates`` random learners (theta, kappa) per search."""

    exhaustive = False

    def __init__(self, X: np.ndarray, *, n_candidates: int = 2000, random_state=None) -> None:
        self.X = _points(X)
        self.n_candidates = _check_n_candidates(n_candidates)
        self.random_state = check_random_state(random_state)
        self._block = max(1, min(self.n_candidates, _BLOCK_ELEMENTS // max(1, self.X.shape[0])))

    @abstractmethod
    def _draw(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        """``size`` draws of (theta, kappa): arrays of shape (n_features, size) and (size,)."""

    @abstractmethod
    def _outputs(self, Z: np.ndarray) -> np.ndarray:
        """Learner outputs h(x_i) in float64 from Z = theta'x - kappa (left unchanged)."""

    @abstractmethod
    def _scores(self, w: np.ndarray, Z: np.ndarray, kappa: np.ndarray) -> tuple[np.ndarray, float]:
        """Scores sum_i w_i h(x_i) of the candidates, from Z = theta'x (Z's columns), and a bound on their error.

        The bound is 0 where the scores are the float64 ones, and Z may then be
        overwritten; :meth:`best` rescores in float64 every candidate a nonzero bound
        leaves within reach of the largest, from Z, which must then hold theta'x - kappa.
        """

    @abstractmethod
    def _learner(self, theta: np.ndarray, kappa: float, score: float) -> Perceptron | FourierFeature:
        """The learner (theta, kappa), negated if its score is negative."""

    def best(self, w: np.ndarray) -> Best:
        """The drawn learner (or its negation) with the largest |sum_i w_i h(x_i)|.

        Parameters
        ----------
        w : ndarray of shape (n_samples,)
            Signed weights (eq. 6, 8, 13).

        Returns
        -------
        Best
        """
        w = np.asarray(w, dtype=np.float64)
        if w.shape != (self.X.shape[0],):
            raise ValueError(f"w must have shape ({self.X.shape[0]},), got {w.shape}")
        top, chosen, sum_squares = -np.inf, None, 0.0
        remaining = self.n_candidates
        while remaining:
            size = min(remaining, self._block)
            remaining -= size
            theta, kappa = self._draw(size)
            Z = self.X @ theta
            scores, error = self._scores(w, Z, kappa)
            sum_squares += float(scores @ scores)
            k = int(np.argmax(np.abs(scores)))
            if error > 0.0:  # the largest in float64 is among the scores within 2 error of the largest
                near = np.flatnonzero(np.abs(scores) >= abs(scores[k]) - 2.0 * error)
                exact = w @ self._outputs(Z[:, near])
                j = int(np.argmax(np.abs(exact)))
                k = int(near[j])
                scores[k] = exact[j]
            if abs(scores[k]) > top:
                top, chosen = abs(scores[k]), (theta[:, k].copy(), float(kappa[k]), float(scores[k]))
        assert chosen is not None  # n_candidates >= 1 learners were scored
        learner = self._learner(*chosen)
        return Best(learner, top, learner(self.X), self.n_candidates, sum_squares)

    def best_each(self, W: np.ndarray) -> list[Best]:
        """:meth:`best` under each column of W in turn, each search drawing its own candidates.

        Parameters
        ----------
        W : ndarray of shape (n_samples, m)
            Signed weights, one column per search (CGEns-SLS's dual U, eq. 13).

        Returns
        -------
        list of m Best
        """
        return [self.best(w) for w in np.asarray(W, dtype=np.float64).T]

    def exclude(self, learner) -> None:  # noqa: B027 (a no-op by design, not abstract)
        """Nothing to do: a drawn learner is drawn again with probability 0."""


def _squared_norms(X: np.ndarray) -> np.ndarray:
    """||x_i||^2 of each row of X, dense or sparse."""
    if scipy.sparse.issparse(X):
        S: Any = X  # scipy's sparse types are Any (no type information)
        return np.asarray(S.multiply(S).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", X, X)


def _radius(X: np.ndarray) -> float:
    """R = max_i ||x_i||, also where the squares ||x_i||^2 overflow or underflow (inputs beyond 1e154 or 1e-154).

    Raises ValueError, naming the fix, if kappa's range [-R, R] is wider than floating point holds.
    A sparse X is read from its stored entries.
    """
    radius = float(np.sqrt(_squared_norms(X).max()))
    largest = float(abs(X).max())
    if (radius == 0.0 and largest > 0.0) or not np.isfinite(radius):  # the squares left float64's range
        radius = largest * float(np.sqrt(_squared_norms(X / largest).max()))
    if not np.isfinite(2.0 * radius):
        raise ValueError(
            f"perceptron thresholds are drawn on [-R, R], R = max ||x_i|| = {radius:.3g}, wider than floating "
            "point holds: standardise X, e.g. with sklearn.preprocessing.StandardScaler"
        )
    return radius


class Perceptrons(_Sampled):
    """Random perceptrons sign(theta'x - kappa), the measure of the perceptron kernel (Lin & Li 2008).

    theta is uniform on the unit sphere and kappa uniform on [-R, R], R = max_i ||x_i||
    (the perceptron kernel Delta' - ||x - x'||_2 integrates over this measure).

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        Training inputs (best centred, e.g. standardised). A sparse X is kept sparse:
        a search's theta'x is the sparse product X theta.
    n_candidates : int, default=2000
        Perceptrons drawn per search (§VI-A).
    random_state : int, RandomState or None, default=None
    """

    def __init__(self, X: np.ndarray, *, n_candidates: int = 2000, random_state=None) -> None:
        super().__init__(X, n_candidates=n_candidates, random_state=random_state)
        self.radius = _radius(self.X)

    def _draw(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        theta = self.random_state.standard_normal((self.X.shape[1], size))
        theta /= np.maximum(np.linalg.norm(theta, axis=0), np.finfo(float).tiny)
        return theta, self.random_state.uniform(-self.radius, self.radius, size)

    def _outputs(self, Z: np.ndarray) -> np.ndarray:
        return _signs(Z > 0)

    def _scores(self, w: np.ndarray, Z: np.ndarray, kappa: np.ndarray) -> tuple[np.ndarray, float]:
        """sum_i w_i h(x_i) = 2 sum_{theta'x_i > kappa} w_i - sum_i w_i, exactly: no +-1 matrix, and the 0/1
        indicators written over Z in one pass (theta'x > kappa is fl(theta'x - kappa) > 0: a correctly
        rounded difference is 0 only for equal operands), 1.5-2x faster than subtracting first."""
        np.greater(Z, kappa, out=Z)
        return 2.0 * (w @ Z) - w.sum(), 0.0

    def _learner(self, theta: np.ndarray, kappa: float, score: float) -> Perceptron:
        return Perceptron(theta, kappa, 1.0 if score >= 0 else -1.0)


class FourierFeatures(_Sampled):
    """Random Fourier features cos(theta'x - kappa) of the Gaussian kernel exp(-gamma ||x - x'||^2).

    theta ~ N(0, 2 gamma I) and kappa uniform on [0, 2 pi) (Rahimi & Recht 2007; the
    ``gamma`` of scikit-learn's SVC and RBFSampler), so the SVM's bandwidth carries
    over (§VI-A). A negated feature is the feature with kappa + pi.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        Training inputs; a sparse X is kept sparse (a search's theta'x is the sparse
        product X theta).
    gamma : float
        Width of the Gaussian kernel, > 0.
    n_candidates : int, default=2000
        Features drawn per search (§VI-A).
    random_state : int, RandomState or None, default=None
    """

    def __init__(self, X: np.ndarray, *, gamma: float, n_candidates: int = 2000, random_state=None) -> None:
        if not (isinstance(gamma, Real) and np.isfinite(gamma) and gamma > 0):
            raise ValueError(f"gamma must be a finite number > 0, got {gamma!r}")
        super().__init__(X, n_candidates=n_candidates, random_state=random_state)
        self.gamma: float = float(gamma)

    def _draw(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        theta = self.random_state.normal(0.0, np.sqrt(2.0 * self.gamma), (self.X.shape[1], size))
        return theta, self.random_state.uniform(0.0, 2.0 * np.pi, size)

    def _outputs(self, Z: np.ndarray) -> np.ndarray:
        return np.cos(Z)

    def _scores(self, w: np.ndarray, Z: np.ndarray, kappa: np.ndarray) -> tuple[np.ndarray, float]:
        """Scores in float32, whose cosines are SIMD (20x faster than float64 here), and their error bound.

        With u = 2^-24: rounding z to float32 moves cos z by at most |z| u; numpy's
        float32 cosine is within 4 u of cos of its argument (its documented error is
        below 2 ulp); rounding w costs |w_i| u; a float32 dot product of n terms errs by
        at most gamma_n = n u / (1 - n u) times sum_i |w_i h_i| (any summation order).
        The bound doubles their sum: |score - score_float64| <= error.
        """
        Z -= kappa
        cosines = Z.astype(np.float32)
        np.cos(cosines, out=cosines)
        scores = (w.astype(np.float32) @ cosines).astype(np.float64)
        n, u = Z.shape[0], 2.0**-24
        gamma = n * u / (1.0 - n * u)
        largest = max(float(Z.max()), -float(Z.min()))  # max |z|, without an |Z| temporary
        error = 2.0 * float(np.abs(w).sum()) * (u * (largest + 5.0) + gamma * (1.0 + 5.0 * u))
        return scores, error

    def _learner(self, theta: np.ndarray, kappa: float, score: float) -> FourierFeature:
        return FourierFeature(theta, kappa if score >= 0 else (kappa + np.pi) % (2.0 * np.pi))
