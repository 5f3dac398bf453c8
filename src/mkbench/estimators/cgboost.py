"""CG-Boost: a mixture of kernels learned by column generation (Bi, Zhang, Bennett, KDD 2004).

The model is f(x) = sum_p sum_j alpha_j^p K_p(x, x_j) + b (cgboost eq. 3): one
coefficient per kernel column (p, j) of the library, most of them zero. Fitting
solves the master problem over all P * n columns by column generation
(:func:`mkbench.cg.column_generation`): the 1-norm LP (eq. 4) or the 2-norm QP
(eq. 7, 11), or the epsilon-insensitive QP for regression (eq. 13; the regressor is in
:mod:`.cgboost_regressor`). The
composite-kernel baselines of Table 1 ("L+Q") are the same estimator with one
composite kernel.

The classifier is a preset of :class:`mkbench.ColumnGenerationClassifier`, which
fits it: the engine over kernel columns (:mod:`._kernel_columns`) with the paper's
parameter names (``kernels``) and this package's defaults for users' data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import _docs
from ._kernel_columns import KERNEL_CONSTRAINTS
from .column_generation import ColumnGenerationClassifier

__all__ = ["CGBoostClassifier"]


class CGBoostClassifier(ColumnGenerationClassifier):
    __doc__ = (
        """CG-Boost classifier: LPBoost's LP (eq. 4) or the 2-norm QP (eq. 7, 11) by column generation.

    Two classes as in the paper; more by one-vs-rest (one model per class, ``estimators_``).

    Parameters
    ----------
    penalty : {"l2", "l1"}, default="l2"
        2-norm QP (eq. 7, 11) or 1-norm LP (eq. 4; HiGHS).
    solver : {"auto", "dual_cd", "clarabel", "osqp", "libsvm"} or, for the LP, {"auto", "primal", "dual"}, default="auto"
        For ``penalty="l1"``, HiGHS' route through the LP: "primal" ("auto") or
        "dual" (:class:`mkbench.masters.DualLPMaster`, faster). Otherwise the
        backend of the 2-norm restricted masters (:func:`mkbench.masters.make_qp_master`),
        with alpha >= 0 by an active set over the free-alpha duals. "dual_cd" runs
        liblinear's dual coordinate descent from the last master's duals, the free
        offset by the method of multipliers (Newton's method on the smoothed primal
        takes over a master where it is slow, and Clarabel where both fail); "libsvm"
        solves each master as an SVM dual from scratch and needs ``fit_intercept=True``;
        "clarabel" and "osqp" solve the restricted QP directly (any offset). "auto" is
        "libsvm" for the full master (``strategy`` "all"), else "dual_cd" unless
        ``fit_intercept=False``, then "clarabel"; where the master it picks fails,
        the fit starts again with Clarabel and the first row of ``history_`` says why. On MNIST-1000
        L,Q,R, alpha >= 0, free offset, "dual_cd" reached the optimum in 49 s against
        Clarabel's 63 s on pixels / 255 (C = 100), and in 25 s where Clarabel had
        not after 120 s on centred unit-norm pixels (C = 1);
        with Newton's method (2026-11-26), on pixels / 255 at C = 1: 2.3 s of CPU
        against 112 s without it, the same 223 columns and objective;
        its alpha are exactly 0 off the active set, where an interior point leaves
        ~1e-9 on every column it ever generated."""
        + _docs.PROBABILITY
        + _docs.N_JOBS
        + _docs.STRATIFY_RATIO
        + _docs.KERNEL_COLUMNS
        + """
    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import CGBoostClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = CGBoostClassifier().fit(X_train, y_train)  # 2-norm QP over L, Q, R
    >>> clf.status_, clf.score(X_test, y_test) > 0.9
    ('optimal', True)

    The paper's sparse model: the 1-norm LP (eq. 4) with alpha >= 0 keeps a few of
    the library's 3 x 426 columns (those of nonzero alpha, counted per kernel); each
    generated column is a pair (kernel, centre) of ``columns_``:

    >>> sparse = CGBoostClassifier(penalty="l1", positive=True).fit(X_train, y_train)
    >>> sorted(sparse.n_columns_by_kernel_)  # C_l, C_q, C_r of Table 1
    ['linear', 'quadratic', 'rbf']
    >>> sum(sparse.n_columns_by_kernel_.values()) < 0.1 * len(X_train)
    True
    >>> kernel, centre = sparse.columns_[0]  # K_kernel(., X_train[centre])
    >>> kernel in sparse.n_columns_by_kernel_
    True
    """
    )

    _parameter_constraints: dict = {
        **KERNEL_CONSTRAINTS,
        **{
            name: ColumnGenerationClassifier._parameter_constraints[name]
            for name in ("penalty", "positive", "solver", "probability", "stratify_ratio", "n_jobs")
        },
    }
    _columns_param = "kernels"
    _kernel_library_params = ("kernels",)
    _learners = ()  # kernel columns only
    _lp_route = "primal"  # solver="auto" for the LP: HiGHS' primal route, which the committed results used

    def __init__(
        self,
        kernels: str | Sequence[Any] = ("linear", "quadratic", "rbf"),
        *,
        penalty: str = "l2",
        solver: str = "auto",
        probability: bool = False,
        positive: bool | str = False,
        scaling: str | None = "range",
        normalize_kernels: bool = True,
        fit_intercept: bool | str = True,
        C: float = 10.0,
        tol: float = 1e-6,
        max_iter: int | None = None,
        strategy: str = "auto",
        priority: Sequence[int | str] | None = None,
        stratify_ratio: float = 0.0,
        columns_per_iteration: int | str = "auto",
        time_limit: float | None = None,
        gap_tol: float | None = None,
        memory_budget: int = 512 * 2**20,
        callback: Callable[[Any], Mapping[str, Any] | None] | None = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.kernels = kernels
        self.penalty = penalty
        self.solver = solver
        self.probability = probability
        self.positive = positive
        self.scaling = scaling
        self.normalize_kernels = normalize_kernels
        self.fit_intercept = fit_intercept
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.strategy = strategy
        self.priority = priority
        self.stratify_ratio = stratify_ratio
        self.columns_per_iteration = columns_per_iteration
        self.time_limit = time_limit
        self.gap_tol = gap_tol
        self.memory_budget = memory_budget
        self.callback = callback
        self.n_jobs = n_jobs
        self.verbose = verbose
