"""Kernel ridge regression, MARK's (eq. 8-10) and scikit-learn's, with their parameters selected on a validation set.

The KRR baseline of MARK (Bennett, Momma & Embrechts, KDD 2002) Tables 1-3 and
a comparison row beside it. Both choose their parameters by the pattern search
(or a grid) on a held-out validation set (:mod:`mkbench.estimators.validation_search`),
starting from alpha = 1 (``KernelRidge``) or C = 1 (eq. 8) and scikit-learn's
gamma = 1 / (M var(X)) (``gamma="scale"``, on the scaled inputs). Their defaults
serve raw features and targets of any scale (issue 42: inputs scaled by ranges,
eq. 8 fitted to standardised targets, a coarser search); the paper's protocol
pins the paper's settings (see :mod:`mkbench.estimators.validation_search`).

Kernel ridge regression: two definitions
----------------------------------------
MARK eq. (8) writes KRR as ridge regression on the kernel columns with an
offset, penalising alpha'alpha + b^2, solved by the linear system eq. (9):
:class:`KernelColumnRidge`, selected by :class:`SelectedKernelColumnRidge`.
scikit-learn's ``KernelRidge`` penalises the RKHS norm alpha'K alpha and has no
offset: :class:`SelectedKernelRidge`. Both are "kernel ridge regression" in
the literature; on the spectrum of K, eq. (8) shrinks the component of
eigenvalue lambda by lambda^2 / (lambda^2 + C) where ``KernelRidge`` shrinks
it by lambda / (lambda + alpha), so C plays the part of alpha^2.
:class:`SelectedKernelRidge` lives in :mod:`mkbench.estimators.selected_kernel_ridge`.

All three take ``sample_weight`` (weighted residuals; for eq. 8 the penalty of the
repeated rows too, see :class:`KernelColumnRidge`) and a scipy sparse X with
``scaling=None`` (see :mod:`mkbench.estimators.selected_svm`).
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Real
from typing import Any

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from sklearn.base import BaseEstimator, RegressorMixin, _fit_context
from sklearn.metrics import mean_squared_error
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from ..exceptions import SolverError
from ..metrics import mse
from ._rbf_inputs import _scale_gamma, _ScaledInputs
from ._scaling import SCALINGS
from ._weights import present_rows, weighted_target_scaling
from .pattern_search import Params
from .selected_kernel_ridge import SelectedKernelRidge
from .validation_search import MIN_IMPROVEMENT, MIN_STEP, _SelectedRBFModel

__all__ = ["KernelColumnRidge", "SelectedKernelColumnRidge", "SelectedKernelRidge"]


class KernelColumnRidge(_ScaledInputs, RegressorMixin, BaseEstimator):
    """Kernel ridge regression of MARK eq. (8)-(10): ridge on the RBF kernel columns with an offset.

    Minimises, over alpha in R^N and b (Momma & Bennett, KDD 2002, eq. 8),

        H(alpha, b) = C/2 (alpha'alpha + b^2) + 1/2 ||y - K alpha - b e||^2,

    with K_ij = exp(-gamma ||x_i - x_j||^2) on the N training points and e a
    vector of ones, by solving the normal equations (eq. 9)

        [G'G + C I] [alpha; b] = G'y,   G = [K e],

    with a Cholesky factorisation (:func:`scipy.linalg.cho_factor`); the model
    is f(x) = sum_i alpha_i K(x, x_i) + b (eq. 10). Unlike scikit-learn's
    ``KernelRidge`` it penalises alpha'alpha (not alpha'K alpha) and fits a
    penalised offset b. It is ridge regression (``sklearn.linear_model.Ridge``
    with ``fit_intercept=False``) on the features G.

    By default (issue 42) the inputs are scaled by ranges (``scaling``) and eq.
    (8) is fitted to the standardised targets (y - mean(y)) / std(y), the model
    reported in y's units: eq. (8) is homogeneous in y, but its penalised b is
    not invariant to a shift of y. The paper's protocol fits y as given
    (``scale_target=False``) on inputs the workflow standardised
    (``scaling=None``).

    With ``sample_weight`` w (scikit-learn's convention: integer weights fit the rows
    repeated), eq. (8) is the one of the repeated rows: the residuals are weighted,
    1/2 sum_i w_i (y_i - f(x_i))^2, and, since a point repeated w_j times brings w_j
    identical kernel columns whose weights share alpha_j at least cost, the penalty is
    C/2 (sum_j alpha_j^2 / w_j + b^2): the normal equations are

        [G'WG + C diag(1/w, 1)] [alpha; b] = G'W y.

    The scalings (inputs, target, gamma="scale") are those of the repeated rows too.
    X may be a scipy sparse matrix with ``scaling=None`` (the other scalings centre it).

    Parameters
    ----------
    C : float > 0, default=1.0
        Ridge parameter of eq. (8). The paper allows C = 0, which leaves G'G
        singular whenever K is; it is refused.
    gamma : float > 0 or "scale", default="scale"
        Width of the RBF kernel, multiplying squared distances in the scaled
        inputs (as in scikit-learn's SVR and KernelRidge); "scale" takes 1 /
        (n_features X.var()) on them, the start of the selection in
        :class:`SelectedKernelColumnRidge`.
    scaling : {"range", "standard", "center"} or None, default="range"
        How the inputs are put on one scale before the kernel sees them,
        fitted on the training set (``input_mean_``, ``input_scale_``; see
        :func:`mkbench.estimators._scaling.input_scaling`); None: as given.
    scale_target : bool, default=True
        Solve eq. (9) for (y - ``y_mean_``) / ``y_scale_`` and report alpha
        and b in y's units; False: for y as given (the paper's).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,)
        alpha of eq. (10) in y's units, one weight per training point (kernel
        column): ``y_scale_`` times the solution of eq. (9).
    intercept_ : float
        The offset b of eq. (10) in y's units: ``y_scale_`` b + ``y_mean_``.
    gamma_ : float
        The kernel width used.
    X_fit_ : ndarray of shape (n_samples, n_features)
        The scaled training points, centres of the kernel columns.
    input_mean_, input_scale_ : ndarray of shape (n_features,) or None
        The fitted scaling: the kernel sees (X - ``input_mean_``) /
        ``input_scale_``; None with ``scaling=None``.
    y_mean_, y_scale_ : float
        The targets' mean and standard deviation (0 and 1 with
        ``scale_target=False``).
    n_features_in_ : int
        Number of input features.

    Raises
    ------
    SolverError
        From ``fit``, if G'G + C I is not numerically positive definite
        (C far too small for the scale of G'G).

    References
    ----------
    K. P. Bennett, M. Momma and M. J. Embrechts. MARK: a boosting algorithm
    for heterogeneous kernel models. KDD 2002, §3, eq. (8)-(10).

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import KernelColumnRidge
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> reg = KernelColumnRidge(C=1.0, gamma="scale").fit(X_train, y_train)
    >>> reg.dual_coef_.shape, round(reg.gamma_, 6)  # gamma: 1 / n_features
    ((331,), 0.1)
    >>> reg.score(X_test, y_test) > 0.25
    True
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "gamma": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
        "scaling": [StrOptions({name for name in SCALINGS if name is not None}), None],
        "scale_target": ["boolean"],
    }

    def __init__(
        self, C: float = 1.0, gamma: float | str = "scale", scaling: str | None = "range", scale_target: bool = True
    ) -> None:
        self.C = C
        self.gamma = gamma
        self.scaling = scaling
        self.scale_target = scale_target

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> KernelColumnRidge:
        """Solve eq. (9) for alpha and b.

        One BLAS thread (see :mod:`mkbench.estimators.validation_search`).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training inputs (sparse only with ``scaling=None``).
        y : array-like of shape (n_samples,)
            Training targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights >= 0 of the residuals (see the class); rows of weight 0 are dropped.

        Returns
        -------
        self
            The fitted estimator.
        """
        X, y = self._check_inputs(X, y, reset=True)
        y = y.astype(np.float64)  # "could not convert string to float" for string targets
        weights, rows = present_rows(sample_weight, X)
        if rows is not None:
            X, y = X[rows], y[rows]
        X = self._fit_scaling(X, weights)
        self.y_mean_, self.y_scale_ = weighted_target_scaling(y, weights) if self.scale_target else (0.0, 1.0)
        target = (y - self.y_mean_) / self.y_scale_
        self.gamma_ = _scale_gamma(X, weights) if self.gamma == "scale" else float(self.gamma)
        with threadpool_limits(limits=1, user_api="blas"):
            G = np.column_stack([rbf_kernel(X, gamma=self.gamma_), np.ones(X.shape[0])])
            if weights is None:
                normal, rhs = G.T @ G, G.T @ target
                normal.flat[:: normal.shape[0] + 1] += self.C  # G'G + C I
            else:
                weighted = G * weights[:, None]  # W G
                normal, rhs = G.T @ weighted, weighted.T @ target
                normal.flat[:: normal.shape[0] + 1] += self.C * np.append(1.0 / weights, 1.0)  # G'WG + C diag(1/w, 1)
            try:
                factor = cho_factor(normal, check_finite=False)
            except LinAlgError:
                raise SolverError(
                    f"G'G + C I of eq. 9 is not numerically positive definite for C={self.C!r}, "
                    f"gamma={self.gamma_!r} and {X.shape[0]} points; use a larger C"
                ) from None
            theta = cho_solve(factor, rhs, check_finite=False)
        # f(x) = y_scale (K(x, X) alpha + b) + y_mean: the model in the units of y
        self.dual_coef_, self.intercept_ = self.y_scale_ * theta[:-1], float(self.y_scale_ * theta[-1] + self.y_mean_)
        self.X_fit_ = X
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Evaluate eq. (10), f(x) = sum_i alpha_i exp(-gamma ||x - x_i||^2) + b.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted targets.
        """
        check_is_fitted(self)
        X = self._scaled(self._check_inputs(X, reset=False))
        return rbf_kernel(X, self.X_fit_, gamma=self.gamma_) @ self.dual_coef_ + self.intercept_


class SelectedKernelColumnRidge(RegressorMixin, _SelectedRBFModel):
    """MARK's kernel ridge regression (eq. 8-10) with C, gamma chosen on a validation set.

    The KRR baseline of MARK (Bennett, Momma & Embrechts, KDD 2002) Tables 1-3:
    :class:`KernelColumnRidge` (ridge on the RBF kernel columns, penalised
    offset, solved by eq. 9), its C and gamma chosen by the pattern search on a
    validation split. The paper's Table 2 counts 364 = 0.8 x 455 "support
    vectors" on Boston: its KRR is the model fitted on the training fold
    without its validation part, ``refit=False`` here. y is standardised
    inside by default (``scale_target``), as given in the paper's protocol
    (eq. 8 is homogeneous in y, so C is scale-free either way); ``gamma``
    multiplies squared distances in the scaled inputs (``scaling``). The
    search starts at C = 1, gamma = 1 / (M var(X)).

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
        With ``search="grid"``, candidate values of ``C``, ``gamma``, as for
        :class:`sklearn.model_selection.ParameterGrid`; parameters left out
        keep their start value. ``None`` takes the start times 4^k, k = -2..2,
        on each axis. Must be ``None`` with ``search="pattern"``.
    scaling : {"range", "standard", "center"} or None, default="range"
        How the inputs are put on one scale before the kernel sees them,
        fitted on the training set (``input_mean_``, ``input_scale_``; see
        :func:`mkbench.estimators._scaling.input_scaling`): by ranges, then to
        unit mean variance; standardised; centred; or as given (None, the
        paper's protocol, whose inputs the workflow standardises).
    scale_target : bool, default=True
        Fit eq. (8) to the standardised targets and report the model in y's
        units (:class:`KernelColumnRidge`); False: y as given, the paper's
        protocol.
    random_state : int, RandomState instance or None, default=None
        Seeds the validation split.
    n_jobs : int, default=None
        Number of candidates fitted in parallel (joblib); ``None`` means 1.
    refit : bool, default=True
        Refit the selected parameters on the whole training set; ``False``
        keeps the model fitted on the training set without its validation part
        (the paper's protocol, see above).

    Attributes
    ----------
    best_params_ : dict of str to float
        The selected ``C``, ``gamma``.
    best_score_ : float
        Their validation mean squared error (lower is better).
    best_estimator_ : KernelColumnRidge
        ``KernelColumnRidge(**best_params_, scaling=None, scale_target=scale_target)``
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
    K. P. Bennett, M. Momma and M. J. Embrechts. MARK: a boosting algorithm
    for heterogeneous kernel models. KDD 2002, §3 eq. (8)-(10), §5.2.

    M. Momma and K. P. Bennett. A pattern search method for model selection of
    support vector regression. SDM 2002.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import SelectedKernelColumnRidge
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> reg = SelectedKernelColumnRidge(random_state=0).fit(X_train, y_train)
    >>> sorted(reg.best_params_), reg.score(X_test, y_test) > 0.3
    (['C', 'gamma'], True)

    The paper's protocol keeps the model fitted without the validation points:

    >>> paper = SelectedKernelColumnRidge(refit=False, random_state=0)
    >>> paper = paper.fit(X_train, y_train)
    >>> paper.n_support_ == len(X_train) - len(paper.validation_indices_)
    True
    """

    _loss = staticmethod(mse)
    _weighted_loss = staticmethod(mean_squared_error)

    def _start_params(self, X: np.ndarray, weights: np.ndarray | None = None) -> Params:
        return {"C": 1.0, "gamma": _scale_gamma(X, weights)}

    _parameter_constraints: dict = {**_SelectedRBFModel._parameter_constraints, "scale_target": ["boolean"]}

    def __init__(
        self,
        search: str = "pattern",
        validation_fraction: float = 0.2,
        max_evals: int = 50,
        min_improvement: float = MIN_IMPROVEMENT,
        min_step: float = MIN_STEP,
        param_grid: dict[str, Sequence[float]] | list[dict[str, Sequence[float]]] | None = None,
        scaling: str | None = "range",
        scale_target: bool = True,
        random_state: int | np.random.RandomState | None = None,
        n_jobs: int | None = None,
        refit: bool = True,
    ) -> None:
        super().__init__(
            search=search,
            validation_fraction=validation_fraction,
            max_evals=max_evals,
            min_improvement=min_improvement,
            min_step=min_step,
            param_grid=param_grid,
            scaling=scaling,
            random_state=random_state,
            n_jobs=n_jobs,
            refit=refit,
        )
        self.scale_target = scale_target

    def _make_model(self, params: Params) -> KernelColumnRidge:
        return KernelColumnRidge(**params, scaling=None, scale_target=self.scale_target)

    def _n_support(self) -> int:
        return int(self.best_estimator_.X_fit_.shape[0])
