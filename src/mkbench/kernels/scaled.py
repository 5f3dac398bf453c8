"""Kernels put on one scale, so that one C means the same for every kernel of a library.

The kernels of a library live on very different scales: on standardised inputs
with d features the linear kernel's diagonal x'x is about d, the quadratic's
(x'x + 1)^2 about d^2, the RBF's exactly 1. A column K_p(., x_j) then weighs in
the masters (cgboost eq. 4, 7, 11, 13) as its kernel's scale, so one C means a
different amount of regularisation for each kernel and a mixture favours the
largest. :class:`Normalized` divides kernel p by a scale s_p set on the training
points, by the convention of the master's penalty:

* ``"diagonal"`` (the 1-norm LP, eq. 4): s_p = (1 / n) sum_i K_p(x_i, x_i), unit
  mean diagonal, so that the columns are bounded about as LPBoost's weak
  hypotheses in [-1, 1] are (|K(x, z)| <= sqrt(K(x, x) K(z, z)));
* ``"rows"`` (the 2-norm QPs, eq. 7, 11, 13): s_p^2 = P (1 / n) ||K_p||_F^2, so that
  a training point's row of columns phi(x_i) = [K_p(x_i, x_j) / s_p]_{p, j} has unit
  mean squared norm, each kernel contributing 1 / P. The 2-norm master is a linear
  SVM on phi, so C = 1 then means what it means for an RBF SVC, whose feature map
  has unit norm, whatever the number n of columns per kernel.

A composite ("L+Q") is first put on unit diagonal part by part, so that its parts
weigh alike, then scaled as one kernel (:func:`normalized`). The same idea on
unit-trace Gram matrices is the MKL methods' (:mod:`mkbench.kernels.grid`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..exceptions import MkbenchError
from .functions import Kernel
from .library import Sum

__all__ = ["NORMALIZATIONS", "Normalized", "mean_diagonal", "normalized"]

#: The scale conventions of :class:`Normalized`.
NORMALIZATIONS = ("diagonal", "rows")
#: Rows per block when the diagonal is computed from Gram blocks.
_BLOCK = 256
#: Training rows (evenly spaced) over which the mean squared row norm is estimated.
_ROWS_SAMPLE = 512


def mean_diagonal(kernel: Kernel, X: np.ndarray) -> float:
    """(1 / n) sum_i k(x_i, x_i) over the rows of X, from diagonal blocks of ``kernel``'s Gram matrix.

    Parameters
    ----------
    kernel : Kernel
        A resolved kernel.
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    float
    """
    total = 0.0
    for start in range(0, X.shape[0], _BLOCK):
        block = X[start : start + _BLOCK]
        total += float(np.trace(kernel(block, block)))
    return total / X.shape[0]


def mean_row_norm(kernel: Kernel, X: np.ndarray) -> float:
    """(1 / n) ||K||_F^2 = mean over i of sum_j k(x_i, x_j)^2, over at most 512 evenly spaced rows i.

    Parameters
    ----------
    kernel : Kernel
        A resolved kernel.
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    float
    """
    rows = np.unique(np.linspace(0, X.shape[0] - 1, min(X.shape[0], _ROWS_SAMPLE)).astype(np.intp))
    block = kernel(X[rows], X)
    return float(np.einsum("ij,ij->", block, block)) / rows.size


@dataclass(frozen=True)
class Normalized(Kernel):
    """k(x, z) / s, with s set on the training points by :meth:`resolve` (see the module for the conventions).

    The name is the wrapped kernel's, so that its columns count as that kernel's
    (C_l, C_q, C_r of cgboost Table 1).

    Parameters
    ----------
    kernel : Kernel
        The kernel to normalise.
    by : {"diagonal", "rows"}, default="diagonal"
        Unit mean diagonal, or unit mean squared row norm shared among ``n_kernels``.
    n_kernels : int, default=1
        P, the kernels of the library sharing the rows' unit norm (``by="rows"``).
    scale : float or None, default=None
        s; None until :meth:`resolve` sets it from the training inputs.
    """

    kernel: Kernel
    by: str = "diagonal"
    n_kernels: int = 1
    scale: float | None = None

    def __post_init__(self) -> None:
        if self.by not in NORMALIZATIONS:
            raise ValueError(f"by must be one of {', '.join(map(repr, NORMALIZATIONS))}, got {self.by!r}")

    @property
    def name(self) -> str:
        return self.kernel.name

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        if self.scale is None:
            raise MkbenchError(f"the normalised {self.name} kernel has no scale: call .resolve(X_train) first")
        K = self.kernel(X, Z)
        K /= self.scale
        return K

    def resolve(self, X: np.ndarray) -> Normalized:
        if self.scale is not None:
            return self
        X = np.asarray(X)
        kernel = self.kernel.resolve(X)
        if self.by == "diagonal":
            scale = mean_diagonal(kernel, X)
        else:
            scale = float(np.sqrt(self.n_kernels * mean_row_norm(kernel, X)))
        if not (np.isfinite(scale) and scale > 0):
            raise MkbenchError(
                f"cannot normalise the {self.name} kernel: its scale over the training points is {scale:.3g} "
                f"(all points at the origin, or values that overflow); pass normalize_kernels=False or check "
                f"the inputs"
            )
        return replace(self, kernel=kernel, scale=scale)


def normalized(kernel: Kernel, by: str, n_kernels: int) -> Normalized:
    """``kernel`` normalised ``by`` its diagonal or rows; a composite's parts first put on unit diagonal."""
    if isinstance(kernel, Sum):
        kernel = Sum(tuple(Normalized(part) for part in kernel.kernels))
    return Normalized(kernel, by=by, n_kernels=n_kernels)
