"""Weak learners of CGEns (Shen & Liu, §IV, §VI-A): decision stumps, perceptrons, Fourier features.

A weak learner h maps inputs X to outputs h(X) (one column of the ensemble's
feature map Phi, eq. 3). Column generation needs, for signed weights w on the
training points (w_i = y_i alpha_i of CGEns, eq. 8; u_i y_i of LPBoost, eq. 6;
a column U_{:tau} of CGEns-SLS, eq. 13), the learner of a family that maximises

    |score(h)| = |sum_i w_i h(x_i)|.

Every family here is negation complete (Claim IV.2): -h is a stump (perceptron)
whenever h is, and -cos(theta'x - kappa) = cos(theta'x - kappa - pi). So the
maximiser of |score| is returned with the sign that makes its score >= 0, which
solves eq. 6 and eq. 8 at once.

A family is bound to the training inputs once per fit and answers :meth:`best`
for any number of weight vectors:

* :class:`Stumps` searches every decision stump exactly: each feature is sorted
  once, then one search is a cumulative sum of the sorted weights, O(n d).
* :class:`Perceptrons` and :class:`FourierFeatures` draw ``n_candidates``
  random learners per search from the distributions behind the perceptron kernel
  (Lin & Li 2008) and the Gaussian RBF kernel (Rahimi & Recht 2007), as §VI-A
  does with 2000 candidates, and return the best of them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real

import numba
import numpy as np
from sklearn.utils import check_random_state

__all__ = [
    "LEARNERS",
    "Best",
    "FourierFeature",
    "FourierFeatures",
    "Perceptron",
    "Perceptrons",
    "Stump",
    "Stumps",
    "make_family",
    "outputs",
]

LEARNERS = ("stump", "perceptron", "fourier")

_BLOCK_ELEMENTS = 2**22
"""Scores are computed in blocks of about this many (point, candidate) pairs (32 MiB of float64)."""


def _points(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D array of points (n_samples, n_features), got shape {X.shape}")
    return X


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
        return self.sign * _signs(_points(X)[:, self.feature] > self.threshold)


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


@numba.njit(cache=True, nogil=True)
def _stump_search(order: np.ndarray, W: np.ndarray, available: np.ndarray, totals: np.ndarray) -> tuple:
    """The exact stump search, fused into one pass over the sorted points of each feature.

    For each feature j and weight row l, L runs over the cumulative sum of W_l in
    sorted order, and the stump at sorted position r scores W_l - 2 L_rl
    (W_l = the row sum, ``totals[l]``). The candidate with the largest edge
    sum_l |score_l| wins; ties go to the lowest position, then the lowest feature
    (numpy's row-major ``argmax`` over positions x features). One row is
    :meth:`Stumps.best`; one row per class is AdaBoost.MH's vote per class
    (:mod:`mkbench.boosting`). The same arithmetic in numpy (gather, ``cumsum``,
    mask, ``argmax``) makes five passes over an n x d array per weight row; this
    loop makes one and keeps no such array (2.4-9x faster on MNIST at n = 10^3 and
    10^4, measured in ``benchmarks/cgens_speed.py``). No library searches stumps
    under signed weights (scikit-learn's trees take weights >= 0).

    Parameters
    ----------
    order : ndarray of shape (n, d)
        Sorting permutation of each feature.
    W : ndarray of shape (m, n)
        Signed weights, one row per score (the transpose of :meth:`Stumps.search`'s).
    available : ndarray of shape (n, d), bool
        Which (position, feature) pairs are candidates.
    totals : ndarray of shape (m,)
        Row sums of W.

    Returns
    -------
    row, feature : int
        The best candidate's position and feature; -1 when none is available.
    scores : ndarray of shape (m,)
        Its signed scores W_l - 2 L_row,l.
    sum_squares : float
        Sum of the squared scores of all available candidates.
    """
    n, d = order.shape
    m = W.shape[0]
    best_edge, best_row, best_feature = -1.0, -1, -1
    edge = np.zeros(n)
    sum_squares = 0.0
    for j in range(d):
        edge[:] = 0.0
        for l in range(m):  # one scalar running sum per weight row keeps the hot loop in registers
            L = 0.0
            for r in range(n):
                L += W[l, order[r, j]]
                if available[r, j]:
                    score = totals[l] - 2.0 * L
                    sum_squares += score * score
                    edge[r] += abs(score)
        for r in range(n):
            if available[r, j] and (edge[r] > best_edge or (edge[r] == best_edge and r < best_row)):
                best_edge, best_row, best_feature = edge[r], r, j
    best_scores = totals.copy()
    if best_row >= 0:
        for l in range(m):
            L = 0.0
            for r in range(best_row + 1):
                L += W[l, order[r, best_feature]]
            best_scores[l] = totals[l] - 2.0 * L
    return best_row, best_feature, best_scores, sum_squares


class Stumps:
    """Every decision stump on the training inputs X, searched exactly in O(n d) per search.

    Stump (j, t) splits feature j between two consecutive distinct sorted values,
    at their midpoint t. With the points sorted by feature j and L_k the sum of the
    first k sorted weights, the stump's score is sum_i w_i h(x_i) = W - 2 L_k
    (W = sum_i w_i): one cumulative sum scores all thresholds of a feature. Each
    feature is sorted once, when the family is built.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training inputs.
    constant : bool, default=False
        Also offer the constant learner +-1 (the stump whose threshold lies beyond
        every point), which a master without offset can use as one (LPBoost eq. 4).
        A master with a free offset b prices it at sum_i y_i alpha_i = 0, so it is
        left out by default.

    Attributes
    ----------
    n_candidates : int
        Distinct stumps up to negation on X (per feature, the number of distinct
        values minus one), plus one if ``constant``.
    """

    exhaustive = True

    def __init__(self, X: np.ndarray, *, constant: bool = False) -> None:
        X = _points(X)
        n, d = X.shape
        if n < 2:
            raise ValueError(f"stumps need at least 2 training points, got {n}")
        self.X = X
        self.n_samples, self.n_features = n, d
        # column-major (each feature's sorted points contiguous), as the search walks them
        order = np.argsort(X, axis=0, kind="stable").astype(np.int32 if n < 2**31 else np.intp)
        self.order = np.asfortranarray(order)
        self.sorted = np.asfortranarray(np.take_along_axis(X, order, axis=0))
        # row r < n - 1 splits the sorted points r | r + 1; row n - 1 is the constant learner
        self.available = np.zeros((n, d), dtype=bool, order="F")
        self.available[:-1] = self.sorted[1:] > self.sorted[:-1]
        self.available[-1, 0] = constant
        self.n_candidates = int(self.available.sum())

    def threshold(self, row: int, feature: int) -> float:
        """The threshold of stump (row, feature): the midpoint of the sorted values row, row + 1."""
        if row == self.n_samples - 1:
            return float("inf")
        lo, hi = self.sorted[row, feature], self.sorted[row + 1, feature]
        t = lo + (hi - lo) / 2.0
        return float(lo if t >= hi else t)  # adjacent floats: keep x > t exact on the training points

    def best(self, w: np.ndarray) -> Best:
        """The available stump (or its negation) with the largest |sum_i w_i h(x_i)|.

        Ties go to the lowest sorted position, then the lowest feature.

        Parameters
        ----------
        w : ndarray of shape (n_samples,)
            Signed weights (eq. 6, 8, 13).

        Returns
        -------
        Best
        """
        w = np.asarray(w, dtype=np.float64)
        if w.shape != (self.n_samples,):
            raise ValueError(f"w must have shape ({self.n_samples},), got {w.shape}")
        row, feature, scores, sum_squares = self.search(w[:, None])
        if row < 0:
            return Best(None, -np.inf, None, 0, 0.0)
        stump = Stump(feature, self.threshold(row, feature), 1.0 if scores[0] >= 0 else -1.0)
        return Best(stump, abs(scores[0]), stump(self.X), self.n_candidates, sum_squares)

    def search(self, W: np.ndarray) -> tuple[int, int, np.ndarray, float]:
        """The available stump with the largest sum_l |sum_i W_il h(x_i)| (:func:`_stump_search`).

        Parameters
        ----------
        W : ndarray of shape (n_samples, m)
            Signed weights, one column per score.

        Returns
        -------
        row, feature : int
            Sorted position and feature of the stump (see :meth:`threshold`); -1 when
            no stump is available.
        scores : ndarray of shape (m,)
            Its score for each column of W.
        sum_squares : float
            Sum of squared scores over every available stump and column.
        """
        W = np.ascontiguousarray(np.asarray(W, dtype=np.float64).T)
        return _stump_search(self.order, W, self.available, W.sum(axis=1))

    def exclude(self, stump: Stump) -> None:
        """Offer ``stump`` and its negation no more (they are in a free-sign master)."""
        if np.isinf(stump.threshold):
            row = self.n_samples - 1
            feature = 0
        else:
            feature = stump.feature
            row = int(np.searchsorted(self.sorted[:, feature], stump.threshold, side="right")) - 1
        if self.available[row, feature]:
            self.available[row, feature] = False
            self.n_candidates -= 1


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
        """Learner outputs from Z = theta'x - kappa."""

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
            scores = w @ self._outputs(self.X @ theta - kappa)
            sum_squares += float(scores @ scores)
            k = int(np.argmax(np.abs(scores)))
            if abs(scores[k]) > top:
                top, chosen = abs(scores[k]), (theta[:, k].copy(), float(kappa[k]), float(scores[k]))
        learner = self._learner(*chosen)
        return Best(learner, top, learner(self.X), self.n_candidates, sum_squares)

    def exclude(self, learner) -> None:
        """Nothing to do: a drawn learner is drawn again with probability 0."""


class Perceptrons(_Sampled):
    """Random perceptrons sign(theta'x - kappa), the measure of the perceptron kernel (Lin & Li 2008).

    theta is uniform on the unit sphere and kappa uniform on [-R, R], R = max_i ||x_i||
    (the perceptron kernel Delta' - ||x - x'||_2 integrates over this measure).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training inputs (best centred, e.g. standardised).
    n_candidates : int, default=2000
        Perceptrons drawn per search (§VI-A).
    random_state : int, RandomState or None, default=None
    """

    def __init__(self, X: np.ndarray, *, n_candidates: int = 2000, random_state=None) -> None:
        super().__init__(X, n_candidates=n_candidates, random_state=random_state)
        self.radius = float(np.sqrt(np.einsum("ij,ij->i", self.X, self.X).max()))

    def _draw(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        theta = self.random_state.standard_normal((self.X.shape[1], size))
        theta /= np.maximum(np.linalg.norm(theta, axis=0), np.finfo(float).tiny)
        return theta, self.random_state.uniform(-self.radius, self.radius, size)

    def _outputs(self, Z: np.ndarray) -> np.ndarray:
        return _signs(Z > 0)

    def _learner(self, theta: np.ndarray, kappa: float, score: float) -> Perceptron:
        return Perceptron(theta, kappa, 1.0 if score >= 0 else -1.0)


class FourierFeatures(_Sampled):
    """Random Fourier features cos(theta'x - kappa) of the Gaussian kernel exp(-gamma ||x - x'||^2).

    theta ~ N(0, 2 gamma I) and kappa uniform on [0, 2 pi) (Rahimi & Recht 2007; the
    ``gamma`` of scikit-learn's SVC and RBFSampler), so the SVM's bandwidth carries
    over (§VI-A). A negated feature is the feature with kappa + pi.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training inputs.
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
        self.gamma = float(gamma)

    def _draw(self, size: int) -> tuple[np.ndarray, np.ndarray]:
        theta = self.random_state.normal(0.0, np.sqrt(2.0 * self.gamma), (self.X.shape[1], size))
        return theta, self.random_state.uniform(0.0, 2.0 * np.pi, size)

    def _outputs(self, Z: np.ndarray) -> np.ndarray:
        return np.cos(Z)

    def _learner(self, theta: np.ndarray, kappa: float, score: float) -> FourierFeature:
        return FourierFeature(theta, kappa if score >= 0 else (kappa + np.pi) % (2.0 * np.pi))


def outputs(learners: Sequence[Stump | Perceptron | FourierFeature], X: np.ndarray) -> np.ndarray:
    """Phi(X) = [h_1(X), ..., h_J(X)] (eq. 3), vectorised when every learner is of one kind.

    Parameters
    ----------
    learners : sequence of Stump, Perceptron or FourierFeature
    X : array-like of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_samples, len(learners))
    """
    X = _points(X)
    if not learners:
        return np.zeros((X.shape[0], 0))
    kinds = {type(h) for h in learners}
    if kinds == {Stump}:
        features = np.array([h.feature for h in learners], dtype=np.intp)
        thresholds = np.array([h.threshold for h in learners])
        return _signs(X[:, features] > thresholds) * np.array([h.sign for h in learners])
    if kinds == {Perceptron}:
        theta = np.column_stack([h.theta for h in learners])
        kappa = np.array([h.kappa for h in learners])
        return _signs(X @ theta > kappa) * np.array([h.sign for h in learners])
    if kinds == {FourierFeature}:
        theta = np.column_stack([h.theta for h in learners])
        return np.cos(X @ theta - np.array([h.kappa for h in learners]))
    return np.column_stack([h(X) for h in learners])


def make_family(
    learner: str,
    X: np.ndarray,
    *,
    n_candidates: int = 2000,
    gamma: float | None = None,
    constant: bool = False,
    random_state=None,
) -> Stumps | Perceptrons | FourierFeatures:
    """The weak-learner family ``learner`` on the training inputs X.

    Parameters
    ----------
    learner : {"stump", "perceptron", "fourier"}
    X : array-like of shape (n_samples, n_features)
    n_candidates : int, default=2000
        Learners drawn per search (perceptron, fourier; stumps are searched exactly).
    gamma : float, default=None
        Gaussian width of the Fourier features; None: 1 / (n_features * X.var()),
        scikit-learn's ``gamma="scale"``.
    constant : bool, default=False
        Offer the constant stump (see :class:`Stumps`).
    random_state : int, RandomState or None, default=None

    Returns
    -------
    Stumps, Perceptrons or FourierFeatures
    """
    if learner == "stump":
        return Stumps(X, constant=constant)
    if learner == "perceptron":
        return Perceptrons(X, n_candidates=n_candidates, random_state=random_state)
    if learner == "fourier":
        if gamma is None:
            X = _points(X)
            variance = X.var()
            gamma = 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        return FourierFeatures(X, gamma=gamma, n_candidates=n_candidates, random_state=random_state)
    raise ValueError(f"learner={learner!r} is not one of {', '.join(map(repr, LEARNERS))}")
