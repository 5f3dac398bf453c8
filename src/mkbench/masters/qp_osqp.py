"""The 2-norm restricted master QPs of CG-Boost (cgboost eq. 7, 11, 13), solved by OSQP or Clarabel.

Written as a minimisation over x = [b | xi | alpha] with one slack per margin constraint r:

    min  1/2 sum_j alpha_j^2 (+ 1/2 b^2 if regularised) + sum_r C_{i(r)} xi_r
    s.t. s_r (sum_j K_{i(r) j} alpha_j + b) + xi_r >= rhs_r,   xi_r >= 0,   (alpha >= 0)

Hinge loss (eq. 7, 11): one constraint per row, s_r = y_r, rhs_r = 1.
Epsilon-insensitive loss (eq. 13): two per row, s = (+1, -1), rhs = (y_i - eps, -y_i - eps),
slacks (xi_i, eta_i).

The papers' C sum_r xi_r is C_i = C; a per-sample C_i = C w_i weighs row i as w_i
copies of it (scikit-learn's ``sample_weight``). The constraints of rows with
C_i = 0 are left out of the solver's problem (their slack would cost nothing, so
any value above the loss would be optimal), and reported with u = 0.

OSQP cannot add variables to a set-up problem, so :meth:`QPMaster.add_columns`
only stores the columns and the next :meth:`QPMaster.solve` runs ``setup`` again
and warm-starts from the last optimal primal-dual point (cgboost §3.2: "we set the
initial guess of solution for the updated primal to the current solution"). alpha
sits last in x and its bound rows last in A, so the point extends by alpha_j = 0
for each new column (and a bound-row dual, see :meth:`QPMaster._warm_point`).

Why a second backend: these QPs are LP-like (the slacks and a free offset enter
the objective linearly) and the kernel columns span several orders of magnitude
(a quadratic kernel on MNIST reaches 1e4). OSQP's ADMM then often fails to reach
the 1e-8 accuracy that the optimality test needs: on 60 points with a free
offset it stops at its iteration limit after a single column, and on MNIST-1000
after the first quadratic column (measured; see tests/library/test_cg.py). Clarabel's
interior-point method solves the same problems to 1e-9 in 10-40 iterations,
without warm start, so it is the default; ``solver="osqp"`` keeps the
warm-started ADMM for problems where it converges.
"""

from __future__ import annotations

from collections.abc import Mapping
from time import perf_counter
from typing import Any

import clarabel
import numpy as np
import osqp
import scipy.sparse as sp

from ._solution import (
    ALPHA_SIGNS,
    INTERCEPTS,
    ON_FAILURE,
    OPTIMAL,
    SCALE_REMEDY,
    SOLVER_REMEDY,
    ColumnStore,
    MasterSolution,
    as_column_block,
    check_C,
    check_choice,
    check_epsilon,
    check_labels,
    check_responses,
    dual_violation,
    failure,
    per_sample,
    qp_duality_gap,
)

__all__ = ["LOSSES", "QPMaster", "solve_qp"]

LOSSES = ("hinge", "epsilon_insensitive")
SOLVERS = ("clarabel", "osqp")


