"""Newton's method on the Huber-smoothed primal (svm_newton) and the dual CD masters' hand-over to it: the
dual point meets liblinear's criterion, the Woodbury step, the optimum reached at large C."""

import numpy as np
import pytest

from mkbench.kernels import KernelColumns
from mkbench.masters import (
    FreeOffsetSVMCDMaster,
    LinearSVMCDMaster,
    NonnegFreeOffsetSVMCDMaster,
    NonnegLinearSVMCDMaster,
    svm_newton,
)
from mkbench.masters.svm_cd import projected_gradient_span
from mkbench.masters.svm_newton import HuberNewton, huber_newton

from ._masters_common import _add_in_chunks, _check_complementarity, _margin_rows, highs_qp_reference


def test_huber_newton_dual_point_meets_liblinear_criterion_at_the_qp_optimum(problem):
    """Newton's method on the Huber-smoothed primal (Chapelle 2007) ends at a dual point inside the box whose
    projected gradients span at most tol, and whose dual objective is the direct QP optimum of eq. 11 (b a
    constant column); a test that never holds is reported as not accepted, the point still inside the box."""
    K, y, _ = problem
    K = K / np.abs(K).max(axis=0)
    X = np.hstack([np.ones((len(y), 1)), K])
    big_C, tol = 100.0, 1e-6  # much below, u = C (1 - m) / delta amplifies rounding in the margins past tol
    reference = highs_qp_reference(K, y, big_C, "hinge", "free", "regularized")

    def done(u, w, w_u):
        return projected_gradient_span(X, y, u, w_u, big_C) <= tol

    result = huber_newton(X, y, np.zeros(X.shape[1]), big_C, tol, done=done)
    assert result.accepted and result.iterations > 0
    assert np.all((result.u >= 0.0) & (result.u <= big_C))
    w_u = X.T @ (y * result.u)
    assert projected_gradient_span(X, y, result.u, w_u, big_C) <= tol
    assert result.u.sum() - 0.5 * w_u @ w_u == pytest.approx(reference, rel=1e-6)
    np.testing.assert_allclose(result.w_u, w_u, rtol=0, atol=1e-9 * np.abs(w_u).max())  # kept by updates
    never = huber_newton(X, y, np.zeros(X.shape[1]), big_C, tol, done=lambda u, w, w_u: False, max_iter=3)
    assert not never.accepted and np.all((never.u >= 0.0) & (never.u <= big_C))


@pytest.mark.parametrize("n_changed", [0, 3, 40, 100])
def test_dual_weights_updated_over_the_changed_points_equal_the_direct_product(n_changed):
    """sum_i y_i u_i x_i updated from u to u_new over the points whose u_i changed (a few, or more than half:
    recomputed) is X' (y * u_new), as numpy computes it from u_new itself."""
    rng = np.random.default_rng(n_changed)
    X, y = rng.normal(size=(100, 30)), rng.choice([-1.0, 1.0], size=100)
    u = rng.uniform(0.0, 2.0, size=100)
    u_new = u.copy()
    u_new[rng.choice(100, size=n_changed, replace=False)] = rng.uniform(0.0, 2.0, size=n_changed)
    updated = svm_newton._update_dual(X, y, u, X.T @ (y * u), u_new)
    np.testing.assert_allclose(updated, X.T @ (y * u_new), rtol=0, atol=1e-12 * np.abs(X).sum())


@pytest.mark.parametrize("n_free", [0, 1, 2])
@pytest.mark.parametrize("n_zone", [0, 1, 7, 30])
@pytest.mark.parametrize("c", [1.0, 1e4])
def test_newton_step_by_woodbury_equals_the_direct_solve(n_free, n_zone, c):
    """The step through the |S| x |S| matrix (Woodbury, free weights by their Schur complement) is H^-1 g for
    H = diag(p) + c X_S' X_S + ridge I_F, as numpy solves it from H itself; so is the Cholesky step."""
    rng = np.random.default_rng(n_free + 10 * n_zone)
    k = 80
    XS = rng.normal(size=(n_zone, k)) * rng.uniform(0.01, 3.0, size=k)
    p = np.ones(k)
    p[rng.choice(k, size=n_free, replace=False)] = 0.0
    ridge = 1e-6
    hessian = np.diag(p + ridge * (p == 0.0)) + c * XS.T @ XS
    gradient = rng.normal(size=k)
    direct = -np.linalg.solve(hessian, gradient)
    scale = np.abs(direct).max()
    np.testing.assert_allclose(svm_newton._woodbury_step(XS, p, c, ridge, gradient), direct, rtol=0, atol=1e-7 * scale)
    np.testing.assert_allclose(svm_newton._cholesky_step(hessian, gradient), direct, rtol=0, atol=1e-7 * scale)


