"""The 2-norm master with a free offset by warm-started dual coordinate descent: the method of multipliers.

CG-Boost's QP (7) or (11) with a free, unregularised offset b (cgboost §4.1,
second case) is a linear SVM over the kernel columns K_W whose dual carries the
equality y'u = 0:

    min_u  1/2 u'Y K_W K_W' Y u - 1'u   s.t.  0 <= u_i <= C_i,  y'u = 0

(C_i = C, or C w_i for sample weights w).

Coordinate descent cannot keep an equality, so the equality is handled by the
method of multipliers (Hestenes 1969; Bertsekas, *Constrained Optimization and
Lagrange Multiplier Methods*, 1982, ch. 2): with a multiplier mu and a penalty
rho = B^2 the augmented subproblem

    min_u  1/2 u'Y (K_W K_W' + B^2 11') Y u - sum_i u_i (1 - mu y_i)   s.t.  0 <= u_i <= C_i

is liblinear's dual with a constant feature B and every output shifted by mu
(:func:`.svm_cd._dual_cd` with ``shift=mu``), and the update mu <- mu + B^2 y'u
is a proximal-point step on the offset. In the primal each subproblem is the
SVM with b = mu + B w_B and w_B^2 / 2 penalising only the step from mu, so
the steps shrink to 0 and mu converges to the free b; a step below the
solver's tolerance ends the loop. The previous u stays feasible for every
subproblem and for every new column (the box does not depend on them), so each
solve starts warm, as in :mod:`.svm_cd`.

With a free offset the problem does not change when a column is shifted by a
constant (b absorbs it), so the columns are centred over the points before they
reach the solver: f = (K - 1 m') alpha + beta with b = beta - m'alpha. On
non-negative columns (raw pixels, where quadratic columns reach 1e4) this
removes the one direction all columns share, which is what made the dual
ill-conditioned; the constant feature then is orthogonal to every column.
Pricing is unchanged by the centring: the weights y * u - mean(y * u) give
every raw column K_.j the score of its centred version.

``tests/library/test_masters_svm_cd_offset.py`` checks the solutions against Clarabel's direct QP
solve with the columns added at once, in chunks or one by one, at several
input scales.
"""

from __future__ import annotations

from dataclasses import replace
from time import perf_counter
from typing import TYPE_CHECKING, Any

import numpy as np

from ._solution import MasterSolution
from .qp_osqp import solve_qp
from .dual_cd import _dual_cd
from .svm_cd import LinearSVMCDMaster, NonnegLinearSVMCDMaster

__all__ = ["FreeOffsetSVMCDMaster", "NonnegFreeOffsetSVMCDMaster"]

#: Where Clarabel fails on a solve that coordinate descent crawled on, coordinate descent goes on for
#: this many times ``max_epochs`` more passes.
CRAWL_FACTOR = 100


if TYPE_CHECKING:  # the mixin's base for the type checker: what it overrides and calls (class docstring)
    _Base = LinearSVMCDMaster
else:
    _Base = object


