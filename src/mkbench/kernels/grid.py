"""The MKL kernel grid: per-variable kernels, the SimpleMKL grid and unit-trace training kernels.

SILP (Sonnenburg et al., JMLR 2006) and SimpleMKL (Rakotomamonjy et al., ICML
2007, JMLR 2008) learn weights of a list of kernels K_1..K_M. The list of the
SimpleMKL experiments is a grid: Gaussians and polynomials on all variables and
on each variable (:func:`kernel_grid`), built here from :class:`OnVariables`
kernels; the estimators' default grid (:func:`auto_grid`) keeps the per-variable
kernels only where they are cheap. The training kernels are computed once into a
stack of shape (M, n, n), each scaled to unit trace (SimpleMKL's
``UnitTraceNormalization``; :func:`unit_trace_stack`); every later step reads that stack in place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from ..exceptions import UnknownNameError
from .functions import _DENOMINATORS, RBF, Kernel, Linear, Polynomial, _squared_distances
from .library import make_library

__all__ = [
    "AUTO_GRID_VALUES",
    "SIMPLEMKL_DEGREES",
    "SIMPLEMKL_WIDTHS",
    "OnVariables",
    "auto_grid",
    "gaussian",
    "kernel_grid",
    "resolve_kernels",
    "scale_to_unit_trace",
    "unit_trace_stack",
]

SIMPLEMKL_WIDTHS = (0.5, 1.0, 2.0, 5.0, 7.0, 10.0, 12.0, 15.0, 17.0, 20.0)
"""Gaussian widths of the SimpleMKL grid (issue 6; SimpleMKL JMLR 2008, §4.2)."""

SIMPLEMKL_DEGREES = (1, 2, 3)
"""Polynomial degrees of the SimpleMKL grid."""

AUTO_GRID_VALUES = 2**23
"""Most training-kernel values M n^2 (64 MiB) for which :func:`auto_grid` adds the per-variable kernels.

