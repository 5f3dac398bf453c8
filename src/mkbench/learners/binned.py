"""Decision stumps between at most ``max_bins`` bins per feature, searched by histograms (CGEns §IV, §VI-A).

:class:`BinnedStumps` quantises each feature once, when the family is bound to
the training inputs (:mod:`mkbench.learners.binning`); then one search is, per
feature, a histogram of the signed weights over its bins, one pass over its
uint8 bin codes, and a cumulative sum over at most ``max_bins`` bins
(:func:`_binned_search`), the scan that the exact search
(:class:`mkbench.learners.Stumps`) makes over the sorted points
(:func:`mkbench.learners._scan._scan_rows`). It needs no sort, reads each
point's weight in storage order, and skips the points of a feature's heaviest
bin. HistGradientBoosting, LightGBM and XGBoost build the same histograms, of
gradients and hessians, to grow trees by their gain; none offers what column
generation asks of a stump family (the stump with the largest
|sum_i w_i h(x_i)| under signed weights w, the sum of the squares of every score
for the duality gap, the stumps in the master left out; scikit-learn's trees
take weights >= 0 and re-sort at each fit), so the search is written here,
compiled with numba (``nogil=True, cache=True``) as the exact one is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numba
import numpy as np
import scipy.sparse

from .binning import bin_feature, distinct
from ._scan import _rows_start, _scan_rows
from .stumps import _StumpFamily
from .weak import Stump, _points

__all__ = ["BinnedStumps", "check_max_bins", "table_bytes"]

#: A feature whose heaviest bin holds at least this share of the points is stored as the list of its other
#: points (index and bin), and a search skips the heaviest bin's points: it gets the total weight minus the rest.
#: Reading a listed point costs about 1.4x a point of a dense column (measured on MNIST and Gaussian features),
#: so the list wins from about 30 %; it takes at most 3.5 bytes per point then (index and bin) against 1.
SPARSE_SHARE = 0.3


def check_max_bins(max_bins) -> None:
    """Refuse a ``max_bins`` that is not an integer from 2 to 256 (the bins are coded in uint8)."""
    if not (isinstance(max_bins, int | np.integer) and 2 <= max_bins <= 256):
        raise ValueError(f"max_bins must be an integer from 2 to 256 (bins coded in uint8), got {max_bins!r}")


def table_bytes(n_features: int, max_bins: int) -> int:
    """Bytes of the per-bin tables of :class:`BinnedStumps` (``thresholds``, ``positions``, ``available``).

    Each is ``max_bins`` x ``n_features``: 8 + 8 + 1 bytes per entry, whatever the data,
    so they outgrow a sparse X of many features (867 MB at 200 000 features and 255 bins).
    """
    return 17 * max_bins * n_features


#: Partial histograms a search fills in turn, point after point, then sums (a power of 2): consecutive points in
#: one bin (the zeros of a pixel) would otherwise wait each for the previous one's sum to be stored (3.6x faster
#: on MNIST's densely stored pixels, one weight vector).
_COPIES = 4


@numba.njit(cache=True, nogil=True)
def _fill(copies: np.ndarray, W: np.ndarray, points: np.ndarray, bins: np.ndarray) -> None:
    """Add row ``points[e]`` of W to bin ``bins[e]`` of partial histogram e mod ``_COPIES``, for every e."""
    m = W.shape[1]
    for e in range(points.shape[0]):
        i, b, k = points[e], bins[e], e & (_COPIES - 1)
        if m == 1:  # one weight vector: no loop
            copies[k, b, 0] += W[i, 0]
        else:
            for q in range(m):
                copies[k, b, q] += W[i, q]


@numba.njit(cache=True, nogil=True)
def _binned_search(
    W: np.ndarray,
    totals: np.ndarray,
    per_row: bool,
    codes: np.ndarray,
    column: np.ndarray,
    start: np.ndarray,
    indices: np.ndarray,
    bins: np.ndarray,
    heaviest: np.ndarray,
    n_bins: np.ndarray,
    available: np.ndarray,
    positions: np.ndarray,
    lo: int,
    hi: int,
    squares: np.ndarray,
) -> tuple:
    """The binned stump search of features lo..hi - 1 under m weight vectors: per feature, a histogram, then its scan.

    A feature j stored densely (``column[j] >= 0``) adds each point's row of W to
    the histogram row of its code, ``codes[:, column[j]]``; one stored sparsely adds
    only its points outside its heaviest bin (``indices``, ``bins`` between
    ``start[j]`` and ``start[j + 1]``) and gives that bin the column sums of W minus
    theirs. The scan of the bins in order (:func:`mkbench.learners._scan._scan_rows`)
    scores and selects the stumps between them as the exact search does, under the
    sorted position of each bin's last point, so that ties break alike.

    Parameters
    ----------
    W : ndarray of shape (n, m), C-contiguous
        Signed weights, one column per row of scores.
    totals : ndarray of shape (m,)
        Column sums of W.
    per_row : bool
        Select per row, or by the summed edge (see :func:`mkbench.learners.stumps._stump_search_rows`).
    codes : ndarray of shape (n, n_dense), uint8, Fortran order
        Bin of each point on each densely stored feature.
    column : ndarray of shape (d,)
        Column of ``codes`` of each feature; -1 for one stored sparsely.
    start : ndarray of shape (d + 1,)
        Feature j's points outside its heaviest bin are ``indices[start[j]:start[j + 1]]``.
    indices : ndarray of shape (nnz,), int32
    bins : ndarray of shape (nnz,), uint8
        Their bins.
    heaviest : ndarray of shape (d,)
        The bin skipped by a feature stored sparsely.
    n_bins : ndarray of shape (d,)
        Bins of each feature; the stump after the last one is the constant learner.
    available : ndarray of shape (max_bins, d), bool
        Which stumps (after bin b of feature j) are candidates.
    positions : ndarray of shape (max_bins, d), int64
        Sorted position of the last training point of bin b of feature j.
    lo, hi, squares
        The features searched, and the sums of squares out, as :func:`mkbench.learners.stumps._stump_search_rows`.

    Returns
    -------
    rows, features, scores, edges
        As :func:`mkbench.learners.stumps._stump_search_rows`, rows being sorted positions.
    """
    n, m = W.shape
    rows, features, scores, edges = _rows_start(m, per_row, totals)
    copies = np.empty((_COPIES, available.shape[0], m))
    histogram = np.empty((available.shape[0], m))
    order = np.arange(available.shape[0])
    points = np.arange(n).astype(np.int32)  # as indices
    L, rest = np.empty(m), np.empty(m)
    for j in range(lo, hi):
        k, c = n_bins[j], column[j]
        copies[:, :k] = 0.0
        dense = c >= 0
        if dense:
            _fill(copies, W, points, codes[:, c])
        else:
            _fill(copies, W, indices[start[j] : start[j + 1]], bins[start[j] : start[j + 1]])
        rest[:] = 0.0
        for b in range(k):
            for q in range(m):
                total = copies[0, b, q]
                for copy in range(1, _COPIES):
                    total += copies[copy, b, q]
                histogram[b, q] = total
                rest[q] += total
        if not dense:  # the heaviest bin, empty so far: the total minus the others
            for q in range(m):
                histogram[heaviest[j], q] = totals[q] - rest[q]
        _scan_rows(
            histogram,
            order[:k],
            available[:, j],
            positions[:, j],
            j,
            totals,
            per_row,
            L,
            rows,
            features,
            scores,
            squares[j],
            edges,
        )
    return rows, features, scores, edges


def _dense_features(X: np.ndarray, max_bins: int) -> Iterator[tuple]:
    """Per feature of X: its thresholds, the points in each bin, and its points as a search reads them.

    The last three: the heaviest bin, the points outside it and their bins, when it
    holds at least ``SPARSE_SHARE`` of the points; else -1, None and every point's bin.
    """
    X = np.asfortranarray(X)  # each feature contiguous
    ordered = np.sort(X, axis=0)
    for j in range(X.shape[1]):
        thresholds, bin_counts = bin_feature(*distinct(ordered[:, j]), max_bins)
        codes = np.searchsorted(thresholds, X[:, j]).astype(np.uint8)
        heaviest = int(np.argmax(bin_counts))
        if bin_counts[heaviest] < SPARSE_SHARE * X.shape[0]:
            yield thresholds, bin_counts, -1, None, codes
        else:
            index = np.flatnonzero(codes != heaviest)
            yield thresholds, bin_counts, heaviest, index, codes[index]


def _sparse_features(X: scipy.sparse.csc_array, max_bins: int) -> Iterator[tuple]:
    """:func:`_dense_features` of a sparse X, read from its stored entries; the zeros' bin is the one skipped."""
    X.sum_duplicates()  # one entry per point, in order
    n = X.shape[0]
    for j in range(X.shape[1]):
        entries = slice(X.indptr[j], X.indptr[j + 1])
        data, index = X.data[entries], X.indices[entries]
        zeros = n - data.size  # not stored: counted once as a value 0, then added
        values, counts = np.unique(np.r_[data, np.zeros(min(zeros, 1))], return_counts=True)
        counts[values == 0] += max(zeros - 1, 0)
        thresholds, bin_counts = bin_feature(values, counts, max_bins)
        heaviest = int(np.searchsorted(thresholds, 0.0))
        codes = np.searchsorted(thresholds, data).astype(np.uint8)
        keep = codes != heaviest
        yield thresholds, bin_counts, heaviest, index[keep], codes[keep]


