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

import math
from time import perf_counter

import numba
import numpy as np

from ..kernels import RBF, WeakRBF, mean_squared_distance
from ..masters import MasterSolution
from .pricing import Pricing

__all__ = ["DEFAULT_SIGMA_GRID", "KERNELS", "KernelColumnSearch"]

#: Default sigma grid of the 1-D search, as factors of the default width (the mean
#: squared distance of the training points, on the kernel's attribute for weak
#: kernels): 2^-8 ... 2^4 in steps of sqrt(2), 25 widths.
DEFAULT_SIGMA_GRID = 2.0 ** np.arange(-8.0, 4.25, 0.5)

KERNELS = ("rbf", "weak_rbf")


# Training points per block of the fused search: the block's distances, column
# values and residuals (3 x 4 KiB) and its inputs stay in L1 while every
# (centre, attribute) row and every width is priced on them.
_BLOCK = 512

# exp(x) = 2^k exp(f), k = round(x / ln 2), f = x - k ln 2 in [-ln 2 / 2, ln 2 / 2]:
# ln 2 split in two (Cody-Waite; k ln2_hi is exact for |k| < 2^11), and exp(f) by
# its Taylor polynomial of degree 13 (remainder < 4e-18 relative).
_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_EXP_TAYLOR = tuple(1.0 / math.factorial(i) for i in range(13, -1, -1))
# Below _EXP_MIN exp(x) leaves the normal range (< 2^-1021) and is taken as 0; a
# pass of 4 squarings takes values below _PASS_MIN as 0, so that no subnormal is
# ever computed (each costs a microcode assist): the values dropped are < 2^-126
# (~1e-38, the first square), against 1 for the centre's own term of each column.
_EXP_MIN = -708.0
_PASS_MIN = 2.0**-63  # (2^-63)^16 = 2^-1008, still normal


@numba.njit(cache=True, nogil=True)
def _exp_parts(x):  # pragma: no cover - compiled
    """exp(x) for _EXP_MIN <= x <= 0 as (exp(f), k + 1023 shifted to a float64's exponent bits).

    The caller multiplies exp(f) by the float64 whose bits are the second value,
    2^k. Loops calling it vectorise, where ``np.exp`` is a scalar call (no SVML).
    Compiled on its own it is within an ulp of ``np.exp``; numba compiles it with
    the flags of :func:`_chain_scores` when that call compiles it first (and may
    cache that build for direct calls too), and reassociation then merges the two
    parts of ln 2: the relative error grows with |k| to 2.4e-14 at x = -708 (5e-15
    at |x| < 30), far below what the search's argmax and its tests need.
    """
    k = np.rint(x * _LOG2E)
    f = (x - k * _LN2_HI) - k * _LN2_LO
    p = _EXP_TAYLOR[0]
    for c in _EXP_TAYLOR[1:]:
        p = p * f + c
    return p, (np.int64(k) + 1023) << 52


