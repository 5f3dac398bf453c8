"""The scan of one feature's stumps that every stump search shares (CGEns §IV, §VI-A).

The exact search (:mod:`mkbench.learners.stumps`) steps through a feature's sorted
points, the sparse one (:mod:`mkbench.learners.sparse_stumps`) through the same points
rebuilt from the stored entries, the binned one (:mod:`mkbench.learners.binned`)
through the bins of a histogram; :func:`_scan_rows` scores and selects the stumps of
one feature for all three, so that their sums and ties agree, and :func:`_rows_start`
is the state of a search before its first feature.
"""

from __future__ import annotations

import numba
import numpy as np

__all__: list[str] = []


@numba.njit(cache=True, nogil=True)
def _scan_rows(
    W: np.ndarray,
    index: np.ndarray,
    available: np.ndarray,
    positions: np.ndarray | None,
    j: int,
    totals: np.ndarray,
    per_row: bool,
    L: np.ndarray,
    best_row: np.ndarray,
    best_feature: np.ndarray,
    best_scores: np.ndarray,
    sum_squares: np.ndarray,
    best_edge: np.ndarray,
) -> None:
    """Offer the stumps of feature j, in order, to a search under m weight vectors; the state is updated in place.

    The scan that the exact search (:func:`_stump_search_rows`) and the binned one
    (:mod:`mkbench.learners.binned`) share. Step r adds the row ``W[index[r]]`` to
    the m running sums L; if ``available[r]``, the stump that splits there is
    scored W_l - 2 L_l (``totals`` W_l), its squares are added to
    ``sum_squares`` (feature j's row of the sums), and it is kept under the rule of :func:`_stump_search_rows`
    with ``positions[r]`` as its sorted position (the largest |score| per row, or
    the largest sum_l |score_l|; ties to the lowest position, then to the feature
    offered first). The exact search steps through the sorted points (``index`` a
    feature's sorting permutation; ``positions`` None: step r is position r); the
    binned one through the bins of a histogram (W the per-bin sums, ``positions``
    the sorted position of each bin's last point).
    """
    m = totals.shape[0]
    L[:] = 0.0
    for r in range(index.shape[0]):
        i = index[r]
        for q in range(m):
            L[q] += W[i, q]
        if not available[r]:
            continue
        position = r if positions is None else positions[r]
        edge = 0.0
        for q in range(m):
            score = totals[q] - 2.0 * L[q]
            sum_squares[q] += score * score
            if per_row:
                if abs(score) > best_edge[q] or (abs(score) == best_edge[q] and position < best_row[q]):
                    best_edge[q], best_row[q], best_feature[q] = abs(score), position, j
                    best_scores[q, q] = score
            else:
                edge += abs(score)
        if not per_row and (edge > best_edge[0] or (edge == best_edge[0] and position < best_row[0])):
            best_edge[0], best_row[0], best_feature[0] = edge, position, j
            for q in range(m):
                best_scores[0, q] = totals[q] - 2.0 * L[q]


@numba.njit(cache=True, nogil=True)
def _rows_start(m: int, per_row: bool, totals: np.ndarray) -> tuple:
    """The state of a search under m weight vectors before any stump: best rows, features, scores, edges.

    See :func:`_stump_search_rows`; the rows are -1 (none found yet).
    """
    k = m if per_row else 1
    best_scores = np.empty((k, m))
    for q in range(k):
        best_scores[q] = totals
    return np.full(k, -1), np.full(k, -1), best_scores, np.full(k, -1.0)
