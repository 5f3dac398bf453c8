"""CG-Boost: a mixture of kernels learned by column generation (Bi, Zhang, Bennett, KDD 2004).

The model is f(x) = sum_p sum_j alpha_j^p K_p(x, x_j) + b (cgboost eq. 3): one
coefficient per kernel column (p, j) of the library, most of them zero. Fitting
solves the master problem over all P * n columns by column generation
(:func:`mkbench.cg.column_generation`): the 1-norm LP (eq. 4) or the 2-norm QP
(eq. 7, 11), or the epsilon-insensitive QP for regression (eq. 13; the regressor is in
:mod:`.cgboost_regressor`). The
composite-kernel baselines of Table 1 ("L+Q") are the same estimator with one
composite kernel.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from ..cg import column_generation
from ..exceptions import SolverError
from ..kernels import Kernel, KernelColumns, Sum, make_library
from ..kernels.scaled import normalized
from ..masters import LPMaster, QPMaster, SVMDualMaster, make_hinge_master
from ..oracles import STRATEGIES, KernelOracle
from ..oracles.kernel_oracle import check_columns_per_iteration
from ._binary import binary_targets
from ._scaling import SCALINGS, input_scaling
from ._convergence import warn_unless_optimal
from ._multiclass import MarginClassifierMixin

__all__ = ["CGBoostClassifier"]

_INTERCEPTS = {True: "free", False: "none", "regularized": "regularized"}
#: The exact interior point a stalled default master falls back to.
_FALLBACK_SOLVER = "clarabel"
#: libsvm iterations of the full master (``strategy="all"``) before Clarabel takes over: SMO at libsvm's
#: tolerance 1e-8 needed 131 584 on Friedman #1 (n = 1400, L,Q,R normalised; 0.1 s), past the restricted
#: masters' 100 000, and Clarabel on the 1400 x 4200 columns then took minutes.
_FULL_MASTER_ITERATIONS = 10**7


class _CGBoost(BaseEstimator):
    """What the CG-Boost classifier and regressor share: the kernel expansion and the fit loop."""

    #: Parameters holding a kernel library spec (:func:`mkbench.kernels.make_library`), checked when a workflow
    #: config is read (:func:`mkbench.harness.methods.kernel_problems`).
    _kernel_library_params = ("kernels",)

    def _check_params(self) -> None:
        if self.fit_intercept not in _INTERCEPTS:
            raise ValueError(f"fit_intercept must be True, False or 'regularized', got {self.fit_intercept!r}")
        if self.max_iter is not None and not (isinstance(self.max_iter, (int, np.integer)) and self.max_iter >= 0):
            raise ValueError(
                f"max_iter must be an integer >= 0 or None (every column of the library), got {self.max_iter!r}"
            )
        check_columns_per_iteration(self.columns_per_iteration, ("sqrt", "auto"))
        if self.strategy not in (*STRATEGIES, "all", "auto"):
            raise ValueError(
                f"strategy must be one of {', '.join(map(repr, (*STRATEGIES, 'all', 'auto')))} (column generation, "
                f"stratified or by full scans, every column at once, or 'all' where the model is dense and its "
                f"kernel values fit memory_budget), got {self.strategy!r}"
            )
        if self.scaling not in SCALINGS:
            raise ValueError(
                f"scaling must be 'range' (each feature centred and divided by its range, then all to unit mean "
                f"variance), 'standard' (each feature to unit variance), 'center' or None (the inputs as given), "
                f"got {self.scaling!r}"
            )
        if not isinstance(self.normalize_kernels, (bool, np.bool_)):
            raise ValueError(f"normalize_kernels must be True or False, got {self.normalize_kernels!r}")

    def _strategy(self, n_samples: int) -> str:
        """``strategy`` with "auto" resolved: "all" for the dense 2-norm models whose kernel values fit the budget.

        With alpha of either sign the 2-norm optimum is dense (every alpha_j = score_j, eq. 8),
        so column generation would add the P * n columns one master solve at a time; the full
        master solved directly (one SVM dual on the Gram matrix of all columns) is the same
        optimum (Theorem 3.1). Otherwise, and when the P * n^2 kernel values exceed
        ``memory_budget``, stratified column generation (§5).
        """
        if self.strategy != "auto":
            return self.strategy
        dense = getattr(self, "penalty", "l2") == "l2" and self.positive is False
        fits = len(self._library()) * n_samples**2 * np.dtype(np.float64).itemsize <= self.memory_budget
        return "all" if dense and fits else "stratified"

    def _solver(self, strategy: str) -> str:
        """``solver`` with "auto" resolved for the full master: libsvm's SVM dual on the Gram matrix of all columns."""
        l2 = getattr(self, "penalty", "l2") == "l2"
        if self.solver == "auto" and strategy == "all" and self.fit_intercept is True and l2:
            return "libsvm"
        return self.solver

    def _master_options(self, solver: str, strategy: str) -> dict[str, Any]:
        """Backend options of the master: more libsvm iterations for the full master that ``solver="auto"`` chose.

        (One solve, no warm start; a ``solver="libsvm"`` the user or a paper's protocol gave keeps the master's own
        limit, past which Clarabel takes over.)
        """
        chosen = self.solver == "auto" and solver == "libsvm" and strategy == "all"
        return {"max_iter": _FULL_MASTER_ITERATIONS} if chosen else {}

    def _fit_scaling(self, X: np.ndarray) -> np.ndarray:
        """Fit the input scaling (``scaling``) on the training inputs; return X as the kernels see it."""
        self.input_mean_, self.input_scale_ = input_scaling(X, self.scaling)
        return self._scaled(X)

    def _scaled(self, X: np.ndarray) -> np.ndarray:
        """X as the kernels see it: (X - ``input_mean_``) / ``input_scale_``, or X itself without a scaling."""
        return X if self.input_mean_ is None else (X - self.input_mean_) / self.input_scale_

    def _columns_per_step(self) -> int | str:
        """``columns_per_iteration`` with "auto" resolved: 1 for the LP (LPBoost's rule), "sqrt" for the QPs."""
        if self.columns_per_iteration == "auto":
            return 1 if getattr(self, "penalty", "l2") == "l1" else "sqrt"
        return self.columns_per_iteration

    def _library(self) -> list[Kernel]:
        library = make_library(self.kernels)
        if not self.normalize_kernels:
            return library
        by = "diagonal" if getattr(self, "penalty", "l2") == "l1" else "rows"
        return [normalized(kernel, by, len(library)) for kernel in library]

    def _fit_master(
        self,
        X: np.ndarray,
        make_master: Callable[[str, str], LPMaster | QPMaster | SVMDualMaster],
        signs: np.ndarray | None = None,
    ) -> None:
        """Run column generation over the kernel columns of X; set the fitted attributes.

        ``make_master(solver, strategy)`` builds the master. Where ``solver="auto"`` picked a
        fast master that fails (a :class:`~mkbench.exceptions.SolverError`), the fit starts
        again with the exact interior point (Clarabel), and the first row of ``history_``
        says why. ``signs``: s_j per training point, the master then sees the columns
        s_j K_p(., x_j) and the model's coefficient of column (p, j) is s_j alpha_j.
        """
        if X.shape[0] < 2:
            raise ValueError(f"{type(self).__name__} needs at least 2 samples to learn from, got 1 sample")
        X_seen = self._fit_scaling(X)
        strategy = self._strategy(X.shape[0])
        solver = self._solver(strategy)
        try:
            self._generate(X, X_seen, make_master(solver, strategy), strategy, signs)
        except SolverError as exc:
            if self.solver != "auto" or solver == _FALLBACK_SOLVER:
                raise
            self._generate(X, X_seen, make_master(_FALLBACK_SOLVER, strategy), strategy, signs)
            self.history_[0]["note"] = f"solver {solver!r} failed ({exc}); refitted with {_FALLBACK_SOLVER!r}"
        warn_unless_optimal(
            self, self.status_, self.n_iter_, "columns",
            f"a dual violation of {self.history_[-1]['max_violation']:.3g} > tol={self.tol}",
            "raise max_iter or time_limit to reach the optimum of the master problem",
            accepted=("optimal", "gap_tol"), stacklevel=3,
        )

    def _generate(
        self,
        X: np.ndarray,
        X_seen: np.ndarray,
        master: LPMaster | QPMaster | SVMDualMaster,
        strategy: str,
        signs: np.ndarray | None,
    ) -> None:
        """Column generation of ``master`` over the columns of ``X_seen`` (X as the kernels see it)."""
        columns = KernelColumns(X_seen, self._library(), memory_budget=self.memory_budget, signs=signs)
        oracle = KernelOracle(columns, strategy="full" if strategy == "all" else strategy,
                              priority=self.priority, columns_per_iteration=self._columns_per_step(),
                              stratify_ratio=getattr(self, "stratify_ratio", 0.0))
        entered = _enter_all(columns, master, oracle) if strategy == "all" else []
        self.kernels_ = columns.kernels

        def monitor(solution, choices):  # the current model, fitted for the user's callback
            self._set_model(X, X_seen, solution, entered + choices, signs)
            return self.callback(self)

        result = column_generation(
            master, oracle, tol=self.tol, max_iter=columns.shape[1] if self.max_iter is None else self.max_iter,
            time_limit=self.time_limit,
            gap_tol=self.gap_tol,
            callback=None if self.callback is None else monitor,
            verbose=self.verbose,
            name=type(self).__name__,
        )
        self._set_model(X, X_seen, result.solution, entered + result.choices, signs)
        if entered:  # alpha_j = score_j (eq. 8): a column CG would not have generated at this tol is 0
            self.coef_[np.abs(self.coef_) <= self.tol] = 0.0
        self.n_iter_ = len(entered) + result.n_iter
        self.status_ = result.status
        self.history_ = result.history
        self.n_kernel_columns_computed_ = columns.n_computed

    def _set_model(
        self,
        X: np.ndarray,
        X_seen: np.ndarray,
        solution,
        choices: Sequence[tuple[int, int]],
        signs: np.ndarray | None = None,
    ) -> None:
        kernel_idx = np.array([p for p, _ in choices], dtype=np.intp)
        centre_idx = np.array([j for _, j in choices], dtype=np.intp)
        self.coef_ = np.asarray(solution.alpha, dtype=np.float64).copy()
        if signs is not None:  # the master's alpha_j multiplies s_j K_p(., x_j)
            self.coef_ *= signs[centre_idx]
        self.intercept_ = float(solution.intercept)
        self.columns_ = [(self.kernels_[p].name, int(j)) for p, j in zip(kernel_idx, centre_idx, strict=True)]
        self.centres_ = X[centre_idx]
        self._centres_seen = X_seen[centre_idx]
        self._kernel_idx = kernel_idx

    @property
    def n_columns_by_kernel_(self) -> dict[str, int]:
        """Columns with a nonzero coefficient per base kernel (C_l, C_q, C_r of cgboost Table 1).

        A column of a composite kernel ("linear+quadratic") counts once for each of its parts,
        as in Table 1.
        """
        check_is_fitted(self, "coef_")
        counts: Counter[str] = Counter({k.name: 0 for kernel in self.kernels_ for k in _parts(kernel)})
        for p, coef in zip(self._kernel_idx, self.coef_, strict=True):
            if coef != 0:
                counts.update(k.name for k in _parts(self.kernels_[p]))
        return dict(counts)

    @property
    def n_support_(self) -> int:
        """Columns with a nonzero coefficient: the size of the kernel expansion."""
        check_is_fitted(self, "coef_")
        return int(np.count_nonzero(self.coef_))

    def _expansion(self, X: np.ndarray) -> np.ndarray:
        """f(x) = sum over chosen columns (p, j) of alpha_j^p K_p(x, x_j), plus b (eq. 3).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "coef_")
        X = self._scaled(validate_data(self, X, reset=False))
        f = np.full(X.shape[0], self.intercept_)
        for p, kernel in enumerate(self.kernels_):
            used = (self._kernel_idx == p) & (self.coef_ != 0)
            if used.any():
                f += kernel(X, self._centres_seen[used]) @ self.coef_[used]
        return f


def _enter_all(columns: KernelColumns, master, oracle: KernelOracle) -> list[tuple[int, int]]:
    """Put every column of the library into ``master`` and mark it in ``oracle``; the choices, in master order."""
    centres = np.arange(columns.n_centres)
    for p in range(columns.n_kernels):
        master.add_columns(columns.block(p, centres))
    entered = [(p, int(j)) for p in range(columns.n_kernels) for j in centres]
    for choice in entered:
        oracle.add(choice)
    return entered


def _parts(kernel: Kernel) -> tuple[Kernel, ...]:
    return kernel.kernels if isinstance(kernel, Sum) else (kernel,)


_COMMON_DOC = """
    kernels : str or sequence of kernel specs, default=("linear", "quadratic", "rbf")
        The kernel library S (eq. 3): names ("linear", "quadratic", "rbf", "poly",
        "weak_rbf", or the letters "L", "Q", "R"), mappings such as
        ``{"name": "rbf", "sigma": 2.0}``, or Kernel objects; a string "L,Q,R" is
        a mixture of three kernels, "L+Q" one composite kernel with mu = 1. The RBF
        width defaults to the mean of ||x_i - x_j||^2 over the training points (§5).
    positive : bool or "label", default=False
        Free alpha (§4.2, eq. 11; eq. 13 for regression) or alpha >= 0 (True: eq. 4,
        7, the paper's sparse models). The classifier also takes ``"label"``:
        alpha >= 0 on the label-signed columns y_j K_p(., x_j), the SVM-style
        expansion f(x) = sum_j alpha_j y_j K(x, x_j) + b, i.e. each coefficient of
        the model (``coef_``) has the sign of its centre's label. The paper's eq. 1
        has no y_j; this is the other reading of its sign constraint. False and
        "label" give the same partition whichever class is called positive; True
        does not (its alpha >= 0 favours the class coded +1), and on non-negative
        features such as pixels it collapses (MNIST-1000 odd/even, pixels / 255:
        18.2 % test error against SVC()'s 6.7 %). The default is chosen by
        ``benchmarks/defaults.py`` (issue 42): with the scaling and kernels below,
        free alpha matched SVC() within a point on breast cancer, wine and
        ``make_classification(2000, 50)`` (2-3 splits each) in about a second, while
        "label" took 25-175 s on the latter for the same accuracy.
    scaling : {"range", "standard", "center"} or None, default="range"
        How the inputs are put on one scale before the kernels see them, fitted on
        the training points (``input_mean_``, ``input_scale_``; see
        :func:`input_scaling`): each feature centred and divided by its range, then
        all by one factor so that their mean variance is 1; each feature
        standardised; only centred; or as given (None, the papers' protocols). With
        "range" or "standard" the model is the same whatever the units of each
        feature. Measured by ``benchmarks/defaults.py`` (free alpha, C = 10, 2
        splits each): "range" matched or beat SVC() on raw breast cancer, wine,
        ``make_classification(2000, 50)``, digits and MNIST-1000 odd/even, and SVR()
        on diabetes and Friedman #1; "standard" blew up rare pixels (MNIST: 86-89 %
        accuracy against SVC()'s 93 %; digits 96 % against 98.5 %); "center" left
        the units in (wine: 74 % against 98 %). ``centres_`` stay in the units of X;
        the kernels (``kernels_``) act on the scaled inputs, since an RBF of scaled
        inputs is no RBF of the raw ones.
    normalize_kernels : bool, default=True
        Divide each kernel of the library by a scale set on the training points
        (:mod:`mkbench.kernels.scaled`), so that L, Q and R weigh alike in the master:
        for the 2-norm QPs, so that a point's row of columns has unit mean squared
        norm (each kernel 1 / P of it), and C = 1 means what it means for an RBF SVC
        whatever n; for the LP, unit mean diagonal (columns bounded as LPBoost's
        weak hypotheses). False keeps the kernels in their own units (the papers').
    fit_intercept : bool or "regularized", default=True
        True: a free, unregularised offset b (§4.1, second case); "regularized":
        b penalised like a constant column (§4.1, first case); False: no offset.
    C : float, default=10.0
        Weight of the slacks. With the defaults above (inputs scaled by ranges,
        kernels normalised, free alpha) C = 10 was chosen by ``benchmarks/defaults.py``
        over C in {1, 3, 10, 30}: it matched or beat SVC() / SVR() on every data set
        of the panel and on MNIST-1000 odd/even (93.3-94.3 % against SVC()'s
        92.9-93.5 %, pixels in [0, 1] and centred, 0.5 s), where C = 1 lost 2.5-5
        points on digits and Friedman #1. The papers' protocols give their own C.
    tol : float, default=1e-6
        Columns enter while their dual violation exceeds ``tol`` (eq. 6, 10, 12, 14).
    max_iter : int or None, default=None
        Most columns to generate; None: the library's P * n, which column generation
        never passes (a column enters once), so it ends at the optimum. (Until
        2026-11-26 the default was 1000: CG-Boost L,Q,R on centred MNIST-1000 needs
        1700 columns.)
    strategy : {"auto", "stratified", "full", "all"}, default="auto"
        "auto": "all" for the dense 2-norm models (free alpha) whose P * n^2 kernel
        values fit ``memory_budget``, else "stratified". Stratified column
        generation (§5), a full scan at every iteration, or
        "all": every column of the library enters the master at once and the
        full master is solved directly (``n_iter_`` = P * n, no pricing),
        the optimum column generation reaches (Theorem 3.1, Remark 4.1). For the
        dense models of free alpha (every alpha_j = score_j, eq. 8), where column
        generation would add the P * n columns one master solve at a time; there
        the coefficients with |alpha_j| <= ``tol``, which column generation would
        not have generated, are set to 0. Pair it with ``solver="libsvm"`` (one
        SVM dual on the Gram matrix of all columns).
    priority : sequence of int or str, default=None
        Kernel order of the stratified strategy; None keeps the order of ``kernels``.
    columns_per_iteration : int, "sqrt" or "auto", default="auto"
        Columns entering per pricing step (multiple pricing): the most violating
        one and the next violating columns of the same scan (the kernel that
        supplies the column, with the stratified strategy). 1 is the paper's
        algorithm (§3, §5); "sqrt" enters ceil(sqrt(m)) columns when the master
        holds m; "auto" is "sqrt" for the 2-norm QPs (eq. 7, 11, 13), whose
        optimal alpha is unique (the objective is strictly convex in alpha), so
        the model is the one-column path's, and 1 for the LP (eq. 4), whose
        optimum may not be unique. Measured on MNIST-1000 odd/even L,Q,R (alpha >= 0,
        free offset; 2026-11-26): centred unit-norm pixels 10.9 -> 2.4 s at C = 1
        (1697 columns) and 22 -> 10 s at C = 100; pixels / 255 1.1 -> 0.8 s.
    time_limit : float, default=None
        Seconds after which no column is generated (a ConvergenceWarning is issued).
    gap_tol : float, default=None
        Stop early once the duality gap is at most ``gap_tol`` times the objective
        (Proposition 4.1; the paper's early termination, §5). The gap is known after
        full scans only: every iteration with ``strategy="full"``, and the
        iterations where the stratified strategy finds no violating error-point column.
    memory_budget : int, default=512 MiB
        Bytes of kernel values kept; larger libraries are priced block by block.
    callback : callable, default=None
        ``callback(estimator)`` after each master solve, with the current model
        fitted (``predict`` works); a mapping it returns joins that
        iteration's ``history_`` row (e.g. a validation error, Fig. 1 bottom).
    verbose : int, default=0
        Print a line every ``verbose`` columns (objective, largest dual violation,
        columns, seconds) and one when the fit stops; 0: silent.

    Attributes
    ----------
    coef_ : ndarray of shape (n_columns,)
        alpha of each generated column, in the order generated (some may be 0).
    columns_ : list of (str, int)
        Kernel name and training-point (centre) index of each generated column.
    centres_ : ndarray of shape (n_columns, n_features)
        The centre x_j of each generated column.
    intercept_ : float
    kernels_ : tuple of Kernel
        The library with data-dependent widths resolved.
    n_iter_ : int
        Columns that entered the master: generated one per iteration, or all P * n
        with ``strategy="all"``.
    status_ : {"optimal", "gap_tol", "max_iter", "time_limit"}
    history_ : list of dict
        Per iteration: objective, max violation, duality gap (Prop. 4.1, full scans
        of the QPs), columns per kernel, columns priced and computed, seconds.
    n_columns_by_kernel_ : dict
        Columns with nonzero alpha per base kernel (C_l, C_q, C_r of Table 1).
"""


class CGBoostClassifier(MarginClassifierMixin, _CGBoost):
    __doc__ = (
        """CG-Boost classifier: LPBoost's LP (eq. 4) or the 2-norm QP (eq. 7, 11) by column generation.

    Two classes as in the paper; more by one-vs-rest (one model per class, ``estimators_``).

    Parameters
    ----------
    penalty : {"l2", "l1"}, default="l2"
        2-norm QP (eq. 7, 11) or 1-norm LP (eq. 4; HiGHS).
    solver : {"auto", "dual_cd", "clarabel", "osqp", "libsvm"} or, for the LP, {"auto", "primal", "dual"}, default="auto"
        For ``penalty="l1"``, HiGHS' route through the LP: "primal" ("auto") or
        "dual" (:class:`mkbench.masters.DualLPMaster`, faster). Otherwise the
        backend of the 2-norm restricted masters (:func:`mkbench.masters.make_qp_master`),
        with alpha >= 0 by an active set over the free-alpha duals. "dual_cd" runs
        liblinear's dual coordinate descent from the last master's duals, the free
        offset by the method of multipliers (Newton's method on the smoothed primal
        takes over a master where it is slow, and Clarabel where both fail); "libsvm"
        solves each master as an SVM dual from scratch and needs ``fit_intercept=True``;
        "clarabel" and "osqp" solve the restricted QP directly (any offset). "auto" is
        "libsvm" for the full master (``strategy`` "all"), else "dual_cd" unless
        ``fit_intercept=False``, then "clarabel"; where the master it picks fails,
        the fit starts again with Clarabel and the first row of ``history_`` says why. On MNIST-1000
        L,Q,R, alpha >= 0, free offset, "dual_cd" reached the optimum in 49 s against
        Clarabel's 63 s on pixels / 255 (C = 100), and in 25 s where Clarabel had
        not after 120 s on centred unit-norm pixels (C = 1);
        with Newton's method (2026-11-26), on pixels / 255 at C = 1: 2.3 s of CPU
        against 112 s without it, the same 223 columns and objective;
        its alpha are exactly 0 off the active set, where an interior point leaves
        ~1e-9 on every column it ever generated.
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values, as SVC does,
        so that ``predict_proba`` exists (5 more fits).
    stratify_ratio : float, default=0.0
        What the stratified strategy (``strategy="stratified"``) calls an "appropriate"
        column of a cheaper kernel (§5: "if no appropriate linear kernel column can be
        added, then we consider columns from more complicated kernels"), passed to
        :class:`mkbench.oracles.KernelOracle`: 0, any column violating by more than
        ``tol`` (the default reading); r in (0, 1), a kernel supplies columns only while
        its largest violation exceeds r times its largest violation when its columns
        were first priced, so that columns of later kernels can enter before every
        column of an earlier one has. It changes the path of column generation, not
        its optimum."""
        + _COMMON_DOC
    )

    def __init__(
        self,
        kernels: str | Sequence[Any] = ("linear", "quadratic", "rbf"),
        *,
        penalty: str = "l2",
        solver: str = "auto",
        probability: bool = False,
        positive: bool | str = False,
        scaling: str | None = "range",
        normalize_kernels: bool = True,
        fit_intercept: bool | str = True,
        C: float = 10.0,
        tol: float = 1e-6,
        max_iter: int | None = None,
        strategy: str = "auto",
        priority: Sequence[int | str] | None = None,
        stratify_ratio: float = 0.0,
        columns_per_iteration: int | str = "auto",
        time_limit: float | None = None,
        gap_tol: float | None = None,
        memory_budget: int = 512 * 2**20,
        callback: Callable[[Any], Mapping[str, Any] | None] | None = None,
        verbose: int = 0,
    ) -> None:
        self.kernels = kernels
        self.penalty = penalty
        self.solver = solver
        self.probability = probability
        self.positive = positive
        self.scaling = scaling
        self.normalize_kernels = normalize_kernels
        self.fit_intercept = fit_intercept
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.strategy = strategy
        self.priority = priority
        self.stratify_ratio = stratify_ratio
        self.columns_per_iteration = columns_per_iteration
        self.time_limit = time_limit
        self.gap_tol = gap_tol
        self.memory_budget = memory_budget
        self.callback = callback
        self.verbose = verbose

    def fit(self, X: np.ndarray, y: np.ndarray) -> CGBoostClassifier:
        """Fit; with two classes the second of ``classes_`` is the positive class (+1), with more one-vs-rest.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self._check_params()
        if self.penalty not in ("l1", "l2"):
            raise ValueError(f"penalty must be 'l1' (LP, eq. 4) or 'l2' (QP, eq. 7), got {self.penalty!r}")
        if self.positive not in (True, False, "label"):
            raise ValueError(
                f"positive must be True (alpha >= 0), False (alpha free) or 'label' (alpha >= 0 on the "
                f"label-signed columns y_j K(., x_j)), got {self.positive!r}"
            )
        X, y = validate_data(self, X, y, dtype=np.float64)
        if self._fit_one_vs_rest(X, y):
            return self
        self.classes_, signed = binary_targets(y)

        def make_master(solver: str, strategy: str):
            return make_hinge_master(
                signed, self.C, penalty=self.penalty, solver=solver,
                alpha_sign="nonneg" if self.positive else "free", intercept=_INTERCEPTS[self.fit_intercept],
                **self._master_options(solver, strategy),
            )

        self._fit_master(X, make_master, signed if self.positive == "label" else None)
        self._calibrate(X, y)
        return self

    def _decision(self, X: np.ndarray) -> np.ndarray:
        """f(x) = sum_p sum_j alpha_j^p K_p(x, x_j) + b (eq. 3); positive means ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._expansion(X)
