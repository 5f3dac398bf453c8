"""What the estimators of one RBF kernel on scaled inputs share (:mod:`mkbench.estimators.validation_search`).

The inputs, dense or sparse, and their scaling (:class:`_ScaledInputs`); scikit-learn's
``gamma="scale"`` (:func:`_scale_gamma`); the standardised target of the regressors
(:func:`_standardised_target`); and their fits with ``sample_weight`` (:func:`_fit_weighted`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, is_classifier
from sklearn.compose import TransformedTargetRegressor
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.utils.validation import validate_data

from ._weights import weighted_input_scaling, weighted_target_scaling


def _fit_weighted(model: BaseEstimator, X: Any, y: np.ndarray, weights: np.ndarray | None) -> BaseEstimator:
    """``model.fit(X, y, sample_weight=weights)``; a standardised target by its weighted mean and deviation.

    scikit-learn's ``TransformedTargetRegressor`` fits its ``StandardScaler`` to y unweighted;
    with weights, y is standardised by the moments of the repeated rows instead
    (:func:`mkbench.estimators._weights.weighted_target_scaling`), as a fixed affine map.
    """
    if weights is None:
        return model.fit(X, y)
    if isinstance(model, TransformedTargetRegressor):
        moments = dict(zip(("mean", "scale"), weighted_target_scaling(y, weights), strict=True))
        model.set_params(
            transformer=FunctionTransformer(
                _standardise, inverse_func=_unstandardise, kw_args=moments, inv_kw_args=moments
            )
        )
    return model.fit(X, y, sample_weight=weights)


def _standardise(y: np.ndarray, mean: float, scale: float) -> np.ndarray:
    return (y - mean) / scale


def _unstandardise(z: np.ndarray, mean: float, scale: float) -> np.ndarray:
    return z * scale + mean


class _ScaledInputs:
    """What the single-RBF-kernel estimators share: inputs (dense or sparse) scaled as ``scaling`` says."""

    scaling: str | None
    input_mean_: np.ndarray | None
    input_scale_: np.ndarray | None

    def _check_inputs(self, X: Any, y: Any = "no_validation", *, reset: bool) -> Any:
        """``validate_data`` accepting CSR matrices, which only an uncentred model (``scaling=None``) takes.

        Returns X, or (X, y) when y is given (None: the error that y is required).
        """
        targets = {} if isinstance(y, str) and y == "no_validation" else {"y_numeric": not is_classifier(self)}
        checked = validate_data(self, X, y, reset=reset, dtype=np.float64, accept_sparse="csr", **targets)
        centred = self.scaling is not None if reset else self.input_mean_ is not None
        if sp.issparse(checked[0] if targets else checked) and centred:
            raise TypeError(
                f"{type(self).__name__} with scaling={self.scaling!r} centres the features, which would make a "
                "sparse X dense: pass scaling=None (scale sparse features beforehand without centring them, e.g. by "
                "sklearn.preprocessing.MaxAbsScaler) or a dense X (X.toarray())"
            )
        return checked

    def _fit_scaling(self, X: Any, weights: np.ndarray | None) -> Any:
        """Fit the input scaling on the training X (weighted) and return X as the kernel sees it."""
        self.input_mean_, self.input_scale_ = weighted_input_scaling(X, self.scaling, weights)
        return self._scaled(X)

    def _scaled(self, X: Any) -> Any:
        """X as the kernel sees it: (X - ``input_mean_``) / ``input_scale_``, or X itself (``scaling=None``)."""
        return X if self.input_mean_ is None else (X - self.input_mean_) / self.input_scale_


def _scale_gamma(X: Any, sample_weight: np.ndarray | None = None) -> float:
    """scikit-learn's ``gamma="scale"``: 1 / (n_features * X.var()), or 1 if X is constant.

    X.var() is the variance of all of X's entries; with ``sample_weight``, of the rows
    repeated that many times. A sparse X is not centred: its variance is E[x^2] - E[x]^2,
    as scikit-learn's SVC takes it.
    """
    if sample_weight is None and not sp.issparse(X):
        variance = float(X.var())
    elif sp.issparse(X):
        row_means = np.asarray(X.mean(axis=1)).ravel()
        row_squares = np.asarray(X.multiply(X).mean(axis=1)).ravel()
        variance = float(
            np.average(row_squares, weights=sample_weight) - np.average(row_means, weights=sample_weight) ** 2
        )
    else:
        centred = X - np.average(X.mean(axis=1), weights=sample_weight)
        variance = float(np.average(np.square(centred).mean(axis=1), weights=sample_weight))
    return 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0


def _standardised_target(regressor: BaseEstimator) -> TransformedTargetRegressor:
    """``regressor`` fitted on (y - mean) / std, predicting on y's scale."""
    return TransformedTargetRegressor(regressor=regressor, transformer=StandardScaler())
