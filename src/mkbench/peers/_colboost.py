"""colboost's LPBoost (Gurobi) as an estimator that can be cloned and refitted, on any two class labels."""

from __future__ import annotations

import contextlib
import functools
import logging

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..exceptions import SolverError
from ._require import Peer

__all__ = ["LICENCE_LIMIT", "ColboostLPBoostClassifier", "fits_licence"]

_PEER = Peer("colboost (with gurobipy)", "gurobipy", "colboost.ensemble")

#: Gurobi's size-limited pip licence: at most this many variables and this many linear constraints.
LICENCE_LIMIT = 2000


def fits_licence(n_train: int, max_iter: int, limit: int | None = LICENCE_LIMIT) -> bool:
    """Whether colboost's LPBoost LP at most fits a licence of ``limit`` (None: no limit).

    The LP has one variable per learner and per training point (w, xi) and one constraint
    per training point, so it fits while ``n_train + max_iter <= limit``.
    """
    return limit is None or (n_train + max_iter <= limit and n_train <= limit)


@contextlib.contextmanager
def _no_progress_bar(ensemble):
    """colboost's ``fit`` without its tqdm bar (a line per iteration in a job's log otherwise)."""
    trange = ensemble.trange
    ensemble.trange = functools.partial(trange, disable=True)
    try:
        yield
    finally:
        ensemble.trange = trange


class ColboostLPBoostClassifier(ClassifierMixin, BaseEstimator):
    """colboost's LPBoost (``EnsembleClassifier(solver="lp_boost")``) with decision stumps, seeded and refittable.

    colboost solves the soft-margin LP of our :class:`mkbench.LPBoostClassifier` (CGEns
    eq. 4) over the learners chosen so far, with Gurobi::

        min_{w >= 0, xi >= 0}  sum_j w_j + C sum_i xi_i   s.t.  y_i sum_j w_j h_j(x_i) + xi_i >= 1

    with the same slack weight (its ``tradeoff_hyperparam`` is our C) and no offset. Its
    learners are scikit-learn's depth-1 trees, the stumps of ours (plus the constant); it
    prices by fitting the tree to the duals as sample weights (the split of least weighted
    Gini impurity, which need not have the largest edge), rebuilds and re-solves its LP
    from scratch at every iteration (Gurobi, one thread), and stops when the new tree's edge
    is at most the largest edge in the LP (its dual test), which can end above the LP
    optimum over all stumps. Ours adds the stump of largest edge and re-solves warm (HiGHS).

    What the adapter fixes, so that the comparison is the LP's: colboost's plateau stop
    on training accuracy is off (``early_stopping=False``: only its dual test ends a fit
    before ``max_iter``); its trees are seeded (``DecisionTreeClassifier(max_depth=1,
    random_state=random_state)``, cloned per iteration: its default trees are unseeded);
    a new colboost estimator is made at every ``fit`` (colboost's ``fit`` replaces its
    ``solver`` parameter by a solver object, so it can be neither refitted nor cloned);
    the labels are coded -1 / +1 (``classes_[1]`` is +1), as colboost requires. Where
    sum_j w_j h_j(x) = 0 it predicts ``classes_[1]``, as colboost does (ours the other class).

    Gurobi's pip licence solves models of at most 2000 variables and 2000 constraints:
    a fit whose LP could pass ``size_limit`` (``n_train + max_iter > size_limit``) fails at
    once with :class:`mkbench.exceptions.SolverError` (the workflow records it as failed), so
    only problems that fit are run. With a full Gurobi licence set ``size_limit=None``.

    Parameters
    ----------
    C : float, default=1.0
        The slack weight (colboost's ``tradeoff_hyperparam``; our LPBoost's C).
    max_iter : int, default=100
        At most this many learners (one per iteration, as ours).
    random_state : int, default=0
        Seeds the trees and Gurobi.
    size_limit : int or None, default=2000
        The licence's largest number of variables and of constraints (None: no limit).
    time_limit : float, default=60
        Gurobi's time limit per LP solve, in seconds (colboost's default).

    Attributes
    ----------
    model_ : colboost.ensemble.EnsembleClassifier
        The fitted colboost estimator.
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (n_learners,)
        The learners' weights w.
    n_iter_ : int
        Learners in the model (colboost's iterations).
    status_ : {"max_iter", "dual test"}
        What ended the fit: the cap, or colboost's dual test.
    lp_objective_ : float
        sum_j w_j + C sum_i max(0, 1 - y_i sum_j w_j h_j(x_i)) on the training points.
    gurobi_seconds_ : float
        Gurobi's solve time, summed over the iterations.
    """

    def __init__(
        self,
        C: float = 1.0,
        max_iter: int = 100,
        random_state: int = 0,
        size_limit: int | None = LICENCE_LIMIT,
        time_limit: float = 60,
    ) -> None:
        self.C = C
        self.max_iter = max_iter
        self.random_state = random_state
        self.size_limit = size_limit
        self.time_limit = time_limit

    def fit(self, X, y):
        """Fit colboost's LPBoost on (X, y) with at most ``max_iter`` stumps.

        Raises
        ------
        ImportError
            If colboost (or gurobipy) is not installed.
        ValueError
            If y has other than two classes.
        mkbench.exceptions.SolverError
            If the LP could exceed ``size_limit`` variables or constraints.
        """
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(f"colboost's LPBoost is binary; y has {len(self.classes_)} classes")
        if not fits_licence(len(y), int(self.max_iter), self.size_limit):
            raise SolverError(
                f"colboost's LP would have up to {len(y)} + {self.max_iter} variables and {len(y)} constraints, "
                f"beyond the {self.size_limit} of Gurobi's size-limited licence (size_limit=None with a full licence)"
            )
        _, ensemble = _PEER.require()

        for name in ("colboost", "gurobipy"):  # an INFO line per fit otherwise
            logging.getLogger(name).setLevel(logging.WARNING)
        signed = np.where(y == self.classes_[1], 1, -1)
        model = ensemble.EnsembleClassifier(
            solver="lp_boost",
            base_estimator=DecisionTreeClassifier(max_depth=1, random_state=self.random_state),
            max_iter=int(self.max_iter),
            tradeoff_hyperparam=float(self.C),
            early_stopping=False,
            check_dual_const=True,
            gurobi_num_threads=1,
            gurobi_time_limit=self.time_limit,
            seed=self.random_state,
        )
        with _no_progress_bar(ensemble):
            self.model_ = model.fit(X, signed)
        self.coef_ = np.asarray(self.model_.weights if self.model_.learners else [], dtype=float)
        self.n_iter_ = int(self.model_.n_iter_)
        self.status_ = "max_iter" if self.n_iter_ >= self.max_iter else "dual test"
        margins = signed * self.decision_function(X)
        self.lp_objective_ = float(np.sum(self.coef_) + self.C * np.sum(np.maximum(0.0, 1.0 - margins)))
        self.gurobi_seconds_ = float(np.sum(self.model_.solve_times_))
        return self

    def decision_function(self, X) -> np.ndarray:
        """F(x) = sum_j w_j h_j(x), each stump's output -1 or +1."""
        check_is_fitted(self, "model_")
        X = validate_data(self, X, reset=False)
        if not self.model_.learners:  # stopped before its first learner: w = 0
            return np.zeros(X.shape[0])
        return np.asarray(self.coef_ @ np.array([tree.predict(X) for tree in self.model_.learners]), dtype=float)

    def predict(self, X) -> np.ndarray:
        """``classes_[1]`` where F(x) >= 0, else ``classes_[0]`` (colboost's rule)."""
        return self.classes_[(self.decision_function(X) >= 0).astype(int)]
