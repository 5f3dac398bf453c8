"""Weak-learner columns: F(x) = sum_j w_j h_j(x) + b over a learner family, by column generation (CGEns Alg. 1, 2).

What every estimator over weak learners shares: the family bound to the training
inputs and priced by :class:`mkbench.oracles.LearnerOracle` in the loop
(:func:`fit_by_column_generation`, also CGEns-SLS's), the model after every
iteration (:class:`CoefPath`: ``coef_path_``), the parameters of the
papers' ensembles (:class:`LearnerParams`: learner, C, the ensemble's size, the
sampled learners) and their staged predictions (:class:`LearnerEnsemble`). The
estimator builds the master (the problem); :class:`mkbench.ColumnGenerationClassifier`
is the one that fits these columns for CGEns and LPBoost.
"""

from __future__ import annotations

from collections.abc import Iterator
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ..cg import CGResult, column_generation
from ..learners import LEARNERS, make_family, outputs
from ..learners._chunks import split_search
from ..oracles import LearnerOracle
from ._binary import BinaryClassifierMixin
from ._convergence import warn_unless_optimal
from ._rbf_inputs import _scale_gamma
from ._sparse_inputs import ACCEPT_SPARSE

__all__ = [
    "LEARNER_CONSTRAINTS",
    "LOOSE_TOL",
    "N_JOBS_CONSTRAINT",
    "CoefPath",
    "LearnerEnsemble",
    "LearnerParams",
    "fit_by_column_generation",
    "learner_outputs",
    "staged_outputs",
]

LOOSE_TOL = 0.1  # liblinear's default tolerance of its dual solvers: the masters on the way (see loose_tol)

#: ``n_jobs`` in scikit-learn's convention (:func:`joblib.effective_n_jobs`): None, -1 or below (all processors
#: but -1 - n_jobs), or 1 and above; 0 is refused.
N_JOBS_CONSTRAINT: list = [
    Interval(Integral, 1, None, closed="left"),
    Interval(Integral, None, -1, closed="right"),
    None,
]

#: The parameters :class:`LearnerParams` holds (``_parameter_constraints``).
LEARNER_CONSTRAINTS: dict = {
    "learner": [StrOptions(set(LEARNERS))],
    "C": [Interval(Real, 0, None, closed="neither")],
    "max_iter": [Interval(Integral, 0, None, closed="left")],
    "time_limit": [Interval(Real, 0, None, closed="neither"), None],
    "tol": [Interval(Real, 0, None, closed="left")],
    "n_candidates": [Interval(Integral, 1, None, closed="left")],
    "gamma": [Interval(Real, 0, None, closed="neither"), None],
    "max_bins": [Interval(Integral, 2, 256, closed="both"), None],  # bins coded in uint8 (BinnedStumps)
    "n_jobs": N_JOBS_CONSTRAINT,
    "random_state": ["random_state"],
    "verbose": [Interval(Integral, 0, None, closed="left")],
}


