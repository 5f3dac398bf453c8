"""The restricted master LP of SILP multiple kernel learning, solved by HiGHS.

Sonnenburg, Raetsch, Schaefer, Schoelkopf, "Large Scale Multiple Kernel Learning"
(JMLR 2006), Algorithm 1 (the MKL wrapper); the notes' "Column Generation"
slides. With S_k(alpha) = sum_i alpha_i - 1/2 alpha' Y K_k Y alpha, the MKL
problem min_beta max_alpha sum_k beta_k S_k(alpha) is the semi-infinite LP

    min_{beta, theta}  theta
    s.t.  sum_k beta_k = 1,  beta >= 0,
          sum_k beta_k S_k(alpha) <= theta   for every feasible alpha,

whose restricted master keeps the constraints ("cuts") of the alphas seen so
far. (The notes and the paper write S_k with the opposite sign and maximise
theta; this is the same LP.) Each cut is one row appended with ``Highs.addRows``;
the last optimal basis stays valid for the old rows and the new row enters with
a basic slack, so the dual simplex re-solves warm from it.
"""

from __future__ import annotations

from collections.abc import Mapping

import highspy
import numpy as np

from ..exceptions import SolverError
from .lp_highs import DEFAULT_OPTIONS, HighsOption

__all__ = ["SILPMaster"]

_INF = highspy.kHighsInf


class SILPMaster:
    """Restricted master LP over (beta, theta) of SILP (Sonnenburg et al. 2006, Algorithm 1).

    Parameters
    ----------
    n_kernels : int
        Number M of kernels, the length of beta.
    options : mapping, default=None
        HiGHS options, applied after :data:`mkbench.masters.lp_highs.DEFAULT_OPTIONS`.

    Attributes
    ----------
    n_cuts : int
        Cuts added so far.
    iterations : int
        Simplex iterations of the last solve (0 when the old basis stayed optimal).

    Notes
    -----
    Columns 0..M-1 are beta >= 0, column M is theta (free, cost 1). Row 0 is
    sum_k beta_k = 1; row r >= 1 is the cut sum_k beta_k S_k^r - theta <= 0. The
    optimum theta^t is a lower bound of the MKL optimum J(beta*): the restricted
    master has fewer constraints than the full one.
    """

    def __init__(self, n_kernels: int, *, options: Mapping[str, HighsOption] | None = None) -> None:
        if not (isinstance(n_kernels, (int, np.integer)) and n_kernels >= 1):
            raise ValueError(f"n_kernels must be an integer >= 1, got {n_kernels!r}")
        self.n_kernels = int(n_kernels)
        self.n_cuts = 0
        self.iterations = 0
        self._highs = highspy.Highs()
        for name, value in {**DEFAULT_OPTIONS, **(options or {})}.items():
            if self._highs.setOptionValue(name, value) != highspy.HighsStatus.kOk:
                raise ValueError(f"HiGHS rejected option {name}={value!r}")
        M = self.n_kernels
        no_entries = np.zeros(M + 1, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0)
        costs = np.r_[np.zeros(M), 1.0]
        lower, upper = np.r_[np.zeros(M), -_INF], np.full(M + 1, _INF)
        self._highs.addCols(M + 1, costs, lower, upper, 0, *no_entries)
        self._columns = np.arange(M + 1, dtype=np.int32)
        self._add_row(1.0, 1.0, np.r_[np.ones(M), 0.0])  # the simplex: sum_k beta_k = 1

    def _add_row(self, lower: float, upper: float, values: np.ndarray) -> None:
        start = np.zeros(1, dtype=np.int32)
        status = self._highs.addRows(1, np.array([lower]), np.array([upper]), values.size, start, self._columns, values)
        if status == highspy.HighsStatus.kError:
            raise ValueError("HiGHS could not add a row to the SILP master LP")

    def add_cut(self, S: np.ndarray) -> None:
        """Append the cut sum_k beta_k S_k <= theta of one SVM solution alpha.

        Parameters
        ----------
        S : array-like of shape (n_kernels,)
            S_k(alpha) = sum_i alpha_i - 1/2 alpha' Y K_k Y alpha for each kernel k.
        """
        S = np.asarray(S, dtype=np.float64).reshape(-1)
        if S.shape != (self.n_kernels,):
            raise ValueError(f"a cut needs one value per kernel ({self.n_kernels}), got shape {S.shape}")
        if not np.all(np.isfinite(S)):
            raise ValueError("a cut contains NaN or infinite values")
        self._add_row(-_INF, 0.0, np.r_[S, -1.0])
        self.n_cuts += 1

    def solve(self) -> tuple[np.ndarray, float]:
        """Solve the restricted LP, warm from the last basis.

        Returns
        -------
        beta : ndarray of shape (n_kernels,)
            Kernel weights on the simplex.
        theta : float
            The restricted optimum, a lower bound of the MKL optimum.

        Raises
        ------
        ValueError
            Before the first cut (theta is then unbounded below).
        SolverError
            If HiGHS does not report optimal.
        """
        if self.n_cuts == 0:
            raise ValueError("the SILP master has no cut yet (theta is unbounded); add_cut(S) first")
        self._highs.run()
        status = self._highs.getModelStatus()
        self.iterations = int(self._highs.getInfo().simplex_iteration_count)
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverError(
                f"HiGHS stopped with status {self._highs.modelStatusToString(status)!r} on the SILP "
                f"master LP ({self.n_kernels} kernels, {self.n_cuts} cuts) after {self.iterations} "
                "simplex iterations; its solution was not used"
            )
        x = np.asarray(self._highs.getSolution().col_value)
        return x[: self.n_kernels].copy(), float(x[self.n_kernels])
