"""Pricing over a weak-learner family: the base learning step of CGEns (eq. 8, 13) and LPBoost (eq. 6).

:class:`LearnerOracle` implements the :class:`mkbench.oracles.Oracle` protocol for the
weak-learner families of :mod:`mkbench.learners`, so that the generic loop
:func:`mkbench.cg.column_generation` runs CGEns (SVM master), LPBoost (LP master)
and CGEns-SLS (simplex least-squares master) alike: the master's
``pricing_weights`` w give each learner the score sum_i w_i h(x_i), the family
returns the learner with the largest |score| signed so that its score is >= 0
(Claim IV.2), and the master's ``violation`` says whether it enters.
"""

from __future__ import annotations

import numpy as np

from ..learners import Best, BinnedStumps, FourierFeatures, Perceptrons, SparseStumps, Stumps
from ..masters import MasterSolution
from .pricing import Pricing

__all__ = ["LearnerOracle"]


class LearnerOracle:
    """Price a weak-learner family against a master's duals.

    Parameters
    ----------
    family : Stumps, Perceptrons or FourierFeatures
        The candidate learners, bound to the training inputs.
    exclude_chosen : bool
        Offer a learner in the master, and its negation, no more. Needed with a
        free-sign master (the SVM of CGEns, eq. 1; CGEns-SLS, eq. 10), where a
        column in the master prices at its own coefficient w_j (KKT condition 7)
        rather than 0. An LP master with alpha >= 0 (LPBoost, eq. 4) prices its
        own columns at score <= 1 but not their negations, so it passes False.

    Notes
    -----
    ``pricing_weights`` of shape (n,) give one search (eq. 6, 8); of shape (n, l),
    as the multi-class dual U of CGEns-SLS, one search per column tau, and the
    learner with the largest score over all tau enters (eq. 13).

    The duality gap of a free-sign 2-norm master (score threshold 0) is
    1/2 sum over the learners not in the master of score^2 (Claim IV.1); it is
    reported when the family is searched exhaustively (stumps), else NaN.
    """

    def __init__(
        self, family: Stumps | SparseStumps | BinnedStumps | Perceptrons | FourierFeatures, *, exclude_chosen: bool
    ) -> None:
        self.family = family
        self.exclude_chosen = exclude_chosen
        self.n_chosen = 0

    def price(self, solution: MasterSolution, master, tol: float) -> Pricing:
        """Propose the learner with the largest score, or None if its violation is <= ``tol``."""
        weights = np.asarray(solution.pricing_weights, dtype=np.float64)
        searches = self.family.best_each(weights) if weights.ndim == 2 else [self.family.best(weights)]
        best: Best = max(searches, key=lambda b: b.score)
        free_qp = getattr(master, "score_threshold", None) == 0.0 and getattr(master, "alpha_sign", None) == "free"
        gap = 0.5 * sum(b.sum_squares for b in searches) if free_qp and self.family.exhaustive else float("nan")
        if best.learner is None:  # every learner is in the master
            return Pricing(None, None, -np.inf, gap, 0)
        violation = float(np.asarray(master.violation(np.array([best.score])))[0])
        chosen = violation > tol
        return Pricing(
            choice=best.learner if chosen else None,
            column=best.column if chosen else None,
            max_violation=violation,
            duality_gap=gap,
            n_priced=sum(b.n_candidates for b in searches),
        )

    def add(self, choice) -> None:
        """Record that learner ``choice`` entered the master."""
        if self.exclude_chosen:
            self.family.exclude(choice)
        self.n_chosen += 1

    def counts(self) -> dict[str, int]:
        """Learners in the master (one kind of column here)."""
        return {"n_learners": self.n_chosen}
