"""The matrix of candidate kernel columns, served without ever holding all of it.

A kernel library S = {K_1, ..., K_P} defines the candidate columns of CG-Boost:
the Gram blocks laid side by side, K = [K^1 K^2 ... K^P] (cgboost §3; SSMK eq. 1),
column (p, j) being K_p(., x_j). :class:`KernelColumns` serves those columns and
their pricing products K^p' w without ever needing all of K in memory.

The kernel values do not depend on the labels: the one-vs-rest fits of a multi-class
problem read one store of them through views (:meth:`KernelColumns.with_signs`), each
with its own label signs on top, from several threads if need be (the store is filled
under locks).
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from threading import Lock

import numpy as np

from .functions import Kernel, _as_points
from .library import make_library

__all__ = ["KernelColumns"]


class KernelColumns:
    """The candidate columns K = [K^1 ... K^P] of CG-Boost over fixed rows and centres.

    Column (p, j) is K_p(X, z_j): kernel p of the library evaluated between the
    rows X (the data points of the master's constraints) and centre z_j. For
    CG-Boost the centres are the rows (cgboost §3); for SSMK the rows are the
    labelled points and the centres the labelled and unlabelled points (SSMK eq. 1, 5).

    Memory: if all P Gram blocks fit in ``memory_budget`` bytes, a kernel's block
    is computed on its first use and kept; otherwise pricing runs over blocks of
    centres of at most ``memory_budget`` bytes and single columns are served from
    an LRU cache of at most ``cache_bytes`` bytes. Blocks are computed as
    K_p(Z_block, X), whose rows are the columns of K, so a pricing product is one
    GEMV (GEMM for several weight vectors) on a contiguous block.

    Sharing: :meth:`with_signs` gives a view of the same kernel values (kept Gram
    blocks, cached columns) with signs t_j on top, e.g. each one-vs-rest class's labels.
    A kept Gram block is computed once for all views, under a lock per kernel, so views
    may be read from several threads; the column cache is updated under a lock too
    (two threads missing the same column at once may both compute it).

    Parameters
    ----------
    X : array-like of shape (n_rows, n_features)
        Points indexing the rows of every column.
    kernels : sequence of Kernel or kernel specs
        The library; specs go through :func:`~mkbench.kernels.library.make_library`.
        Data-dependent defaults (RBF sigma) are resolved on the centres.
    centres : array-like of shape (n_centres, n_features), default=None
        Points indexing the columns of each kernel; None means X.
    memory_budget : int, default=512 MiB
        Bytes allowed for kept Gram blocks, or for one pricing block when they do not fit.
    cache_bytes : int, default=64 MiB
        Bytes allowed for cached single columns (used when Gram blocks are not kept).
    dtype : {numpy.float64, numpy.float32}, default=numpy.float64
        Precision of the kernel values.
    signs : array-like of shape (n_centres,), default=None
        A sign s_j per centre: column (p, j) is then s_j K_p(X, z_j). With
        s_j = y_j these are the label-signed columns of an SVM-style expansion
        f(x) = sum_j alpha_j y_j K(x, x_j). None: every s_j = 1.

    Attributes
    ----------
    kernels : tuple of Kernel
        The resolved library.
    n_computed : int
        Kernel columns evaluated so far by this object (each costs n_rows kernel values);
        values it found computed by another view of its store are not counted.
    n_computed_total : int
        Kernel columns evaluated by this object and every view of its store.
    n_priced : int
        Columns whose pricing score was evaluated so far: the "kernel columns
        calculated per iteration" statistic of cgboost §5 is its increment per iteration.
    """

    def __init__(
        self,
        X: np.ndarray,
        kernels: Sequence[str | Mapping | Kernel],
        *,
        centres: np.ndarray | None = None,
        memory_budget: int = 512 * 2**20,
        cache_bytes: int = 64 * 2**20,
        dtype: type = np.float64,
        signs: np.ndarray | None = None,
    ) -> None:
        self.X: np.ndarray = np.ascontiguousarray(_as_points(X), dtype=dtype)
        self.centres = self.X if centres is None else np.ascontiguousarray(_as_points(centres), dtype=dtype)
        if self.centres.shape[1] != self.X.shape[1]:
            raise ValueError(f"centres have {self.centres.shape[1]} features but X has {self.X.shape[1]}")
        self.kernels = tuple(k.resolve(self.centres) for k in make_library(kernels))
        self.signs: np.ndarray | None = None if signs is None else np.asarray(signs, dtype=dtype).reshape(-1)
        if self.signs is not None and self.signs.shape[0] != self.centres.shape[0]:
            raise ValueError(
                f"signs has {self.signs.shape[0]} entries, one per centre is needed ({self.centres.shape[0]})"
            )
        if not self.kernels:
            raise ValueError("the kernel library is empty")
        self.n_computed = 0
        self.n_priced = 0
        column_bytes = self.X.shape[0] * self.X.itemsize
        self._keep_grams = len(self.kernels) * len(self.centres) * column_bytes <= memory_budget
        self._block_size = max(1, memory_budget // column_bytes)
        self._store = _Store(len(self.kernels), cache_bytes)
        self._on_top: np.ndarray | None = None

    def with_signs(self, signs: np.ndarray | None = None) -> KernelColumns:
        """A view of the same kernel values whose column (p, j) is t_j times this one's.

        The view shares this object's store (kept Gram blocks, cached columns): what
        either computes, the other reads. With t_j = +-1 the view's columns are exactly
        what a :class:`KernelColumns` built with signs t_j s_j would serve.

        Parameters
        ----------
        signs : array-like of shape (n_centres,), default=None
            t_j per centre; None: every t_j = 1 (a view with counters of its own).

        Returns
        -------
        KernelColumns
            Its counters ``n_computed`` and ``n_priced`` start at 0.
        """
        view = copy.copy(self)
        view.n_computed = view.n_priced = 0
        if signs is not None:
            signs = np.asarray(signs, dtype=self.X.dtype).reshape(-1)
            if signs.shape[0] != self.n_centres:
                raise ValueError(f"signs has {signs.shape[0]} entries, one per centre is needed ({self.n_centres})")
            view._on_top = signs if self._on_top is None else self._on_top * signs
        return view

    @property
    def n_computed_total(self) -> int:
        return self._store.n_computed

    @property
    def factors(self) -> np.ndarray | None:
        """s_j t_j per centre: column (p, j) is s_j t_j K_p(X, z_j) (``signs``, then :meth:`with_signs`'); None: 1."""
        if self._on_top is None or self.signs is None:
            return self.signs if self._on_top is None else self._on_top
        return self.signs * self._on_top

    @property
    def n_rows(self) -> int:
        return self.X.shape[0]

    @property
    def n_centres(self) -> int:
        return self.centres.shape[0]

    @property
    def n_kernels(self) -> int:
        return len(self.kernels)

    @property
    def shape(self) -> tuple[int, int]:
        """(n_rows, n_kernels * n_centres), the shape of K."""
        return self.n_rows, self.n_kernels * self.n_centres

    def _check_kernel(self, p: int) -> int:
        if not 0 <= p < self.n_kernels:
            raise IndexError(f"kernel index {p} out of range for a library of {self.n_kernels} kernels")
        return int(p)

    def _check_centres(self, centres: Sequence[int] | np.ndarray | None) -> np.ndarray:
        if centres is None:
            return np.arange(self.n_centres)
        idx = np.asarray(centres, dtype=np.intp).reshape(-1)
        if idx.size and not (0 <= idx.min() and idx.max() < self.n_centres):
            raise IndexError(f"centre indices must lie in [0, {self.n_centres}), got min {idx.min()}, max {idx.max()}")
        return idx

    def _compute(self, p: int, centres: np.ndarray) -> np.ndarray:
        """Columns (p, centres) of the store (signs s_j, not t_j) as the rows of a (len(centres), n_rows) block."""
        self.n_computed += len(centres)
        with self._store.lock:
            self._store.n_computed += len(centres)
        block = self.kernels[p](self.centres[centres], self.X)
        return block if self.signs is None else block * self.signs[centres, None]

    def _gram(self, p: int) -> np.ndarray:
        """Kernel p's kept block, computed on its first use by whichever view (thread) asks first."""
        gram = self._store.grams.get(p)
        if gram is None:
            with self._store.gram_locks[p]:
                gram = self._store.grams.get(p)
                if gram is None:
                    gram = self._store.grams[p] = self._compute(p, np.arange(self.n_centres))
        return gram

    def _signed(self, values: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """``values`` (centres along the first axis) times this view's t_j."""
        if self._on_top is None:
            return values
        return values * self._on_top[centres].reshape((-1,) + (1,) * (values.ndim - 1))

    def block(self, p: int, centres: Sequence[int] | np.ndarray) -> np.ndarray:
        """Columns K_p(X, z_j) for j in ``centres``.

        Parameters
        ----------
        p : int
            Kernel index.
        centres : sequence of int
            Centre indices j.

        Returns
        -------
        ndarray of shape (n_rows, len(centres))
        """
        p, centres = self._check_kernel(p), self._check_centres(centres)
        if self._keep_grams:
            return self._signed(self._gram(p)[centres], centres).T
        found = self._store.cached(p, centres)
        missing = [j for j in dict.fromkeys(centres.tolist()) if j not in found]
        if missing:
            block = self._compute(p, np.asarray(missing))
            computed = {j: column.copy() for j, column in zip(missing, block, strict=True)}
            self._store.remember(p, computed)
            found.update(computed)
        return self._signed(np.stack([found[j] for j in centres.tolist()], axis=1).T, centres).T

    def column(self, p: int, j: int) -> np.ndarray:
        """Column K_p(X, z_j), shape (n_rows,)."""
        return self.block(p, [j])[:, 0]

    def kernel_scores(self, p: int, w: np.ndarray, centres: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        """Pricing products K_p(X, z_j)' w for the centres j of one kernel.

        With w = y * u these are the scores sum_i u_i y_i K_ij of cgboost eq. 6, 10
        and 12; with w = u - v those of eq. 14 (the masters give w as
        ``MasterSolution.pricing_weights``).

        Parameters
        ----------
        p : int
            Kernel index.
        w : ndarray of shape (n_rows,) or (n_rows, q)
            Weights; q columns price q weight vectors at once.
        centres : sequence of int, default=None
            Centres to price; None means all.

        Returns
        -------
        ndarray of shape (len(centres),) or (len(centres), q)
        """
        p, idx = self._check_kernel(p), self._check_centres(centres)
        w = np.asarray(w)
        if w.shape[0] != self.n_rows:
            raise ValueError(f"weights have {w.shape[0]} rows, the columns have {self.n_rows}")
        self.n_priced += len(idx)
        if self._keep_grams:
            gram = self._gram(p)
            return self._signed((gram if centres is None else gram[idx]) @ w, idx)
        out = np.empty((len(idx),) + w.shape[1:], dtype=np.result_type(self.X, w))
        for start in range(0, len(idx), self._block_size):
            stop = start + self._block_size
            out[start:stop] = self._compute(p, idx[start:stop]) @ w
        return self._signed(out, idx)

    def scores(self, w: np.ndarray) -> np.ndarray:
        """Pricing products K^p' w for every kernel p and centre j (a full scan).

        Parameters
        ----------
        w : ndarray of shape (n_rows,) or (n_rows, q)

        Returns
        -------
        ndarray of shape (n_kernels, n_centres) or (n_kernels, n_centres, q)
            Entry [p, j] is the score of column (p, j).
        """
        return np.stack([self.kernel_scores(p, w) for p in range(self.n_kernels)])


class _Store:
    """The kernel values a :class:`KernelColumns` and its views share: kept Gram blocks, an LRU cache of columns."""

    def __init__(self, n_kernels: int, cache_bytes: int) -> None:
        self.grams: dict[int, np.ndarray] = {}
        self.gram_locks = [Lock() for _ in range(n_kernels)]
        self.lock = Lock()  # the cache and the count
        self.cache: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()
        self.cache_bytes = cache_bytes
        self.cached_bytes = 0
        self.n_computed = 0

    def cached(self, p: int, centres: np.ndarray) -> dict[int, np.ndarray]:
        """The cached columns (p, j) of ``centres``, marked as just used."""
        found: dict[int, np.ndarray] = {}
        with self.lock:
            for j in centres.tolist():
                if (p, j) in self.cache:
                    self.cache.move_to_end((p, j))
                    found[j] = self.cache[(p, j)]
        return found

    def remember(self, p: int, columns: dict[int, np.ndarray]) -> None:
        """Cache the columns (p, j), evicting the least recently used past ``cache_bytes``."""
        with self.lock:
            for j, column in columns.items():
                if column.nbytes > self.cache_bytes or (p, j) in self.cache:
                    continue
                self.cache[(p, j)] = column
                self.cached_bytes += column.nbytes
                while self.cached_bytes > self.cache_bytes:
                    self.cached_bytes -= self.cache.popitem(last=False)[1].nbytes
