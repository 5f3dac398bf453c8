"""Every decision stump on the training inputs, searched exactly (CGEns §IV, §VI-A).

:class:`Stumps` sorts each feature once, when the family is bound to the
training inputs; then one search is a cumulative sum of the sorted weights,
O(n d), fused into one compiled pass (:func:`_stump_search`). A search under
several weight vectors at once (:func:`_stump_search_rows`) serves CGEns-SLS's
one search per classifier and AdaBoost.MH's vote per class.

What a stump family is beyond its search (the searches' interface, the outcome,
exclusion) is :class:`_StumpFamily`, and the scan that scores and selects the
stumps of one feature is :func:`mkbench.learners._scan._scan_rows`: both are shared
with the sparse and binned families (:class:`mkbench.learners.BinnedStumps` scans
bins where this one scans sorted points). Every search splits over contiguous chunks
of the features, run in threads (:mod:`mkbench.learners._chunks`, ``n_jobs``), with
the one-thread outcome.
"""

from __future__ import annotations

from functools import partial

import numba
import numpy as np

from ._chunks import ONE_CHUNK, FeatureChunks, search_chunks
from ._scan import _rows_start, _scan_rows
from .weak import Best, Stump, _points

__all__ = ["Stumps"]


@numba.njit(cache=True, nogil=True)
def _stump_search(
    order: np.ndarray, w: np.ndarray, available: np.ndarray, total: float, lo: int, hi: int, squares: np.ndarray
) -> tuple:
    """The exact stump search of features lo..hi - 1 under one weight vector, one pass over each one's sorted points.

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
    lo, hi : int
        The features searched (a chunk, :mod:`mkbench.learners._chunks`).
    squares : ndarray of shape (d, 1)
        Out: ``squares[j, 0]``, the sum of the squared scores of feature j's available candidates.

    Returns
    -------
    row, feature : int
        The best candidate's position and feature; -1 when none is available.
    score, edge : float
        Its signed score W - 2 L_row, and |score| (-1 when none).
    """
    n = order.shape[0]
    best_edge, best_row, best_feature, best_score = -1.0, -1, -1, total
    for j in range(lo, hi):
        L, sum_squares = 0.0, 0.0
        for r in range(n):
            L += w[order[r, j]]
            if available[r, j]:
                score = total - 2.0 * L
                sum_squares += score * score
                edge = abs(score)
                if edge > best_edge or (edge == best_edge and r < best_row):
                    best_edge, best_row, best_feature, best_score = edge, r, j, score
        squares[j, 0] = sum_squares
    return best_row, best_feature, best_score, best_edge


@numba.njit(cache=True, nogil=True)
def _stump_search_rows(
    order: np.ndarray,
    W: np.ndarray,
    available: np.ndarray,
    totals: np.ndarray,
    per_row: bool,
    lo: int,
    hi: int,
    squares: np.ndarray,
) -> tuple:
    """The exact stump search of features lo..hi - 1 under m weight vectors at once, one pass per feature.

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
    lo, hi : int
        The features searched (a chunk, :mod:`mkbench.learners._chunks`).
    squares : ndarray of shape (d, m)
        Out: ``squares[j]``, per row, the sum of the squared scores of feature j's available candidates.

    Returns
    -------
    rows, features : ndarray of shape (k,)
        The best candidates' positions and features; -1 when none is available.
    scores : ndarray of shape (k, m)
        Their signed scores W_l - 2 L_row,l under each row l (per row: row q's own
        score is ``scores[q, q]``; the others are not computed).
    edges : ndarray of shape (k,)
        Their |score| (per row) or summed edge; -1 when none.
    """
    rows, features, scores, edges = _rows_start(W.shape[1], per_row, totals)
    L = np.empty(W.shape[1])
    for j in range(lo, hi):
        _scan_rows(
            W, order[:, j], available[:, j], None, j, totals, per_row, L, rows, features, scores, squares[j], edges
        )
    return rows, features, scores, edges


def _midpoint(lo: np.ndarray | float, hi: np.ndarray | float) -> np.ndarray:
    """The stump threshold between sorted values lo < hi: their midpoint, or lo if no float lies strictly between.

    A point x then goes above the threshold (x > t) exactly when x >= hi, so the
    stump splits the training points where the search scored it, adjacent floats
    included.
    """
    t = lo + (hi - lo) / 2.0
    return np.where(t >= hi, lo, t)


