"""The stump and perceptron kernels: the kernels of infinite ensembles (Lin & Li 2008; CGEns §II).

:func:`stump_kernel` Delta - ||x - x'||_1 and :func:`perceptron_kernel`
Delta' - ||x - x'||_2 are inner products of the outputs of all decision stumps
and of all perceptrons, the families CGEns selects from (§II); the SVM with
either one (:class:`mkbench.estimators.infinite_ensemble.InfiniteEnsembleSVC`) is
the infinite ensemble of CGEns Tables I and II. Unlike the kernels of
:mod:`mkbench.kernels.functions` they are plain functions of (X, Z) with the
constant Delta passed in, fixed on the training inputs by
:func:`stump_kernel_delta` and :func:`perceptron_kernel_delta`.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist
from scipy.special import gammaln

__all__ = ["perceptron_kernel", "perceptron_kernel_delta", "stump_kernel", "stump_kernel_delta"]


def stump_kernel(X: np.ndarray, Z: np.ndarray, *, delta: float = 0.0) -> np.ndarray:
    """The stump kernel K_S(x, z) = Delta - ||x - z||_1 (Lin & Li 2008; CGEns §II).

    Parameters
    ----------
    X : ndarray of shape (n_x, n_features)
    Z : ndarray of shape (n_z, n_features)
    delta : float, default=0
        The constant Delta; see :func:`stump_kernel_delta`.

    Returns
    -------
    ndarray of shape (n_x, n_z)
    """
    return delta - cdist(X, Z, metric="cityblock")


def stump_kernel_delta(X: np.ndarray) -> float:
    """Delta_S = 1/2 sum_d (R_d - L_d) over the ranges [L_d, R_d] of the features of X.

    With thresholds uniform on [L_d, R_d] (density 1), integrating
    s(x_d - t) s(z_d - t) over t and summing over d gives 2 (Delta_S - ||x - z||_1):
    the kernel is then an inner product of stump outputs, positive semi-definite
    on points inside the ranges.
    """
    X = np.asarray(X, dtype=np.float64)
    return 0.5 * float(np.ptp(X, axis=0).sum())


def perceptron_kernel(X: np.ndarray, Z: np.ndarray, *, delta: float = 0.0) -> np.ndarray:
    """The perceptron kernel K_P(x, z) = Delta' - ||x - z||_2 (Lin & Li 2008; CGEns §II).

    Parameters
    ----------
    X : ndarray of shape (n_x, n_features)
    Z : ndarray of shape (n_z, n_features)
    delta : float, default=0
        The constant Delta'; see :func:`perceptron_kernel_delta`.

    Returns
    -------
    ndarray of shape (n_x, n_z)
    """
    return delta - cdist(X, Z, metric="euclidean")


def perceptron_kernel_delta(X: np.ndarray) -> float:
    """Delta' = R / E|theta_1|, R = max_i ||x_i||, for theta uniform on the unit sphere of R^d.

    For perceptrons with theta uniform on the sphere and kappa uniform on [-R, R]
    (:class:`mkbench.learners.Perceptrons`), E[h(x) h(z)] = 1 - E|theta_1| ||x - z|| / R,
    so Delta' - ||x - z|| is R / E|theta_1| times that expectation: an inner product
    of perceptron outputs, positive semi-definite on points with ||x|| <= R.
    """
    X = np.asarray(X, dtype=np.float64)
    d = X.shape[1]
    mean_abs_coordinate = np.exp(gammaln(d / 2) - gammaln((d + 1) / 2)) / np.sqrt(np.pi)
    return float(np.sqrt(np.einsum("ij,ij->i", X, X).max()) / mean_abs_coordinate)
