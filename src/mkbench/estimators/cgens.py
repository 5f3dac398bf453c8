"""CGEns: an ensemble of weak learners that solves the SVM problem by column generation (Shen & Liu, Alg. 1).

The model is F(x) = sum_j w_j h_j(x) + b (Algorithm 1, output), the linear SVM
(1) over the feature map Phi(x) = [h_1(x), ..., h_J(x)] of all weak learners
(eq. 3). Column generation adds the learner with the largest
|sum_i y_i alpha_i h(x_i)| (eq. 8), which most reduces the duality gap
(Claim IV.1), until that score is below ``tol``; each restricted master is the
SVM (1) on the chosen learners' outputs.

Restricted master
-----------------
The paper solves it with liblinear (§IV, §VI "Computation efficiency"), which
penalises the offset b through a constant feature (scikit-learn's
``intercept_scaling``). Two masters are offered (``solver``):

* ``"dual_cd"`` (default): :class:`mkbench.masters.LinearSVMCDMaster`,
  liblinear's dual coordinate descent with liblinear's offset, warm-started from
  the previous alpha: adding a learner leaves the dual's feasible set unchanged, so
  each master takes a few passes over the points. scikit-learn's ``LinearSVC``
  cannot serve, as it neither starts from nor returns alpha, which prices the next
  learner (eq. 8). With ``fit_intercept=True`` the offset is free, the SVM (1) as
  written: the equality y'alpha = 0 of its dual (2) by the method of multipliers
  (:class:`mkbench.masters.FreeOffsetSVMCDMaster`), still warm-started. At large
  C coordinate descent needs thousands of passes per master; past 50 passes a
  master turns to Newton's method on the Huber-smoothed primal over the k learner
  weights (:mod:`mkbench.masters.svm_newton`), accepted only where its dual point
  meets the same stopping criterion.
* ``"libsvm"``: the SVM (1) with a free offset, as the dual (2) solved by
  libsvm (:class:`mkbench.masters.SVMDualMaster`, ``SVC(kernel="precomputed")`` on
  G = H H', one rank-one update per learner). libsvm cannot be warm-started and G
  costs n^2 floats (0.8 GB at n = 10^4; n = 60 000 of Fig. 2 is out of reach).

Measured on MNIST odd/even with stumps: 0.26 s for "dual_cd" against 0.69 s for
"libsvm" over 100 stumps at n = 1000, C = 0.001 (benchmarks/cgens_speed.py, the same
run); over 500 stumps at n = 10^4, 18-20 s against about 240 s for "libsvm" (an
earlier run, at the same C).

The paper initialises alpha to a constant; here the loop starts from the exact
restricted SVM with no learner (the offset b alone), whose alpha price the
first learner.
"""

from __future__ import annotations

from collections.abc import Iterator
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from ..cg import CGResult, column_generation
from ..learners import LEARNERS, make_family, outputs
from ..masters import LinearSVMCDMaster, SVMDualMaster, make_hinge_master
from ..masters._solution import check_choice
from ..oracles import LearnerOracle
from ._binary import BinaryClassifierMixin, binary_targets
from ._convergence import display_name, warn_unless_optimal

__all__ = ["CGEnsClassifier"]

SOLVERS = ("dual_cd", "libsvm")
LOOSE_TOL = 0.1  # liblinear's default tolerance of its dual solvers: the masters on the way (see loose_tol)