With them the grid has (W + P)(d + 1) kernels instead of W + P = 13. Measured (issue 42;
range-scaled inputs, C = n, 70/30 splits, draws 0-2, 2 shared cores, before the stack and the
gradient below were made faster): on wine (d = 13, 124 training points: 2.8e6 values) they took
SILP 2.0-2.6 s and SimpleMKL 1.4-2.0 s of CPU instead of 0.02-0.04 s, both at test accuracy 1.0
either way; on breast cancer (d = 30,
398 points: 6.4e7 values) SILP 6.2-8.0 s and SimpleMKL 8-35 s (500 iterations without reaching
tol on draw 0) instead of 0.2-0.3 s, at accuracies 0.947 / 0.959-0.965 / 0.971 against the 13
kernels' 0.947 / 0.971 / 0.959. The kernels' count and the per-iteration cost grow with
M n^2, so the bound keeps the per-variable kernels on small problems, where a fit stays within seconds.
"""


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
            raise ValueError(f"{self.name} needs column {max(self.variables)}, but the data have shape {X.shape}")
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
            raise ValueError(f"each variable is a non-empty list of column indices in [0, {n_features}), got {group!r}")
        groups.append(group)
    return groups


def kernel_grid(
    X: np.ndarray,
    widths: Sequence[float] = SIMPLEMKL_WIDTHS,
    degrees: Sequence[int] = SIMPLEMKL_DEGREES,
    variables: Sequence[Sequence[int]] | None = None,
    each_variable: bool = True,
) -> list[Kernel]:
    """The SimpleMKL kernel grid: Gaussians and polynomials on all variables and on each variable.

    With W widths, P degrees and d variables this gives (W + P)(d + 1) kernels:
    208 on Credit (15 variables), 442 on Ionosphere (33) and 793 on Sonar (60)
    with the default 10 widths and 3 degrees (issue 6, item 4); W + P without the
    per-variable kernels (``each_variable=False``). Order: Gaussians on
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
    each_variable : bool, default=True
        Also the kernels on each variable (the paper's grid); False: on all variables only.

    Returns
    -------
    list of Kernel
        "All variables" means the union of the variables.

    Raises
    ------
    ValueError
        If no variable is left, a group names a column X does not have, or ``each_variable`` is no bool.
    """
    if not isinstance(each_variable, (bool, np.bool_)):
        raise ValueError(f"each_variable must be True or False, got {each_variable!r}")
    X = np.asarray(X)
    groups = _variables(X, variables)
    if not groups:
        raise ValueError("the kernel grid has no variable: every column of X is constant")
    every = tuple(sorted(set().union(*groups)))
    families = ([gaussian(w) for w in widths], [Polynomial(degree=d, offset=1.0) for d in degrees])
    kernels: list[Kernel] = []
    for family in families:
        kernels += [k if len(every) == X.shape[1] else OnVariables(k, every) for k in family]
        if each_variable:
            kernels += [OnVariables(k, group) for k in family for group in groups]
    return kernels


def auto_grid(X: np.ndarray) -> list[Kernel]:
    """The estimators' default kernels: the SimpleMKL grid, on each variable too only while that is cheap.

    The 13 kernels of :func:`kernel_grid` on all variables (Gaussians of the widths
    :data:`SIMPLEMKL_WIDTHS`, polynomials of degrees 1-3), and the same on each
    non-constant variable when the whole grid's training kernels, (W + P)(d + 1) n^2
    values, number at most :data:`AUTO_GRID_VALUES` (wine's 13 variables and 124 points:
    182 kernels; breast cancer's 30 variables and 398 points, digits, or any problem of
    more than 568 points: 13).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training inputs (as the kernels see them).

    Returns
    -------
    list of Kernel
    """
    n_samples, n_variables = X.shape[0], len(_variables(X, None))
    full = (len(SIMPLEMKL_WIDTHS) + len(SIMPLEMKL_DEGREES)) * (n_variables + 1) * n_samples**2
    return kernel_grid(X, each_variable=full <= AUTO_GRID_VALUES)


_GRID_OPTIONS = ("widths", "degrees", "variables", "each_variable")


def resolve_kernels(spec: str | Mapping | Sequence[Any] | Kernel, X: np.ndarray) -> list[Kernel]:
    """The kernel library of an MKL estimator, with data-dependent defaults fixed on X.

    Parameters
    ----------
    spec : str, mapping, Kernel or sequence
        ``"auto"``: :func:`auto_grid`; ``"simplemkl"``: the grid of :func:`kernel_grid`; a mapping
        ``{"grid": "simplemkl", "widths": ..., "degrees": ..., "variables": ..., "each_variable": ...}``:
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
    elif isinstance(spec, str) and spec == "auto":
        kernels = auto_grid(X)
    else:
        kernels = make_library(spec)
    if not kernels:
        raise ValueError("the kernel library is empty; pass kernels='auto', 'simplemkl' or a list of kernels")
    return [kernel.resolve(X) for kernel in kernels]


def unit_trace_stack(
    kernels: Sequence[Kernel], X: np.ndarray, dtype: DTypeLike = np.float64, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The training kernels K_k(X, X) / trace(K_k(X, X)), computed once.

    Linear, polynomial and Gaussian kernels (:class:`~mkbench.kernels.Linear`,
    :class:`~mkbench.kernels.Polynomial`, :class:`~mkbench.kernels.RBF`, alone or
    :class:`OnVariables`) on the same variables share one product X_S X_S' and one matrix
    of squared distances, and are written into the stack in place (:func:`_fill_products`);
    any other kernel is called. The grid's 10 Gaussians and 3 polynomials on 64 variables
    and 1257 points (digits) took 0.13-0.17 s of CPU this way instead of 0.49-0.67 s (issue 42).

    Parameters
    ----------
    kernels : sequence of Kernel
        Resolved kernels.
    X : ndarray of shape (n_samples, n_features)
    dtype : {numpy.float64, numpy.float32}, default=numpy.float64
        The stack's type. With float32 each kernel is computed and scaled to unit trace in
        float64, then rounded once to the nearest float32 (issue 44): a relative change of at
        most 2^-24 per entry (an absolute one of at most 2^-150 below float32's smallest normal
        number, 2^-126), and half the bytes.
    weights : ndarray of shape (n_samples,), default=None
        Sample weights w: each kernel is then scaled to unit weighted trace sum_i w_i K_ii
        (:func:`scale_to_unit_trace`), before any rounding.

    Returns
    -------
    stack : ndarray of shape (n_kernels, n_samples, n_samples)
        Each kernel scaled to unit trace.
    scales : ndarray of shape (n_kernels,)
        1 / trace(K_k(X, X)) (the weighted trace with ``weights``), applied again to the kernels at prediction.

    Raises
    ------
    ValueError
        If a kernel has a trace that is not positive and finite (e.g. a linear
        kernel on zero inputs).
    """
    n = X.shape[0]
    stack = np.empty((len(kernels), n, n), dtype=dtype)
    if stack.dtype not in (np.float64, np.float32):
        raise ValueError(f"the kernel stack is float64 or float32, got dtype {stack.dtype}")
    scales = np.empty(len(kernels))
    scratch = None if stack.dtype == np.float64 else np.empty((n, n))

    def target(k: int) -> np.ndarray:
        """Where kernel k is computed in float64: its place in a float64 stack, else the one scratch matrix."""
        return stack[k] if scratch is None else scratch

    def store(k: int) -> None:
        """Scale kernel k, computed in ``target(k)``, to unit trace; a float32 stack takes it rounded once."""
        K = target(k)
        scales[k] = _to_unit_trace(K, f"kernel {k} ({kernels[k].name})", weights)
        if scratch is not None:
            stack[k] = K

    groups: dict[tuple[int, ...] | None, list[int]] = {}
    for k, kernel in enumerate(kernels):
        base, variables = (kernel.kernel, kernel.variables) if isinstance(kernel, OnVariables) else (kernel, None)
        if type(base) in (Linear, Polynomial) or (type(base) is RBF and base.sigma is not None):
            groups.setdefault(variables, []).append(k)
        else:
            target(k)[...] = kernel(X, X)
            store(k)
    for variables, members in groups.items():
        _fill_products(kernels, members, X if variables is None else X[:, variables], target, store)
    return stack, scales


def _fill_products(
    kernels: Sequence[Kernel],
    members: list[int],
    X: np.ndarray,
    target: Callable[[int], np.ndarray],
    store: Callable[[int], None],
) -> None:
    """Compute the linear, polynomial and Gaussian kernels ``members`` on the inputs X, and ``store`` each.

    One product G = X X' serves them all: x'z (linear), (gamma x'z + offset)^q by
    repeated products (polynomial), and exp(-D / sigma) with D_ij = ||x_i||^2 + ||x_j||^2 - 2 G_ij
    (Gaussian, :func:`mkbench.kernels.functions._squared_distances`'s formula). Each kernel k is
    computed in ``target(k)`` (float64, n x n), then ``store(k)`` scales and keeps it.
    """
    bases = [kernel.kernel if isinstance(kernel, OnVariables) else kernel for kernel in (kernels[k] for k in members)]
    gaussians = [(k, base) for k, base in zip(members, bases, strict=True) if isinstance(base, RBF)]
    if gaussians:
        D = _squared_distances(X, X)
        for k, rbf in gaussians:
            assert rbf.sigma is not None  # members are RBFs of a given width (unit_trace_stack)
            K = target(k)
            np.divide(D, -_DENOMINATORS[rbf.denominator](rbf.sigma), out=K)
            np.exp(K, out=K)
            store(k)
        del D
    # the other members are linear and polynomial kernels (unit_trace_stack)
    products = [(k, base) for k, base in zip(members, bases, strict=True) if isinstance(base, (Linear, Polynomial))]
    if products:
        G = X @ X.T
        for k, product in products:
            K = target(k)
            if isinstance(product, Linear):
                K[...] = G
            else:
                np.multiply(G, product.gamma, out=K)
                K += product.offset
                _integer_power(K, product.degree)
            store(k)


def _integer_power(K: np.ndarray, degree: int) -> None:
    """K**degree in place by degree - 1 products (numpy's ``**`` calls pow() per entry beyond degree 2)."""
    base = K.copy() if degree > 1 else None
    for _ in range(degree - 1):
        K *= base


def scale_to_unit_trace(stack: np.ndarray, names: Sequence[str], weights: np.ndarray | None = None) -> np.ndarray:
    """Scale each training kernel of ``stack`` (M, n, n) to unit trace, in place; return the scale of each.

    The scale is 1 / trace(K); with sample ``weights`` w, the kernel scaled to unit trace is
    then divided by its weighted trace sum_i w_i K_ii (the trace over the rows repeated), and
    the scale by the same.

    Raises
    ------
    ValueError
        If a kernel has a trace that is not positive and finite (e.g. a linear
        kernel on zero inputs).
    """
    return np.array([_to_unit_trace(K, f"kernel {k} ({names[k]})", weights) for k, K in enumerate(stack)])


def _to_unit_trace(K: np.ndarray, name: str, weights: np.ndarray | None) -> float:
    """Scale K to unit (weighted) trace in place, as :func:`scale_to_unit_trace` says; ``name`` for the error."""
    trace = float(np.trace(K))
    if not (np.isfinite(trace) and trace > 0) or not np.all(np.isfinite(K)):
        raise ValueError(
            f"{name} has trace {trace:g} or non-finite values on the training "
            "inputs; unit-trace normalisation needs a positive trace: drop that kernel"
        )
    scale = 1.0 / trace
    K *= scale
    if weights is None:
        return scale
    weighted = np.einsum("ii,i->", K, weights)
    K /= weighted
    return scale / weighted
