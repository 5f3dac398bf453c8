"""The 2-norm restricted masters with free alpha and a free offset, solved in the dual by libsvm.

With free alpha and a free, unpenalised offset b, the restricted master (cgboost
eq. 11 with b, §4.1 second case) has the dual

    max_u  sum_i u_i - 1/2 u' Y K_W K_W' Y u    s.t.  sum_i u_i y_i = 0,  0 <= u_i <= C_i,

which is exactly the dual of an SVM whose Gram matrix is G = K_W K_W' (the
columns of the working set W are the features), and alpha = K_W' Y u (eq. 8
with equality). The epsilon-insensitive master (eq. 13 with b) is likewise the
dual of an SVR on G, with alpha = K_W' (u - v). So each restricted master is one
libsvm solve with a precomputed kernel, exactly as scikit-learn's SVC / SVR make it
(:func:`mkbench.masters.libsvm_call.solve_precomputed`, without their per-call input checks), the "existing
algorithms for constructing single kernel models" the paper means to leverage
(§7). Adding a column K_.j updates G by the rank-one term K_.j K_.j'. A per-sample
C_i = C w_i is libsvm's own per-sample box (SVC's ``sample_weight``).

Why this backend: the interior-point QP (:mod:`.qp_osqp`, Clarabel) costs
seconds per restricted master on MNIST-1000 once a few hundred columns are in,
and OSQP and HiGHS's active-set QP do not converge on these LP-like problems
(measured; see the module docstring of :mod:`.qp_osqp`); libsvm's SMO solves the
same duals in tens of milliseconds on unit-norm MNIST rows. It covers only free
alpha with a free b, and it is opt-in (:func:`make_qp_master`, ``solver="libsvm"``
of the estimators): libsvm caches kernel values in single precision, so its
solutions are accurate to about 1e-4, and SMO crawls on ill-conditioned Gram
matrices.

The objective reported is the dual objective at libsvm's u, which equals the
restricted primal optimum up to libsvm's tolerance (the primal at alpha = K_W' Y u
converges more slowly, being nonsmooth in the margins).
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

import numpy as np

from ._solution import (
    ON_FAILURE,
    OPTIMAL,
    SOLVER_REMEDY,
    ColumnStore,
    FreeSignQPPricing,
    MasterSolution,
    add_outer,
    as_column_block,
    check_C,
    check_choice,
    check_epsilon,
    check_labels,
    check_responses,
    failure,
)
from .active_set import NonnegActiveSet
from .libsvm_call import solve_precomputed
from .qp_osqp import LOSSES, QPMaster, solve_qp
from .svm_cd import LinearSVMCDMaster, NonnegLinearSVMCDMaster
from .svm_cd_offset import FreeOffsetSVMCDMaster, NonnegFreeOffsetSVMCDMaster

__all__ = ["NonnegSVMDualMaster", "SVMDualMaster", "make_qp_master"]


class SVMDualMaster(FreeSignQPPricing):
    """Restricted 2-norm master with free alpha and free b, solved as an SVM / SVR dual by libsvm.

    Parameters
    ----------
    y : array-like of shape (n_rows,)
        Labels in {-1, +1} (hinge) or real responses (epsilon-insensitive).
    C : float or array-like of shape (n_rows,)
        Weight of the slacks, > 0; or one per row, C_i >= 0 (not all 0): C_i = C w_i
        for sample weights w, solved as ``SVC(C=C).fit(K_W K_W', y, sample_weight=w)``
        would (:func:`.solve_precomputed`). Rows of C_i = 0 are left out of libsvm's
        problem (u_i = 0).
    loss : {"hinge", "epsilon_insensitive"}, default="hinge"
        Classification (eq. 11 with b) or regression (eq. 13 with b).
    epsilon : float, default=0.1
        Width of the insensitive tube (regression only), >= 0.
    columns : array-like of shape (n_rows, k), default=None
        Initial columns, as if passed to :meth:`add_columns`.
    tol : float, default=1e-8
        libsvm's stopping tolerance on the dual KKT violation (scikit-learn's 1e-3
        is far too loose for pricing scores compared with 0, Remark 4.1).
    max_iter : int, default=100_000
        libsvm iterations per solve (-1 for none). SMO crawls on ill-conditioned
        Gram matrices (quadratic columns, standardised regression data: 10^7
        iterations in 47 s on diabetes); past ``max_iter`` the solve is handed to
        Clarabel's interior point on the same columns (``n_exact_solves`` counts them).
    on_failure : {"raise", "record"}, default="raise"
        When Clarabel fails too, raise SolverError or return a record with that
        status and NaN values.

    Notes
    -----
    Dual sign convention as :class:`.QPMaster`: ``duals`` are u >= 0 of eq. 9
    ([u; v] of eq. 13), read from scikit-learn's ``dual_coef_`` = y_i u_i (SVC) or
    u_i - v_i (SVR); ``pricing_weights`` are y * u or u - v, so a candidate
    column prices at score_j = K_.j' w and the master is optimal iff every
    column outside it has score_j = 0 (Remark 4.1-4.2).
    """

    intercept = "free"

    def __init__(
        self,
        y: np.ndarray,
        C: float | np.ndarray,
        *,
        loss: str = "hinge",
        epsilon: float = 0.1,
        columns: np.ndarray | None = None,
        tol: float = 1e-8,
        max_iter: int = 100_000,
        on_failure: str = "raise",
    ) -> None:
        self.loss = check_choice("loss", loss, LOSSES)
        self.on_failure = check_choice("on_failure", on_failure, ON_FAILURE)
        self.epsilon = check_epsilon(epsilon)
        self.y = check_labels(y) if self.loss == "hinge" else check_responses(y)
        self.C = check_C(C, self.n_rows)
        self.tol = float(tol)
        self.max_iter = int(max_iter)
        self._columns = ColumnStore(self.n_rows)
        self._gram = np.zeros((self.n_rows, self.n_rows))
        if columns is not None:
            self.add_columns(columns)

    @property
    def n_columns(self) -> int:
        return len(self._columns)

    def add_columns(self, K: np.ndarray) -> None:
        """Append candidate columns K_.j and add K_.j K_.j' to the Gram matrix G of the dual.

        Parameters
        ----------
        K : array-like of shape (n_rows, k) or (n_rows,)
            Kernel columns, e.g. ``KernelColumns.block(p, centres)``.
        """
        K = as_column_block(K, self.n_rows)
        self._columns.append(K)
        self._gram = add_outer(self._gram, K)

    n_exact_solves = 0  # solves handed to Clarabel

    def _free_columns(self) -> np.ndarray:
        """The columns of the free-alpha problem this master solves (all of them here)."""
        return self._columns.array

    def _solve_free(self) -> tuple[np.ndarray, float, int, bool]:
        """One libsvm solve on the Gram matrix, or Clarabel's past ``max_iter``: (w, b, iterations, converged).

        w = y * u or u - v; Clarabel's failure surfaces as a SolverError (or record) of its own.
        """
        dual = solve_precomputed(
            self._gram,
            self.y,
            C=self.C,
            tol=self.tol,
            max_iter=self.max_iter,
            epsilon=None if self.loss == "hinge" else self.epsilon,
        )
        if dual.converged:
            return dual.dual_coef, dual.intercept, dual.iterations, True
        exact = solve_qp(
            self._free_columns(),
            self.y,
            self.C,
            loss=self.loss,
            epsilon=self.epsilon,
            alpha_sign="free",
            intercept="free",
            on_failure=self.on_failure,
        )
        self.n_exact_solves += 1
        return exact.pricing_weights, exact.intercept, dual.iterations + exact.iterations, exact.optimal

    def _failure(self, iterations: int, seconds: float, status: str = "max_iter reached") -> MasterSolution:
        return failure(
            solver="libsvm",
            problem=f"SVM dual ({self.loss}, alpha {self.alpha_sign})",
            status=status,
            n_rows=self.n_rows,
            n_columns=self.n_columns,
            n_constraints=self.n_rows * (1 if self.loss == "hinge" else 2),
            iterations=iterations,
            seconds=seconds,
            on_failure=self.on_failure,
            remedy=SOLVER_REMEDY,
        )

    def _solution(self, w: np.ndarray, b: float, alpha: np.ndarray, iterations: int, seconds: float) -> MasterSolution:
        """The primal-dual record at libsvm's dual point w; the objective is the dual objective."""
        f = self._columns.array @ alpha + b
        if self.loss == "hinge":
            duals = w * self.y
            xi = np.maximum(0.0, 1.0 - self.y * f)
            objective = duals.sum() - 0.5 * alpha @ alpha
        else:
            duals = np.concatenate([np.maximum(w, 0.0), np.maximum(-w, 0.0)])
            xi = np.concatenate(
                [np.maximum(0.0, self.y - self.epsilon - f), np.maximum(0.0, f - self.y - self.epsilon)]
            )
            objective = w @ self.y - self.epsilon * np.abs(w).sum() - 0.5 * alpha @ alpha
        return MasterSolution(
            alpha=alpha,
            intercept=b,
            xi=xi,
            duals=duals,
            pricing_weights=w,
            objective=float(objective),
            status=OPTIMAL,
            iterations=iterations,
            seconds=seconds,
        )

    def solve(self) -> MasterSolution:
        """Solve the restricted dual with libsvm (no warm start: SMO from u = 0).

        Returns
        -------
        MasterSolution

        Raises
        ------
        SolverError
            If libsvm stops at ``max_iter`` and ``on_failure == "raise"``.
        """
        start = perf_counter()
        w, b, iterations, converged = self._solve_free()
        if not converged:
            return self._failure(iterations, perf_counter() - start)
        return self._solution(w, b, self._columns.array.T @ w, iterations, perf_counter() - start)


