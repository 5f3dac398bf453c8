"""alpha >= 0 restricted 2-norm masters by an active set over a free-alpha dual solver.

At the optimum of the alpha >= 0 master over the working set W, the columns
with alpha_j > 0 (the passive set P) form a free-alpha master whose solution is
an SVM dual on the columns of P, and every other column of W prices at
score_j <= 0 (cgboost Theorem 3.1 inside W). :class:`NonnegActiveSet` finds P
by the active-set method of Lawson and Hanson (Solving Least Squares Problems,
1974, ch. 23), with the convex 2-norm objective in place of least squares:

1. solve the free master on P, giving z;
2. while some z_j <= 0, move from the current feasible point x towards z until
   an alpha_j reaches 0 (the objective does not increase on the segment, by
   convexity, since z minimises over P), drop those columns from P and solve
   again;
3. if columns of W outside P price at score_j > ``entry_tol``, move them all
   into P and go to 1; else x = z is optimal over W.

Step 3 moves every violating column at once, not only the largest as Lawson
and Hanson do: when column generation adds several columns per step
(``columns_per_iteration``), one free solve takes them all, where single entries
cost one free solve each. A column that is not needed drops out in step 2, and
the objective still decreases from one step 3 to the next, so the method still
ends. The free solvers (libsvm's SMO, liblinear's dual coordinate descent) are
accurate to about 1e-4 on ill-conditioned problems, so a column that entered
alone may price just above ``entry_tol`` and yet get z_j <= 0 at once; it is
then held out until the next :meth:`NonnegActiveSet.solve` instead of entering
and leaving forever (without this, one MNIST master cycled for thousands of
steps). When columns that entered together drop out at once (noise, or one
displaced another), the solve goes on one column at a time, as Lawson and Hanson.

When column generation adds one column to W at a time, step 3 usually moves just
that column and each restricted master costs one or two free solves. No
maintained library does this: the interior-point solvers take seconds per
master at a few hundred columns and cannot warm-start, and OSQP and HiGHS's QP
solver fail on these masters (measured, see :mod:`.qp_osqp`).
"""

from __future__ import annotations

from time import perf_counter
from typing import TYPE_CHECKING

import numpy as np

from ._solution import ColumnStore, MasterSolution, as_column_block, dual_violation, qp_duality_gap

__all__ = ["NonnegActiveSet"]


