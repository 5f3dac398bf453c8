"""The 1-norm LP masters over HiGHS (lp_highs.LPMaster, lp_dual_highs.DualLPMaster, the same LP as its dual):
incremental = full = linprog, KKT, pricing optimality, warm re-solves, failures."""

import highspy
import numpy as np
import pytest

from mkbench.exceptions import SolverError
from mkbench.masters import DualLPMaster, LPMaster, solve_lp

from ._masters_common import (
    TOL,
    C,
    _add_in_chunks,
    _check_complementarity,
    _margin_rows,
    linprog_reference,
)


LP_ROUTES = [LPMaster, DualLPMaster]  # the primal LP, and the same LP solved as its dual (eq. 5)

LP_CASES = [
    ("nonneg", "none"),  # LPBoost, cgboost eq. 4
    ("free", "free"),  # SSMK eq. 9
    ("nonneg", "free"),  # cgboost §4.1, b free
    ("free", "regularized"),  # cgboost §4.1, b a constant column
]


@pytest.mark.parametrize("route", LP_ROUTES)
@pytest.mark.parametrize(("alpha_sign", "intercept"), LP_CASES)
def test_lp_incremental_equals_full_equals_linprog(problem, alpha_sign, intercept, route):
    K, y, _ = problem
    full = route(y, C, alpha_sign=alpha_sign, intercept=intercept, columns=K).solve()
    incremental = _add_in_chunks(route(y, C, alpha_sign=alpha_sign, intercept=intercept), K)
    reference = linprog_reference(K, y, C, alpha_sign, intercept)
    assert full.optimal and incremental.optimal
    assert full.objective == pytest.approx(reference, rel=1e-6)
    assert incremental.objective == pytest.approx(reference, rel=1e-6)


@pytest.mark.parametrize("route", LP_ROUTES)
@pytest.mark.parametrize(("alpha_sign", "intercept"), LP_CASES)
def test_lp_duals_satisfy_kkt(problem, alpha_sign, intercept, route):
    K, y, _ = problem
    master = route(y, C, alpha_sign=alpha_sign, intercept=intercept, columns=K)
    solution = master.solve()
    _check_complementarity(solution, *_margin_rows(y, "hinge"), K, C)
    u, alpha = solution.duals, solution.alpha
    np.testing.assert_allclose(solution.pricing_weights, y * u)
    scores = K.T @ solution.pricing_weights  # sum_i u_i y_i K_ij, eq. 6
    # dual feasibility (eq. 5, SSMK eq. 10) at the full optimum: Theorem 3.1 / Proposition 1
    assert master.violation(scores).max() <= TOL
    # reduced-cost complementarity: alpha_j != 0 only where the dual constraint is tight
    np.testing.assert_allclose(scores[alpha > 1e-9], 1.0, atol=TOL)
    np.testing.assert_allclose(scores[alpha < -1e-9], -1.0, atol=TOL)
    if intercept == "free":
        assert abs(u @ y) <= TOL
    if intercept == "regularized":
        assert abs(u @ y) <= 1 + TOL
    # strong duality with the dual objective sum_i u_i, and the primal objective of (alpha, b, xi)
    assert solution.objective == pytest.approx(u.sum(), rel=1e-9)
    b_cost = abs(solution.intercept) if intercept == "regularized" else 0.0
    assert solution.objective == pytest.approx(np.abs(alpha).sum() + b_cost + C * solution.xi.sum(), rel=1e-7)


