"""ColumnGenerationClassifier: the engine of every hinge-loss estimator of the package, by column generation.

The five papers share one problem (cgboost §3; CGEns §III-IV): a margin classifier
f(x) = sum_j alpha_j h_j(x) + b over a family of columns h_j, with the 1-norm LP
(cgboost eq. 4; LPBoost) or the 2-norm QP (cgboost eq. 7, 11; CGEns (1)) as master,
solved by column generation. This estimator owns that fit: columns x master x loop.

* the columns: a kernel library (every K_p(., x_j) of "L,Q,R", :mod:`._kernel_columns`)
  or a weak-learner family ("stump", "perceptron", "fourier", :mod:`._learner_columns`);
* the master: ``penalty``, ``positive``, ``fit_intercept``, ``solver``
  (:func:`mkbench.masters.make_hinge_master`);
* the loop: :func:`mkbench.cg.column_generation`, its limits and its ``history_``.

The papers' estimators are its presets, as skglm's ``Lasso`` is a preset of its
``GeneralizedLinearEstimator``: subclasses that keep their papers' parameter names and
defaults and fix the rest, and the tests check that each gives the engine's model:

======================================  ================================================================
CGBoostClassifier(kernels, ...)         columns=kernels, the same penalty, positive, fit_intercept; its
                                        solver="auto" for the LP is HiGHS' primal route (the engine's:
                                        the dual); C=10, every column (max_iter=None) by default
CGEnsClassifier(learner, C)             columns=learner, penalty="l2", fit_intercept="regularized",
                                        solver="dual_cd", tol=1e-3, with the master's tolerances
                                        (``solver_tol``, ``loose_tol``); two classes only
LPBoostClassifier(learner, C)           columns=learner, penalty="l1", fit_intercept=False,
                                        solver="dual"; two classes only
======================================  ================================================================

and it fits what none of them offers, e.g. the 2-norm CG-Boost master over stumps
or LPBoost's LP over a kernel mixture, in one line. A preset sets the class
attributes below (``_columns_param``, ``_learners``, ``_lp_route``,
``_binary_alternative``) and fixes the engine's parameters it lacks as class
attributes (CGEns' ``penalty = "l2"``).

Over weak learners the sign of alpha makes no difference: the families are
negation complete (the search returns h or -h, whichever scores >= 0), so alpha >= 0
over {h, -h} and free alpha over {h} have the same optimum. The 2-norm master is
then solved with free alpha, as CGEns, and the 1-norm LP with alpha >= 0, as
LPBoost; ``positive`` matters for kernel columns only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from numbers import Real
from typing import Any

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import validate_data
from threadpoolctl import threadpool_limits

from ..exceptions import UnknownNameError
from ..kernels import KernelColumns, make_library
from ..learners import LEARNERS
from ..masters import make_hinge_master
from ..masters._solution import check_C
from ..masters.hinge import LP_ROUTES, PENALTIES, SOLVERS
from . import _docs
from ._binary import binary_targets
from ._kernel_columns import INTERCEPTS, KERNEL_CONSTRAINTS, KernelExpansion
from ._learner_columns import LEARNER_CONSTRAINTS, LOOSE_TOL, CoefPath, fit_by_column_generation, learner_outputs
from ._multiclass import MarginClassifierMixin
from ._shared_columns import SharedColumnsMixin
from ._sparse_inputs import ACCEPT_SPARSE, refuse_sparse, sparse_tags
from ._weights import present_rows

__all__ = ["ColumnGenerationClassifier"]


class ColumnGenerationClassifier(SharedColumnsMixin, MarginClassifierMixin, KernelExpansion):
    __doc__ = (
        """A margin classifier over kernel columns or weak learners, with the 1-norm LP or 2-norm QP master.

    Two classes as in the papers; more by one-vs-rest (``estimators_``). ``strategy``,
    ``priority``, ``stratify_ratio``, ``columns_per_iteration``, ``gap_tol``,
    ``memory_budget`` and ``callback`` concern kernel columns only; ``n_candidates``, ``gamma`` and
    ``random_state`` the sampled weak learners, ``max_bins`` the stumps.

    Parameters
    ----------
    columns : str or sequence of kernel specs, default=("linear", "quadratic", "rbf")
        The column family: "stump", "perceptron" or "fourier" (weak learners,
        :mod:`mkbench.learners`), or a kernel library in any form
        :class:`mkbench.CGBoostClassifier` takes ("L,Q,R", names, mappings, callables).
    penalty : {"l2", "l1"}, default="l2"
        1/2 ||alpha||^2 (cgboost eq. 7, 11; CGEns (1)) or ||alpha||_1 (cgboost eq. 4;
        LPBoost), with C sum_i xi_i on the hinge slacks.
    positive : bool or "label", default=False
        Free alpha (§4.2) or alpha >= 0 (cgboost eq. 4, 7) for kernel columns, or
        alpha >= 0 on the label-signed columns (see :class:`mkbench.CGBoostClassifier`);
        the weak-learner families are negation complete, where all give the same model.
        The default is CG-Boost's (symmetric in the classes)."""
        + _docs.SCALING
        + """
    fit_intercept : bool or "regularized", default=True
        A free offset b (cgboost §4.1, second case), b penalised like a constant
        column (first case; liblinear's, as CGEns ran it), or none (LPBoost, where the
        constant stump plays b).
    C : float, default=None
        Weight of the slacks; None: CG-Boost's default (10) for kernel columns, 1 for
        weak learners.
    solver : {"auto", "dual_cd", "clarabel", "osqp", "libsvm"} or, for the LP, {"auto", "dual", "primal"}, default="auto"
        Backend of the 2-norm master (:func:`mkbench.masters.make_hinge_master`;
        "auto": "libsvm" for the full master of kernel columns, ``strategy`` "all",
        else "dual_cd" unless ``fit_intercept=False``, then "clarabel", which also takes
        over where the kernel master "auto" picked fails); for the LP, HiGHS' route, "auto"
        being "dual" (a column is a row of the dual LP, eq. 5, re-solved warm by the
        dual simplex: several times faster).
    tol : float, default=1e-6
        A column enters while its dual violation exceeds ``tol``.
    max_iter : int or None, default=1000
        Most columns to generate; None (kernel columns): the library's P * n."""
        + _docs.LOOP
        + _docs.STRATIFY_RATIO
        + _docs.SAMPLED_LEARNERS
        + _docs.MAX_BINS
        + _docs.PROBABILITY
        + _docs.N_JOBS
        + """

    Attributes
    ----------
    coef_ : ndarray of shape (n_columns,)
        alpha of each generated column (kernel column or weak learner), in order.
    intercept_ : float
    columns_, centres_, kernels_, n_columns_by_kernel_, n_support_
        Kernel columns: as :class:`mkbench.CGBoostClassifier`'s.
    learners_, coef_path_, intercept_path_
        Weak learners: as :class:`mkbench.CGEnsClassifier`'s.
    status_ : {"optimal", "gap_tol", "max_iter", "time_limit"}
        "optimal" certifies the full master's optimum: no column violates by more than ``tol``.
    history_ : list of dict
        Per iteration: objective, max violation, duality gap, columns, seconds
        (:func:`mkbench.cg.column_generation`).
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
    estimators_ : list or None
        With more than two classes, the binary models, one per class (one-vs-rest).

    Examples
    --------
    Compose the columns and the master: LPBoost's 1-norm LP over decision stumps
    (with a free offset b), and the same LP over the columns of a kernel mixture.
    ``status_`` "optimal" certifies that no column violates the dual by more than ``tol``.

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import ColumnGenerationClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> lp = ColumnGenerationClassifier("stump", penalty="l1").fit(X_train, y_train)
    >>> lp.status_, lp.score(X_test, y_test) > 0.9
    ('optimal', True)
    >>> mix = ColumnGenerationClassifier("L,Q,R", penalty="l1").fit(X_train, y_train)
    >>> mix.status_, sorted(mix.n_columns_by_kernel_)
    ('optimal', ['linear', 'quadratic', 'rbf'])
    """
    )

    _parameter_constraints: dict = {
        **{name: rule for name, rule in KERNEL_CONSTRAINTS.items() if name != "kernels"},
        **{name: LEARNER_CONSTRAINTS[name] for name in ("n_candidates", "gamma", "max_bins", "random_state")},
        "columns": "no_validation",  # a learner family or a kernel library: checked by fit, which names both
        "penalty": [StrOptions(set(PENALTIES))],
        "positive": ["boolean", StrOptions({"label"})],
        "C": [Interval(Real, 0, None, closed="neither"), None],
        "solver": [StrOptions({*SOLVERS, *LP_ROUTES})],
        "stratify_ratio": [Interval(Real, 0, 1, closed="left")],
        "probability": ["boolean"],
    }
    #: What a preset sets. The parameter holding the columns; the weak-learner families it may name (none: kernels
    #: only); HiGHS' route for the LP at ``solver="auto"``; for two classes only, what to use for more (the end of
    #: the error message; empty: one-vs-rest).
    _columns_param = "columns"
    _learners: tuple[str, ...] = LEARNERS
    _lp_route = "dual"
    _binary_alternative = ""
    _max_iter_is_size = False  # max_iter is a limit of the loop: reaching it warns
    _kernel_library_params: tuple[
        str, ...
    ] = ()  # ``columns`` may name weak learners: not a library the config check builds

    def __init__(
        self,
        columns: str | Sequence[Any] = ("linear", "quadratic", "rbf"),
        *,
        penalty: str = "l2",
        positive: bool | str = False,
        scaling: str | None = "range",
        normalize_kernels: bool = True,
        fit_intercept: bool | str = True,
        C: float | None = None,
        solver: str = "auto",
        tol: float = 1e-6,
        max_iter: int | None = 1000,
        time_limit: float | None = None,
        strategy: str = "auto",
        priority: Sequence[int | str] | None = None,
        stratify_ratio: float = 0.0,
        columns_per_iteration: int | str = "auto",
        gap_tol: float | None = None,
        memory_budget: int = 512 * 2**20,
        callback: Callable[[Any], Mapping[str, Any] | None] | None = None,
        n_candidates: int = 2000,
        gamma: float | None = None,
        random_state=None,
        max_bins: int | None = 255,
        probability: bool = False,
        n_jobs: int | None = None,
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
        self.priority = priority
        self.stratify_ratio = stratify_ratio
        self.columns_per_iteration = columns_per_iteration
        self.gap_tol = gap_tol
        self.memory_budget = memory_budget
        self.callback = callback
        self.n_candidates = n_candidates
        self.gamma = gamma
        self.random_state = random_state
        self.max_bins = max_bins
        self.probability = probability
        self.n_jobs = n_jobs
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = not self._binary_alternative
        return sparse_tags(tags, self._learner_family() is not None)

    def _learner_family(self) -> str | None:
        """The weak-learner family the columns are, or None for kernel columns."""
        columns = getattr(self, self._columns_param)
        return columns if isinstance(columns, str) and columns in self._learners else None

    def _slack_weight(self) -> float:
        """``C``, with None resolved: 10 for kernel columns (CG-Boost's default), 1 for weak learners."""
        if self.C is not None:
            return self.C
        return 10.0 if self._learner_family() is None else 1.0

    def _lp_solver(self, solver: str) -> str:
        """``solver`` with "auto" resolved for the LP: HiGHS' route of this estimator (``_lp_route``)."""
        return self._lp_route if self.penalty == "l1" and solver == "auto" else solver

    def _solver(self, strategy: str) -> str:
        """``solver`` with "auto" resolved for the LP and for the full master of kernel columns."""
        return self._lp_solver(super()._solver(strategy))

    def _slacks(self, weights: np.ndarray | None) -> float | np.ndarray:
        """The master's C: ``C`` (checked finite and > 0), or C w_i per row with sample weights."""
        C = self._slack_weight()
        return C if weights is None else check_C(C) * weights

    def _kernel_master(self, signed: np.ndarray, C: float | np.ndarray, solver: str, strategy: str):
        """The restricted master over kernel columns, for labels ``signed`` in {-1, +1} and slack weights ``C``."""
        return make_hinge_master(
            signed,
            C,
            penalty=self.penalty,
            solver=solver,
            alpha_sign="nonneg" if self.positive else "free",
            intercept=INTERCEPTS[self.fit_intercept],
            **self._master_options(solver, strategy),
        )

    def _learner_master(self, signed: np.ndarray, C: float | np.ndarray | None = None):
        """The restricted master over weak learners (slack weights ``C``, default ``C``'s): free alpha for the 2-norm
        QP, alpha >= 0 for the LP."""
        return make_hinge_master(
            signed,
            self._slack_weight() if C is None else C,
            penalty=self.penalty,
            alpha_sign="free" if self.penalty == "l2" else "nonneg",
            intercept=INTERCEPTS[self.fit_intercept],
            solver=self._lp_solver(self.solver),
            **self._learner_master_options(),
        )

    def _learner_master_options(self) -> dict[str, float | None]:
        """Options of the master over weak learners: the dual CD masters solve to liblinear's 0.1 on the way."""
        return {"loose_tol": LOOSE_TOL}

    def _check_library(self) -> None:
        """Build the kernel library once, so that a name that is neither a kernel nor a learner says both."""
        try:
            make_library(getattr(self, self._columns_param))
        except UnknownNameError as error:
            raise UnknownNameError(f"{error}; or a weak-learner family: {', '.join(map(repr, LEARNERS))}") from None

    @_fit_context(prefer_skip_nested_validation=True)
    @threadpool_limits.wrap(
        limits=1, user_api="blas"
    )  # small solves: BLAS threads only contend (see estimators/_docs.py, "One BLAS thread")
    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> ColumnGenerationClassifier:
        """Fit; with two classes the second of ``classes_`` is the positive class (+1), with more one-vs-rest.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            A scipy sparse matrix over weak learners (never densified; the model of X
            densified); kernel columns refuse it.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            w_i >= 0, scikit-learn's convention: integer weights fit the rows repeated. Each
            hinge slack is weighted C w_i (the master's per-sample C; its duals then price the
            columns), rows of weight 0 are dropped first, and the input scaling, the kernels'
            normalisation and the RBF's default width are those of the repeated rows (see
            :mod:`mkbench.estimators._kernel_columns`); one-vs-rest and Platt's folds get them too.

        Returns
        -------
        self
        """
        learner = self._learner_family()
        if learner is None and self._learners:
            self._check_library()
        if learner is None:
            refuse_sparse(self, X, "its kernel columns (the RBF's, the inputs' scaling) need dense inputs")
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse=ACCEPT_SPARSE)
        weights, rows = present_rows(sample_weight, X)
        if rows is not None:
            X, y = X[rows], y[rows]
        if not self._binary_alternative and self._fit_one_vs_rest(X, y, weights):
            return self
        self._fit_binary(X, y, weights)
        self._calibrate(X, y, weights)
        return self

    def _fit_per_class(self, binary, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> list:
        """The one-vs-rest models, ``n_jobs`` at a time (:mod:`._shared_columns`), each fitted on one thread."""
        return super()._fit_per_class(binary.set_params(n_jobs=1), X, y, sample_weight)

    def _fit_binary(
        self, X: np.ndarray, y: np.ndarray, weights: np.ndarray | None, columns: KernelColumns | None = None
    ) -> ColumnGenerationClassifier:
        """The model of two classes, over ``columns`` (the kernel values one-vs-rest shares) if given."""
        learner = self._learner_family()
        self.classes_, signed = binary_targets(y, more=self._binary_alternative)
        C = self._slacks(weights)
        if learner is None:
            label_signs = signed if self.positive == "label" else None
            self._fit_master(X, partial(self._kernel_master, signed, C), label_signs, weights, columns)
        else:
            path = CoefPath()
            result = fit_by_column_generation(
                self,
                X,
                self._learner_master(signed, C),
                learner=learner,
                callback=path,
                weights=weights,
                constant=INTERCEPTS[self.fit_intercept] == "none" and learner == "stump",  # b of LPBoost eq. 4
                exclude_chosen=self.penalty == "l2",  # see LearnerOracle: the LP prices its own columns at <= 1
            )
            path.set_model(self, result)
        last = self.history_[-1]
        self.max_violation_ = float(last["max_violation"])
        self.duality_gap_ = float(last["duality_gap"])
        self.objective_ = float(last["objective"])
        return self

    def _decision(self, X: np.ndarray) -> np.ndarray:
        """f(x) = sum_j alpha_j h_j(x) + b (cgboost eq. 3; CGEns Alg. 1); positive means ``classes_[1]``."""
        if self._learner_family() is None:
            return self._expansion(X)
        return learner_outputs(self, X) @ self.coef_ + self.intercept_
