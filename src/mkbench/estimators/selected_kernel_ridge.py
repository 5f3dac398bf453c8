"""scikit-learn's kernel ridge regression with its alpha and gamma selected on a validation set.

A comparison row beside MARK's KRR baseline (:mod:`mkbench.estimators.kernel_ridge`,
which compares the two definitions of kernel ridge regression).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import RegressorMixin
from sklearn.compose import TransformedTargetRegressor
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics import mean_squared_error

from ..metrics import mse
from ._rbf_inputs import _scale_gamma, _standardised_target
from .pattern_search import Params
from .validation_search import _SelectedRBFModel

__all__ = ["SelectedKernelRidge"]


class SelectedKernelRidge(RegressorMixin, _SelectedRBFModel):
    """RBF kernel ridge regression with alpha, gamma chosen on a validation set.

    scikit-learn's kernel ridge regression, penalising alpha'K alpha: a
    comparison row beside the KRR baseline of MARK (Momma & Bennett, KDD 2002)
    Tables 1-3, which is :class:`SelectedKernelColumnRidge` (eq. 8, penalising
    alpha'alpha + b^2). y is standardised inside, which centres it
    (scikit-learn's KRR has no offset) and makes ``alpha`` scale-free;
    ``gamma`` multiplies squared distances in the scaled inputs (``scaling``).
    The search starts at alpha = 1, gamma = 1 / (M var(X)).

    Parameters
    ----------
    search : {"pattern", "grid"}, default="pattern"
        Compass search in log2 space (the paper's Pattern Search) or an
        exhaustive search of ``param_grid``.
    validation_fraction : float in (0, 1), default=0.2
        Fraction of the training set held out to score the candidates (MARK
        §5.2 holds out 20%).
    max_evals : int >= 1, default=50
        Largest number of candidates the pattern search fits; the grid search
        fits every grid point.
    min_improvement : float in [0, 1), default=0.01
        Sufficient decrease of the pattern search: it moves only to a point
        whose validation loss is below (1 - ``min_improvement``) times the
        current one; 0 moves on any decrease (the paper's rule).
    min_step : float in (0, 2], default=1.0
        The pattern search stops once its step, in log2 units, falls below
        ``min_step``: 1 is a factor 2, the paper's 0.25 a factor 2^(1/4).
    param_grid : dict or list of dicts, default=None
        With ``search="grid"``, candidate values of ``alpha``, ``gamma``, as
        for :class:`sklearn.model_selection.ParameterGrid`; parameters left out
        keep their start value. ``None`` takes the start times 4^k, k = -2..2,
        on each axis. Must be ``None`` with ``search="pattern"``.
    scaling : {"range", "standard", "center"} or None, default="range"
        How the inputs are put on one scale before the kernel sees them,
        fitted on the training set (``input_mean_``, ``input_scale_``; see
        :func:`mkbench.estimators._scaling.input_scaling`): by ranges, then to
        unit mean variance; standardised; centred; or as given (None, the
        paper's protocol, whose inputs the workflow standardises).
    random_state : int, RandomState instance or None, default=None
        Seeds the validation split.
    n_jobs : int, default=None
        Number of candidates fitted in parallel (joblib); ``None`` means 1.
    refit : bool, default=True
        Refit the selected parameters on the whole training set; ``False``
        keeps the model fitted on the training set without its validation part.

    Attributes
    ----------
    best_params_ : dict of str to float
        The selected ``alpha``, ``gamma``.
    best_score_ : float
        Their validation mean squared error, on y's scale (lower is better).
    best_estimator_ : TransformedTargetRegressor
        ``KernelRidge(kernel="rbf", **best_params_)`` on standardised y,
        fitted on the scaled inputs of the whole training set (``refit=True``)
        or without its validation part.
    search_history_ : list of (dict, float)
        Every candidate and its validation MSE, in evaluation order; the pattern
        search's start comes first.
    search_bounds_ : dict of str to (float, float)
        The range each parameter was searched in: the pattern search's lattice
        (a factor 2^20 either side of its start) or the grid's extremes.
    validation_indices_ : ndarray of int
        Rows of the training set held out for validation, sorted.
    n_support_ : int
        Number of points ``best_estimator_`` was fitted on: KRR is not sparse,
        and MARK §5.2 counts every one as a support vector.
    storage_ : int
        Numbers stored by the model, ``n_support_ * n_features_in_ + 2``
        (MARK §5.2, :func:`mkbench.metrics.svm_storage`).
    input_mean_, input_scale_ : ndarray of shape (n_features,) or None
        The fitted scaling: the kernel sees (X - ``input_mean_``) /
        ``input_scale_``; None with ``scaling=None``.
    n_features_in_ : int
        Number of input features.

    References
    ----------
    M. Momma and K. P. Bennett. Sparse kernel regression with heterogeneous
    kernel families. KDD 2002, §5.2.

    M. Momma and K. P. Bennett. A pattern search method for model selection of
    support vector regression. SDM 2002.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import SelectedKernelRidge
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> reg = SelectedKernelRidge(random_state=0).fit(X_train, y_train)
    >>> sorted(reg.best_params_), reg.score(X_test, y_test) > 0.3
    (['alpha', 'gamma'], True)
    """

    _loss = staticmethod(mse)
    _weighted_loss = staticmethod(mean_squared_error)

    def _start_params(self, X: np.ndarray, weights: np.ndarray | None = None) -> Params:
        return {"alpha": 1.0, "gamma": _scale_gamma(X, weights)}

    def _make_model(self, params: Params) -> TransformedTargetRegressor:
        return _standardised_target(KernelRidge(kernel="rbf", **params))

    def _n_support(self) -> int:
        return int(self.best_estimator_.regressor_.dual_coef_.shape[0])
