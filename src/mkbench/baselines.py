"""Single-RBF-kernel baselines whose parameters are selected on a validation set.

Momma & Bennett, "Sparse kernel regression with heterogeneous kernel families"
(MARK), KDD 2002, §5.2 compare MARK with an RBF support vector regression
(SVMTorch) and kernel ridge regression (KRR): "model and kernel parameters
selection is automatically done by Pattern Search using a validation set for
each of the 10 folds; the size of validation set is set to 20% of the training
set". The estimators below do that: hold out ``validation_fraction`` of the
training set, choose the parameters with the smallest validation error, then
refit them on the whole training set (``refit=True``) or keep the model fitted
on the rest of the training set at the chosen parameters (``refit=False``, the
paper's KRR: its 364 "support vectors" on Boston are 0.8 x 455, the training
fold without its validation part). They use their inputs as given;
standardising X is the caller's pipeline's job.

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
:class:`KernelColumnRidge` fits eq. (8) to y as given: eq. (8) is homogeneous
in y (scaling y scales alpha and b), so C needs no standardisation, and its
penalised b is fitted, as in the paper.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    RegressorMixin,
    _fit_context,
    is_classifier,
)
from sklearn.compose import TransformedTargetRegressor
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import ParameterGrid, train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, validate_data

from .exceptions import ConfigError, SolverError
from .metrics import error_rate, mse, svm_storage

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


class SelectedKernelRidge(RegressorMixin, _SelectedRBFModel):
    """RBF kernel ridge regression with alpha, gamma chosen on a validation set.

    scikit-learn's kernel ridge regression, penalising alpha'K alpha: a
    comparison row beside the KRR baseline of MARK (Momma & Bennett, KDD 2002)
    Tables 1-3, which is :class:`SelectedKernelColumnRidge` (eq. 8, penalising
    alpha'alpha + b^2). y is standardised inside, which centres it
    (scikit-learn's KRR has no offset) and makes ``alpha`` scale-free;
    ``gamma`` multiplies squared distances in X. The search starts at alpha =
    1, gamma = 1 / (M var(X)).

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
        With ``search="grid"``, candidate values of ``alpha``, ``gamma``, as
        for :class:`sklearn.model_selection.ParameterGrid`; parameters left out
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
        The selected ``alpha``, ``gamma``.
    best_score_ : float
        Their validation mean squared error, on y's scale (lower is better).
    best_estimator_ : TransformedTargetRegressor
        ``KernelRidge(kernel="rbf", **best_params_)`` on standardised y,
        fitted on the whole training set (``refit=True``) or without its
        validation part.
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
        return {"alpha": 1.0, "gamma": _scale_gamma(X)}

    def _make_model(self, params: Params) -> TransformedTargetRegressor:
        return _standardised_target(KernelRidge(kernel="rbf", **params))

    def _n_support(self) -> int:
        return int(self.best_estimator_.regressor_.dual_coef_.shape[0])


class KernelColumnRidge(RegressorMixin, BaseEstimator):
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
    with ``fit_intercept=False``) on the features G. y is used as given; eq.
    (8) is homogeneous in y, so C does not depend on y's scale.

    Parameters
    ----------
    C : float > 0, default=1.0
        Ridge parameter of eq. (8). The paper allows C = 0, which leaves G'G
        singular whenever K is; it is refused.
    gamma : float > 0 or "scale", default="scale"
        Width of the RBF kernel, multiplying squared distances in X (as in
        scikit-learn's SVR and KernelRidge); "scale" takes 1 / (n_features
        X.var()), the start of the selection in :class:`SelectedKernelColumnRidge`.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,)
        alpha of eq. (10), one weight per training point (kernel column).
    intercept_ : float
        The offset b of eq. (10).
    gamma_ : float
        The kernel width used.
    X_fit_ : ndarray of shape (n_samples, n_features)
        The training points, centres of the kernel columns.
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
    >>> import numpy as np
    >>> from mkbench.baselines import KernelColumnRidge
    >>> X = np.linspace(0, 1, 20)[:, None]
    >>> model = KernelColumnRidge(C=0.1, gamma=10.0).fit(X, np.sin(6 * X[:, 0]))
    >>> model.dual_coef_.shape
    (20,)
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "gamma": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, C: float = 1.0, gamma: float | str = "scale") -> None:
        self.C = C
        self.gamma = gamma

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Any, y: Any) -> KernelColumnRidge:
        """Solve eq. (9) for alpha and b.

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
        """
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64)
        y = y.astype(np.float64)  # "could not convert string to float" for string targets
        self.gamma_ = _scale_gamma(X) if self.gamma == "scale" else float(self.gamma)
        G = np.column_stack([rbf_kernel(X, gamma=self.gamma_), np.ones(X.shape[0])])
        normal = G.T @ G
        normal.flat[:: normal.shape[0] + 1] += self.C  # G'G + C I
        try:
            factor = cho_factor(normal, check_finite=False)
        except LinAlgError:
            raise SolverError(
                f"G'G + C I of eq. 9 is not numerically positive definite for C={self.C!r}, "
                f"gamma={self.gamma_!r} and {X.shape[0]} points; use a larger C"
            ) from None
        theta = cho_solve(factor, G.T @ y, check_finite=False)
        self.dual_coef_, self.intercept_ = theta[:-1], float(theta[-1])
        self.X_fit_ = X
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Evaluate eq. (10), f(x) = sum_i alpha_i exp(-gamma ||x - x_i||^2) + b.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted targets.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return rbf_kernel(X, self.X_fit_, gamma=self.gamma_) @ self.dual_coef_ + self.intercept_


class SelectedKernelColumnRidge(RegressorMixin, _SelectedRBFModel):
    """MARK's kernel ridge regression (eq. 8-10) with C, gamma chosen on a validation set.

    The KRR baseline of MARK (Bennett, Momma & Embrechts, KDD 2002) Tables 1-3:
    :class:`KernelColumnRidge` (ridge on the RBF kernel columns, penalised
    offset, solved by eq. 9), its C and gamma chosen by the pattern search on a
    validation split. The paper's Table 2 counts 364 = 0.8 x 455 "support
    vectors" on Boston: its KRR is the model fitted on the training fold
    without its validation part, ``refit=False`` here. y is used as given
    (eq. 8 is homogeneous in y, so C is scale-free); ``gamma`` multiplies
    squared distances in X. The search starts at C = 1, gamma = 1 / (M var(X)).

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
        keeps the model fitted on the training set without its validation part
        (the paper's protocol, see above).

    Attributes
    ----------
    best_params_ : dict of str to float
        The selected ``C``, ``gamma``.
    best_score_ : float
        Their validation mean squared error (lower is better).
    best_estimator_ : KernelColumnRidge
        ``KernelColumnRidge(**best_params_)`` fitted on the whole training set
        (``refit=True``) or without its validation part.
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
    n_features_in_ : int
        Number of input features.

    References
    ----------
    K. P. Bennett, M. Momma and M. J. Embrechts. MARK: a boosting algorithm
    for heterogeneous kernel models. KDD 2002, §3 eq. (8)-(10), §5.2.

    M. Momma and K. P. Bennett. A pattern search method for model selection of
    support vector regression. SDM 2002.
    """

    _loss = staticmethod(mse)

    def _start_params(self, X: np.ndarray) -> Params:
        return {"C": 1.0, "gamma": _scale_gamma(X)}

    def _make_model(self, params: Params) -> KernelColumnRidge:
        return KernelColumnRidge(**params)

    def _n_support(self) -> int:
        return int(self.best_estimator_.X_fit_.shape[0])


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
