"""LPBoost over weak learners (Demiriz, Bennett & Shawe-Taylor 2002), the fully-corrective baseline of CGEns.

The model is F(x) = sum_j w_j h_j(x) with w >= 0, the solution of the 1-norm LP
(Shen & Liu eq. 4) over every weak learner. Column generation adds the learner
that most violates the dual constraint sum_i y_i u_i h(x_i) <= 1 (eq. 5, 6),
with the LP restricted to the chosen learners solved by HiGHS
(:class:`mkbench.masters.LPMaster`, warm-started after each added column; the
paper used Mosek on the dual). The families are negation complete, so w >= 0
loses nothing, and for stumps the constant learner +-1 is a candidate in place
of an offset (eq. 4 has none).
"""

from __future__ import annotations

import numpy as np

from ..masters import DualLPMaster, LPMaster, make_hinge_master
from .cgens import _COMMON_PARAMETERS, _COMMON_REST, _LearnerEnsemble

__all__ = ["LPBoostClassifier"]


class LPBoostClassifier(_LearnerEnsemble):
    __doc__ = (
        """LPBoost: the 1-norm soft-margin LP (eq. 4) over weak learners, by column generation.

    Parameters
    ----------"""
        + _COMMON_PARAMETERS
        + """
    tol : float, default=1e-6
        Stop when no learner has sum_i y_i u_i h(x_i) > 1 + tol (eq. 5, 6).
    solver : {"dual", "primal"}, default="dual"
        HiGHS' route through the restricted LP: its dual (eq. 5; a learner is a new
        row, and the dual simplex restarts from the last basis, as the paper's Mosek
        ran it) or its primal (:class:`mkbench.masters.LPMaster`). The same optimum;
        the dual route re-solved 8.7x faster on LPBoost's own columns (stumps, MNIST
        n = 2000, 60 columns; ``benchmarks/lp_routes.py``)."""
        + _COMMON_REST.replace("Offset b.", "Always 0: eq. 4 has no offset (the constant stump plays it).")
    )

    _constant_learner = True
    _max_iter_is_size = True  # the ensemble's size (cgens._MAX_ITER_DOC): reaching it is no warning
    _exclude_chosen = False  # an LP column in the master prices at <= 1, but its negation may still violate

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
        verbose: int = 0,
    ) -> None:
        self.learner = learner
        self.C = C
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.tol = tol
        self.solver = solver
        self.n_candidates = n_candidates
        self.gamma = gamma
        self.random_state = random_state
        self.verbose = verbose

    def _master(self, signed: np.ndarray) -> LPMaster | DualLPMaster:
        if self.solver not in ("dual", "primal"):
            raise ValueError(f"solver={self.solver!r} is not one of 'dual', 'primal' (HiGHS' route through the LP)")
        return make_hinge_master(signed, self.C, penalty="l1", alpha_sign="nonneg", intercept="none", solver=self.solver)
