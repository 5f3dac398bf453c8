"""What the MKL estimators share: the kernel grid, unit-trace kernels, J(beta) and its gradient.

Both SILP (Sonnenburg et al., JMLR 2006) and SimpleMKL (Rakotomamonjy et al.,
ICML 2007, JMLR 2008) solve the MKL problem of the notes,

    min_beta J(beta)  s.t.  sum_k beta_k = 1,  beta >= 0,
    J(beta) = max_alpha  sum_i alpha_i - 1/2 alpha' Y (sum_k beta_k K_k) Y alpha
              s.t.  alpha' y = 0,  0 <= alpha <= C,

where J(beta) is the dual objective of an SVM with the combined kernel (solved
here by scikit-learn's libsvm on the precomputed kernel), and by Danskin's
theorem dJ/dbeta_k = -1/2 alpha*' Y K_k Y alpha* (notes, "J(beta)" slide). The
training kernels are computed once into a stack of shape (M, n, n), each scaled
to unit trace (SimpleMKL's ``UnitTraceNormalization``); every later step reads
that stack in place.
"""

from __future__ import annotations

import warnings
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from time import perf_counter
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .._libsvm import solve_precomputed
from ..exceptions import UnknownNameError
from ..kernels import RBF, Kernel, Polynomial, make_library
from ..masters._solution import check_C
from ._binary import BinaryClassifierMixin

__all__ = [
    "SIMPLEMKL_DEGREES",
    "SIMPLEMKL_WIDTHS",
    "ZERO_WEIGHT",
    "CombinedSVM",
    "MKLClassifierBase",
    "MKLResult",
    "OnVariables",
    "SVMSolution",
    "check_positive",
    "clean_weights",
    "gaussian",
    "history_row",
    "kernel_grid",
    "relative_duality_gap",
    "resolve_kernels",
    "unit_trace_stack",
]

SIMPLEMKL_WIDTHS = (0.5, 1.0, 2.0, 5.0, 7.0, 10.0, 12.0, 15.0, 17.0, 20.0)
"""Gaussian widths of the SimpleMKL grid (issue 6; SimpleMKL JMLR 2008, §4.2)."""

SIMPLEMKL_DEGREES = (1, 2, 3)
"""Polynomial degrees of the SimpleMKL grid."""

ZERO_WEIGHT = 1e-8
"""Weights below this are set to 0 and the rest renormalised (SimpleMKL's ``numericalprecision``)."""


@dataclass(frozen=True)
class OnVariables(Kernel):
    """A kernel evaluated on some variables only: k(x, z) = base(x_S, z_S).

    The per-variable kernels of the SimpleMKL grid (a single column, or the
    one-hot columns of one categorical variable). ``OnVariables(RBF(s), (a,))``
    is :class:`mkbench.kernels.WeakRBF` ``(a, s)``; this form also takes polynomials.

    Parameters
    ----------
    kernel : Kernel
        The base kernel.
    variables : tuple of int
        Column indices S of X the kernel looks at.
    """

    kernel: Kernel
    variables: tuple[int, ...]

    def __post_init__(self) -> None:
        variables = tuple(int(j) for j in np.asarray(self.variables, dtype=np.int64).reshape(-1))
        if not variables or min(variables) < 0:
            raise ValueError(f"variables must be a non-empty tuple of column indices >= 0, got {self.variables!r}")
        object.__setattr__(self, "variables", variables)

    @property
    def name(self) -> str:
        return f"{self.kernel.name}[{','.join(map(str, self.variables))}]"

    def _select(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X)
        if X.ndim != 2 or max(self.variables) >= X.shape[1]:
            raise ValueError(
                f"{self.name} needs column {max(self.variables)}, but the data have shape {X.shape}"
            )
        return X[:, self.variables]

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        return self.kernel(self._select(X), self._select(Z))

    def resolve(self, X: np.ndarray) -> OnVariables:
        return replace(self, kernel=self.kernel.resolve(self._select(X)))


