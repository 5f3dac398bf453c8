"""The linear SVM in the primal by Newton's method on a Huber-smoothed hinge: the dual-CD masters' large-C route.

Dual coordinate descent (:mod:`.svm_cd`) slows as C grows: its passes then grind on
the few hundred points with 0 < u_i < C, whose subproblem is as ill-conditioned as
the chosen columns are alike (MNIST odd/even, n = 10^4, 140 stumps, C = 1: about
10^5 passes for one master to liblinear's 1e-3). The primal has only k weights, and
Newton's method is blind to that conditioning. The hinge is not twice
differentiable, so it is smoothed as Chapelle does ("Training a support vector
machine in the primal", Neural Computation 19(5), 2007, §3 and §4, the Huber loss):

    min_w  1/2 w' P w + sum_i C_i l_delta(y_i (x_i' w + s)),
    l_delta(m) = 0 (m >= 1),  (1 - m)^2 / (2 delta) (1 - delta < m < 1),  1 - m - delta / 2 (m <= 1 - delta),

with P = diag(p), p_j in {0, 1} (p_j = 0 leaves w_j free: the offset of
:mod:`.svm_cd_offset`), s a fixed shift of every output and C_i = C (or C w_i
for sample weights w). Its stationarity condition P w = sum_i u_i y_i x_i with

    u_i = C_i clip((1 - m_i) / delta, 0, 1)

names a dual point inside the box 0 <= u_i <= C_i: it is the optimum of the SVM
dual with sum_i delta / (2 C_i) u_i^2 added (u_i = 0 where C_i = 0). At it the dual gradient of every point,
g_i = m_i - 1, lies in (-delta, 0) where 0 < u_i < C and on the right side of 0 at
either bound, so the span of the projected gradients, liblinear's stopping
criterion (:func:`.svm_cd._dual_cd`), is below delta, and y'u = 0 wherever an
offset is free. Solving the smoothed primal with delta = tol / 2 thus meets the
very criterion coordinate descent stops at; the masters check it on the dual
point before they accept it, and go on by coordinate descent where it fails.

Each Newton step solves with H = P + X_S' diag(C_S / delta) X_S over the points S in the
quadratic zone (rows scaled by sqrt(C_i) for a per-sample C, so that H = P + X~_S' X~_S / delta) and searches the step exactly along the piecewise-quadratic line
(safeguarded Newton on its derivative). Where S has at least k / 2 points, H is
factored (k x k, Cholesky; X_S' X_S updated by the points that entered or left S
since the last step); where it has fewer, the step is solved through the
|S| x |S| matrix K = delta / C I + X_S X_S' (Sherman-Morrison-Woodbury, with the
free weights eliminated by their Schur complement, :func:`_woodbury_step`). Near
an optimum S holds the few points on the margin: on a 2-norm CG-Boost master with
1400 columns over 1000 points, |S| stayed at or below 141, so the k x k factor was
nine tenths of the work.
``tests/library/test_masters_svm_newton.py`` checks the masters that use it against scikit-learn's
liblinear and Clarabel's direct QP solve.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

__all__ = ["HuberNewton", "huber_newton", "smoothing_widths"]

#: Smallest smoothing width of the first stage; narrower widths are reached by factors of ``NARROWING``.
FIRST_DELTA = 0.05
#: Halving: narrowing by 10 at once empties the quadratic zone (578 points to 67 on a 500-stump master,
#: n = 10^4, C = 1), and the line search then cuts Newton's steps to ~1e-4 of their length; by 2, 3 or 4
#: the last stage is reached in 80-150 steps on 150-500 stumps.
NARROWING = 2.0


@dataclass(frozen=True)
class HuberNewton:
    """The outcome of :func:`huber_newton`.

    Attributes
    ----------
    w : ndarray of shape (k,)
        The last primal iterate.
    u : ndarray of shape (n,)
        The dual point C clip((1 - m_i) / delta, 0, 1) at ``w``.
    iterations : int
        Newton steps over every stage.
    accepted : bool
        Whether ``done`` held at the end.
    w_u : ndarray of shape (k,)
        sum_i y_i u_i x_i, as ``done`` was given it.
    """

    w: np.ndarray
    u: np.ndarray
    iterations: int
    accepted: bool
    w_u: np.ndarray


def smoothing_widths(tol: float) -> list[float]:
    """The widths delta of Newton's stages, narrowest first: tol / 2 * NARROWING^j up to ``FIRST_DELTA``."""
    deltas = [tol / 2.0]
    while deltas[-1] * NARROWING <= FIRST_DELTA:
        deltas.append(deltas[-1] * NARROWING)
    return deltas


def _dual_point(margins: np.ndarray, C: float | np.ndarray, delta: float) -> np.ndarray:
    return C * np.clip((1.0 - margins) / delta, 0.0, 1.0)


