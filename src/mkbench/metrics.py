"""Scores and model-size measures reported in the papers' tables.

The error measures are thin wrappers around :mod:`sklearn.metrics` that return
plain floats. ``q2`` and the two storage counts follow Momma & Bennett, "Sparse
kernel regression with heterogeneous kernel families" (MARK), KDD 2002, §5.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import accuracy_score, mean_squared_error


def mse(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean squared error, the regression error of MARK Tables 1-3.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted targets.

    Returns
    -------
    float
        ``mean((y_true - y_pred) ** 2)``.
    """
    return float(mean_squared_error(y_true, y_pred))


def q2(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Q^2: the mean squared error divided by the variance of ``y_true``.

    MARK §5.1 reports "Q^2 which is just the predicted mean squared error
    divided by the sample variance"; smaller is better. The variance is taken
    with ``ddof=0``, so ``q2 == 1 - sklearn.metrics.r2_score``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted targets.

    Returns
    -------
    float
        ``mse(y_true, y_pred) / var(y_true)``.

    Raises
    ------
    ValueError
        If ``y_true`` is constant, so that Q^2 is undefined.
    """
    variance = float(np.var(np.asarray(y_true, dtype=float)))
    if variance == 0.0:
        raise ValueError("q2 is undefined when y_true is constant (variance 0)")
    return mse(y_true, y_pred) / variance


def accuracy(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Fraction of labels predicted correctly.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted labels.

    Returns
    -------
    float
        Accuracy in [0, 1].
    """
    return float(accuracy_score(y_true, y_pred))


def error_rate(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Fraction of labels predicted wrongly, ``1 - accuracy``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted labels.

    Returns
    -------
    float
        Error rate in [0, 1].
    """
    return 1.0 - accuracy(y_true, y_pred)


def _check_count(name: str, value: float) -> None:
    if value < 0:
        raise ValueError(f"{name} must be non-negative, got {value!r}")


def svm_storage(n_support: float, n_features: int) -> float:
    """Numbers stored by a single-RBF-kernel model, ``n_support * M + 2``.

    MARK §5.2: an SVM "cannot throw away any attributes of a support vector",
    so it stores every support vector's M attributes, plus "2 [for] threshold b
    and the kernel parameter sigma". The paper counts KRR the same way, with
    every training point a support vector. ``n_support`` may be an average over
    folds (Table 1: 27.4 support vectors x 230 attributes + 2 = 6304).

    Parameters
    ----------
    n_support : float
        Number of support vectors (or their average over folds).
    n_features : int
        Number of input attributes M.

    Returns
    -------
    float
        The storage count; an int when both inputs are ints.

    Raises
    ------
    ValueError
        If either count is negative.
    """
    _check_count("n_support", n_support)
    _check_count("n_features", n_features)
    return n_support * n_features + 2


def mark_storage(n_columns: int) -> int:
    """Numbers stored by a MARK model of weak RBF kernels, ``3 T + 1``.

    MARK §5.2: each of the T weak kernel columns stores its centre, its width
    sigma and its weight alpha ("3"), and the model stores one threshold b
    ("1"); with T = 100 that is 301.

    Parameters
    ----------
    n_columns : int
        Number of kernel columns T in the model.

    Returns
    -------
    int
        The storage count.

    Raises
    ------
    ValueError
        If ``n_columns`` is negative.
    """
    _check_count("n_columns", n_columns)
    return 3 * n_columns + 1