class _FreeOffset(_Base):
    """Mixin over :class:`.LinearSVMCDMaster`: centred columns, and the offset by the method of multipliers.

    ``max_outer`` bounds the multiplier updates of one solve; ``n_exact_solves``
    counts the solves handed to Clarabel; ``_mu`` is the multiplier, the offset
    of the centred model.
    """

    intercept = "free"
    max_outer = 10_000
    n_exact_solves = 0
    _mu = 0.0

    def __init__(self, y: np.ndarray, C: float | np.ndarray, **options: Any) -> None:
        options.setdefault("max_epochs", 1000)
        super().__init__(y, C, **options)

    def _set_features(self, K: np.ndarray) -> None:
        self._means = np.zeros(0)
        super()._set_features(K)

    def _keep_features(self, keep: np.ndarray) -> np.ndarray:
        order = super()._keep_features(keep)
        self._means = self._means[order]
        return order

    def _append_features(self, K: np.ndarray) -> None:
        means = K.mean(axis=0)
        self._means = np.concatenate([self._means, means])
        super()._append_features(K - means)

    def _rescale(self) -> None:
        """Set the penalty B^2 to the mean squared norm of the centred rows, so both parts weigh alike."""
        old = self.intercept_scaling
        features = self._QD - old**2
        B = float(np.sqrt(features.mean())) if features.size and features.mean() > 0 else 1.0
        self._X.set_column(0, B)  # and in the int8 copy of the rows, or drops it (:mod:`._cd_rows`)
        self._QD = features + B**2
        self._w[0] *= B / old  # w_B = B y'u
        self.intercept_scaling = B

    def _solve_free(self) -> tuple[np.ndarray, float, int, bool]:
        """The method of multipliers from the current u, Newton's method where it is slow.

        Returns (pricing weights, b, passes and Newton steps, converged).

        :meth:`.LinearSVMCDMaster._solve_free` with the penalty B^2 set first
        (:meth:`_rescale`), coordinate descent by the method of multipliers
        (:meth:`_descend`) and Newton's method with the offset free (:meth:`_newton`).
        When Newton's point is not accepted, or the passes of one solve pass
        ``max_epochs`` (coordinate descent crawls when C ||K_i.||^2 is large, e.g.
        quadratic columns of raw pixels), the solve is handed to :meth:`_solve_exactly`.
        """
        self._rescale()
        return super()._solve_free()

    def _descend(self, budget: int) -> tuple[int, bool]:
        """The method of multipliers from the current u and mu for at most ``budget`` passes."""
        return self._multipliers(budget)

    def _finish(self, iterations: int, converged: bool) -> tuple[np.ndarray, float, int, bool]:
        """The free solution where the solve converged, else Clarabel's (:meth:`_solve_exactly`)."""
        return self._free_solution(iterations) if converged else self._solve_exactly(iterations)

    def _newton(self) -> tuple[int, bool]:
        """Newton's method with w_B unpenalised (the free offset) and the outputs shifted by mu.

        An accepted point moves its offset B w_B into mu: w_B = B y'u = 0 at the dual point.
        """
        penalty = np.ones(self._X.array.shape[1])
        penalty[0] = 0.0
        steps, accepted = self._huber_newton(penalty, self._mu)
        if accepted:
            assert self._newton_w is not None  # an accepted Newton solve keeps its weights
            self._mu += self.intercept_scaling * self._newton_w[0]
            self._newton_w[0] = 0.0
        return steps, accepted

    def _free_shift(self, w: np.ndarray) -> float:
        """B w_B: the offset weights w carry beyond mu (a Newton iterate's, or B^2 y'u at the dual's w)."""
        return self.intercept_scaling * w[0]

    def _offset_settled(self, w: np.ndarray) -> bool:
        """y'u = 0 to the multiplier loop's test: the step B^2 y'u = B w_B is at most ``tol / 10``."""
        return abs(self._free_shift(w)) <= 0.1 * self._eps

    def _multipliers(self, budget: int) -> tuple[int, bool]:
        """Multiplier updates from the current u and mu for at most ``budget`` passes: (passes, converged)."""
        epochs = 0
        for _ in range(self.max_outer):
            passes, converged = _dual_cd(
                self._X.descent,
                self.y,
                self._alpha,
                self._w,
                self._QD,
                self._box,
                self._eps,
                budget - epochs,
                0,
                self._mu,
            )
            epochs += passes
            if not converged:
                return epochs, False
            self._mu += self._free_shift(self._w)  # B w_B = B^2 y'u: the proximal step of the offset
            if self._offset_settled(self._w):
                return epochs, True
        return epochs, False

    def _free_solution(self, epochs: int) -> tuple[np.ndarray, float, int, bool]:
        """(pricing weights, b of the raw columns, passes, True) at the current u and mu."""
        return self._weights(), self._mu - self._means @ self._w[1:], epochs, True

    def _solve_exactly(self, epochs: int) -> tuple[np.ndarray, float, int, bool]:
        """Clarabel's interior point on the current columns; coordinate descent resumes from its u next time.

        Where Clarabel fails too (e.g. "AlmostSolved" on the many duplicate points of
        flare-solar with 500 Fourier learners), coordinate descent goes on from its own
        u for ``CRAWL_FACTOR`` times ``max_epochs`` more passes; if that does not
        converge either, the solve fails and says both.
        """
        exact = solve_qp(self._X.array[:, 1:], self.y, self.C, alpha_sign="free", intercept="free", on_failure="record")
        self.n_exact_solves += 1
        if not exact.optimal:
            passes, converged = self._multipliers(CRAWL_FACTOR * self.max_epochs)
            if converged:
                return self._free_solution(epochs + passes)
            self._failure_status = (
                f"max_epochs reached, Clarabel stopped with status {exact.status!r}, and "
                f"{CRAWL_FACTOR} x max_epochs more passes did not converge"
            )
            return np.zeros(self.n_rows), 0.0, epochs + passes + exact.iterations, False
        self._alpha[:] = np.clip(exact.duals, 0.0, self.C)
        self._w = self._X.array.T @ (self.y * self._alpha)
        self._mu = exact.intercept
        return self._free_solution(epochs + exact.iterations)

    def _failure(self, iterations: int, seconds: float, status: str = "max_epochs reached") -> MasterSolution:
        """As the base class's, naming Clarabel's failure too where the solve went that far."""
        status = self.__dict__.pop("_failure_status", status)
        return super()._failure(iterations, seconds, status)

    def _weights(self) -> np.ndarray:
        """y * u - mean(y * u): the pricing weights of the centred columns, applied to raw ones."""
        weights = self.y * self._alpha
        return weights - weights.mean()

    def _record(self, alpha, b, outputs, iterations, seconds) -> MasterSolution:
        """As :meth:`.LinearSVMCDMaster._record`, with the dual objective 1'u - ||alpha||^2 / 2 (no w_B)."""
        solution = super()._record(alpha, b, outputs, iterations, seconds)
        a = self._w[1:]
        return replace(
            solution,
            pricing_weights=self._weights(),
            objective=float(self._alpha.sum() - 0.5 * a @ a),
        )


