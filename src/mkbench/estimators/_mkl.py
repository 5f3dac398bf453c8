"""What the MKL estimators share: the optimisers' result and history, weight cleaning, the stopping gap, fit, predict.

Both SILP (Sonnenburg et al., JMLR 2006) and SimpleMKL (Rakotomamonjy et al.,
ICML 2007, JMLR 2008) solve the MKL problem of the notes,

    min_beta J(beta)  s.t.  sum_k beta_k = 1,  beta >= 0,
    J(beta) = max_alpha  sum_i alpha_i - 1/2 alpha' Y (sum_k beta_k K_k) Y alpha
              s.t.  alpha' y = 0,  0 <= alpha <= C,

where J(beta) is the dual objective of an SVM with the combined kernel and by
Danskin's theorem dJ/dbeta_k = -1/2 alpha*' Y K_k Y alpha* (notes, "J(beta)"
slide), both evaluated by :class:`mkbench.masters.combined_svm.CombinedSVM`. The
inputs are scaled (``scaling``, :func:`mkbench.estimators._scaling.input_scaling`),
then the training kernels (:func:`mkbench.kernels.grid.resolve_kernels`, by default
:func:`mkbench.kernels.grid.auto_grid`) are computed once into a stack of shape
(M, n, n), each scaled to unit trace (:func:`mkbench.kernels.grid.unit_trace_stack`;
float64, or rounded once to float32 with ``dtype="float32"``, issue 44); every later step
reads that stack in place, and one-vs-rest fits every class on the same stack. :class:`MKLClassifierBase` is the fit and predict of both estimators;
they supply the optimiser of beta.

Sample weights (``fit(X, y, sample_weight=w)``, scikit-learn's convention: integer
weights fit the rows repeated) weigh each point's hinge loss, a per-sample box
0 <= alpha_i <= C w_i (:class:`_PerSampleC`); the input scaling is fitted on the weighted
points, each training kernel is scaled to unit *weighted* trace sum_i w_i K_ii, and
``C="auto"`` is sum_i w_i: each is then what it is on the repeated rows. Rows of weight 0
are dropped first (``support_`` indexes the rows of ``fit``'s X all the same). What a
kernel fixes on the data (an RBF width left None, the "auto" grid's per-variable rule) is
fixed on the distinct points.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from numbers import Integral, Real
from time import perf_counter
from typing import Any, cast

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, _fit_context, clone
from sklearn.svm import SVC
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data
from threadpoolctl import threadpool_limits

from ..kernels.functions import Kernel
from ..kernels.grid import resolve_kernels, scale_to_unit_trace, unit_trace_stack
from ..kernels.precomputed import PRECOMPUTED, prediction_grams, training_grams
from ..masters.combined_svm import CombinedSVM, SVMSolution
from ._binary import binary_targets
from ._convergence import warn_unless_optimal
from ._multiclass import MarginClassifierMixin, PlattMixin
from ._mkl_docs import COMMON_ATTRIBUTES, COMMON_NOTES, COMMON_PARAMETERS
from ._scaling import SCALINGS
from ._sparse_inputs import refuse_sparse
from ._weights import present_rows, weighted_input_scaling

__all__ = [
    "COMMON_ATTRIBUTES",
    "COMMON_NOTES",
    "COMMON_PARAMETERS",
    "ZERO_WEIGHT",
    "MKLClassifierBase",
    "MKLResult",
    "clean_weights",
    "history_row",
    "relative_duality_gap",
]

ZERO_WEIGHT = 1e-8
"""Weights below this are set to 0 and the rest renormalised (SimpleMKL's ``numericalprecision``)."""


def clean_weights(beta: np.ndarray) -> np.ndarray:
    """beta with nonzero entries below :data:`ZERO_WEIGHT` set to 0 and renormalised to sum 1.

    Returns ``beta`` itself when it has no such entry.
    """
    small = (beta < ZERO_WEIGHT) & (beta != 0)
    if not small.any():
        return beta
    beta = np.where(small | (beta < 0), 0.0, beta)
    return beta / beta.sum()


def relative_duality_gap(solution: SVMSolution, gradient: np.ndarray) -> float:
    """(J(beta) - D(alpha)) / J(beta), SimpleMKL's stopping criterion.

    D(alpha) = sum_i alpha_i - max_k 1/2 alpha' Y K_k Y alpha is the objective of
    the MKL dual (the notes' QCQP, with t = max_k) at the SVM's alpha; it is a
    lower bound of min J, so the gap bounds J(beta) - min J. In terms of the
    gradient g_k = dJ/dbeta_k it is max_k(-g_k) - sum_k beta_k (-g_k).
    """
    gap = float(np.max(-gradient) - solution.beta @ (-gradient))
    return max(gap, 0.0) / solution.objective


@dataclass(frozen=True)
class MKLResult:
    """What an MKL optimiser returns: the final SVM and how it got there."""

    solution: SVMSolution
    n_iter: int
    status: str
    history: list[dict[str, Any]]


def history_row(
    iteration: int, solution: SVMSolution, gap: float, svm: CombinedSVM, start: float, **extra: float
) -> dict[str, Any]:
    """One row of ``history_``: objective J(beta), stopping gap, kernels in use, SVMs, seconds."""
    return {
        "iteration": iteration,
        "objective": solution.objective,
        "gap": float(gap),
        "n_kernels": int(np.count_nonzero(solution.beta)),
        "n_svm": svm.n_solves,
        "seconds": perf_counter() - start,
        **{key: float(value) for key, value in extra.items()},
    }


class _PerSampleC(CombinedSVM):
    """:class:`~mkbench.masters.combined_svm.CombinedSVM` with the box 0 <= alpha_i <= C w_i (weighted fits).

    libsvm's per-sample C, by ``SVC.fit(K, y, sample_weight=w)`` (whose dual coefficients
    and intercept are those of :func:`mkbench.masters.libsvm_call.solve_precomputed`):
    J(beta) and its gradient keep their form, only the box changes. Every w_i > 0 (the
    estimators drop the rows of weight 0 before).
    """

    def __init__(self, stack: np.ndarray, y: np.ndarray, C: float, tol: float, weights: np.ndarray) -> None:
        super().__init__(stack, y, C, tol)
        self.weights = weights

    def solve(self, beta: np.ndarray, kernel: np.ndarray | None = None) -> SVMSolution:
        K = self.kernel(beta) if kernel is None else kernel
        svc = SVC(kernel="precomputed", C=self.C, tol=self.tol).fit(K, self.y, sample_weight=self.weights)
        self.n_solves += 1
        alpha_y = np.zeros(self.y.size)
        alpha_y[svc.support_] = svc.dual_coef_[0]
        support = np.flatnonzero(alpha_y)
        dual = alpha_y[support]
        J = np.abs(dual).sum() - 0.5 * dual @ K[np.ix_(support, support)] @ dual
        return SVMSolution(beta, alpha_y, support, float(svc.intercept_[0]), float(J), K)


class MKLClassifierBase(MarginClassifierMixin, BaseEstimator):
    kernels_: tuple[Kernel, ...] | tuple[str, ...]  # names "precomputed[k]" for precomputed kernels
    """Fit and predict of an MKL classifier (binary; one-vs-rest for more classes); subclasses optimise beta."""

    _parameter_constraints: dict = {
        **PlattMixin._parameter_constraints,
        # a kernel grid's name, "precomputed" or a library string ("L,Q,R"); a grid's options; a list of kernel
        # specs; one Kernel or callable: resolve_kernels names an unknown grid, option or kernel and the known ones
        "kernels": [str, dict, list, tuple, callable],
        "C": [Interval(Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "scaling": [StrOptions({name for name in SCALINGS if name is not None}), None],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "svm_tol": [Interval(Real, 0, None, closed="neither")],
        "n_jobs": [Integral, None],
        "dtype": [StrOptions({"float64", "float32"})],
    }

    @abstractmethod
    def _optimise(self, svm: CombinedSVM, start: float) -> MKLResult:
        """Minimise J(beta) on the simplex; ``start`` is the perf_counter() time of the fit's start."""

    @_fit_context(prefer_skip_nested_validation=True)
    @threadpool_limits.wrap(
        limits=1, user_api="blas"
    )  # small solves: BLAS threads only contend (see estimators/_docs.py, "One BLAS thread")
    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None):
        """Learn the kernel weights beta and the SVM; the second of ``classes_`` is the positive class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels; more than two classes are fitted one-vs-rest.
        sample_weight : array-like of shape (n_samples,), default=None
            Per-sample weights w_i >= 0: the SVMs' box is 0 <= alpha_i <= C w_i (libsvm's
            per-sample C, as ``SVC.fit(..., sample_weight)``); see the class's notes.

        Returns
        -------
        self
        """
        start = perf_counter()
        if self._precomputed:
            y = column_or_1d(y, warn=True)
        else:
            refuse_sparse(self, X, "its kernel matrices (the RBF's, the inputs' scaling) need dense inputs")
            X, y = validate_data(self, X, y, dtype=np.float64)
        weights, self._rows = present_rows(sample_weight, y)
        self._n_fit = len(y)
        if self._rows is not None:
            y = y[self._rows]
            X = X if self._precomputed else X[self._rows]
        if self._fit_one_vs_rest(X, y, weights):
            return self
        self.classes_, signed = binary_targets(y)
        self._fit_binary(X, signed, self._training_stack(X, weights), start, weights, self._rows)
        self._calibrate(X, y, weights)
        return self

    def _fit_per_class(
        self, binary: MKLClassifierBase, X, y: np.ndarray, sample_weight: np.ndarray | None = None
    ) -> list[MKLClassifierBase]:
        """One-vs-rest on one stack: the training kernels are computed once, and each class's fit reads them.

        The classes' fits run ``n_jobs`` at a time in threads, which share the stack
        (libsvm and numpy release the GIL).
        """
        stack = self._training_stack(X, sample_weight)

        def fit_class(c) -> MKLClassifierBase:
            start = perf_counter()
            model = clone(binary)
            model.n_features_in_, model.kernels_, model.kernel_scales_ = (
                self.n_features_in_,
                self.kernels_,
                self.kernel_scales_,
            )
            model.input_mean_, model.input_scale_ = self.input_mean_, self.input_scale_
            model.classes_, signed = binary_targets((y == c).astype(int))
            model._fit_binary(X, signed, stack, start, sample_weight, self._rows)
            return model

        return Parallel(n_jobs=self.n_jobs, prefer="threads")(delayed(fit_class)(c) for c in self.classes_)

    def _fit_binary(
        self,
        X,
        signed: np.ndarray,
        stack: np.ndarray,
        start: float,
        weights: np.ndarray | None,
        rows: np.ndarray | None,
    ) -> None:
        """Learn beta and the SVM from the unit-trace training kernels ``stack`` and labels ``signed`` in {-1, +1}.

        ``weights``: the per-sample weights (None: all 1); ``rows``: the training rows they
        are of (None: every row), to which ``support_`` refers.
        """
        n = len(signed) if weights is None else float(weights.sum())
        self.C_ = float(n) if isinstance(self.C, str) else float(self.C)  # "auto": C = n (the weights' sum)
        if weights is None:
            svm = CombinedSVM(stack, signed, self.C_, float(self.svm_tol))
        else:
            svm = _PerSampleC(stack, signed, self.C_, float(self.svm_tol), weights)
        result = self._optimise(svm, start)
        solution = result.solution
        self.weights_ = solution.beta
        self.support_ = solution.support if rows is None else rows[solution.support]
        self.support_vectors_ = np.empty((solution.support.size, 0)) if self._precomputed else X[solution.support]
        self.dual_coef_ = solution.alpha_y[solution.support]
        self.intercept_ = solution.intercept
        self.objective_ = solution.objective
        self.n_support_ = int(solution.support.size)
        self.n_kernels_selected_ = int(np.count_nonzero(solution.beta))
        self.n_iter_ = result.n_iter
        self.n_svm_fits_ = svm.n_solves
        self.status_ = result.status
        self.history_ = result.history
        warn_unless_optimal(
            self,
            result.status,
            result.n_iter,
            "iterations",
            f"a relative gap of {result.history[-1]['gap']:.3g} > tol={self.tol}",
            "raise max_iter or tol",
            stacklevel=3,
        )

    def _decision(self, X: np.ndarray) -> np.ndarray:
        """f(x) = sum_i y_i alpha_i sum_k beta_k K_k(x, x_i) / trace_k + b, over kernels with beta_k > 0 only.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            Positive means ``classes_[1]``.
        """
        check_is_fitted(self, "weights_")
        used = np.flatnonzero(self.weights_)
        if self._precomputed:
            grams = prediction_grams(X, len(self.weights_), self.n_features_in_)
            blocks = (grams[k][:, self.support_] for k in used)
            f = np.full(grams[0].shape[0], self.intercept_)
        else:
            X = self._scaled(validate_data(self, X, reset=False, dtype=np.float64))
            support_vectors = self._scaled(self.support_vectors_)
            kernels = cast("tuple[Kernel, ...]", self.kernels_)  # not precomputed: kernel objects
            blocks = (kernels[k](X, support_vectors) for k in used)
            f = np.full(X.shape[0], self.intercept_)
        for k, K in zip(used, blocks, strict=True):
            f += (self.weights_[k] * self.kernel_scales_[k]) * (K @ self.dual_coef_)
        return f

    def _training_stack(self, X, weights: np.ndarray | None) -> np.ndarray:
        """The unit-trace training kernels (M, n, n); sets the input scaling, ``kernels_`` and ``kernel_scales_``.

        With ``weights``, the traces are weighted, sum_i w_i K_ii (the trace over the repeated rows). A float32
        stack (``dtype``) is the float64 one rounded once.
        """
        if self._precomputed:
            stack = training_grams(X, self._n_fit)  # a copy of the user's kernels, scaled in place below
            self.n_features_in_ = stack.shape[1]
            if self._rows is not None:
                stack = np.ascontiguousarray(stack[np.ix_(np.arange(len(stack)), self._rows, self._rows)])
            names = tuple(f"precomputed[{k}]" for k in range(len(stack)))
            self.kernels_ = names
            self.kernel_scales_ = scale_to_unit_trace(stack, names, weights)
            self.input_mean_ = self.input_scale_ = None
        else:
            self.input_mean_, self.input_scale_ = weighted_input_scaling(X, self.scaling, weights)
            X = self._scaled(X)
            kernels = tuple(resolve_kernels(self.kernels, X))
            self.kernels_ = kernels
            stack, self.kernel_scales_ = unit_trace_stack(kernels, X, self.dtype, weights)
        return stack.astype(self.dtype, copy=False)  # precomputed kernels: rounded once, after their scaling

    def _scaled(self, X: np.ndarray) -> np.ndarray:
        """X as the kernels see it: (X - ``input_mean_``) / ``input_scale_``, or X itself without a scaling."""
        return X if self.input_mean_ is None else (X - self.input_mean_) / self.input_scale_

    @property
    def _precomputed(self) -> bool:
        return isinstance(self.kernels, str) and self.kernels == PRECOMPUTED