class NonnegActiveSet:
    """Mixin: the alpha >= 0 master over W by Lawson-Hanson steps around a free-alpha solver of P.

    The class it is mixed into solves the free master on the passive columns and
    provides

    - ``_solve_free() -> (w, b, iterations, converged)``: the free master on P,
      with pricing weights w (a column prices at K_.j' w, so z_j = K_.j' w on P);
    - ``_passive_entered(js)`` and ``_passive_left()``: update its own data after
      the columns ``js`` (indices into W) joined P, or after columns left P
      (``_passive`` already updated);
    - ``_solution(w, b, alpha, iterations, seconds)`` and
      ``_failure(iterations, seconds, status)``: the :class:`MasterSolution` records.

    Call :meth:`_start_active_set` in ``__init__`` before any column is added.
    The columns of W are in ``_columns``; P is the boolean mask ``_passive``.
    """

    alpha_sign = "nonneg"
    score_threshold = 0.0
    entry_tol: float
    max_steps: int | None

    if TYPE_CHECKING:  # what the class it is mixed into provides (class docstring); not defined here at run time

        @property
        def n_rows(self) -> int: ...

        def _solve_free(self) -> tuple[np.ndarray, float, int, bool]: ...

        def _passive_entered(self, js: np.ndarray) -> None: ...

        def _passive_left(self) -> None: ...

        def _solution(
            self, w: np.ndarray, b: float, alpha: np.ndarray, iterations: int, seconds: float
        ) -> MasterSolution: ...

        def _failure(self, iterations: int, seconds: float, status: str = ...) -> MasterSolution: ...

    def _start_active_set(self, n_rows: int, entry_tol: float, max_steps: int | None) -> None:
        self.entry_tol = float(entry_tol)
        self.max_steps = max_steps
        self._columns = ColumnStore(n_rows)
        self._passive = np.zeros(0, dtype=bool)
        self._x: tuple[np.ndarray, float] = (np.zeros(0), 0.0)
        self._dual: tuple[np.ndarray, float] | None = None

    @property
    def n_columns(self) -> int:
        return len(self._columns)

    def add_columns(self, K: np.ndarray) -> None:
        """Append candidate columns to W, outside P (alpha_j = 0), so the current point stays feasible.

        Parameters
        ----------
        K : array-like of shape (n_rows, k) or (n_rows,)
        """
        K = as_column_block(K, self.n_rows)
        self._columns.append(K)
        self._passive = np.concatenate([self._passive, np.zeros(K.shape[1], dtype=bool)])
        self._x = (np.concatenate([self._x[0], np.zeros(K.shape[1])]), self._x[1])

    def solve(self) -> MasterSolution:
        """Solve the alpha >= 0 master over W by the active-set steps of the module docstring.

        Returns
        -------
        MasterSolution
            ``alpha`` over all of W (0 outside P); ``iterations`` sums the free solver's.

        Raises
        ------
        SolverError
            If the free solver fails, or the active set does not settle in
            ``max_steps`` steps (default 10 * n_columns + 100) nor, where the class
            offers :meth:`_restart_exactly`, in as many more steps from the exact
            optimum over W, and ``on_failure == "raise"``.
        """
        start = perf_counter()
        K_W = self._columns.array
        max_steps = 10 * self.n_columns + 100 if self.max_steps is None else self.max_steps
        alpha, b = self._x
        dual = self._dual  # the free solution (w, b) on the current P, if P has not changed since
        scores = None if dual is None else K_W.T @ dual[0]  # K_.j' w for every column of W
        held = np.zeros(self.n_columns, dtype=bool)  # entered and blocked at once: noise, not a descent
        one_by_one = False  # step 3 moves only the largest violation
        entered = np.zeros(0, dtype=np.intp)  # the columns of the last step 3
        iterations = 0
        restarted = ""
        for step in range(2 * max_steps):
            if step == max_steps:  # unsettled: restart once from the exact optimum over W, if the solver offers one
                if not self._restart_exactly():
                    break
                restarted = f" and {max_steps} more from the exact optimum over W"
                (alpha, b), dual = self._x, None
                held[:], one_by_one, entered = False, False, np.zeros(0, dtype=np.intp)
            if dual is None:
                w, z_b, its, converged = self._solve_free()
                iterations += its
                if not converged:
                    return self._failure(iterations, perf_counter() - start)
                scores = K_W.T @ w
                z = np.where(self._passive, scores, 0.0)
                blocking = self._passive & (z <= 0.0)
                if blocking.any():  # step 2: stay feasible, drop the columns that reach 0
                    at_once = blocking[entered] & (alpha[entered] == 0.0)  # entered and blocked at once
                    if entered.size == 1:
                        held[entered[at_once]] = True  # its score was within the solver's accuracy of 0
                    elif at_once.any():
                        one_by_one = True  # noise or displacement: from now on as Lawson and Hanson
                    t = np.min(alpha[blocking] / (alpha[blocking] - z[blocking]))
                    alpha, b = alpha + t * (z - alpha), b + t * (z_b - b)
                    leaving = self._passive & (alpha <= 1e-12 * max(1.0, alpha.max(initial=0.0)))
                    leaving |= blocking & (t == 0.0)
                    self._passive &= ~leaving
                    alpha[~self._passive] = 0.0
                    self._passive_left()
                    continue
                alpha, b, dual = z, z_b, (w, z_b)
            assert scores is not None  # computed with dual, above or before the loop
            outside = np.where(self._passive | held, -np.inf, scores)
            entered = np.flatnonzero(outside > self.entry_tol)
            if one_by_one and entered.size:
                entered = entered[[np.argmax(outside[entered])]]
            if not entered.size:  # step 3: optimal over W
                self._x, self._dual = (alpha, b), dual
                return self._solution(dual[0], dual[1], alpha, iterations, perf_counter() - start)
            self._passive[entered] = True
            dual = None
            self._passive_entered(entered)
        self._x, self._dual = (alpha, b), None
        return self._failure(
            iterations, perf_counter() - start, status=f"active set unsettled after {max_steps} steps{restarted}"
        )

    def _restart_exactly(self) -> bool:
        """Set P, ``_x`` and the free solver's state from the exact optimum over W; False if not offered.

        Called once per :meth:`solve`, when the steps have not settled in ``max_steps``.
        """
        return False

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """score_j of columns not in the master (eq. 10); > 0 means the column would enter."""
        return dual_violation(scores, free_sign=False, threshold=self.score_threshold)

    def duality_gap(self, scores: np.ndarray) -> float:
        """1/2 sum over the columns not in the master of max(score_j, 0)^2 (primal minus dual)."""
        return qp_duality_gap(scores, free_sign=False)
