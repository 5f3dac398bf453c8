"""The 1-norm master LP solved through its dual (cgboost eq. 5; LPBoost as Demiriz et al. and the CGEns paper ran it).

The dual of the restricted LP of :mod:`.lp_highs` is

    max  sum_i u_i
    s.t. sum_i y_i K_ij u_i <= 1        for every column j in the master (|.| <= 1 for free alpha)
         sum_i y_i u_i = 0              with a free offset (|.| <= 1 with a penalised one)
         0 <= u_i <= C_i          (C_i = C, or per sample: C w_i),

so a column generated is a *row* added to the dual. After ``Highs.addRow`` the
last basis stays dual feasible, and HiGHS's dual simplex restarts from it; the
primal route (:class:`.LPMaster`) instead adds a column, and HiGHS re-optimises
from a basis that is primal feasible. Measured on LPBoost's own columns (stumps
on MNIST odd/even, the same columns through both; ``benchmarks/lp_routes.py``),
the dual route re-solves several times faster. HiGHS's row duals of this LP are
the primal alpha_j (and b) exactly (tested against :class:`.LPMaster`), and the
reduced costs of u give the slacks.
"""

from __future__ import annotations

from collections.abc import Mapping

import highspy
import numpy as np

from ._solution import OPTIMAL, MasterSolution, as_column_block, per_sample
from .lp_highs import HighsOption, _LPPricing

__all__ = ["DualLPMaster"]

_INF = highspy.kHighsInf
_NO_ENTRIES = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))


class DualLPMaster(_LPPricing):
    """The restricted master LP of LPBoost (cgboost eq. 4) or SSMK (eq. 9), solved as its dual (eq. 5).

    The same problem, parameters and :class:`~mkbench.masters.MasterSolution` as
    :class:`mkbench.masters.LPMaster`; only the route differs (see the module notes).

    Parameters
    ----------
    y, C, alpha_sign, intercept, columns, options, on_failure
        As for :class:`mkbench.masters.LPMaster`; a per-sample C bounds 0 <= u_i <= C_i,
        and a row of C_i = 0 is fixed at u_i = 0.
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
        self._highs.changeObjectiveSense(highspy.ObjSense.kMaximize)
        self._highs.addCols(n, np.ones(n), np.zeros(n), per_sample(self.C, n), 0, *_NO_ENTRIES)
        self._index = np.arange(n, dtype=np.int32)
        self._n_fixed = 0
        if self.intercept != "none":
            bound = 0.0 if self.intercept == "free" else 1.0
            self._highs.addRow(-bound, bound, n, self._index, self.y)
            self._n_fixed = 1
        if columns is not None:
            self.add_columns(columns)

    def add_columns(self, K: np.ndarray) -> None:
        """Add candidate columns K_.j as dual rows (their alpha_j start at 0; the basis is kept).

        Parameters
        ----------
        K : array-like of shape (n_rows, k) or (n_rows,)
            Kernel columns or weak-learner outputs.
        """
        K = as_column_block(K, self.n_rows)
        self._check_entries(K)
        lower = -1.0 if self.alpha_sign == "free" else -_INF
        for M in (self.y[:, None] * K).T:
            self._highs.addRow(lower, 1.0, self.n_rows, self._index, M)
        self.n_columns += K.shape[1]

    def _read(self, solution, objective: float, iterations: int, seconds: float) -> MasterSolution:
        """The primal solution from the dual LP's: alpha and b are its row duals, u its columns.

        The reduced cost of u_i is 1 - y_i f(x_i), so xi_i = max(0, reduced cost).
        """
        u = np.asarray(solution.col_value)
        row_duals = np.asarray(solution.row_dual)
        alpha = row_duals[self._n_fixed :]
        intercept = float(row_duals[0]) if self._n_fixed else 0.0
        self._parts = (np.maximum(alpha, 0.0), np.maximum(-alpha, 0.0))
        return MasterSolution(
            alpha=alpha.copy(),
            intercept=intercept,
            xi=np.maximum(0.0, np.asarray(solution.col_dual)),
            duals=u,
            pricing_weights=self.y * u,
            objective=objective,
            status=OPTIMAL,
            iterations=iterations,
            seconds=seconds,
        )
