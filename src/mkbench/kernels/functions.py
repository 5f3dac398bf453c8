"""Kernel functions: the :class:`Kernel` interface and the kernels of the papers' libraries.

Kernels are small immutable objects with a ``name`` and ``__call__(X, Z) -> K``
of shape (n_x, n_z). A kernel whose default depends on the training data (the
RBF width sigma) is fixed by :meth:`Kernel.resolve` on the training inputs.
:class:`Linear`, :class:`Polynomial` and :class:`RBF` are the L, Q and R of
cgboost Table 1; :class:`WeakRBF` is MARK's kernel on one attribute (eq. 20).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace

import numpy as np

from ..exceptions import MkbenchError

__all__ = [
    "RBF",
    "Kernel",
    "Linear",
    "Polynomial",
    "WeakRBF",
    "mean_squared_distance",
]


def _as_points(X: np.ndarray) -> np.ndarray:
    """Return X as a 2-D floating array (float32 stays float32)."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D array of points (n_samples, n_features), got shape {X.shape}")
    return X if np.issubdtype(X.dtype, np.floating) else X.astype(np.float64)


def _as_pair(X: np.ndarray, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    X, Z = _as_points(X), _as_points(Z)
    if X.shape[1] != Z.shape[1]:
        raise ValueError(f"X has {X.shape[1]} features but Z has {Z.shape[1]}")
    return X, Z


def _squared_distances(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """||x_i - z_j||^2 for all pairs, via ||x||^2 + ||z||^2 - 2 x'z (one GEMM)."""
    D = X @ Z.T
    D *= -2.0
    D += np.einsum("ij,ij->i", X, X)[:, None]
    D += np.einsum("ij,ij->i", Z, Z)[None, :]
    return np.maximum(D, 0.0, out=D)


def mean_squared_distance(X: np.ndarray) -> float:
    """Mean of ||x_i - x_j||^2 over all ordered pairs (i, j), the pairs i = j included.

    This is the default RBF width of cgboost §5 ("the mean of ||x_i - x_j||^2
    where i, j run through the training examples"). Over the n^2 ordered pairs,
    mean ||x_i - x_j||^2 = 2 mean_i ||x_i||^2 - 2 ||mean_i x_i||^2
    = 2 mean_i ||x_i - xbar||^2, computed here in the centred form: O(n d) time,
    and no cancellation when the data sit far from the origin. (The mean over the
    n(n-1) pairs with i != j is larger by the factor n / (n - 1).)

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from mkbench.kernels import mean_squared_distance
    >>> mean_squared_distance(np.array([[0.0], [2.0]]))  # (0 + 4 + 4 + 0) / 4
    2.0
    """
    X = _as_points(X)
    centred = X - X.mean(axis=0)
    return 2.0 * float(np.einsum("ij,ij->", centred, centred)) / X.shape[0]


class Kernel(ABC):
    """A symmetric kernel function k(x, z) = k(z, x), evaluated on two sets of points."""

    @property
    @abstractmethod
    def name(self) -> str:
        """Short name, used in column ids and result records."""

    @abstractmethod
    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        """Gram block K[i, j] = k(x_i, z_j).

        Parameters
        ----------
        X : ndarray of shape (n_x, n_features)
        Z : ndarray of shape (n_z, n_features)

        Returns
        -------
        ndarray of shape (n_x, n_z)
        """

    def resolve(self, X: np.ndarray) -> Kernel:
        """Return this kernel with its data-dependent defaults fixed from training inputs X.

        Kernels without such defaults return themselves.
        """
        return self


def _check_sigma(sigma: float | None) -> None:
    if sigma is not None and not sigma > 0:
        raise ValueError(f"sigma must be > 0 (or None for the data default), got {sigma!r}")


def _width_from(kernel: RBF | WeakRBF) -> None:
    """Set sigma = 1 / gamma when a Gaussian kernel was given scikit-learn's gamma, then check it."""
    if kernel.gamma is not None:
        if kernel.sigma is not None:
            raise ValueError(
                f"give the {kernel.name} kernel sigma or gamma, not both: "
                f"exp(-||x - z||^2 / sigma) = exp(-gamma ||x - z||^2), sigma = 1 / gamma"
            )
        if not kernel.gamma > 0:
            raise ValueError(f"gamma must be > 0, got {kernel.gamma!r}")
        object.__setattr__(kernel, "sigma", 1.0 / kernel.gamma)
        object.__setattr__(kernel, "gamma", None)
    _check_sigma(kernel.sigma)


def _default_sigma(X: np.ndarray, what: str) -> float:
    sigma = mean_squared_distance(X)
    if not sigma > 0:
        raise MkbenchError(
            f"cannot set the default sigma of {what}: all training points coincide "
            "(mean squared distance 0); pass sigma explicitly"
        )
    return sigma


def _unresolved(kernel: Kernel) -> MkbenchError:
    return MkbenchError(
        f"{kernel.name} kernel has no sigma: pass sigma= or call .resolve(X_train) to use "
        "the mean squared distance of the training points (cgboost §5)"
    )


@dataclass(frozen=True)
class Linear(Kernel):
    """Linear kernel k(x, z) = x'z ("L" in cgboost Table 1)."""

    @property
    def name(self) -> str:
        return "linear"

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        X, Z = _as_pair(X, Z)
        return X @ Z.T


@dataclass(frozen=True)
class Polynomial(Kernel):
    """Polynomial kernel k(x, z) = (x'z + offset)^degree.

    The quadratic kernel "Q" of cgboost Table 1 is ``Polynomial(2, 1.0)``. The paper
    does not state its offset; we use the common inhomogeneous form with offset 1.
    Every quadratic of unit scale is named "quadratic", whatever its offset (its columns
    are Table 1's C_q), as an RBF of any width is named "rbf".
    With ``gamma`` it is scikit-learn's ``polynomial_kernel(degree, gamma, coef0=offset)``:
    (gamma x'z + offset)^degree.

    Parameters
    ----------
    degree : int, default=2
    offset : float, default=1.0
        scikit-learn's ``coef0``.
    gamma : float, default=1.0
        Scale of x'z, > 0.
    """

    degree: int = 2
    offset: float = 1.0
    gamma: float = 1.0

    def __post_init__(self) -> None:
        if not (isinstance(self.degree, (int, np.integer)) and self.degree >= 1):
            raise ValueError(f"degree must be an integer >= 1, got {self.degree!r}")
        if not self.gamma > 0:
            raise ValueError(f"gamma must be > 0, got {self.gamma!r}")

    @property
    def name(self) -> str:
        if (self.degree, self.gamma) == (2, 1.0):
            return "quadratic"  # any offset, as an RBF of any width is "rbf": Table 1's kernel type
        scale = "" if self.gamma == 1.0 else f", gamma={self.gamma:g}"
        return f"poly(degree={self.degree}, offset={self.offset:g}{scale})"

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        X, Z = _as_pair(X, Z)
        K = X @ Z.T
        if self.gamma != 1.0:
            K *= self.gamma
        K += self.offset
        return K**self.degree


#: What divides ||x - z||^2 in :class:`RBF`, as a function of sigma.
_DENOMINATORS = {
    "sigma": lambda sigma: sigma,
    "sigma^2": lambda sigma: sigma**2,
    "2sigma^2": lambda sigma: 2 * sigma**2,
}


@dataclass(frozen=True)
class RBF(Kernel):
    """Gaussian kernel k(x, z) = exp(-||x - z||^2 / sigma) (MARK eq. 19; cgboost §2.2).

    Note sigma divides the squared distance directly (no 2 sigma^2): sklearn's
    ``rbf_kernel`` with ``gamma = 1 / sigma``, which may be given instead. The
    ``denominator`` gives the other conventions for the same sigma: exp(-||x - z||^2 / sigma^2)
    and the textbook Gaussian of bandwidth sigma, exp(-||x - z||^2 / (2 sigma^2)).

    Parameters
    ----------
    sigma : float or None, default=None
        None means the mean squared distance of the training points, set by
        :meth:`resolve` (cgboost §5; see :func:`mean_squared_distance`).
    gamma : float or None, default=None
        scikit-learn's name: sigma = 1 / gamma (stored as sigma; give one of the two;
        only with ``denominator="sigma"``).
    denominator : {"sigma", "sigma^2", "2sigma^2"}, default="sigma"
        What divides ||x - z||^2: sigma itself (the papers' form), sigma^2 or 2 sigma^2.
    """

    sigma: float | None = None
    gamma: float | None = None
    denominator: str = "sigma"

    def __post_init__(self) -> None:
        if self.denominator not in _DENOMINATORS:
            raise ValueError(
                f"denominator must be one of {', '.join(map(repr, _DENOMINATORS))} (what divides ||x - z||^2), "
                f"got {self.denominator!r}"
            )
        if self.gamma is not None and self.denominator != "sigma":
            raise ValueError(
                f"gamma = 1 / sigma is only defined with denominator='sigma'; give sigma with "
                f"denominator={self.denominator!r}"
            )
        _width_from(self)

    @property
    def name(self) -> str:
        return "rbf"

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        if self.sigma is None:
            raise _unresolved(self)
        X, Z = _as_pair(X, Z)
        K = _squared_distances(X, Z)
        K /= -_DENOMINATORS[self.denominator](self.sigma)
        return np.exp(K, out=K)

    def resolve(self, X: np.ndarray) -> RBF:
        if self.sigma is not None:
            return self
        return replace(self, sigma=_default_sigma(X, "the rbf kernel"))


@dataclass(frozen=True)
class WeakRBF(Kernel):
    """Weak RBF kernel on one attribute a: k(x, z) = exp(-(x_a - z_a)^2 / sigma) (MARK eq. 20).

    Parameters
    ----------
    attribute : int
        Index a of the attribute (column of X) the kernel looks at.
    sigma : float or None, default=None
        None means the mean squared distance of the training values of that
        attribute, set by :meth:`resolve`.
    gamma : float or None, default=None
        scikit-learn's name: sigma = 1 / gamma (stored as sigma; give one of the two).
    """

    attribute: int
    sigma: float | None = None
    gamma: float | None = None

    def __post_init__(self) -> None:
        if not (isinstance(self.attribute, (int, np.integer)) and self.attribute >= 0):
            raise ValueError(f"attribute must be a column index >= 0, got {self.attribute!r}")
        _width_from(self)

    @property
    def name(self) -> str:
        return f"weak_rbf[{self.attribute}]"

    def _attribute_of(self, X: np.ndarray) -> np.ndarray:
        if self.attribute >= X.shape[1]:
            raise ValueError(f"{self.name} needs attribute {self.attribute}, but the data have {X.shape[1]} features")
        return X[:, [self.attribute]]

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        if self.sigma is None:
            raise _unresolved(self)
        X, Z = _as_pair(X, Z)
        return RBF(self.sigma)(self._attribute_of(X), self._attribute_of(Z))

    def resolve(self, X: np.ndarray) -> WeakRBF:
        if self.sigma is not None:
            return self
        return replace(self, sigma=_default_sigma(self._attribute_of(_as_points(X)), self.name))
