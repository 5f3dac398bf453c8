"""What every restricted master returns, and the checks and failure report they share."""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real
from typing import overload

import numpy as np
from scipy.linalg.blas import dgemm

from ..exceptions import SolverError

OPTIMAL = "optimal"
ALPHA_SIGNS = ("nonneg", "free")
INTERCEPTS = ("none", "free", "regularized")
ON_FAILURE = ("raise", "record")


@dataclass(frozen=True)
class MasterSolution:
    """Primal-dual solution of a restricted master problem.

    Constraint-indexed arrays (``xi``, ``duals``) have one entry per margin
    constraint: n for the hinge masters (cgboost eq. 4, 7, 11; SSMK eq. 9) and 2n
    for epsilon-insensitive regression (eq. 13), laid out as [xi; eta] and [u; v].

    Attributes
    ----------
    alpha : ndarray of shape (n_columns,)
        Coefficients of the master's columns, in the order they were added
        (alpha = u - v for the free-sign LP of SSMK eq. 9).
    intercept : float
        Offset b; 0 when the master has none.
    xi : ndarray of shape (n_constraints,)
        Slacks of the margin constraints.
    duals : ndarray of shape (n_constraints,)
        Lagrange multipliers u >= 0 of the margin constraints in the papers'
        convention: L = objective - sum_i u_i (margin_i + xi_i - rhs_i), so
        0 <= u_i <= C_i (C, or one per sample), u_i = C_i where xi_i > 0 and u_i = 0
        where the margin constraint is slack (the dual variables u of cgboost eq. 5 and 9, beta of
        SSMK eq. 10; [u; v] of eq. 13).
    pricing_weights : ndarray of shape (n_rows,)
        w with score_j = K_.j' w for any candidate column K_.j: y * u for the
        hinge masters (eq. 6, 10, 12), u - v for regression (eq. 14).
    objective : float
        Primal objective of the restricted master.
    status : str
        ``"optimal"``, or the solver's own status text when it stopped otherwise
        (then every number above is NaN; see ``on_failure`` of the masters).
    iterations : int
        Solver iterations of this solve (simplex or ADMM).
    seconds : float
        Wall-clock time of this solve, including any solver setup.
    """

    alpha: np.ndarray
    intercept: float
    xi: np.ndarray
    duals: np.ndarray
    pricing_weights: np.ndarray
    objective: float
    status: str
    iterations: int
    seconds: float

    @property
    def optimal(self) -> bool:
        """Whether the solver reported an optimal solution."""
        return self.status == OPTIMAL

    def error_points(self, tol: float = 1e-9) -> np.ndarray:
        """Indices of the data rows with a slack above ``tol`` (the "error points" of cgboost §5)."""
        n = self.pricing_weights.shape[0]
        return np.flatnonzero(self.xi.reshape(-1, n).max(axis=0) > tol)


def dual_violation(scores: np.ndarray, *, free_sign: bool, threshold: float) -> np.ndarray:
    """How much each candidate column violates the dual constraint of the master; <= 0 when satisfied.

    For alpha >= 0 the dual constraint of column j is score_j <= threshold (eq. 5,
    9; Theorem 3.1); for free alpha it is |score_j| <= threshold (SSMK eq. 10;
    cgboost eq. 12, 14). The threshold is 1 for the 1-norm LPs and 0 for the 2-norm
    QPs, whose dual constraint reads score_j <= alpha_j = 0 for a column not in the master.
    """
    scores = np.asarray(scores)
    return (np.abs(scores) if free_sign else scores) - threshold


