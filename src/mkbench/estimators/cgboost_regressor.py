"""CG-Boost regression: the 2-norm epsilon-insensitive QP (cgboost eq. 13) by column generation (Remark 4.2).

The kernel expansion, the loop and the parameters are CG-Boost's (:mod:`._kernel_columns`);
only the master differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from numbers import Real
from typing import Any

import numpy as np
from sklearn.base import RegressorMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import validate_data
from threadpoolctl import threadpool_limits

from ..masters import make_qp_master
from ..masters._solution import check_C
from . import _docs
from ._kernel_columns import INTERCEPTS, KERNEL_CONSTRAINTS, KernelExpansion
from ._sparse_inputs import refuse_sparse
from ._weights import present_rows, weighted_target_scaling

__all__ = ["CGBoostRegressor"]


class CGBoostRegressor(RegressorMixin, KernelExpansion):
    __doc__ = (
        """CG-Boost regression: the 2-norm epsilon-insensitive QP (eq. 13) by column generation (Remark 4.2).

    Parameters
    ----------
    epsilon : float, default=0.1
        Width of the insensitive tube, in the units of the standardised targets
        (``scale_target=True``), else of y.
    solver : {"auto", "clarabel", "osqp", "libsvm"}, default="auto"
        Backend of the restricted masters (:func:`mkbench.masters.make_qp_master`);
        "libsvm" solves each as an SVR dual (alpha >= 0 by an active set over those
        duals); it needs ``fit_intercept=True``. "auto": "libsvm" for the full master
        (``strategy`` "all"), else "clarabel"; where libsvm fails, Clarabel.
    scale_target : bool, default=True
        Fit the targets centred and divided by their standard deviation (``y_mean_``,
        ``y_scale_``) and report the model in the units of y (``coef_``, ``intercept_``,
        ``predict``), so that C and ``epsilon`` mean the same for targets of any scale."""
        + _docs.BLAS_THREADS
        + _docs.KERNEL_COLUMNS
        + """
    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import CGBoostRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> reg = CGBoostRegressor().fit(X_train, y_train)  # kernels L, Q, R
    >>> reg.status_, reg.score(X_test, y_test) > 0.3
    ('optimal', True)
    >>> sorted(reg.n_columns_by_kernel_)
    ['linear', 'quadratic', 'rbf']
    """
    )

    _parameter_constraints: dict = {
        **KERNEL_CONSTRAINTS,
        "epsilon": [Interval(Real, 0, None, closed="left")],
        # "dual_cd" (the classifier's) is refused by make_qp_master, which says why
        "solver": [StrOptions({"auto", "clarabel", "osqp", "libsvm", "dual_cd"})],
        "positive": ["boolean"],  # eq. 13 has no labels to sign the columns with
        "scale_target": ["boolean"],
    }

    def __init__(
        self,
        kernels: str | Sequence[Any] = ("linear", "quadratic", "rbf"),
        *,
        epsilon: float = 0.1,
        solver: str = "auto",
        positive: bool = False,
        scaling: str | None = "range",
        normalize_kernels: bool = True,
        scale_target: bool = True,
        fit_intercept: bool | str = True,
        C: float = 10.0,
        tol: float = 1e-6,
        max_iter: int | None = None,
        strategy: str = "auto",
        priority: Sequence[int | str] | None = None,
        columns_per_iteration: int | str = "auto",
        time_limit: float | None = None,
        gap_tol: float | None = None,
        memory_budget: int = 512 * 2**20,
        callback: Callable[[Any], Mapping[str, Any] | None] | None = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.kernels = kernels
        self.epsilon = epsilon
        self.solver = solver
        self.positive = positive
        self.scaling = scaling
        self.normalize_kernels = normalize_kernels
        self.scale_target = scale_target
        self.fit_intercept = fit_intercept
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.strategy = strategy
        self.priority = priority
        self.columns_per_iteration = columns_per_iteration
        self.time_limit = time_limit
        self.gap_tol = gap_tol
        self.memory_budget = memory_budget
        self.callback = callback
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    @threadpool_limits.wrap(
        limits=1, user_api="blas"
    )  # small solves: BLAS threads only contend (see estimators/_docs.py, "One BLAS thread")
    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> CGBoostRegressor:
        """Fit the epsilon-insensitive regression.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            w_i >= 0, scikit-learn's convention: integer weights fit the rows repeated. Each
            epsilon-insensitive loss is weighted C w_i (the master's per-sample C, libsvm's
            for "libsvm"), rows of weight 0 are dropped first, and the input scaling, the
            kernels' normalisation, the RBF's default width and the target's standardisation
            are those of the repeated rows (see :mod:`mkbench.estimators._kernel_columns`).

        Returns
        -------
        self
        """
        refuse_sparse(self, X, "its kernel columns (the RBF's, the inputs' scaling) need dense inputs")
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        y = y.astype(np.float64)  # "could not convert string to float: ...", as scikit-learn's Ridge says
        weights, rows = present_rows(sample_weight, X)
        if rows is not None:
            X, y = X[rows], y[rows]
        self.y_mean_, self.y_scale_ = weighted_target_scaling(y, weights) if self.scale_target else (0.0, 1.0)
        target = (y - self.y_mean_) / self.y_scale_
        C = self.C if weights is None else check_C(self.C) * weights

        def make_master(solver: str, strategy: str):
            return make_qp_master(
                target,
                C,
                loss="epsilon_insensitive",
                epsilon=self.epsilon,
                alpha_sign="nonneg" if self.positive else "free",
                intercept=INTERCEPTS[self.fit_intercept],
                solver="clarabel" if solver == "auto" else solver,
                **self._master_options(solver, strategy),
            )

        self._fit_master(X, make_master, weights=weights)
        self.coef_ *= self.y_scale_  # f(x) = y_scale * f'(x) + y_mean: the model in the units of y
        self.intercept_ = self.y_scale_ * self.intercept_ + self.y_mean_
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted responses f(x) = sum_p sum_j alpha_j^p K_p(x, x_j) + b (eq. 3)."""
        return self._expansion(X)
