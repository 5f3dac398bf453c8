"""MARK: Multiple Additive Regression Kernels (Bennett, Momma, Embrechts, KDD 2002).

The model is a heterogeneous kernel expansion f(x) = sum_t alpha_t K_t(x, c_t) + b
(eq. 3), each column K_t with its own centre c_t (a training point), width sigma_t
and, for the weak RBF kernel (eq. 20), attribute a_t. Columns are generated one at
a time by :func:`mkbench.cg.column_generation`:

* the oracle (:class:`KernelColumnSearch`, §4) draws N' candidate centres and, for
  each centre (and each attribute, for weak kernels), searches sigma over a grid
  for the column maximising |K'r| (eq. 16, 17) against the current residual r;
* the master either refits kernel ridge regression on all chosen columns (MARK-L,
  Algorithm 3.1, eq. 9; :class:`mkbench.masters.ridge.RidgeMaster`, incremental
  G'G of eq. 13-15) or fits only the new column and shrinks it by nu (MARK-S,
  Algorithm 3.2; :class:`mkbench.masters.ridge.StagewiseMaster`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data
from threadpoolctl import threadpool_limits

from ..cg import Pricing, column_generation
from ..kernels import RBF, Kernel, WeakRBF, mean_squared_distance
from ..masters import MasterSolution
from ..masters.ridge import RidgeMaster, StagewiseMaster
from ..metrics import mark_storage

__all__ = ["DEFAULT_SIGMA_GRID", "KernelColumnSearch", "MARKRegressor"]

#: Default sigma grid of the 1-D search, as factors of the default width (the mean
#: squared distance of the training points, on the kernel's attribute for weak
#: kernels): 2^-8 ... 2^4 in steps of sqrt(2), 25 widths.
DEFAULT_SIGMA_GRID = 2.0 ** np.arange(-8.0, 4.25, 0.5)

KERNELS = ("rbf", "weak_rbf")
VARIANTS = ("L", "S")

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


class MARKRegressor(RegressorMixin, BaseEstimator):
    """MARK-L / MARK-S: boosting over RBF or weak RBF kernel columns (Bennett, Momma, Embrechts, KDD 2002).

    f(x) = sum_t alpha_t K_t(x, c_t) + b (eq. 3), with columns generated by the
    sigma search of §4 and weights from kernel ridge regression on all chosen
    columns (MARK-L, Algorithm 3.1, eq. 9) or from stagewise least-squares steps
    with shrinkage (MARK-S, Algorithm 3.2). The paper's fixed policy (§5.2) is the
    default: MARK-L, weak RBF kernels, N' = 50, C = 10, T = 100.

    Both algorithms start from b = mean(y) (step 1): MARK-S keeps it, MARK-L
    solves eq. 9 for the centred responses y - mean(y), its penalised b then
    correcting mean(y) (so ``intercept_ = mean(y) + b``). Centring makes the fit
    invariant to a shift of y, as for the paper's normalised data.

    Parameters
    ----------
    variant : {"L", "S"}, default="L"
        MARK-L (Algorithm 3.1) or MARK-S (Algorithm 3.2).
    kernel : {"weak_rbf", "rbf"}, default="weak_rbf"
        Weak RBF kernels on one attribute (eq. 20) or regular RBF kernels (eq. 19),
        k(x, c) = exp(-||x - c||^2 / sigma) as in :mod:`mkbench.kernels`.
    C : float, default=10.0
        Ridge parameter of MARK-L (eq. 8, 9); unused by MARK-S.
    nu : float, default=0.1
        Shrinkage of MARK-S, 0 < nu <= 1; unused by MARK-L.
    max_iter : int, default=100
        T, the most columns generated.
    tol : float, default=1e-8
        Stop when the best candidate has |K'r| <= tol (Algorithm 3.1, 3.2, step 7).
    n_sample : int or None, default=50
        N', the candidate centres drawn at each iteration; None searches all
        training points (exhaustive).
    sigma_grid : array-like of float or None, default=None
        Grid of the 1-D sigma search, as factors of the default width (the mean
        squared distance of the training points, on the attribute for weak
        kernels); None means :data:`DEFAULT_SIGMA_GRID` (2^-8 ... 2^4, ratio sqrt 2).
        Widths whose doubles are on the grid are priced by squaring.
    target_mse : float or None, default=None
        Also stop once the training MSE is <= this value (§5.3: the SVR baseline MSE).
    random_state : int, RandomState or None, default=None
        Seed of the candidate samples.
    callback : callable, default=None
        ``callback(estimator)`` after each iteration, with the current model
        fitted (``predict`` works); a mapping it returns joins that iteration's
        ``history_`` row (e.g. a validation or test MSE, Fig. 1-3).

    Attributes
    ----------
    coef_ : ndarray of shape (n_iter_,)
        alpha_t of each generated column, in the order generated (for MARK-S the
        shrunk weights nu alpha_t of step 13).
    intercept_ : float
        b.
    centers_ : ndarray of shape (n_iter_, n_features)
        The training point c_t each column is centred at.
    center_indices_ : ndarray of shape (n_iter_,)
        Row of c_t in the training data.
    attributes_ : ndarray of shape (n_iter_,) or None
        Attribute a_t of each weak RBF column; None for regular RBF kernels.
    sigmas_ : ndarray of shape (n_iter_,)
        Width sigma_t of each column.
    column_kernels_ : list of Kernel
        The kernel of each column (:class:`mkbench.kernels.RBF` or ``WeakRBF``):
        column t is ``column_kernels_[t](X, centers_[[t]])``.
    n_iter_ : int
        Columns generated (T when ``max_iter`` was reached).
    status_ : {"optimal", "max_iter", "target_mse"}
        Why the fit stopped: no sampled candidate had |K'r| > tol, T columns, or
        the training MSE reached ``target_mse``.
    history_ : list of dict
        One row per iteration t = 0..n_iter_: ``train_mse``, ``objective`` (eq. 8
        for MARK-L, half the residual sum of squares for MARK-S), ``max_violation``
        (best |K'r|), ``duality_gap`` (MARK-L without sampling, a bound on the
        distance to the ridge optimum over every candidate column), ``seconds``,
        plus what the callback returned.
    n_support_ : int
        Distinct columns with a nonzero weight (a column chosen again by MARK-S counts once).
    storage_ : int
        Numbers stored by the model (§5.2): 3 T + 1 for weak RBF columns (centre value,
        sigma, alpha each, and b), T (M + 2) + 1 for regular RBF columns (M centre values).
    """

    _parameter_constraints: dict = {
        "variant": [StrOptions(set(VARIANTS))],
        "kernel": [StrOptions(set(KERNELS))],
        "C": [Interval(Real, 0, None, closed="neither")],
        "nu": [Interval(Real, 0, 1, closed="right")],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "n_sample": [Interval(Integral, 1, None, closed="left"), None],
        "sigma_grid": ["array-like", None],
        "target_mse": [Interval(Real, 0, None, closed="left"), None],
        "random_state": ["random_state"],
        "callback": [callable, None],
    }

    def __init__(
        self,
        variant: str = "L",
        *,
        kernel: str = "weak_rbf",
        C: float = 10.0,
        nu: float = 0.1,
        max_iter: int = 100,
        tol: float = 1e-8,
        n_sample: int | None = 50,
        sigma_grid: Any = None,
        target_mse: float | None = None,
        random_state: int | np.random.RandomState | None = None,
        callback: Callable[[Any], Mapping[str, Any] | None] | None = None,
    ) -> None:
        self.variant = variant
        self.kernel = kernel
        self.C = C
        self.nu = nu
        self.max_iter = max_iter
        self.tol = tol
        self.n_sample = n_sample
        self.sigma_grid = sigma_grid
        self.target_mse = target_mse
        self.random_state = random_state
        self.callback = callback

    def _grid(self) -> np.ndarray:
        if self.sigma_grid is None:
            return DEFAULT_SIGMA_GRID
        grid = np.asarray(self.sigma_grid, dtype=np.float64).reshape(-1)
        if grid.size == 0 or not np.all(np.isfinite(grid) & (grid > 0)):
            raise ValueError(
                f"sigma_grid must be a non-empty list of finite factors > 0 of the default width, "
                f"got {self.sigma_grid!r}"
            )
        return np.unique(grid)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Any, y: Any) -> MARKRegressor:
        """Generate up to T kernel columns and fit their weights (Algorithm 3.1 or 3.2).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        y = y.astype(np.float64)  # string targets fail here, as in scikit-learn's regressors
        search = KernelColumnSearch(
            X, self.kernel, self._grid(), self.n_sample, check_random_state(self.random_state),
            reprice_chosen=self.variant == "S", target_mse=self.target_mse,
        )
        offset = float(y.mean())  # step 1: b = mean(y)
        centred = y - offset
        master = RidgeMaster(centred, self.C) if self.variant == "L" else StagewiseMaster(centred, self.nu)
        path: list[tuple[np.ndarray, float]] = []

        def monitor(solution: MasterSolution, choices: list) -> dict[str, Any]:
            r = solution.pricing_weights
            path.append((solution.alpha.copy(), offset + solution.intercept))
            row = {"train_mse": float(r @ r) / r.size}
            if self.callback is not None:
                self._set_model(X, search, solution, choices, offset)
                row.update(self.callback(self) or {})
            return row

        # The BLAS calls of an iteration are small matrix-vector products (the K'r of
        # eq. 17, K_hat'K_t of eq. 14): BLAS threads only add synchronisation.
        with threadpool_limits(limits=1, user_api="blas"):
            result = column_generation(master, search, tol=self.tol, max_iter=self.max_iter, callback=monitor)
        self._set_model(X, search, result.solution, result.choices, offset)
        self._path = path
        self.n_iter_ = result.n_iter
        self.history_ = result.history
        stopped_by = result.history[-1].get("stopped_by")
        self.status_ = stopped_by if stopped_by is not None else result.status
        return self

    def _set_model(self, X: np.ndarray, search: KernelColumnSearch, solution: MasterSolution,
                   choices: list, offset: float) -> None:
        """The fitted attributes of the model made of ``choices`` with the weights of ``solution``."""
        rows = np.array([n for n, _, _ in choices], dtype=np.intp)
        self.coef_ = np.asarray(solution.alpha, dtype=np.float64).copy()
        self.intercept_ = offset + float(solution.intercept)
        self.column_kernels_ = [search.kernel(group, k) for _, group, k in choices]
        self.centers_ = X[rows]
        self.center_indices_ = rows
        self.sigmas_ = np.array([kernel.sigma for kernel in self.column_kernels_], dtype=np.float64)
        self.attributes_ = (
            None if search.attributes is None
            else np.array([kernel.attribute for kernel in self.column_kernels_], dtype=np.intp)
        )
        weights: dict[tuple[int, int, int], float] = {}
        for choice, coef in zip(choices, self.coef_):
            weights[choice] = weights.get(choice, 0.0) + coef
        self.n_support_ = sum(1 for coef in weights.values() if coef != 0)
        if search.attributes is None:
            self.storage_ = self.n_support_ * (X.shape[1] + 2) + 1
        else:
            self.storage_ = mark_storage(self.n_support_)

    def _columns(self, X: np.ndarray) -> np.ndarray:
        """K_t(X, c_t) for every column t, shape (n_samples, n_iter_)."""
        out = np.empty((X.shape[0], len(self.column_kernels_)))
        for t, kernel in enumerate(self.column_kernels_):
            out[:, t] = kernel(X, self.centers_[t : t + 1])[:, 0]
        return out

    def predict(self, X: Any) -> np.ndarray:
        """f(x) = sum_t alpha_t K_t(x, c_t) + b (eq. 3, 10).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._columns(X) @ self.coef_ + self.intercept_

    def staged_predict(self, X: Any):
        """Predictions of the model after each iteration t = 0..n_iter_ (learning curves, Fig. 1-3).

        For MARK-L the weights of all columns change at every iteration (eq. 9 is
        re-solved); the fit keeps them (O(T^2) numbers).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Yields
        ------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        columns = self._columns(X)
        for alpha, intercept in self._path:
            yield columns[:, : alpha.size] @ alpha + intercept