def _update_dual(X, y, u, w_u, u_new) -> np.ndarray:
    """sum_i y_i u_i x_i at u_new from its value w_u at u: updated over the points whose u_i changed.

    After a step only the points in the quadratic zone before or after it, or that crossed
    it, change u_i, so the update reads their rows of X instead of all (one of a step's two
    passes over X, which were most of a master's time at C >= 0.1 on MNIST odd/even, 500
    stumps); where more than half the points changed it is recomputed.
    """
    changed = np.flatnonzero(u_new != u)
    if 2 * changed.size < u.size:
        return w_u + X[changed].T @ (y[changed] * (u_new[changed] - u[changed]))
    return X.T @ (y * u_new)


def _update_gram(X, gram, zone, quadratic) -> np.ndarray:
    """X_S' X_S over the new zone S: updated by the points that entered and left it where they are fewer than S.

    Recomputed at each new smoothing width (``gram`` None), so rounding does not accumulate.
    """
    if gram is not None:
        entered, left = quadratic & ~zone, zone & ~quadratic
        if entered.sum() + left.sum() < quadratic.sum():
            XE, XL = X[entered], X[left]
            return gram + XE.T @ XE - XL.T @ XL
    XS = X[quadratic]
    return XS.T @ XS


def _cholesky_step(hessian: np.ndarray, gradient: np.ndarray) -> np.ndarray:
    """-H^-1 g by the Cholesky factor of H (k x k)."""
    factor = sla.cho_factor(hessian, lower=True, check_finite=False)
    return -sla.cho_solve(factor, gradient, check_finite=False)


def _woodbury_step(XS: np.ndarray, p: np.ndarray, c: float, ridge: float, gradient: np.ndarray) -> np.ndarray:
    """-H^-1 g for H = diag(p) + c X_S' X_S + ridge I_F through the |S| x |S| matrix K = I / c + A_R A_R'.

    With R the penalised weights (p = 1), F the free ones (p = 0) and A = X_S, H's
    penalised block M = I + c A_R' A_R has M^-1 = I - A_R' K^-1 A_R (Woodbury), and
    the free block's Schur complement is H_FF - H_FR M^-1 H_RF = ridge I + A_F' K^-1 A_F
    (as A_R M^-1 A_R' = (I - K^-1 / c) / c). Then, with r = -g,

        d_F = (ridge I + A_F' K^-1 A_F)^-1 (r_F - A_F' K^-1 A_R r_R),
        d_R = M^-1 (r_R - c A_R' A_F d_F).

    ``ridge`` is the tiny one that keeps H definite when F has no point in S (as in
    the Cholesky route).
    """
    free = p == 0.0
    A_R, A_F = XS[:, ~free], XS[:, free]
    r_R, r_F = -gradient[~free], -gradient[free]
    d = np.empty_like(gradient)
    if XS.shape[0] == 0:  # H = diag(p) + ridge I_F
        d[~free], d[free] = r_R, r_F / ridge
        return d
    K = A_R @ A_R.T
    K[np.diag_indices_from(K)] += 1.0 / c
    factor = sla.cho_factor(K, lower=True, check_finite=False)
    v = r_R
    if free.any():
        schur = A_F.T @ sla.cho_solve(factor, A_F, check_finite=False)
        schur[np.diag_indices_from(schur)] += ridge
        d_F = np.linalg.solve(schur, r_F - A_F.T @ sla.cho_solve(factor, A_R @ r_R, check_finite=False))
        v = r_R - c * (A_R.T @ (A_F @ d_F))
        d[free] = d_F
    d[~free] = v - A_R.T @ sla.cho_solve(factor, A_R @ v, check_finite=False)
    return d


def _line_search(margins, dm, wPd, dPd, C, delta) -> float:
    """argmin_t of the smoothed objective along w + t d: the root of its increasing piecewise-linear derivative."""

    def derivative(t: float) -> tuple[float, float]:
        mt = margins + t * dm
        quadratic = (mt > 1.0 - delta) & (mt < 1.0)
        if np.ndim(C):  # per-sample C: sum_S C_i / delta dm_i^2
            return wPd + t * dPd - _dual_point(mt, C, delta) @ dm, dPd + (C[quadratic] / delta) @ dm[quadratic] ** 2
        return wPd + t * dPd - _dual_point(mt, C, delta) @ dm, dPd + (C / delta) * (dm[quadratic] ** 2).sum()

    lo, hi = 0.0, 1.0
    slope, _ = derivative(hi)
    while slope < 0.0 and hi < 1e12:
        lo, hi = hi, 2.0 * hi
        slope, _ = derivative(hi)
    t = hi
    for _ in range(60):
        slope, curvature = derivative(t)
        if slope < 0.0:
            lo = t
        else:
            hi = t
        if hi - lo <= 1e-12 * hi:
            break
        step = t - slope / curvature if curvature > 0.0 else -1.0
        t = step if lo < step < hi else 0.5 * (lo + hi)
    return t


