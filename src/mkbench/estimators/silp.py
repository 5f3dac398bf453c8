"""SILP multiple kernel learning (Sonnenburg, Raetsch, Schaefer, Schoelkopf, JMLR 2006).

The MKL problem min_beta max_alpha sum_k beta_k S_k(alpha) on the simplex, with
S_k(alpha) = sum_i alpha_i - 1/2 alpha' Y K_k Y alpha, is a semi-infinite LP in
(beta, theta): one constraint sum_k beta_k S_k(alpha) <= theta per feasible
alpha. The wrapper algorithm (the paper's Algorithm 1; the notes' "Column
Generation" slides) alternates

1. the SVM with kernel sum_k beta_k K_k, whose alpha^t is the most violated
   constraint at (beta^t, theta^t), giving S^t = J(beta^t);
2. the restricted master LP over (beta, theta) with the cuts of alpha^1..alpha^t
   (:class:`mkbench.masters.silp_highs.SILPMaster`, HiGHS, warm-started),

until the relative gap (S^t - theta^t) / S^t is at most ``tol``.
"""

from __future__ import annotations

from itertools import count
from typing import Any

import numpy as np

from ..masters.combined_svm import CombinedSVM
from ..masters.silp_highs import SILPMaster
from ._mkl import (
    COMMON_ATTRIBUTES,
    COMMON_NOTES,
    COMMON_PARAMETERS,
    MKLClassifierBase,
    MKLResult,
    clean_weights,
    history_row,
    relative_duality_gap,
)

__all__ = ["SILPClassifier"]


class SILPClassifier(MKLClassifierBase):
    __doc__ = (
        """Binary MKL classifier by semi-infinite linear programming (Sonnenburg et al. 2006, Algorithm 1).

    Starts from beta = 1/M. The gap is Sonnenburg's |1 - S^t / theta^t| with S^t
    in the denominator instead of theta^t, (S^t - theta^t) / S^t: both tend to 0
    together, and S^t = J(beta^t) > 0 always, while the first thetas can be <= 0.
    Since theta^t <= min J <= S^t, the gap bounds the relative suboptimality of
    J(beta^t) like SimpleMKL's duality gap does (and is never larger than it).

    Parameters
    ----------"""
        + COMMON_PARAMETERS
        + """

    """
        + COMMON_ATTRIBUTES
        + COMMON_NOTES
        + """
    ``history_`` rows also hold ``theta`` (the master's lower bound; NaN, like
    the gap, before the first LP) and ``duality_gap`` (SimpleMKL's criterion at the same point).
    ``n_iter_`` counts master LPs solved.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import SILPClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = SILPClassifier().fit(X_train, y_train)  # 13 kernels, C = n
    >>> clf.status_, clf.score(X_test, y_test) > 0.9
    ('optimal', True)
    >>> round(float(clf.weights_.sum()), 6)  # kernel weights on the simplex
    1.0
    >>> clf.n_kernels_selected_ < len(clf.kernels_)  # some exactly 0
    True
    >>> clf.history_[-1]["theta"] <= clf.objective_  # theta^t <= min J <= J(beta^t)
    True

    A library of one's own, here a linear kernel and a Gaussian:

    >>> mix = SILPClassifier(["linear", {"name": "rbf", "sigma": 30.0}])
    >>> mix.fit(X_train, y_train).weights_.shape
    (2,)
    """
    )

    def __init__(
        self,
        kernels: Any = "auto",
        *,
        C: float | str = "auto",
        scaling: str | None = "range",
        tol: float = 0.01,
        max_iter: int = 500,
        svm_tol: float = 1e-5,
        probability: bool = False,
        n_jobs: int | None = None,
        dtype: str = "float32",
    ) -> None:
        self.kernels = kernels
        self.probability = probability
        self.n_jobs = n_jobs
        self.dtype = dtype
        self.C = C
        self.scaling = scaling
        self.tol = tol
        self.max_iter = max_iter
        self.svm_tol = svm_tol

    def _optimise(self, svm: CombinedSVM, start: float) -> MKLResult:
        master = SILPMaster(svm.n_kernels)
        beta = np.full(svm.n_kernels, 1.0 / svm.n_kernels)
        theta = np.nan  # no master LP solved yet: the first gap is NaN, never <= tol
        history = []
        for iteration in count():
            solution = svm.solve(beta)
            gradient = svm.gradient(solution)
            gap = (solution.objective - theta) / solution.objective
            history.append(
                history_row(
                    iteration,
                    solution,
                    gap,
                    svm,
                    start,
                    theta=theta,
                    duality_gap=relative_duality_gap(solution, gradient),
                )
            )
            if gap <= self.tol:
                return MKLResult(solution, iteration, "optimal", history)
            if iteration == self.max_iter:
                return MKLResult(solution, iteration, "max_iter", history)
            master.add_cut(solution.alpha_sum + gradient)  # S_k(alpha^t) = sum alpha - 1/2 alpha'YK_kYalpha
            beta, theta = master.solve()
            beta = clean_weights(beta)
        raise AssertionError("unreachable: count() does not end")  # for mypy, which cannot tell
