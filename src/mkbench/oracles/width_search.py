"""MARK's width search: the oracle over RBF and weak RBF kernel columns with a 1-D sigma search (MARK §4).

MARK (Bennett, Momma, Embrechts, KDD 2002) generates heterogeneous kernel
columns K_t(., c_t), each with its own centre c_t (a training point), width
sigma_t and, for the weak RBF kernel (eq. 20), attribute a_t. Its oracle,
:class:`KernelColumnSearch`, draws N' candidate centres and, for each centre (and
each attribute, for weak kernels), searches sigma over a grid for the column
maximising |K'r| (eq. 16, 17) against the current residual r
(:class:`mkbench.estimators.mark.MARKRegressor` runs it in
:func:`mkbench.cg.column_generation`).
"""

from __future__ import annotations

import numpy as np

from ..kernels import RBF, Kernel, WeakRBF, mean_squared_distance
from ..masters import MasterSolution
from .pricing import Pricing

__all__ = ["DEFAULT_SIGMA_GRID", "KERNELS", "KernelColumnSearch"]

#: Default sigma grid of the 1-D search, as factors of the default width (the mean
#: squared distance of the training points, on the kernel's attribute for weak
#: kernels): 2^-8 ... 2^4 in steps of sqrt(2), 25 widths.
DEFAULT_SIGMA_GRID = 2.0 ** np.arange(-8.0, 4.25, 0.5)

KERNELS = ("rbf", "weak_rbf")


# Elements of one block of distances in the vectorised search (2 MiB of float64),
# small enough to stay in cache while all widths are priced on it.
_BLOCK_ELEMENTS = 2**18


def _sigma_chains(grid: np.ndarray) -> list[list[int]]:
    """Split grid indices into chains sigma, sigma/2, sigma/4, ... (largest first).

    exp(-d/(sigma/2)) = exp(-d/sigma)^2, so along a chain only the first width
    needs an exponential and every further one is a squaring.
    """
    order = np.argsort(-grid)
    chains: list[list[int]] = []
    placed: dict[int, list[int]] = {}
    for k in order.tolist():
        parent = np.flatnonzero(np.isclose(grid, 2.0 * grid[k], rtol=1e-12, atol=0.0))
        if parent.size and int(parent[0]) in placed:
            chain = placed[int(parent[0])]
            chain.append(k)
        else:
            chain = [k]
            chains.append(chain)
        placed[k] = chain
    return chains