class NonnegSVMDualMaster(NonnegActiveSet, SVMDualMaster):
    """Restricted 2-norm master with alpha >= 0 and a free b (eq. 7, 13 with b), by an active set over libsvm.

    The Lawson-Hanson steps of :class:`.NonnegActiveSet` around
    :class:`SVMDualMaster`: the free master on the passive set P is the SVM (SVR)
    dual on G_P = K_P K_P', which gains K_.j K_.j' when column j enters P and is
    recomputed when columns leave.

    Parameters
    ----------
    y, C, loss, epsilon, columns, tol, max_iter, on_failure
        As for :class:`SVMDualMaster`.
    entry_tol : float, default=1e-7
        A column of W enters P when its score exceeds this; keep it above
        libsvm's accuracy on the scores, or a column may enter and leave again.
    max_steps : int, default=None
        Most active-set steps per solve (None: 10 * n_columns + 100); reaching
        it is a failure, reported like libsvm's iteration limit.
    """

    def __init__(
        self,
        y: np.ndarray,
        C: float | np.ndarray,
        *,
        entry_tol: float = 1e-7,
        max_steps: int | None = None,
        columns: np.ndarray | None = None,
        **options: Any,
    ) -> None:
        super().__init__(y, C, **options)
        self._start_active_set(self.n_rows, entry_tol, max_steps)
        if columns is not None:
            self.add_columns(columns)

    def _passive_entered(self, js: np.ndarray) -> None:
        self._gram = add_outer(self._gram, self._columns.array[:, js])

    def _passive_left(self) -> None:
        K_P = self._columns.array[:, self._passive]
        self._gram = K_P @ K_P.T

    def _free_columns(self) -> np.ndarray:
        """The columns of the passive set P, on which the free problem is solved."""
        return self._columns.array[:, self._passive]