class QPMaster:
    """Restricted master QP of CG-Boost: 2-norm SVM classification or epsilon-insensitive regression.

    Parameters
    ----------
    y : array-like of shape (n_rows,)
        Labels in {-1, +1} (hinge) or real responses (epsilon-insensitive).
    C : float or array-like of shape (n_rows,)
        Weight of the slacks, > 0; or one per row, C_i >= 0 (not all 0), weighing
        both slacks of row i in regression: C_i = C w_i for sample weights w. A row
        of C_i = 0 is absent: u_i (and v_i) = 0, and ``xi`` reports its loss at the
        solution, max(0, rhs_r - s_r f(x_i)).
    loss : {"hinge", "epsilon_insensitive"}, default="hinge"
        Classification (eq. 7, 11) or regression (eq. 13).
    epsilon : float, default=0.1
        Width of the insensitive tube (regression only), >= 0.
    alpha_sign : {"nonneg", "free"}, default="nonneg"
        alpha >= 0 (eq. 7) or free alpha (eq. 11, 13).
    intercept : {"none", "free", "regularized"}, default="none"
        No offset; a free unpenalised b (cgboost §4.1, second case: adds
        sum_r u_r s_r = 0 to the dual); or b penalised by b^2 / 2, i.e. a constant
        column of free sign (§4.1, first case).
    columns : array-like of shape (n_rows, k), default=None
        Initial columns, as if passed to :meth:`add_columns`.
    solver : {"clarabel", "osqp"}, default="clarabel"
        Interior point (Clarabel, tolerances 1e-9, no warm start) or ADMM (OSQP,
        warm-started; see the module docstring for why it is not the default).
    eps_abs, eps_rel : float, default=1e-8
        OSQP stopping tolerances. OSQP's defaults (1e-3) are far too loose for
        column generation, which compares pricing scores with 0 (Remark 4.1) and
        must reach the full master's objective; together with polishing these give
        primal and dual values accurate to about 1e-9.
    polishing : bool, default=True
        Refine the ADMM solution by solving the KKT system on its active set,
        which makes it exactly complementary when it succeeds.
    max_iter : int, default=100_000
        ADMM iteration limit (OSQP's default of 4000 is too small at eps 1e-9).
    settings : mapping, default=None
        Further settings of the chosen solver, applied last.
    on_failure : {"raise", "record"}, default="raise"
        On a status other than "solved", raise SolverError or return a record with
        that status and NaN values.

    Notes
    -----
    Dual sign convention: OSQP returns y with P x + q + A' y = 0, negative on an
    active lower bound; the masters report u = -y on the margin rows, the
    nonnegative multipliers u_i of cgboost eq. 8-9 (and [u; v] of eq. 13), with
    0 <= u_i <= C_i. A candidate column K_.j prices at score_j = K_.j' w with
    w = ``pricing_weights`` (y * u, or u - v); the restricted solution is optimal
    for the master iff score_j <= 0 for every column not in it when alpha >= 0
    (Theorem 3.1, eq. 10), or score_j = 0 when alpha is free (Remark 4.1-4.2, eq.
    12, 14). Columns already in the master satisfy alpha_j = max(score_j, 0) or
    alpha_j = score_j (eq. 8).
    """

    score_threshold = 0.0

    def __init__(
        self,
        y: np.ndarray,
        C: float | np.ndarray,
        *,
        loss: str = "hinge",
        epsilon: float = 0.1,
        alpha_sign: str = "nonneg",
        intercept: str = "none",
        columns: np.ndarray | None = None,
        solver: str = "clarabel",
        eps_abs: float = 1e-8,
        eps_rel: float = 1e-8,
        polishing: bool = True,
        max_iter: int = 100_000,
        settings: Mapping[str, object] | None = None,
        on_failure: str = "raise",
    ) -> None:
        self.loss = check_choice("loss", loss, LOSSES)
        self.alpha_sign = check_choice("alpha_sign", alpha_sign, ALPHA_SIGNS)
        self.intercept = check_choice("intercept", intercept, INTERCEPTS)
        self.on_failure = check_choice("on_failure", on_failure, ON_FAILURE)
        self.solver = check_choice("solver", solver, SOLVERS)
        if self.loss == "hinge":
            self.y = check_labels(y)
            n = self.n_rows
            self._row, self._sign, self._rhs = np.arange(n), self.y, np.ones(n)
        else:
            self.y = check_responses(y)
            epsilon = check_epsilon(epsilon)
            n = self.n_rows
            self._row = np.tile(np.arange(n), 2)
            self._sign = np.repeat([1.0, -1.0], n)
            self._rhs = np.concatenate([self.y - epsilon, -self.y - epsilon])
        self.epsilon = float(epsilon)
        self.C = check_C(C, self.n_rows)
        self._cost = per_sample(self.C, self.n_rows)[self._row]  # C_i(r) of every margin constraint r
        present = self._cost > 0.0
        self._kept = None if present.all() else np.flatnonzero(present)  # the constraints the solver sees
        self._m = self.n_constraints if self._kept is None else self._kept.size
        if self.solver == "osqp":
            defaults = {"eps_abs": eps_abs, "eps_rel": eps_rel, "polishing": polishing, "max_iter": max_iter}
        else:
            defaults = {"tol_gap_abs": 1e-9, "tol_gap_rel": 1e-9, "tol_feas": 1e-9, "tol_ktratio": 1e-8}
        self.settings = {"verbose": False, **defaults, **(settings or {})}
        self._n_b = 0 if self.intercept == "none" else 1
        self._b_weight = 1.0 if self.intercept == "regularized" else 0.0
        self._margin = ColumnStore(self.n_constraints)
        self._solver: osqp.OSQP | None = None
        self._warm: tuple[np.ndarray, np.ndarray] | None = None
        if columns is not None:
            self.add_columns(columns)

    @property
    def n_rows(self) -> int:
        return self.y.shape[0]

    @property
    def n_constraints(self) -> int:
        """Number of margin constraints: n_rows (hinge) or 2 n_rows (epsilon-insensitive)."""
        return self._row.shape[0]

    @property
    def n_columns(self) -> int:
        return len(self._margin)

    def add_columns(self, K: np.ndarray) -> None:
        """Append candidate columns K_.j; the next solve sets OSQP up again and warm-starts.

        Parameters
        ----------
        K : array-like of shape (n_rows, k) or (n_rows,)
            Kernel columns, e.g. ``KernelColumns.block(p, centres)``.
        """
        K = as_column_block(K, self.n_rows)
        self._margin.append(self._sign[:, None] * K[self._row])
        self._solver = None

    def _kept_rows(self, a: np.ndarray) -> np.ndarray:
        """The entries (rows) of a constraint-indexed ``a`` that the solver sees: all but those of C_i = 0."""
        return a if self._kept is None else a[self._kept]

    def _problem(self) -> tuple[sp.csc_matrix, np.ndarray, sp.csc_matrix, np.ndarray, np.ndarray]:
        """OSQP data (P, q, A, l, u) for x = [b | xi | alpha]; rows: margins, xi >= 0, (alpha >= 0)."""
        m, k, n_b = self._m, self.n_columns, self._n_b
        P = sp.diags(np.concatenate([np.full(n_b, self._b_weight), np.zeros(m), np.ones(k)]), format="csc")
        q = np.concatenate([np.zeros(n_b), self._kept_rows(self._cost), np.zeros(k)])
        b_columns = np.repeat(self._kept_rows(self._sign)[:, None], n_b, axis=1)
        margin = self._kept_rows(self._margin.array)
        margins = sp.hstack([sp.csc_matrix(b_columns), sp.identity(m), sp.csc_matrix(margin)])
        slacks = sp.hstack([sp.csc_matrix((m, n_b)), sp.identity(m), sp.csc_matrix((m, k))])
        blocks, lower = [margins, slacks], [self._kept_rows(self._rhs), np.zeros(m)]
        if self.alpha_sign == "nonneg":
            blocks.append(sp.hstack([sp.csc_matrix((k, n_b + m)), sp.identity(k)]))
            lower.append(np.zeros(k))
        lo = np.concatenate(lower)
        return P, q, sp.vstack(blocks, format="csc"), lo, np.full(lo.shape, np.inf)

    def _warm_point(self) -> tuple[np.ndarray, np.ndarray]:
        """The last optimal (x, y) extended to the columns added since, each with alpha_j = 0.

        A new bound row alpha_j >= 0 gets the OSQP dual min(score_j, 0), with
        score_j = sum_r u_r s_r K_rj: the point stays stationary (eq. 8) for every
        new column that does not violate dual feasibility, so ADMM starts at the
        old optimum instead of next to it. Free alpha has no bound rows.
        """
        assert self._warm is not None  # called only once there is a last optimal point
        x, y = self._warm
        n_new = self.n_columns - (x.shape[0] - self._n_b - self._m)
        x = np.concatenate([x, np.zeros(n_new)])
        if self.alpha_sign == "nonneg":
            scores = self._kept_rows(self._margin.array[:, self.n_columns - n_new :]).T @ -y[: self._m]
            y = np.concatenate([y, np.minimum(scores, 0.0)])
        return x, y

    def solve(self) -> MasterSolution:
        """Solve the restricted QP, warm-started from the last optimal point.

        Returns
        -------
        MasterSolution

        Raises
        ------
        SolverError
            If OSQP does not report "solved" and ``on_failure == "raise"``.
        """
        start = perf_counter()
        solve = self._solve_osqp if self.solver == "osqp" else self._solve_clarabel
        x, y, status, iterations = solve()
        seconds = perf_counter() - start
        if status is not None:
            return failure(
                solver=self.solver,
                problem=f"QP ({self.loss})",
                status=status,
                n_rows=self.n_rows,
                n_columns=self.n_columns,
                n_constraints=self.n_constraints,
                iterations=iterations,
                seconds=seconds,
                on_failure=self.on_failure,
                remedy=SOLVER_REMEDY if self.solver == "osqp" else SCALE_REMEDY,
            )
        self._warm = (x, y)
        m, n_b = self._m, self._n_b
        intercept = x[:n_b].sum()
        xi, alpha = x[n_b : n_b + m], x[n_b + m :]
        duals = -y[:m]
        if self._kept is None:
            slack_cost = self.C * xi.sum() if isinstance(self.C, float) else self._cost @ xi
        else:  # the left-out constraints: u = 0, and the slack of the model's loss there
            xi, duals = self._with_absent_rows(xi, duals, alpha, intercept)
            slack_cost = self._cost @ xi
        return MasterSolution(
            alpha=alpha,
            intercept=float(intercept),
            xi=xi,
            duals=duals,
            pricing_weights=np.bincount(self._row, weights=duals * self._sign, minlength=self.n_rows),
            objective=float(0.5 * (alpha @ alpha + self._b_weight * intercept**2) + slack_cost),
            status=OPTIMAL,
            iterations=iterations,
            seconds=seconds,
        )

    def _with_absent_rows(self, xi, duals, alpha, intercept) -> tuple[np.ndarray, np.ndarray]:
        """xi and u over every constraint from the solver's: u = 0 where C_i = 0, xi the loss max(0, rhs - margin)."""
        margins = self._margin.array @ alpha + self._sign * intercept
        full_xi, full_duals = np.maximum(0.0, self._rhs - margins), np.zeros(self.n_constraints)
        full_xi[self._kept], full_duals[self._kept] = xi, duals
        return full_xi, full_duals

    def _solve_osqp(self) -> tuple[np.ndarray, np.ndarray, str | None, int]:
        """(x, y, failure status or None, iterations) from OSQP, set up again after new columns."""
        if self._solver is None:
            P, q, A, lo, u = self._problem()
            self._solver = osqp.OSQP()
            self._solver.setup(P, q, A, lo, u, **self.settings)
            if self._warm is not None:
                self._solver.warm_start(*self._warm_point())
        result = self._solver.solve(raise_error=False)
        solved = result.info.status_val == osqp.SolverStatus.OSQP_SOLVED
        return np.array(result.x), np.array(result.y), None if solved else result.info.status, int(result.info.iter)

    def _solve_clarabel(self) -> tuple[np.ndarray, np.ndarray, str | None, int]:
        """The same (x, y) in OSQP's sign convention from Clarabel: A x - l = s >= 0, y = -z."""
        P, q, A, lo, _ = self._problem()
        settings = clarabel.DefaultSettings()
        for name, value in self.settings.items():
            setattr(settings, name, value)
        cone = [clarabel.NonnegativeConeT(A.shape[0])]
        result = clarabel.DefaultSolver(sp.triu(P, format="csc"), q, -A, -lo, cone, settings).solve()
        solved = result.status == clarabel.SolverStatus.Solved
        return np.array(result.x), -np.array(result.z), None if solved else str(result.status), int(result.iterations)

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """Dual infeasibility of columns not in the master, given their ``scores``; <= 0 if none would enter.

        score_j for alpha >= 0 (eq. 10), |score_j| for free alpha (eq. 12, 14).
        """
        return dual_violation(scores, free_sign=self.alpha_sign == "free", threshold=self.score_threshold)

    def duality_gap(self, scores: np.ndarray) -> float:
        """Primal minus dual objective of the full master at the current point (Prop. 4.1).

        ``scores`` are those of every column not in the master; see :func:`qp_duality_gap`.
        """
        return qp_duality_gap(scores, free_sign=self.alpha_sign == "free")


def solve_qp(K: np.ndarray, y: np.ndarray, C: float | np.ndarray, **kwargs: Any) -> MasterSolution:
    """Solve the full master QP with every candidate column of K at once.

    Parameters
    ----------
    K : array-like of shape (n_rows, d)
        All candidate columns, e.g. [K^1 ... K^P].
    y, C, **kwargs
        As for :class:`QPMaster`.

    Returns
    -------
    MasterSolution
    """
    return QPMaster(y, C, columns=K, **kwargs).solve()
