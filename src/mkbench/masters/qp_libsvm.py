"""The 2-norm restricted masters with free alpha and a free offset, solved in the dual by libsvm.

With free alpha and a free, unpenalised offset b, the restricted master (cgboost
eq. 11 with b, §4.1 second case) has the dual

    max_u  sum_i u_i - 1/2 u' Y K_W K_W' Y u    s.t.  sum_i u_i y_i = 0,  0 <= u_i <= C,

which is exactly the dual of an SVM whose Gram matrix is G = K_W K_W' (the
columns of the working set W are the features), and alpha = K_W' Y u (eq. 8
with equality). The epsilon-insensitive master (eq. 13 with b) is likewise the
dual of an SVR on G, with alpha = K_W' (u - v). So each restricted master is one
call of scikit-learn's SVC / SVR with ``kernel="precomputed"``, the "existing
algorithms for constructing single kernel models" the paper means to leverage
(§7). Adding a column K_.j updates G by the rank-one term K_.j K_.j'.

Why this backend: the interior-point QP (:mod:`.qp_osqp`, Clarabel) costs
seconds per restricted master on MNIST-1000 once a few hundred columns are in,
and OSQP and HiGHS's active-set QP do not converge on these LP-like problems
(measured; see the module docstring of :mod:`.qp_osqp`); libsvm's SMO solves the
same duals in tens of milliseconds on unit-norm MNIST rows. It covers only free
alpha with a free b, and it is opt-in (:func:`make_qp_master`, ``solver="libsvm"``
of the estimators): libsvm caches kernel values in single precision, so its
solutions are accurate to about 1e-4, and SMO crawls on ill-conditioned Gram
matrices.

The objective reported is the dual objective at libsvm's u, which equals the
restricted primal optimum up to libsvm's tolerance (the primal at alpha = K_W' Y u
converges more slowly, being nonsmooth in the margins).
"""

from __future__ import annotations

import warnings
from time import perf_counter

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC, SVR

from ._solution import (
    ON_FAILURE,
    OPTIMAL,
    MasterSolution,
    as_column_block,
    check_C,
    check_choice,
    check_epsilon,
    check_labels,
    check_responses,
    dual_violation,
    failure,
    qp_duality_gap,
)
from .qp_osqp import LOSSES, QPMaster

__all__ = ["SVMDualMaster", "make_qp_master"]


