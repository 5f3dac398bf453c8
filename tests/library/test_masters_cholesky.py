"""The least-squares masters whose Cholesky factor grows with them (masters/_cholesky.py): CGEns-SLS's
J x J master against direct solves of (11) and of its m x m form, with one C and per-sample C, in blocks
and with repeated learners; MARK-L's ridge master with repeated columns and a reserved capacity."""

import numpy as np
import pytest

from mkbench.estimators.cgens_sls import simplex_code
from mkbench.exceptions import SolverError
from mkbench.masters._cholesky import GrowingCholesky
from mkbench.masters.ridge import RidgeMaster
from mkbench.masters.simplex_ls import SimplexLSMaster


def _direct_sls(H, L, costs):
    """(10) with per-sample C_i as one least-squares solve (numpy.linalg.lstsq):
    min 1/2 ||W||^2 + 1/2 sum_i C_i ||L_i - H_i W - b||^2; returns W, b, the objective."""
    m, J = H.shape
    root = np.sqrt(costs)[:, None]
    A = np.vstack([root * np.hstack([H, np.ones((m, 1))]), np.hstack([np.eye(J), np.zeros((J, 1))])])
    B = np.vstack([root * L, np.zeros((J, L.shape[1]))])
    theta = np.linalg.lstsq(A, B, rcond=None)[0]
    W, b = theta[:J], theta[J]
    residual = L - H @ W - b
    return W, b, 0.5 * np.sum(W**2) + 0.5 * np.sum(costs[:, None] * residual**2)


def _m_by_m(H, L, costs):
    """(11) by the m x m matrix S = H H' + D^-1 (scipy-free: numpy.linalg.solve): b, U = S^-1 (L - 1 b')."""
    S = H @ H.T + np.diag(1.0 / costs)
    SL, S1 = np.linalg.solve(S, L), np.linalg.solve(S, np.ones(len(L)))
    b = SL.sum(axis=0) / S1.sum()
    return b, SL - np.outer(S1, b)


