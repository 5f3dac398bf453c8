"""SimpleMKL: reduced gradient descent on the kernel weights (Rakotomamonjy, Bach, Canu, Grandvalet).

"More efficiency in multiple kernel learning" (ICML 2007) and "SimpleMKL" (JMLR
2008), Algorithm 1; the notes' "J(beta)" slide. J(beta), the SVM dual objective
with kernel sum_k beta_k K_k, is convex and differentiable on the simplex with
dJ/dbeta_k = -1/2 alpha*' Y K_k Y alpha*. Each iteration

1. takes mu = argmax_k beta_k and the reduced gradient g_k - g_mu (the gradient
   of J with beta_mu = 1 - sum_{k != mu} beta_k eliminated), giving the descent
   direction D of :func:`descent_direction`;
2. moves to the face where the first weight reaches 0 as long as that lowers J,
   zeroing that weight's direction and re-balancing D_mu (the paper's inner loop);
3. searches the last segment [0, gamma_max] by golden section (J is convex along
   it), to a precision of ``line_search_tol`` * gamma_max;

and the loop stops when the relative duality gap is at most ``tol`` (0.01, the
SimpleMKL default ``seuildualitygap``).
"""

from __future__ import annotations

from itertools import count
from numbers import Real
from typing import Any

import numpy as np
from sklearn.utils._param_validation import Interval

from ..masters.combined_svm import CombinedSVM, SVMSolution
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

__all__ = ["SimpleMKLClassifier", "descent_direction"]

_INVERSE_GOLDEN = (np.sqrt(5.0) - 1.0) / 2.0
_SMALLEST_STEP = 1e-9
"""When an iteration has found no lower J at all, its golden section goes on
shrinking down to this fraction of gamma_max before the iteration counts as stalled."""


def descent_direction(beta: np.ndarray, gradient: np.ndarray, mu: int) -> np.ndarray:
    """SimpleMKL's descent direction on the simplex from the reduced gradient.

    With r_k = g_k - g_mu (the reduced gradient, beta_mu eliminated):
    D_k = -r_k if beta_k > 0 or r_k < 0 (a zero weight may only grow), else 0,
    for k != mu; D_mu = -sum_{k != mu} D_k, so that sum_k D_k = 0. Then
    g' D = -sum_{k != mu} D_k^2 <= 0.

    Parameters
    ----------
    beta : ndarray of shape (n_kernels,)
        Current weights on the simplex.
    gradient : ndarray of shape (n_kernels,)
        dJ/dbeta at beta.
    mu : int
        Index of the eliminated weight, with beta_mu > 0 (SimpleMKL takes the largest).

    Returns
    -------
    ndarray of shape (n_kernels,)
    """
    reduced = gradient - gradient[mu]
    D = np.where((beta > 0) | (reduced < 0), -reduced, 0.0)
    D[mu] = 0.0
    D[mu] = -D.sum()
    return D


