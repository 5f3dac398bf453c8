"""The linear-SVM restricted master of CGEns, solved by liblinear's dual coordinate descent, warm-started.

The CGEns master is the linear SVM (1) over the outputs of the chosen learners
(Shen & Liu, Algorithm 1, line 6), which the paper solves with liblinear. With
liblinear's offset convention (a constant feature B appended to every point, so
that b = B w_B is penalised as w_B^2 / 2) its dual is

    min_alpha  1/2 alpha' Q alpha - 1' alpha   s.t.  0 <= alpha_i <= C,
    Q_st = y_s y_t (h(x_s)' h(x_t) + B^2),

with no equality constraint: adding a learner changes Q but not the feasible
set, so the previous alpha is a feasible start of the next master, and the
weight of the new learner, w_j = sum_i y_i alpha_i h_j(x_i), is its pricing
score (eq. 8). :func:`_dual_cd` is liblinear's solver for this dual
(``solve_l2r_l1l2_svc``, Hsieh et al., "A dual coordinate descent method for
large-scale linear SVM", ICML 2008, Algorithm 1 with shrinking), written again
because liblinear, inside scikit-learn or not, can neither start from a given
alpha nor return it, and both are what column generation needs: alpha prices
the next learner, and starting from it is what makes each master cheap.

``tests/test_masters.py`` checks the solution against scikit-learn's
``LinearSVC(loss="hinge", intercept_scaling=B)`` (liblinear itself) and against
a direct QP solve by HiGHS, with the columns added at once, in chunks or one by
one.
"""

from __future__ import annotations

from time import perf_counter

import numba
import numpy as np

from ._solution import (
    ON_FAILURE,
    OPTIMAL,
    ColumnStore,
    FreeSignQPPricing,
    MasterSolution,
    as_column_block,
    check_C,
    check_choice,
    check_labels,
    failure,
)

__all__ = ["LinearSVMCDMaster"]


@numba.njit(cache=True, nogil=True)
def _dual_cd(X, y, alpha, w, QD, C, eps, max_epochs, seed):  # pragma: no cover - compiled
    """liblinear's dual coordinate descent for the hinge-loss SVM, from the given alpha.

    Parameters
    ----------
    X : ndarray of shape (n, k)
        Rows x_i, each contiguous in memory; the offset feature B is one column.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    alpha : ndarray of shape (n,)
        Feasible start (0 <= alpha <= C), updated in place.
    w : ndarray of shape (k,)
        sum_i y_i alpha_i x_i on entry, kept so in place.
    QD : ndarray of shape (n,)
        ||x_i||^2.
    C, eps : float
        Box bound; stop when the projected gradients of an epoch span <= eps
        over all points (liblinear's criterion).
    max_epochs : int
    seed : int
        Seeds the random order of each epoch.

    Returns
    -------
    epochs : int
        Passes run.
    converged : bool
    """
    np.random.seed(seed)
    n, k = X.shape
    index = np.arange(n)
    active = n
    pg_max_old, pg_min_old = np.inf, -np.inf
    for epoch in range(max_epochs):
        for s in range(active):
            r = s + np.random.randint(0, active - s)
            index[s], index[r] = index[r], index[s]
        pg_max, pg_min = -np.inf, np.inf
        s = 0
        while s < active:
            i = index[s]
            g = 0.0
            for j in range(k):
                g += w[j] * X[i, j]
            g = y[i] * g - 1.0
            pg = 0.0
            if alpha[i] == 0.0:
                if g > pg_max_old:  # shrink: stays at its bound
                    active -= 1
                    index[s], index[active] = index[active], index[s]
                    continue
                pg = min(g, 0.0)
            elif alpha[i] == C:
                if g < pg_min_old:
                    active -= 1
                    index[s], index[active] = index[active], index[s]
                    continue
                pg = max(g, 0.0)
            else:
                pg = g
            pg_max = max(pg_max, pg)
            pg_min = min(pg_min, pg)
            if abs(pg) > 1e-12:
                old = alpha[i]
                alpha[i] = min(max(old - g / QD[i], 0.0), C)
                d = (alpha[i] - old) * y[i]
                for j in range(k):
                    w[j] += d * X[i, j]
            s += 1
        if pg_max - pg_min <= eps:
            if active == n:
                return epoch + 1, True
            active = n  # converged on the shrunk set: check every point once more
            pg_max_old, pg_min_old = np.inf, -np.inf
            continue
        pg_max_old = pg_max if pg_max > 0.0 else np.inf
        pg_min_old = pg_min if pg_min < 0.0 else -np.inf
    return max_epochs, False


