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
Boston are 0.8 x 455, the training fold without its validation part). They use
their inputs as given; standardising X is the caller's pipeline's job.

Search
------
``search="pattern"`` is the compass search of Momma & Bennett, "A pattern
search method for model selection of support vector regression", SDM 2002, in
log2 space: poll the 2d points one step up and down each parameter axis,
move to the best poll point if it lowers the validation error, otherwise halve
the step; stop when the step falls below 1/4 (a factor 2^(1/4)) or after
``max_evals`` fits. The first step is 2 (a factor 4), and the search stays
within a factor 2^20 of its start; ``search_bounds_`` records that range (or
the grid's) so that a choice at its edge is flagged in the tables. ``search="grid"`` tries every point of
``param_grid``, by default the start times 4^k, k = -2..2, on each axis.

Both start from scikit-learn's data-driven defaults: gamma = 1 / (M var(X))
(``gamma="scale"``), C = 3 for SVR (Cherkassky & Ma's rule max|mean(y) +- 3
std(y)| on a standardised y) and C = 1 for SVC, epsilon = 0.1 std(y), alpha = 1.

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
:class:`mkbench.estimators.kernel_ridge.KernelColumnRidge` fits eq. (8) to y as
given: eq. (8) is homogeneous in y (scaling y scales alpha and b), so C needs no
standardisation, and its penalised b is fitted, as in the paper.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, _fit_context, is_classifier
from sklearn.compose import TransformedTargetRegressor
from sklearn.model_selection import ParameterGrid, train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import ConfigError
from ..metrics import svm_storage

Params = dict[str, float]
History = list[tuple[Params, float]]

# The pattern search walks a lattice of spacing _LATTICE in log2(parameter).
_LATTICE = 0.25  # smallest step: a factor 2 ** 0.25 ~ 1.19
_INITIAL_STEP = 8  # lattice units: 2 in log2, a factor 4
_RADIUS = 80  # lattice units: 20 in log2, a factor ~10^6 either side of the start
_GRID_POWERS_OF_4 = (-2, -1, 0, 1, 2)


def _validation_loss(
    model: BaseEstimator,
    loss: Callable[[Any, Any], float],
    X_train: np.ndarray,
    y_train: np.ndarray,
    X_val: np.ndarray,
    y_val: np.ndarray,
) -> float:
    """Fit ``model`` on the training part and return its loss on the validation part."""
    return loss(y_val, model.fit(X_train, y_train).predict(X_val))


def _compass(point: tuple[int, ...], step: int) -> Iterator[tuple[int, ...]]:
    """The 2d lattice points ``step`` away from ``point`` along one axis."""
    for axis in range(len(point)):
        for sign in (1, -1):
            moved = list(point)
            moved[axis] += sign * step
            yield tuple(moved)


def _pattern_search(
    evaluate: Callable[[list[Params]], list[float]], start: Params, max_evals: int
) -> History:
    """Compass search in log2 space (Momma & Bennett, SDM 2002).

    Parameters
    ----------
    evaluate : callable
        Maps a list of parameter dicts to their validation losses.
    start : dict of str to float
        Positive start value of every searched parameter.
    max_evals : int
        Largest number of distinct points evaluated.

    Returns
    -------
    list of (dict, float)
        Every evaluated point and its loss, in evaluation order; the start first.
    """

    def params_at(point: tuple[int, ...]) -> Params:
        return {
            name: value * 2.0 ** (_LATTICE * offset)
            for (name, value), offset in zip(start.items(), point, strict=True)
        }

    best = (0,) * len(start)
    losses = {best: evaluate([params_at(best)])[0]}
    step = _INITIAL_STEP
    while step >= 1 and len(losses) < max_evals:
        poll = [
            point
            for point in _compass(best, step)
            if point not in losses and max(map(abs, point)) <= _RADIUS
        ][: max_evals - len(losses)]
        losses.update(zip(poll, evaluate([params_at(point) for point in poll]), strict=True))
        challenger = min(poll, key=losses.__getitem__, default=best)
        if losses[challenger] < losses[best]:
            best = challenger
        else:
            step //= 2
    return [(params_at(point), loss) for point, loss in losses.items()]


class _SelectedRBFModel(BaseEstimator, metaclass=ABCMeta):
    """Shared machinery: hold out a validation set, search, refit on everything (``refit``).

    Subclasses name the start point, the model and how to count its support vectors.
    """

    _parameter_constraints: dict = {
        "search": [StrOptions({"pattern", "grid"})],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "max_evals": [Interval(Integral, 1, None, closed="left")],
        "param_grid": [dict, list, None],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
        "refit": ["boolean"],
    }

    def __init__(
        self,
        search: str = "pattern",
        validation_fraction: float = 0.2,
        max_evals: int = 50,
        param_grid: dict[str, Sequence[float]] | list[dict[str, Sequence[float]]] | None = None,
        random_state: int | np.random.RandomState | None = None,
        n_jobs: int | None = None,
        refit: bool = True,
    ) -> None:
        self.search = search
        self.validation_fraction = validation_fraction
        self.max_evals = max_evals
        self.param_grid = param_grid
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.refit = refit

    @staticmethod
    @abstractmethod
    def _loss(y_true: np.ndarray, y_pred: np.ndarray) -> float:
        """Validation loss, lower is better."""

    @abstractmethod
    def _start_params(self, X: np.ndarray) -> Params:
        """Start point of the search (and centre of the default grid)."""

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
        self, X_train: np.ndarray, y_train: np.ndarray, X_val: np.ndarray, y_val: np.ndarray
    ) -> Callable[[list[Params]], list[float]]:
        """A function scoring a batch of parameter dicts, ``n_jobs`` fits at a time."""

        def evaluate(candidates: list[Params]) -> list[float]:
            return Parallel(n_jobs=self.n_jobs)(
                delayed(_validation_loss)(
                    self._make_model(params), self._loss, X_train, y_train, X_val, y_val
                )
                for params in candidates
            )

        return evaluate

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X: Any, y: Any) -> _SelectedRBFModel:
        """Select the parameters on a validation split, then refit on all of ``X`` (or not).

        With ``refit=False`` the final model is the one fitted at the selected
        parameters on ``X`` without its validation rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training inputs.
        y : array-like of shape (n_samples,)
            Training targets.

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
                "param_grid is only used by search='grid'; got search='pattern' "
                f"and param_grid={self.param_grid!r}"
            )
        classifier = is_classifier(self)
        X, y = validate_data(self, X, y, y_numeric=not classifier)
        if classifier:
            check_classification_targets(y)
        train, validation = train_test_split(
            np.arange(X.shape[0]),
            test_size=self.validation_fraction,
            random_state=self.random_state,
            stratify=y if classifier else None,
        )
        evaluate = self._evaluator(X[train], y[train], X[validation], y[validation])
        start = self._start_params(X)
        if self.search == "pattern":
            history = _pattern_search(evaluate, start, self.max_evals)
            reach = 2.0 ** (_LATTICE * _RADIUS)
            self.search_bounds_ = {name: (value / reach, value * reach) for name, value in start.items()}
        else:
            grid = self._grid(start)
            history = list(zip(grid, evaluate(grid), strict=True))
            self.search_bounds_ = {
                name: (min(point[name] for point in grid), max(point[name] for point in grid)) for name in grid[0]
            }
        self.validation_indices_ = np.sort(validation)
        self.search_history_ = history
        self.best_params_, self.best_score_ = min(history, key=lambda entry: entry[1])
        fit_rows = np.arange(X.shape[0]) if self.refit else np.sort(train)
        self.best_estimator_ = self._make_model(self.best_params_).fit(X[fit_rows], y[fit_rows])
        if classifier:
            self.classes_ = self.best_estimator_.classes_
        self.n_support_ = self._n_support()
        self.storage_ = svm_storage(self.n_support_, X.shape[1])
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict with ``best_estimator_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted targets or labels.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self.best_estimator_.predict(X)


def _scale_gamma(X: np.ndarray) -> float:
    """scikit-learn's ``gamma="scale"``: 1 / (n_features * X.var()), or 1 if X is constant."""
    variance = float(X.var())
    return 1.0 / (X.shape[1] * variance) if variance > 0 else 1.0


def _standardised_target(regressor: BaseEstimator) -> TransformedTargetRegressor:
    """``regressor`` fitted on (y - mean) / std, predicting on y's scale."""
    return TransformedTargetRegressor(regressor=regressor, transformer=StandardScaler())
