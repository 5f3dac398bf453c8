"""Kernels a user brings: any callable k(X, Z) -> Gram block, scikit-learn's kernel objects included.

``functools.partial(sklearn.metrics.pairwise.rbf_kernel, gamma=0.1)``, a lambda,
or a ``sklearn.gaussian_process.kernels`` object such as ``RBF(length_scale=2.0)``
(whose ``__call__(X, Y)`` is the Gram block) all become a :class:`FunctionKernel`
through :func:`mkbench.kernels.make_kernel`. Their values are checked at every
call: the block must be finite, of shape (n_X, n_Z).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .functions import Kernel, _as_pair

__all__ = ["FunctionKernel"]


@dataclass(frozen=True, eq=False)
class FunctionKernel(Kernel):
    """A kernel given as a callable ``function(X, Z)`` returning the (n_X, n_Z) Gram block.

    Parameters
    ----------
    function : callable
        ``function(X, Z) -> array of shape (n_X, n_Z)``; the columns of cgboost eq. 3 are
        its values K(x_i, x_j). It is used as given: no data-dependent default is fixed.
    label : str or None, default=None
        Name in column ids and records; None derives one from the function
        (``rbf_kernel(gamma=0.1)`` for a partial, the repr of a kernel object).
    """

    function: Callable[[np.ndarray, np.ndarray], np.ndarray]
    label: str | None = None

    def __post_init__(self) -> None:
        if not callable(self.function):
            raise TypeError(f"a FunctionKernel needs a callable k(X, Z), got {type(self.function).__name__}")

    @property
    def name(self) -> str:
        return self.label or _describe(self.function)

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        X, Z = _as_pair(X, Z)
        K = np.asarray(self.function(X, Z), dtype=np.float64)
        if K.shape != (X.shape[0], Z.shape[0]):
            raise ValueError(
                f"kernel {self.name} returned an array of shape {K.shape} for {X.shape[0]} and {Z.shape[0]} "
                f"points; a kernel callable k(X, Z) must return the Gram block of shape ({X.shape[0]}, {Z.shape[0]})"
            )
        if not np.all(np.isfinite(K)):
            raise ValueError(f"kernel {self.name} returned NaN or infinite values")
        return K


def _describe(function: Callable) -> str:
    """A readable name: ``f(a=1)`` for a partial, the function's name, or the object's repr."""
    if isinstance(function, functools.partial):
        arguments = [repr(a) for a in function.args] + [f"{k}={v!r}" for k, v in function.keywords.items()]
        return f"{_describe(function.func)}({', '.join(arguments)})"
    name = getattr(function, "__name__", None)
    return name if name is not None else repr(function)