class LinearSVMCDMaster(FreeSignQPPricing):
    """Restricted linear SVM (1) with liblinear's penalised offset, by warm-started dual coordinate descent.

    Parameters
    ----------
    y : array-like of shape (n_rows,)
        Labels in {-1, +1}.
    C : float
        Weight of the hinge slacks, > 0.
    intercept_scaling : float, default=1.0
        B, the constant feature that carries the offset (liblinear's bias, scikit-learn's
        ``intercept_scaling``); b = B w_B is penalised as w_B^2 / 2.
    columns : array-like of shape (n_rows, k), default=None
        Initial columns, as if passed to :meth:`add_columns`.
    tol : float, default=1e-3
        liblinear's stopping tolerance: the span of the projected gradients of the
        dual over one pass (scikit-learn's ``LinearSVC(tol)``).
    max_epochs : int, default=10_000_000
        Most passes over the points per solve; a pass skips the points shrinking
        has set aside. Convergence slows as C grows: one master of 90 stumps at
        n = 10^4 took 116 000 passes (1.3 s) at C = 1, against hundreds at C = 0.01.
    on_failure : {"raise", "record"}, default="raise"
        When ``max_epochs`` is reached, raise SolverError or return a NaN record.

    Notes
    -----
    Sign convention as :class:`.SVMDualMaster`: ``duals`` are alpha (u of eq. 9),
    ``pricing_weights`` y * alpha, so a learner prices at score_j = h_j' (y * alpha)
    (eq. 8) and the master is optimal over all learners iff every score outside it
    is 0. ``objective`` is the dual objective 1' alpha - ||w||^2 / 2 at the solver's
    alpha, a lower bound on the restricted optimum within ``tol``.
    """

    intercept = "regularized"

    def __init__(
        self,
        y: np.ndarray,
        C: float,
        *,
        intercept_scaling: float = 1.0,
        columns: np.ndarray | None = None,
        tol: float = 1e-3,
        max_epochs: int = 10_000_000,
        on_failure: str = "raise",
    ) -> None:
        self.y = check_labels(y)
        self.C = check_C(C)
        if not (np.isfinite(intercept_scaling) and intercept_scaling > 0):
            raise ValueError(f"intercept_scaling must be a finite number > 0, got {intercept_scaling!r}")
        if not tol > 0:
            raise ValueError(f"tol must be > 0, got {tol!r}")
        self.intercept_scaling = float(intercept_scaling)
        self.tol = float(tol)
        self.max_epochs = int(max_epochs)
        self.on_failure = check_choice("on_failure", on_failure, ON_FAILURE)
        self._X = ColumnStore(self.n_rows, contiguous="rows")  # rows x_i = [B, h_1(x_i), ..., h_k(x_i)]
        self._X.append(np.full((self.n_rows, 1), self.intercept_scaling))
        self._QD = np.full(self.n_rows, self.intercept_scaling**2)
        self._alpha = np.zeros(self.n_rows)
        self._w = np.zeros(1)
        if columns is not None:
            self.add_columns(columns)

    @property
    def n_columns(self) -> int:
        return len(self._X) - 1

    def add_columns(self, K: np.ndarray) -> None:
        """Append learner outputs as features; alpha stays, and w gains their scores sum_i y_i alpha_i h(x_i).

        Parameters
        ----------
        K : array-like of shape (n_rows, m) or (n_rows,)
        """
        K = as_column_block(K, self.n_rows)
        self._X.append(K)
        self._QD += np.einsum("ij,ij->i", K, K)
        self._w = np.concatenate([self._w, K.T @ (self.y * self._alpha)])

    def solve(self) -> MasterSolution:
        """Run dual coordinate descent from the last alpha to ``tol``.

        Returns
        -------
        MasterSolution
            ``alpha`` are the learner weights w_j, ``intercept`` is B w_B.

        Raises
        ------
        SolverError
            If ``max_epochs`` is reached and ``on_failure == "raise"``.
        """
        start = perf_counter()
        epochs, converged = _dual_cd(
            self._X.array, self.y, self._alpha, self._w, self._QD, self.C, self.tol, self.max_epochs, 0
        )
        seconds = perf_counter() - start
        if not converged:
            return failure(
                solver="dual coordinate descent",
                problem="linear SVM dual",
                status="max_epochs reached",
                n_rows=self.n_rows,
                n_columns=self.n_columns,
                n_constraints=self.n_rows,
                iterations=epochs,
                seconds=seconds,
                on_failure=self.on_failure,
            )
        w = self._w.copy()
        margins = self.y * (self._X.array @ w)
        return MasterSolution(
            alpha=w[1:],
            intercept=self.intercept_scaling * w[0],
            xi=np.maximum(0.0, 1.0 - margins),
            duals=self._alpha.copy(),
            pricing_weights=self.y * self._alpha,
            objective=float(self._alpha.sum() - 0.5 * w @ w),
            status=OPTIMAL,
            iterations=epochs,
            seconds=seconds,
        )
