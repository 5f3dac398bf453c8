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
from ..kernels import Kernel, KernelColumns, Sum, make_library
from ..masters import LPMaster, QPMaster, SVMDualMaster, make_hinge_master
from ..oracles import STRATEGIES, KernelOracle
from ..oracles.kernel_oracle import check_columns_per_iteration
from ._binary import binary_targets
from ._convergence import warn_unless_optimal
from ._multiclass import MarginClassifierMixin

__all__ = ["CGBoostClassifier"]

_INTERCEPTS = {True: "free", False: "none", "regularized": "regularized"}


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
        if self.strategy not in (*STRATEGIES, "all"):
            raise ValueError(
                f"strategy must be one of {', '.join(map(repr, (*STRATEGIES, 'all')))} (column generation, "
                f"stratified or by full scans, or every column at once), got {self.strategy!r}"
            )

    def _columns_per_step(self) -> int | str:
        """``columns_per_iteration`` with "auto" resolved: 1 for the LP (LPBoost's rule), "sqrt" for the QPs."""
        if self.columns_per_iteration == "auto":
            return 1 if getattr(self, "penalty", "l2") == "l1" else "sqrt"
        return self.columns_per_iteration

    def _library(self) -> list[Kernel]:
        return make_library(self.kernels)

    def _fit_master(
        self, X: np.ndarray, master: LPMaster | QPMaster | SVMDualMaster, signs: np.ndarray | None = None
    ) -> None:
        """Run column generation of ``master`` over the kernel columns of X; set the fitted attributes.

        ``signs``: s_j per training point, the master then sees the columns s_j K_p(., x_j)
        and the model's coefficient of column (p, j) is s_j alpha_j.
        """
        if X.shape[0] < 2:
            raise ValueError(f"{type(self).__name__} needs at least 2 samples to learn from, got 1 sample")
        columns = KernelColumns(X, self._library(), memory_budget=self.memory_budget, signs=signs)
        oracle = KernelOracle(columns, strategy="full" if self.strategy == "all" else self.strategy,
                              priority=self.priority, columns_per_iteration=self._columns_per_step())
        entered = _enter_all(columns, master, oracle) if self.strategy == "all" else []
        self.kernels_ = columns.kernels

        def monitor(solution, choices):  # the current model, fitted for the user's callback
            self._set_model(X, solution, entered + choices, signs)
            return self.callback(self)

        result = column_generation(
            master, oracle, tol=self.tol, max_iter=columns.shape[1] if self.max_iter is None else self.max_iter,
            time_limit=self.time_limit,
            gap_tol=self.gap_tol,
            callback=None if self.callback is None else monitor,
            verbose=self.verbose,
            name=type(self).__name__,
        )
        self._set_model(X, result.solution, entered + result.choices, signs)
        if entered:  # alpha_j = score_j (eq. 8): a column CG would not have generated at this tol is 0
            self.coef_[np.abs(self.coef_) <= self.tol] = 0.0
        self.n_iter_ = len(entered) + result.n_iter
        self.status_ = result.status
        self.history_ = result.history
        self.n_kernel_columns_computed_ = columns.n_computed
        warn_unless_optimal(
            self, result.status, result.n_iter, "columns",
            f"a dual violation of {result.history[-1]['max_violation']:.3g} > tol={self.tol}",
            "raise max_iter or time_limit to reach the optimum of the master problem",
            accepted=("optimal", "gap_tol"), stacklevel=3,
        )

    def _set_model(
        self, X: np.ndarray, solution, choices: Sequence[tuple[int, int]], signs: np.ndarray | None = None
    ) -> None:
        kernel_idx = np.array([p for p, _ in choices], dtype=np.intp)
        centre_idx = np.array([j for _, j in choices], dtype=np.intp)
        self.coef_ = np.asarray(solution.alpha, dtype=np.float64).copy()
        if signs is not None:  # the master's alpha_j multiplies s_j K_p(., x_j)
            self.coef_ *= signs[centre_idx]
        self.intercept_ = float(solution.intercept)
        self.columns_ = [(self.kernels_[p].name, int(j)) for p, j in zip(kernel_idx, centre_idx, strict=True)]
        self.centres_ = X[centre_idx]
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
        X = validate_data(self, X, reset=False)
        f = np.full(X.shape[0], self.intercept_)
        for p, kernel in enumerate(self.kernels_):
            used = (self._kernel_idx == p) & (self.coef_ != 0)
            if used.any():
                f += kernel(X, self.centres_[used]) @ self.coef_[used]
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
    positive : bool, default=True for the classifier, False for the regressor
        alpha >= 0 (eq. 4, 7: the paper's models, sparse and fast) or free alpha
        (§4.2, eq. 11; eq. 13 for regression; SSMK eq. 9). The classifier also
        takes ``"label"``: alpha >= 0 on the label-signed columns y_j K_p(., x_j),
        the SVM-style expansion f(x) = sum_j alpha_j y_j K(x, x_j) + b, i.e. each
        coefficient of the model (``coef_``) has the sign of its centre's label.
        The paper's eq. 1 has no y_j; this is the other reading of its sign constraint.
    fit_intercept : bool or "regularized", default=True
        True: a free, unregularised offset b (§4.1, second case); "regularized":
        b penalised like a constant column (§4.1, first case); False: no offset.
    C : float, default=1.0
        Weight of the slacks.
    tol : float, default=1e-6
        Columns enter while their dual violation exceeds ``tol`` (eq. 6, 10, 12, 14).
    max_iter : int or None, default=None
        Most columns to generate; None: the library's P * n, which column generation
        never passes (a column enters once), so it ends at the optimum. (Until
        2026-11-26 the default was 1000: CG-Boost L,Q,R on centred MNIST-1000 needs
        1700 columns.)
    strategy : {"stratified", "full", "all"}, default="stratified"
        Stratified column generation (§5), a full scan at every iteration, or
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
        "dual_cd" unless ``fit_intercept=False``, then "clarabel". On MNIST-1000
        L,Q,R, alpha >= 0, free offset, "dual_cd" reached the optimum in 49 s against
        Clarabel's 63 s on pixels / 255 (C = 100), and in 25 s where Clarabel had
        not after 120 s on centred unit-norm pixels (C = 1);
        with Newton's method (2026-11-26), on pixels / 255 at C = 1: 2.3 s of CPU
        against 112 s without it, the same 223 columns and objective;
        its alpha are exactly 0 off the active set, where an interior point leaves
        ~1e-9 on every column it ever generated.
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values, as SVC does,
        so that ``predict_proba`` exists (5 more fits)."""
        + _COMMON_DOC
    )

    def __init__(
        self,
        kernels: str | Sequence[Any] = ("linear", "quadratic", "rbf"),
        *,
        penalty: str = "l2",
        solver: str = "auto",
        probability: bool = False,
        positive: bool = True,
        fit_intercept: bool | str = True,
        C: float = 1.0,
        tol: float = 1e-6,
        max_iter: int | None = None,
        strategy: str = "stratified",
        priority: Sequence[int | str] | None = None,
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
        self.fit_intercept = fit_intercept
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.strategy = strategy
        self.priority = priority
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
        options = dict(
            alpha_sign="nonneg" if self.positive else "free", intercept=_INTERCEPTS[self.fit_intercept]
        )
        master = make_hinge_master(signed, self.C, penalty=self.penalty, solver=self.solver, **options)
        self._fit_master(X, master, signed if self.positive == "label" else None)
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