class FreeOffsetSVMCDMaster(_FreeOffset, LinearSVMCDMaster):
    """Restricted 2-norm master, alpha of either sign and a free offset (eq. 11, §4.1 second case).

    Dual coordinate descent on centred columns, the equality y'u = 0 by the
    method of multipliers (module docstring).

    Parameters
    ----------
    y : array-like of shape (n_rows,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n_rows,)
        Weight of the hinge slacks, > 0; or one per row, C_i >= 0 (not all 0), as for
        :class:`.LinearSVMCDMaster`.
    columns : array-like of shape (n_rows, k), default=None
        Initial columns, as if passed to :meth:`add_columns`.
    tol : float, default=1e-3
        Tolerance of every coordinate-descent solve (liblinear's: the span of the
        projected gradients over one pass); the loop over the multiplier stops when
        the offset moves by less than ``tol / 10``.
    max_epochs : int, default=1000
        Passes of coordinate descent per solve, over all multiplier updates, after
        which the solve is handed to Clarabel (``n_exact_solves`` counts them).
    on_failure : {"raise", "record"}, default="raise"

    Notes
    -----
    ``duals`` are u (eq. 9), ``pricing_weights`` y * u - mean(y * u), so that a
    column prices at score_j = K_.j' (y * u) (eq. 12) once y'u = 0; ``objective``
    is the dual objective 1'u - ||alpha||^2 / 2.
    """

    def __init__(
        self, y: np.ndarray, C: float | np.ndarray, *, columns: np.ndarray | None = None, **options: Any
    ) -> None:
        super().__init__(y, C, **options)
        if columns is not None:
            self.add_columns(columns)

    def solve(self) -> MasterSolution:
        """Solve the restricted master from the last u.

        Returns
        -------
        MasterSolution
            ``alpha`` are the column weights, ``intercept`` the free offset b.

        Raises
        ------
        SolverError
            If a coordinate-descent solve reaches ``max_epochs``, or the multiplier
            has not settled after ``max_outer`` updates, and ``on_failure == "raise"``.
        """
        start = perf_counter()
        _, b, epochs, converged = self._solve_free()
        if not converged:
            return self._failure(epochs, perf_counter() - start)
        alpha = self._w[1:].copy()
        return self._record(alpha, b, self._X.array[:, 1:] @ alpha + self._mu, epochs, perf_counter() - start)


class NonnegFreeOffsetSVMCDMaster(_FreeOffset, NonnegLinearSVMCDMaster):
    """Restricted 2-norm master, alpha >= 0 and a free offset (eq. 7, §4.1 second case).

    The active set of :class:`.NonnegActiveSet` around :class:`FreeOffsetSVMCDMaster`'s
    solver on the passive columns. Parameters as for :class:`.NonnegLinearSVMCDMaster`
    (``loose_tol``, ``entry_tol``, ``max_steps``), less ``intercept_scaling``: the
    offset is free. When the active-set steps do not settle (at large C the free
    solves' accuracy, ``tol`` on the margins, leaves scores near 0 that flip sign:
    MNIST-1000 L,Q,R on pixels / 255 at C = 10^4), Clarabel solves the master over
    all of W once and the steps restart from its P and duals
    (:meth:`_restart_exactly`; ``n_exact_solves`` counts these too).
    """

    def _restart_exactly(self) -> bool:
        """P = the columns with alpha > 0 at Clarabel's optimum over W; u, mu and the free model from it."""
        exact = solve_qp(self._columns.array, self.y, self.C, alpha_sign="nonneg", intercept="free")
        alpha = np.asarray(exact.alpha, dtype=np.float64)
        self._alpha[:] = np.clip(exact.duals, 0.0, self.C)
        # the interior point leaves alpha ~1e-9 on columns at their bound: P needs a positive score too (eq. 8)
        scores = self._columns.array.T @ (self.y * self._alpha)
        self._passive = (alpha > 1e-9 * max(1.0, alpha.max(initial=0.0))) & (scores > 0.0)
        alpha = np.where(self._passive, alpha, 0.0)
        self._rebuild_features()  # the centred features of P, in W's order, and w from u
        self._mu = float(exact.intercept + self._means @ alpha[self._passive])  # b = mu - means' alpha
        self._x, self._dual = (alpha, float(exact.intercept)), None
        self.n_exact_solves += 1
        return True
