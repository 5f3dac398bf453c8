"""The restricted master of CGEns-SLS: the simplex least-squares SVM (10) by its closed form (Shen & Liu, Alg. 2).

The l + 1 classes are coded by the vertices of a regular simplex in R^l
(:func:`mkbench.estimators.cgens_sls.simplex_code`), and l ensembles
F_tau(x) = w_tau' Phi(x) + b_tau are fitted together by the least-squares
problem (10) on the coded labels L. Its restricted master has the closed form
(11) with S = H'H + I/C; adding a learner h updates S^-1 by Sherman-Morrison
(eq. 20), O(m^2).
"""

from __future__ import annotations

from time import perf_counter

import numpy as np

from ._solution import MasterSolution, add_outer, as_column_block, check_C

__all__ = ["SimplexLSMaster"]


class SimplexLSMaster:
    """Restricted master of CGEns-SLS: problem (10) on the chosen learners, by the closed form (11).

    Parameters
    ----------
    L : ndarray of shape (m, l)
        Coded labels, row i = spx(y_i).
    C : float
        Weight of the squared residuals, > 0.

    Notes
    -----
    ``pricing_weights`` are the dual U (m x l): a learner h prices at
    sum_i U_{i tau} h(x_i) per classifier tau (eq. 13), and a learner in the master
    at its own weight w_{tau j} (eq. 12), so the score threshold is 0 with free sign.
    The objective is 1/2 sum_tau ||w_tau||^2 + C/2 ||O||^2 with O = U / C (eq. 18c).
    """

    score_threshold = 0.0
    alpha_sign = "free"

    def __init__(self, L: np.ndarray, C: float) -> None:
        self.L = np.asarray(L, dtype=np.float64)
        self.C = check_C(C)
        m = self.L.shape[0]
        self.S_inv = np.eye(m) * self.C  # S = I / C before any learner
        self._columns: list[np.ndarray] = []

    @property
    def n_rows(self) -> int:
        return self.L.shape[0]

    @property
    def H(self) -> np.ndarray:
        """Learner outputs on the training points, (m, J) (the transpose of the paper's H)."""
        return np.column_stack(self._columns) if self._columns else np.zeros((self.n_rows, 0))

    def add_columns(self, K: np.ndarray) -> None:
        """Append learner outputs h and update S^-1 by Sherman-Morrison (eq. 20), one column at a time.

        Parameters
        ----------
        K : array-like of shape (m, k) or (m,)
        """
        for h in as_column_block(K, self.n_rows).T:
            s = self.S_inv @ h
            self.S_inv = add_outer(self.S_inv, s[:, None], -1.0 / (1.0 + h @ s))
            self._columns.append(h.copy())

    def solve(self) -> MasterSolution:
        """The closed form (11): b = (1'S^-1 L / 1'S^-1 1)', U = S^-1 (L - 1 b'), w_tau = H U_{:tau}."""
        start = perf_counter()
        SL = self.S_inv @ self.L
        S1 = self.S_inv.sum(axis=1)
        b = SL.sum(axis=0) / S1.sum()
        U = SL - np.outer(S1, b)
        W = self.H.T @ U
        objective = 0.5 * float(np.sum(W * W)) + 0.5 / self.C * float(np.sum(U * U))
        return MasterSolution(
            alpha=W,
            intercept=b,
            xi=U / self.C,
            duals=U,
            pricing_weights=U,
            objective=objective,
            status="optimal",
            iterations=0,
            seconds=perf_counter() - start,
        )

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """|score|: any learner not in the master with a nonzero score improves (10) (eq. 12-13)."""
        return np.abs(scores)
