"""The restricted master of CGEns-SLS: the simplex least-squares SVM (10) by its closed form (Shen & Liu, Alg. 2).

The l + 1 classes are coded by the vertices of a regular simplex in R^l
(:func:`mkbench.estimators.cgens_sls.simplex_code`), and l ensembles
F_tau(x) = w_tau' Phi(x) + b_tau are fitted together by the least-squares
problem (10) on the coded labels L. Its restricted master has the closed form
(11) with the m x m matrix S = H H' + I/C (H here: m points x J learners).

The paper keeps S^-1 and updates it by Sherman-Morrison when a learner enters
(eq. 20): O(m^2) time per learner and m^2 memory (0.4 GB on USPS, 0.8 GB on
MNIST with m = 10^4). With J << m learners the same closed form is reached
through the J x J system instead (the Woodbury identity): (11) is the ridge
regression of L on H with a free intercept,

    b = mean(L) - mean(H) W,   (Hc'Hc + I/C) W = Hc'Lc,   U = C (Lc - Hc W),

with Hc, Lc the columns of H and L centred on their means (1'U = 0 is
eq. 18b). W = H'U (the last equation of (11)) holds at this solution, and U
is S^-1 (L - 1 b'). Hc'Hc + I/C and Hc'Lc grow by a row per learner (O(m J)):
a column's centring uses its own mean only, so the earlier rows do not change, and
the Cholesky factor of the J x J matrix is extended by the new rows (a forward
substitution, O(J^2); :class:`~mkbench.masters._cholesky.GrowingCholesky`, shared
with MARK-L's master) rather than refactored at each solve (O(J^3 / 3)), each solve
then one back substitution. On USPS (m = 6974) a 500-learner master run takes
seconds where eq. 20 took minutes.

A per-sample C_i (C w_i for sample weights w) weighs the squared residuals,
1/2 sum_tau ||w_tau||^2 + 1/2 sum_i C_i ||o_i||^2: the same closed form with the
means weighted by C_i and D = diag(C_i),

    (Hc'D Hc + I) W = Hc'D Lc,   U = D (Lc - Hc W),

so 1'U = 0 still holds and a row of C_i = 0 has U_i = 0. The weights C_i are
fixed, so each column's weighted mean, and the earlier rows, still do not change.
"""

from __future__ import annotations

from time import perf_counter

import numpy as np

from ._cholesky import GrowingCholesky
from ._solution import ColumnStore, MasterSolution, as_column_block, check_C

__all__ = ["SimplexLSMaster"]


class SimplexLSMaster:
    """Restricted master of CGEns-SLS: problem (10) on the chosen learners, by the closed form (11).

    Parameters
    ----------
    L : ndarray of shape (m, l)
        Coded labels, row i = spx(y_i).
    C : float or array-like of shape (m,)
        Weight of the squared residuals, > 0; or one per row, C_i >= 0 (not all 0):
        C_i = C w_i for sample weights w (module docstring).

    Notes
    -----
    ``pricing_weights`` are the dual U (m x l): a learner h prices at
    sum_i U_{i tau} h(x_i) per classifier tau (eq. 13), and a learner in the master
    at its own weight w_{tau j} (eq. 12), so the score threshold is 0 with free sign.
    The objective is 1/2 sum_tau ||w_tau||^2 + C/2 ||O||^2 with O = U / C (eq. 18c), or
    1/2 sum_i C_i ||O_i||^2 per sample.
    """

    score_threshold = 0.0
    alpha_sign = "free"

    def __init__(self, L: np.ndarray, C: float | np.ndarray) -> None:
        self.L = np.asarray(L, dtype=np.float64)
        self.C = check_C(C, self.n_rows)
        self._rows = self.C if isinstance(self.C, np.ndarray) else None  # C_i, or None for one C
        self._L_mean = self._mean(self.L)
        self._Lc = self.L - self._L_mean
        self._Hc = ColumnStore(self.n_rows)  # centred learner outputs h - mean(h)
        self._H_mean = np.zeros(0)
        # Hc'D Hc + I (Hc'Hc + I/C for one C) and Hc'D Lc, factored as they grow
        self._normal = GrowingCholesky(self.L.shape[1], "lower C or leave out repeated learners")
        self._ridge = 1.0 / self.C if self._rows is None else 1.0
        self._added_seconds = 0.0  # add_columns' time since the last solve, reported by it

    @property
    def n_rows(self) -> int:
        return self.L.shape[0]

    def _mean(self, A: np.ndarray) -> np.ndarray:
        """The column means of A, weighted by C_i for a per-sample C."""
        return A.mean(axis=0) if self._rows is None else np.average(A, axis=0, weights=self._rows)

    def _weigh(self, A: np.ndarray) -> np.ndarray:
        """D A: A itself for one C."""
        return A if self._rows is None else self._rows[:, None] * A

    @property
    def H(self) -> np.ndarray:
        """Learner outputs on the training points, (m, J) (the transpose of the paper's H)."""
        return self._Hc.array + self._H_mean

    def add_columns(self, K: np.ndarray) -> None:
        """Append learner outputs h: their rows of Hc'Hc and Hc'Lc (O(m J) per learner) and of the factor (O(J^2)).

        Parameters
        ----------
        K : array-like of shape (m, k) or (m,)

        Raises
        ------
        SolverError
            If rounding makes the J x J system numerically singular (a tiny ridge 1/C
            against nearly repeated learners).
        """
        start = perf_counter()
        K = as_column_block(K, self.n_rows)
        means = self._mean(K)
        Kc = K - means
        DKc = self._weigh(Kc)
        diagonal = Kc.T @ DKc + self._ridge * np.eye(K.shape[1])
        self._normal.extend(self._Hc.array.T @ DKc, diagonal, DKc.T @ self._Lc)
        self._H_mean = np.concatenate([self._H_mean, means])
        self._Hc.append(Kc)
        self._added_seconds += perf_counter() - start

    def solve(self) -> MasterSolution:
        """The closed form (11) through the J x J system: W = (Hc'Hc + I/C)^-1 Hc'Lc, b, U = C (Lc - Hc W).

        For a per-sample C, W = (Hc'D Hc + I)^-1 Hc'D Lc and U = D (Lc - Hc W). W is one
        back substitution against the kept factor, O(J^2 l). Its ``seconds`` count the
        :meth:`add_columns` calls since the last solve too (the master's whole work).
        """
        start = perf_counter()
        if len(self._normal):
            W = self._normal.solve()
            Xi = self._Lc - self._Hc.array @ W
        else:
            W, Xi = np.zeros((0, self.L.shape[1])), self._Lc.copy()
        b = self._L_mean - self._H_mean @ W
        if not isinstance(self.C, np.ndarray):  # one C (self._rows is None)
            U, loss = self.C * Xi, 0.5 * self.C * float(np.sum(Xi * Xi))
        else:
            U = self._weigh(Xi)
            loss = 0.5 * float(np.sum(Xi * U))
        objective = 0.5 * float(np.sum(W * W)) + loss
        added, self._added_seconds = self._added_seconds, 0.0
        return MasterSolution(
            alpha=W,
            intercept=b,
            xi=Xi,
            duals=U,
            pricing_weights=U,
            objective=objective,
            status="optimal",
            iterations=0,
            seconds=perf_counter() - start + added,
        )

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """|score|: any learner not in the master with a nonzero score improves (10) (eq. 12-13)."""
        return np.abs(scores)