class _StumpFamily:
    """The interface of a stump family (CGEns §IV, §VI-A): searches under one or several weight vectors.

    A subclass binds the training inputs and provides the compiled search
    (:meth:`_search_rows`), :meth:`threshold` and the sorted position of a stump
    (:meth:`_position`, :meth:`_slot`); a search names a stump by its feature and
    sorted position r (it puts the points at sorted positions 0..r of the feature
    below the threshold), r = n_samples - 1 being the constant learner.
    """

    exhaustive = True
    X: np.ndarray
    n_samples: int
    n_features: int
    available: np.ndarray
    n_candidates: int
    #: The chunks of features a search splits into (:func:`mkbench.learners._chunks.split_search`).
    chunks: FeatureChunks = ONE_CHUNK

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
        row, feature, score, sum_squares = self._search(w, w.sum())
        return self._best(row, feature, score, sum_squares)

    def best_each(self, W: np.ndarray) -> list[Best]:
        """:meth:`best` under each column of W, in one pass over the data (:func:`_stump_search_rows`).

        Equal, bit for bit, to ``[self.best(w) for w in W.T]``; for the exact search 2.6x
        faster for the 9 columns of CGEns-SLS on USPS and MNIST (10 classes, eq. 13), up
        to 1.2x slower on small UCI folds, whose searches take well under a millisecond
        (measured in ``benchmarks/stump_rows.py``).

        Parameters
        ----------
        W : ndarray of shape (n_samples, m)
            Signed weights, one column per search.

        Returns
        -------
        list of m Best
        """
        W, totals = self._rows(W)
        rows, features, scores, sum_squares = self._search_rows(W, totals, True)
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
        rows, features, scores, sum_squares = self._search_rows(W, totals, False)
        return int(rows[0]), int(features[0]), scores[0], float(sum_squares.sum())

    def exclude(self, stump: Stump) -> None:
        """Offer ``stump`` and its negation no more (they are in a free-sign master)."""
        if np.isinf(stump.threshold):
            row, feature = self.n_samples - 1, 0
        else:
            feature = stump.feature
            row = self._position(feature, stump.threshold)
        slot = self._slot(row, feature)
        if slot is not None and self._withdraw(slot, feature):
            self.n_candidates -= 1

    def _withdraw(self, slot: int, feature: int) -> bool:
        """Mark the stump at row ``slot`` of ``available`` unavailable; False if it was not available."""
        was, self.available[slot, feature] = bool(self.available[slot, feature]), False
        return was

    def threshold(self, row: int, feature: int) -> float:
        """The threshold of the stump that splits feature ``feature`` after sorted position ``row``."""
        raise NotImplementedError

    def _search(self, w: np.ndarray, total: float) -> tuple[int, int, float, float]:
        """The search under one weight vector: row, feature, signed score, sum of squares (see :meth:`best`)."""
        W = np.ascontiguousarray(w).reshape(-1, 1)
        rows, features, scores, sum_squares = self._search_rows(W, np.array([total]), True)
        return rows[0], features[0], scores[0, 0], sum_squares[0]

    def _search_rows(self, W: np.ndarray, totals: np.ndarray, per_row: bool) -> tuple:
        """The search under the columns of W over every chunk of features: rows, features, scores, sum_squares."""
        search = partial(self._search_features, W, totals, per_row)
        return search_chunks(search, self.n_features, W.shape[1], self.chunks)

    def _search_features(
        self, W: np.ndarray, totals: np.ndarray, per_row: bool, lo: int, hi: int, squares: np.ndarray
    ) -> tuple:
        """The search of features lo..hi - 1, as :func:`_stump_search_rows` (rows, features, scores, edges)."""
        raise NotImplementedError

    def _position(self, feature: int, threshold: float) -> int:
        """The sorted position of the stump (feature, threshold): the number of training values <= it, minus 1."""
        raise NotImplementedError

    def _slot(self, row: int, feature: int) -> int | None:
        """The row of ``available`` that holds the stump at sorted position ``row`` of ``feature``."""
        return row

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
        return Best(stump, abs(float(score)), self._column(stump), self.n_candidates, float(sum_squares))

    def _column(self, stump: Stump) -> np.ndarray:
        """h(x_i) on the training points."""
        return stump(self.X)


class Stumps(_StumpFamily):
    """Every decision stump on the training inputs X, searched exactly in O(n d) per search.

    Stump (j, t) splits feature j between two consecutive distinct sorted values,
    at their midpoint t (:func:`_midpoint`). With the points sorted by feature j and
    L_k the sum of the first k sorted weights, the stump's score is
    sum_i w_i h(x_i) = W - 2 L_k (W = sum_i w_i): one cumulative sum scores all
    thresholds of a feature. Each feature is sorted once, when the family is built.
    :class:`mkbench.learners.BinnedStumps` searches the stumps between at most
    ``max_bins`` bins per feature instead, in O(n) per feature without the sort.

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

    def __init__(self, X: np.ndarray, *, constant: bool = False) -> None:
        X = _points(X)
        n, d = X.shape
        if n < 2:
            raise ValueError(f"stumps need at least 2 training points, got {n}")
        self.X = X
        self.n_samples, self.n_features = n, d
        # column-major (each feature's sorted points contiguous), as the search walks them
        index_type: type[np.signedinteger] = np.int32 if n < 2**31 else np.intp
        order = np.argsort(X, axis=0, kind="stable").astype(index_type)
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
        return float(_midpoint(self.sorted[row, feature], self.sorted[row + 1, feature]))

    def _search(self, w: np.ndarray, total: float) -> tuple[int, int, float, float]:
        rows, features, scores, sum_squares = search_chunks(
            partial(self._one, w, total), self.n_features, 1, self.chunks
        )
        return rows[0], features[0], scores[0, 0], sum_squares[0]

    def _one(self, w: np.ndarray, total: float, lo: int, hi: int, squares: np.ndarray) -> tuple:
        """:func:`_stump_search` of features lo..hi - 1, shaped as :meth:`_search_features` returns it."""
        row, feature, score, edge = _stump_search(self.order, w, self.available, total, lo, hi, squares)
        return [row], [feature], [[score]], [edge]

    def _search_features(
        self, W: np.ndarray, totals: np.ndarray, per_row: bool, lo: int, hi: int, squares: np.ndarray
    ) -> tuple:
        return _stump_search_rows(self.order, W, self.available, totals, per_row, lo, hi, squares)

    def _position(self, feature: int, threshold: float) -> int:
        return int(np.searchsorted(self.sorted[:, feature], threshold, side="right")) - 1
