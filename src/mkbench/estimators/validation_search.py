"""Parameters of a single-RBF-kernel baseline selected on a validation set: the search and the shared estimator.

Momma & Bennett, "Sparse kernel regression with heterogeneous kernel families"
(MARK), KDD 2002, §5.2 compare MARK with an RBF support vector regression
(SVMTorch) and kernel ridge regression (KRR): "model and kernel parameters
selection is automatically done by Pattern Search using a validation set for
each of the 10 folds; the size of validation set is set to 20% of the training
set". The estimators built on :class:`_SelectedRBFModel` do that
(:mod:`mkbench.estimators.selected_svm`, :mod:`mkbench.estimators.kernel_ridge`):
hold out ``validation_fraction`` of the training set, choose the parameters with
the smallest validation error, then refit them on the whole training set
(``refit=True``) or keep the model fitted on the rest of the training set at the
chosen parameters (``refit=False``, the paper's KRR: its 364 "support vectors" on
Boston are 0.8 x 455, the training fold without its validation part).

Search
------
``search="pattern"`` is the compass search of Momma & Bennett, "A pattern
search method for model selection of support vector regression", SDM 2002, in
log2 space: poll the 2d points one step up and down each parameter axis,
move to the best poll point if it lowers the validation error by more than the
fraction ``min_improvement`` (0: any decrease, the paper's rule), otherwise halve
the step; stop when the step falls below ``min_step`` (the paper's 1/4, a factor
2^(1/4)) or after ``max_evals`` fits. The first step is 2 (a factor 4), and the
search stays within a factor 2^20 of its start; ``search_bounds_`` records that
range (or the grid's) so that a choice at its edge is flagged in the tables.
``search="grid"`` tries every point of ``param_grid``, by default the start times
4^k, k = -2..2, on each axis.

Both start from scikit-learn's data-driven defaults: gamma = 1 / (M var(X))
(``gamma="scale"``, on the scaled inputs), C = 3 for SVR (Cherkassky & Ma's rule
max|mean(y) +- 3 std(y)| on a standardised y) and C = 1 for SVC, epsilon = 0.1
std(y), alpha = 1.

Defaults for users' data (issue 42)
-----------------------------------
A user's first call passes raw features of any units, so the defaults differ from
the paper's protocol (which the workflow config pins: ``scaling=None``,
``min_improvement=0``, ``min_step=0.25``, SVR's ``epsilon="search"``; eq. 8's
``scale_target=False``). Measured with ``benchmarks/defaults.py``'s panel (70/30
splits, seeds 0-2, 2 shared cores at load 5-12):

* ``scaling="range"`` (:func:`mkbench.estimators._scaling.input_scaling`): the
  inputs centred, divided by their ranges and brought to unit mean variance,
  fitted on the training set; the kernel then does not depend on each feature's
  units. SelectedSVC's test accuracy on wine rose from 0.59-0.70 (inputs as
  given; SVC()'s 0.59-0.65) to 0.98-1.0, on breast cancer from 0.91-0.92 to
  0.95-0.97; against ``"standard"`` it was as good or better on digits
  (0.98-0.99 against 0.97-0.98) and ``make_classification(2000, 50)``
  (0.982-0.988 against 0.978-0.983), and the regressors were alike.
* ``min_improvement=0.01`` and ``min_step=1`` (a factor 2): the validation MSE of
  a few hundred points does not tell apart parameters a factor 2^(1/4) apart, nor
  losses within 1 %. Selecting SVR on Friedman #1 (n = 1400) took 7.9-15.4 CPU s
  with the paper's rule and 3.1-3.2 s with these, for a test MSE of 0.24-0.27
  against 0.20-0.23 (SVR()'s: 2.3-2.6); diabetes was within the selection's noise.
* One BLAS thread per candidate fit: the candidates' kernel matrices (a thousand
  or so rows) gain little from BLAS threads, and OpenBLAS's threads wait on
  each other when the cores are shared: SelectedKernelRidge on diabetes took
  9.8 s with two threads at load 9 on 2 cores, 0.3 s with one.

Target scaling
--------------
SVR and ``KernelRidge`` standardise y inside (scikit-learn's
``TransformedTargetRegressor`` with a ``StandardScaler``) and predict on the
original scale, so ``C``, ``epsilon`` and ``alpha`` are in units of y's
standard deviation and one start point and grid fit every data set. For SVR
this is the paper's model class: SVR(C, epsilon) on y / s equals
SVR(C s, epsilon s) on y, up to the solver's tolerance. For ``KernelRidge``,
which has no offset, centring y stands in for the threshold b of MARK eq. (10),
fixed at mean(y) rather than fitted with a penalty as in eq. (8).
:class:`mkbench.estimators.kernel_ridge.KernelColumnRidge` standardises y too by
default (``scale_target=True``): eq. (8) is homogeneous in y (scaling y scales
alpha and b), but its penalised b is not invariant to a shift of y: the penalty
pulls the fit towards 0, and the kernel columns take up what b cannot (fitted
to 120 raw diabetes rows, y + 1e5 moved the predictions by up to 2e4, against
1e-11 standardised). With ``scale_target=False`` it fits eq. (8) to y as given,
its penalised b as in the paper.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, _fit_context, is_classifier
from sklearn.model_selection import ParameterGrid, train_test_split
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from ..exceptions import ConfigError
from ..metrics import svm_storage
from ._rbf_inputs import _fit_weighted, _ScaledInputs
from ._scaling import SCALINGS
from ._weights import present_rows
from .pattern_search import _LATTICE, _RADIUS, Params, _pattern_search

_GRID_POWERS_OF_4 = (-2, -1, 0, 1, 2)
#: Default sufficient decrease of the pattern search (``min_improvement``): a move must lower the validation
#: loss by more than this fraction.
MIN_IMPROVEMENT = 0.01
#: Default smallest step of the pattern search (``min_step``), in log2 units: a factor 2.
MIN_STEP = 1.0


def _validation_loss(
    model: BaseEstimator,
    loss: Callable[..., float],
    X_train: np.ndarray,
    y_train: np.ndarray,
    X_val: np.ndarray,
    y_val: np.ndarray,
    weights: tuple[np.ndarray, np.ndarray] | None = None,
) -> float:
    """Fit ``model`` on the training part and return its loss on the validation part.

    ``weights``: the training and validation parts' sample weights (None: unweighted), for
    the fit and for the loss (``loss(y_val, y_pred, sample_weight=...)``).
    """
    if weights is None:
        return loss(y_val, model.fit(X_train, y_train).predict(X_val))
    fitted = _fit_weighted(model, X_train, y_train, weights[0])
    return loss(y_val, fitted.predict(X_val), sample_weight=weights[1])


class _SelectedRBFModel(_ScaledInputs, BaseEstimator, metaclass=ABCMeta):
    """Shared machinery: hold out a validation set, search, refit on everything (``refit``).

    Subclasses name the start point, the model and how to count its support vectors.
    """

    _parameter_constraints: dict = {
        "search": [StrOptions({"pattern", "grid"})],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "max_evals": [Interval(Integral, 1, None, closed="left")],
        "min_improvement": [Interval(Real, 0, 1, closed="left")],
        "min_step": [Interval(Real, 0, 2, closed="right")],
        "param_grid": [dict, list, None],
        "scaling": [StrOptions({name for name in SCALINGS if name is not None}), None],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
        "refit": ["boolean"],
    }

    def __init__(
        self,
        search: str = "pattern",
        validation_fraction: float = 0.2,
        max_evals: int = 50,
        min_improvement: float = MIN_IMPROVEMENT,
        min_step: float = MIN_STEP,
        param_grid: dict[str, Sequence[float]] | list[dict[str, Sequence[float]]] | None = None,
        scaling: str | None = "range",
        random_state: int | np.random.RandomState | None = None,
        n_jobs: int | None = None,
        refit: bool = True,
    ) -> None:
        self.search = search
        self.validation_fraction = validation_fraction
        self.max_evals = max_evals
        self.min_improvement = min_improvement
        self.min_step = min_step
        self.param_grid = param_grid
        self.scaling = scaling
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.refit = refit

    def _strata(self, y: np.ndarray) -> np.ndarray | None:
        """What the validation split is stratified by: nothing for a regressor."""
        return None

    @staticmethod
    @abstractmethod
    def _loss(y_true: np.ndarray, y_pred: np.ndarray) -> float:
        """Validation loss, lower is better."""

    @staticmethod
    @abstractmethod
    def _weighted_loss(y_true: np.ndarray, y_pred: np.ndarray, sample_weight: np.ndarray) -> float:
        """The same loss weighted (``sample_weight=``), for weighted fits."""

    @abstractmethod
    def _start_params(self, X: np.ndarray, weights: np.ndarray | None = None) -> Params:
        """Start point of the search (and centre of the default grid); ``weights``: the sample weights."""

    @abstractmethod
    def _make_model(self, params: Params) -> BaseEstimator:
        """An unfitted model with ``params``."""

    @abstractmethod
    def _n_support(self) -> int:
        """Number of support vectors of ``best_estimator_``."""

    def _grid(self, start: Params) -> list[Params]:
        """Points of ``param_grid`` (default: around ``start``), completed by ``start``."""
        grid = self.param_grid
        if grid is None:
            grid = {name: [v * 4.0**k for k in _GRID_POWERS_OF_4] for name, v in start.items()}
        points = [{**start, **point} for point in ParameterGrid(grid)]
        unknown = sorted({name for point in points for name in point} - set(start))
        if unknown:
            raise ConfigError(
                f"param_grid of {type(self).__name__} has unknown parameter(s) "
                f"{', '.join(unknown)}; searched parameters: {', '.join(start)}"
            )
        return points

    def _evaluator(
        self,
        X_train: np.ndarray,
        y_train: np.ndarray,
        X_val: np.ndarray,
        y_val: np.ndarray,
        weights: tuple[np.ndarray, np.ndarray] | None,
    ) -> Callable[[list[Params]], list[float]]:
        """A function scoring a batch of parameter dicts, ``n_jobs`` fits at a time."""
        loss = self._loss if weights is None else self._weighted_loss

        def evaluate(candidates: list[Params]) -> list[float]:
            return Parallel(n_jobs=self.n_jobs)(
                delayed(_validation_loss)(self._make_model(params), loss, X_train, y_train, X_val, y_val, weights)
                for params in candidates
            )

        return evaluate

    def _finish(self, X: Any, y: np.ndarray, weights: np.ndarray | None) -> None:
        """What a subclass does last, given the scaled inputs of ``fit`` (nothing by default)."""

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> _SelectedRBFModel:
        """Select the parameters on a validation split, then refit on all of ``X`` (or not).

        With ``refit=False`` the final model is the one fitted at the selected
        parameters on ``X`` without its validation rows.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training inputs; a sparse matrix only with ``scaling=None`` (the others centre X).
        y : array-like of shape (n_samples,)
            Training targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights >= 0 of the points (scikit-learn's convention; rows of weight 0 are
            dropped first): they weigh the input scaling and gamma's start (as the rows
            repeated would), every candidate's fit (SVC / SVR: a per-sample C; kernel
            ridge: weighted residuals) and its validation loss (the weighted error rate or
            MSE), and the refit. The validation split is drawn over the distinct rows, so
            integer weights give the model of repeated rows only where the split does not
            matter (one candidate).

        Returns
        -------
        self
            The fitted estimator.

        Raises
        ------
        ConfigError
            If ``param_grid`` is given with ``search="pattern"``, or names a
            parameter that is not searched.
        """
        if self.search == "pattern" and self.param_grid is not None:
            raise ConfigError(
                f"param_grid is only used by search='grid'; got search='pattern' and param_grid={self.param_grid!r}"
            )
        classifier = is_classifier(self)
        X, y = self._check_inputs(X, y, reset=True)
        if classifier:
            check_classification_targets(y)
        weights, rows = present_rows(sample_weight, X)
        if rows is not None:
            X, y = X[rows], y[rows]
        X = self._fit_scaling(X, weights)
        train, validation = train_test_split(
            np.arange(X.shape[0]),
            test_size=self.validation_fraction,
            random_state=self.random_state,
            stratify=self._strata(y),
        )
        split_weights = None if weights is None else (weights[train], weights[validation])
        evaluate = self._evaluator(X[train], y[train], X[validation], y[validation], split_weights)
        start = self._start_params(X, weights)
        # The candidates' kernel matrices (n up to a few thousand) gain little from BLAS threads and lose
        # much when the cores are shared (see the module's notes): one thread per fit.
        with threadpool_limits(limits=1, user_api="blas"):
            if self.search == "pattern":
                history = _pattern_search(evaluate, start, self.max_evals, self.min_improvement, self.min_step)
                reach = 2.0 ** (_LATTICE * _RADIUS)
                self.search_bounds_ = {name: (value / reach, value * reach) for name, value in start.items()}
            else:
                grid = self._grid(start)
                history = list(zip(grid, evaluate(grid), strict=True))
                self.search_bounds_ = {
                    name: (min(point[name] for point in grid), max(point[name] for point in grid)) for name in grid[0]
                }
            self.validation_indices_ = np.sort(validation if rows is None else rows[validation])
            self.search_history_ = history
            self.best_params_, self.best_score_ = min(history, key=lambda entry: entry[1])
            fit_rows = np.arange(X.shape[0]) if self.refit else np.sort(train)
            self.best_estimator_ = _fit_weighted(
                self._make_model(self.best_params_),
                X[fit_rows],
                y[fit_rows],
                None if weights is None else weights[fit_rows],
            )
        if classifier:
            self.classes_ = self.best_estimator_.classes_
        self.n_support_ = self._n_support()
        self.storage_ = svm_storage(self.n_support_, X.shape[1])
        self._finish(X, y, weights)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict with ``best_estimator_`` on the scaled inputs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs, in the units of the training inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted targets or labels.
        """
        check_is_fitted(self)
        return self.best_estimator_.predict(self._scaled(self._check_inputs(X, reset=False)))


def first_appearance_codes(y: np.ndarray) -> np.ndarray:
    """Each label's class numbered in order of first appearance in y: the same codes whatever the classes are called.

    scikit-learn's stratified split deals the points to the classes in their sorted order, so
    stratifying by y itself gives y and 1 - y different validation sets (and possibly different
    parameters); these codes give both the same.
    """
    _, first, inverse = np.unique(y, return_index=True, return_inverse=True)
    rank = np.empty_like(first)
    rank[np.argsort(first)] = np.arange(first.size)
    return rank[inverse.reshape(-1)]