NEWTON_CASES = [
    (LinearSVMCDMaster, "free", "regularized"),
    (NonnegLinearSVMCDMaster, "nonneg", "regularized"),
    (FreeOffsetSVMCDMaster, "free", "free"),
    (NonnegFreeOffsetSVMCDMaster, "nonneg", "free"),
]


@pytest.fixture(scope="module")
def newton_problem():
    """200 points and 40 columns (linear and RBF, 20 centres each): few enough columns for Newton's method."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.3 + 0.3 * rng.normal(size=200) > 0, 1.0, -1.0)
    columns = KernelColumns(X, ["linear", "rbf"])
    K = np.hstack([columns.block(p, range(20)) for p in range(2)])
    return K / np.abs(K).max(axis=0), y


@pytest.mark.parametrize("master_class, alpha_sign, intercept", NEWTON_CASES)
def test_dual_cd_masters_turn_to_newton_at_large_C_and_reach_the_optimum(
    newton_problem, master_class, alpha_sign, intercept
):
    """At C = 100 coordinate descent needs more than its budget of passes: Newton's method in the primal ends
    solves, starting from its last weights, and every master still reaches the direct QP optimum."""
    K, y = newton_problem
    big_C = 100.0
    reference = highs_qp_reference(K, y, big_C, "hinge", alpha_sign, intercept)
    master = master_class(y, big_C, tol=1e-6, loose_tol=None)
    solution = _add_in_chunks(master, K, chunk=7)
    assert master.n_newton_solves > 0
    assert solution.optimal and solution.objective == pytest.approx(reference, rel=1e-6)
    # the dual objective does not see the offset: complementarity checks alpha and b against the duals
    added = K[:, np.random.default_rng(0).permutation(K.shape[1])]  # _add_in_chunks's order
    _check_complementarity(solution, *_margin_rows(y, "hinge"), added, big_C, tol=1e-4)


@pytest.mark.parametrize("master_class, alpha_sign, intercept", NEWTON_CASES)
def test_dual_cd_masters_go_on_by_coordinate_descent_where_newton_is_not_accepted(
    newton_problem, monkeypatch, master_class, alpha_sign, intercept
):
    """A Newton point that fails the stopping test is only a start: coordinate descent goes on from it."""
    import mkbench.masters.svm_cd_newton as svm_cd_newton

    calls = []

    def refused(X, y, w, C, tol, **options):
        calls.append(tol)
        u = np.full(len(y), C / 2)
        return HuberNewton(w, u, 1, False, X.T @ (y * u))  # a feasible point, not accepted

    monkeypatch.setattr(svm_cd_newton, "huber_newton", refused)
    K, y = newton_problem
    big_C = 100.0
    master = master_class(y, big_C, tol=1e-6, loose_tol=None)
    solution = _add_in_chunks(master, K, chunk=7)
    assert calls and master.n_newton_solves == 0
    assert solution.objective == pytest.approx(
        highs_qp_reference(K, y, big_C, "hinge", alpha_sign, intercept), rel=1e-6
    )


@pytest.mark.parametrize("master_class, alpha_sign, intercept", NEWTON_CASES[::2])  # free alpha: long streaks
def test_dual_cd_masters_probe_coordinate_descent_in_long_newton_streaks_and_reach_the_optimum(
    newton_problem, master_class, alpha_sign, intercept
):
    """Columns added one at a time at C = 100: Newton's method ends solve after solve, coordinate descent is
    probed 10 and 30 solves into the streak (gaps doubling), and the last master is the direct QP optimum."""
    import mkbench.masters.svm_cd as svm_cd

    K, y = newton_problem
    master = master_class(y, 100.0, tol=1e-6, loose_tol=None)
    probes = [s for s in range(80) if s > 0 and not svm_cd.LinearSVMCDMaster._newton_first(_Streak(s))]
    assert probes == [10, 30, 70]
    streaks = []
    newton_first = master._newton_first
    master._newton_first = lambda: streaks.append(master._newton_streak) or newton_first()
    solution = _add_in_chunks(master, K, chunk=1)
    assert max(streaks) > 10  # a probe failed and Newton's method went on
    assert solution.optimal and solution.objective == pytest.approx(
        highs_qp_reference(K, y, 100.0, "hinge", alpha_sign, intercept), rel=1e-6
    )


class _Streak:
    """A stand-in with a streak of Newton solves, for the probe schedule of ``_newton_first``."""

    def __init__(self, streak):
        self._newton_streak = streak


def test_dual_cd_masters_turn_to_newton_where_columns_outnumber_the_points(problem):
    """150 columns on 50 points at C = 100: Newton's method over the 150 weights still ends the solve, at the optimum."""
    K, y, _ = problem
    K = K / np.abs(K).max(axis=0)
    master = LinearSVMCDMaster(y, 100.0, tol=1e-6, columns=K)
    solution = master.solve()
    assert master.n_newton_solves == 1
    assert solution.objective == pytest.approx(
        highs_qp_reference(K, y, 100.0, "hinge", "free", "regularized"), rel=1e-6
    )
