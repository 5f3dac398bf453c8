"""The QP master over Clarabel or OSQP (qp_osqp.QPMaster, solve_qp): incremental = full = HiGHS's QP, KKT,
Theorem 3.1 and Proposition 4.1 (duality gaps), failures."""

import numpy as np
import pytest

from mkbench.exceptions import SolverError
from mkbench.masters import QPMaster, solve_qp

from ._masters_common import (
    C,
    _add_in_chunks,
    _check_complementarity,
    _margin_rows,
    _targets,
    highs_qp_reference,
)


QP_CASES = [
    ("hinge", "nonneg", "none"),  # cgboost eq. 7
    ("hinge", "free", "none"),  # eq. 11
    ("hinge", "nonneg", "free"),  # §4.1, b free
    ("hinge", "free", "regularized"),  # §4.1, b a constant column
    ("epsilon_insensitive", "free", "none"),  # eq. 13
    ("epsilon_insensitive", "free", "free"),
    ("epsilon_insensitive", "nonneg", "regularized"),
]


@pytest.mark.parametrize("solver", ["clarabel", "osqp"])
@pytest.mark.parametrize(("loss", "alpha_sign", "intercept"), QP_CASES)
def test_qp_incremental_equals_full_equals_highs(problem, loss, alpha_sign, intercept, solver):
    K, y = _targets(problem, loss)
    options = dict(loss=loss, alpha_sign=alpha_sign, intercept=intercept, solver=solver)
    full = solve_qp(K, y, C, **options)
    incremental = _add_in_chunks(QPMaster(y, C, **options), K)
    reference = highs_qp_reference(K, y, C, loss, alpha_sign, intercept)
    assert full.optimal and incremental.optimal
    assert full.objective == pytest.approx(reference, rel=1e-6)
    assert incremental.objective == pytest.approx(reference, rel=1e-6)


@pytest.mark.parametrize("solver", ["clarabel", "osqp"])
@pytest.mark.parametrize(("loss", "alpha_sign", "intercept"), QP_CASES)
def test_qp_duals_satisfy_kkt(problem, loss, alpha_sign, intercept, solver):
    K, y = _targets(problem, loss)
    solution = solve_qp(K, y, C, loss=loss, alpha_sign=alpha_sign, intercept=intercept, solver=solver)
    S, rhs = _margin_rows(y, loss)
    _check_complementarity(solution, S, rhs, K, C)
    u, alpha, b = solution.duals, solution.alpha, solution.intercept
    w = solution.pricing_weights
    np.testing.assert_allclose(w, S.T @ u, atol=1e-12)  # y * u (eq. 10, 12) or u - v (eq. 14)
    scores = K.T @ w
    # stationarity in alpha (eq. 8): alpha_j - score_j = t_j >= 0, t_j alpha_j = 0, or alpha = score when free
    expected = np.maximum(scores, 0.0) if alpha_sign == "nonneg" else scores
    np.testing.assert_allclose(alpha, expected, atol=1e-6)
    if intercept == "free":
        assert abs(w.sum()) <= 1e-6
    if intercept == "regularized":
        assert b == pytest.approx(w.sum(), abs=1e-6)
    if loss == "epsilon_insensitive":
        n = len(y)
        assert np.max(u[:n] * u[n:]) <= 1e-9  # a point is not above and below the tube
    # strong duality: primal objective = sum_r u_r rhs_r - ||alpha||^2 / 2 - b^2 / 2 (regularised b)
    b_term = b**2 / 2 if intercept == "regularized" else 0.0
    assert solution.objective == pytest.approx(u @ rhs - alpha @ alpha / 2 - b_term, rel=1e-6)


def test_qp_theorem_3_1_nonneg(problem):
    K, y, _ = problem
    full = solve_qp(K, y, C)
    support = np.flatnonzero(full.alpha > 1e-6)
    rest = np.setdiff1d(np.arange(K.shape[1]), support)
    master = QPMaster(y, C, columns=K[:, support])
    restricted = master.solve()
    assert restricted.objective == pytest.approx(full.objective, rel=1e-6)
    assert master.violation(K[:, rest].T @ restricted.pricing_weights).max() <= 1e-6  # tau <= 0, eq. 10
    warm = QPMaster(y, C, columns=K[:, support], solver="osqp")
    warm.solve()
    warm.add_columns(K[:, rest])  # none violates: OSQP's warm start is already optimal
    assert warm.solve().iterations <= 50
    useful = support[np.argmax(full.alpha[support])]
    master = QPMaster(y, C, columns=K[:, np.setdiff1d(support, useful)])
    restricted = master.solve()
    assert restricted.objective > full.objective + 1e-6
    assert master.violation(K[:, useful].T @ restricted.pricing_weights) > 1e-4


def test_qp_free_duality_gap_is_proposition_4_1(problem):
    K, y, _ = problem
    full = solve_qp(K, y, C, alpha_sign="free")
    np.testing.assert_allclose(full.alpha, K.T @ full.pricing_weights, atol=1e-6)  # tau = 0 (Remark 4.1)
    working = np.random.default_rng(1).permutation(K.shape[1])[:40]
    master = QPMaster(y, C, alpha_sign="free", columns=K[:, working])
    restricted = master.solve()
    scores = K.T @ restricted.pricing_weights
    outside = np.setdiff1d(np.arange(K.shape[1]), working)
    master_dual = restricted.duals.sum() - scores @ scores / 2  # dual objective of the master at u-hat
    gap = restricted.objective - master_dual
    assert gap == pytest.approx((scores[outside] ** 2).sum() / 2, rel=1e-6)
    assert master.duality_gap(scores[outside]) == pytest.approx(gap, rel=1e-6)
    assert master_dual <= full.objective + 1e-6 <= restricted.objective + 2e-6
    assert master.violation(scores[outside]).max() > 1e-3  # tau > 0 (eq. 12): not optimal yet


def test_qp_nonneg_duality_gap_is_primal_minus_dual(problem):
    """alpha >= 0: the dual function at u-hat is sum u - 1/2 sum_j max(score_j, 0)^2."""
    K, y, _ = problem
    working = np.arange(0, K.shape[1], 5)
    master = QPMaster(y, C, columns=K[:, working])
    restricted = master.solve()
    scores = K.T @ restricted.pricing_weights
    master_dual = restricted.duals.sum() - (np.maximum(scores, 0) ** 2).sum() / 2
    outside = np.setdiff1d(np.arange(K.shape[1]), working)
    assert master.duality_gap(scores[outside]) == pytest.approx(restricted.objective - master_dual, rel=1e-6)
    assert master_dual <= solve_qp(K, y, C).objective + 1e-6


def test_qp_failure_raises_or_records(problem):
    K, y, _ = problem
    with pytest.raises(
        SolverError,
        match=r"status 'maximum iterations reached'.*50 data rows, 150 columns.*"
        r"Use solver='clarabel'",
    ):
        solve_qp(K, y, C, solver="osqp", max_iter=5)
    record = solve_qp(K, y, C, solver="osqp", max_iter=5, on_failure="record")
    assert record.status == "maximum iterations reached" and record.iterations == 5
    assert np.isnan(record.objective) and np.all(np.isnan(record.alpha))
    with pytest.raises(SolverError, match=r"clarabel stopped with status 'MaxIterations'.*Scale the inputs"):
        solve_qp(K, y, C, settings={"max_iter": 2})
    with pytest.raises(ValueError, match="solver='cplex' is not one of 'clarabel', 'osqp'"):
        QPMaster(y, C, solver="cplex")