class BinnedStumps(_StumpFamily):
    """The decision stumps between at most ``max_bins`` bins of each feature, searched in O(n) per feature.

    A drop-in for :class:`mkbench.learners.Stumps` (same searches, outcomes and
    exclusion): on a feature with at most ``max_bins`` distinct training values the
    bins are the values, and both families offer the same stumps, with the same
    thresholds, scores and ties (up to the rounding of the sums); on one with more,
    the stumps offered are the exact family's stumps at the bin edges
    (:mod:`mkbench.learners.binning`). A search builds a histogram of the weights
    over each feature's bins (:func:`_binned_search`); a feature whose heaviest bin
    holds at least ``SPARSE_SHARE`` (30 %) of the points (the zeros of a pixel, of
    a sparse matrix) is stored as its other points, and a search reads those only.
    On MNIST (n = 10^4, 784 pixels, 81 % zeros) binding takes about half the exact
    family's sort (0.3 s against 0.6), and a search a third of its time, under one
    weight vector (2.9 ms against 8.7) as under ten (11-13 ms against 32-35;
    CPU-time medians, ``benchmarks/stump_binning.py``).

    Parameters
    ----------
    X : array-like or scipy sparse matrix of shape (n_samples, n_features)
        Training inputs. Of a sparse matrix, the stored entries are read (its zeros
        are not), and the zeros' bin is the one a search skips.
    max_bins : int, default=255
        At most this many bins per feature (2 to 256), as HistGradientBoosting's and
        LightGBM's ``max_bins`` (255 by default there too).
    constant : bool, default=False
        Also offer the constant learner (see :class:`mkbench.learners.Stumps`).

    Attributes
    ----------
    n_candidates : int
        Stumps up to negation (per feature, the number of bins minus one), plus one
        if ``constant``.
    n_bins : ndarray of shape (n_features,)
        Bins of each feature.
    thresholds : ndarray of shape (max_bins, n_features)
        ``thresholds[b, j]``: the threshold after bin b of feature j (+inf after its last).
    """

    X: Any  # an ndarray, or a scipy.sparse CSC array for sparse input (scipy has no type information)

    def __init__(self, X, *, max_bins: int = 255, constant: bool = False) -> None:
        check_max_bins(max_bins)
        sparse = scipy.sparse.issparse(X)
        X = scipy.sparse.csc_array(X, dtype=np.float64, copy=True) if sparse else _points(X)
        n, d = X.shape
        if n < 2:
            raise ValueError(f"stumps need at least 2 training points, got {n}")
        self.X, self.n_samples, self.n_features, self.max_bins = X, n, d, max_bins
        self.n_bins = np.zeros(d, dtype=np.int64)
        self.thresholds = np.full((max_bins, d), np.inf, order="F")
        self.positions = np.full((max_bins, d), n - 1, dtype=np.int64, order="F")
        self.heaviest = np.zeros(d, dtype=np.int64)
        self.column = np.full(d, -1, dtype=np.int64)
        dense: list[np.ndarray] = []
        points, bins = [], []
        for j, (thresholds, bin_counts, heaviest, index, codes) in enumerate(
            _sparse_features(X, max_bins) if sparse else _dense_features(X, max_bins)
        ):
            k = self.n_bins[j] = bin_counts.size
            self.thresholds[: k - 1, j] = thresholds
            self.positions[:k, j] = np.cumsum(bin_counts) - 1
            if index is None:
                self.column[j] = len(dense)
                dense.append(codes)
            else:
                self.heaviest[j] = heaviest
                points.append(index)
                bins.append(codes)
        self.codes = np.zeros((n, len(dense)), dtype=np.uint8, order="F")
        for c, codes in enumerate(dense):
            self.codes[:, c] = codes
        self.start = np.zeros(d + 1, dtype=np.int64)
        self.start[1:][self.column < 0] = [index.size for index in points]
        self.start = np.cumsum(self.start)
        self.indices = np.concatenate([np.zeros(0, dtype=np.int32), *points]).astype(np.int32)
        self.bins = np.concatenate([np.zeros(0, dtype=np.uint8), *bins]).astype(np.uint8)
        # the stump after bin b < n_bins - 1 splits bins b | b + 1; after the last bin, the constant learner
        self.available = np.asfortranarray(np.arange(max_bins)[:, None] < self.n_bins[None, :] - 1)
        self.available[self.n_bins[0] - 1, 0] = constant
        self.n_candidates = int(self.available.sum())

    def threshold(self, row: int, feature: int) -> float:
        """The threshold of the stump that puts the points at sorted positions 0..row of ``feature`` below it."""
        slot = self._slot(row, feature)
        if slot is None:
            raise ValueError(f"no bin of feature {feature} ends at sorted position {row}")
        return float(self.thresholds[slot, feature])

    def _search_features(
        self, W: np.ndarray, totals: np.ndarray, per_row: bool, lo: int, hi: int, squares: np.ndarray
    ) -> tuple:
        return _binned_search(
            W,
            totals,
            per_row,
            self.codes,
            self.column,
            self.start,
            self.indices,
            self.bins,
            self.heaviest,
            self.n_bins,
            self.available,
            self.positions,
            lo,
            hi,
            squares,
        )

    def _position(self, feature: int, threshold: float) -> int:
        if scipy.sparse.issparse(self.X):
            entries = self.X.data[self.X.indptr[feature] : self.X.indptr[feature + 1]]
            below = int((entries <= threshold).sum()) + (self.n_samples - entries.size) * (threshold >= 0)
        else:
            below = int((self.X[:, feature] <= threshold).sum())
        return below - 1

    def _slot(self, row: int, feature: int) -> int | None:
        """The bin whose last point is at sorted position ``row``; None if no bin of ``feature`` ends there."""
        b = int(np.searchsorted(self.positions[: self.n_bins[feature], feature], row))
        return b if b < self.n_bins[feature] and self.positions[b, feature] == row else None

    def _column(self, stump: Stump) -> np.ndarray:
        if scipy.sparse.issparse(self.X):
            x = self.X[:, [stump.feature]].toarray()
            return Stump(0, stump.threshold, stump.sign)(x)
        return stump(self.X)