@numba.njit(cache=True, nogil=True, fastmath={"reassoc", "contract", "nsz"})
def _chain_scores(XT, features, centres, slopes, chains, starts, r, out):  # pragma: no cover - compiled
    """out[c, g, k] = sum_i exp(slopes[g, k] ||x_i - x_c||^2_g) r_i: eq. 17 for every candidate.

    Blocks of ``_BLOCK`` training points are taken in turn; on each, for every
    centre c and attribute group g, the squared distances over the group's
    features (rows ``features[g]:features[g + 1]`` of ``XT``) are computed once,
    then every width is priced on them: chain by chain (``chains[starts[h]:starts[h + 1]]``,
    grid indices sigma, sigma/2, sigma/4, ...), one exponential for the first
    width and a squaring for each further one, each width's column block dotted
    with the block of r. The squarings go four widths per pass over the block,
    the value of each point and the four sums held in registers. The
    reassociated sums (fastmath) are what let the dot products vectorise; the
    flags reach the inlined exponential too (:func:`_exp_parts` says what that costs).

    Parameters
    ----------
    XT : ndarray of shape (n_features, n_samples)
        The training inputs, one feature per contiguous row.
    features : ndarray of int of shape (n_groups + 1,)
        Feature rows of each group: all of them for the RBF kernel, one for each weak kernel.
    centres : ndarray of int
        Columns of ``XT`` that are the candidate centres.
    slopes : ndarray of shape (n_groups, n_sigmas)
        -1 / sigma for the absolute sigma of each (group, grid point); given, as
        a division in the loop would be (reassociation turns a * d back into -d / sigma).
    chains, starts : ndarray of int
        The grid indices chain after chain, and where each chain starts (and the end).
    r : ndarray of shape (n_samples,)
    out : ndarray of shape (len(centres), n_groups, n_sigmas)
        Filled with the scores.
    """
    n = XT.shape[1]
    n_groups = slopes.shape[0]
    out[:] = 0.0
    d = np.empty(_BLOCK)
    e = np.empty(_BLOCK)
    bits = np.empty(_BLOCK, dtype=np.int64)
    scale = bits.view(np.float64)
    for start in range(0, n, _BLOCK):
        m = min(_BLOCK, n - start)
        rb = r[start : start + m]
        for c in range(centres.size):
            centre = centres[c]
            for g in range(n_groups):
                d[:m] = 0.0
                for j in range(features[g], features[g + 1]):
                    xj = XT[j, start : start + m]
                    v = XT[j, centre]
                    for i in range(m):
                        t = xj[i] - v
                        d[i] += t * t
                for h in range(starts.size - 1):
                    k = chains[starts[h]]
                    a = slopes[g, k]
                    for i in range(m):
                        x = a * d[i]
                        p, b = _exp_parts(max(x, _EXP_MIN))
                        e[i] = p if x >= _EXP_MIN else 0.0
                        bits[i] = b
                    acc = 0.0
                    for i in range(m):
                        v = e[i] * scale[i]
                        e[i] = v
                        acc += v * rb[i]
                    out[c, g, k] += acc
                    for q in range(starts[h] + 1, starts[h + 1], 4):  # 4 widths per pass, in registers
                        a0 = a1 = a2 = a3 = 0.0
                        for i in range(m):
                            v = e[i] if e[i] >= _PASS_MIN else 0.0
                            w = rb[i]
                            v = v * v
                            a0 += v * w
                            v = v * v
                            a1 += v * w
                            v = v * v
                            a2 += v * w
                            v = v * v
                            a3 += v * w
                            e[i] = v
                        last = starts[h + 1] - q  # a pass past the chain's end prices nothing more
                        out[c, g, chains[q]] += a0
                        if last > 1:
                            out[c, g, chains[q + 1]] += a1
                        if last > 2:
                            out[c, g, chains[q + 2]] += a2
                        if last > 3:
                            out[c, g, chains[q + 3]] += a3


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
    points when ``n_candidates`` is None: the exhaustive search). Every candidate
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
    n_candidates : int or None
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
        n_candidates: int | None,
        random_state: np.random.RandomState,
        *,
        reprice_chosen: bool = False,
        target_mse: float | None = None,
    ) -> None:
        if kernel not in KERNELS:
            raise ValueError(f"kernel={kernel!r} is not one of {', '.join(map(repr, KERNELS))}")
        self.X = np.ascontiguousarray(X, dtype=np.float64)
        self.sigma_grid = np.asarray(sigma_grid, dtype=np.float64)
        self.n_candidates = n_candidates
        self.random_state = random_state
        self.reprice_chosen = reprice_chosen
        self.target_mse = target_mse
        self.attributes: np.ndarray | None  # the weak RBF's usable attributes; None for the RBF
        if kernel == "weak_rbf":
            spread = np.array([mean_squared_distance(self.X[:, [j]]) for j in range(self.X.shape[1])])
            self.attributes = np.flatnonzero(spread > 0)
            self._default_widths = spread[self.attributes]
            self._XT = np.ascontiguousarray(self.X[:, self.attributes].T)
            self._features = np.arange(self.attributes.size + 1)  # group g: the g-th usable attribute
        else:
            spread = np.array([mean_squared_distance(self.X)])
            self.attributes = None
            self._default_widths = spread[spread > 0]
            self._XT = np.ascontiguousarray(self.X.T)
            self._features = np.array([0, self.X.shape[1]])  # one group: every feature
        self.widths = self._default_widths[:, None] * self.sigma_grid[None, :]
        self._slopes = -1.0 / self.widths
        chains = _sigma_chains(self.sigma_grid)
        self._chains = np.array([k for chain in chains for k in chain], dtype=np.intp)
        self._chain_starts = np.cumsum([0] + [len(chain) for chain in chains], dtype=np.intp)
        self.chosen: set[tuple[int, int, int]] = set()
        # the chosen (centre, group, k) as the columns of an array grown by doubling, for price's mask
        self._chosen_array = np.empty((3, 16), dtype=np.intp)

    @property
    def n_attributes(self) -> int:
        """Attribute groups of candidates: the usable attributes, or 1 for the RBF kernel."""
        return self.widths.shape[0]

    def kernel(self, group: int, k: int) -> RBF | WeakRBF:
        """The kernel of candidate (attribute group, grid point k), as a :mod:`mkbench.kernels` object."""
        sigma = float(self.widths[group, k])
        if self.attributes is None:
            return RBF(sigma)
        return WeakRBF(int(self.attributes[group]), sigma)

    def column(self, choice: tuple[int, int, int]) -> np.ndarray:
        """The training column K(X, x_n) of a candidate (n, group, k), computed by its kernel."""
        n, group, k = choice
        return self.kernel(group, k)(self.X, self.X[[n]])[:, 0]

    def scores(self, r: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """K'r for every candidate (centre, attribute, sigma) at once: eq. 17, in one fused pass.

        The training points are taken in cache-sized blocks; on each block, for
        every (centre, attribute) the squared distances are computed once (by
        differences, exact) and every sigma of the grid is priced on them, one
        exponential per chain sigma, sigma/2, ... and a squaring for each further
        width (:func:`_sigma_chains`, :func:`_chain_scores`). float64 throughout.

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
        out = np.empty((len(centres), *self.widths.shape))
        _chain_scores(
            self._XT,
            self._features,
            np.asarray(centres, dtype=np.intp),
            self._slopes,
            self._chains,
            self._chain_starts,
            np.ascontiguousarray(r, dtype=np.float64),
            out,
        )
        return out

    def _sample(self) -> np.ndarray:
        n = self.X.shape[0]
        if self.n_candidates is None or self.n_candidates >= n:
            return np.arange(n)
        return np.sort(self.random_state.choice(n, size=self.n_candidates, replace=False))

    def price(self, solution: MasterSolution, master, tol: float) -> Pricing:
        """Propose the column maximising |K'r| over the sampled candidates, or None if it is <= tol.

        The duality gap is reported when every candidate was priced (no sampling)
        and the master defines it (MARK-L: ridge over every candidate column). The
        step's seconds (sampling, the sigma search, the chosen column's values) are
        the stat ``pricing_seconds`` of its history row, beside the master's ``master_seconds``.
        """
        start = perf_counter()
        r = solution.pricing_weights
        if self.target_mse is not None and np.mean(r * r) <= self.target_mse:
            stats = {"stopped_by": "target_mse", "pricing_seconds": perf_counter() - start}
            return Pricing(None, None, float("nan"), float("nan"), 0, stats)
        centres = self._sample()
        if self.n_attributes == 0 or centres.size == 0:
            return Pricing(None, None, -np.inf, float("nan"), 0, {"pricing_seconds": perf_counter() - start})
        scores = self.scores(r, centres)
        fresh = np.ones(scores.shape, dtype=bool)
        if self.chosen and not self.reprice_chosen:
            rows, groups, ks = self._chosen_array[:, : len(self.chosen)]
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
        column = None if choice is None else self.column(choice)
        return Pricing(
            choice=choice,
            column=column,
            max_violation=max_violation,
            duality_gap=gap,
            n_priced=int(scores.size),
            stats={"pricing_seconds": perf_counter() - start},
        )

    def add(self, choice: tuple[int, int, int]) -> None:
        """Record that candidate (centre, attribute group, grid point) entered the model."""
        if choice in self.chosen:  # MARK-S may step along a column again
            return
        n = len(self.chosen)
        if n == self._chosen_array.shape[1]:
            self._chosen_array = np.concatenate([self._chosen_array, np.empty_like(self._chosen_array)], axis=1)
        self._chosen_array[:, n] = choice
        self.chosen.add(choice)

    def counts(self) -> dict[str, int]:
        """Distinct columns in the model."""
        return {"n_distinct_columns": len(self.chosen)}
