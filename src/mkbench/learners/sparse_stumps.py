"""Every decision stump on a scipy sparse X, searched exactly without densifying X (CGEns §IV, §VI-A).

:class:`SparseStumps` is :class:`mkbench.learners.Stumps` for a sparse X: the same
family, searches, outcomes and exclusion, bit for bit, in O(nnz) memory. Where
the dense family keeps each feature's sorting permutation and sorted values
(two n x d arrays), this one keeps each feature's stored entries sorted by value
(O(nnz), sorted once when the family is bound) and rebuilds one feature's
sorted order at a time during a search, in one buffer of n points: its negative
entries, its zeros in the order of their points (where the dense family's stable
sort puts them), its positive entries. The scan of those points is the dense
search's (:func:`mkbench.learners._scan._scan_rows`), in the same order, so that
every running sum, score, sum of squares and tie is the dense family's.
"""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse

from ._scan import _rows_start, _scan_rows
from .stumps import _midpoint, _StumpFamily
from .weak import _points

__all__ = ["SparseStumps"]


@numba.njit(cache=True, nogil=True)
def _sorted_feature(
    values: np.ndarray,
    indices: np.ndarray,
    start: int,
    stop: int,
    stored: np.ndarray,
    index: np.ndarray,
    ordered: np.ndarray,
) -> None:
    """One feature's points in the order of the dense family's stable sort, into ``index``, their values into ``ordered``.

    ``values[start:stop]`` are the feature's nonzero entries sorted by value (ties by
    point), ``indices[start:stop]`` their points; ``stored`` is all False on entry and exit.
    """
    n = index.shape[0]
    ordered[:] = 0.0
    for k in range(start, stop):
        stored[indices[k]] = True
    r, k = 0, start
    while k < stop and values[k] < 0.0:
        index[r], ordered[r] = indices[k], values[k]
        r, k = r + 1, k + 1
    for i in range(n):
        if not stored[i]:
            index[r] = i
            r += 1
    while k < stop:
        index[r], ordered[r] = indices[k], values[k]
        r, k = r + 1, k + 1
    for k in range(start, stop):
        stored[indices[k]] = False


@numba.njit(cache=True, nogil=True)
def _sparse_search_rows(
    n: int,
    indptr: np.ndarray,
    values: np.ndarray,
    indices: np.ndarray,
    excluded_start: np.ndarray,
    excluded_rows: np.ndarray,
    constant: bool,
    W: np.ndarray,
    totals: np.ndarray,
    per_row: bool,
    lo: int,
    hi: int,
    squares: np.ndarray,
) -> tuple:
    """:func:`mkbench.learners.stumps._stump_search_rows` on the sorted entries of a sparse X, one feature at a time.

    Feature j's stump after sorted position r is available where the sorted values
    at r and r + 1 differ, unless ``excluded_rows[excluded_start[j]:excluded_start[j + 1]]``
    holds r; position n - 1 of feature 0 is the constant learner when ``constant``.
    """
    m = W.shape[1]
    rows, features, scores, edges = _rows_start(m, per_row, totals)
    L = np.empty(m)
    index = np.empty(n, dtype=np.int32)
    stored = np.zeros(n, dtype=np.bool_)
    available = np.empty(n, dtype=np.bool_)
    ordered = np.empty(n)
    for j in range(lo, hi):
        _sorted_feature(values, indices, indptr[j], indptr[j + 1], stored, index, ordered)
        for r in range(n - 1):
            available[r] = ordered[r + 1] > ordered[r]
        available[n - 1] = constant and j == 0
        for e in range(excluded_start[j], excluded_start[j + 1]):
            available[excluded_rows[e]] = False
        _scan_rows(W, index, available, None, j, totals, per_row, L, rows, features, scores, squares[j], edges)
    return rows, features, scores, edges