def _learners(rng, m, n):
    """n +-1 stump outputs on m points, some of them nearly repeated (thresholds one point apart)."""
    z = rng.normal(size=m)
    thresholds = np.sort(z)
    return np.column_stack(
        [np.where(z > thresholds[(t // 2) % m] if t % 2 else rng.normal(size=m) > 0, 1.0, -1.0) for t in range(n)]
    )


@pytest.mark.parametrize("weighted", [False, True])
def test_sls_master_equals_direct_solves_after_each_block_of_many_learners(weighted):
    """70 learners on 50 points (J > m: Hc'D Hc singular, the ridge alone keeps it definite), in blocks."""
    rng = np.random.default_rng(11)
    m, C = 50, 2.0
    L = simplex_code(3)[rng.integers(0, 3, m)]
    costs = C * rng.uniform(0.2, 3.0, m) if weighted else np.full(m, C)
    H = _learners(rng, m, 70)
    master = SimplexLSMaster(L, costs if weighted else C)
    added = 0
    for block in [1, 1, 2, 1, 5, 1, 10, 1, 1, 17, 30]:
        master.add_columns(H[:, added : added + block])
        added += block
        solution = master.solve()
        W, b, objective = _direct_sls(H[:, :added], L, costs)
        np.testing.assert_allclose(solution.alpha, W, atol=1e-9 * max(1.0, np.abs(W).max()))
        np.testing.assert_allclose(solution.intercept, b, atol=1e-9)
        assert solution.objective == pytest.approx(objective, rel=1e-10)
        b_S, U = _m_by_m(H[:, :added], L, costs)
        np.testing.assert_allclose(solution.intercept, b_S, atol=1e-9)
        np.testing.assert_allclose(solution.duals, U, atol=1e-9)  # U = S^-1 (L - 1 b'), eq. 11
        np.testing.assert_allclose(H[:, :added].T @ solution.duals, solution.alpha, atol=1e-9)  # W = H'U
    assert added == 70
    np.testing.assert_allclose(master.H, H, atol=1e-12)


def test_sls_master_with_zero_weights_equals_the_direct_solve():
    """Rows of C_i = 0 leave the loss: the solve ignores them, U_i = 0 there (m x m form undefined)."""
    rng = np.random.default_rng(12)
    m = 40
    L = simplex_code(4)[rng.integers(0, 4, m)]
    costs = rng.uniform(0.5, 2.0, m) * (rng.random(m) > 0.3)
    H = _learners(rng, m, 25)
    master = SimplexLSMaster(L, costs)
    for t in range(25):
        master.add_columns(H[:, t])
        solution = master.solve()
        W, b, objective = _direct_sls(H[:, : t + 1], L, costs)
        np.testing.assert_allclose(solution.alpha, W, atol=1e-9 * max(1.0, np.abs(W).max()))
        np.testing.assert_allclose(solution.intercept, b, atol=1e-9)
        assert solution.objective == pytest.approx(objective, rel=1e-10)
        assert np.all(solution.duals[costs == 0] == 0)


@pytest.mark.parametrize("C", [1.0, 1e6])
def test_repeated_learner_still_solves(C):
    """A learner entered twice (and once more up to 1e-12): Hc'Hc is singular, + I/C keeps it definite."""
    rng = np.random.default_rng(13)
    m = 400
    L = simplex_code(3)[rng.integers(0, 3, m)]
    H = _learners(rng, m, 6)
    H = np.column_stack([H, H[:, 2], H[:, 4] + 1e-12 * rng.normal(size=m)])
    master = SimplexLSMaster(L, C)
    for t in range(H.shape[1]):
        master.add_columns(H[:, t])
        solution = master.solve()
        W, b, objective = _direct_sls(H[:, : t + 1], L, np.full(m, C))
        np.testing.assert_allclose(solution.alpha, W, atol=1e-7 * max(1.0, np.abs(W).max()))
        np.testing.assert_allclose(solution.intercept, b, atol=1e-7)
        assert solution.objective == pytest.approx(objective, rel=1e-9)
    np.testing.assert_allclose(solution.alpha[2], solution.alpha[6], atol=1e-7)  # equal columns share the weight


def test_ridge_master_with_repeated_columns_and_a_small_capacity_equals_the_direct_solve():
    """MARK-L's master (eq. 9) past its reserved capacity, a column repeated and one nearly so."""
    rng = np.random.default_rng(14)
    n, C = 60, 0.05
    y = rng.normal(size=n)
    columns = np.exp(-rng.uniform(0, 3, size=(n, 30)))
    columns = np.column_stack([columns, columns[:, 3], columns[:, 7] * (1 + 1e-13)])
    master = RidgeMaster(y, C, capacity=2)
    added = 0
    for block in [1, 2, 1, 9, 1, 18]:
        master.add_columns(columns[:, added : added + block])
        added += block
        solution = master.solve()
        G = np.column_stack([np.ones(n), columns[:, :added]])  # the order [e, K] of the master
        A = np.vstack([G, np.sqrt(C) * np.eye(added + 1)])
        theta = np.linalg.lstsq(A, np.concatenate([y, np.zeros(added + 1)]), rcond=None)[0]
        np.testing.assert_allclose(solution.alpha, theta[1:], rtol=1e-7, atol=1e-9)
        assert solution.intercept == pytest.approx(theta[0], rel=1e-9)
        np.testing.assert_allclose(solution.pricing_weights, y - G @ theta, atol=1e-9)
    assert added == 32


def test_growing_factor_refuses_an_indefinite_extension():
    """Rounding (or a caller's bad block) that makes the Schur complement indefinite is a SolverError."""
    factor = GrowingCholesky(None, "increase C")
    factor.extend(np.zeros((0, 2)), np.array([[4.0, 2.0], [2.0, 5.0]]), np.array([1.0, 2.0]))
    np.testing.assert_allclose(factor.solve(), np.linalg.solve([[4.0, 2.0], [2.0, 5.0]], [1.0, 2.0]))
    with pytest.raises(SolverError, match=r"adding rows 3-3 .*increase C"):
        factor.extend(np.array([[2.0], [2.5]]), np.array([[1.0]]), np.array([0.0]))  # A would have det < 0
    assert len(factor) == 2  # left as it was


@pytest.mark.parametrize("module", ["ridge", "simplex_ls"])
def test_solve_seconds_count_the_columns_added_since_the_last_solve(module, monkeypatch):
    """A solve's seconds (history_'s master_seconds) include add_columns' work: a clock ticking 1 s per reading."""
    import importlib
    from itertools import count

    ticks = count()
    monkeypatch.setattr(importlib.import_module(f"mkbench.masters.{module}"), "perf_counter", lambda: next(ticks))
    rng = np.random.default_rng(15)
    master = RidgeMaster(rng.normal(size=9), 1.0) if module == "ridge" else SimplexLSMaster(np.c_[np.ones(9)], 1.0)
    master.add_columns(rng.normal(size=9))
    master.add_columns(rng.normal(size=(9, 2)))
    assert master.solve().seconds == 3  # two additions and the solve, 1 s each
    assert master.solve().seconds == 1  # nothing added since
