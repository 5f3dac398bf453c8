"""Least-squares restricted masters of MARK (Bennett, Momma, Embrechts, KDD 2002, §3).

:class:`RidgeMaster` is the master of MARK-L (Algorithm 3.1, step 11): kernel ridge
regression (eq. 8) restricted to the columns generated so far, solved through
its normal equations (eq. 9)::

    [G'G + C I] [alpha; b] = G'y,      G = [K_hat  e].

Only G'G is needed, and it grows by one row and column per added kernel column
(eq. 13-15). The master keeps the Cholesky factor L of G'G + C I and z = L^-1 G'y,
and extends both by that row (a forward substitution, O(t^2);
:class:`~mkbench.masters._cholesky.GrowingCholesky`, shared with CGEns-SLS's master);
the solve is then one back substitution, never a fresh O(t^3) factorisation. This
plays the role of the paper's warm-started Krylov solver (§3.2) and is exact.

Each column costs two passes over the stored N x t columns, K_hat'g when it enters
and r = y - G theta after the solve; neither can wait for the other (g is priced
against r, and theta needs K_hat'g), so they cannot share one pass. Both are BLAS
matrix-vector products, bound by memory bandwidth: on house-8L (N = 20784) they are
~80 % of the master's time at 760 columns.

:class:`StagewiseMaster` is the update of MARK-S (Algorithm 3.2, steps 10-11):
the incoming column's weight is its least-squares fit to the residual, shrunk
by nu, and then frozen.

Both return a :class:`~mkbench.masters.MasterSolution` whose ``pricing_weights``
are the residuals r = y - K_hat alpha - b e, so a candidate column K_i is priced
by K_i' r (eq. 11, 12, 16, 17).

Both take ``sample_weight`` w >= 0, the weighted residuals 1/2 sum_i w_i r_i^2 in
place of 1/2 ||r||^2 (integer weights: the rows repeated; 0: the row left out).
The normal equations become [G'WG + C I] theta = G'Wy, the stagewise step
K_t'Wr / K_t'WK_t, and a column is priced by K_i'Wr: ``pricing_weights`` (and
``duals``) are then W r, while ``xi`` stays the residual r.
"""

from __future__ import annotations

from time import perf_counter

import numpy as np

from ._cholesky import GrowingCholesky
from ._solution import (
    OPTIMAL,
    ColumnStore,
    MasterSolution,
    as_column_block,
    check_C,
    check_per_sample,
    check_responses,
)

__all__ = ["RidgeMaster", "StagewiseMaster"]


class _ResidualMaster:
    """What both masters share: the responses and weights, the residual solution record, the pricing rule."""

    def __init__(self, y: np.ndarray, sample_weight: np.ndarray | None) -> None:
        self.y = check_responses(y)
        if self.y.size == 0:
            raise ValueError("a least-squares master needs at least one response, got none")
        self.sample_weight = (
            None if sample_weight is None else check_per_sample(sample_weight, self.n_rows, "sample_weight")
        )

    def _weigh(self, v: np.ndarray) -> np.ndarray:
        """W v: ``v`` itself without sample weights."""
        return v if self.sample_weight is None else self.sample_weight * v

    @property
    def n_rows(self) -> int:
        return self.y.shape[0]

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """|K_i' r| for candidate columns not in the master: eq. 12 with alpha_i = 0 (eq. 16, 17)."""
        return np.abs(np.asarray(scores))

    def _solution(
        self, alpha: np.ndarray, intercept: float, residual: np.ndarray, objective: float, seconds: float
    ) -> MasterSolution:
        weighted = self._weigh(residual)
        return MasterSolution(
            alpha=alpha,
            intercept=float(intercept),
            xi=residual,
            duals=weighted,
            pricing_weights=weighted,
            objective=float(objective),
            status=OPTIMAL,
            iterations=0,
            seconds=seconds,
        )


