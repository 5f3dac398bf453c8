"""The 1-norm restricted master LPs of LPBoost (cgboost eq. 4) and SSMK (eq. 9), solved by HiGHS.

Written as a minimisation over columns [xi | intercept | alpha]:

    min  sum_j |alpha_j| (+ |b| if regularised) + sum_i C_i xi_i
    s.t. y_i (sum_j K_ij alpha_j + b) + xi_i >= 1,   xi_i >= 0,   i = 1..n

with alpha >= 0 and no b (cgboost eq. 4), or alpha = u - v free with a free,
unpenalised b (SSMK eq. 9). The papers' C sum_i xi_i is C_i = C; a per-sample
C_i = C w_i weighs point i as w_i copies of it (scikit-learn's ``sample_weight``)
and bounds 0 <= u_i <= C_i in the dual (eq. 5). The n rows are built once;
candidate columns are appended with ``Highs.addCols`` and the LP is re-solved from
the previous simplex basis, which HiGHS keeps across ``addCols`` (the new columns
enter nonbasic at 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from time import perf_counter
from typing import TYPE_CHECKING, Any

import highspy
import numpy as np
import scipy.sparse as sp

from ._solution import (
    ALPHA_SIGNS,
    INTERCEPTS,
    ON_FAILURE,
    OPTIMAL,
    MasterSolution,
    as_column_block,
    check_C,
    check_choice,
    check_labels,
    dual_violation,
    failure,
    per_sample,
)

__all__ = ["DEFAULT_OPTIONS", "LPMaster", "solve_lp"]

_INF = highspy.kHighsInf

#: A HiGHS option's value, as ``Highs.setOptionValue`` takes it.
HighsOption = bool | int | float | str

DEFAULT_OPTIONS: dict[str, HighsOption] = {
    "output_flag": False,
    "solver": "simplex",
    "primal_feasibility_tolerance": 1e-9,
    "dual_feasibility_tolerance": 1e-9,
}
"""HiGHS options set before the caller's ``options``. Simplex keeps a basis to
warm-start from; the feasibility tolerances are tightened from HiGHS's 1e-7 to
1e-9 so that the pricing test score_j <= 1 + tol can use tol = 1e-7 safely."""


def _signed_pairs(M: np.ndarray) -> np.ndarray:
    """Columns (M_.j, -M_.j) side by side: the split alpha_j = u_j - v_j of SSMK eq. 9."""
    pairs = np.empty((M.shape[0], 2 * M.shape[1]))
    pairs[:, 0::2] = M
    pairs[:, 1::2] = -M
    return pairs


class _LPPricing:
    """What the primal and the dual route of the master LP share: their options, pricing and alpha split."""

    score_threshold = 1.0
    _highs: highspy.Highs  # set by the subclass's __init__, from _check

    if TYPE_CHECKING:  # each route reads HiGHS's solution its own way

        def _read(self, solution: Any, objective: float, iterations: int, seconds: float) -> MasterSolution: ...

    def _check(self, y, C, alpha_sign, intercept, options, on_failure) -> highspy.Highs:
        """Validate the common arguments; return a HiGHS instance with the options set."""
        self.y = check_labels(y)
        self.C = check_C(C, self.y.shape[0])
        self._absent = np.flatnonzero(per_sample(self.C, self.y.shape[0]) == 0.0)  # rows of C_i = 0
        self.alpha_sign = check_choice("alpha_sign", alpha_sign, ALPHA_SIGNS)
        self.intercept = check_choice("intercept", intercept, INTERCEPTS)
        self.on_failure = check_choice("on_failure", on_failure, ON_FAILURE)
        self.n_columns = 0
        self._parts: tuple[np.ndarray, np.ndarray] | None = None
        highs = highspy.Highs()
        for name, value in {**DEFAULT_OPTIONS, **(options or {})}.items():
            if highs.setOptionValue(name, value) != highspy.HighsStatus.kOk:
                raise ValueError(f"HiGHS rejected option {name}={value!r}")
        return highs

    @property
    def n_rows(self) -> int:
        return self.y.shape[0]

    def _check_entries(self, K: np.ndarray) -> None:
        """Raise ValueError, naming the fix, if HiGHS would refuse candidate columns K for entries too large.

        HiGHS rejects an LP coefficient of magnitude ``large_matrix_value`` (1e15) or more; the
        linear kernel x'z reaches it at inputs of about 3e7 (it grows as their scale squared).
        """
        largest = float(np.max(np.abs(K), initial=0.0))
        value = self._highs.getOptionValue("large_matrix_value")
        limit = float(value[1] if isinstance(value, tuple) else value)  # (status, value) in this highspy
        if largest >= limit:
            raise ValueError(
                f"columns have entries up to {largest:.3g}, beyond the {limit:.0e} HiGHS accepts in an LP "
                "(its large_matrix_value): the inputs are too large for the kernels (x'z grows as their scale "
                "squared); standardise X, e.g. with sklearn.preprocessing.StandardScaler"
            )

    def _failure(self, status, iterations: int, seconds: float) -> MasterSolution:
        return failure(
            solver="HiGHS",
            problem="LP",
            status=self._highs.modelStatusToString(status),
            n_rows=self.n_rows,
            n_columns=self.n_columns,
            n_constraints=self.n_rows,
            iterations=iterations,
            seconds=seconds,
            on_failure=self.on_failure,
        )

    def solve(self) -> MasterSolution:
        """Solve the restricted LP, warm from the last basis.

        Returns
        -------
        MasterSolution

        Raises
        ------
        SolverError
            If HiGHS does not report optimal, warm and then from scratch, and ``on_failure == "raise"``.

        Notes
        -----
        A warm solve that ends without a verdict (HiGHS status "Unknown", seen once in
        about 10^5 restricted LPs, on a 667 x 500 LPBoost master) is solved again with the
        basis dropped (``clearSolver``); only a second failure fails.
        """
        start = perf_counter()
        self._highs.run()
        status = self._highs.getModelStatus()
        iterations = int(self._highs.getInfo().simplex_iteration_count)
        if status != highspy.HighsModelStatus.kOptimal:
            self._highs.clearSolver()  # drop the warm basis: a cold solve, with presolve
            self._highs.run()
            status = self._highs.getModelStatus()
            iterations += int(self._highs.getInfo().simplex_iteration_count)
        seconds = perf_counter() - start
        info = self._highs.getInfo()
        if status != highspy.HighsModelStatus.kOptimal:
            return self._failure(status, iterations, seconds)
        solution = self._highs.getSolution()
        return self._read(solution, float(info.objective_function_value), iterations, seconds)

    def alpha_parts(self) -> tuple[np.ndarray, np.ndarray]:
        """The split alpha = u - v, u, v >= 0, of the last optimal solve (SSMK eq. 9).

        At an optimal vertex u_j v_j = 0; v is 0 when ``alpha_sign == "nonneg"``.
        """
        if self._parts is None:
            raise RuntimeError("the master LP has not been solved to optimality yet")
        return self._parts

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """Dual infeasibility of candidate columns with pricing ``scores``; <= 0 when none would enter.

        score_j - 1 for alpha >= 0 (Theorem 3.1, eq. 6), |score_j| - 1 for free alpha (SSMK eq. 11).
        """
        return dual_violation(scores, free_sign=self.alpha_sign == "free", threshold=self.score_threshold)

    def duality_gap(self, scores: np.ndarray) -> float:
        """NaN: the papers give no closed-form gap for the LP at a dual-infeasible u."""
        return float("nan")


class LPMaster(_LPPricing):
    """Restricted master LP of LPBoost (cgboost eq. 4) or of SSMK (eq. 9).

    Parameters
    ----------
    y : array-like of shape (n_rows,)
        Labels in {-1, +1} of the rows (the labelled points for SSMK).
    C : float or array-like of shape (n_rows,)
        Weight of the hinge slacks, > 0; or one per row, C_i >= 0 (not all 0), the
        cost C_i xi_i: C_i = C w_i for sample weights w. A row of C_i = 0 is absent
        (u_i = 0, its slack free; ``xi`` reports its hinge 1 - y_i f(x_i) at the solution).
    alpha_sign : {"nonneg", "free"}, default="nonneg"
        alpha >= 0 (eq. 4) or alpha = u - v with u, v >= 0 (SSMK eq. 9).
    intercept : {"none", "free", "regularized"}, default="none"
        No offset (eq. 4); a free unpenalised b (SSMK eq. 9; cgboost §4.1, second
        case, adding sum_i u_i y_i = 0 to the dual); or b = b+ - b- penalised by |b|
        like a constant column of free sign (§4.1, first case).
    columns : array-like of shape (n_rows, k), default=None
        Initial columns, as if passed to :meth:`add_columns`.
    options : mapping, default=None
        HiGHS options, applied after :data:`DEFAULT_OPTIONS`.
    on_failure : {"raise", "record"}, default="raise"
        On a status other than optimal, raise SolverError or return a record with
        that status and NaN values.

    Notes
    -----
    Dual sign convention: HiGHS's row dual is d(objective)/d(row bound), which for
    a ">= 1" row of a minimisation is >= 0 and is exactly u_i of the dual LP
    (cgboost eq. 5; beta_i of SSMK eq. 10), with 0 <= u_i <= C (C_i). A candidate column
    K_.j prices at score_j = sum_i u_i y_i K_ij (eq. 6, 11); the restricted
    solution is optimal for the master iff score_j <= 1 (|score_j| <= 1 for free
    alpha) for every column (Theorem 3.1; SSMK Proposition 1).
    """

    def __init__(
        self,
        y: np.ndarray,
        C: float | np.ndarray,
        *,
        alpha_sign: str = "nonneg",
        intercept: str = "none",
        columns: np.ndarray | None = None,
        options: Mapping[str, HighsOption] | None = None,
        on_failure: str = "raise",
    ) -> None:
        self._highs = self._check(y, C, alpha_sign, intercept, options, on_failure)
        n = self.n_rows
        no_entries = np.zeros(n, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0)
        self._highs.addRows(n, np.ones(n), np.full(n, _INF), 0, *no_entries)
        self._add(per_sample(self.C, n), 0.0, sp.identity(n, format="csc"))
        if self.intercept == "free":
            self._add(np.zeros(1), -_INF, self.y[:, None])
        elif self.intercept == "regularized":
            self._add(np.ones(2), 0.0, _signed_pairs(self.y[:, None]))
        # b = signs @ (intercept columns): b free, or b = b+ - b-
        self._intercept_signs = {"none": [], "free": [1.0], "regularized": [1.0, -1.0]}[self.intercept]
        self._n_fixed = self._highs.getNumCol()
        if columns is not None:
            self.add_columns(columns)

    def _add(self, costs: np.ndarray, lower: float, A: np.ndarray | sp.spmatrix) -> None:
        """Append LP columns with the given costs, lower bound, no upper bound and constraint entries A."""
        A = sp.csc_matrix(A)
        k = A.shape[1]
        starts, indices = A.indptr[:-1].astype(np.int32), A.indices.astype(np.int32)
        bounds = np.full(k, lower), np.full(k, _INF)
        status = self._highs.addCols(k, costs, *bounds, A.nnz, starts, indices, A.data)
        if status == highspy.HighsStatus.kError:
            raise ValueError(f"HiGHS could not add {k} columns to the master LP")

    def add_columns(self, K: np.ndarray) -> None:
        """Append candidate columns K_.j (their alpha_j start at 0, the basis is kept).

        Parameters
        ----------
        K : array-like of shape (n_rows, k) or (n_rows,)
            Kernel columns, e.g. ``KernelColumns.block(p, centres)``.
        """
        K = as_column_block(K, self.n_rows)
        self._check_entries(K)
        M = self.y[:, None] * K
        if self.alpha_sign == "free":
            M = _signed_pairs(M)
        self._add(np.ones(M.shape[1]), 0.0, M)
        self.n_columns += K.shape[1]

    def _read(self, solution, objective: float, iterations: int, seconds: float) -> MasterSolution:
        """The primal solution from HiGHS's: alpha, b and xi are columns, u the row duals."""
        x = np.asarray(solution.col_value)
        duals = np.asarray(solution.row_dual)
        n = self.n_rows
        if self._absent.size:  # a slack of cost 0 is any value above the hinge: report the hinge
            margins = np.asarray(solution.row_value)[self._absent] - x[self._absent]
            x[self._absent] = np.maximum(0.0, 1.0 - margins)
        structural = x[self._n_fixed :]
        if self.alpha_sign == "free":
            self._parts = (structural[0::2], structural[1::2])
        else:
            self._parts = (structural, np.zeros_like(structural))
        intercept = np.dot(self._intercept_signs, x[n : self._n_fixed])
        return MasterSolution(
            alpha=self._parts[0] - self._parts[1],
            intercept=float(intercept),
            xi=x[:n],
            duals=duals,
            pricing_weights=self.y * duals,
            objective=objective,
            status=OPTIMAL,
            iterations=iterations,
            seconds=seconds,
        )


def solve_lp(K: np.ndarray, y: np.ndarray, C: float | np.ndarray, **kwargs: Any) -> MasterSolution:
    """Solve the full master LP with every candidate column of K at once.

    Parameters
    ----------
    K : array-like of shape (n_rows, d)
        All candidate columns, e.g. [K^1 ... K^P].
    y, C, **kwargs
        As for :class:`LPMaster`.

    Returns
    -------
    MasterSolution
    """
    return LPMaster(y, C, columns=K, **kwargs).solve()
