"""liblinear's dual coordinate descent for the hinge-loss SVM, warm-started, with a per-sample box.

The dual of the linear SVM over rows x_i (the offset feature B one of their
columns, :mod:`.svm_cd`) is

    min_alpha  1/2 alpha' Q alpha - 1' alpha   s.t.  0 <= alpha_i <= C_i,
    Q_st = y_s y_t x_s' x_t,

with C_i = C in the papers (cgboost eq. 9; CGEns (1) solved by liblinear) and
C_i = C w_i for sample weights w. :func:`_dual_cd` is liblinear's solver for it
(``solve_l2r_l1l2_svc``, Hsieh et al., "A dual coordinate descent method for
large-scale linear SVM", ICML 2008, Algorithm 1 with shrinking; liblinear's
per-instance weights bound each alpha_i by its own C_i the same way), written
again because liblinear, inside scikit-learn or not, can neither start from a
given alpha nor return it, and both are what column generation needs: alpha
prices the next learner, and starting from it is what makes each master cheap.
A point of C_i = 0 has alpha_i = 0 fixed: it is left out of the passes and of
the stopping measure.

Why not an exact active set at large C, where coordinate descent slows (issue 20,
measured 2026-11-26 on MNIST odd/even, n = 10^4, stumps): the points with
0 < alpha_i < C number about k + 1, but from one master to the next about 250
points change between alpha = 0, free and alpha = C. A SimpleSVM-style primal
active set over the margin partition (exact line search across the hinge
breakpoints, duplicate points merged, margins perturbed against cycling) moved
one point into or out of the free set per step and took 15 000-37 000 steps per
master at k = 25-60 (C = 0.1), each costing about a pass, against hundreds to a
few thousand passes of the warm-started masters. liblinear itself, from scratch
on the same master (k = 149), took 0.95 s at C = 1 and tol 0.1, where this
solver took 0.36 s warm; ``benchmarks/cgens_across_c.py`` compares the two over
whole paths.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["projected_gradient_span"]


def projected_gradient_span(X, y, alpha, w, C, shift=0.0) -> float:
    """liblinear's stopping measure at alpha: the span max - min of the dual's projected gradients.

    The gradient of point i is g_i = y_i (x_i' w + shift) - 1, projected to min(g_i, 0)
    at alpha_i = 0 and max(g_i, 0) at alpha_i = C (C_i where C is an array of one box per
    point; the points of C_i = 0 are fixed and left out). :func:`_dual_cd` stops when the
    span over a pass is at most its tolerance.
    """
    g = y * (X @ w + shift) - 1.0
    if np.ndim(C):
        kept = C > 0.0
        g, alpha, C = g[kept], alpha[kept], C[kept]
    projected = np.where(alpha <= 0.0, np.minimum(g, 0.0), np.where(alpha >= C, np.maximum(g, 0.0), g))
    return float(projected.max() - projected.min()) if projected.size else 0.0


@numba.njit(cache=True, nogil=True)
def _dual_cd(X, y, alpha, w, QD, C, eps, max_epochs, seed, shift=0.0):  # pragma: no cover - compiled
    """liblinear's dual coordinate descent for the hinge-loss SVM, from the given alpha.

    With ``shift`` = mu the margins are y_i (w'x_i + mu): the subproblem of the
    method of multipliers in :mod:`.svm_cd_offset` (mu, a fixed part of the offset).

    Parameters
    ----------
    X : ndarray of shape (n, k)
        Rows x_i, each contiguous in memory; the offset feature B is one column.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    alpha : ndarray of shape (n,)
        Feasible start (0 <= alpha <= C), updated in place.
    w : ndarray of shape (k,)
        sum_i y_i alpha_i x_i on entry, kept so in place.
    QD : ndarray of shape (n,)
        ||x_i||^2.
    C : ndarray of shape (n,)
        The box 0 <= alpha_i <= C_i of every point (C repeated for one C); the points of
        C_i = 0 are never visited.
    eps : float
        Stop when the projected gradients of an epoch span <= eps over all points
        (liblinear's criterion).
    max_epochs : int
    seed : int
        Seeds the random order of each epoch.
    shift : float, default=0.0
        A fixed offset added to every output w'x_i.

    Returns
    -------
    epochs : int
        Passes run.
    converged : bool
    """
    np.random.seed(seed)
    k = X.shape[1]
    index = np.empty(X.shape[0], dtype=np.int64)  # the points of C_i > 0, in order
    n = 0
    for i in range(X.shape[0]):
        if C[i] > 0.0:
            index[n] = i
            n += 1
    active = n
    pg_max_old, pg_min_old = np.inf, -np.inf
    for epoch in range(max_epochs):
        for s in range(active):
            r = s + np.random.randint(0, active - s)
            index[s], index[r] = index[r], index[s]
        pg_max, pg_min = -np.inf, np.inf
        s = 0
        while s < active:
            i = index[s]
            g = 0.0
            for j in range(k):
                g += w[j] * X[i, j]
            g = y[i] * (g + shift) - 1.0
            pg = 0.0
            if alpha[i] == 0.0:
                if g > pg_max_old:  # shrink: stays at its bound
                    active -= 1
                    index[s], index[active] = index[active], index[s]
                    continue
                pg = min(g, 0.0)
            elif alpha[i] == C[i]:
                if g < pg_min_old:
                    active -= 1
                    index[s], index[active] = index[active], index[s]
                    continue
                pg = max(g, 0.0)
            else:
                pg = g
            pg_max = max(pg_max, pg)
            pg_min = min(pg_min, pg)
            if abs(pg) > 1e-12:
                old = alpha[i]
                alpha[i] = min(max(old - g / QD[i], 0.0), C[i])
                d = (alpha[i] - old) * y[i]
                for j in range(k):
                    w[j] += d * X[i, j]
            s += 1
        if pg_max - pg_min <= eps:
            if active == n:
                return epoch + 1, True
            active = n  # converged on the shrunk set: check every point once more
            pg_max_old, pg_min_old = np.inf, -np.inf
            continue
        pg_max_old = pg_max if pg_max > 0.0 else np.inf
        pg_min_old = pg_min if pg_min < 0.0 else -np.inf
    return max_epochs, False