def fit_by_column_generation(
    estimator: BaseEstimator,
    X: np.ndarray,
    master,
    *,
    constant: bool = False,
    exclude_chosen: bool = True,
    callback=None,
) -> CGResult:
    """Run column generation of ``master`` over the weak learners of ``estimator`` on X (Alg. 1, 2).

    Validates the parameters the ensembles share (``learner``, ``max_iter``,
    ``time_limit``, ``tol``, ``gamma``; ``n_candidates`` and ``random_state`` go to the family), sets
    ``learners_``, ``n_iter_``, ``status_`` and ``history_``, and warns with a
    ConvergenceWarning unless the loop ended optimal, or at ``max_iter`` where that is the
    ensemble's size (``estimator._max_iter_is_size``: CGEns, CGEns-SLS, LPBoost).

    Parameters
    ----------
    estimator : CGEnsClassifier, LPBoostClassifier or CGEnsSLSClassifier
    X : ndarray of shape (n_samples, n_features)
        Validated training inputs.
    master : SVMDualMaster, LPMaster or SimplexLSMaster
    constant : bool, default=False
        Offer the constant stump (:class:`mkbench.learners.Stumps`).
    exclude_chosen : bool, default=True
        See :class:`mkbench.oracles.LearnerOracle`.
    callback : callable, optional
        Passed to :func:`mkbench.cg.column_generation`.

    Returns
    -------
    CGResult
    """
    if estimator.learner not in LEARNERS:
        raise ValueError(f"learner={estimator.learner!r} is not one of {', '.join(map(repr, LEARNERS))}")
    if not (isinstance(estimator.max_iter, Integral) and estimator.max_iter >= 0):
        raise ValueError(f"max_iter must be an integer >= 0, got {estimator.max_iter!r}")
    time_limit = estimator.time_limit
    if time_limit is not None and not (isinstance(time_limit, Real) and time_limit > 0):
        raise ValueError(f"time_limit must be a number of seconds > 0 or None, got {time_limit!r}")
    if not (isinstance(estimator.tol, Real) and estimator.tol >= 0):
        raise ValueError(f"tol must be a number >= 0, got {estimator.tol!r}")
    gamma = estimator.gamma
    if gamma is not None and not (isinstance(gamma, Real) and gamma > 0):
        raise ValueError(f"gamma must be a number > 0 or None (1 / (n_features X.var())), got {gamma!r}")
    family = make_family(
        estimator.learner,
        X,
        n_candidates=estimator.n_candidates,
        gamma=gamma,
        constant=constant,
        random_state=check_random_state(estimator.random_state),
    )
    oracle = LearnerOracle(family, exclude_chosen=exclude_chosen)
    result = column_generation(
        master, oracle, tol=estimator.tol, max_iter=estimator.max_iter, time_limit=time_limit, callback=callback,
        verbose=estimator.verbose, name=display_name(estimator),
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
        estimator, result.status, result.n_iter, "learners",
        f"a score of {result.history[-1]['max_violation']:.3g} > tol={estimator.tol}", remedy,
        accepted=("optimal", "max_iter") if sized else ("optimal",), stacklevel=3,
    )
    return result


