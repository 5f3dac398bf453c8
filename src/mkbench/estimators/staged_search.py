"""Parameters and iteration count by k-fold cross-validation, one fit per fold and grid point (CGEns §VI-A).

:class:`StagedSearchCV` is the model selection of §VI-A: C and the iteration
count by 5-fold cross-validation, from one fit per fold via ``staged_predict``;
optionally at the bandwidth of a cross-validated RBF SVM (CGEns with Fourier
learners, Table II). It searches an estimator object, as scikit-learn's
``GridSearchCV`` does, or a method named in the estimator registry
(:mod:`mkbench._registry`).
"""

from __future__ import annotations

import warnings
from numbers import Integral
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import ParameterGrid, StratifiedKFold
from sklearn.utils._param_validation import HasMethods, Hidden, Interval
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, validate_data

from .._registry import estimator_class
from ._learner_columns import N_JOBS_CONSTRAINT
from ._weights import present_rows

__all__ = ["N_ITERS", "StagedSearchCV", "chooses"]

#: The iteration counts of §VI-A, StagedSearchCV's default ``n_iters``.
N_ITERS = (25, 50, 100, 250, 500)


def _error(predicted: np.ndarray, y: np.ndarray, weights: np.ndarray | None) -> float:
    """The error rate of ``predicted``, weighted by ``weights`` (None: each point alike)."""
    return float(np.mean(predicted != y)) if weights is None else float(np.average(predicted != y, weights=weights))


def chooses(n_points: int, n_counts: int, bandwidth: bool) -> bool:
    """Whether a search has anything to choose: several grid points or iteration counts, or an RBF SVM's
    bandwidth (``svc_bandwidth_grid``). Without, :class:`StagedSearchCV` only refits its one setting."""
    return n_points > 1 or n_counts > 1 or bandwidth