def qp_duality_gap(scores: np.ndarray, *, free_sign: bool) -> float:
    """Primal minus dual objective of a full 2-norm master at the restricted optimum (cgboost Prop. 4.1).

    ``scores`` are those of every column not in the restricted master. With free
    alpha the gap is 1/2 sum_{j in N} score_j^2 (Proposition 4.1; eq. 13 alike);
    with alpha >= 0 the same argument, minimising the Lagrangian over
    alpha_j >= 0, gives 1/2 sum_{j in N} max(score_j, 0)^2.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if not free_sign:
        scores = np.maximum(scores, 0.0)
    return 0.5 * float(scores @ scores)


class FreeSignQPPricing:
    """Pricing of a 2-norm master with free-sign alpha and score threshold 0 (cgboost eq. 12, 14; CGEns eq. 8).

    Shared by the masters that solve it in the dual (libsvm, dual coordinate
    descent); they set ``y``.
    """

    score_threshold = 0.0
    alpha_sign = "free"
    y: np.ndarray

    @property
    def n_rows(self) -> int:
        return self.y.shape[0]

    def violation(self, scores: np.ndarray) -> np.ndarray:
        """|score_j| of columns not in the master; > 0 means the column would enter."""
        return dual_violation(scores, free_sign=True, threshold=self.score_threshold)

    def duality_gap(self, scores: np.ndarray) -> float:
        """1/2 sum over the columns not in the master of score_j^2 (cgboost Prop. 4.1, CGEns Claim IV.1)."""
        return qp_duality_gap(scores, free_sign=True)


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise ValueError naming both."""
    if value not in choices:
        raise ValueError(f"{name}={value!r} is not one of {', '.join(map(repr, choices))}")
    return value


@overload
def check_C(C: float, n_rows: None = None) -> float: ...
@overload
def check_C(C: float | np.ndarray, n_rows: int | None = None) -> float | np.ndarray: ...
def check_C(C: float | np.ndarray, n_rows: int | None = None) -> float | np.ndarray:
    """Return the slack weight C: a float if C is a finite number > 0, else the per-sample weights C_i.

    Parameters
    ----------
    C : float or array-like of shape (n_rows,)
        One weight for every slack, or one per sample, C_i = C w_i for sample
        weights w (scikit-learn's ``sample_weight``, which libsvm reads as a
        per-sample C); C_i = 0 leaves sample i out of the loss.
    n_rows : int or None, default=None
        The number of samples; None accepts a number only.

    Returns
    -------
    float or ndarray of shape (n_rows,)
        A new float64 array for array input (see :func:`check_per_sample`).

    Raises
    ------
    ValueError
        For a number that is not finite and > 0 (0, a negative number, inf, nan), anything
        that is neither a number nor an array (a string such as ``"1"``, None, a bool), naming
        the value and its type; for an array, as :func:`check_per_sample` says.
    """
    if n_rows is not None and np.ndim(C) > 0:
        return check_per_sample(C, n_rows, "C")
    if isinstance(C, bool) or not isinstance(C, Real):
        raise ValueError(f"C must be a finite number > 0, got {C!r} (a {type(C).__name__}); pass e.g. C=1.0")
    if not np.isfinite(C) or C <= 0:
        raise ValueError(f"C must be a finite number > 0, got {C!r}")
    return float(C)


def check_per_sample(values: object, n_rows: int, name: str) -> np.ndarray:
    """Return per-sample weights as a new float64 array if they are finite, >= 0 and not all 0.

    Parameters
    ----------
    values : array-like of shape (n_rows,)
    n_rows : int
    name : str
        What the weights are called in the messages (``"C"``, ``"sample_weight"``).

    Raises
    ------
    ValueError
        Naming the problem: the shape, a dtype that is not real numbers (bools included),
        NaN or infinite entries, negative entries (the first one's index and value), or
        every entry 0.
    """
    array = np.asarray(values)
    if array.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold real numbers, one per sample; got an array of dtype {array.dtype}")
    if array.shape != (n_rows,):
        raise ValueError(
            f"{name} must be a number > 0 or an array of shape ({n_rows},), one weight >= 0 per sample; "
            f"got an array of shape {array.shape}"
        )
    array = np.array(array, dtype=np.float64)
    for bad, what in ((~np.isfinite(array), "NaN or infinite"), (array < 0, "negative")):
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{name} has {int(bad.sum())} {what} entries (the first {name}[{first}] = {float(array[first])!r}); "
                "per-sample weights must be finite and >= 0 (0 leaves the sample out)"
            )
    if not array.any():
        raise ValueError(f"{name} is 0 for every sample: at least one weight must be > 0")
    return array