def gaussian(width: float) -> RBF:
    """Gaussian kernel exp(-||x - z||^2 / (2 width^2)), SimpleMKL's parametrisation by its width.

    The SVM-KM toolbox that SimpleMKL builds on divides by 2 width^2; our
    :class:`~mkbench.kernels.RBF` divides by sigma, so sigma = 2 width^2.
    """
    if not (np.isfinite(width) and width > 0):
        raise ValueError(f"Gaussian widths must be finite and > 0, got {width!r}")
    return RBF(sigma=2.0 * float(width) ** 2)


def _variables(X: np.ndarray, variables: Sequence[Sequence[int]] | None) -> list[tuple[int, ...]]:
    """The variables of the grid: column groups, by default each non-constant column."""
    n_features = X.shape[1]
    if variables is None:
        return [(int(j),) for j in np.flatnonzero(np.ptp(X, axis=0) > 0)]
    groups = []
    for group in variables:
        group = tuple(int(j) for j in np.atleast_1d(np.asarray(group, dtype=np.int64)))
        if not group or min(group) < 0 or max(group) >= n_features:
            raise ValueError(
                f"each variable is a non-empty list of column indices in [0, {n_features}), got {group!r}"
            )
        groups.append(group)
    return groups


def kernel_grid(
    X: np.ndarray,
    widths: Sequence[float] = SIMPLEMKL_WIDTHS,
    degrees: Sequence[int] = SIMPLEMKL_DEGREES,
    variables: Sequence[Sequence[int]] | None = None,
) -> list[Kernel]:
    """The SimpleMKL kernel grid: Gaussians and polynomials on all variables and on each variable.

    With W widths, P degrees and d variables this gives (W + P)(d + 1) kernels:
    208 on Credit (15 variables), 442 on Ionosphere (33) and 793 on Sonar (60)
    with the default 10 widths and 3 degrees (issue 6, item 4). Order: Gaussians on
    all variables, Gaussians on each variable, polynomials on all, polynomials on
    each (the order of SimpleMKL's ``CreateKernelListWithVariable`` call).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training inputs; only used to find the constant columns.
    widths : sequence of float, default=SIMPLEMKL_WIDTHS
        Gaussian widths, see :func:`gaussian`.
    degrees : sequence of int, default=SIMPLEMKL_DEGREES
        Degrees of the polynomial kernels (x'z + 1)^degree.
    variables : sequence of sequences of int, default=None
        The variables as groups of columns, e.g. the one-hot columns of each
        categorical variable (Credit's 15 variables are 46 columns). None means
        every column that is not constant on X (Ionosphere's constant column 2 is
        left out, as in the paper's 33 variables).

    Returns
    -------
    list of Kernel
        "All variables" means the union of the variables.

    Raises
    ------
    ValueError
        If no variable is left, or a group names a column X does not have.
    """
    X = np.asarray(X)
    groups = _variables(X, variables)
    if not groups:
        raise ValueError("the kernel grid has no variable: every column of X is constant")
    every = tuple(sorted(set().union(*groups)))
    families = ([gaussian(w) for w in widths], [Polynomial(degree=d, offset=1.0) for d in degrees])
    kernels: list[Kernel] = []
    for family in families:
        kernels += [k if len(every) == X.shape[1] else OnVariables(k, every) for k in family]
        kernels += [OnVariables(k, group) for k in family for group in groups]
    return kernels


_GRID_OPTIONS = ("widths", "degrees", "variables")


