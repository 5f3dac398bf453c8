"""Every decision stump on the training inputs, searched exactly (CGEns §IV, §VI-A).

:class:`Stumps` sorts each feature once, when the family is bound to the
training inputs; then one search is a cumulative sum of the sorted weights,
O(n d), fused into one compiled pass (:func:`_stump_search`). A search under
several weight vectors at once (:func:`_stump_search_rows`) serves CGEns-SLS's
one search per classifier and AdaBoost.MH's vote per class.
"""

from __future__ import annotations

import numba
import numpy as np

from .weak import Best, Stump, _points

__all__ = ["Stumps"]


@numba.njit(cache=True, nogil=True)
def _stump_search(order: np.ndarray, w: np.ndarray, available: np.ndarray, total: float) -> tuple:
    """The exact stump search under one weight vector, fused into one pass over the sorted points of each feature.

    For each feature j, L runs over the cumulative sum of w in sorted order, and
    the stump at sorted position r scores W - 2 L_r (W = sum_i w_i, ``total``).
    The candidate with the largest |score| wins; ties go to the lowest position,
    then the lowest feature (numpy's row-major ``argmax`` over positions x
    features). The same arithmetic in numpy (gather, ``cumsum``, mask, ``argmax``)
    makes five passes over an n x d array; this loop makes one, keeps the running
    sum in a register and no such array (2.4-9x faster on MNIST at n = 10^3 and
    10^4, measured in ``benchmarks/cgens_speed.py``). No library searches stumps
    under signed weights (scikit-learn's trees take weights >= 0).

    Parameters
    ----------
    order : ndarray of shape (n, d)
        Sorting permutation of each feature.
    w : ndarray of shape (n,)
        Signed weights.
    available : ndarray of shape (n, d), bool
        Which (position, feature) pairs are candidates.
    total : float
        sum_i w_i.

    Returns
    -------
    row, feature : int
        The best candidate's position and feature; -1 when none is available.
    score : float
        Its signed score W - 2 L_row.
    sum_squares : float
        Sum of the squared scores of all available candidates.
    """
    n, d = order.shape
    best_edge, best_row, best_feature, best_score = -1.0, -1, -1, total
    sum_squares = 0.0
    for j in range(d):
        L = 0.0
        for r in range(n):
            L += w[order[r, j]]
            if available[r, j]:
                score = total - 2.0 * L
                sum_squares += score * score
                edge = abs(score)
                if edge > best_edge or (edge == best_edge and r < best_row):
                    best_edge, best_row, best_feature, best_score = edge, r, j, score
    return best_row, best_feature, best_score, sum_squares