class StagedSearchCV(ClassifierMixin, BaseEstimator):
    """Choose parameters and the number of iterations by k-fold CV, one fit per fold and grid point (§VI-A).

    CGEns §VI-A chooses C and the iteration count in {25, 50, 100, 250, 500} by
    5-fold cross-validation. The ensembles here (CGEns, LPBoost, AdaBoost.MH,
    scikit-learn's AdaBoost) give the model after every iteration with
    ``staged_predict``, so each fold and grid point needs one fit with the largest
    count; the chosen setting is then refitted on all the data.

    Parameters
    ----------
    method : estimator or str, default="cgens"
        The estimator to search (cloned for every fit; e.g.
        ``CGEnsClassifier("fourier")``), or a registered method name
        (:data:`mkbench._registry.METHODS`), with ``staged_predict`` unless
        ``n_iters`` is None.
    params : dict, default=None
        Fixed parameters of the method.
    param_grid : dict, default=None
        Parameters to cross-validate, e.g. ``{"C": [0.01, 0.1, 1]}``.
    n_iters : sequence of int or None, default=(25, 50, 100, 250, 500)
        Iteration counts to choose from; passed as ``max_iter`` (``n_estimators`` if
        the method has that parameter instead). None: no count is chosen, and the
        method needs no ``staged_predict`` (e.g. the SVM baselines: plain grid search).
    cv : int >= 2, default=5
        Stratified folds.
    random_state : int, default=0
        Seeds the folds.
    svc_bandwidth_grid : dict or None, default=None
        A grid ``{"C": [...], "gamma": [...]}`` of an RBF SVM (scikit-learn's SVC,
        method ``"svc-rbf"``). If given, that SVM is cross-validated first, on the
        same folds, and its chosen ``gamma`` is passed to the method as a fixed
        parameter: CGEns samples its Fourier learners at the SVM's cross-validated
        bandwidth (§VI-A, Table II). The SVM's choice is the one a separate search
        of the same grid with ``method="svc-rbf"`` and ``n_iters=None`` makes.
    n_jobs : int, default=None
        The folds' fits (one per fold and grid point, and the RBF SVM's) run ``n_jobs`` at
        a time (joblib, its default backend: processes; scikit-learn's convention: None
        means 1 unless in a ``joblib.parallel_config`` context, -1 all processors). The
        errors are summed in the same order: the same choice as one at a time. The
        method's own ``n_jobs`` (a parameter of it) is apart.

    Attributes
    ----------
    best_params_ : dict
        The chosen grid point and iteration count (and ``gamma`` with
        ``svc_bandwidth_grid``). Of grid points with equal mean validation error the
        first in :class:`~sklearn.model_selection.ParameterGrid` order wins (for
        ``{"C": [...]}`` the smallest C, the most regularised model).
    best_estimator_ : estimator
        The method refitted with ``best_params_`` on all the data. The fold fits'
        ConvergenceWarnings are silenced (with ``n_iters``, stopping at a count short
        of convergence is the point); the refit's reach the caller unless ``n_iters``
        chose its count, so a solver that stopped short of its optimum (liblinear's
        iteration limit in RFF) says so in the fit's warnings and in a record's status.
    cv_errors_ : ndarray of shape (n_grid_points, len(n_iters) or 1) or None
        Mean validation error of each grid point and iteration count (None: nothing to choose).
    cv_results_ : dict or None
        The same errors in scikit-learn's layout (``GridSearchCV.cv_results_``), one
        entry per grid point and iteration count, in ``cv_errors_``'s row-major order:
        ``"params"``, a list of dicts (the grid point and the count), and
        ``"mean_test_error"``, an ndarray. A choice at an edge of the grid is read
        against it (:func:`mkbench.harness.selection.grid_edges`): a tie that reaches
        inside the grid is no sign of a short grid.
    svc_cv_results_ : dict or None
        The RBF SVM's ``cv_results_`` with ``svc_bandwidth_grid`` (None without).
    classes_ : ndarray
    n_iter_ : int
        Iterations of the refitted method (see the property).

    Notes
    -----
    With nothing to choose (one grid point, at most one iteration count and no
    ``svc_bandwidth_grid``) the method is fitted once, on all the data, with no
    cross-validation (:func:`chooses`): ``cv_errors_`` and ``cv_results_`` are then None.
    A config can so name a fixed setting in the form a wider search overlays (a
    ``param_grid`` added by an overlay config): a grid point overrides a fixed
    parameter of ``params`` of the same name.

    Every other public fitted attribute of the refitted method (a name ending in
    ``_``, e.g. ``status_``, ``history_``, ``n_support_``, ``n_columns_by_kernel_``)
    is read through from ``best_estimator_``, so a record of the search
    (:func:`mkbench.harness.experiment.run_job`) has the same size fields as a record of
    the method fitted alone.

    Examples
    --------
    CGEns' C and its number of stumps by 3-fold cross-validation: one fit of 50
    stumps per fold and value of C, read at 25 and 50 stumps.

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import CGEnsClassifier, StagedSearchCV
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> search = StagedSearchCV(
    ...     CGEnsClassifier(), param_grid={"C": [0.1, 1.0]}, n_iters=(25, 50), cv=3
    ... ).fit(X_train, y_train)
    >>> sorted(search.best_params_), search.cv_errors_.shape  # (C values, counts)
    (['C', 'max_iter'], (2, 2))
    >>> search.score(X_test, y_test) > 0.9
    True
    """

    best_params_: dict[str, Any]
    cv_results_: dict[str, Any] | None

    _parameter_constraints: dict = {
        # a registered name or an import path (estimator_class names the known ones), or an estimator; a mapping
        # passes (Hidden: not offered in the message) to be refused by fit, which says where parameters go
        "method": [str, HasMethods(["fit", "get_params"]), Hidden(dict)],
        "params": [dict, None],
        "param_grid": [dict, list, None],
        "n_iters": ["array-like", None],  # its counts are checked by fit
        "cv": [Interval(Integral, 2, None, closed="left")],
        "random_state": ["random_state"],
        "svc_bandwidth_grid": [dict, None],  # its 'gamma' list is checked by fit
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(
        self,
        method: str = "cgens",
        *,
        params: dict | None = None,
        param_grid: dict | None = None,
        n_iters=N_ITERS,
        cv: int = 5,
        random_state: int = 0,
        svc_bandwidth_grid: dict | None = None,
        n_jobs: int | None = None,
    ) -> None:
        self.method = method
        self.params = params
        self.param_grid = param_grid
        self.n_iters = n_iters
        self.cv = cv
        self.random_state = random_state
        self.svc_bandwidth_grid = svc_bandwidth_grid
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=False)  # the searched method's parameters are validated too
    def fit(self, X: np.ndarray, y: np.ndarray, **fit_params) -> StagedSearchCV:
        """Cross-validate, then refit the best setting on (X, y).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            A sparse matrix where the method takes one (e.g. RFFClassifier, the ensembles
            of weak learners); the others refuse it in their fit (a TypeError).
        y : array-like of shape (n_samples,)
        **fit_params : dict
            ``sample_weight`` (as GridSearchCV takes it, among its fit parameters): weights
            >= 0 of the points, split with the folds. Rows of weight 0 are dropped first;
            each fold's fit gets its training rows' weights, its validation error is
            weighted by its validation rows' (so is the RBF SVM's of ``svc_bandwidth_grid``),
            and the refit gets them all. The method must take ``sample_weight`` (one that
            does not raises its own TypeError, naming the alternative).
            Every other: extra arguments of the method's ``fit``, passed unchanged, never split
            into folds, to every fold's fit and to the refit: e.g. SSMK's
            ``X_unlabeled``, the unlabelled points, whose length has nothing to do
            with X's (scikit-learn's GridSearchCV would index an array of X's
            length by the fold, as if it were per sample). They are not passed to
            the RBF SVM of ``svc_bandwidth_grid``.

        Returns
        -------
        self
        """
        n_iters = None if self.n_iters is None else sorted(int(t) for t in self.n_iters)
        if n_iters is not None and (not n_iters or n_iters[0] < 1):
            raise ValueError(f"n_iters must be None or a non-empty list of integers >= 1, got {self.n_iters!r}")
        X, y = validate_data(self, X, y, accept_sparse="csr")
        check_classification_targets(y)
        weights, rows = present_rows(fit_params.pop("sample_weight", None), X)
        if rows is not None:
            X, y = X[rows], y[rows]
            if np.unique(y).size < 2:
                raise ValueError(
                    f"the rows of positive sample_weight hold one class only ({y[0]!r}); a classifier needs two"
                )
        params = dict(self.params or {})
        self._refuse_more_classes(X, y, params)
        svc = None if self.svc_bandwidth_grid is None else self._svc_search(X, y, weights)
        self.svc_cv_results_ = None if svc is None else svc.cv_results_
        bandwidth = {} if svc is None else {"gamma": float(svc.best_params_["gamma"])}
        params.update(bandwidth)
        counter = "n_estimators" if "n_estimators" in self._make({}).get_params() else "max_iter"
        counts = {} if n_iters is None else {counter: n_iters[-1]}
        grid = list(ParameterGrid(self.param_grid or {}))
        errors = np.zeros((len(grid), 1 if n_iters is None else len(n_iters)))
        chosen = chooses(len(grid), errors.shape[1], svc is not None)  # else the one setting is only refitted
        folds = StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state).split(X, y) if chosen else ()
        jobs = [(train, test, g) for train, test in folds for g in range(len(grid))]
        found = Parallel(n_jobs=self.n_jobs)(
            delayed(self._fold_errors)(X, y, weights, train, test, {**params, **grid[g], **counts}, n_iters, fit_params)
            for train, test, g in jobs
        )
        for (_, _, g), fold_errors in zip(jobs, found, strict=True):  # summed fold after fold, as one at a time
            errors[g] += fold_errors / self.cv
        best, best_count = np.unravel_index(np.argmin(errors), errors.shape)
        self.best_params_ = {**bandwidth, **grid[best], **({} if n_iters is None else {counter: n_iters[best_count]})}
        self.best_estimator_ = self._make({**params, **self.best_params_})
        with warnings.catch_warnings():
            if n_iters is not None:  # the chosen count is a parameter, not a solver that fell short
                warnings.simplefilter("ignore", ConvergenceWarning)
            refit_weights = {} if weights is None else {"sample_weight": weights}
            self.best_estimator_.fit(X, y, **refit_weights, **fit_params)  # else a refit that did not converge says so
        self.cv_errors_ = errors if chosen else None
        counted = [{}] if n_iters is None else [{counter: t} for t in n_iters]
        self.cv_results_ = (
            None
            if not chosen
            else {
                "params": [{**point, **count} for point in grid for count in counted],
                "mean_test_error": errors.ravel(),
            }
        )
        self.classes_ = self.best_estimator_.classes_
        return self

    def _fold_errors(
        self, X, y: np.ndarray, weights: np.ndarray | None, train, test, setting: dict, n_iters, fit_params: dict
    ) -> np.ndarray:
        """The validation errors on ``test`` of the method fitted with ``setting`` on ``train``, at each count."""
        fold_weights = {} if weights is None else {"sample_weight": weights[train]}
        test_weights = None if weights is None else weights[test]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # a count below convergence is the point
            model = self._make(setting).fit(X[train], y[train], **fold_weights, **fit_params)
            if n_iters is None:
                return np.array([_error(model.predict(X[test]), y[test], test_weights)])
            # a fit that stopped before its first learner (optimal at once) has no stages
            staged = list(model.staged_predict(X[test])) or [model.predict(X[test])]
        return np.array([_error(staged[min(t, len(staged)) - 1], y[test], test_weights) for t in n_iters])

    def _refuse_more_classes(self, X: np.ndarray, y: np.ndarray, params: dict) -> None:
        """A binary method given more than two classes refuses them now, before any search, in its own words.

        Its ``fit`` checks the classes first, so the refusal costs no fit (the message names the
        multi-class alternative, e.g. ``method="cgens-sls"``'s CGEnsSLSClassifier for CGEns).
        """
        method = self._make(params)
        tags = method.__sklearn_tags__().classifier_tags
        if np.unique(y).size > 2 and tags is not None and not tags.multi_class:
            method.fit(X, y)  # raises ValueError at once ("Only binary classification is supported...")

    def _make(self, params: dict) -> BaseEstimator:
        """A fresh, unfitted copy of the searched estimator with ``params`` set."""
        if isinstance(self.method, str):
            return estimator_class(self.method)(**params)
        if isinstance(self.method, dict):
            raise ValueError(
                f"method must be an estimator (e.g. CGEnsClassifier('fourier')) or a registered method name "
                f"(e.g. 'cgens'), got {self.method!r}; fixed parameters go in params="
            )
        return clone(self.method).set_params(**params)

    def _svc_search(self, X: np.ndarray, y: np.ndarray, weights: np.ndarray | None) -> StagedSearchCV:
        """The RBF SVM cross-validated over ``svc_bandwidth_grid`` on this search's folds (its gamma is the bandwidth)."""
        grid = self.svc_bandwidth_grid
        assert grid is not None  # fit searches the SVM only with a grid
        if "gamma" not in grid:
            raise ValueError(
                f"svc_bandwidth_grid must be a dict of SVC parameters with a 'gamma' list, e.g. "
                f"{{'C': [1, 10], 'gamma': [0.1, 1]}}; got {grid!r}"
            )
        search = StagedSearchCV(
            "svc-rbf", param_grid=grid, n_iters=None, cv=self.cv, random_state=self.random_state, n_jobs=self.n_jobs
        )
        return search.fit(X, y, sample_weight=weights)

    def __sklearn_tags__(self):
        """scikit-learn's tags, taking a sparse X where the method does."""
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self._make(dict(self.params or {})).__sklearn_tags__().input_tags.sparse
        return tags

    def _method_stages(self) -> bool:
        """Whether the searched method has ``staged_predict`` (so has the search)."""
        return hasattr(self._make({}), "staged_predict")

    @available_if(_method_stages)
    def staged_predict(self, X: np.ndarray):
        """The refitted method's predictions after each of its iterations (its ``staged_predict``)."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.staged_predict(X)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """The refitted method's decision values."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)

    def _method_has_proba(self) -> bool:
        """Whether the refitted method (before ``fit``: the method with ``params``) has ``predict_proba``."""
        refitted = self.__dict__.get("best_estimator_")
        return hasattr(refitted if refitted is not None else self._make(dict(self.params or {})), "predict_proba")

    @available_if(_method_has_proba)
    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """The refitted method's class probabilities (its ``predict_proba``), where it has them."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict_proba(X)

    @available_if(_method_has_proba)
    def predict_log_proba(self, X: np.ndarray) -> np.ndarray:
        """log of :meth:`predict_proba`."""
        return np.log(self.predict_proba(X))

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The refitted method's predictions."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def _refitted(self, name: str):
        check_is_fitted(self, "best_estimator_")
        if not hasattr(self.best_estimator_, name):
            raise AttributeError(f"{type(self.best_estimator_).__name__} has no attribute {name!r}")
        return getattr(self.best_estimator_, name)

    @property
    def n_iter_(self) -> int:
        """Iterations of the refitted method (learners or rounds; for scikit-learn's AdaBoost its stumps)."""
        check_is_fitted(self, "best_estimator_")
        if hasattr(self.best_estimator_, "estimators_"):
            return len(self.best_estimator_.estimators_)
        return int(np.sum(self._refitted("n_iter_")))  # scikit-learn SVC: one count per pair of classes

    def __getattr__(self, name: str):
        """A public fitted attribute (``status_``, ``history_``, ``n_support_``...) of the refitted method.

        Called only for names not found on the search itself; private names, names
        not ending in ``_`` and every name before ``fit`` raise AttributeError.
        """
        refitted = self.__dict__.get("best_estimator_")  # not getattr: no recursion before fit or in copies
        if refitted is None or name.startswith("_") or not name.endswith("_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        try:
            return getattr(refitted, name)
        except AttributeError:
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r} "
                f"(nor has its refitted {type(refitted).__name__})"
            ) from None