@pytest.mark.parametrize("route", LP_ROUTES)
@pytest.mark.parametrize(("alpha_sign", "intercept"), [("nonneg", "none"), ("free", "free")])
def test_lp_pricing_detects_missing_columns(problem, alpha_sign, intercept, route):
    K, y, _ = problem
    full = solve_lp(K, y, C, alpha_sign=alpha_sign, intercept=intercept)
    support = np.flatnonzero(np.abs(full.alpha) > 1e-9)
    master = route(y, C, alpha_sign=alpha_sign, intercept=intercept, columns=K[:, support])
    restricted = master.solve()
    assert restricted.objective == pytest.approx(full.objective, rel=1e-9)
    assert master.violation(K.T @ restricted.pricing_weights).max() <= TOL  # tau <= 1: optimal
    useful = support[np.argmax(np.abs(full.alpha[support]))]
    without = np.setdiff1d(support, useful)
    master = route(y, C, alpha_sign=alpha_sign, intercept=intercept, columns=K[:, without])
    restricted = master.solve()
    assert restricted.objective > full.objective + 1e-6
    assert master.violation(K.T @ restricted.pricing_weights).max() > 1e-6  # tau > 1: a column enters


@pytest.mark.parametrize("route", LP_ROUTES)
def test_free_lp_split_is_complementary(problem, route):
    K, y, _ = problem
    master = route(y, C, alpha_sign="free", intercept="free", columns=K)
    solution = master.solve()
    u, v = master.alpha_parts()
    assert np.all(u >= 0) and np.all(v >= 0)
    assert np.max(u * v) <= 1e-12
    np.testing.assert_allclose(u - v, solution.alpha, atol=1e-15)


@pytest.mark.parametrize("route", LP_ROUTES)
def test_lp_resolve_is_warm(problem, route):
    K, y, _ = problem
    master = route(y, C, columns=K[:, :60])
    assert master.solve().iterations > 0
    assert master.solve().iterations == 0  # HiGHS kept the optimal basis


@pytest.mark.parametrize("route", LP_ROUTES)
def test_lp_failure_raises_or_records(problem, route):
    K, y, _ = problem
    limited = {"simplex_iteration_limit": 0, "presolve": "off"}
    with pytest.raises(
        SolverError,
        match=r"status 'Iteration limit reached'.*50 data rows, 150 columns.*"
        r"not used\. Scale the inputs .*or lower C\.$",
    ):
        route(y, C, columns=K, options=limited).solve()
    record = route(y, C, columns=K, options=limited, on_failure="record").solve()
    assert not record.optimal and record.status == "Iteration limit reached"
    assert np.isnan(record.objective) and np.all(np.isnan(record.duals))


class _UnknownOnce:
    """A HiGHS instance whose first run ends without a verdict (status "Unknown"), as one warm LPBoost LP did."""

    def __init__(self, highs):
        self._highs, self.cleared, self._unknown = highs, 0, True

    def __getattr__(self, name):
        return getattr(self._highs, name)

    def getModelStatus(self):
        status = self._highs.getModelStatus()
        return highspy.HighsModelStatus.kUnknown if self._unknown else status

    def clearSolver(self):
        self.cleared += 1
        self._unknown = False
        return self._highs.clearSolver()


@pytest.mark.parametrize("route", LP_ROUTES)
def test_lp_without_a_verdict_is_solved_again_from_scratch(problem, route):
    K, y, _ = problem
    master = route(y, C, columns=K[:, :60])
    master.solve()
    master.add_columns(K[:, 60:])
    master._highs = flaky = _UnknownOnce(master._highs)
    solution = master.solve()
    assert flaky.cleared == 1 and solution.optimal
    assert solution.objective == pytest.approx(route(y, C, columns=K).solve().objective, rel=1e-9)


@pytest.mark.parametrize("route", LP_ROUTES)
def test_lp_rejects_bad_arguments(problem, route):
    K, y, _ = problem
    with pytest.raises(ValueError, match="no_such_option"):
        route(y, C, options={"no_such_option": 1})
    with pytest.raises(ValueError, match=r"labels in \{-1, \+1\}"):
        route((y + 1) / 2, C)
    with pytest.raises(ValueError, match="on_failure='ignore'"):
        route(y, C, on_failure="ignore")
    with pytest.raises(ValueError, match="C must be"):
        route(y, 0.0)
    with pytest.raises(ValueError, match=r"shape \(50, k\)"):
        route(y, C).add_columns(K[:10])