def per_sample(C: float | np.ndarray, n_rows: int) -> np.ndarray:
    """C_i for every sample: the array itself, or C repeated (the same floats as the scalar)."""
    return C if isinstance(C, np.ndarray) else np.full(n_rows, C)


def check_labels(y: np.ndarray) -> np.ndarray:
    """Return class labels y as a float vector if every entry is -1 or +1."""
    y = np.asarray(y, dtype=np.float64).reshape(-1)
    bad = np.setdiff1d(y, [-1.0, 1.0])
    if bad.size:
        raise ValueError(f"hinge masters need labels in {{-1, +1}}, got also {bad[:5].tolist()}")
    return y


def check_responses(y: np.ndarray) -> np.ndarray:
    """Return regression responses as a float vector if every entry is finite."""
    y = np.asarray(y, dtype=np.float64).reshape(-1)
    if not np.all(np.isfinite(y)):
        raise ValueError("regression responses y contain NaN or infinite values")
    return y


def check_epsilon(epsilon: float) -> float:
    """Return the width of the insensitive tube as a float if it is >= 0."""
    if not epsilon >= 0:
        raise ValueError(f"epsilon must be >= 0, got {epsilon!r}")
    return float(epsilon)


#: The most memory :class:`ColumnStore` reserves up front (1 GiB).
RESERVE_BYTES = 2**30


