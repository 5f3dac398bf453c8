"""The MKL kernel grid: per-variable kernels, the SimpleMKL grid and unit-trace training kernels.

SILP (Sonnenburg et al., JMLR 2006) and SimpleMKL (Rakotomamonjy et al., ICML
2007, JMLR 2008) learn weights of a list of kernels K_1..K_M. The list of the
SimpleMKL experiments is a grid: Gaussians and polynomials on all variables and
on each variable (:func:`kernel_grid`), built here from :class:`OnVariables`
kernels. The training kernels are computed once into a stack of shape (M, n, n),
each scaled to unit trace (SimpleMKL's ``UnitTraceNormalization``;
:func:`unit_trace_stack`); every later step reads that stack in place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..exceptions import UnknownNameError
from .functions import RBF, Kernel, Polynomial
from .library import make_library

__all__ = [
    "SIMPLEMKL_DEGREES",
    "SIMPLEMKL_WIDTHS",
    "OnVariables",
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
        kernels = make_library(spec)
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
    for k, kernel in enumerate(kernels):
        stack[k] = kernel(X, X)
    return stack, scale_to_unit_trace(stack, [kernel.name for kernel in kernels])


def scale_to_unit_trace(stack: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """Scale each training kernel of ``stack`` (M, n, n) to unit trace, in place; return 1 / trace of each.

    Raises
    ------
    ValueError
        If a kernel has a trace that is not positive and finite (e.g. a linear
        kernel on zero inputs).
    """
    scales = np.empty(len(stack))
    for k, K in enumerate(stack):
        trace = float(np.trace(K))
        if not (np.isfinite(trace) and trace > 0) or not np.all(np.isfinite(K)):
            raise ValueError(
                f"kernel {k} ({names[k]}) has trace {trace:g} or non-finite values on the training "
                "inputs; unit-trace normalisation needs a positive trace: drop that kernel"
            )
        scales[k] = 1.0 / trace
        K *= scales[k]
    return scales
