"""The weak-learner families by name: ``"stump"``, ``"perceptron"``, ``"fourier"``.

:func:`make_family` binds the family a CGEns-type estimator names (its
``learner`` parameter) to the training inputs; :func:`make_stumps` the stump family
(binned or exact, dense or sparse), which AdaBoost.MH / ECC search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse

from .binned import BinnedStumps, check_max_bins, table_bytes
from .sampled import FourierFeatures, Perceptrons
from .sparse_stumps import SparseStumps
from .stumps import Stumps
from .weak import _points

__all__ = ["LEARNERS", "SPARSE_BINS_BUDGET", "StumpFamily", "make_family", "make_stumps"]

LEARNERS = ("stump", "perceptron", "fourier")

#: Bytes the binned stumps of a sparse X may hold in their per-bin tables (:func:`~mkbench.learners.binned.table_bytes`,
#: 17 ``max_bins`` bytes per feature: about 62 000 features at 255 bins). A sparse X of more features is searched
#: exactly by :class:`~mkbench.learners.sparse_stumps.SparseStumps`, whose memory is its stored entries alone.
SPARSE_BINS_BUDGET = 256 * 2**20

#: The stump families, whose searches take weight matrices (``search``, ``best_each``) and name stumps by position.
StumpFamily = Stumps | SparseStumps | BinnedStumps


def make_stumps(X, *, constant: bool = False, max_bins: int | None = None) -> StumpFamily:
    """The decision stumps on X, as :func:`make_family` binds them for ``"stump"`` (see its ``max_bins``)."""
    sparse = scipy.sparse.issparse(X)
    if max_bins is not None:
        check_max_bins(max_bins)
        if not sparse or table_bytes(X.shape[1], max_bins) <= SPARSE_BINS_BUDGET:
            return BinnedStumps(X, max_bins=max_bins, constant=constant)
    return SparseStumps(X, constant=constant) if sparse else Stumps(X, constant=constant)


def make_family(
    learner: str,
    X: np.ndarray,
    *,
    n_candidates: int = 2000,
    gamma: float | None = None,
    constant: bool = False,
    max_bins: int | None = None,
    random_state=None,
) -> Stumps | SparseStumps | BinnedStumps | Perceptrons | FourierFeatures:
    """The weak-learner family ``learner`` on the training inputs X.

    Parameters
    ----------
    learner : {"stump", "perceptron", "fourier"}
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        A sparse X is never densified: the exact stumps of a sparse X are
        :class:`~mkbench.learners.sparse_stumps.SparseStumps` (the same search as
        :class:`~mkbench.learners.stumps.Stumps` on X densified, bit for bit), the binned ones
        read its stored entries, the perceptrons and Fourier features take sparse products.
    n_candidates : int, default=2000
        Learners drawn per search (perceptron, fourier; stumps are searched exactly).
    gamma : float, default=None
        Gaussian width of the Fourier features; None: 1 / (n_features * X.var()),
        scikit-learn's ``gamma="scale"``.
    constant : bool, default=False
        Offer the constant stump (see :class:`~mkbench.learners.stumps.Stumps`).
    max_bins : int or None, default=None
        Stumps only: None searches every stump exactly (:class:`~mkbench.learners.stumps.Stumps`,
        the papers' search); an integer (2 to 256; 255 as HistGradientBoosting and LightGBM)
        the stumps between at most that many bins per feature
        (:class:`~mkbench.learners.binned.BinnedStumps`), the same family on features with
        at most ``max_bins`` distinct values. Of a sparse X, only while the bins' tables fit
        :data:`SPARSE_BINS_BUDGET`; beyond, the exact search.
    random_state : int, RandomState or None, default=None

    Returns
    -------
    Stumps, SparseStumps, BinnedStumps, Perceptrons or FourierFeatures
    """
    if learner == "stump":
        return make_stumps(X, constant=constant, max_bins=max_bins)
    if learner == "perceptron":
        return Perceptrons(X, n_candidates=n_candidates, random_state=random_state)
    if learner == "fourier":
        if gamma is None:
            variance = _variance(_points(X))
            gamma = 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0
        return FourierFeatures(X, gamma=gamma, n_candidates=n_candidates, random_state=random_state)
    raise ValueError(f"learner={learner!r} is not one of {', '.join(map(repr, LEARNERS))}")


def _variance(X: np.ndarray) -> float:
    """The variance of all of X's entries; of a sparse X, from its stored entries (the others are 0)."""
    if not scipy.sparse.issparse(X):
        return float(X.var())
    S: Any = X.copy()  # scipy's sparse types are Any (no type information)
    S.sum_duplicates()
    size = S.shape[0] * S.shape[1]
    mean = S.sum() / size
    return float((((S.data - mean) ** 2).sum() + (size - S.nnz) * mean**2) / size)
