"""A stump search split over contiguous chunks of the features, run in threads (``n_jobs``, issue 44).

Every stump search (exact :class:`mkbench.learners.Stumps`, sparse
:class:`mkbench.learners.SparseStumps`, binned :class:`mkbench.learners.BinnedStumps`)
scans the features in order and keeps, per weight vector, the stump with the largest
edge, ties to the lowest sorted position, then to the feature scanned first. The
features are independent, so the scan splits into chunks of consecutive features
whose searches run at once: the compiled scans release the GIL (numba ``nogil=True``),
so plain threads run them on as many cores, sharing the family's arrays without
copies. :func:`search_chunks` then keeps, from the chunks' winners in feature order,
the one the single scan would have kept (same rule: a larger edge, or an equal edge at
a lower position, replaces; an equal one at the same position keeps the earlier
feature), and sums the squared scores feature by feature in feature order, whatever the
chunks: the outcome is the one-thread search's, bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np
from joblib import effective_n_jobs

__all__ = ["FeatureChunks", "search_chunks", "split_search"]

#: A chunk's search: (lo, hi, squares) -> rows, features, scores, edges of its features lo..hi - 1 (as
#: :func:`mkbench.learners.stumps._stump_search_rows` returns them, with the best edges), the sum of the squared
#: scores of each feature j into ``squares[j]``.
ChunkSearch = Callable[[int, int, np.ndarray], tuple]


class FeatureChunks:
    """The features split into ``n_chunks`` contiguous chunks, searched in as many threads (one: no thread).

    Parameters
    ----------
    n_chunks : int
        >= 1; more chunks than features leaves some empty.
    """

    def __init__(self, n_chunks: int) -> None:
        self.n_chunks = n_chunks
        self.pool = ThreadPoolExecutor(n_chunks, thread_name_prefix="stump-search") if n_chunks > 1 else None

    def bounds(self, n_features: int) -> list[tuple[int, int]]:
        """The chunks' feature ranges [lo, hi), in order, of sizes differing by at most one."""
        edges = [c * n_features // self.n_chunks for c in range(self.n_chunks + 1)]
        return list(zip(edges[:-1], edges[1:], strict=True))

    def close(self) -> None:
        """End the threads."""
        if self.pool is not None:
            self.pool.shutdown()


#: The one-thread search, every family's until :func:`split_search` gives it threads.
ONE_CHUNK = FeatureChunks(1)


def search_chunks(search: ChunkSearch, n_features: int, m: int, chunks: FeatureChunks) -> tuple:
    """The search of all features under m weight vectors, chunk by chunk, as one scan in feature order returns it.

    Parameters
    ----------
    search : callable
        ``search(lo, hi, squares)``: the search over features lo..hi - 1 (see ``ChunkSearch``).
    n_features : int
    m : int
        Weight vectors (columns of W).
    chunks : FeatureChunks

    Returns
    -------
    rows, features, scores, sum_squares
        As :func:`mkbench.learners.stumps._stump_search_rows`.
    """
    squares = np.zeros((n_features, m))
    if chunks.pool is None:
        found = [search(0, n_features, squares)]
    else:
        found = list(chunks.pool.map(lambda bound: search(bound[0], bound[1], squares), chunks.bounds(n_features)))
    rows, features, scores, edges = (np.array(part) for part in found[0])
    for chunk_rows, chunk_features, chunk_scores, chunk_edges in found[1:]:
        for q in range(rows.shape[0]):
            edge, row = chunk_edges[q], chunk_rows[q]
            if edge > edges[q] or (edge == edges[q] and row < rows[q]):
                edges[q], rows[q], features[q], scores[q] = edge, row, chunk_features[q], chunk_scores[q]
    # a sequential sum over the features (cumsum's), the same for every chunking and every m
    return rows, features, scores, np.cumsum(squares, axis=0)[-1] if n_features else np.zeros(m)


@contextmanager
def split_search(family, n_jobs: int | None) -> Iterator[None]:
    """Within the block, ``family``'s searches split its features over ``n_jobs`` threads (a stump family's).

    ``n_jobs`` in scikit-learn's convention (:func:`joblib.effective_n_jobs`: None is 1
    unless in a ``joblib.parallel_config`` context, -1 all processors). A family that is
    not a stump family (no ``chunks``: the sampled learners) searches as it does.
    """
    n = effective_n_jobs(n_jobs)
    if n == 1 or not hasattr(family, "chunks"):
        yield
        return
    family.chunks = FeatureChunks(n)
    try:
        yield
    finally:
        family.chunks.close()
        family.chunks = ONE_CHUNK