class _LearnerEnsemble(BinaryClassifierMixin, BaseEstimator):
    """A binary ensemble F(x) = sum_j w_j h_j(x) + b built by column generation over weak learners.

    Subclasses provide ``_master(signed_y)`` and ``_constant_learner`` (whether the
    constant stump is a candidate); this class validates, runs the loop, keeps the
    model after every iteration and predicts.
    """

    _constant_learner = False
    _exclude_chosen = True
    _max_iter_is_size = False  # True: max_iter is the ensemble's size, reaching it no warning (_MAX_ITER_DOC)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _binary_targets(self, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, signed = binary_targets(y, more="use CGEnsSLSClassifier for more classes.")
        if X.shape[0] < 2:
            raise ValueError(f"{display_name(self)} needs at least 2 samples, got {X.shape[0]}")
        return X, signed

    def fit(self, X: np.ndarray, y: np.ndarray):
        """Fit on two classes; the second of ``classes_`` is the positive class (+1).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, signed = self._binary_targets(X, y)
        path: list[tuple[np.ndarray, float]] = []

        def record(solution, choices):  # path[t]: the master over the first t learners (a re-solve replaces it)
            del path[len(choices):]
            path.append((np.asarray(solution.alpha, dtype=np.float64).copy(), float(solution.intercept)))

        result = fit_by_column_generation(
            self, X, self._master(signed), constant=self._constant_learner,
            exclude_chosen=self._exclude_chosen, callback=record,
        )
        record(result.solution, result.choices)  # the last master, solved to the tight tolerance
        self.coef_, self.intercept_ = path[-1]
        self.coef_path_ = [coef for coef, _ in path]
        self.intercept_path_ = np.array([b for _, b in path])
        return self

    def _outputs(self, X: np.ndarray) -> np.ndarray:
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return outputs(self.learners_, X)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """F(x) = sum_j w_j h_j(x) + b; positive means ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._outputs(X) @ self.coef_ + self.intercept_

    def staged_decision_function(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """F(x) of the restricted model after each of 1, 2, ..., ``n_iter_`` learners.

        The model after t learners is the restricted master's solution at that
        iteration (fully corrective: every w_j is re-optimised), so one fit serves
        every iteration count, e.g. the search over {25, 50, 100, 250, 500} of §VI-A.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        H = self._outputs(X)
        for t in range(1, self.n_iter_ + 1):
            yield H[:, :t] @ self.coef_path_[t] + self.intercept_path_[t]


    def staged_predict(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """Predicted classes after each of 1, ..., ``n_iter_`` learners (see :meth:`staged_decision_function`)."""
        for f in self.staged_decision_function(X):
            yield self.classes_[(f > 0).astype(int)]


_COMMON_PARAMETERS = """
    learner : {"stump", "perceptron", "fourier"}, default="stump"
        Weak learners: decision stumps searched exactly, or ``n_candidates``
        perceptrons sign(theta'x - kappa) / Fourier features cos(theta'x - kappa)
        drawn per iteration (§VI-A; :mod:`mkbench.learners`).
    C : float, default=1.0
        Weight of the hinge slacks, > 0."""

#: ``max_iter`` of the ensembles of weak learners (CGEns, CGEns-SLS, LPBoost), in their docstrings.
_MAX_ITER_DOC = """        Learners to add, J_max of Algorithms 1 and 2: the size of the ensemble, as
        ``n_estimators`` is AdaBoost's. Reaching it is the fit's usual end, not a
        warning (``status_`` "max_iter"): the optimum over every weak learner can take
        thousands of learners (CGEns on breast cancer at the defaults: a score still
        0.002 > ``tol`` after 3000 stumps), far more than a good ensemble needs, and
        the papers choose the count by cross-validation (CGEns §VI-A; see
        :class:`mkbench.StagedSearchCV`). The fit ends earlier, "optimal", when no
        learner's score exceeds ``tol``."""

_COMMON_REST = """
    max_iter : int, default=100
""" + _MAX_ITER_DOC + """
    time_limit : float, default=None
        Seconds after which no further learner is added (status "time_limit"; a
        ConvergenceWarning says so, as the ensemble is then smaller than ``max_iter``).
    n_candidates : int, default=2000
        Learners drawn per iteration for "perceptron" and "fourier" (§VI-A).
    gamma : float, default=None
        Gaussian width of the Fourier learners, theta ~ N(0, 2 gamma I) for the
        kernel exp(-gamma ||x - x'||^2) (use the SVM's cross-validated gamma, §VI-A);
        None: 1 / (n_features X.var()), scikit-learn's ``gamma="scale"``.
    random_state : int, RandomState or None, default=None
        Seeds the sampled learners.
    verbose : int, default=0
        Print a line every ``verbose`` learners (objective, largest dual violation,
        learners, seconds) and one when the fit stops; 0: silent.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class.
    learners_ : list of Stump, Perceptron or FourierFeature
        The chosen weak learners h_j, in the order added.
    coef_ : ndarray of shape (n_iter_,)
        Their weights w_j.
    intercept_ : float
        Offset b.
    coef_path_ : list of ndarray
        ``coef_path_[t]``: the weights of the first t learners in the restricted
        model after t iterations (t = 0 .. n_iter_), each master as solved on the
        way (to ``loose_tol`` where the master has one), the last to ``solver_tol``.
    intercept_path_ : ndarray of shape (n_iter_ + 1,)
    n_iter_ : int
        Learners added.
    status_ : {"optimal", "max_iter", "time_limit"}
        "optimal": no learner's score exceeded ``tol``; "max_iter": ``max_iter``
        learners added, the usual end (no warning); "time_limit": stopped by
        ``time_limit`` before either (a ConvergenceWarning).
    history_ : list of dict
        Per iteration: restricted objective, largest score, duality gap, learners
        priced, seconds (:func:`mkbench.cg.column_generation`).
    n_features_in_ : int
"""


class CGEnsClassifier(_LearnerEnsemble):
    __doc__ = (
        """CGEns (Algorithm 1): the linear SVM (1) over weak-learner outputs, by column generation.

    Parameters
    ----------"""
        + _COMMON_PARAMETERS
        + """
    tol : float, default=1e-3
        epsilon of Algorithm 1: stop when max_h |sum_i y_i alpha_i h(x_i)| <= tol (eq. 8).
        Scores are in units of C; the master's alpha are accurate to about ``solver_tol``.
    fit_intercept : {"regularized", True}, default="regularized"
        The offset b: penalised like a constant learner (b^2 / 2 added to the
        objective, liblinear's, as the paper ran it), or free, the SVM (1) as written.
    solver : {"dual_cd", "libsvm"}, default="dual_cd"
        Restricted master: warm-started dual coordinate descent (liblinear's; a free
        offset by the method of multipliers; Newton's method in the primal where it is
        slow), or libsvm from scratch, free offset only
        (see the module notes).
    solver_tol : float, default=1e-3
        The master's stopping tolerance (scikit-learn's ``LinearSVC`` / ``SVC`` ``tol``).
    loose_tol : float or None, default=0.1
        For ``solver="dual_cd"``: the tolerance of the masters on the way, liblinear's
        own default for its dual solvers (the paper ran liblinear and states no
        tolerance). The loop tightens the master to ``solver_tol`` before it
        declares the optimum or returns the model, so the final model is the restricted
        SVM to ``solver_tol`` either way; the loose masters take far fewer passes at
        large C (MNIST odd/even, n = 10^4, 100 stumps, C = 1: 93 000 passes in all
        against 3.7 million). None: every master to ``solver_tol``. libsvm ignores it."""
        + _COMMON_REST
    )

    _max_iter_is_size = True  # J_max: the ensemble's size (_MAX_ITER_DOC)

    def __init__(
        self,
        learner: str = "stump",
        *,
        C: float = 1.0,
        max_iter: int = 100,
        time_limit: float | None = None,
        tol: float = 1e-3,
        fit_intercept: bool | str = "regularized",
        solver: str = "dual_cd",
        solver_tol: float = 1e-3,
        loose_tol: float | None = LOOSE_TOL,
        n_candidates: int = 2000,
        gamma: float | None = None,
        random_state=None,
        verbose: int = 0,
    ) -> None:
        self.learner = learner
        self.C = C
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.solver_tol = solver_tol
        self.loose_tol = loose_tol
        self.n_candidates = n_candidates
        self.gamma = gamma
        self.random_state = random_state
        self.verbose = verbose

    def _master(self, signed: np.ndarray) -> SVMDualMaster | LinearSVMCDMaster:
        if not (isinstance(self.solver_tol, Real) and self.solver_tol > 0):
            raise ValueError(f"solver_tol must be a number > 0, got {self.solver_tol!r}")
        if self.loose_tol is not None and not (isinstance(self.loose_tol, Real) and self.loose_tol > 0):
            raise ValueError(f"loose_tol must be a number > 0 or None, got {self.loose_tol!r}")
        if not (self.fit_intercept is True or self.fit_intercept == "regularized"):
            raise ValueError(
                f"fit_intercept must be True (a free offset b, the SVM (1)) or 'regularized' (b^2 / 2 penalised, "
                f"liblinear's), got {self.fit_intercept!r}"
            )
        offset = "free" if self.fit_intercept is True else "regularized"
        if check_choice("solver", self.solver, SOLVERS) == "libsvm" and offset != "free":
            raise ValueError(
                "solver='libsvm' solves the SVM (1) with a free offset: pass fit_intercept=True, or keep the "
                "penalised offset with solver='dual_cd'"
            )
        return make_hinge_master(
            signed, self.C, penalty="l2", alpha_sign="free", intercept=offset, solver=self.solver,
            tol=self.solver_tol, loose_tol=self.loose_tol,
        )