class RidgeMaster(_ResidualMaster):
    """Kernel ridge regression on the generated columns with a penalised offset b (MARK eq. 8, 9).

    Minimises H(alpha, b) = C/2 (alpha'alpha + b^2) + 1/2 ||y - K_hat alpha - b e||^2
    (eq. 8) over the columns K_hat added so far; with ``sample_weight`` w,
    C/2 (alpha'alpha + b^2) + 1/2 sum_i w_i r_i^2. The unknowns are kept in the
    order [b; alpha], i.e. G = [e  K_hat] (eq. 9 with e first, a permutation that
    changes nothing), so that every new column extends the Cholesky factor at its end.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Responses (MARK-L passes them centred, see :class:`mkbench.MARKRegressor`).
    C : float
        Ridge parameter C > 0 of eq. 8, 9 (it weighs the penalty, so the per-sample
        weights come as ``sample_weight``, not as an array C).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights w_i >= 0 of the squared residuals (not all 0); None: all 1.
    capacity : int, default=16
        Kernel columns to reserve memory for (MARK-L: T), a hint: more are taken
        (see :class:`~mkbench.masters._solution.ColumnStore`).

    Attributes
    ----------
    n_columns : int
        Kernel columns in the master (the offset column e not counted).
    gram : ndarray of shape (n_columns + 1, n_columns + 1)
        G'G of eq. 13 (G'WG with weights) in the order [e, K_hat], rebuilt from the factor (for checks).
    """

    def __init__(self, y: np.ndarray, C: float, *, sample_weight: np.ndarray | None = None, capacity: int = 16) -> None:
        super().__init__(y, sample_weight)
        self.C = check_C(C)
        self._K = ColumnStore(self.n_rows, capacity=capacity)  # K_hat; the column e is implicit
        e_We = self.n_rows if self.sample_weight is None else self.sample_weight.sum()
        # G'WG + C I and G'Wy, factored as they grow; the row of e first
        self._normal = GrowingCholesky(None, f"C = {self.C:g} is too small for nearly repeated columns; increase C")
        self._normal.extend(np.zeros((0, 1)), np.array([[e_We + self.C]]), np.array([self._weigh(self.y).sum()]))
        self._added_seconds = 0.0  # add_columns' time since the last solve, reported by it

    @property
    def n_columns(self) -> int:
        return len(self._K)

    @property
    def gram(self) -> np.ndarray:
        return self._normal.matrix - self.C * np.eye(len(self._normal))

    def add_columns(self, K: np.ndarray) -> None:
        """Append kernel columns; extend G'G (eq. 14, 15) and its Cholesky factor by their rows.

        For new columns K_new the new rows of G'WG are [e'WK_new, K_hat'WK_new, K_new'WK_new]
        (eq. 14-15): one pass over the stored columns K_hat per block, then a forward
        substitution against the factor and the Cholesky factor of the Schur complement,
        >= C I in exact arithmetic (:class:`~mkbench.masters._cholesky.GrowingCholesky`).

        Parameters
        ----------
        K : ndarray of shape (n_samples,) or (n_samples, k)

        Raises
        ------
        SolverError
            If rounding makes the extended matrix numerically singular (C far too
            small for nearly repeated columns).
        """
        start = perf_counter()
        K = as_column_block(K, self.n_rows)
        WK = self._weigh(K.T).T
        cross = np.vstack([WK.sum(axis=0), self._K.array.T @ WK])  # eq. 15 and eq. 14
        self._normal.extend(cross, K.T @ WK + self.C * np.eye(K.shape[1]), WK.T @ self.y)
        self._K.append(K)
        self._added_seconds += perf_counter() - start

    def solve(self) -> MasterSolution:
        """Solve eq. 9 with the current factor: theta = L^-T z, z = L^-1 G'y kept as the factor grows, O(t^2).

        Returns
        -------
        MasterSolution
            ``alpha`` in the order the columns were added, ``intercept`` b,
            ``pricing_weights`` (and ``xi``, ``duals``) the residual r = y - G theta,
            ``objective`` H(alpha, b) of eq. 8, ``seconds`` those of this solve and of
            the :meth:`add_columns` calls since the last one (the master's whole work).
        """
        start = perf_counter()
        theta = self._normal.solve()
        residual = self.y - theta[0] - self._K.array @ theta[1:]
        objective = 0.5 * self.C * (theta @ theta) + 0.5 * (residual @ self._weigh(residual))
        seconds, self._added_seconds = perf_counter() - start + self._added_seconds, 0.0
        return self._solution(theta[1:].copy(), theta[0], residual, objective, seconds)

    def duality_gap(self, scores: np.ndarray) -> float:
        """Primal minus dual objective of the ridge problem over *all* candidate columns.

        At the restricted optimum the dual point u = r (W r with weights) is feasible
        for the full problem, whose dual is max_u u'y - u'W^-1 u / 2 - ||G'u||^2 / (2C)
        (u_i = 0 where w_i = 0); the gap is sum_j (K_j' u)^2 / (2C) over the candidate
        columns j not in the master (the ridge analogue of cgboost Proposition 4.1).
        It bounds H - H* of the full eq. 8.

        Parameters
        ----------
        scores : ndarray
            K_j' u of every candidate column not in the master (u = ``pricing_weights``).
        """
        scores = np.asarray(scores, dtype=np.float64)
        return float(scores @ scores) / (2.0 * self.C) if scores.size else 0.0


