"""Linear-SVM restricted masters solved by liblinear's dual coordinate descent, warm-started: CGEns and CG-Boost.

The CGEns master is the linear SVM (1) over the outputs of the chosen learners
(Shen & Liu, Algorithm 1, line 6), which the paper solves with liblinear. With
liblinear's offset convention (a constant feature B appended to every point, so
that b = B w_B is penalised as w_B^2 / 2) its dual is

    min_alpha  1/2 alpha' Q alpha - 1' alpha   s.t.  0 <= alpha_i <= C_i,
    Q_st = y_s y_t (h(x_s)' h(x_t) + B^2),

(C_i = C in the paper; C w_i for sample weights w) with no equality constraint:
adding a learner changes Q but not the feasible set, so the previous alpha is a
feasible start of the next master, and the weight of the new learner,
w_j = sum_i y_i alpha_i h_j(x_i), is its pricing score (eq. 8). It is solved by
liblinear's dual coordinate descent, written again to start warm (:mod:`.dual_cd`),
over an int8 copy of the rows while they are integers, e.g. stumps' +-1 (:mod:`._cd_rows`).

Coordinate descent slows as C grows (thousands of passes per master at C = 1);
a solve that has not converged after ``NEWTON_AFTER`` passes per smoothing stage
turns to Newton's method in the primal (:mod:`.svm_newton`), whose dual point is
accepted only if it meets the same stopping criterion (:mod:`.svm_cd_newton`).

The CG-Boost 2-norm master (eq. 7 and 11) with the offset penalised as a
constant column (§4.1, first case) is the same problem with kernel columns as
the features: :class:`LinearSVMCDMaster` for free alpha, and
:class:`NonnegLinearSVMCDMaster` for alpha >= 0 by an active set over it.

``tests/library/test_masters_svm_cd.py`` checks the solution against scikit-learn's
``LinearSVC(loss="hinge", intercept_scaling=B)`` (liblinear itself) and against
a direct QP solve by HiGHS, with the columns added at once, in chunks or one by
one.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any

import numpy as np

from ._solution import (
    ON_FAILURE,
    OPTIMAL,
    SOLVER_REMEDY,
    FreeSignQPPricing,
    MasterSolution,
    as_column_block,
    check_C,
    check_choice,
    check_labels,
    failure,
    per_sample,
)
from ._cd_rows import DescentRows
from .active_set import NonnegActiveSet
from .dual_cd import _dual_cd, projected_gradient_span
from .svm_cd_newton import NewtonRoute

__all__ = ["LinearSVMCDMaster", "NonnegLinearSVMCDMaster", "projected_gradient_span"]


class LinearSVMCDMaster(NewtonRoute, FreeSignQPPricing):
    """Restricted linear SVM (1) with liblinear's penalised offset, by warm-started dual coordinate descent.

    Parameters
    ----------
    y : array-like of shape (n_rows,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n_rows,)
        Weight of the hinge slacks, > 0; or one per row, C_i >= 0 (not all 0), the
        box 0 <= alpha_i <= C_i (C_i = C w_i for sample weights w). A row of C_i = 0
        keeps alpha_i = 0 and is never visited.
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
        has set aside, over coordinate descent and Newton's method together.
        Coordinate descent slows as C grows: one master of 90 stumps at n = 10^4
        took 116 000 passes (1.3 s) at C = 1, against hundreds at C = 0.01; past
        ``NEWTON_AFTER`` passes per smoothing stage Newton's method takes over.
    on_failure : {"raise", "record"}, default="raise"
        When ``max_epochs`` is reached, raise SolverError or return a NaN record.
    loose_tol : float or None, default=None
        Tolerance of the solves until :meth:`tighten` (0.1 is liblinear's own default
        for its dual solvers): far from the optimum, duals this accurate price as
        well, at a fraction of the passes. Column generation tightens the master to
        ``tol`` when no column prices in, and before it returns a model.
        None: every solve to ``tol``.

    Notes
    -----
    Sign convention as :class:`.SVMDualMaster`: ``duals`` are alpha (u of eq. 9),
    ``pricing_weights`` y * alpha, so a learner prices at score_j = h_j' (y * alpha)
    (eq. 8) and the master is optimal over all learners iff every score outside it
    is 0. ``objective`` is the dual objective 1' alpha - ||w||^2 / 2 at the solver's
    alpha, a lower bound on the restricted optimum within ``tol``.

    A solve that has not converged after ``NEWTON_AFTER`` passes per smoothing stage
    (:func:`.smoothing_widths`) turns to Newton's method on the Huber-smoothed primal
    (:mod:`.svm_newton`), from the primal weights of the last solve it ended where
    coordinate descent has not ended one since (else from coordinate descent's w); its
    dual point is accepted only if it meets the same stopping criterion. Where it is
    not, coordinate descent goes on from it. After a solve Newton's method ended, the
    next ones start with it, but for probes of coordinate descent (``PROBE_EVERY``), whatever the
    number of columns k (a limit to k <= n / 4, tried on 2026-11-26, made CG-Boost on centred
    MNIST-1000, k = 1700, 33 s instead of 27 s and CGEns with 500 Fourier features on 866 points
    13 s instead of 8 s, where the masters it kept from Newton's method went to Clarabel).
    ``n_newton_solves`` counts the solves it ended; ``iterations`` counts its steps beside the passes.

    Why coordinate descent and not an exact active set at large C: :mod:`.dual_cd`.
    """

    intercept = "regularized"

    def __init__(
        self,
        y: np.ndarray,
        C: float | np.ndarray,
        *,
        intercept_scaling: float = 1.0,
        columns: np.ndarray | None = None,
        tol: float = 1e-3,
        max_epochs: int = 10_000_000,
        on_failure: str = "raise",
        loose_tol: float | None = None,
    ) -> None:
        self.y = check_labels(y)
        self.C = check_C(C, self.n_rows)
        self._box = per_sample(self.C, self.n_rows)  # C_i, as coordinate descent reads it
        if not (np.isfinite(intercept_scaling) and intercept_scaling > 0):
            raise ValueError(f"intercept_scaling must be a finite number > 0, got {intercept_scaling!r}")
        if not tol > 0:
            raise ValueError(f"tol must be > 0, got {tol!r}")
        self.intercept_scaling = float(intercept_scaling)
        self.tol = float(tol)
        self._eps = self.tol  # the tolerance of the next solve
        if loose_tol is not None:
            if not loose_tol > 0:
                raise ValueError(f"loose_tol must be > 0 or None, got {loose_tol!r}")
            self._eps = max(float(loose_tol), self.tol)
        self.max_epochs = int(max_epochs)
        self.on_failure = check_choice("on_failure", on_failure, ON_FAILURE)
        self._alpha = np.zeros(self.n_rows)
        self._set_features(np.zeros((self.n_rows, 0)))
        if columns is not None:
            self.add_columns(columns)

    @property
    def n_columns(self) -> int:
        return len(self._X) - 1

    def tighten(self) -> bool:
        """Solve to ``tol`` from now on; True if the solves were looser until now (re-solve and price again)."""
        looser, self._eps = self._eps > self.tol, self.tol
        return looser

    def add_columns(self, K: np.ndarray) -> None:
        """Append learner outputs as features; alpha stays, and w gains their scores sum_i y_i alpha_i h(x_i).

        Parameters
        ----------
        K : array-like of shape (n_rows, m) or (n_rows,)
        """
        self._append_features(as_column_block(K, self.n_rows))

    def _set_features(self, K: np.ndarray) -> None:
        """Make the rows x_i = [B, K_i.] and w = sum_i y_i alpha_i x_i for the current alpha."""
        self._X = DescentRows(self.n_rows)  # and an int8 copy for coordinate descent while the entries allow
        self._X.append(np.full((self.n_rows, 1), self.intercept_scaling))
        self._QD = np.full(self.n_rows, self.intercept_scaling**2)
        self._w = np.array([self.intercept_scaling * (self.y @ self._alpha)])
        self._newton_w, self._newton_streak = None, 0
        self._append_features(K)

    def _keep_features(self, keep: np.ndarray) -> np.ndarray:
        """Drop the features (after the offset's) where ``keep`` is False; return the kept ones' old indices.

        The features' order changes as :meth:`.ColumnStore.keep` says; w keeps the
        entries of the features kept.
        """
        order = self._X.keep(np.concatenate([[True], keep]))
        X = self._X.array  # Q_ii afresh: subtracting the dropped features' squares leaves rounding where none are
        self._QD = np.einsum("ij,ij->i", X, X)  # left, which _rescale of the free offset takes for their norm
        self._w = self._w[order]
        self._newton_w, self._newton_streak = None, 0
        return order[1:] - 1

    def _append_features(self, K: np.ndarray) -> None:
        self._X.append(K)
        self._QD += np.einsum("ij,ij->i", K, K)
        self._w = np.concatenate([self._w, K.T @ (self.y * self._alpha)])
        if self._newton_w is not None:  # a new column starts at weight 0
            self._newton_w = np.concatenate([self._newton_w, np.zeros(K.shape[1])])

    def _solve_free(self) -> tuple[np.ndarray, float, int, bool]:
        """Dual coordinate descent from the current alpha, Newton's method where it is slow.

        Returns (pricing weights, b, passes and Newton steps, converged), by :meth:`_finish`.
        """
        epochs = 0
        if not self._newton_first():
            epochs, converged = self._descend(self._cd_budget())
            if converged:
                self._newton_w, self._newton_streak = None, 0  # the next Newton solve starts from CD's w
            if converged or epochs >= self.max_epochs:
                return self._finish(epochs, converged)
        steps, accepted = self._newton()
        if accepted:
            return self._finish(epochs + steps, True)
        more, converged = self._descend(self.max_epochs - epochs)
        return self._finish(epochs + steps + more, converged)

    def _descend(self, budget: int) -> tuple[int, bool]:
        """Dual coordinate descent from the current alpha for at most ``budget`` passes: (passes, converged)."""
        return _dual_cd(self._X.descent, self.y, self._alpha, self._w, self._QD, self._box, self._eps, budget, 0)

    def _finish(self, iterations: int, converged: bool) -> tuple[np.ndarray, float, int, bool]:
        """(y * alpha, b = B w_B, iterations, converged) at the current alpha."""
        return self.y * self._alpha, self.intercept_scaling * self._w[0], iterations, converged

    def _failure(self, iterations: int, seconds: float, status: str = "max_epochs reached") -> MasterSolution:
        return failure(
            solver="dual coordinate descent",
            problem=f"linear SVM dual (alpha {self.alpha_sign})",
            status=status,
            n_rows=self.n_rows,
            n_columns=self.n_columns,
            n_constraints=self.n_rows,
            iterations=iterations,
            seconds=seconds,
            on_failure=self.on_failure,
            remedy=SOLVER_REMEDY,
        )

    def _record(
        self, alpha: np.ndarray, b: float, outputs: np.ndarray, iterations: int, seconds: float
    ) -> MasterSolution:
        """The primal-dual record at the solver's alpha; ``outputs`` are f(x_i) = K_i. alpha + b."""
        return MasterSolution(
            alpha=alpha,
            intercept=b,
            xi=np.maximum(0.0, 1.0 - self.y * outputs),
            duals=self._alpha.copy(),
            pricing_weights=self.y * self._alpha,
            objective=float(self._alpha.sum() - 0.5 * self._w @ self._w),
            status=OPTIMAL,
            iterations=iterations,
            seconds=seconds,
        )

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
        _, b, epochs, converged = self._solve_free()
        if not converged:
            return self._failure(epochs, perf_counter() - start)
        w = self._w.copy()
        return self._record(w[1:], b, self._X.array @ w, epochs, perf_counter() - start)


class NonnegLinearSVMCDMaster(NonnegActiveSet, LinearSVMCDMaster):
    """Restricted 2-norm master with alpha >= 0 and a penalised offset, by an active set over dual CD.

    CG-Boost's QP (eq. 7) with b regularised as a constant column (§4.1, first
    case; the constant is ``intercept_scaling``): the Lawson-Hanson steps of
    :class:`.NonnegActiveSet` around :class:`LinearSVMCDMaster`, whose features
    are the kernel columns of the passive set P. Its dual has box constraints
    only, so alpha stays feasible when a column enters P (the features gain one)
    and when columns leave it (they lose some): every free solve starts from the
    last alpha. That is what makes it much faster than the libsvm master, which
    starts SMO from 0 at every solve (MNIST-1000, L,Q,R, C = 1: the optimum in
    about 3.6 s, or 21 s with every solve at ``tol``, where the libsvm master had
    not reached it after 180 s).

    Parameters
    ----------
    y, C, intercept_scaling, columns, tol, max_epochs, on_failure
        As for :class:`LinearSVMCDMaster`.
    loose_tol : float or None, default=0.1
        As for :class:`LinearSVMCDMaster`, here on by default (MNIST-1000, L,Q,R,
        C = 1: 3.6 s against 21 s with every solve to ``tol``).
    entry_tol : float, default=1e-7
        A column of W enters P when its score exceeds this.
    max_steps : int, default=None
        Most active-set steps per solve (None: 10 * n_columns + 100).
    """

    def __init__(
        self,
        y: np.ndarray,
        C: float | np.ndarray,
        *,
        loose_tol: float | None = 0.1,
        entry_tol: float = 1e-7,
        max_steps: int | None = None,
        columns: np.ndarray | None = None,
        **options: Any,
    ) -> None:
        super().__init__(y, C, loose_tol=loose_tol, **options)
        self._start_active_set(self.n_rows, entry_tol, max_steps)
        self._feature_columns = np.zeros(0, dtype=np.intp)  # the column of W behind each feature, in order
        if columns is not None:
            self.add_columns(columns)

    def tighten(self) -> bool:
        """As :meth:`LinearSVMCDMaster.tighten`; a loose last free solution of P is solved again."""
        looser = super().tighten()
        if looser:
            self._dual = None  # the last free solution was loose: solve P again
        return looser

    def _passive_entered(self, js: np.ndarray) -> None:
        self._append_features(self._columns.array[:, js])
        self._feature_columns = np.concatenate([self._feature_columns, js])

    def _passive_left(self) -> None:
        """Drop the features of the columns that left P, in place (rebuilding them all took 3.3 of 18.8 s
        on MNIST-1000 L,Q,R, 2155 times)."""
        order = self._keep_features(self._passive[self._feature_columns])
        self._feature_columns = self._feature_columns[order]

    def _rebuild_features(self) -> None:
        """The features of P from W, in W's order, and w from the current dual point."""
        self._feature_columns = np.flatnonzero(self._passive)
        self._set_features(self._columns.array[:, self._feature_columns])

    def _solution(self, w: np.ndarray, b: float, alpha: np.ndarray, iterations: int, seconds: float) -> MasterSolution:
        return self._record(alpha, b, self._columns.array @ alpha + b, iterations, seconds)