def huber_newton(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    C: float | np.ndarray,
    tol: float,
    *,
    penalty: np.ndarray | None = None,
    shift: float = 0.0,
    done: Callable[[np.ndarray, np.ndarray, np.ndarray], bool],
    max_iter: int = 50,
    row_norms2: np.ndarray | None = None,
    times: Callable[[np.ndarray], np.ndarray] | None = None,
) -> HuberNewton:
    """Newton's method on the Huber-smoothed SVM from ``w``, delta halving down to ``tol / 2``.

    Parameters
    ----------
    X : ndarray of shape (n, k)
        Rows x_i.
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    w : ndarray of shape (k,)
        Start.
    C : float or ndarray of shape (n,)
        The weight of every point's loss, or one per point, C_i >= 0 (a point of
        C_i = 0 has u_i = 0 and never enters the quadratic zone).
    tol : float
        The dual tolerance the caller's ``done`` tests; the last stage smooths over
        delta = tol / 2, the first over the largest tol / 2 * 2^j <= ``FIRST_DELTA``.
    penalty : ndarray of shape (k,), default=None
        p (1 penalised, 0 free); None: every weight penalised.
    shift : float, default=0.0
        s, added to every output.
    done : callable
        ``done(u, w, w_u)``: whether the dual point u of the iterate w, with
        w_u = sum_i y_i u_i x_i, is accepted; tested before a step once
        max_i ||x_i|| ||P w - w_u|| <= tol (the dual point's margins are then within
        tol of the iterate's), and at the end.
    max_iter : int, default=50
        Newton steps per stage.
    row_norms2 : ndarray of shape (n,), default=None
        ||x_i||^2 where the caller keeps them (the dual's diagonal Q_ii); None: computed.
    times : callable, default=None
        ``times(v)``: X @ v, the product of every step, from X or a copy of the same numbers
        (the dual CD masters' int8 rows: :func:`.svm_cd_newton.rows_times`);
        None: X @ v.

    Returns
    -------
    HuberNewton
    """
    k = X.shape[1]
    p = np.ones(k) if penalty is None else np.asarray(penalty, dtype=np.float64)
    free = p == 0.0
    deltas = smoothing_widths(tol)
    # a margin moves by at most ||x_i|| ||w - w_u|| from the iterate's to its dual point's weights: done is
    # worth testing only once that bound is below tol
    if row_norms2 is None:
        row_norms2 = np.einsum("ij,ij->i", X, X)
    longest_row = float(np.sqrt(row_norms2.max(initial=0.0)))
    # H = P + X_S' diag(C_S) X_S / delta = P + c Xh_S' Xh_S: Xh = X and c = C / delta for one C, rows scaled
    # by sqrt(C_i) and c = 1 / delta per sample
    if np.ndim(C):
        Xh, scale, present, h_norms2 = X * np.sqrt(C)[:, None], 1.0, C > 0.0, C * row_norms2
    else:
        Xh, scale, present, h_norms2 = X, float(C), None, row_norms2  # C is one number here
    w = np.array(w, dtype=np.float64)
    product = times if times is not None else (lambda v: X @ v)
    margins = y * (product(w) + shift)
    steps = 0
    for delta in reversed(deltas):
        gram, zone = None, None  # X_S' X_S over the quadratic zone S of the last step
        u = _dual_point(margins, C, delta)
        w_u = X.T @ (y * u)  # afresh at each width, so that the updates' rounding does not accumulate
        for _ in range(max_iter):
            gradient = p * w - w_u
            if longest_row * np.linalg.norm(gradient) <= tol and done(u, w, w_u):
                return HuberNewton(w, u, steps, True, w_u)
            quadratic = (margins > 1.0 - delta) & (margins < 1.0)
            if present is not None:
                quadratic &= present
            c = scale / delta
            # a free weight with no point in the quadratic zone: a tiny ridge on the free weights keeps H
            # definite (1e-12 of H's mean diagonal, trace H = sum p + c sum_S ||x_i||^2)
            ridge = 1e-12 * max(1.0, (p.sum() + c * float(h_norms2[quadratic].sum())) / k)
            try:
                if 2 * int(quadratic.sum()) < k:
                    d = _woodbury_step(Xh[quadratic], p, c, ridge, gradient)
                    gram, zone = None, None  # the next factored step recomputes X_S' X_S
                else:
                    gram, zone = _update_gram(Xh, gram, zone, quadratic), quadratic
                    hessian = gram * c
                    hessian[np.diag_indices(k)] += p + ridge * free
                    d = _cholesky_step(hessian, gradient)
            except np.linalg.LinAlgError:
                d = -gradient
            dm = y * product(d)
            pd = p * d
            t = _line_search(margins, dm, float(w @ pd), float(d @ pd), C, delta)
            w += t * d
            margins += t * dm
            steps += 1
            u_new = _dual_point(margins, C, delta)
            u, w_u = u_new, _update_dual(X, y, u, w_u, u_new)
            if t * np.linalg.norm(d) <= 1e-12 * max(1.0, float(np.linalg.norm(w))):
                break  # this width's optimum: narrow it
    return HuberNewton(w, u, steps, bool(done(u, w, w_u)), w_u)
