"""Kernel functions and the matrix of candidate kernel columns.

A kernel library S = {K_1, ..., K_P} defines the candidate columns of CG-Boost:
the Gram blocks laid side by side, K = [K^1 K^2 ... K^P] (cgboost §3; SSMK eq. 1),
column (p, j) being K_p(., x_j). :class:`KernelColumns` serves those columns and
their pricing products K^p' w without ever needing all of K in memory.

Kernels are small immutable objects with a ``name`` and ``__call__(X, Z) -> K``
of shape (n_x, n_z). A kernel whose default depends on the training data (the
RBF width sigma) is fixed by :meth:`Kernel.resolve` on the training inputs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from .exceptions import MkbenchError, UnknownNameError

__all__ = [
    "RBF",
    "Kernel",
    "KernelColumns",
    "Linear",
    "Polynomial",
    "Sum",
    "WeakRBF",
    "make_kernel",
    "make_library",
    "mean_squared_distance",
]


def _as_points(X: np.ndarray) -> np.ndarray:
    """Return X as a 2-D floating array (float32 stays float32)."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D array of points (n_samples, n_features), got shape {X.shape}")
    return X if np.issubdtype(X.dtype, np.floating) else X.astype(np.float64)


def _as_pair(X: np.ndarray, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    X, Z = _as_points(X), _as_points(Z)
    if X.shape[1] != Z.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but Z has {Z.shape[1]}")
    return X, Z


def _squared_distances(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """||x_i - z_j||^2 for all pairs, via ||x||^2 + ||z||^2 - 2 x'z (one GEMM)."""
    D = X @ Z.T
    D *= -2.0
    D += np.einsum("ij,ij->i", X, X)[:, None]
    D += np.einsum("ij,ij->i", Z, Z)[None, :]
    return np.maximum(D, 0.0, out=D)


def mean_squared_distance(X: np.ndarray) -> float:
    """Mean of ||x_i - x_j||^2 over all ordered pairs (i, j), the pairs i = j included.

    This is the default RBF width of cgboost §5 ("the mean of ||x_i - x_j||^2
    where i, j run through the training examples"). Over the n^2 ordered pairs,
    mean ||x_i - x_j||^2 = 2 mean_i ||x_i||^2 - 2 ||mean_i x_i||^2
    = 2 mean_i ||x_i - xbar||^2, computed here in the centred form: O(n d) time,
    and no cancellation when the data sit far from the origin. (The mean over the
    n(n-1) pairs with i != j is larger by the factor n / (n - 1).)

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    float
    """
    X = _as_points(X)
    centred = X - X.mean(axis=0)
    return 2.0 * float(np.einsum("ij,ij->", centred, centred)) / X.shape[0]


class Kernel(ABC):
    """A symmetric kernel function k(x, z) = k(z, x), evaluated on two sets of points."""

    @property
    @abstractmethod
    def name(self) -> str:
        """Short name, used in column ids and result records."""

    @abstractmethod
    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        """Gram block K[i, j] = k(x_i, z_j).

        Parameters
        ----------
        X : ndarray of shape (n_x, n_features)
        Z : ndarray of shape (n_z, n_features)

        Returns
        -------
        ndarray of shape (n_x, n_z)
        """

    def resolve(self, X: np.ndarray) -> Kernel:
        """Return this kernel with its data-dependent defaults fixed from training inputs X.

        Kernels without such defaults return themselves.
        """
        return self


def _check_sigma(sigma: float | None) -> None:
    if sigma is not None and not sigma > 0:
        raise ValueError(f"sigma must be > 0 (or None for the data default), got {sigma!r}")


def _default_sigma(X: np.ndarray, what: str) -> float:
    sigma = mean_squared_distance(X)
    if not sigma > 0:
        raise MkbenchError(
            f"cannot set the default sigma of {what}: all training points coincide "
            "(mean squared distance 0); pass sigma explicitly"
        )
    return sigma


def _unresolved(kernel: Kernel) -> MkbenchError:
    return MkbenchError(
        f"{kernel.name} kernel has no sigma: pass sigma= or call .resolve(X_train) to use "
        "the mean squared distance of the training points (cgboost §5)"
    )


@dataclass(frozen=True)
class Linear(Kernel):
    """Linear kernel k(x, z) = x'z ("L" in cgboost Table 1)."""

    @property
    def name(self) -> str:
        return "linear"

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        X, Z = _as_pair(X, Z)
        return X @ Z.T


@dataclass(frozen=True)
class Polynomial(Kernel):
    """Polynomial kernel k(x, z) = (x'z + offset)^degree.

    The quadratic kernel "Q" of cgboost Table 1 is ``Polynomial(2, 1.0)``. The paper
    does not state its offset; we use the common inhomogeneous form with offset 1.

    Parameters
    ----------
    degree : int, default=2
    offset : float, default=1.0
    """

    degree: int = 2
    offset: float = 1.0

    def __post_init__(self) -> None:
        if not (isinstance(self.degree, (int, np.integer)) and self.degree >= 1):
            raise ValueError(f"degree must be an integer >= 1, got {self.degree!r}")

    @property
    def name(self) -> str:
        if (self.degree, self.offset) == (2, 1.0):
            return "quadratic"
        return f"poly(degree={self.degree}, offset={self.offset:g})"

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        X, Z = _as_pair(X, Z)
        K = X @ Z.T
        K += self.offset
        return K**self.degree


@dataclass(frozen=True)
class RBF(Kernel):
    """Gaussian kernel k(x, z) = exp(-||x - z||^2 / sigma) (MARK eq. 19; cgboost §2.2).

    Note sigma divides the squared distance directly (no 2 sigma^2): sklearn's
    ``rbf_kernel`` with ``gamma = 1 / sigma``.

    Parameters
    ----------
    sigma : float or None, default=None
        None means the mean squared distance of the training points, set by
        :meth:`resolve` (cgboost §5; see :func:`mean_squared_distance`).
    """

    sigma: float | None = None

    def __post_init__(self) -> None:
        _check_sigma(self.sigma)

    @property
    def name(self) -> str:
        return "rbf"

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        if self.sigma is None:
            raise _unresolved(self)
        X, Z = _as_pair(X, Z)
        K = _squared_distances(X, Z)
        K /= -self.sigma
        return np.exp(K, out=K)

    def resolve(self, X: np.ndarray) -> RBF:
        if self.sigma is not None:
            return self
        return replace(self, sigma=_default_sigma(X, "the rbf kernel"))


@dataclass(frozen=True)
class WeakRBF(Kernel):
    """Weak RBF kernel on one attribute a: k(x, z) = exp(-(x_a - z_a)^2 / sigma) (MARK eq. 20).

    Parameters
    ----------
    attribute : int
        Index a of the attribute (column of X) the kernel looks at.
    sigma : float or None, default=None
        None means the mean squared distance of the training values of that
        attribute, set by :meth:`resolve`.
    """

    attribute: int
    sigma: float | None = None

    def __post_init__(self) -> None:
        if not (isinstance(self.attribute, (int, np.integer)) and self.attribute >= 0):
            raise ValueError(f"attribute must be a column index >= 0, got {self.attribute!r}")
        _check_sigma(self.sigma)

    @property
    def name(self) -> str:
        return f"weak_rbf[{self.attribute}]"

    def _attribute_of(self, X: np.ndarray) -> np.ndarray:
        if self.attribute >= X.shape[1]:
            raise ValueError(
                f"{self.name} needs attribute {self.attribute}, but the data have {X.shape[1]} features"
            )
        return X[:, [self.attribute]]

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        if self.sigma is None:
            raise _unresolved(self)
        X, Z = _as_pair(X, Z)
        return RBF(self.sigma)(self._attribute_of(X), self._attribute_of(Z))

    def resolve(self, X: np.ndarray) -> WeakRBF:
        if self.sigma is not None:
            return self
        return replace(self, sigma=_default_sigma(self._attribute_of(_as_points(X)), self.name))


@dataclass(frozen=True)
class Sum(Kernel):
    """Composite kernel with unit weights, K = sum_p K_p (eq. 2 with mu = 1; "L+Q" in cgboost Table 1).

    Parameters
    ----------
    kernels : sequence of Kernel
    """

    kernels: tuple[Kernel, ...]

    def __post_init__(self) -> None:
        if not self.kernels:
            raise ValueError("a Sum kernel needs at least one kernel")
        object.__setattr__(self, "kernels", tuple(self.kernels))

    @property
    def name(self) -> str:
        return "+".join(k.name for k in self.kernels)

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        first, *rest = self.kernels
        K = first(X, Z)
        for kernel in rest:
            K += kernel(X, Z)
        return K

    def resolve(self, X: np.ndarray) -> Sum:
        return Sum(tuple(k.resolve(X) for k in self.kernels))


def _sum_of(kernels: Sequence[str | Mapping | Kernel]) -> Sum:
    return Sum(tuple(make_kernel(k) for k in kernels))


_FACTORIES: dict[str, Callable[..., Kernel]] = {
    "linear": Linear,
    "quadratic": partial(Polynomial, degree=2),
    "poly": Polynomial,
    "rbf": RBF,
    "weak_rbf": WeakRBF,
    "sum": _sum_of,
}
_ALIASES = {"L": "linear", "Q": "quadratic", "R": "rbf"}


def make_kernel(spec: str | Mapping | Kernel) -> Kernel:
    """Build a kernel from a name or a spec.

    Parameters
    ----------
    spec : str, mapping or Kernel
        A registered name ("linear", "quadratic", "poly", "rbf", "weak_rbf", or the
        Table 1 letters "L", "Q", "R"); names joined by "+" for a unit-weight
        composite ("L+Q"); a mapping ``{"name": ..., **parameters}`` such as
        ``{"name": "weak_rbf", "attribute": 3}`` or
        ``{"name": "sum", "kernels": ["linear", "rbf"]}``; or a Kernel, returned as is.

    Returns
    -------
    Kernel

    Raises
    ------
    UnknownNameError
        For a name that is not registered; the message lists the known names.
    ValueError
        For parameters the kernel does not take or values out of range.
    """
    if isinstance(spec, Kernel):
        return spec
    if isinstance(spec, str):
        parts = [part.strip() for part in spec.split("+")]
        if len(parts) > 1:
            return _sum_of(parts)
        name, params = parts[0], {}
    elif isinstance(spec, Mapping):
        params = dict(spec)
        name = params.pop("name", None)
        if name is None:
            raise ValueError(f"kernel spec {dict(spec)!r} has no 'name'")
    else:
        raise TypeError(f"a kernel spec is a name, a mapping or a Kernel, got {type(spec).__name__}")
    name = _ALIASES.get(name, name)
    if name not in _FACTORIES:
        known = sorted(_FACTORIES) + sorted(_ALIASES)
        raise UnknownNameError(
            f"unknown kernel {name!r}; known kernels: {', '.join(known)} (join names with '+' for a sum)"
        )
    try:
        return _FACTORIES[name](**params)
    except TypeError as exc:
        raise ValueError(f"kernel {name!r} does not accept parameters {params!r}: {exc}") from exc


def make_library(spec: str | Sequence[str | Mapping | Kernel]) -> list[Kernel]:
    """Build a kernel library S = {K_1, ..., K_P} for a mixture of kernels (eq. 3).

    Parameters
    ----------
    spec : str or sequence of kernel specs
        A comma-separated string in the notation of cgboost Table 1 ("L,Q,R" is a
        mixture of three kernels, "L+Q" a single composite kernel), or a sequence
        of specs accepted by :func:`make_kernel`.

    Returns
    -------
    list of Kernel
    """
    specs = spec.split(",") if isinstance(spec, str) else spec
    return [make_kernel(s.strip() if isinstance(s, str) else s) for s in specs]


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

    Parameters
    ----------
    X : array-like of shape (n_rows, n_features)
        Points indexing the rows of every column.
    kernels : sequence of Kernel or kernel specs
        The library; specs go through :func:`make_kernel`. Data-dependent
        defaults (RBF sigma) are resolved on the centres.
    centres : array-like of shape (n_centres, n_features), default=None
        Points indexing the columns of each kernel; None means X.
    memory_budget : int, default=512 MiB
        Bytes allowed for kept Gram blocks, or for one pricing block when they do not fit.
    cache_bytes : int, default=64 MiB
        Bytes allowed for cached single columns (used when Gram blocks are not kept).
    dtype : {numpy.float64, numpy.float32}, default=numpy.float64
        Precision of the kernel values.

    Attributes
    ----------
    kernels : tuple of Kernel
        The resolved library.
    n_computed : int
        Kernel columns evaluated so far (each costs n_rows kernel values).
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
    ) -> None:
        self.X = np.ascontiguousarray(_as_points(X), dtype=dtype)
        self.centres = self.X if centres is None else np.ascontiguousarray(_as_points(centres), dtype=dtype)
        if self.centres.shape[1] != self.X.shape[1]:
            raise ValueError(f"centres have {self.centres.shape[1]} features but X has {self.X.shape[1]}")
        if not kernels:
            raise ValueError("the kernel library is empty")
        self.kernels = tuple(make_kernel(k).resolve(self.centres) for k in kernels)
        self.n_computed = 0
        self.n_priced = 0
        column_bytes = self.X.shape[0] * self.X.itemsize
        self._keep_grams = len(self.kernels) * len(self.centres) * column_bytes <= memory_budget
        self._block_size = max(1, memory_budget // column_bytes)
        self._grams: dict[int, np.ndarray] = {}
        self._cache: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()
        self._cache_bytes = cache_bytes
        self._cached_bytes = 0

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
            raise IndexError(
                f"centre indices must lie in [0, {self.n_centres}), got min {idx.min()}, max {idx.max()}"
            )
        return idx

    def _compute(self, p: int, centres: np.ndarray) -> np.ndarray:
        """Columns (p, centres) as the rows of a (len(centres), n_rows) block."""
        self.n_computed += len(centres)
        return self.kernels[p](self.centres[centres], self.X)

    def _gram(self, p: int) -> np.ndarray:
        if p not in self._grams:
            self._grams[p] = self._compute(p, np.arange(self.n_centres))
        return self._grams[p]

    def _remember(self, key: tuple[int, int], column: np.ndarray) -> None:
        if column.nbytes > self._cache_bytes:
            return
        self._cache[key] = column
        self._cached_bytes += column.nbytes
        while self._cached_bytes > self._cache_bytes:
            self._cached_bytes -= self._cache.popitem(last=False)[1].nbytes

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
            return self._gram(p)[centres].T
        found: dict[int, np.ndarray] = {}
        for j in centres.tolist():
            if (p, j) in self._cache:
                self._cache.move_to_end((p, j))
                found[j] = self._cache[(p, j)]
        missing = [j for j in dict.fromkeys(centres.tolist()) if j not in found]
        if missing:
            for j, column in zip(missing, self._compute(p, np.asarray(missing))):
                found[j] = column.copy()
                self._remember((p, j), found[j])
        return np.stack([found[j] for j in centres.tolist()], axis=1)

    def column(self, p: int, j: int) -> np.ndarray:
        """Column K_p(X, z_j), shape (n_rows,)."""
        return self.block(p, [j])[:, 0]

    def kernel_scores(
        self, p: int, w: np.ndarray, centres: Sequence[int] | np.ndarray | None = None
    ) -> np.ndarray:
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
            return (gram if centres is None else gram[idx]) @ w
        out = np.empty((len(idx),) + w.shape[1:], dtype=np.result_type(self.X, w))
        for start in range(0, len(idx), self._block_size):
            stop = start + self._block_size
            out[start:stop] = self._compute(p, idx[start:stop]) @ w
        return out

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
