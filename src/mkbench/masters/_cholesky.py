"""A Cholesky factor that grows with its matrix: the normal equations of the least-squares masters.

The masters of MARK-L (:class:`mkbench.masters.ridge.RidgeMaster`, eq. 9) and
CGEns-SLS (:class:`mkbench.masters.simplex_ls.SimplexLSMaster`, the J x J form of
eq. 11) solve A theta = b with a symmetric positive definite A (a Gram matrix plus
a ridge) that gains k rows and columns, and b k rows, whenever k columns enter
the master, the earlier entries unchanged (MARK eq. 13-15). Partitioned,

    A = [A11  B ]      L = [L11  0  ]      L11 X = B,
        [B'   D ],         [X'   L22],     L22 L22' = D - X'X,

so the factor is extended by a forward substitution (O(m^2 k) for m rows so far)
and the factorisation of the k x k Schur complement, never refactored (O(m^3 / 3)).
The forward half of the solve extends alike: z = L^-1 b gains the rows
L22^-1 (b2 - X'z1), so each solve is one back substitution theta = L^-T z.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import LinAlgError, cholesky, solve_triangular

from ..exceptions import SolverError

__all__ = ["GrowingCholesky"]


class GrowingCholesky:
    """The lower Cholesky factor L of a growing positive definite A, and z = L^-1 b for a growing b.

    Parameters
    ----------
    n_rhs : int or None
        Columns of b; None for a vector b.
    remedy : str
        What the user can change when rounding makes an extension indefinite
        (the end of the :class:`~mkbench.exceptions.SolverError`'s message).
    """

    def __init__(self, n_rhs: int | None, remedy: str) -> None:
        self.remedy = remedy
        self.factor = np.zeros((0, 0))
        self.z = np.zeros(0 if n_rhs is None else (0, n_rhs))

    def __len__(self) -> int:
        return self.factor.shape[0]

    @property
    def matrix(self) -> np.ndarray:
        """A = L L', rebuilt from the factor (for checks)."""
        return self.factor @ self.factor.T

    def extend(self, cross: np.ndarray, diagonal: np.ndarray, rhs: np.ndarray) -> None:
        """Append k rows and columns to A and k rows to b (module docstring).

        Parameters
        ----------
        cross : ndarray of shape (m, k)
            B, the new columns' entries in the m rows so far.
        diagonal : ndarray of shape (k, k)
            D, the new diagonal block (its ridge included).
        rhs : ndarray of shape (k,) or (k, n_rhs)
            The new rows of b.

        Raises
        ------
        SolverError
            If the Schur complement D - X'X is not positive definite in floating point
            (A numerically singular; in exact arithmetic a ridge keeps it definite).
        """
        m, k = len(self), diagonal.shape[0]
        X = solve_triangular(self.factor, cross, lower=True, check_finite=False) if m else cross
        schur = diagonal - X.T @ X
        try:
            L22 = cholesky(schur, lower=True, check_finite=False)
        except LinAlgError:
            least = float(np.linalg.eigvalsh(schur).min()) if np.all(np.isfinite(schur)) else float("nan")
            raise SolverError(
                f"the normal equations lost positive definiteness to rounding when adding rows {m + 1}-{m + k} "
                f"(smallest eigenvalue of the Schur complement {least:.3g}); {self.remedy}"
            ) from None
        factor = np.zeros((m + k, m + k))
        factor[:m, :m] = self.factor
        factor[m:, :m] = X.T
        factor[m:, m:] = L22
        self.factor = factor
        z2 = solve_triangular(L22, rhs - X.T @ self.z, lower=True, check_finite=False)
        self.z = np.concatenate([self.z, z2])

    def solve(self) -> np.ndarray:
        """A^-1 b = L^-T z, one back substitution (O(m^2) per right-hand side)."""
        return solve_triangular(self.factor, self.z, lower=True, trans="T", check_finite=False)