def resolve_kernels(spec: str | Mapping | Sequence[Any] | Kernel, X: np.ndarray) -> list[Kernel]:
    """The kernel library of an MKL estimator, with data-dependent defaults fixed on X.

    Parameters
    ----------
    spec : str, mapping, Kernel or sequence
        ``"simplemkl"``: the grid of :func:`kernel_grid`; a mapping
        ``{"grid": "simplemkl", "widths": ..., "degrees": ..., "variables": ...}``:
        that grid with other options; anything else a kernel library for
        :func:`mkbench.kernels.make_library` ("L,Q,R", a list of specs or Kernels).
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    list of Kernel
    """
    if isinstance(spec, Mapping) and "grid" in spec:
        options = dict(spec)
        grid = options.pop("grid")
        unknown = sorted(set(options) - set(_GRID_OPTIONS))
        if grid != "simplemkl":
            raise UnknownNameError(f"unknown kernel grid {grid!r}; known grids: 'simplemkl'")
        if unknown:
            raise ValueError(
                f"the kernel grid has no option(s) {', '.join(unknown)}; valid: {', '.join(_GRID_OPTIONS)}"
            )
        kernels = kernel_grid(X, **options)
    elif isinstance(spec, str) and spec == "simplemkl":
        kernels = kernel_grid(X)
    else:
        kernels = make_library([spec] if isinstance(spec, (Kernel, Mapping)) else spec)
    if not kernels:
        raise ValueError("the kernel library is empty; pass kernels='simplemkl' or a list of kernels")
    return [kernel.resolve(X) for kernel in kernels]


