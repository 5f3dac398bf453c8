"""LPBoost over weak learners (Demiriz, Bennett & Shawe-Taylor 2002), the fully-corrective baseline of CGEns.

The model is F(x) = sum_j w_j h_j(x) with w >= 0, the solution of the 1-norm LP
(Shen & Liu eq. 4) over every weak learner. Column generation adds the learner
that most violates the dual constraint sum_i y_i u_i h(x_i) <= 1 (eq. 5, 6),
with the LP restricted to the chosen learners solved by HiGHS
(:class:`mkbench.masters.LPMaster`, warm-started after each added column; the
paper used Mosek on the dual). The families are negation complete, so w >= 0
loses nothing, and for stumps the constant learner +-1 is a candidate in place
of an offset (eq. 4 has none).

A preset of :class:`mkbench.ColumnGenerationClassifier`, which fits it: the engine over
weak learners with the 1-norm LP and no offset, two classes.
"""

from __future__ import annotations

from sklearn.utils._param_validation import StrOptions

from . import _docs
from ._learner_columns import LEARNER_CONSTRAINTS, LearnerEnsemble
from .column_generation import ColumnGenerationClassifier

__all__ = ["LPBoostClassifier"]


# the ignore: estimators_ is LearnerEnsemble's property raising AttributeError (two classes only, no
# one-vs-rest models) over the engine's attribute, on purpose; mypy sees a read-only override of a settable one
class LPBoostClassifier(LearnerEnsemble, ColumnGenerationClassifier):  # type: ignore[misc]
    __doc__ = (
        """LPBoost: the 1-norm soft-margin LP (eq. 4) over weak learners, by column generation.

    X may be a scipy sparse matrix (any format; ``fit``, ``predict``, ``decision_function``,
    ``predict_proba``, ``staged_*``), never densified: stumps are binned from its stored
    entries or searched exactly by :class:`mkbench.learners.SparseStumps` (``max_bins``),
    perceptrons and Fourier features take the sparse product X theta; the model is the one
    of X densified.

    Parameters
    ----------"""
        + _docs.LEARNER
        + """
    tol : float, default=1e-6
        Stop when no learner has sum_i y_i u_i h(x_i) > 1 + tol (eq. 5, 6).
    solver : {"dual", "primal"}, default="dual"
        HiGHS' route through the restricted LP: its dual (eq. 5; a learner is a new
        row, and the dual simplex restarts from the last basis, as the paper's Mosek
        ran it) or its primal (:class:`mkbench.masters.LPMaster`). The same optimum;
        the dual route re-solved 8.7x faster on LPBoost's own columns (stumps, MNIST
        n = 2000, 60 columns; ``benchmarks/lp_routes.py``)."""
        + _docs.LEARNER_REST.replace("Offset b.", "Always 0: eq. 4 has no offset (the constant stump plays it).")
        + """
    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import LPBoostClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = LPBoostClassifier("stump", C=1.0, max_iter=100).fit(X_train, y_train)
    >>> clf.score(X_test, y_test) > 0.9
    True
    >>> bool((clf.coef_ >= 0).all()), clf.intercept_  # w >= 0 and no offset (eq. 4)
    (True, 0.0)
    """
    )

    _parameter_constraints: dict = {
        **LEARNER_CONSTRAINTS,
        "solver": [StrOptions({"dual", "primal"})],
        "probability": ["boolean"],
    }
    # eq. 4: the 1-norm LP with no offset (the constant stump plays it; the engine offers it to the LP without one)
    penalty = "l1"
    fit_intercept = False

    def __init__(
        self,
        learner: str = "stump",
        *,
        C: float = 1.0,
        max_iter: int = 100,
        time_limit: float | None = None,
        tol: float = 1e-6,
        solver: str = "dual",
        n_candidates: int = 2000,
        gamma: float | None = None,
        random_state=None,
        max_bins: int | None = 255,
        probability: bool = False,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        super().__init__(
            learner,
            C=C,
            max_iter=max_iter,
            time_limit=time_limit,
            tol=tol,
            n_candidates=n_candidates,
            gamma=gamma,
            random_state=random_state,
            max_bins=max_bins,
            n_jobs=n_jobs,
            verbose=verbose,
        )
        self.solver = solver
        self.probability = probability