@numba.njit(cache=True, nogil=True)
def _stump_search_rows(order: np.ndarray, W: np.ndarray, available: np.ndarray, totals: np.ndarray,
                       per_row: bool) -> tuple:
    """The exact stump search under m weight vectors at once, one pass over the sorted points of each feature.

    The m running sums L_l advance together, so each sorted point's m weights are
    read as one contiguous row of W (m separate searches gather each point m
    times). Each score, sum and tie is the one :func:`_stump_search` computes for
    its row alone, bit for bit. Two selections:

    - ``per_row``: the best stump of each row, by the rule of :func:`_stump_search`
      (CGEns-SLS prices one classifier tau per column of its dual U, eq. 13);
    - otherwise the one stump with the largest edge sum_l |score_l|, ties to the
      lowest position, then feature (AdaBoost.MH's vote per class,
      :mod:`mkbench.estimators.stump_adaboost`).

    Parameters
    ----------
    order : ndarray of shape (n, d)
        Sorting permutation of each feature.
    W : ndarray of shape (n, m), C-contiguous
        Signed weights, one column per row of scores.
    available : ndarray of shape (n, d), bool
        Which (position, feature) pairs are candidates.
    totals : ndarray of shape (m,)
        Column sums of W.
    per_row : bool
        Select per row (shape k = m below) or by the summed edge (k = 1).

    Returns
    -------
    rows, features : ndarray of shape (k,)
        The best candidates' positions and features; -1 when none is available.
    scores : ndarray of shape (k, m)
        Their signed scores W_l - 2 L_row,l under each row l (per row: row q's own
        score is ``scores[q, q]``; the others are not computed).
    sum_squares : ndarray of shape (m,)
        Per row, the sum of the squared scores of all available candidates.
    """
    n, d = order.shape
    m = W.shape[1]
    k = m if per_row else 1
    best_edge = np.full(k, -1.0)
    best_row = np.full(k, -1)
    best_feature = np.full(k, -1)
    best_scores = np.empty((k, m))
    for q in range(k):
        best_scores[q] = totals
    sum_squares = np.zeros(m)
    L = np.empty(m)
    for j in range(d):
        L[:] = 0.0
        for r in range(n):
            i = order[r, j]
            for q in range(m):
                L[q] += W[i, q]
            if not available[r, j]:
                continue
            edge = 0.0
            for q in range(m):
                score = totals[q] - 2.0 * L[q]
                sum_squares[q] += score * score
                if per_row:
                    if abs(score) > best_edge[q] or (abs(score) == best_edge[q] and r < best_row[q]):
                        best_edge[q], best_row[q], best_feature[q] = abs(score), r, j
                        best_scores[q, q] = score
                else:
                    edge += abs(score)
            if not per_row and (edge > best_edge[0] or (edge == best_edge[0] and r < best_row[0])):
                best_edge[0], best_row[0], best_feature[0] = edge, r, j
                for q in range(m):
                    best_scores[0, q] = totals[q] - 2.0 * L[q]
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
        row, feature, score, sum_squares = _stump_search(self.order, w, self.available, w.sum())
        return self._best(row, feature, score, sum_squares)

    def best_each(self, W: np.ndarray) -> list[Best]:
        """:meth:`best` under each column of W, in one pass over the sorted points (:func:`_stump_search_rows`).

        Equal, bit for bit, to ``[self.best(w) for w in W.T]``; 2.6x faster for the 9
        columns of CGEns-SLS on USPS and MNIST (10 classes, eq. 13), up to 1.2x slower on
        small UCI folds, whose searches take well under a millisecond (measured in
        ``benchmarks/stump_rows.py``).

        Parameters
        ----------
        W : ndarray of shape (n_samples, m)
            Signed weights, one column per search.

        Returns
        -------
        list of m Best
        """
        W, totals = self._rows(W)
        rows, features, scores, sum_squares = _stump_search_rows(self.order, W, self.available, totals, True)
        return [self._best(rows[q], features[q], scores[q, q], sum_squares[q]) for q in range(W.shape[1])]

    def search(self, W: np.ndarray) -> tuple[int, int, np.ndarray, float]:
        """The available stump with the largest sum_l |sum_i W_il h(x_i)| (:func:`_stump_search_rows`).

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
        W, totals = self._rows(W)
        rows, features, scores, sum_squares = _stump_search_rows(self.order, W, self.available, totals, False)
        return int(rows[0]), int(features[0]), scores[0], float(sum_squares.sum())

    def _rows(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """W as a C-contiguous float64 (n_samples, m) array (each point's weights one contiguous row), and its
        column sums, each summed as :meth:`best` sums its w (a contiguous row of W')."""
        W = np.ascontiguousarray(W, dtype=np.float64)
        if W.ndim != 2 or W.shape[0] != self.n_samples:
            raise ValueError(f"W must have shape ({self.n_samples}, m), got {W.shape}")
        return W, np.ascontiguousarray(W.T).sum(axis=1)

    def _best(self, row: int, feature: int, score: float, sum_squares: float) -> Best:
        """The Best of stump (row, feature) with signed score ``score``, signed so that its score is >= 0."""
        if row < 0:
            return Best(None, -np.inf, None, 0, 0.0)
        stump = Stump(int(feature), self.threshold(int(row), int(feature)), 1.0 if score >= 0 else -1.0)
        return Best(stump, abs(float(score)), stump(self.X), self.n_candidates, float(sum_squares))

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