def unit_trace_stack(kernels: Sequence[Kernel], X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The training kernels K_k(X, X) / trace(K_k(X, X)), computed once.

    Parameters
    ----------
    kernels : sequence of Kernel
        Resolved kernels.
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    stack : ndarray of shape (n_kernels, n_samples, n_samples)
        Each kernel scaled to unit trace.
    scales : ndarray of shape (n_kernels,)
        1 / trace(K_k(X, X)), applied again to the kernels at prediction.

    Raises
    ------
    ValueError
        If a kernel has a trace that is not positive and finite (e.g. a linear
        kernel on zero inputs).
    """
    n = X.shape[0]
    stack = np.empty((len(kernels), n, n))
    scales = np.empty(len(kernels))
    for k, kernel in enumerate(kernels):
        K = kernel(X, X)
        trace = float(np.trace(K))
        if not (np.isfinite(trace) and trace > 0) or not np.all(np.isfinite(K)):
            raise ValueError(
                f"kernel {k} ({kernel.name}) has trace {trace:g} or non-finite values on the training "
                "inputs; unit-trace normalisation needs a positive trace: drop that kernel"
            )
        scales[k] = 1.0 / trace
        np.multiply(K, scales[k], out=stack[k])
    return stack, scales


def clean_weights(beta: np.ndarray) -> np.ndarray:
    """beta with nonzero entries below :data:`ZERO_WEIGHT` set to 0 and renormalised to sum 1.

    Returns ``beta`` itself when it has no such entry.
    """
    small = (beta < ZERO_WEIGHT) & (beta != 0)
    if not small.any():
        return beta
    beta = np.where(small | (beta < 0), 0.0, beta)
    return beta / beta.sum()


@dataclass(frozen=True)
class SVMSolution:
    """The SVM with the combined kernel sum_k beta_k K_k, solved at fixed weights beta.

    Attributes
    ----------
    beta : ndarray of shape (n_kernels,)
        The weights it was solved at.
    alpha_y : ndarray of shape (n_samples,)
        y_i alpha_i (0 off the support).
    support : ndarray of shape (n_support,)
        Indices i with alpha_i > 0.
    intercept : float
        Offset b of f(x) = sum_i y_i alpha_i K(x, x_i) + b.
    objective : float
        J(beta) = sum_i alpha_i - 1/2 alpha' Y K Y alpha, the SVM dual objective.
    kernel : ndarray of shape (n_samples, n_samples)
        The combined training kernel K = sum_k beta_k K_k.
    """

    beta: np.ndarray
    alpha_y: np.ndarray
    support: np.ndarray
    intercept: float
    objective: float
    kernel: np.ndarray

    @property
    def alpha_sum(self) -> float:
        """sum_i alpha_i."""
        return float(np.abs(self.alpha_y).sum())


class CombinedSVM:
    """J(beta) and its gradient over a stack of unit-trace training kernels.

    Parameters
    ----------
    stack : ndarray of shape (n_kernels, n_samples, n_samples)
        Training kernels (:func:`unit_trace_stack`); read in place, never copied.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    C : float
        SVM box constraint.
    tol : float
        libsvm's stopping tolerance.

    Attributes
    ----------
    n_solves : int
        SVMs solved so far.
    """

    def __init__(self, stack: np.ndarray, y: np.ndarray, C: float, tol: float) -> None:
        self.stack = stack
        self.y = y
        self.C = C
        self.tol = tol
        self.n_solves = 0
        n_kernels, n, _ = stack.shape
        self._flat = stack.reshape(n_kernels, n * n)  # a view: rows are the kernels
        self._rows = stack.reshape(n_kernels * n, n)

    @property
    def n_kernels(self) -> int:
        return self.stack.shape[0]

    def kernel(self, weights: np.ndarray) -> np.ndarray:
        """The combination sum_k w_k K_k, reading only the kernels with w_k != 0.

        Parameters
        ----------
        weights : ndarray of shape (n_kernels,)
            Any weights (kernel weights beta, or a direction of change of beta).

        Returns
        -------
        ndarray of shape (n_samples, n_samples)
        """
        n = self.stack.shape[1]
        used = np.flatnonzero(weights)
        if 2 * used.size >= weights.size:
            return (weights @ self._flat).reshape(n, n)
        K, term = np.zeros((n, n)), np.empty((n, n))
        for k in used:  # no copy of the used kernels (stack[used] would make one)
            np.multiply(self.stack[k], weights[k], out=term)
            K += term
        return K

    def solve(self, beta: np.ndarray, kernel: np.ndarray | None = None) -> SVMSolution:
        """Solve the SVM dual with kernel sum_k beta_k K_k (libsvm; no warm start).

        Parameters
        ----------
        beta : ndarray of shape (n_kernels,)
        kernel : ndarray of shape (n_samples, n_samples), default=None
            sum_k beta_k K_k if the caller has it (e.g. updated along a line); None
            computes it.

        Returns
        -------
        SVMSolution
        """
        K = self.kernel(beta) if kernel is None else kernel
        dual = solve_precomputed(K, self.y, C=self.C, tol=self.tol)
        self.n_solves += 1
        alpha_y = dual.dual_coef
        support = np.flatnonzero(alpha_y)
        v = alpha_y[support]
        objective = np.abs(v).sum() - 0.5 * v @ K[np.ix_(support, support)] @ v
        return SVMSolution(beta, alpha_y, support, dual.intercept, float(objective), K)

    def quadratic_terms(self, alpha_y: np.ndarray) -> np.ndarray:
        """alpha' Y K_k Y alpha for every kernel k, in one matrix product over the stack.

        Parameters
        ----------
        alpha_y : ndarray of shape (n_samples,)

        Returns
        -------
        ndarray of shape (n_kernels,)
        """
        return (self._rows @ alpha_y).reshape(self.n_kernels, -1) @ alpha_y

    def gradient(self, solution: SVMSolution) -> np.ndarray:
        """dJ/dbeta_k = -1/2 alpha*' Y K_k Y alpha* at the solution's beta (notes, "J(beta)")."""
        return -0.5 * self.quadratic_terms(solution.alpha_y)


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


class MKLClassifierBase(BinaryClassifierMixin, BaseEstimator):
    """Fit and predict of a binary MKL classifier; subclasses supply the optimiser of beta."""

    def _check_params(self) -> None:
        check_C(self.C)
        check_positive("tol", self.tol)
        check_positive("svm_tol", self.svm_tol)
        if isinstance(self.max_iter, bool) or not (isinstance(self.max_iter, (int, np.integer)) and self.max_iter >= 0):
            raise ValueError(f"max_iter must be an integer >= 0, got {self.max_iter!r}")

    @abstractmethod
    def _optimise(self, svm: CombinedSVM, start: float) -> MKLResult:
        """Minimise J(beta) on the simplex; ``start`` is the perf_counter() time of the fit's start."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X: np.ndarray, y: np.ndarray):
        """Learn the kernel weights beta and the SVM; the second of ``classes_`` is the positive class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.

        Returns
        -------
        self
        """
        start = perf_counter()
        self._check_params()
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size != 2:
            raise ValueError(
                f"Only binary classification is supported. The type of the target is "
                f"{type_of_target(y)}: y has {self.classes_.size} class(es) {self.classes_.tolist()[:5]}; "
                f"wrap {type(self).__name__} in sklearn.multiclass.OneVsRestClassifier for more classes."
            )
        signed = np.where(y == self.classes_[1], 1.0, -1.0)
        self.kernels_ = tuple(resolve_kernels(self.kernels, X))
        stack, self.kernel_scales_ = unit_trace_stack(self.kernels_, X)
        svm = CombinedSVM(stack, signed, float(self.C), float(self.svm_tol))
        result = self._optimise(svm, start)
        solution = result.solution
        self.weights_ = solution.beta
        self.support_ = solution.support
        self.support_vectors_ = X[solution.support]
        self.dual_coef_ = solution.alpha_y[solution.support]
        self.intercept_ = solution.intercept
        self.objective_ = solution.objective
        self.n_support_ = int(solution.support.size)
        self.n_kernels_selected_ = int(np.count_nonzero(solution.beta))
        self.n_iter_ = result.n_iter
        self.n_svm_fits_ = svm.n_solves
        self.status_ = result.status
        self.history_ = result.history
        if result.status != "optimal":
            warnings.warn(
                f"{type(self).__name__} stopped ({result.status}) after {result.n_iter} iterations with a "
                f"relative gap of {result.history[-1]['gap']:.3g} > tol={self.tol}; raise max_iter or tol",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def decision_function(self, X: np.ndarray) -> np.ndarray:
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
        X = validate_data(self, X, reset=False, dtype=np.float64)
        K = np.zeros((X.shape[0], self.support_vectors_.shape[0]))
        for k in np.flatnonzero(self.weights_):
            K += (self.weights_[k] * self.kernel_scales_[k]) * self.kernels_[k](X, self.support_vectors_)
        return K @ self.dual_coef_ + self.intercept_



COMMON_PARAMETERS = """
    kernels : "simplemkl", mapping, or sequence of kernel specs, default="simplemkl"
        The kernels K_1..K_M. ``"simplemkl"`` is the grid of the paper's
        experiments (:func:`kernel_grid`: Gaussians of widths 0.5..20 and
        polynomials of degree 1-3, on all variables and on each variable); a
        mapping ``{"grid": "simplemkl", "widths": [...], "degrees": [...],
        "variables": [[0, 1], [2], ...]}`` changes its options (``variables``
        groups columns, e.g. the one-hot columns of a categorical variable);
        otherwise a kernel library as for :func:`mkbench.kernels.make_library`
        ("L,Q,R", a list of names, mappings or Kernel objects). Every kernel is
        scaled to unit trace on the training inputs.
    C : float, default=100.0
        SVM box constraint 0 <= alpha_i <= C (100 in the paper's experiments).
    tol : float, default=0.01
        Stop when the relative gap is at most ``tol``.
    max_iter : int, default=500
        Most weight updates (SimpleMKL's ``nbitermax``).
    svm_tol : float, default=1e-5
        libsvm's stopping tolerance for each SVM (scikit-learn's 1e-3 makes the
        gradients and line-search values too noisy near the optimum)."""

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
    intercept_ : float
        Offset b.
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
        The kernels, data-dependent defaults resolved.
    kernel_scales_ : ndarray of shape (n_kernels,)
        1 / trace of each training kernel.
    classes_ : ndarray of shape (2,)
"""