#: The estimators' fit_intercept for each offset of the masters.
_FIT_INTERCEPT = {"free": "True", "regularized": "'regularized'"}


def make_qp_master(
    y: np.ndarray,
    C: float | np.ndarray,
    *,
    alpha_sign: str = "nonneg",
    intercept: str = "none",
    solver: str = "clarabel",
    **options: Any,
) -> SVMDualMaster | LinearSVMCDMaster | QPMaster:
    """The restricted 2-norm master for these options and backend.

    Parameters
    ----------
    y, C, alpha_sign, intercept, **options
        As for :class:`.QPMaster` (C a float or one C_i >= 0 per sample, taken by every
        backend); ``loss``, ``epsilon``, ``columns`` and ``on_failure`` go to every backend.
    solver : {"clarabel", "osqp", "libsvm", "dual_cd"}, default="clarabel"
        "libsvm" (:class:`SVMDualMaster`) needs a free offset; "dual_cd"
        (liblinear's dual coordinate descent, warm-started) solves classification
        with a regularised offset (:class:`.LinearSVMCDMaster`) or a free one
        (:class:`.FreeOffsetSVMCDMaster`, Clarabel taking over a solve where
        coordinate descent crawls). Both are much
        faster than the interior point on well-scaled kernels, but not the
        default: they stop at a dual tolerance, so their solutions are accurate to
        about 1e-4 rather than 1e-9, and SMO slows down badly on ill-conditioned
        Gram matrices K_W K_W' (on 60 points with 180 columns of rank 60, SVR
        needed millions of iterations, measured).

    Returns
    -------
    SVMDualMaster, LinearSVMCDMaster or QPMaster

    Raises
    ------
    ValueError
        If the backend does not solve this offset or loss.
    """
    solver = check_choice("solver", solver, ("clarabel", "osqp", "libsvm", "dual_cd"))
    nonneg = check_choice("alpha_sign", alpha_sign, ("nonneg", "free")) == "nonneg"
    if solver in ("clarabel", "osqp"):
        return QPMaster(y, C, alpha_sign=alpha_sign, intercept=intercept, solver=solver, **options)
    needed = {"libsvm": ("free",), "dual_cd": ("free", "regularized")}
    if intercept not in needed[solver]:
        offsets = " or a ".join(f"{name} offset (fit_intercept={_FIT_INTERCEPT[name]})" for name in needed[solver])
        raise ValueError(
            f"solver={solver!r} solves the 2-norm master only with a {offsets}, got intercept={intercept!r}; "
            "use solver='clarabel'"
        )
    if solver == "libsvm":
        return NonnegSVMDualMaster(y, C, **options) if nonneg else SVMDualMaster(y, C, **options)
    if options.pop("loss", "hinge") != "hinge":
        raise ValueError("solver='dual_cd' solves the classification master only (hinge loss); use solver='clarabel'")
    options.pop("epsilon", None)
    if intercept == "free":
        return NonnegFreeOffsetSVMCDMaster(y, C, **options) if nonneg else FreeOffsetSVMCDMaster(y, C, **options)
    return NonnegLinearSVMCDMaster(y, C, **options) if nonneg else LinearSVMCDMaster(y, C, **options)
