"""Precomputed Gram matrices for the MKL estimators: MKLpy's lists of kernels, or a 3-D stack.

``SILPClassifier(kernels="precomputed").fit(KL, y)`` takes the M training kernels
K_k(X, X) as a list of (n, n) arrays (MKLpy's ``KL``) or one (M, n, n) array, and
``predict(KL_test)`` the kernels between test and training points, each
(n_test, n). :func:`training_grams` checks what an SVM needs of them (square,
one size, finite, symmetric, positive semi-definite) and :func:`prediction_grams` the
shapes at prediction; each error names the kernel, the property and the fix.

The checks cost less than learning from the kernels (issue 48): shapes, finiteness and
symmetry take a few passes over each kernel beside the one copy the estimators need
(they scale the kernels to unit trace in place), and positive semi-definiteness at
single precision (``check_psd="fast"``, the estimators' check) a Gershgorin bound,
else a single-precision Cholesky factorisation (n^3 / 3 flops); only a kernel that
neither certifies gets its eigenvalues computed (a dense eigensolver, over ten times
as long), which decide. ``check_psd="full"`` decides every kernel on its eigenvalues,
at the tolerance of double precision: the estimators' check before issue 48.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np
from scipy.linalg.lapack import spotrf

__all__ = ["FAST_PSD_TOL", "PRECOMPUTED", "PSD_TOL", "SYMMETRY_TOL", "prediction_grams", "training_grams"]

PRECOMPUTED = "precomputed"

SYMMETRY_TOL = 1e-10
"""A training kernel is symmetric if |K_ij - K_ji| <= SYMMETRY_TOL x max |K_ij| for all i, j."""

PSD_TOL = 1e-8
"""``check_psd="full"``: a training kernel is positive semi-definite if its eigenvalues are at least
-PSD_TOL x max(its largest eigenvalue, max |K_ij|)."""

FAST_PSD_TOL = float(2 * np.finfo(np.float32).eps)
"""``check_psd="fast"``: a training kernel is positive semi-definite if its eigenvalues are at least
-FAST_PSD_TOL x ||K||_inf: twice the machine epsilon of single precision (2.4e-7) times the largest
absolute row sum max_i sum_j |K_ij|, which bounds the largest eigenvalue from above (and is close to
it for a kernel of positive entries: a Gaussian, a polynomial with an offset). This is PSD_TOL's
form at the resolution of a single-precision Cholesky factorisation, whose backward error is about
eps_32 ||K||: measured at most 0.45 eps_32 ||K||_inf on Gaussian, polynomial and rank-deficient
linear kernels (n = 500, 2000), so a PSD kernel passes with a margin of four, and one that passes
has no eigenvalue below about -3e-7 ||K||_inf (PSD_TOL's bound is -1e-8 x the largest eigenvalue).
A kernel whose Cholesky factorisation fails is decided on its eigenvalues, at this tolerance."""


_TILE = 64
"""Side of the square tiles :func:`_asymmetry` compares K_ij and K_ji in (both tiles stay in cache)."""


@numba.njit(cache=True, nogil=True)
def _largest_and_row_sums(K, row_abs):  # pragma: no cover - compiled
    """max |K_ij|, NaN if K has a NaN; row_abs[i] = sum_j |K_ij|. One pass, in the order of memory."""
    largest = 0.0
    for i in range(K.shape[0]):
        total = 0.0
        for j in range(K.shape[1]):
            value = abs(K[i, j])
            if value != value:
                return np.nan
            total += value
            largest = max(largest, value)
        row_abs[i] = total
    return largest


@numba.njit(cache=True, nogil=True, fastmath={"nnan", "ninf", "nsz", "reassoc"})
def _asymmetry(K):  # pragma: no cover - compiled
    """max |K_ij - K_ji| of a finite square K, tile by tile above the diagonal (O(n^2), in cache)."""
    n = K.shape[0]
    worst = 0.0
    for i0 in range(0, n, _TILE):
        for j0 in range(i0, n, _TILE):
            for i in range(i0, min(i0 + _TILE, n)):
                for j in range(max(j0, i + 1), min(j0 + _TILE, n)):
                    worst = max(worst, abs(K[i, j] - K[j, i]))
    return worst


def _matrices(grams: np.ndarray | Sequence[np.ndarray], what: str) -> list[np.ndarray]:
    """The Gram matrices as 2-D arrays of real numbers of one shape: views of ``grams`` where they are arrays."""
    if isinstance(grams, np.ndarray) and grams.ndim == 2:
        raise ValueError(
            f"kernels='precomputed' takes a list of {what} Gram matrices or a 3-D array (n_kernels, ...), "
            f"got one 2-D array of shape {grams.shape}: pass [K] for a single kernel"
        )
    try:
        matrices = [np.asarray(K) for K in grams]
        matrices = [K if K.dtype.kind in "biuf" else K.astype(np.float64) for K in matrices]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"kernels='precomputed' needs {what} Gram matrices of real numbers: {exc}") from exc
    shapes = list(dict.fromkeys(K.shape for K in matrices))
    if not matrices or any(len(shape) != 2 for shape in shapes):
        raise ValueError(
            f"kernels='precomputed' takes a non-empty list of 2-D {what} Gram matrices of one shape "
            f"(or a 3-D array), got {len(matrices)} of shape(s) {', '.join(map(str, shapes)) or '-'}"
        )
    if len(shapes) > 1:
        raise ValueError(
            f"kernels='precomputed' needs {what} Gram matrices of one shape, got shapes {', '.join(map(str, shapes))}"
        )
    return matrices


def training_grams(
    grams: np.ndarray | Sequence[np.ndarray], n_samples: int, check_psd: str | bool = "fast"
) -> np.ndarray:
    """The training kernels as a new (M, n, n) float64 array, checked.

    Parameters
    ----------
    grams : list of ndarray of shape (n, n), or ndarray of shape (M, n, n)
        Not modified.
    n_samples : int
        len(y).
    check_psd : {"fast", "full", False}, default="fast"
        How to check that each kernel is positive semi-definite. "fast" (the MKL
        estimators' check): no eigenvalue below -:data:`FAST_PSD_TOL` x ||K||_inf, certified
        by Gershgorin's discs (O(n^2)) or a single-precision Cholesky factorisation of
        K + tolerance I (n^3 / 3 flops), decided by the eigenvalues if neither
        certifies. "full": no eigenvalue below -:data:`PSD_TOL` x max(largest eigenvalue,
        max |K_ij|), decided by the eigenvalues (a dense eigensolver, over ten times the
        Cholesky; the check before issue 48). False: no check.

    Returns
    -------
    ndarray of shape (M, n, n)
        A copy of the kernels, never a view of ``grams``: the caller may scale it in place.

    Raises
    ------
    ValueError
        If a matrix is not square, not of the size of y, not finite, not symmetric or
        not positive semi-definite (an SVM's dual needs a PSD kernel); the message names
        the kernel's index and, for the last, its smallest eigenvalue and the tolerance.
    """
    if not (check_psd is False or check_psd in ("fast", "full")):
        raise ValueError(f"check_psd must be 'fast', 'full' or False, got {check_psd!r}")
    matrices = _matrices(grams, "training (n, n)")
    if matrices[0].shape != (n_samples, n_samples):
        raise ValueError(
            f"precomputed training kernels must be square, (n_samples, n_samples) = ({n_samples}, {n_samples}) "
            f"for {n_samples} labels, got {matrices[0].shape}"
        )
    stack = np.empty((len(matrices), n_samples, n_samples))
    single = np.empty((n_samples, n_samples), dtype=np.float32) if check_psd == "fast" else None
    for k, K in enumerate(matrices):
        np.copyto(stack[k], K)
        _check_training_kernel(k, stack[k], check_psd, single)
    return stack


def _check_training_kernel(k: int, K: np.ndarray, check_psd: str | bool, single: np.ndarray | None) -> None:
    """Raise ValueError naming kernel ``k`` unless K is finite, symmetric and (by ``check_psd``) PSD.

    K is C-ordered float64; ``single`` is scratch space of its shape, C-ordered float32.
    """
    row_abs = np.empty(len(K))
    largest = _largest_and_row_sums(K, row_abs)
    if not np.isfinite(largest):
        raise ValueError(f"precomputed kernel {k} has NaN or infinite values")
    if _asymmetry(K) > SYMMETRY_TOL * largest:
        raise ValueError(f"precomputed kernel {k} is not symmetric: pass (K + K.T) / 2 if it is one up to rounding")
    if check_psd is False:
        return
    if check_psd == "fast":
        tolerance = FAST_PSD_TOL * float(row_abs.max())
        diagonal = np.diagonal(K)
        if (diagonal + np.abs(diagonal) - row_abs).min() >= -tolerance:  # every Gershgorin disc reaches no lower
            return
        assert single is not None  # given with check_psd="fast"
        np.multiply(K, 1.0 / largest, out=single)  # scaled: no overflow or underflow in single precision
        single.flat[:: len(K) + 1] += tolerance / largest
        if spotrf(single.T, lower=1, clean=0, overwrite_a=1)[1] == 0:  # in place: single.T is Fortran-ordered
            return
    eigenvalues = np.linalg.eigvalsh(K)
    if check_psd == "full":
        tolerance = PSD_TOL * max(eigenvalues[-1], largest)
    if eigenvalues[0] < -tolerance:
        raise ValueError(
            f"precomputed kernel {k} is not positive semi-definite (smallest eigenvalue {eigenvalues[0]:.3g}, "
            f"largest {eigenvalues[-1]:.3g}, tolerance {tolerance:.3g}): the SVM needs a PSD kernel; drop it, or "
            f"add a multiple of the identity (K + c I with c >= {-eigenvalues[0]:.3g})"
        )


def prediction_grams(grams: np.ndarray | Sequence[np.ndarray], n_kernels: int, n_train: int) -> list[np.ndarray]:
    """The kernels between test and training points, checked: views of ``grams`` where it holds arrays.

    Parameters
    ----------
    grams : list of ndarray of shape (n_test, n_train), or ndarray of shape (M, n_test, n_train)
    n_kernels, n_train : int
        As at fit.

    Returns
    -------
    list of M ndarray of shape (n_test, n_train)
    """
    matrices = _matrices(grams, "(n_test, n_train)")
    if len(matrices) != n_kernels or matrices[0].shape[1] != n_train:
        raise ValueError(
            f"precomputed test kernels must be {n_kernels} matrices of shape (n_test, {n_train}) "
            f"(test points by the training points of fit), got {len(matrices)} of shape {matrices[0].shape}"
        )
    for k, K in enumerate(matrices):
        if not np.all(np.isfinite(K)):
            raise ValueError(f"precomputed kernel {k} has NaN or infinite values")
    return matrices