class ColumnStore:
    """The restricted master's columns, appended in amortised O(1) time.

    Column generation adds one column per iteration; ``np.hstack`` would copy all
    k earlier columns each time (O(k^2 n) over a run). The columns are kept in a
    buffer whose capacity doubles when full, and :attr:`array` is an (n_rows, k)
    view of the filled part, without a copy.

    Parameters
    ----------
    n_rows : int
    contiguous : {"columns", "rows"}, default="columns"
        What is contiguous in memory: each column (for BLAS on K_W' w), or each
        row (for the coordinate descent of :mod:`.svm_cd`, which visits the points
        one at a time).
    capacity : int, default=16
        Columns to reserve at first, when the caller knows how many may come (at
        most :data:`RESERVE_BYTES`): a buffer grown by doubling touches twice the
        memory it ends with and copies it, each fresh page costing a fault, while
        reserved pages never written cost nothing (760 appends at N = 20784, on a
        busy machine: 0.25-0.9 s grown from 16 columns, 0.03-0.4 s reserved).
    """

    def __init__(self, n_rows: int, contiguous: str = "columns", capacity: int = 16) -> None:
        self._n_rows = n_rows
        self._by_row = check_choice("contiguous", contiguous, ("columns", "rows")) == "rows"
        self._buffer = self._empty(max(16, min(capacity, RESERVE_BYTES // (8 * max(n_rows, 1)))))
        self._k = 0

    def _empty(self, capacity: int) -> np.ndarray:
        return np.empty((self._n_rows, capacity) if self._by_row else (capacity, self._n_rows))

    def _full(self, buffer: np.ndarray) -> np.ndarray:
        """``buffer`` as an (n_rows, capacity) view."""
        return buffer if self._by_row else buffer.T

    def __len__(self) -> int:
        return self._k

    @property
    def array(self) -> np.ndarray:
        """The columns as an (n_rows, k) view; valid until the next :meth:`append`."""
        return self._full(self._buffer)[:, : self._k]

    def keep(self, mask: np.ndarray) -> np.ndarray:
        """Keep the columns where the boolean ``mask`` (length k) is True, in place; return their old indices.

        Each dropped column takes the last column's place (O(n_rows) per column dropped,
        where a compacting copy would move every column after it), so the order changes:
        column i afterwards is column ``order[i]`` before.
        """
        full, k = self._full(self._buffer), self._k
        order = np.arange(k)
        for j in np.flatnonzero(~np.asarray(mask, dtype=bool))[::-1]:  # from the end: the last column is kept
            k -= 1
            if j != k:
                full[:, j] = full[:, k]
                order[j] = order[k]
        self._k = k
        return order[:k]

    def append(self, K: np.ndarray) -> None:
        """Append the columns of the (n_rows, m) array ``K``."""
        end = self._k + K.shape[1]
        capacity = self._full(self._buffer).shape[1]
        if end > capacity:
            grown = self._empty(max(end, 2 * capacity))
            filled = np.s_[:, : self._k] if self._by_row else np.s_[: self._k]  # in memory order
            grown[filled] = self._buffer[filled]
            self._buffer = grown
        self._full(self._buffer)[:, self._k : end] = K
        self._k = end


def as_column_block(K: np.ndarray, n_rows: int) -> np.ndarray:
    """Return candidate columns as a float (n_rows, k) array; a single column may be 1-D."""
    K = np.asarray(K, dtype=np.float64)
    if K.ndim == 1:
        K = K[:, None]
    if K.ndim != 2 or K.shape[0] != n_rows:
        raise ValueError(f"columns must have shape ({n_rows}, k), got {K.shape}")
    if not np.all(np.isfinite(K)):
        bad = int(np.flatnonzero(~np.isfinite(K).all(axis=0))[0])
        raise ValueError(
            f"columns contain NaN or infinite values (column {bad} of {K.shape[1]}): a kernel overflows on "
            "inputs this large (x'z or ||x - z||^2 beyond 1e308); standardise X, e.g. with "
            "sklearn.preprocessing.StandardScaler"
        )
    return K


def add_outer(G: np.ndarray, K: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """Return the symmetric ``G + scale K K'``, computed in G's memory when BLAS can.

    One BLAS ``dgemm`` with ``beta = 1`` on ``G.T`` (Fortran order, equal to G as G is
    symmetric) instead of ``G += scale * K @ K.T``, which builds n x n temporaries: ~9x
    faster at n = 4000 (the CGEns master adds one column per iteration). The result is returned, so a
    BLAS that copies instead still gives the right matrix.
    """
    return dgemm(scale, K, K, beta=1.0, c=G.T, trans_b=True, overwrite_c=True).T


#: What to change when an interior-point or simplex master fails.
SCALE_REMEDY = "Scale the inputs (e.g. sklearn.preprocessing.StandardScaler) or lower C."

#: What to change when a first-order or decomposition master (SMO, dual CD, ADMM) fails.
SOLVER_REMEDY = (
    "Use solver='clarabel' (an interior point: it reaches the optimum where SMO, coordinate descent "
    "and ADMM stall, e.g. on kernel columns of very different scales), or scale the inputs."
)


def failure(
    *,
    solver: str,
    problem: str,
    status: str,
    n_rows: int,
    n_columns: int,
    n_constraints: int,
    iterations: int,
    seconds: float,
    on_failure: str,
    remedy: str = SCALE_REMEDY,
) -> MasterSolution:
    """Report a solve that did not end optimal: raise SolverError, or return a NaN record.

    Raises
    ------
    SolverError
        When ``on_failure == "raise"``; the message names the status, the problem size
        and ``remedy``, what the user can change.
    """
    if on_failure == "raise":
        raise SolverError(
            f"{solver} stopped with status {status!r} on the restricted {problem} "
            f"({n_rows} data rows, {n_columns} columns) after {iterations} iterations; "
            f"its solution was not used. {remedy}"
        )

    def nan(size: int) -> np.ndarray:
        return np.full(size, np.nan)

    return MasterSolution(
        alpha=nan(n_columns),
        intercept=float("nan"),
        xi=nan(n_constraints),
        duals=nan(n_constraints),
        pricing_weights=nan(n_rows),
        objective=float("nan"),
        status=status,
        iterations=iterations,
        seconds=seconds,
    )
