"""RBF support vector regression and classification with their parameters selected on a validation set.

:class:`SelectedSVR` is the SVM baseline of MARK (Momma & Bennett, KDD 2002)
Tables 1-3, SVMTorch there and libsvm here; :class:`SelectedSVC` its
classification counterpart. Both choose their parameters by the pattern search
(or a grid) on a held-out validation set (:mod:`mkbench.estimators.validation_search`),
starting from scikit-learn's data-driven defaults: gamma = 1 / (M var(X))
(``gamma="scale"``), C = 3 for SVR (Cherkassky & Ma's rule max|mean(y) +- 3
std(y)| on a standardised y) and C = 1 for SVC, epsilon = 0.1 std(y).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.compose import TransformedTargetRegressor
from sklearn.svm import SVC, SVR

from ..metrics import error_rate, mse
from .validation_search import Params, _scale_gamma, _SelectedRBFModel, _standardised_target

__all__ = ["SelectedSVC", "SelectedSVR"]


class SelectedSVR(RegressorMixin, _SelectedRBFModel):
    """RBF support vector regression with C, epsilon, gamma chosen on a validation set.

    The SVM baseline of MARK (Momma & Bennett, KDD 2002) Tables 1-3, SVMTorch
    there and libsvm here. y is standardised inside, so ``C`` and ``epsilon``
    are in units of y's standard deviation; ``gamma`` multiplies squared
    distances in X. The search starts at C = 3, epsilon = 0.1, gamma = 1 / (M
    var(X)).

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
    param_grid : dict or list of dicts, default=None
        With ``search="grid"``, candidate values of ``C``, ``epsilon``,
        ``gamma``, as for :class:`sklearn.model_selection.ParameterGrid`;
        parameters left out keep their start value. ``None`` takes the start
        times 4^k, k = -2..2, on each axis. Must be ``None`` with
        ``search="pattern"``.
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
        The selected ``C``, ``epsilon``, ``gamma``.
    best_score_ : float
        Their validation mean squared error, on y's scale (lower is better).
    best_estimator_ : TransformedTargetRegressor
        ``SVR(kernel="rbf", **best_params_)`` on standardised y, fitted on
        the whole training set (``refit=True``) or without its validation part.
    search_history_ : list of (dict, float)
        Every candidate and its validation MSE, in evaluation order; the pattern
        search's start comes first.
    search_bounds_ : dict of str to (float, float)
        The range each parameter was searched in: the pattern search's lattice
        (a factor 2^20 either side of its start) or the grid's extremes.
    validation_indices_ : ndarray of int
        Rows of the training set held out for validation, sorted.
    n_support_ : int
        Number of support vectors of ``best_estimator_``.
    storage_ : int
        Numbers stored by the model, ``n_support_ * n_features_in_ + 2``
        (MARK §5.2, :func:`mkbench.metrics.svm_storage`).
    n_features_in_ : int
        Number of input features.

    References
    ----------
    M. Momma and K. P. Bennett. Sparse kernel regression with heterogeneous
    kernel families. KDD 2002, §5.2.

    M. Momma and K. P. Bennett. A pattern search method for model selection of
    support vector regression. SDM 2002.
    """

    _loss = staticmethod(mse)

    def _start_params(self, X: np.ndarray) -> Params:
        return {"C": 3.0, "epsilon": 0.1, "gamma": _scale_gamma(X)}

    def _make_model(self, params: Params) -> TransformedTargetRegressor:
        return _standardised_target(SVR(kernel="rbf", **params))

    def _n_support(self) -> int:
        return int(self.best_estimator_.regressor_.support_.size)


class SelectedSVC(ClassifierMixin, _SelectedRBFModel):
    """RBF support vector classifier with C, gamma chosen on a validation set.

    The classification counterpart of the SVM baseline of MARK (Momma &
    Bennett, KDD 2002) §5.2. The validation split is stratified by class.
    ``gamma`` multiplies squared distances in X. The search starts at C = 1,
    gamma = 1 / (M var(X)).

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
    param_grid : dict or list of dicts, default=None
        With ``search="grid"``, candidate values of ``C``, ``gamma``, as for
        :class:`sklearn.model_selection.ParameterGrid`; parameters left out
        keep their start value. ``None`` takes the start times 4^k, k = -2..2,
        on each axis. Must be ``None`` with ``search="pattern"``.
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
        The selected ``C``, ``gamma``.
    best_score_ : float
        Their validation error rate (lower is better).
    best_estimator_ : SVC
        ``SVC(kernel="rbf", **best_params_)`` fitted on the whole training set
        (``refit=True``) or without its validation part.
    search_history_ : list of (dict, float)
        Every candidate and its validation error rate, in evaluation order; the
        pattern search's start comes first.
    search_bounds_ : dict of str to (float, float)
        The range each parameter was searched in: the pattern search's lattice
        (a factor 2^20 either side of its start) or the grid's extremes.
    validation_indices_ : ndarray of int
        Rows of the training set held out for validation, sorted.
    n_support_ : int
        Number of support vectors of ``best_estimator_``, all classes together
        (where ``SVC.n_support_`` counts them per class).
    storage_ : int
        Numbers stored by the model, ``n_support_ * n_features_in_ + 2``
        (MARK §5.2, :func:`mkbench.metrics.svm_storage`).
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    n_features_in_ : int
        Number of input features.

    References
    ----------
    M. Momma and K. P. Bennett. Sparse kernel regression with heterogeneous
    kernel families. KDD 2002, §5.2.

    M. Momma and K. P. Bennett. A pattern search method for model selection of
    support vector regression. SDM 2002.
    """

    _loss = staticmethod(error_rate)

    def _start_params(self, X: np.ndarray) -> Params:
        return {"C": 1.0, "gamma": _scale_gamma(X)}

    def _make_model(self, params: Params) -> SVC:
        return SVC(kernel="rbf", **params)

    def _n_support(self) -> int:
        return int(self.best_estimator_.support_.size)