class KernelColumnSearch:
    """Column generation for RBF and weak RBF kernels with a 1-D sigma search (MARK §4).

    At each call of :meth:`price` a sample S of N' training points is drawn (all
    points when ``n_sample`` is None: the exhaustive search). Every candidate
    column is a triple (centre S_n, attribute j, width sigma_k): for the regular
    RBF kernel (eq. 19) j is absent, for the weak RBF kernel (eq. 20) it runs over
    the attributes. The search returns the candidate maximising |K'r| (eq. 16, 17),
    i.e. for each centre (and attribute) the best sigma on the grid, then the best
    of those ("RBF Column Generation" and "Weak RBF Column Generation", §4).

    The widths are ``sigma_grid`` times the default width of the kernel: the mean
    squared distance of the training points (:func:`mkbench.kernels.mean_squared_distance`),
    taken over the kernel's attribute for weak kernels. Attributes (or data) with
    zero spread give constant columns and are not candidates.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training inputs; the rows of every column and the pool of centres.
    kernel : {"rbf", "weak_rbf"}
    sigma_grid : ndarray of shape (n_sigmas,)
        Positive factors of the default width.
    n_sample : int or None
        N', the number of centres drawn per call; None (or >= n_samples) prices every training point.
    random_state : numpy.random.RandomState
        Source of the samples.
    reprice_chosen : bool, default=False
        Whether a column already in the model may be chosen again. MARK-L
        (False) never prices a chosen column again, since at the ridge optimum its
        gradient (eq. 12) is zero; MARK-S (True) may step along it again, as
        stagewise boosting does.
    target_mse : float or None, default=None
        Stop (propose no column) once the training MSE mean(r^2) is <= this value
        (the stopping rule of the scalability experiment, §5.3).

    Attributes
    ----------
    attributes : ndarray of int or None
        Attributes with nonzero spread (weak kernels), None for the RBF kernel.
    widths : ndarray of shape (n_attributes, n_sigmas)
        The absolute sigma of each (attribute, grid point); one row for the RBF kernel.
    """

    def __init__(
        self,
        X: np.ndarray,
        kernel: str,
        sigma_grid: np.ndarray,
        n_sample: int | None,
        random_state: np.random.RandomState,
        *,
        reprice_chosen: bool = False,
        target_mse: float | None = None,
    ) -> None:
        if kernel not in KERNELS:
            raise ValueError(f"kernel={kernel!r} is not one of {', '.join(map(repr, KERNELS))}")
        self.X = np.ascontiguousarray(X, dtype=np.float64)
        self.sigma_grid = np.asarray(sigma_grid, dtype=np.float64)
        self.n_sample = n_sample
        self.random_state = random_state
        self.reprice_chosen = reprice_chosen
        self.target_mse = target_mse
        if kernel == "weak_rbf":
            spread = np.array([mean_squared_distance(self.X[:, [j]]) for j in range(self.X.shape[1])])
            self.attributes = np.flatnonzero(spread > 0)
            self._default_widths = spread[self.attributes]
            self._XT = np.ascontiguousarray(self.X[:, self.attributes].T)
        else:
            spread = np.array([mean_squared_distance(self.X)])
            self.attributes = None
            self._default_widths = spread[spread > 0]
            self._XT = np.ascontiguousarray(self.X.T)
            self._squared_norms = np.einsum("ij,ij->i", self.X, self.X)
        self.widths = self._default_widths[:, None] * self.sigma_grid[None, :]
        self._chains = _sigma_chains(self.sigma_grid)
        self.chosen: set[tuple[int, int, int]] = set()
        self._buffer: np.ndarray | None = None

    @property
    def n_attributes(self) -> int:
        """Attribute groups of candidates: the usable attributes, or 1 for the RBF kernel."""
        return self.widths.shape[0]

    def kernel(self, group: int, k: int) -> Kernel:
        """The kernel of candidate (attribute group, grid point k), as a :mod:`mkbench.kernels` object."""
        sigma = float(self.widths[group, k])
        if self.attributes is None:
            return RBF(sigma)
        return WeakRBF(int(self.attributes[group]), sigma)

    def column(self, choice: tuple[int, int, int]) -> np.ndarray:
        """The training column K(X, x_n) of a candidate (n, group, k), computed by its kernel."""
        n, group, k = choice
        return self.kernel(group, k)(self.X, self.X[[n]])[:, 0]

    def _scaled_distances(self, centres: np.ndarray, groups: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Squared distances over the default width into ``out``: rows (centre, group), columns the training points."""
        if self.attributes is None:  # ||c||^2 + ||x||^2 - 2 c'x, the norms computed once
            np.matmul(self.X[centres], self._XT, out=out)
            out *= -2.0
            out += self._squared_norms[centres][:, None]
            out += self._squared_norms[None, :]
            np.maximum(out, 0.0, out=out)
        else:
            np.take(self._XT, groups, axis=0, out=out)
            out -= self.X[centres, self.attributes[groups]][:, None]
            out *= out
        out /= self._default_widths[groups][:, None]
        return out

    def scores(self, r: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """K'r for every candidate (centre, attribute, sigma) at once: eq. 17, vectorised.

        The (centre, attribute) pairs are processed in cache-sized blocks; for each
        block the scaled squared distances are computed once and every sigma of
        the grid is priced on them, one exponential per chain sigma, sigma/2, ...
        and a squaring for each further width (:func:`_sigma_chains`).

        Parameters
        ----------
        r : ndarray of shape (n_samples,)
            Residual (the pricing weights of the master).
        centres : ndarray of int
            Training-point indices of the candidate centres.

        Returns
        -------
        ndarray of shape (len(centres), n_attributes, n_sigmas)
        """
        n_groups, n_sigmas = self.widths.shape
        pairs = len(centres) * n_groups
        out = np.empty((pairs, n_sigmas))
        step = max(1, _BLOCK_ELEMENTS // self.X.shape[0])
        if self._buffer is None or self._buffer.shape[1] < step:  # reused: fresh pages are slow
            self._buffer = np.empty((2, step, self.X.shape[0]))
        for start in range(0, pairs, step):
            rows = np.arange(start, min(pairs, start + step))
            D, E = self._buffer[0, : rows.size], self._buffer[1, : rows.size]
            self._scaled_distances(centres[rows // n_groups], rows % n_groups, D)
            for chain in self._chains:
                np.multiply(D, -1.0 / self.sigma_grid[chain[0]], out=E)
                np.exp(E, out=E)
                out[rows, chain[0]] = E @ r
                for k in chain[1:]:
                    np.multiply(E, E, out=E)
                    out[rows, k] = E @ r
        return out.reshape(len(centres), n_groups, n_sigmas)

    def _sample(self) -> np.ndarray:
        n = self.X.shape[0]
        if self.n_sample is None or self.n_sample >= n:
            return np.arange(n)
        return np.sort(self.random_state.choice(n, size=self.n_sample, replace=False))

    def price(self, solution: MasterSolution, master, tol: float) -> Pricing:
        """Propose the column maximising |K'r| over the sampled candidates, or None if it is <= tol.

        The duality gap is reported when every candidate was priced (no sampling)
        and the master defines it (MARK-L: ridge over every candidate column).
        """
        r = solution.pricing_weights
        if self.target_mse is not None and np.mean(r * r) <= self.target_mse:
            return Pricing(None, None, float("nan"), float("nan"), 0, {"stopped_by": "target_mse"})
        centres = self._sample()
        if self.n_attributes == 0 or centres.size == 0:
            return Pricing(None, None, -np.inf, float("nan"), 0)
        scores = self.scores(r, centres)
        fresh = np.ones(scores.shape, dtype=bool)
        if self.chosen and not self.reprice_chosen:
            rows, groups, ks = np.array(list(self.chosen)).T
            pos = np.minimum(np.searchsorted(centres, rows), centres.size - 1)
            hit = centres[pos] == rows
            fresh[pos[hit], groups[hit], ks[hit]] = False
        violation = np.where(fresh, master.violation(scores), -np.inf)
        best = np.unravel_index(int(np.argmax(violation)), violation.shape)
        max_violation = float(violation[best])
        exhaustive = centres.size == self.X.shape[0]
        gap = master.duality_gap(scores[fresh]) if exhaustive else float("nan")
        choice = None
        if max_violation > tol:
            choice = (int(centres[best[0]]), int(best[1]), int(best[2]))
        return Pricing(
            choice=choice,
            column=None if choice is None else self.column(choice),
            max_violation=max_violation,
            duality_gap=gap,
            n_priced=int(scores.size),
        )

    def add(self, choice: tuple[int, int, int]) -> None:
        """Record that candidate (centre, attribute group, grid point) entered the model."""
        self.chosen.add(choice)

    def counts(self) -> dict[str, int]:
        """Distinct columns in the model."""
        return {"n_distinct_columns": len(self.chosen)}