class SparseStumps(_StumpFamily):
    """Every decision stump on a scipy sparse X, searched exactly: :class:`mkbench.learners.Stumps` of X densified.

    The same stumps, thresholds, scores, sums of squares and ties as ``Stumps(X.toarray())``,
    bit for bit, without an n x d array: the family holds X's nonzero entries sorted
    per feature, and a search rebuilds one feature's sorted order at a time
    (:func:`_sparse_search_rows`), O(n d) time per search as the dense search, O(nnz + n)
    memory. ``make_family("stump", X)`` binds it for a sparse X.

    Parameters
    ----------
    X : sparse matrix of shape (n_samples, n_features)
        Training inputs, any scipy sparse format (copied to CSC; stored zeros and
        duplicate entries are resolved as X densified reads them).
    constant : bool, default=False
        Also offer the constant learner (see :class:`mkbench.learners.Stumps`).

    Attributes
    ----------
    n_candidates : int
        Distinct stumps up to negation on X (per feature, the number of distinct
        values, 0 included where the feature has a zero, minus one), plus one if ``constant``.
    """

    def __init__(self, X, *, constant: bool = False) -> None:
        X = scipy.sparse.csc_array(_points(X), dtype=np.float64, copy=True)
        X.sum_duplicates()
        X.eliminate_zeros()  # a stored 0 (or -0.0) is a zero as X.toarray() reads it
        n, d = X.shape
        if n < 2:
            raise ValueError(f"stumps need at least 2 training points, got {n}")
        self.X, self.n_samples, self.n_features, self.constant = X, n, d, constant
        self.indptr = X.indptr.astype(np.int64)
        column = np.repeat(np.arange(d), np.diff(self.indptr))
        order = np.lexsort((X.data, column))  # by feature, then value; stable: ties by point, as the dense sort
        self.values, self.indices = X.data[order], X.indices[order].astype(np.int32)
        self.excluded: dict[int, set[int]] = {}
        changes = np.r_[True, self.values[1:] != self.values[:-1]]  # a new nonzero value of its feature
        changes[self.indptr[:-1][np.diff(self.indptr) > 0]] = True
        n_values = int(changes.sum()) + int((np.diff(self.indptr) < n).sum())  # the zeros: one value more
        self.n_candidates = n_values - d + int(constant)

    def _entries(self, feature: int) -> np.ndarray:
        """The nonzero values of ``feature``, sorted."""
        return self.values[self.indptr[feature] : self.indptr[feature + 1]]

    def _value(self, feature: int, row: int) -> float:
        """The value at sorted position ``row`` of ``feature``."""
        entries = self._entries(feature)
        negative = int(np.searchsorted(entries, 0.0))
        zeros = self.n_samples - entries.size
        if row < negative:
            return float(entries[row])
        return 0.0 if row < negative + zeros else float(entries[row - zeros])

    def threshold(self, row: int, feature: int) -> float:
        """The threshold of stump (row, feature): the midpoint of the sorted values row, row + 1."""
        if row == self.n_samples - 1:
            return float("inf")
        return float(_midpoint(self._value(feature, row), self._value(feature, row + 1)))

    def _search_features(
        self, W: np.ndarray, totals: np.ndarray, per_row: bool, lo: int, hi: int, squares: np.ndarray
    ) -> tuple:
        features = sorted(self.excluded)
        excluded_start = np.zeros(self.n_features + 1, dtype=np.int64)
        excluded_start[1:][features] = [len(self.excluded[j]) for j in features]
        excluded_rows = np.array([r for j in features for r in sorted(self.excluded[j])], dtype=np.int64)
        return _sparse_search_rows(
            self.n_samples,
            self.indptr,
            self.values,
            self.indices,
            np.cumsum(excluded_start),
            excluded_rows,
            self.constant,
            W,
            totals,
            per_row,
            lo,
            hi,
            squares,
        )

    def _position(self, feature: int, threshold: float) -> int:
        entries = self._entries(feature)
        below = int(np.searchsorted(entries, threshold, side="right"))
        return below + (self.n_samples - entries.size) * (threshold >= 0) - 1

    def _withdraw(self, slot: int, feature: int) -> bool:
        if slot == self.n_samples - 1:
            offered = self.constant and feature == 0
        else:
            offered = self._value(feature, slot + 1) > self._value(feature, slot)
        if not offered or slot in self.excluded.get(feature, ()):
            return False
        self.excluded.setdefault(feature, set()).add(slot)
        return True
