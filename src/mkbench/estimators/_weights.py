"""``sample_weight`` in scikit-learn's convention, for the estimators that take it (issue 42).

A weight is how many times a point counts: integer weights fit the model of the rows
repeated that many times, and a weight of 0 the model without the row. The estimators

* validate the weights with scikit-learn's ``_check_sample_weight`` (one finite weight
  >= 0 per row, not all 0; the errors name ``sample_weight``) and drop the rows of weight
  0 before anything else sees them (:func:`present_rows`): a stump's thresholds, a kernel
  width fixed on the data, the range of an input scaling and a validation split would
  otherwise still see those points;
* fit the statistics of their preprocessing as weighted means, the means over the
  repeated rows: the input scaling (:func:`weighted_input_scaling`), gamma = "scale"
  (:func:`mkbench.estimators.validation_search._scale_gamma`) and the target's
  standardisation (:func:`weighted_target_scaling`);
* and weigh each point's loss: a per-sample C in the hinge and epsilon-insensitive losses
  (libsvm's), weighted residuals in the ridge losses, the initial distribution of boosting.

The estimators that cannot weigh their loss refuse ``sample_weight`` with
:func:`refuse_sample_weight`, naming what to use instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils.validation import _check_sample_weight

from ._scaling import input_scaling, target_scaling

__all__ = ["present_rows", "refuse_sample_weight", "weighted_input_scaling", "weighted_target_scaling"]


def present_rows(sample_weight: Any, X: Any) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The checked weights of the rows of positive weight, and those rows' indices.

    Parameters
    ----------
    sample_weight : array-like of shape (n_samples,) or None
    X : array-like or sparse matrix of shape (n_samples, ...)
        What the weights are for (only its number of rows is read).

    Returns
    -------
    weights : ndarray of shape (n_present,) or None
        None without ``sample_weight``.
    rows : ndarray of int or None
        The rows whose weight is > 0, in order; None when every row is (nothing to drop).

    Raises
    ------
    ValueError
        If ``sample_weight`` has the wrong shape, a negative or non-finite entry, or is all 0.
    """
    if sample_weight is None:
        return None, None
    weights = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
    if np.all(weights > 0):
        return weights, None
    rows = np.flatnonzero(weights > 0)
    return weights[rows], rows


def weighted_input_scaling(
    X: np.ndarray, scaling: str | None, weights: np.ndarray | None
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """:func:`mkbench.estimators._scaling.input_scaling` of the rows repeated ``weights`` times.

    The means and variances are weighted means; a range does not depend on positive weights.
    Without weights, ``input_scaling(X, scaling)`` itself.
    """
    if weights is None or scaling is None:
        return input_scaling(X, scaling)
    mean = np.average(X, axis=0, weights=weights)
    if scaling == "center":
        return mean, np.ones(X.shape[1])
    variance = np.average(np.square(X - mean), axis=0, weights=weights)
    scale = np.ptp(X, axis=0) if scaling == "range" else np.sqrt(variance)
    scale[~(scale > 0)] = 1.0
    if scaling == "range":  # then all features by one factor, to a (weighted) mean variance of 1
        overall = float(np.sqrt(np.mean(variance / np.square(scale))))
        scale *= overall if overall > 0 else 1.0
    return mean, scale


def weighted_target_scaling(y: np.ndarray, weights: np.ndarray | None) -> tuple[float, float]:
    """:func:`mkbench.estimators._scaling.target_scaling` of the targets repeated ``weights`` times."""
    unweighted = target_scaling(y)  # raises, naming the overflow, where the targets' spread overflows
    if weights is None:
        return unweighted
    mean = float(np.average(y, weights=weights))
    spread = float(np.sqrt(np.average(np.square(y - mean), weights=weights)))
    return mean, spread if spread > 0 else 1.0


def refuse_sample_weight(estimator: object, fit_params: dict[str, Any], why: str) -> None:
    """Raise TypeError for keyword arguments ``fit`` does not take; for ``sample_weight``, say why and what to use.

    The estimators that cannot weigh their loss take ``**fit_params`` instead of a
    ``sample_weight`` parameter (so scikit-learn's checks do not take them for weighted
    estimators) and call this with them.
    """
    name = type(estimator).__name__
    if "sample_weight" in fit_params:
        raise TypeError(f"{name}.fit does not take sample_weight: {why}")
    if fit_params:
        raise TypeError(f"{name}.fit() got unexpected keyword argument(s) {', '.join(map(repr, fit_params))}")
