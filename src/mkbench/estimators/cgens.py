"""CGEns: an ensemble of weak learners that solves the SVM problem by column generation (Shen & Liu, Alg. 1).

A preset of :class:`mkbench.ColumnGenerationClassifier`, which fits it: the engine over
weak learners (:mod:`._learner_columns`) with the 2-norm master, the paper's parameter
names and defaults, and two classes (CGEns-SLS, :mod:`.cgens_sls`, is the multi-class one).

The model is F(x) = sum_j w_j h_j(x) + b (Algorithm 1, output), the linear SVM
(1) over the feature map Phi(x) = [h_1(x), ..., h_J(x)] of all weak learners
(eq. 3). Column generation adds the learner with the largest
|sum_i y_i alpha_i h(x_i)| (eq. 8), which most reduces the duality gap
(Claim IV.1), until that score is below ``tol``; each restricted master is the
SVM (1) on the chosen learners' outputs.

Restricted master
-----------------
The paper solves it with liblinear (§IV, §VI "Computation efficiency"), which
penalises the offset b through a constant feature (scikit-learn's
``intercept_scaling``). Two masters are offered (``solver``):

* ``"dual_cd"`` (default): :class:`mkbench.masters.LinearSVMCDMaster`,
  liblinear's dual coordinate descent with liblinear's offset, warm-started from
  the previous alpha: adding a learner leaves the dual's feasible set unchanged, so
  each master takes a few passes over the points. scikit-learn's ``LinearSVC``
  cannot serve, as it neither starts from nor returns alpha, which prices the next
  learner (eq. 8). With ``fit_intercept=True`` the offset is free, the SVM (1) as
  written: the equality y'alpha = 0 of its dual (2) by the method of multipliers
  (:class:`mkbench.masters.FreeOffsetSVMCDMaster`), still warm-started. At large
  C coordinate descent needs thousands of passes per master; past 50 passes a
  master turns to Newton's method on the Huber-smoothed primal over the k learner
  weights (:mod:`mkbench.masters.svm_newton`), accepted only where its dual point
  meets the same stopping criterion.
* ``"libsvm"``: the SVM (1) with a free offset, as the dual (2) solved by
  libsvm (:class:`mkbench.masters.SVMDualMaster`, ``SVC(kernel="precomputed")`` on
  G = H H', one rank-one update per learner). libsvm cannot be warm-started and G
  costs n^2 floats (0.8 GB at n = 10^4; n = 60 000 of Fig. 2 is out of reach).

Measured on MNIST odd/even with stumps: 0.26 s for "dual_cd" against 0.69 s for
"libsvm" over 100 stumps at n = 1000, C = 0.001 (benchmarks/cgens_speed.py, the same
run); over 500 stumps at n = 10^4, 18-20 s against about 240 s for "libsvm" (an
earlier run, at the same C).

The paper initialises alpha to a constant; here the loop starts from the exact
restricted SVM with no learner (the offset b alone), whose alpha price the
first learner.
"""

from __future__ import annotations

from numbers import Real

from sklearn.utils._param_validation import Interval, Options, StrOptions

from . import _docs
from ._learner_columns import LEARNER_CONSTRAINTS, LOOSE_TOL, LearnerEnsemble
from .column_generation import ColumnGenerationClassifier

__all__ = ["CGEnsClassifier"]


# the ignore: estimators_ is LearnerEnsemble's property raising AttributeError (two classes only, no
# one-vs-rest models) over the engine's attribute, on purpose; mypy sees a read-only override of a settable one
class CGEnsClassifier(LearnerEnsemble, ColumnGenerationClassifier):  # type: ignore[misc]
    __doc__ = (
        """CGEns (Algorithm 1): the linear SVM (1) over weak-learner outputs, by column generation.

    X may be a scipy sparse matrix (any format; ``fit``, ``predict``, ``decision_function``,
    ``predict_proba``, ``staged_*``), never densified: stumps are binned from its stored
    entries or searched exactly by :class:`mkbench.learners.SparseStumps` (``max_bins``),
    perceptrons and Fourier features take the sparse product X theta; the model is the one
    of X densified.

    Parameters
    ----------"""
        + _docs.LEARNER
        + """
    tol : float, default=1e-3
        epsilon of Algorithm 1: stop when max_h |sum_i y_i alpha_i h(x_i)| <= tol (eq. 8).
        Scores are in units of C; the master's alpha are accurate to about ``solver_tol``.
    fit_intercept : {"regularized", True}, default="regularized"
        The offset b: penalised like a constant learner (b^2 / 2 added to the
        objective, liblinear's, as the paper ran it), or free, the SVM (1) as written.
    solver : {"dual_cd", "libsvm"}, default="dual_cd"
        Restricted master: warm-started dual coordinate descent (liblinear's; a free
        offset by the method of multipliers; Newton's method in the primal where it is
        slow), or libsvm from scratch, free offset only
        (see the module notes).
    solver_tol : float, default=1e-3
        The master's stopping tolerance (scikit-learn's ``LinearSVC`` / ``SVC`` ``tol``).
    loose_tol : float or None, default=0.1
        For ``solver="dual_cd"``: the tolerance of the masters on the way, liblinear's
        own default for its dual solvers (the paper ran liblinear and states no
        tolerance). The loop tightens the master to ``solver_tol`` before it
        declares the optimum or returns the model, so the final model is the restricted
        SVM to ``solver_tol`` either way; the loose masters take far fewer passes at
        large C (MNIST odd/even, n = 10^4, 100 stumps, C = 1: 93 000 passes in all
        against 3.7 million). None: every master to ``solver_tol``. libsvm ignores it."""
        + _docs.LEARNER_REST
        + """
    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import CGEnsClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = CGEnsClassifier("stump", C=1.0, max_iter=100).fit(X_train, y_train)
    >>> clf.n_iter_, clf.status_  # the ensemble's size reached: the usual end
    (100, 'max_iter')
    >>> clf.score(X_test, y_test) > 0.9
    True
    >>> type(clf.learners_[0]).__name__, clf.coef_.shape
    ('Stump', (100,))
    """
    )

    _parameter_constraints: dict = {
        **LEARNER_CONSTRAINTS,
        "fit_intercept": [Options(bool, {True}), StrOptions({"regularized"})],
        "solver": [StrOptions({"dual_cd", "libsvm"})],
        "solver_tol": [Interval(Real, 0, None, closed="neither")],
        "loose_tol": [Interval(Real, 0, None, closed="neither"), None],
        "probability": ["boolean"],
    }
    penalty = "l2"  # the SVM (1)

    def __init__(
        self,
        learner: str = "stump",
        *,
        C: float = 1.0,
        max_iter: int = 100,
        time_limit: float | None = None,
        tol: float = 1e-3,
        fit_intercept: bool | str = "regularized",
        solver: str = "dual_cd",
        solver_tol: float = 1e-3,
        loose_tol: float | None = LOOSE_TOL,
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
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.solver_tol = solver_tol
        self.loose_tol = loose_tol
        self.probability = probability

    def _learner_master_options(self) -> dict[str, float | None]:
        if self.solver == "libsvm" and self.fit_intercept is not True:
            raise ValueError(
                "solver='libsvm' solves the SVM (1) with a free offset: pass fit_intercept=True, or keep the "
                "penalised offset with solver='dual_cd'"
            )
        return {"loose_tol": self.loose_tol, "tol": self.solver_tol}
