"""Composite kernels and the kernel library: names and specs -> kernels (cgboost Table 1; SSMK eq. 2, 3).

A kernel library S = {K_1, ..., K_P} defines the candidate columns of CG-Boost
(:class:`mkbench.kernels.columns.KernelColumns`). :func:`make_kernel` builds one
kernel from a name ("linear", the Table 1 letters "L", "Q", "R"), a mapping of
parameters or a :class:`~mkbench.kernels.functions.Kernel`; names joined by "+"
make a :class:`Sum`, the unit-weight composite. :func:`make_library` builds the
library from a comma-separated string or a sequence of specs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from ..exceptions import UnknownNameError
from .callables import FunctionKernel
from .functions import RBF, Kernel, Linear, Polynomial, WeakRBF

__all__ = ["Sum", "make_kernel", "make_library"]


@dataclass(frozen=True)
class Sum(Kernel):
    """Composite kernel with unit weights, K = sum_p K_p (eq. 2 with mu = 1; "L+Q" in cgboost Table 1).

    Parameters
    ----------
    kernels : sequence of Kernel
    """

    kernels: tuple[Kernel, ...]

    def __post_init__(self) -> None:
        if not self.kernels:
            raise ValueError("a Sum kernel needs at least one kernel")
        object.__setattr__(self, "kernels", tuple(self.kernels))

    @property
    def name(self) -> str:
        return "+".join(k.name for k in self.kernels)

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        first, *rest = self.kernels
        K = first(X, Z)
        for kernel in rest:
            K += kernel(X, Z)
        return K

    def resolve(self, X: np.ndarray) -> Sum:
        return Sum(tuple(k.resolve(X) for k in self.kernels))


def _sum_of(kernels: Sequence[str | Mapping | Kernel]) -> Sum:
    return Sum(tuple(make_kernel(k) for k in kernels))


_FACTORIES: dict[str, Callable[..., Kernel]] = {
    "linear": Linear,
    "quadratic": partial(Polynomial, degree=2),
    "poly": Polynomial,
    "rbf": RBF,
    "weak_rbf": WeakRBF,
    "sum": _sum_of,
}
_ALIASES = {"L": "linear", "Q": "quadratic", "R": "rbf"}


def make_kernel(spec: str | Mapping | Kernel | Callable) -> Kernel:
    """Build a kernel from a name or a spec.

    Parameters
    ----------
    spec : str, mapping, Kernel or callable
        A registered name ("linear", "quadratic", "poly", "rbf", "weak_rbf", or the
        Table 1 letters "L", "Q", "R"); names joined by "+" for a unit-weight
        composite ("L+Q"); a mapping ``{"name": ..., **parameters}`` such as
        ``{"name": "weak_rbf", "attribute": 3}``, ``{"name": "rbf", "gamma": 0.1}``
        (scikit-learn's gamma = 1 / sigma) or ``{"name": "sum", "kernels": ["linear", "rbf"]}``;
        a Kernel, returned as is; or any callable ``k(X, Z) -> (n_X, n_Z) array``, such as
        ``functools.partial(sklearn.metrics.pairwise.rbf_kernel, gamma=0.1)`` or a
        ``sklearn.gaussian_process.kernels`` object (:class:`~mkbench.kernels.callables.FunctionKernel`).

    Returns
    -------
    Kernel

    Raises
    ------
    UnknownNameError
        For a name that is not registered; the message lists the known names.
    ValueError
        For parameters the kernel does not take or values out of range.

    Examples
    --------
    >>> from functools import partial
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.metrics.pairwise import rbf_kernel
    >>> from mkbench.kernels import make_kernel
    >>> X, y = load_iris(return_X_y=True)
    >>> make_kernel("Q").name, make_kernel("L+Q").name
    ('quadratic', 'linear+quadratic')
    >>> make_kernel({"name": "rbf", "gamma": 0.1}).sigma  # sigma = 1 / gamma
    10.0
    >>> rbf = make_kernel("rbf").resolve(X)  # sigma from the training points
    >>> rbf(X, X[:5]).shape  # the Gram block K(X, Z)
    (150, 5)
    >>> own = make_kernel(partial(rbf_kernel, gamma=0.1))  # any callable k(X, Z)
    >>> own.name
    'rbf_kernel(gamma=0.1)'
    """
    if isinstance(spec, Kernel):
        return spec
    if callable(spec):
        return FunctionKernel(spec)
    if isinstance(spec, str):
        parts = [part.strip() for part in spec.split("+")]
        if len(parts) > 1:
            return _sum_of(parts)
        name, params = parts[0], {}
    elif isinstance(spec, Mapping):
        params = dict(spec)
        name = params.pop("name", None)
        if name is None:
            raise ValueError(f"kernel spec {dict(spec)!r} has no 'name'")
    else:
        raise TypeError(
            f"a kernel spec is a name, a mapping, a Kernel or a callable k(X, Z), got {type(spec).__name__}"
        )
    name = _ALIASES.get(name, name)
    if name not in _FACTORIES:
        known = sorted(_FACTORIES) + sorted(_ALIASES)
        raise UnknownNameError(
            f"unknown kernel {name!r}; known kernels: {', '.join(known)} (join names with '+' for a sum)"
        )
    try:
        return _FACTORIES[name](**params)
    except TypeError as exc:
        raise ValueError(f"kernel {name!r} does not accept parameters {params!r}: {exc}") from exc


def make_library(spec: str | Mapping | Kernel | Callable | Sequence[str | Mapping | Kernel | Callable]) -> list[Kernel]:
    """Build a kernel library S = {K_1, ..., K_P} for a mixture of kernels (eq. 3).

    Parameters
    ----------
    spec : str, one kernel spec, or sequence of kernel specs
        A comma-separated string in the notation of cgboost Table 1 ("L,Q,R" is a
        mixture of three kernels, "L+Q" a single composite kernel), one spec (a
        mapping, Kernel or callable: a library of one), or a sequence of specs
        accepted by :func:`make_kernel`.

    Returns
    -------
    list of Kernel

    Examples
    --------
    >>> from mkbench.kernels import make_library
    >>> [k.name for k in make_library("L,Q,R")]  # cgboost Table 1's mixture
    ['linear', 'quadratic', 'rbf']
    >>> [k.name for k in make_library(["linear", {"name": "rbf", "sigma": 2.0}])]
    ['linear', 'rbf']
    """
    if isinstance(spec, (Mapping, Kernel)) or callable(spec):
        spec = [spec]
    specs = spec.split(",") if isinstance(spec, str) else spec
    return [make_kernel(s.strip() if isinstance(s, str) else s) for s in specs]