class SimpleMKLClassifier(MKLClassifierBase):
    __doc__ = (
        """Binary MKL classifier by SimpleMKL's reduced gradient descent (Rakotomamonjy et al. 2008, Algorithm 1).

    Starts from beta = 1/M. Each SVM is solved from scratch: scikit-learn's
    libsvm takes no initial alpha, so the paper's warm start is not available.

    Parameters
    ----------"""
        + COMMON_PARAMETERS
        + """
    line_search_tol : float in (0, 1), default=0.1
        The golden-section search stops when its interval is this fraction of
        the largest step (SimpleMKL's ``goldensearch_deltmax``).

    """
        + COMMON_ATTRIBUTES
        + COMMON_NOTES
        + """
    ``history_`` rows are taken at the start of each iteration, where ``gap`` is
    the relative duality gap of :func:`mkbench.estimators._mkl.relative_duality_gap`.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import SimpleMKLClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = SimpleMKLClassifier().fit(X_train, y_train)  # 13 kernels, C = n
    >>> clf.status_, len(clf.kernels_), clf.score(X_test, y_test) > 0.9
    ('optimal', 13, True)

    The kernel weights beta lie on the simplex, most of them exactly 0; the kernel of
    largest weight is the grid's Gaussian of width w = 2, exp(-||x - z||^2 / sigma)
    with sigma = 2 w^2:

    >>> round(float(clf.weights_.sum()), 6)
    1.0
    >>> clf.n_kernels_selected_ < len(clf.kernels_)
    True
    >>> best = clf.kernels_[clf.weights_.argmax()]
    >>> best.name, best.sigma
    ('rbf', 8.0)
    """
    )

    _parameter_constraints: dict = {
        **MKLClassifierBase._parameter_constraints,
        "line_search_tol": [Interval(Real, 0, 1, closed="neither")],  # a fraction of the largest step
    }

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
        line_search_tol: float = 0.1,
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
        self.line_search_tol = line_search_tol

    def _optimise(self, svm: CombinedSVM, start: float) -> MKLResult:
        solution = svm.solve(np.full(svm.n_kernels, 1.0 / svm.n_kernels))
        history = []
        for iteration in count():
            gradient = svm.gradient(solution)
            gap = relative_duality_gap(solution, gradient)
            history.append(history_row(iteration, solution, gap, svm, start))
            if gap <= self.tol:
                return MKLResult(solution, iteration, "optimal", history)
            if iteration == self.max_iter:
                return MKLResult(solution, iteration, "max_iter", history)
            better = self._step(svm, solution, gradient)
            if better is None:
                return MKLResult(solution, iteration, "stalled", history)
            solution = better
        raise AssertionError("unreachable: count() does not end")  # for mypy, which cannot tell

    def _step(self, svm: CombinedSVM, current: SVMSolution, gradient: np.ndarray) -> SVMSolution | None:
        """One descent step from ``current``; None if no lower J was found along the direction.

        The combined kernel is linear in beta: along beta + gamma D it is
        K(beta) + gamma K(D), and K(D) changes only in the weights D drops, so each
        point costs O(n^2) instead of reading all M kernels.
        """
        best = current
        mu = int(np.argmax(best.beta))
        D = descent_direction(best.beta, gradient, mu)
        K_D = svm.kernel(D)
        while True:
            shrinking = np.flatnonzero(D < 0)
            if shrinking.size == 0:  # D = 0: beta is stationary for this gradient
                return None if best is current else best
            ratios = -best.beta[shrinking] / D[shrinking]
            gamma_max = float(ratios.min())
            edge = _along(svm, best, D, K_D, gamma_max, hits=shrinking[ratios <= gamma_max])
            if edge.objective >= best.objective:
                break
            best = edge  # the face where a weight reached 0 is better: go on from there
            if best.beta[mu] == 0:
                mu = int(np.argmax(best.beta))
            new_D = descent_direction(best.beta, gradient, mu)
            K_D += svm.kernel(new_D - D)
            D = new_D
        found = self._golden_section(svm, best, edge, D, K_D, gamma_max, stuck=best is current)
        return found if found.objective < current.objective else None

    def _golden_section(
        self,
        svm: CombinedSVM,
        low: SVMSolution,
        high: SVMSolution,
        D: np.ndarray,
        K_D: np.ndarray,
        gamma_max: float,
        stuck: bool,
    ) -> SVMSolution:
        """The best J found by golden section on beta = low.beta + gamma D, gamma in [0, gamma_max].

        ``stuck``: no lower J than ``low``'s has been found in this iteration yet; then the
        search goes on shrinking past ``line_search_tol`` until it finds one (or the
        interval is :data:`_SMALLEST_STEP` * gamma_max).
        """
        evaluated = [low, high]

        def J(gamma: float) -> float:
            evaluated.append(_along(svm, low, D, K_D, gamma))
            return evaluated[-1].objective

        a, b = 0.0, gamma_max
        c, d = b - _INVERSE_GOLDEN * (b - a), a + _INVERSE_GOLDEN * (b - a)
        Jc, Jd = J(c), J(d)
        while True:
            best = min(evaluated, key=lambda s: s.objective)
            precise = b - a <= self.line_search_tol * gamma_max
            if (precise and not (stuck and best is low)) or b - a <= _SMALLEST_STEP * gamma_max:
                return best
            if Jc < Jd:
                b, d, Jd = d, c, Jc
                c = b - _INVERSE_GOLDEN * (b - a)
                Jc = J(c)
            else:
                a, c, Jc = c, d, Jd
                d = a + _INVERSE_GOLDEN * (b - a)
                Jd = J(d)


def _along(
    svm: CombinedSVM, base: SVMSolution, D: np.ndarray, K_D: np.ndarray, gamma: float, hits: np.ndarray | None = None
) -> SVMSolution:
    """The SVM at beta = base.beta + gamma D, with the weights ``hits`` (those that reach 0) set to 0.

    Its kernel is base.kernel + gamma K_D unless :func:`clean_weights` changes beta.
    """
    beta = base.beta + gamma * D
    if hits is not None:
        beta[hits] = 0.0
    cleaned = clean_weights(beta)
    if cleaned is not beta:
        return svm.solve(cleaned)
    kernel = np.multiply(K_D, gamma)
    kernel += base.kernel
    return svm.solve(beta, kernel)
