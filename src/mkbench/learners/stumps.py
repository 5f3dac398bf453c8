"""Every decision stump on the training inputs, searched exactly (CGEns §IV, §VI-A).

:class:`Stumps` sorts each feature once, when the family is bound to the
training inputs; then one search is a cumulative sum of the sorted weights,
O(n d), fused into one compiled pass (:func:`_stump_search`). A search under
several weight rows at once serves AdaBoost.MH's vote per class.
"""

from __future__ import annotations

import numba
import numpy as np

from .weak import Best, Stump, _points

__all__ = ["Stumps"]


@numba.njit(cache=True, nogil=True)
def _stump_search(order: np.ndarray, W: np.ndarray, available: np.ndarray, totals: np.ndarray) -> tuple:
    """The exact stump search, fused into one pass over the sorted points of each feature.

    For each feature j and weight row l, L runs over the cumulative sum of W_l in
    sorted order, and the stump at sorted position r scores W_l - 2 L_rl
    (W_l = the row sum, ``totals[l]``). The candidate with the largest edge
    sum_l |score_l| wins; ties go to the lowest position, then the lowest feature
    (numpy's row-major ``argmax`` over positions x features). One row is
    :meth:`Stumps.best`; one row per class is AdaBoost.MH's vote per class
    (:mod:`mkbench.estimators.stump_adaboost`). The same arithmetic in numpy (gather, ``cumsum``,
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
