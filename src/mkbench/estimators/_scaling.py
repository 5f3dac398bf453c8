"""The inputs put on one scale before the kernels see them, fitted on the training points (issue 42).

A user's first call passes raw features of any units; kernels of those features
(the linear and quadratic ones, and an RBF of one width for all features) depend
on the units. The estimators that take ``scaling`` fit a per-feature mean and
scale here and apply (X - mean) / scale to every X they see.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SCALINGS", "input_scaling", "target_scaling"]

#: The input scalings: by ranges, per-feature standardisation, centring only, or the inputs as given.
SCALINGS = ("range", "standard", "center", None)


def input_scaling(X: np.ndarray, scaling: str | None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The per-feature mean and scale that put the training inputs X on one scale (None, None: as given).

    * "range": each feature centred and divided by its range (max - min) on X, then every
      feature by the one factor that makes their mean variance 1. Units of each feature
      drop out, as in standardisation, but a feature that is rarely non-zero (a border
      pixel) keeps its small variance instead of being blown up to unit variance, and the
      inputs' overall size is the standardised one (||x||^2 about d, where the quadratic
      kernel's offset 1 has its usual weight);
    * "standard": each feature centred and divided by its standard deviation;
    * "center": each feature centred.

    Constant features keep a scale of 1.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    scaling : {"range", "standard", "center"} or None

    Returns
    -------
    mean, scale : ndarray of shape (n_features,), or None
    """
    if scaling is None:
        return None, None
    mean = X.mean(axis=0)
    if scaling == "center":
        return mean, np.ones(X.shape[1])
    spread = np.ptp(X, axis=0) if scaling == "range" else X.std(axis=0)
    spread[~(spread > 0)] = 1.0
    if scaling == "range":
        factor = np.sqrt(np.mean(((X - mean) / spread) ** 2))
        spread *= factor if factor > 0 else 1.0  # every feature constant: nothing to put on a scale
    return mean, spread


def target_scaling(y: np.ndarray) -> tuple[float, float]:
    """The mean and standard deviation of the training targets (a scale of 1 for a constant target).

    The regressors that take ``scale_target`` fit (y - mean) / scale and report the model in
    the units of y, so that C, epsilon and the penalties mean the same for targets of any scale.

    Raises
    ------
    ValueError
        If the targets' spread overflows (|y| of order 1e154 and beyond).
    """
    mean, scale = float(np.mean(y)), float(np.std(y))
    if not np.isfinite(scale):
        raise ValueError(
            f"the targets' standard deviation overflows (largest |y| = {np.max(np.abs(y)):.3g}); divide y by a "
            "constant before fitting"
        )
    return mean, scale if scale > 0 else 1.0
