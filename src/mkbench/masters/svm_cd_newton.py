"""The dual CD masters' Newton route: when a solve turns to Newton's method, and its products from int8 rows.

:class:`.LinearSVMCDMaster` solves by coordinate descent (:mod:`.dual_cd`), which
crawls as C grows; :class:`NewtonRoute` is the part of it that hands a solve to
Newton's method on the Huber-smoothed primal (:mod:`.svm_newton`) and back: after
``NEWTON_AFTER`` passes per smoothing stage, and from the start of the solves after
one Newton's method ended, but for probes of coordinate descent (``PROBE_EVERY``).

Newton's products (issue 44): each step's X d (n x k, a pass over the rows, the largest
single part of a step: MNIST odd/even, n = 10^4, 500 stumps, C = 1, 9 of 27 s) is taken
by BLAS over blocks of rows (:func:`rows_times`), from the int8 copy of the rows where
there is one (:mod:`._cd_rows`), each block converted in cache. Every entry is the one
the whole float64 product gives it, so the iterates are the float64 ones bit for bit
(tested). The products stay on one thread: splitting the blocks over ``n_jobs`` threads
(tried for issue 44) made CGEns with ``n_jobs=2`` at C = 1 on that problem slower than
one thread (25.0 s against 21.1 s, ``benchmarks/cgens_across_c.py`` at load 1-1.7), and
OpenBLAS's own threads changed the Gram updates and Cholesky factors at 1e-12 and, on 2
busy cores, made a fit 20x slower.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ._cd_rows import DescentRows
from .dual_cd import projected_gradient_span
from .svm_newton import huber_newton, smoothing_widths

__all__ = ["NEWTON_AFTER", "PROBE_EVERY", "NewtonRoute", "rows_times"]

#: Passes of coordinate descent a solve gets, per smoothing stage Newton's method would need
#: (:func:`.smoothing_widths`: 1 at liblinear's loose 0.1, 7 at 1e-3), before it turns to Newton's
#: method in the primal (:mod:`.svm_newton`; issue 20: at C >= 0.1 one master takes thousands of passes).
NEWTON_AFTER = 50
#: Once Newton's method has ended a solve, the next solves start with it, coordinate descent left out
#: (MNIST odd/even, n = 10^4, 500 stumps, C = 1: 50 passes first at every master made the fit 2.3x
#: slower), except probes, which give coordinate descent its passes first: where it converges in them, the
#: solves go back to it (C = 0.001 with every master to 1e-3: Newton first throughout took 110 s against 23 s).
#: Probes come ``PROBE_EVERY`` solves into a streak of Newton's, then at gaps doubling after each one that fails
#: (there, 500 stumps at C = 1: its 50 failed probes every 10th solve cost a fifth of the masters' time).
PROBE_EVERY = 10
#: Rows per block of :func:`rows_times`: the blocks start at multiples of it.
ROW_BLOCK = 256


def rows_times(X: np.ndarray, v: np.ndarray) -> np.ndarray:
    """X @ v by BLAS for the rows X of a dual CD master; int8 rows converted to float64 ``ROW_BLOCK`` rows at a time.

    An int8 block converts exactly and stays in cache for its product, so the product reads an
    eighth of the float64 rows' memory (X d at n = 10^4, k = 500: 1.4-1.7 ms against 2.9 ms). Each
    entry is the one BLAS gemv gives it over all of X: OpenBLAS's gemv takes rows four at a time,
    so blocks starting at multiples of 4 leave every row's sum as it was, but for a block of one
    row, whose product numpy takes by a dot that rounds otherwise: a last row alone joins the block
    before it (checked over n <= 1025, k <= 500 against the whole product).
    """
    if X.dtype == np.float64:
        return X @ v
    n = X.shape[0]
    out = np.empty(n)
    block = np.empty((min(ROW_BLOCK + 1, n), X.shape[1]))
    start = 0
    while start < n:
        end = n if n - start <= ROW_BLOCK + 1 else start + ROW_BLOCK
        np.copyto(block[: end - start], X[start:end])
        np.matmul(block[: end - start], v, out=out[start:end])
        start = end
    return out


class NewtonRoute:
    """Mixin of :class:`.LinearSVMCDMaster`: when a solve turns to Newton's method, and the Newton solve itself.

    ``n_newton_solves`` counts the solves Newton's method ended; its products X v are :func:`rows_times`.
    """

    # the master's state the route reads and sets (LinearSVMCDMaster's; annotations only)
    y: np.ndarray
    C: float | np.ndarray
    max_epochs: int
    _X: DescentRows
    _eps: float
    _w: np.ndarray
    _alpha: np.ndarray
    _QD: np.ndarray

    n_newton_solves = 0
    _newton_w: np.ndarray | None = None  # the primal weights of the last solve Newton ended, or None
    _newton_streak = 0  # solves Newton's method has ended since coordinate descent last did (PROBE_EVERY)

    def _newton_first(self) -> bool:
        """Whether this solve starts with Newton's method: it ended the last, and this is no probe (``PROBE_EVERY``)."""
        rounds, rest = divmod(self._newton_streak, PROBE_EVERY)  # probes at streaks PROBE_EVERY (2^j - 1), j >= 1
        return self._newton_streak > 0 and not (rest == 0 and (rounds + 1) & rounds == 0)

    def _cd_budget(self) -> int:
        """Passes coordinate descent gets before Newton's method: ``NEWTON_AFTER`` per smoothing stage."""
        return min(NEWTON_AFTER * len(smoothing_widths(self._eps)), self.max_epochs)

    def _newton(self) -> tuple[int, bool]:
        return self._huber_newton(None, 0.0)  # every weight penalised (the offset w_B too), no shift

    def _huber_newton(self, penalty: np.ndarray | None, shift: float) -> tuple[int, bool]:
        """Newton's method on the smoothed primal (:func:`.huber_newton`, its ``penalty`` and ``shift``) from the
        last Newton or dual weights. Its dual point replaces alpha and w = sum_i y_i alpha_i x_i, accepted or not
        (it is feasible; coordinate descent goes on from it). Returns (Newton steps, accepted)."""
        X, y, C = self._X.array, self.y, self.C

        def done(u: np.ndarray, w: np.ndarray, w_u: np.ndarray) -> bool:
            return projected_gradient_span(X, y, u, w_u, C, shift + self._free_shift(w)) <= self._eps and (
                self._offset_settled(w_u)
            )

        start = self._w if self._newton_w is None else self._newton_w
        newton = huber_newton(
            X,
            y,
            start,
            C,
            self._eps,
            penalty=penalty,
            shift=shift,
            done=done,
            row_norms2=self._QD,
            times=partial(rows_times, self._X.descent),  # the int8 rows where there are
        )
        self._alpha[:] = newton.u
        self._w = newton.w_u
        self._newton_w = newton.w if newton.accepted else None
        self._newton_streak = self._newton_streak + 1 if newton.accepted else 0
        self.n_newton_solves += newton.accepted
        return newton.iterations, newton.accepted

    def _free_shift(self, w: np.ndarray) -> float:
        """The part of the outputs' shift an unpenalised weight of w carries: none here (the offset is penalised)."""
        return 0.0

    def _offset_settled(self, w: np.ndarray) -> bool:
        """Whether the dual's equality holds at w = sum_i y_i u_i x_i: there is none here."""
        return True
