"""Kernel columns: f(x) = sum_p sum_j alpha_j^p K_p(x, x_j) + b fitted by column generation (cgboost eq. 3).

One coefficient per kernel column (p, j) of a library, most of them zero. This
module holds what every estimator over kernel columns shares:
:class:`mkbench.ColumnGenerationClassifier` (and so its preset
:class:`mkbench.CGBoostClassifier`), :class:`mkbench.CGBoostRegressor` and SSMK's
expansion: the library (each kernel normalised or not), the input scaling, the
strategy (stratified or full column generation, or every column at once), the
restricted master of the full master solved directly (libsvm) and the Clarabel
fallback of a failing master that ``solver="auto"`` picked, the loop
(:func:`mkbench.cg.column_generation`) and the fitted expansion. The estimator
builds the master (the problem) and names the parameter holding the library.

Sample weights (scikit-learn's convention: integer weights fit the rows repeated) reach
the fit as the master's per-sample C (the estimator's ``C * w``) and here as what the
repeated rows would change besides: the input scaling and the kernels' data-dependent
scales (the RBF's default width, :func:`weighted_library`) are those of the repeated
rows, and, for the 2-norm masters, column j is scaled by sqrt(w_j): w_j copies of a
column share its coefficient equally at the optimum (penalty a^2 / (2 w_j) in all), which
is one column sqrt(w_j) K(., x_j) with coefficient a / sqrt(w_j). The 1-norm LP needs no
such scaling (the copies' |alpha| sum to |a| however they split it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from numbers import Integral, Real
from typing import Any

import numpy as np
from joblib import effective_n_jobs
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data
from threadpoolctl import threadpool_limits

from ..cg import column_generation
from ..exceptions import SolverError
from ..kernels import Kernel, KernelColumns, Sum, make_library
from ..kernels.functions import RBF
from ..kernels.scaled import Normalized, normalized
from ..masters import LPMaster, QPMaster, SVMDualMaster
from ..oracles import STRATEGIES, KernelOracle
from ._binary import check_enough
from ._convergence import warn_unless_optimal
from ._learner_columns import N_JOBS_CONSTRAINT
from ._scaling import SCALINGS
from ._weights import weighted_input_scaling

__all__ = ["INTERCEPTS", "KERNEL_CONSTRAINTS", "KernelExpansion", "blas_threads", "enter_all", "weighted_library"]

#: ``fit_intercept`` -> the master's offset: free (cgboost §4.1, second case), none, or penalised (first case).
INTERCEPTS = {True: "free", False: "none", "regularized": "regularized"}
#: The exact interior point a stalled default master falls back to.
_FALLBACK_SOLVER = "clarabel"
#: libsvm iterations of the full master (``strategy="all"``) before Clarabel takes over: SMO at libsvm's
#: tolerance 1e-8 needed 131 584 on Friedman #1 (n = 1400, L,Q,R normalised; 0.1 s), past the restricted
#: masters' 100 000, and Clarabel on the 1400 x 4200 columns then took minutes.
_FULL_MASTER_ITERATIONS = 10**7

#: The parameters of a fit over kernel columns and of its loop, in CG-Boost's names (``_parameter_constraints``).
KERNEL_CONSTRAINTS: dict = {
    "kernels": "no_validation",  # make_library names an unknown kernel and lists the known ones
    "scaling": [StrOptions({name for name in SCALINGS if name is not None}), None],
    "normalize_kernels": ["boolean"],
    "fit_intercept": ["boolean", StrOptions({"regularized"})],
    "C": [Interval(Real, 0, None, closed="neither")],
    "tol": [Interval(Real, 0, None, closed="left")],
    "max_iter": [Interval(Integral, 0, None, closed="left"), None],
    "strategy": [StrOptions({*STRATEGIES, "all", "auto"})],
    "priority": ["array-like", None],
    "columns_per_iteration": [Interval(Integral, 1, None, closed="left"), StrOptions({"sqrt", "auto"})],
    "time_limit": [Interval(Real, 0, None, closed="neither"), None],
    "gap_tol": [Interval(Real, 0, None, closed="neither"), None],
    "memory_budget": [Interval(Integral, 1, None, closed="left")],
    "callback": [callable, None],
    "n_jobs": N_JOBS_CONSTRAINT,
    "verbose": [Interval(Integral, 0, None, closed="left")],
}


def blas_threads(n_jobs: int | None) -> AbstractContextManager:
    """BLAS on ``n_jobs`` threads within the block (scikit-learn's convention, :func:`joblib.effective_n_jobs`).

    A fit over kernel columns is BLAS products: the Gram blocks K_p(X, X) (GEMM), the
    full master's G = H H' (:class:`mkbench.masters.SVMDualMaster`), the pricing scores
    K_p w (GEMV). The fits run on one BLAS thread (``threadpool_limits`` on ``fit``; see
    :mod:`._docs`, "One BLAS thread"); with ``n_jobs`` > 1 these products take ``n_jobs``
    threads. For one (None's default), nothing changes.
    """
    n = effective_n_jobs(n_jobs)
    return threadpool_limits(limits=n, user_api="blas") if n > 1 else nullcontext()


class KernelExpansion(BaseEstimator):
    """The kernel expansion and its fit by column generation; the estimator supplies the master."""

    n_jobs: int | None = None  # BLAS threads of a fit (:func:`blas_threads`); an estimator's own parameter overrides it

    #: Parameters holding a kernel library spec (:func:`mkbench.kernels.make_library`), checked when a workflow
    #: config is read (:func:`mkbench.harness.methods.kernel_problems`).
    _kernel_library_params: tuple[str, ...] = ("kernels",)
    n_iter_: int | np.ndarray  # an array in the one-vs-rest subclasses (MarginClassifierMixin)
    columns_: list[tuple[Any, ...]]  # (kernel name, centre); SSMK adds whether the centre is labelled
    #: The parameter holding the library this estimator fits.
    _columns_param = "kernels"

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

    def _master_options(self, solver: str, strategy: str) -> dict[str, int]:
        """Backend options of the master: more libsvm iterations for the full master that ``solver="auto"`` chose.

        (One solve, no warm start; a ``solver="libsvm"`` the user or a paper's protocol gave keeps the master's own
        limit, past which Clarabel takes over.)
        """
        chosen = self.solver == "auto" and solver == "libsvm" and strategy == "all"
        return {"max_iter": _FULL_MASTER_ITERATIONS} if chosen else {}

    def _fit_scaling(self, X: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Fit the input scaling (``scaling``) on the (weighted) training inputs; return X as the kernels see it."""
        self.input_mean_, self.input_scale_ = weighted_input_scaling(X, self.scaling, weights)
        return self._scaled(X)

    def _scaled(self, X: np.ndarray) -> np.ndarray:
        """X as the kernels see it: (X - ``input_mean_``) / ``input_scale_``, or X itself without a scaling."""
        return X if self.input_mean_ is None else (X - self.input_mean_) / self.input_scale_

    def _columns_per_step(self) -> int | str:
        """``columns_per_iteration`` with "auto" resolved: 1 for the LP (LPBoost's rule), "sqrt" for the QPs."""
        if self.columns_per_iteration == "auto":
            return 1 if getattr(self, "penalty", "l2") == "l1" else "sqrt"
        return self.columns_per_iteration

    def _library(self, X_seen: np.ndarray | None = None, weights: np.ndarray | None = None) -> list[Kernel]:
        """The library, each kernel normalised (``normalize_kernels``); with ``weights``, resolved on the weighted X."""
        library = make_library(getattr(self, self._columns_param))
        by = "diagonal" if getattr(self, "penalty", "l2") == "l1" else "rows"
        if weights is not None:
            assert X_seen is not None  # weights come with the rows they weigh
            return weighted_library(library, X_seen, weights, by if self.normalize_kernels else None)
        if not self.normalize_kernels:
            return library
        return [normalized(kernel, by, len(library)) for kernel in library]

    def _column_scales(self, weights: np.ndarray | None) -> np.ndarray | None:
        """sqrt(w_j) of the columns sqrt(w_j) K_p(., x_j) of the 2-norm masters (see the module); None: all 1."""
        if weights is None or getattr(self, "penalty", "l2") == "l1":
            return None
        return np.sqrt(weights)

    def _kernel_columns(self, X: np.ndarray, weights: np.ndarray | None = None) -> KernelColumns:
        """The kernel values of X's columns, label-free: the store one-vs-rest shares across classes.

        Fits the input scaling (weighted) and resolves the library on X as the kernels see
        it; column j is scaled by sqrt(w_j) for the 2-norm masters. The Gram blocks are kept
        within ``memory_budget`` (:class:`mkbench.kernels.KernelColumns`).
        """
        X_seen = self._fit_scaling(X, weights)
        library = self._library(X_seen, weights)
        return KernelColumns(X_seen, library, memory_budget=self.memory_budget, signs=self._column_scales(weights))

    def _fit_master(
        self,
        X: np.ndarray,
        make_master: Callable[[str, str], LPMaster | QPMaster | SVMDualMaster],
        signs: np.ndarray | None = None,
        weights: np.ndarray | None = None,
        columns: KernelColumns | None = None,
    ) -> None:
        """Run column generation over the kernel columns of X; set the fitted attributes.

        ``make_master(solver, strategy)`` builds the master. Where ``solver="auto"`` picked a
        fast 2-norm master that fails (a :class:`~mkbench.exceptions.SolverError`), the fit
        starts again with the exact interior point (Clarabel), and the first row of
        ``history_`` says why. ``signs``: s_j per training point, the master then sees the
        columns s_j K_p(., x_j) and the model's coefficient of column (p, j) is s_j alpha_j.
        ``weights``: the positive sample weights of the rows of X (the master built by
        ``make_master`` has C w_i already); see the module for what else they change.
        ``columns``: the kernel values of X (:meth:`_kernel_columns` with the same
        ``weights``, the input scaling fitted) that one-vs-rest shares; None: computed here.
        BLAS runs on ``n_jobs`` threads (:func:`blas_threads`).
        """
        check_enough(self, X.shape[0])
        with blas_threads(self.n_jobs):
            columns = self._kernel_columns(X, weights) if columns is None else columns
            strategy = self._strategy(X.shape[0])
            solver = self._solver(strategy)
            try:
                self._generate(X, columns.with_signs(signs), make_master(solver, strategy), strategy)
            except SolverError as exc:
                lp = getattr(self, "penalty", "l2") == "l1"  # HiGHS' routes have no interior point to fall back to
                if self.solver != "auto" or solver == _FALLBACK_SOLVER or lp:
                    raise
                self._generate(X, columns.with_signs(signs), make_master(_FALLBACK_SOLVER, strategy), strategy)
                self.history_[0]["note"] = f"solver {solver!r} failed ({exc}); refitted with {_FALLBACK_SOLVER!r}"
        warn_unless_optimal(
            self,
            self.status_,
            int(self.n_iter_),  # an int: the binary fit's count, just set
            "columns",
            f"a dual violation of {self.history_[-1]['max_violation']:.3g} > tol={self.tol}",
            "raise max_iter or time_limit to reach the optimum of the master problem",
            accepted=("optimal", "gap_tol"),
            stacklevel=4,
        )

    def _generate(
        self, X: np.ndarray, columns: KernelColumns, master: LPMaster | QPMaster | SVMDualMaster, strategy: str
    ) -> None:
        """Column generation of ``master`` over ``columns``, the master's columns of X as the kernels see it."""
        oracle = KernelOracle(
            columns,
            strategy="full" if strategy == "all" else strategy,
            priority=self.priority,
            columns_per_iteration=self._columns_per_step(),
            stratify_ratio=getattr(self, "stratify_ratio", 0.0),
        )
        entered = enter_all(columns, master, oracle) if strategy == "all" else []
        self.kernels_ = columns.kernels

        def monitor(solution, choices):  # the current model, fitted for the user's callback
            self._set_model(X, columns, solution, entered + choices)
            return self.callback(self)

        result = column_generation(
            master,
            oracle,
            tol=self.tol,
            max_iter=columns.shape[1] if self.max_iter is None else self.max_iter,
            time_limit=self.time_limit,
            gap_tol=self.gap_tol,
            callback=None if self.callback is None else monitor,
            verbose=self.verbose,
            name=type(self).__name__,
        )
        self._set_model(X, columns, result.solution, entered + result.choices)
        if entered:  # alpha_j = score_j (eq. 8): a column CG would not have generated at this tol is 0
            self.coef_[np.abs(self.coef_) <= self.tol] = 0.0
        self.n_iter_ = len(entered) + result.n_iter
        self.status_ = result.status
        self.history_ = result.history
        self.n_kernel_columns_computed_ = columns.n_computed

    def _set_model(self, X: np.ndarray, columns: KernelColumns, solution, choices: Sequence[tuple[int, int]]) -> None:
        kernel_idx = np.array([p for p, _ in choices], dtype=np.intp)
        centre_idx = np.array([j for _, j in choices], dtype=np.intp)
        self.coef_ = np.asarray(solution.alpha, dtype=np.float64).copy()
        signs = columns.factors
        if signs is not None:  # the master's alpha_j multiplies s_j K_p(., x_j)
            self.coef_ *= signs[centre_idx]
        self.intercept_ = float(solution.intercept)
        self.columns_ = [(self.kernels_[p].name, int(j)) for p, j in zip(kernel_idx, centre_idx, strict=True)]
        self.centres_ = X[centre_idx]
        self._centres_seen = columns.centres[centre_idx]
        self._kernel_idx = kernel_idx

    def _check_kernel_model(self) -> None:
        """Raise unless a kernel expansion is fitted (a model over weak learners has no kernel columns)."""
        check_is_fitted(self, "coef_")
        if not hasattr(self, "kernels_"):
            raise AttributeError(f"{type(self).__name__} over weak learners has no kernel columns")

    @property
    def n_columns_by_kernel_(self) -> dict[str, int]:
        """Columns with a nonzero coefficient per base kernel (C_l, C_q, C_r of cgboost Table 1).

        A column of a composite kernel ("linear+quadratic") counts once for each of its parts,
        as in Table 1.
        """
        self._check_kernel_model()
        counts: Counter[str] = Counter({k.name: 0 for kernel in self.kernels_ for k in _parts(kernel)})
        for p, coef in zip(self._kernel_idx, self.coef_, strict=True):
            if coef != 0:
                counts.update(k.name for k in _parts(self.kernels_[p]))
        return dict(counts)

    @property
    def n_support_(self) -> int:
        """Columns with a nonzero coefficient: the size of the kernel expansion."""
        self._check_kernel_model()
        return int(np.count_nonzero(self.coef_))

    def _expansion(self, X: np.ndarray) -> np.ndarray:
        """f(X) = sum over chosen columns (p, j) of alpha_j^p K_p(X, x_j), plus b (eq. 3), X validated."""
        check_is_fitted(self, "coef_")
        X = self._scaled(validate_data(self, X, reset=False))
        f = np.full(X.shape[0], self.intercept_)
        for p, kernel in enumerate(self.kernels_):
            used = (self._kernel_idx == p) & (self.coef_ != 0)
            if used.any():
                f += kernel(X, self._centres_seen[used]) @ self.coef_[used]
        return f


def enter_all(columns: KernelColumns, master, oracle: KernelOracle) -> list[tuple[int, int]]:
    """Put every column of the library into ``master`` and mark it in ``oracle``; the choices, in master order."""
    centres = np.arange(columns.n_centres)
    for p in range(columns.n_kernels):
        master.add_columns(columns.block(p, centres))
    entered = [(p, int(j)) for p in range(columns.n_kernels) for j in centres]
    for choice in entered:
        oracle.add(choice)
    return entered


def weighted_library(library: list[Kernel], X: np.ndarray, weights: np.ndarray, by: str | None) -> list[Kernel]:
    """``library`` resolved on the rows of X repeated ``weights`` times, each kernel normalised ``by`` (None: not).

    The RBF's default width is the weighted mean squared distance, 2 sum_i w_i ||x_i - xbar_w||^2 / sum_i w_i;
    the scales of :class:`mkbench.kernels.scaled.Normalized` the weighted mean diagonal ("diagonal") and
    P sum_i w_i sum_j w_j K(x_i, x_j)^2 / sum_i w_i ("rows", over the evenly spaced rows
    :func:`mkbench.kernels.scaled.mean_row_norm` reads when there are more than 512).
    """
    total = float(weights.sum())
    centred = X - np.average(X, axis=0, weights=weights)
    width = 2.0 * float(weights @ np.einsum("ij,ij->i", centred, centred)) / total

    def resolve(kernel: Kernel) -> Kernel:
        if isinstance(kernel, Sum):
            return Sum(tuple(resolve(part) for part in kernel.kernels))
        if isinstance(kernel, RBF) and kernel.sigma is None and width > 0:
            return replace(kernel, sigma=width)
        return kernel.resolve(X)  # no weighted default, or all points at one place: the kernel's own error

    def scaled(kernel: Kernel, how: str, n_kernels: int) -> Normalized:
        if how == "diagonal":
            diagonal = np.concatenate([np.diag(kernel(X[i : i + 256], X[i : i + 256])) for i in range(0, len(X), 256)])
            scale = float(weights @ diagonal) / total
        else:
            rows = np.unique(np.linspace(0, X.shape[0] - 1, min(X.shape[0], 512)).astype(np.intp))
            block = kernel(X[rows], X)
            scale = float(np.sqrt(n_kernels * (weights[rows] @ (np.square(block) @ weights)) / weights[rows].sum()))
        if not (np.isfinite(scale) and scale > 0):
            return Normalized(kernel, by=how, n_kernels=n_kernels).resolve(X)  # raises, naming the kernel
        return Normalized(kernel, by=how, n_kernels=n_kernels, scale=scale)

    resolved = [resolve(kernel) for kernel in library]
    if by is None:
        return resolved
    parts = [
        Sum(tuple(scaled(part, "diagonal", 1) for part in kernel.kernels)) if isinstance(kernel, Sum) else kernel
        for kernel in resolved
    ]
    return [scaled(kernel, by, len(library)) for kernel in parts]


def _parts(kernel: Kernel) -> tuple[Kernel, ...]:
    return kernel.kernels if isinstance(kernel, Sum) else (kernel,)
