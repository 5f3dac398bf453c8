"""ColumnGenerationClassifier: any hinge master over any column family, by column generation.

The five papers share one problem (cgboost §3; CGEns §III-IV): a margin classifier
f(x) = sum_j alpha_j h_j(x) + b over a family of columns h_j, with the 1-norm LP
(cgboost eq. 4; LPBoost) or the 2-norm QP (cgboost eq. 7, 11; CGEns (1)) as master,
solved by column generation. This estimator states the problem and nothing else:

* ``columns``: a kernel library (every K_p(., x_j) of "L,Q,R", as CG-Boost), or a
  weak-learner family ("stump", "perceptron", "fourier", as CGEns and LPBoost);
* ``penalty``, ``positive``, ``fit_intercept``, ``solver``: the master
  (:func:`mkbench.masters.make_hinge_master`).

The papers' estimators are its presets, and the tests check that each gives the
same model:

======================================  ================================================================
CGBoostClassifier(kernels, ...)         columns=kernels, the same penalty, positive, fit_intercept, solver
CGEnsClassifier(learner, C)             columns=learner, penalty="l2", fit_intercept="regularized",
                                        solver="dual_cd", tol=1e-3
LPBoostClassifier(learner, C)           columns=learner, penalty="l1", fit_intercept=False (solver="auto"
                                        is LPBoost's "dual")
======================================  ================================================================

and it fits what none of them offers, e.g. the 2-norm CG-Boost master over stumps
or LPBoost's LP over a kernel mixture, in one line.

Over weak learners the sign of alpha makes no difference: the families are
negation complete (the search returns h or -h, whichever scores >= 0), so alpha >= 0
over {h, -h} and free alpha over {h} have the same optimum. The 2-norm master is
then solved with free alpha, as CGEns, and the 1-norm LP with alpha >= 0, as
LPBoost; ``positive`` matters for kernel columns only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import UnknownNameError
from ..kernels import make_library
from ..learners import LEARNERS
from ..masters import make_hinge_master
from ._binary import binary_targets
from ._multiclass import MarginClassifierMixin
from .cgboost import _INTERCEPTS, CGBoostClassifier
from .cgens import LOOSE_TOL, _LearnerEnsemble

__all__ = ["ColumnGenerationClassifier"]


class _LearnerColumns(_LearnerEnsemble):
    """Column generation over a weak-learner family with the hinge master its parameters describe."""

    display_name = "ColumnGenerationClassifier"  # in its warnings and progress lines

    def __init__(self, learner, *, C, penalty, intercept, solver, max_iter, time_limit, tol, n_candidates, gamma,
                 random_state, verbose) -> None:
        self.learner = learner
        self.C = C
        self.penalty = penalty
        self.intercept = intercept
        self.solver = solver
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.tol = tol
        self.n_candidates = n_candidates
        self.gamma = gamma
        self.random_state = random_state
        self.verbose = verbose

    @property
    def _constant_learner(self) -> bool:  # the constant stump stands in for a missing offset (LPBoost eq. 4)
        return self.intercept == "none" and self.learner == "stump"

    @property
    def _exclude_chosen(self) -> bool:  # see LearnerOracle: the LP prices its own columns at <= 1
        return self.penalty == "l2"

    def _master(self, signed: np.ndarray):
        sign = "free" if self.penalty == "l2" else "nonneg"
        return make_hinge_master(
            signed, self.C, penalty=self.penalty, alpha_sign=sign, intercept=self.intercept, solver=self.solver,
            loose_tol=LOOSE_TOL,
        )


class ColumnGenerationClassifier(MarginClassifierMixin, BaseEstimator):
    """A margin classifier over kernel columns or weak learners, with the 1-norm LP or 2-norm QP master.

    Two classes as in the papers; more by one-vs-rest (``estimators_``).

    Parameters
    ----------
    columns : str or sequence of kernel specs, default=("linear", "quadratic", "rbf")
        The column family: "stump", "perceptron" or "fourier" (weak learners,
        :mod:`mkbench.learners`), or a kernel library in any form
        :class:`mkbench.CGBoostClassifier` takes ("L,Q,R", names, mappings, callables).
    penalty : {"l2", "l1"}, default="l2"
        1/2 ||alpha||^2 (cgboost eq. 7, 11; CGEns (1)) or ||alpha||_1 (cgboost eq. 4;
        LPBoost), with C sum_i xi_i on the hinge slacks.
    positive : bool, default=False
        Free alpha (§4.2) or alpha >= 0 (cgboost eq. 4, 7) for kernel columns; the
        weak-learner families are negation complete, where both give the same model.
        The default is :class:`mkbench.CGBoostClassifier`'s (symmetric in the classes).
    scaling : {"range", "standard", "center"} or None, default="range"
        Kernel columns only: how the inputs are put on one scale before the kernels see
        them (see :class:`mkbench.CGBoostClassifier`); trees and the sampled learners'
        own scalings do not need it.
    normalize_kernels : bool, default=True
        Kernel columns only: each kernel of the library put on one scale (see
        :class:`mkbench.CGBoostClassifier`).
    fit_intercept : bool or "regularized", default=True
        A free offset b (cgboost §4.1, second case), b penalised like a constant
        column (first case; liblinear's, as CGEns ran it), or none (LPBoost, where the
        constant stump plays b).
    C : float, default=None
        Weight of the slacks; None: :class:`mkbench.CGBoostClassifier`'s default (10)
        for kernel columns, 1 for weak learners.
    solver : {"auto", "dual_cd", "clarabel", "osqp", "libsvm"} or, for the LP, {"auto", "dual", "primal"}, default="auto"
        Backend of the 2-norm master (:func:`mkbench.masters.make_hinge_master`);
        for the LP, HiGHS' route, "auto" being "dual" (a column is a row of the
        dual LP, eq. 5, re-solved warm by the dual simplex: several times faster).
    tol : float, default=1e-6
        A column enters while its dual violation exceeds ``tol``.
    max_iter : int, default=1000
        Most columns to generate.
    time_limit : float, default=None
        Seconds after which no column is generated.
    strategy : {"auto", "stratified", "full", "all"}, default="auto"
        Kernel columns only: see :class:`mkbench.CGBoostClassifier`.
    columns_per_iteration : int, "sqrt" or "auto", default="auto"
        Kernel columns only: columns entering per pricing step (multiple pricing;
        "auto": ceil(sqrt(m)) for the 2-norm QP, one for the LP; see
        :class:`mkbench.CGBoostClassifier`).
    n_candidates : int, default=2000
        Weak learners only: perceptrons or Fourier features drawn per iteration.
    gamma : float, default=None
        Fourier learners only: theta ~ N(0, 2 gamma I); None: scikit-learn's "scale".
    random_state : int, RandomState or None, default=None
        Seeds the sampled weak learners.
    probability : bool, default=False
        Platt probabilities on 5-fold cross-validated decision values (``predict_proba``).
    verbose : int, default=0
        Print a line every ``verbose`` columns; 0: silent.

    Attributes
    ----------
    estimator_ : CGBoostClassifier or the weak-learner ensemble
        The fitted binary model (its ``coef_``, ``intercept_``, ``columns_`` or
        ``learners_``, ``history_``).
    status_ : {"optimal", "gap_tol", "max_iter", "time_limit"}
        "optimal" certifies the full master's optimum: no column violates by more than ``tol``.
    max_violation_ : float
        The largest dual violation over the columns not in the master, at the end.
    duality_gap_ : float
        Primal minus dual objective of the full master at the end (cgboost Prop. 4.1;
        CGEns Claim IV.1): known for the 2-norm master after a full scan of the kernel
        columns or of the stumps; NaN otherwise (the LP has no closed-form gap).
    objective_ : float
        The master's objective at the end.
    n_iter_ : int
        Columns generated.
    classes_ : ndarray

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from mkbench import ColumnGenerationClassifier
    >>> X, y = make_classification(80, 4, random_state=0)
    >>> lp = ColumnGenerationClassifier("stump", penalty="l1", C=1.0).fit(X, y)  # the LP over stumps, free b
    >>> lp.status_
    'optimal'
    """

    def __init__(
        self,
        columns: str | Sequence[Any] = ("linear", "quadratic", "rbf"),
        *,
        penalty: str = "l2",
        positive: bool = False,
        scaling: str | None = "range",
        normalize_kernels: bool = True,
        fit_intercept: bool | str = True,
        C: float | None = None,
        solver: str = "auto",
        tol: float = 1e-6,
        max_iter: int = 1000,
        time_limit: float | None = None,
        strategy: str = "auto",
        columns_per_iteration: int | str = "auto",
        n_candidates: int = 2000,
        gamma: float | None = None,
        random_state=None,
        probability: bool = False,
        verbose: int = 0,
    ) -> None:
        self.columns = columns
        self.penalty = penalty
        self.positive = positive
        self.scaling = scaling
        self.normalize_kernels = normalize_kernels
        self.fit_intercept = fit_intercept
        self.C = C
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.strategy = strategy
        self.columns_per_iteration = columns_per_iteration
        self.n_candidates = n_candidates
        self.gamma = gamma
        self.random_state = random_state
        self.probability = probability
        self.verbose = verbose

    def _binary_model(self) -> CGBoostClassifier | _LearnerColumns:
        if self.fit_intercept not in _INTERCEPTS:
            raise ValueError(f"fit_intercept must be True, False or 'regularized', got {self.fit_intercept!r}")
        solver = "dual" if self.penalty == "l1" and self.solver == "auto" else self.solver  # the faster LP route
        common = dict(tol=self.tol, max_iter=self.max_iter, time_limit=self.time_limit, verbose=self.verbose,
                      solver=solver)
        if isinstance(self.columns, str) and self.columns in LEARNERS:
            return _LearnerColumns(
                self.columns, penalty=self.penalty, intercept=_INTERCEPTS[self.fit_intercept],
                n_candidates=self.n_candidates, gamma=self.gamma, random_state=self.random_state,
                C=1.0 if self.C is None else self.C, **common,
            )
        try:
            make_library(self.columns)
        except UnknownNameError as error:
            raise UnknownNameError(f"{error}; or a weak-learner family: {', '.join(map(repr, LEARNERS))}") from None
        return CGBoostClassifier(
            self.columns, penalty=self.penalty, positive=self.positive, scaling=self.scaling,
            normalize_kernels=self.normalize_kernels, fit_intercept=self.fit_intercept, strategy=self.strategy,
            columns_per_iteration=self.columns_per_iteration, **common,
            **({} if self.C is None else {"C": self.C}),
        )

    def fit(self, X: np.ndarray, y: np.ndarray) -> ColumnGenerationClassifier:
        """Fit; with two classes the second of ``classes_`` is the positive class (+1), with more one-vs-rest.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        if self.penalty not in ("l1", "l2"):
            raise ValueError(f"penalty must be 'l1' (the LP, cgboost eq. 4) or 'l2' (the QP, eq. 7), got {self.penalty!r}")
        model = self._binary_model()
        X, y = validate_data(self, X, y, dtype=np.float64)
        if self._fit_one_vs_rest(X, y):
            return self
        self.classes_, signed = binary_targets(y)
        self.estimator_ = model.fit(X, np.where(signed > 0, 1, 0))
        last = self.estimator_.history_[-1]
        self.status_ = self.estimator_.status_
        self.n_iter_ = self.estimator_.n_iter_
        self.max_violation_ = float(last["max_violation"])
        self.duality_gap_ = float(last["duality_gap"])
        self.objective_ = float(last["objective"])
        self._calibrate(X, y)
        return self

    def _decision(self, X: np.ndarray) -> np.ndarray:
        """f(x) = sum_j alpha_j h_j(x) + b; positive means ``classes_[1]``."""
        check_is_fitted(self, "estimator_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self.estimator_.decision_function(X)