class StagewiseMaster(_ResidualMaster):
    """The stagewise update with shrinkage of MARK-S (Algorithm 3.2, steps 10-11).

    Each added column K_t gets alpha_t = argmin_a ||r - a K_t||^2 = K_t'r / K_t'K_t
    (step 10; K_t'Wr / K_t'WK_t with ``sample_weight``), the residual becomes
    r - nu alpha_t K_t (step 11), and the model keeps the coefficient nu alpha_t
    (step 13) for good. There is no offset here:
    MARK-S fixes b = mean(y) (step 1) and passes y - b.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Responses (centred by the caller).
    nu : float
        Shrinkage factor, 0 < nu <= 1.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights w_i >= 0 of the squared residuals (not all 0); None: all 1.
    """

    def __init__(self, y: np.ndarray, nu: float, *, sample_weight: np.ndarray | None = None) -> None:
        super().__init__(y, sample_weight)
        if not (np.isfinite(nu) and 0 < nu <= 1):
            raise ValueError(f"the shrinkage nu must lie in (0, 1], got {nu!r}")
        self.nu = float(nu)
        self._residual = self.y.copy()
        self._coef: list[float] = []

    @property
    def n_columns(self) -> int:
        return len(self._coef)

    def add_columns(self, K: np.ndarray) -> None:
        """Take one stagewise step per column, in order (steps 10-11).

        Raises
        ------
        ValueError
            For a column of zeros, which has no least-squares weight.
        """
        for g in as_column_block(K, self.n_rows).T:
            Wg = self._weigh(g)
            norm2 = g @ Wg
            if norm2 == 0:
                where = "" if self.sample_weight is None else " on the rows of weight > 0"
                raise ValueError(f"a stagewise step needs a nonzero column; got a column of zeros{where}")
            step = self.nu * (Wg @ self._residual) / norm2
            self._residual -= step * g
            self._coef.append(float(step))

    def solve(self) -> MasterSolution:
        """The current model: the frozen coefficients nu alpha_t and the residual (no re-fit)."""
        residual = self._residual.copy()
        return self._solution(np.array(self._coef), 0.0, residual, 0.5 * (residual @ self._weigh(residual)), 0.0)

    def duality_gap(self, scores: np.ndarray) -> float:
        """Not defined: MARK-S solves no optimisation problem over the chosen columns."""
        return float("nan")
