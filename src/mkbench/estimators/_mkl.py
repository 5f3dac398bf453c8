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
(M, n, n), each scaled to unit trace (:func:`mkbench.kernels.grid.unit_trace_stack`);
every later step reads that stack in place, and one-vs-rest fits every class on the
same stack. :class:`MKLClassifierBase` is the fit and predict of both estimators;
they supply the optimiser of beta.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from ..kernels.grid import resolve_kernels, scale_to_unit_trace, unit_trace_stack
from ..kernels.precomputed import PRECOMPUTED, prediction_grams, training_grams
from ..masters.combined_svm import CombinedSVM, SVMSolution
from ._binary import binary_targets
from ._convergence import warn_unless_optimal
from ._multiclass import MarginClassifierMixin
from ._scaling import SCALINGS, input_scaling

__all__ = [
    "ZERO_WEIGHT",
    "MKLClassifierBase",
    "MKLResult",
    "check_positive",
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


def check_positive(name: str, value: float) -> None:
    """Raise ValueError naming ``name`` unless ``value`` is a finite number > 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not (
        np.isfinite(value) and value > 0
    ):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")


class MKLClassifierBase(MarginClassifierMixin, BaseEstimator):
    """Fit and predict of an MKL classifier (binary; one-vs-rest for more classes); subclasses optimise beta."""

    def _check_params(self) -> None:
        if isinstance(self.C, str):
            if self.C != "auto":
                raise ValueError(
                    f"C must be a finite number > 0 or 'auto' (the number of training points), got {self.C!r}"
                )
        else:
            check_positive("C", self.C)
        if self.scaling not in SCALINGS:
            raise ValueError(
                f"scaling must be 'range' (each feature centred and divided by its range, then all to unit mean "
                f"variance), 'standard' (each feature to unit variance), 'center' or None (the inputs as given), "
                f"got {self.scaling!r}"
            )
        check_positive("tol", self.tol)
        check_positive("svm_tol", self.svm_tol)
        if isinstance(self.max_iter, bool) or not (isinstance(self.max_iter, (int, np.integer)) and self.max_iter >= 0):
            raise ValueError(f"max_iter must be an integer >= 0, got {self.max_iter!r}")

    @abstractmethod
    def _optimise(self, svm: CombinedSVM, start: float) -> MKLResult:
        """Minimise J(beta) on the simplex; ``start`` is the perf_counter() time of the fit's start."""

    def fit(self, X: np.ndarray, y: np.ndarray):
        """Learn the kernel weights beta and the SVM; the second of ``classes_`` is the positive class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels; more than two classes are fitted one-vs-rest.

        Returns
        -------
        self
        """
        start = perf_counter()
        self._check_params()
        if self._precomputed:
            y = column_or_1d(y, warn=True)
        else:
            X, y = validate_data(self, X, y, dtype=np.float64)
        if self._fit_one_vs_rest(X, y):
            return self
        self.classes_, signed = binary_targets(y)
        self._fit_binary(X, signed, self._training_stack(X, len(y)), start)
        self._calibrate(X, y)
        return self

    def _fit_per_class(self, binary: MKLClassifierBase, X, y: np.ndarray) -> list[MKLClassifierBase]:
        """One-vs-rest on one stack: the training kernels are computed once, and each class's fit reads them."""
        stack = self._training_stack(X, len(y))
        models = []
        for c in self.classes_:
            start = perf_counter()
            model = clone(binary)
            model.n_features_in_, model.kernels_, model.kernel_scales_ = (
                self.n_features_in_, self.kernels_, self.kernel_scales_
            )
            model.input_mean_, model.input_scale_ = self.input_mean_, self.input_scale_
            model.classes_, signed = binary_targets((y == c).astype(int))
            model._fit_binary(X, signed, stack, start)
            models.append(model)
        return models

    def _fit_binary(self, X, signed: np.ndarray, stack: np.ndarray, start: float) -> None:
        """Learn beta and the SVM from the unit-trace training kernels ``stack`` and labels ``signed`` in {-1, +1}."""
        self.C_ = float(len(signed)) if isinstance(self.C, str) else float(self.C)  # "auto": C = n
        svm = CombinedSVM(stack, signed, self.C_, float(self.svm_tol))
        result = self._optimise(svm, start)
        solution = result.solution
        self.weights_ = solution.beta
        self.support_ = solution.support
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
            self, result.status, result.n_iter, "iterations",
            f"a relative gap of {result.history[-1]['gap']:.3g} > tol={self.tol}", "raise max_iter or tol",
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
            blocks = (self.kernels_[k](X, support_vectors) for k in used)
            f = np.full(X.shape[0], self.intercept_)
        for k, K in zip(used, blocks, strict=True):
            f += (self.weights_[k] * self.kernel_scales_[k]) * (K @ self.dual_coef_)
        return f

    def _training_stack(self, X, n_samples: int) -> np.ndarray:
        """The unit-trace training kernels (M, n, n); sets the input scaling, ``kernels_`` and ``kernel_scales_``."""
        if self._precomputed:
            stack = training_grams(X, n_samples)  # a copy of the user's kernels, scaled in place below
            self.kernels_ = tuple(f"precomputed[{k}]" for k in range(len(stack)))
            self.kernel_scales_ = scale_to_unit_trace(stack, self.kernels_)
            self.n_features_in_ = stack.shape[1]
            self.input_mean_ = self.input_scale_ = None
            return stack
        self.input_mean_, self.input_scale_ = input_scaling(X, self.scaling)
        X = self._scaled(X)
        self.kernels_ = tuple(resolve_kernels(self.kernels, X))
        stack, self.kernel_scales_ = unit_trace_stack(self.kernels_, X)
        return stack

    def _scaled(self, X: np.ndarray) -> np.ndarray:
        """X as the kernels see it: (X - ``input_mean_``) / ``input_scale_``, or X itself without a scaling."""
        return X if self.input_mean_ is None else (X - self.input_mean_) / self.input_scale_

    @property
    def _precomputed(self) -> bool:
        return isinstance(self.kernels, str) and self.kernels == PRECOMPUTED



COMMON_PARAMETERS = """
    kernels : "auto", "simplemkl", mapping, or sequence of kernel specs, default="auto"
        The kernels K_1..K_M. ``"auto"`` (:func:`mkbench.kernels.grid.auto_grid`) is the
        SimpleMKL grid's 13 kernels on all variables (Gaussians exp(-||x - z||^2 / (2 w^2))
        of widths w = 0.5..20, polynomials (x'z + 1)^q of degrees 1-3), and the same on each
        variable too only while the whole grid has at most 2^23 training-kernel values
        (:data:`mkbench.kernels.grid.AUTO_GRID_VALUES`, (13(d + 1)) n^2: wine yes; breast
        cancer, digits, any n > 568 no). ``"simplemkl"`` is the grid of the paper's
        experiments (:func:`mkbench.kernels.grid.kernel_grid`: those kernels on all variables
        and on each variable, 13(d + 1) kernels); a mapping ``{"grid": "simplemkl", "widths":
        [...], "degrees": [...], "variables": [[0, 1], [2], ...], "each_variable": bool}``
        changes its options (``variables`` groups columns, e.g. the one-hot columns of a
        categorical variable); ``"precomputed"``: ``fit(KL, y)`` and ``predict(KL_test)`` take
        the Gram matrices themselves, MKLpy's way: a list of M training kernels (n, n) (or an
        (M, n, n) array) and M test kernels (n_test, n) (:mod:`mkbench.kernels.precomputed`);
        otherwise a kernel library as for :func:`mkbench.kernels.make_library`
        ("L,Q,R", a list of names, mappings, Kernel objects or callables k(X, Z)).
        Every kernel is scaled to unit trace on the training inputs. Why not the paper's grid
        by default (issue 42): it has 403 kernels on breast cancer (d = 30), 663 on
        ``make_classification(2000, 50)`` and 806 on digits (61 non-constant pixels), 10 GB of
        training kernels at n = 1257-1400; fits at the former defaults took more than 35 s
        there (2 cores), and with the inputs scaled and C = n SimpleMKL reached 500 iterations
        without the gap on breast cancer (35 s of CPU), while the 13 kernels fitted in 0.2-0.3 s
        at accuracies within 1.2 points (see :data:`~mkbench.kernels.grid.AUTO_GRID_VALUES`).
    C : float or "auto", default="auto"
        SVM box constraint 0 <= alpha_i <= C; ``"auto"`` is the number n of training points
        (``C_``). The kernels have unit trace (mean diagonal 1/n), and the SVM with C on them
        is the SVM with C / n on the same kernels of mean diagonal 1 (alpha scaled by n), so
        C = n is the C = 1 of scikit-learn's ``SVC()`` on an RBF kernel, at any n. The
        paper's C = 100 (the workflow pins it; C / n = 0.22-0.69 on its Sonar, Ionosphere and
        Credit training sets of n = 145-457) is C / n = 0.08 on digits, which underfits:
        measured (issue 42; inputs range-scaled, the 13 kernels, 70/30 split, draw 0), test
        accuracy of SILP / SimpleMKL on digits 0.965 / 0.969 with C = 100 and 0.994 / 0.994 with
        C = 1000 (SVC() 0.987); on ``make_classification(2000, 50)`` 0.972 / 0.972 with C = 100,
        0.983 / 0.982 with C = 1000 and 0.985 / 0.983 with C = n (SVC() 0.980). On breast cancer
        (draws 0-2) C = n gave 0.947 / 0.971 / 0.959 with both methods, C = 1000 0.947 / 0.971 /
        0.965-0.971, in fewer iterations (SILP 10 against 12-14, SimpleMKL 1-4 against 4-10); on
        wine both 1.0. C = n rather than a fixed 1000 keeps C / n, the regularisation, at
        SVC()'s at every n.
    scaling : {"range", "standard", "center"} or None, default="range"
        The inputs' scaling, fitted on the training inputs and applied to every X the kernels
        see (:func:`mkbench.estimators._scaling.input_scaling`): "range" divides each centred
        feature by its range, then all by the one factor that gives them mean variance 1;
        "standard" standardises each feature; None takes the inputs as given (the paper
        standardised its data sets beforehand; the workflow pins None). Not used with
        ``kernels="precomputed"``. The kernels of raw features depend on their units:
        measured (issue 42; 70/30 splits, draws 0-2), at the former defaults (the paper's grid,
        C = 100) both methods reached 0.90 on raw breast cancer (SVC() 0.90-0.92); at the new
        ones, SILP / SimpleMKL reached 0.947-0.971 with "range" and 0.953-0.971 with "standard"
        there, and 0.987-0.994 with "range" against 0.981-0.987 with "standard" on digits (SVC()
        0.983-0.987), whose border pixels, rarely non-zero, standardisation blows up.
    tol : float, default=0.01
        Stop when the relative gap is at most ``tol``.
    max_iter : int, default=500
        Most weight updates (SimpleMKL's ``nbitermax``).
    svm_tol : float, default=1e-5
        libsvm's stopping tolerance for each SVM (scikit-learn's 1e-3 makes the
        gradients and line-search values too noisy near the optimum).
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values, as SVC does,
        so that ``predict_proba`` exists (5 more fits; not with precomputed kernels).

    More than two classes are fitted one-vs-rest (one model per class, ``estimators_``), all
    from one stack of training kernels, computed once (digits, 10 classes, 13 kernels: 0.15 s of
    CPU once, where each class computed its own, 0.5-0.7 s each, before issue 42)."""

COMMON_ATTRIBUTES = """
    Attributes
    ----------
    weights_ : ndarray of shape (n_kernels,)
        Kernel weights beta on the simplex; exactly 0 for unused kernels.
    dual_coef_ : ndarray of shape (n_support,)
        y_i alpha_i of the support vectors.
    support_ : ndarray of shape (n_support,)
        Indices of the support vectors in the training data.
    support_vectors_ : ndarray of shape (n_support, n_features)
        (n_support, 0) with precomputed kernels: ``support_`` indexes the training kernels' columns.
    intercept_ : float
        Offset b.
    C_ : float
        The box constraint used: ``C``, or n for ``C="auto"``.
    input_mean_, input_scale_ : ndarray of shape (n_features,) or None
        The input scaling (X - input_mean_) / input_scale_ the kernels see; None without one.
    objective_ : float
        J(weights_), the SVM dual objective with the combined kernel.
    n_iter_ : int
        Weight updates made.
    n_svm_fits_ : int
        SVMs solved in all.
    n_support_ : int
        Number of support vectors.
    n_kernels_selected_ : int
        Kernels with beta_k > 0 (the "# Kernel" column of the paper's table).
    status_ : str
        "optimal" (gap <= tol), "max_iter", or "stalled" (no decrease found).
    history_ : list of dict
        Per iteration: objective J(beta), gap, n_kernels (beta_k > 0), n_svm
        (SVMs so far), seconds since the start of ``fit``.
    kernels_ : tuple of Kernel
        The kernels, data-dependent defaults resolved (names "precomputed[k]" for precomputed ones).
    kernel_scales_ : ndarray of shape (n_kernels,)
        1 / trace of each training kernel.
    classes_ : ndarray of shape (2,)
"""