class LearnerParams(BaseEstimator):
    """The parameters of the papers' ensembles of weak learners (CGEns, CGEns-SLS, LPBoost)."""

    _max_iter_is_size = True  # max_iter is J_max, the ensemble's size: reaching it is no warning (_docs.MAX_ITER)

    def __init__(
        self,
        learner: str = "stump",
        *,
        C: float = 1.0,
        max_iter: int = 100,
        time_limit: float | None = None,
        tol: float = 1e-6,
        n_candidates: int = 2000,
        gamma: float | None = None,
        random_state=None,
        max_bins: int | None = 255,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.learner = learner
        self.C: float | None = C  # as the engine's (ColumnGenerationClassifier), whose None is a default
        self.max_iter: int | None = max_iter
        self.time_limit = time_limit
        self.tol = tol
        self.n_candidates = n_candidates
        self.gamma = gamma
        self.random_state = random_state
        self.max_bins = max_bins
        self.n_jobs = n_jobs
        self.verbose = verbose


def fit_by_column_generation(
    estimator: BaseEstimator,
    X: np.ndarray,
    master,
    *,
    learner: str,
    constant: bool = False,
    exclude_chosen: bool = True,
    callback=None,
    weights: np.ndarray | None = None,
) -> CGResult:
    """Run column generation of ``master`` over the weak learners ``learner`` on X (Alg. 1, 2).

    Takes ``max_iter``, ``time_limit``, ``tol``, ``verbose`` of ``estimator`` for the loop,
    its ``n_candidates``, ``gamma``, ``max_bins`` and ``random_state`` for the family, and ``n_jobs``
    for the threads a stump search splits the features over
    (:func:`mkbench.learners._chunks.split_search`), bit for bit; sets ``learners_``,
    ``n_iter_``, ``status_`` and ``history_``, and warns with a ConvergenceWarning unless the
    loop ended optimal, or at ``max_iter`` where that is the ensemble's size
    (``estimator._max_iter_is_size``: CGEns, CGEns-SLS, LPBoost).

    Parameters
    ----------
    estimator : ColumnGenerationClassifier or CGEnsSLSClassifier
        With its parameters validated.
    X : {ndarray, sparse matrix} of shape (n_samples, n_features)
        Validated training inputs; a sparse X is not densified (:func:`mkbench.learners.make_family`).
    master : SVMDualMaster, LPMaster or SimplexLSMaster
    learner : {"stump", "perceptron", "fourier"}
    constant : bool, default=False
        Offer the constant stump (:class:`mkbench.learners.Stumps`, or ``BinnedStumps``).
    exclude_chosen : bool, default=True
        See :class:`mkbench.oracles.LearnerOracle`.
    callback : callable, optional
        Passed to :func:`mkbench.cg.column_generation`.
    weights : ndarray of shape (n_samples,), optional
        Positive sample weights, already in the master's per-sample C (its duals price the
        learners). Here they set the Fourier learners' default ``gamma`` to that of the rows
        repeated; the stumps' thresholds are the distinct values either way, while the
        sampled perceptrons and Fourier features are drawn from the distinct rows.

    Returns
    -------
    CGResult
    """
    family = make_family(
        learner,
        X,
        n_candidates=estimator.n_candidates,
        gamma=estimator.gamma if weights is None or estimator.gamma is not None else _scale_gamma(X, weights),
        constant=constant,
        max_bins=estimator.max_bins,
        random_state=check_random_state(estimator.random_state),
    )
    oracle = LearnerOracle(family, exclude_chosen=exclude_chosen)
    with split_search(family, estimator.n_jobs):
        result = column_generation(
            master,
            oracle,
            tol=estimator.tol,
            max_iter=estimator.max_iter,
            time_limit=estimator.time_limit,
            callback=callback,
            verbose=estimator.verbose,
            name=type(estimator).__name__,
        )
    estimator.learners_ = list(result.choices)
    estimator.n_iter_ = result.n_iter
    estimator.status_ = result.status
    estimator.history_ = result.history
    sized = estimator._max_iter_is_size
    if sized and result.status == "time_limit":
        remedy = f"raise time_limit to add the max_iter={estimator.max_iter} learners asked for"
    else:
        remedy = "raise max_iter (or time_limit) to reach the optimum over all learners"
    warn_unless_optimal(
        estimator,
        result.status,
        result.n_iter,
        "learners",
        f"a score of {result.history[-1]['max_violation']:.3g} > tol={estimator.tol}",
        remedy,
        accepted=("optimal", "max_iter") if sized else ("optimal",),
        stacklevel=4,
    )
    return result


class CoefPath:
    """The restricted model after every iteration of a binary ensemble: ``coef_path_[t]`` over the first t learners.

    Called as the loop's callback (a re-solve of the same master replaces its entry);
    :meth:`set_model` then sets ``coef_``, ``intercept_``, ``coef_path_`` and ``intercept_path_``.
    """

    def __init__(self) -> None:
        self.path: list[tuple[np.ndarray, float]] = []

    def __call__(self, solution, choices: list) -> None:
        del self.path[len(choices) :]
        self.path.append((np.asarray(solution.alpha, dtype=np.float64).copy(), float(solution.intercept)))

    def set_model(self, estimator: BaseEstimator, result: CGResult) -> None:
        """Set the fitted model of ``estimator`` from the loop's ``result``."""
        self(result.solution, result.choices)  # the last master, solved to the tight tolerance
        estimator.coef_, estimator.intercept_ = self.path[-1]
        estimator.coef_path_ = [coef for coef, _ in self.path]
        estimator.intercept_path_ = np.array([b for _, b in self.path])


def learner_outputs(estimator: BaseEstimator, X) -> np.ndarray:
    """Phi(X) = [h_1(X), ..., h_J(X)] of the fitted ``learners_``, X validated."""
    check_is_fitted(estimator, "coef_")
    X = validate_data(estimator, X, reset=False, dtype=np.float64, accept_sparse=ACCEPT_SPARSE)
    return outputs(estimator.learners_, X)


def staged_outputs(estimator: BaseEstimator, X) -> Iterator[np.ndarray]:
    """F(X) of the restricted model after each of 1, ..., ``n_iter_`` learners, from ``coef_path_``."""
    H = learner_outputs(estimator, X)
    for t in range(1, estimator.n_iter_ + 1):
        yield H[:, :t] @ estimator.coef_path_[t] + estimator.intercept_path_[t]


class LearnerEnsemble(LearnerParams):
    """The papers' binary ensembles of weak learners (CGEns, LPBoost), as presets of the engine.

    Their parameters (:class:`LearnerParams`), the engine's settings they share (the
    columns are ``learner``; two classes, as the papers') and their predictions after
    every iteration, from ``coef_path_``.
    """

    _columns_param = "learner"
    _binary_alternative = "use CGEnsSLSClassifier for more classes."

    classes_: np.ndarray
    n_iter_: int | np.ndarray  # as the engine's; an int here (two classes)

    @property
    def estimators_(self) -> list:
        """Absent: two classes only, no one-vs-rest models (:class:`mkbench.StagedSearchCV` tells AdaBoost by it)."""
        raise AttributeError(f"{type(self).__name__} fits two classes: it has no one-vs-rest estimators_")

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """F(x) = sum_j w_j h_j(x) + b of X (n_samples, n_features), shape (n_samples,); positive: ``classes_[1]``."""
        return self._decision(X)

    predict = BinaryClassifierMixin.predict

    def staged_decision_function(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """F(x) of the restricted model after each of 1, 2, ..., ``n_iter_`` learners.

        The model after t learners is the restricted master's solution at that
        iteration (fully corrective: every w_j is re-optimised), so one fit serves
        every iteration count, e.g. the search over {25, 50, 100, 250, 500} of §VI-A.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        yield from staged_outputs(self, X)

    def staged_predict(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """Predicted classes after each of 1, ..., ``n_iter_`` learners (see :meth:`staged_decision_function`)."""
        for f in self.staged_decision_function(X):
            yield self.classes_[(f > 0).astype(int)]
