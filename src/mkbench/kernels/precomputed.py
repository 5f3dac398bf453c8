"""Precomputed Gram matrices for the MKL estimators: MKLpy's lists of kernels, or a 3-D stack.

``SILPClassifier(kernels="precomputed").fit(KL, y)`` takes the M training kernels
K_k(X, X) as a list of (n, n) arrays (MKLpy's ``KL``) or one (M, n, n) array, and
``predict(KL_test)`` the kernels between test and training points, each
(n_test, n). :func:`training_grams` checks what an SVM needs of them (square,
one size, finite, symmetric, positive semi-definite) and :func:`prediction_grams` the
shapes at prediction; each error names the kernel, the property and the fix.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["PRECOMPUTED", "prediction_grams", "training_grams"]

PRECOMPUTED = "precomputed"

#: Eigenvalues below -PSD_TOL * the largest one make a training kernel not positive semi-definite.
PSD_TOL = 1e-8


def _stack(grams: np.ndarray | Sequence[np.ndarray], what: str) -> np.ndarray:
    if isinstance(grams, np.ndarray) and grams.ndim == 2:
        raise ValueError(
            f"kernels='precomputed' takes a list of {what} Gram matrices or a 3-D array (n_kernels, ...), "
            f"got one 2-D array of shape {grams.shape}: pass [K] for a single kernel"
        )
    try:
        stack = np.asarray([np.asarray(K, dtype=np.float64) for K in grams])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"kernels='precomputed' needs {what} Gram matrices of one shape: {exc}") from exc
    if stack.ndim != 3 or stack.shape[0] == 0:
        raise ValueError(
            f"kernels='precomputed' takes a non-empty list of 2-D {what} Gram matrices of one shape "
            f"(or a 3-D array), got an array of shape {stack.shape}"
        )
    for k, K in enumerate(stack):
        if not np.all(np.isfinite(K)):
            raise ValueError(f"precomputed kernel {k} has NaN or infinite values")
    return stack


def training_grams(grams: np.ndarray | Sequence[np.ndarray], n_samples: int) -> np.ndarray:
    """The training kernels as an (M, n, n) array, checked.

    Parameters
    ----------
    grams : list of ndarray of shape (n, n), or ndarray of shape (M, n, n)
    n_samples : int
        len(y).

    Returns
    -------
    ndarray of shape (M, n, n)

    Raises
    ------
    ValueError
        If a matrix is not square, not of the size of y, not symmetric or not
        positive semi-definite (an SVM's dual needs a PSD kernel).
    """
    stack = _stack(grams, "training (n, n)")
    if stack.shape[1] != stack.shape[2] or stack.shape[1] != n_samples:
        raise ValueError(
            f"precomputed training kernels must be square, (n_samples, n_samples) = ({n_samples}, {n_samples}) "
            f"for {n_samples} labels, got {stack.shape[1:]}"
        )
    for k, K in enumerate(stack):
        scale = max(np.abs(K).max(), np.finfo(float).tiny)
        if not np.allclose(K, K.T, rtol=0.0, atol=1e-10 * scale):
            raise ValueError(f"precomputed kernel {k} is not symmetric: pass (K + K.T) / 2 if it is one up to rounding")
        eigenvalues = np.linalg.eigvalsh(K)
        if eigenvalues[0] < -PSD_TOL * max(eigenvalues[-1], scale):
            raise ValueError(
                f"precomputed kernel {k} is not positive semi-definite (smallest eigenvalue {eigenvalues[0]:.3g}, "
                f"largest {eigenvalues[-1]:.3g}): the SVM needs a PSD kernel; drop it, or add a multiple of "
                "the identity (K + c I with c >= -smallest eigenvalue)"
            )
    return stack


def prediction_grams(grams: np.ndarray | Sequence[np.ndarray], n_kernels: int, n_train: int) -> np.ndarray:
    """The kernels between test and training points as an (M, n_test, n_train) array, checked.

    Parameters
    ----------
    grams : list of ndarray of shape (n_test, n_train), or ndarray of shape (M, n_test, n_train)
    n_kernels, n_train : int
        As at fit.

    Returns
    -------
    ndarray of shape (M, n_test, n_train)
    """
    stack = _stack(grams, "(n_test, n_train)")
    if stack.shape[0] != n_kernels or stack.shape[2] != n_train:
        raise ValueError(
            f"precomputed test kernels must be {n_kernels} matrices of shape (n_test, {n_train}) "
            f"(test points by the training points of fit), got {stack.shape[0]} of shape {stack.shape[1:]}"
        )
    return stack
