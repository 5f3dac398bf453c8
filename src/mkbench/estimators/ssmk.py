"""SSMK and IMK: mixtures of kernels from labelled and unlabelled data by generalised LPBoost.

Bi, Fung, Dundar and Rao, "Semi-supervised mixture of kernels via LPBoost methods".
The model f(x) = sum_p sum_j alpha_j^p K_p(x, x_j) + b (eq. 2, with the explicit
offset of §2) has one coefficient per kernel column, centred at every labelled
*and* unlabelled point x_j (eq. 1). Fitting solves LP (9): the 1-norm of
alpha = u - v plus C times the hinge slacks of the labelled rows only, with a free,
unpenalised b. Algorithm 1 solves it by column generation
(:func:`mkbench.cg.column_generation`): the restricted master starts with the
offset column e only, and the column of largest |sum_i beta_i y_i K_ij| (eq. 11)
enters while that value exceeds 1 + tol (Proposition 1). Without unlabelled data
the centres are the labelled points only: the inductive mixture of kernels (IMK)
of the paper's §4, which the paper solved as one full LP (``solve="full"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_array, validate_data
from threadpoolctl import threadpool_limits

from ..cg import CGResult, column_generation
from ..kernels import KernelColumns
from ..masters import LPMaster
from ..oracles import KernelOracle
from ._binary import BinaryClassifierMixin, binary_targets
from ._convergence import warn_unless_optimal
from ._kernel_columns import KERNEL_CONSTRAINTS, KernelExpansion, enter_all
from ._multiclass import PlattMixin
from ._sparse_inputs import refuse_sparse
from ._weights import refuse_sample_weight

__all__ = ["SOLVES", "LP9Fit", "SSMKClassifier", "solve_lp9"]

SOLVES = ("cg", "full")


@dataclass(frozen=True)
class LP9Fit:
    """LP (9) solved over a set of kernel columns.

    Attributes
    ----------
    result : CGResult
        The column-generation record: last restricted solution (alpha, b, slacks,
        duals beta), status and per-iteration history.
    columns : list of (int, int)
        (kernel index, centre index) of every column of the last restricted LP,
        in the order of ``result.solution.alpha``.
    split : tuple of ndarray
        (u, v) with alpha = u - v, u, v >= 0, as solved (eq. 9).
    """

    result: CGResult
    columns: list[tuple[int, int]]
    split: tuple[np.ndarray, np.ndarray]


def solve_lp9(
    columns: KernelColumns,
    y: np.ndarray,
    C: float,
    *,
    solve: str = "cg",
    tol: float = 1e-6,
    max_iter: int = 1000,
    time_limit: float | None = None,
    verbose: int = 0,
) -> LP9Fit:
    """Solve LP (9) over every column of ``columns``, by Algorithm 1 or as one full LP.

    Parameters
    ----------
    columns : KernelColumns
        The candidate columns: rows are the labelled points, centres the labelled
        and unlabelled points (eq. 1, 5).
    y : ndarray of shape (n_labeled,)
        Labels in {-1, +1}.
    C : float
        Weight of the hinge slacks, > 0.
    solve : {"cg", "full"}, default="cg"
        ``"cg"``: Algorithm 1, starting from the offset column e and adding the
        column that solves eq. 11 until tau <= 1 + tol. ``"full"``: every column
        in the LP from the start (the same loop then stops at once, with no column
        left to price).
    tol, max_iter, time_limit, verbose
        As for :func:`mkbench.cg.column_generation` (unused by ``"full"``, but ``verbose``).

    Returns
    -------
    LP9Fit
        Its history rows carry, besides the loop's fields, the size of the
        restricted LP: ``problem_rows`` (labelled points) x ``problem_columns``
        (kernel columns plus e), and ``n_columns``, the kernel columns in it.
    """
    if solve not in SOLVES:
        raise ValueError(f"solve={solve!r} is not one of {', '.join(map(repr, SOLVES))}")
    master = LPMaster(y, C, alpha_sign="free", intercept="free")  # K_0 = e: b is in every restricted LP
    oracle = KernelOracle(columns, strategy="full")  # eq. 11 over every column not yet in the LP
    initial = enter_all(columns, master, oracle) if solve == "full" else []

    def size(solution, choices):
        return {
            "n_columns": master.n_columns,
            "problem_rows": master.n_rows,
            "problem_columns": master.n_columns + 1,
        }

    result = column_generation(
        master, oracle, tol=tol, max_iter=max_iter, time_limit=time_limit, callback=size, verbose=verbose, name="SSMK"
    )
    u, v = master.alpha_parts()
    return LP9Fit(result=result, columns=initial + result.choices, split=(u.copy(), v.copy()))


class SSMKClassifier(PlattMixin, BinaryClassifierMixin, KernelExpansion):
    """Semi-supervised mixture of kernels (SSMK, Algorithm 1), or IMK without unlabelled data.

    Parameters
    ----------
    kernels : str or sequence of kernel specs, default=("linear", "rbf")
        The kernel library {K_p} of eq. 2 ("linear and RBF kernels", §4): names,
        mappings such as ``{"name": "rbf", "sigma": 50.0}`` or Kernel objects, or a
        string such as "L,R". The RBF width defaults to the mean of ||x_i - x_j||^2
        over the centres, i.e. over the labelled and unlabelled points.
    C : float > 0, default=1.0
        Weight of the hinge slacks of the labelled points in LP (9).
    tol : float >= 0, default=1e-6
        Algorithm 1 stops when tau = max_j |sum_i beta_i y_i K_ij| <= 1 + tol (eq. 11).
    max_iter : int >= 0, default=1000
        Most columns to generate, so Algorithm 1 runs at most T = max_iter + 1
        iterations; a ConvergenceWarning is issued when it stops the loop.
    solve : {"cg", "full"}, default="cg"
        Algorithm 1, or the full LP (9) with all P * (l + l_u) columns at once (how
        the paper ran IMK); both reach the same optimal objective.
    time_limit : float, default=None
        Seconds after which no column is generated (a ConvergenceWarning is issued).
    verbose : int, default=0
        Print a line every ``verbose`` columns (objective, largest dual violation,
        columns, seconds) and one when the fit stops; 0: silent.
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values, as SVC does, so
        that ``predict_proba`` exists (5 more fits, each given the same ``X_unlabeled``;
        :class:`mkbench.estimators._multiclass.PlattMixin`).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The labels; ``classes_[1]`` is the positive class (y = +1).
    coef_ : ndarray of shape (n_columns,)
        alpha = u - v of each column of the final restricted LP, in the order the
        columns entered (all P * (l + l_u) columns for ``solve="full"``); some may be 0.
    columns_ : list of (str, int, bool)
        Kernel name, centre index and whether the centre is labelled, per column;
        the index is a row of X when labelled, a row of X_unlabeled otherwise.
    centres_ : ndarray of shape (n_columns, n_features)
        The centre x_j of each column.
    intercept_ : float
        The offset b.
    dual_coef_ : ndarray of shape (n_labeled,)
        beta of the dual LP (10) at the final restricted LP: 0 <= beta_i <= C,
        sum_i beta_i y_i = 0; at the optimum |sum_i beta_i y_i K_ij| <= 1 for
        every column (Proposition 1).
    kernels_ : tuple of Kernel
        The library with data-dependent widths resolved.
    n_labeled_, n_unlabeled_ : int
        l and l_u.
    n_iter_ : int
        Columns that entered LP (9), as for every column-generation estimator of
        the package: generated one per iteration by Algorithm 1, or all of them
        with ``solve="full"``.
    n_lps_ : int
        Restricted LPs solved: the iterations t of Algorithm 1, i.e. the columns
        generated plus 1 (the paper's "34 CG iterations"); 1 for ``solve="full"``.
    status_ : {"optimal", "max_iter", "time_limit"}
    history_ : list of dict
        One row per restricted LP solved (n_lps_ rows): objective of LP (9),
        ``max_violation`` = tau - 1 over the columns not in the LP, the restricted
        LP size ``problem_rows`` x ``problem_columns`` (kernel columns + e),
        columns per kernel, seconds.
    n_columns_by_kernel_ : dict
        Columns with nonzero alpha per kernel.
    n_support_ : int
        Columns with nonzero alpha.

    Notes
    -----
    ``fit`` takes no ``sample_weight``: LP (9)'s master (:class:`mkbench.masters.LPMaster`)
    puts one C on every slack, so a per-point weight of the hinge losses has no place in it
    yet; it raises TypeError, naming the alternatives (repeat the rows of integer weights,
    or :class:`mkbench.SILPClassifier` / :class:`mkbench.SelectedSVC`, which take weights).
    Nor sparse X (the kernel columns are dense): a sparse matrix raises a
    TypeError naming the estimators that take one.

    Examples
    --------
    Fifty labelled points, the rest of the training set unlabelled: every point is a
    candidate centre of the kernel columns, only the labelled ones are rows of LP (9).
    SSMK's kernels take the inputs as given: standardise them first.

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from sklearn.preprocessing import StandardScaler
    >>> from mkbench import SSMKClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> scaler = StandardScaler().fit(X_train)
    >>> X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    >>> clf = SSMKClassifier().fit(X_train[:50], y_train[:50], X_unlabeled=X_train[50:])
    >>> clf.n_labeled_, clf.n_unlabeled_
    (50, 376)
    >>> clf.status_, clf.score(X_test, y_test) > 0.9
    ('optimal', True)

    Columns centred at unlabelled points are in the model:

    >>> any(not labeled for kernel, centre, labeled in clf.columns_)
    True
    """

    #: SSMK's kernels keep the paper's scales and its inputs are used as given (no ``normalize_kernels``,
    #: ``scaling`` parameters, unlike CG-Boost's; on the defaults panel, benchmarks/defaults.py, it fits as well
    #: as SVC() on raw features).
    normalize_kernels = False

    _parameter_constraints: dict = {
        **PlattMixin._parameter_constraints,
        **{name: KERNEL_CONSTRAINTS[name] for name in ("C", "tol", "time_limit", "verbose")},
        # a library string ("L,R"), one kernel spec or a list of them: make_library names an unknown kernel and
        # lists the known ones
        "kernels": [str, dict, list, tuple, callable],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "solve": [StrOptions(set(SOLVES))],
    }

    def __init__(
        self,
        kernels: str | Sequence[Any] = ("linear", "rbf"),
        *,
        C: float = 1.0,
        tol: float = 1e-6,
        max_iter: int = 1000,
        solve: str = "cg",
        time_limit: float | None = None,
        verbose: int = 0,
        probability: bool = False,
    ) -> None:
        self.kernels = kernels
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.solve = solve
        self.time_limit = time_limit
        self.verbose = verbose
        self.probability = probability

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    @threadpool_limits.wrap(
        limits=1, user_api="blas"
    )  # small solves: BLAS threads only contend (see estimators/_docs.py, "One BLAS thread")
    def fit(self, X: np.ndarray, y: np.ndarray, X_unlabeled: np.ndarray | None = None, **fit_params) -> SSMKClassifier:
        """Solve LP (9) on the labelled points, with columns centred at labelled and unlabelled points.

        Parameters
        ----------
        X : array-like of shape (n_labeled, n_features)
            Labelled points (the rows of LP (9)).
        y : array-like of shape (n_labeled,)
            Two classes; the second of ``classes_`` is +1.
        X_unlabeled : array-like of shape (n_unlabeled, n_features), default=None
            Unlabelled points, used only as extra centres of kernel columns (eq. 1).
            None fits IMK.
        **fit_params
            None taken: ``sample_weight`` raises TypeError saying why (see the class).

        Returns
        -------
        self
        """
        refuse_sample_weight(
            self,
            fit_params,
            "LP (9) has one C for every hinge slack (mkbench.masters.LPMaster), no per-point weight; repeat the "
            "rows of integer weights, or use SILPClassifier or SelectedSVC, which take sample_weight",
        )
        refuse_sparse(self, X, "its kernel columns (the RBF's, the inputs' scaling) need dense inputs")
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, signed = binary_targets(
            y,
            more="SSMK (LP 9) separates two classes: for more, wrap it one-vs-rest, "
            "sklearn.multiclass.OneVsRestClassifier(SSMKClassifier()), or use CGBoostClassifier (one-vs-rest built in).",
        )
        centres = X if X_unlabeled is None else np.vstack([X, self._check_unlabeled(X_unlabeled)])
        self.n_labeled_, self.n_unlabeled_ = X.shape[0], centres.shape[0] - X.shape[0]
        self.input_mean_ = self.input_scale_ = None
        columns = KernelColumns(X, self._library(), centres=centres)
        self.kernels_ = columns.kernels
        fit = solve_lp9(
            columns,
            signed,
            self.C,
            solve=self.solve,
            tol=self.tol,
            max_iter=self.max_iter,
            time_limit=self.time_limit,
            verbose=self.verbose,
        )
        self._set_lp9_model(centres, fit)
        warn_unless_optimal(
            self,
            fit.result.status,
            fit.result.n_iter,
            "columns",
            f"tau = {1 + fit.result.history[-1]['max_violation']:.6g} > 1 + tol (tol={self.tol})",
            "raise max_iter or time_limit to reach the optimum of LP (9)",
        )
        self._calibrate(X, y, X_unlabeled=X_unlabeled)
        return self

    def _check_unlabeled(self, X_unlabeled: np.ndarray) -> np.ndarray:
        X_unlabeled = check_array(X_unlabeled, dtype=np.float64, input_name="X_unlabeled")
        if X_unlabeled.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X_unlabeled has {X_unlabeled.shape[1]} features, but X has {self.n_features_in_}; "
                "pass unlabelled points with the same features as X (or None for IMK)"
            )
        return X_unlabeled

    def _set_lp9_model(self, centres: np.ndarray, fit: LP9Fit) -> None:
        solution = fit.result.solution
        kernel_idx = np.array([p for p, _ in fit.columns], dtype=np.intp)
        centre_idx = np.array([j for _, j in fit.columns], dtype=np.intp)
        labelled = centre_idx < self.n_labeled_
        self.coef_ = np.asarray(solution.alpha, dtype=np.float64).copy()
        self.intercept_ = float(solution.intercept)
        self.dual_coef_ = np.asarray(solution.duals, dtype=np.float64).copy()
        self.columns_ = [
            (self.kernels_[p].name, int(j if lab else j - self.n_labeled_), bool(lab))
            for p, j, lab in zip(kernel_idx, centre_idx, labelled, strict=True)
        ]
        self.centres_ = self._centres_seen = centres[centre_idx]
        self._kernel_idx = kernel_idx
        self.n_iter_ = len(fit.columns)
        self.n_lps_ = len(fit.result.history)
        self.status_ = fit.result.status
        self.history_ = fit.result.history

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """f(x) = sum_p sum_j alpha_j^p K_p(x, x_j) + b (eq. 2); positive means ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._expansion(X)