class SVMDualMaster:
    """Restricted 2-norm master with free alpha and free b, solved as an SVM / SVR dual by libsvm.

    Parameters
    ----------
    y : array-like of shape (n_rows,)
        Labels in {-1, +1} (hinge) or real responses (epsilon-insensitive).
    C : float
        Weight of the slacks, > 0.
    loss : {"hinge", "epsilon_insensitive"}, default="hinge"
        Classification (eq. 11 with b) or regression (eq. 13 with b).
    epsilon : float, default=0.1
        Width of the insensitive tube (regression only), >= 0.
    columns : array-like of shape (n_rows, k), default=None
        Initial columns, as if passed to :meth:`add_columns`.
    tol : float, default=1e-8
        libsvm's stopping tolerance on the dual KKT violation (scikit-learn's 1e-3
        is far too loose for pricing scores compared with 0, Remark 4.1).
    max_iter : int, default=10_000_000
        libsvm iteration limit (-1 for none): SMO can crawl on ill-conditioned
        Gram matrices, and a SolverError beats a fit that never ends.
    on_failure : {"raise", "record"}, default="raise"
        When libsvm stops at ``max_iter``, raise SolverError or return a record
        with that status and NaN values.

    Notes
    -----
    Dual sign convention as :class:`.QPMaster`: ``duals`` are u >= 0 of eq. 9
    ([u; v] of eq. 13), read from scikit-learn's ``dual_coef_`` = y_i u_i (SVC) or
    u_i - v_i (SVR); ``pricing_weights`` are y * u or u - v, so a candidate
    column prices at score_j = K_.j' w and the master is optimal iff every
    column outside it has score_j = 0 (Remark 4.1-4.2).
    """

    score_threshold = 0.0
    alpha_sign = "free"
    intercept = "free"

    def __init__(
        self,
        y: np.ndarray,
        C: float,
        *,
        loss: str = "hinge",
        epsilon: float = 0.1,
        columns: np.ndarray | None = None,
        tol: float = 1e-8,
        max_iter: int = 10_000_000,
        on_failure: str = "raise",
    ) -> None:
        self.loss = check_choice("loss", loss, LOSSES)
        self.C = check_C(C)
        self.on_failure = check_choice("on_failure", on_failure, ON_FAILURE)
        self.epsilon = check_epsilon(epsilon)
        self.y = check_labels(y) if self.loss == "hinge" else check_responses(y)
        self.tol = float(tol)
        self.max_iter = int(max_iter)
        self._columns = np.zeros((self.n_rows, 0))
        self._gram = np.zeros((self.n_rows, self.n_rows))
        if columns is not None:
            self.add_columns(columns)

    @property
    def n_rows(self) -> int:
        return self.y.shape[0]

    @property
    def n_columns(self) -> int:
        return self._columns.shape[1]

    def add_columns(self, K: np.ndarray) -> None:
        """Append candidate columns K_.j and add K_.j K_.j' to the Gram matrix G of the dual.

        Parameters
        ----------
        K : array-like of shape (n_rows, k) or (n_rows,)
            Kernel columns, e.g. ``KernelColumns.block(p, centres)``.
        """
        K = as_column_block(K, self.n_rows)
        self._columns = np.hstack([self._columns, K])
        self._gram += K @ K.T

    def _svm(self) -> SVC | SVR:
        common = {"kernel": "precomputed", "C": self.C, "tol": self.tol, "max_iter": self.max_iter}
        return SVC(**common) if self.loss == "hinge" else SVR(epsilon=self.epsilon, **common)

    def solve(self) -> MasterSolution:
        """Solve the restricted dual with libsvm (no warm start: SMO from u = 0).

        Returns
        -------
        MasterSolution

        Raises
        ------
        SolverError
            If libsvm stops at ``max_iter`` and ``on_failure == "raise"``.
        """
        start = perf_counter()
        svm = self._svm()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            svm.fit(self._gram, self.y)
        seconds = perf_counter() - start
        iterations = int(np.sum(svm.n_iter_))
        if any(issubclass(w.category, ConvergenceWarning) for w in caught):
            return failure(
                solver="libsvm",
                problem=f"SVM dual ({self.loss})",
                status="max_iter reached",
                n_rows=self.n_rows,
                n_columns=self.n_columns,
                n_constraints=self.n_rows * (1 if self.loss == "hinge" else 2),
                iterations=iterations,
                seconds=seconds,
                on_failure=self.on_failure,
            )
        w = np.zeros(self.n_rows)
        w[svm.support_] = svm.dual_coef_[0]
        alpha = self._columns.T @ w
        intercept = float(svm.intercept_[0])
        f = self._gram @ w + intercept
        if self.loss == "hinge":
            duals = w * self.y
            xi = np.maximum(0.0, 1.0 - self.y * f)
            objective = duals.sum() - 0.5 * alpha @ alpha
        else:
            duals = np.concatenate([np.maximum(w, 0.0), np.maximum(-w, 0.0)])
            xi = np.concatenate([np.maximum(0.0, self.y - self.epsilon - f), np.maximum(0.0, f - self.y - self.epsilon)])
            objective = w @ self.y - self.epsilon * np.abs(w).sum() - 0.5 * alpha @ alpha
        return MasterSolution(
            alpha=alpha,
            intercept=intercept,
            xi=xi,
            duals=duals,
            pricing_weights=w,
            objective=float(objective),
            status=OPTIMAL,
            iterations=iterations,
            seconds=seconds,
        )

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """|score_j| of columns not in the master (eq. 12, 14); > 0 means the column would enter."""
        return dual_violation(scores, free_sign=True, threshold=self.score_threshold)

    def duality_gap(self, scores: np.ndarray) -> float:
        """1/2 sum over the columns not in the master of score_j^2 (Proposition 4.1)."""
        return qp_duality_gap(scores, free_sign=True)


def make_qp_master(
    y: np.ndarray,
    C: float,
    *,
    alpha_sign: str = "nonneg",
    intercept: str = "none",
    solver: str = "clarabel",
    **options: object,
) -> SVMDualMaster | QPMaster:
    """The restricted 2-norm master for these options and backend.

    Parameters
    ----------
    y, C, alpha_sign, intercept, **options
        As for :class:`.QPMaster`; ``loss``, ``epsilon``, ``columns`` and
        ``on_failure`` go to either backend.
    solver : {"clarabel", "osqp", "libsvm"}, default="clarabel"
        "libsvm" (:class:`SVMDualMaster`) needs free alpha and a free offset; it
        is much faster on well-scaled kernels but not the default, because SMO
        slows down badly on ill-conditioned Gram matrices K_W K_W' (on 60 points
        with 180 columns of rank 60, SVR needed millions of iterations, measured)
        and its solutions are accurate to about 1e-4 rather than 1e-9.

    Returns
    -------
    SVMDualMaster or QPMaster

    Raises
    ------
    ValueError
        If ``solver="libsvm"`` is asked for alpha >= 0 or an offset that is not free.
    """
    if solver != "libsvm":
        return QPMaster(y, C, alpha_sign=alpha_sign, intercept=intercept, solver=solver, **options)
    if alpha_sign != "free" or intercept != "free":
        raise ValueError(
            f"solver='libsvm' solves the 2-norm master only with free alpha and a free offset "
            f"(positive=False, fit_intercept=True), got alpha_sign={alpha_sign!r}, intercept={intercept!r}; "
            "use solver='clarabel'"
        )
    return SVMDualMaster(y, C, **options)
