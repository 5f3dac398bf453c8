"""Restricted masters: incremental = full = independent reference, KKT, pricing optimality, failures.

References are built here from the papers' formulas, independently of the masters:
the LPs (cgboost eq. 4, SSMK eq. 9) with scipy's linprog, the QPs (cgboost eq. 7,
11, 13) with HiGHS's QP solver.
"""

import highspy
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.svm import LinearSVC

from mkbench.exceptions import SolverError
from mkbench.kernels import KernelColumns
from mkbench.masters import (
    DualLPMaster,
    FreeOffsetSVMCDMaster,
    LinearSVMCDMaster,
    LPMaster,
    NonnegFreeOffsetSVMCDMaster,
    NonnegLinearSVMCDMaster,
    NonnegSVMDualMaster,
    QPMaster,
    SVMDualMaster,
    make_qp_master,
    solve_lp,
    solve_qp,
)
from mkbench.masters.svm_cd import projected_gradient_span
from mkbench.masters import svm_newton
from mkbench.masters.svm_newton import HuberNewton, huber_newton

C = 1.0
TOL = 1e-7
LP_ROUTES = [LPMaster, DualLPMaster]  # the primal LP, and the same LP solved as its dual (eq. 5)

LP_CASES = [
    ("nonneg", "none"),  # LPBoost, cgboost eq. 4
    ("free", "free"),  # SSMK eq. 9
    ("nonneg", "free"),  # cgboost §4.1, b free
    ("free", "regularized"),  # cgboost §4.1, b a constant column
]
QP_CASES = [
    ("hinge", "nonneg", "none"),  # cgboost eq. 7
    ("hinge", "free", "none"),  # eq. 11
    ("hinge", "nonneg", "free"),  # §4.1, b free
    ("hinge", "free", "regularized"),  # §4.1, b a constant column
    ("epsilon_insensitive", "free", "none"),  # eq. 13
    ("epsilon_insensitive", "free", "free"),
    ("epsilon_insensitive", "nonneg", "regularized"),
]


@pytest.fixture(scope="module")
def problem():
    """50 points, columns [K_linear | K_quadratic | K_rbf] (50 x 150), labels and responses."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.3 + 0.3 * rng.normal(size=50) > 0, 1.0, -1.0)
    response = X[:, 0] + np.sin(X[:, 1]) + 0.1 * rng.normal(size=50)
    columns = KernelColumns(X, ["linear", "quadratic", "rbf"])
    K = np.hstack([columns.block(p, range(50)) for p in range(3)])
    return K, y, response


def _targets(problem, loss):
    K, y, response = problem
    return K, (y if loss == "hinge" else response)


def _margin_rows(y, loss, epsilon=0.1):
    """(S, rhs) with the margin constraints S f + xi >= rhs of eq. 4/7 (hinge) or eq. 13."""
    n = len(y)
    if loss == "hinge":
        return np.diag(y), np.ones(n)
    return np.vstack([np.eye(n), -np.eye(n)]), np.concatenate([y - epsilon, -y - epsilon])


def linprog_reference(K, y, C, alpha_sign, intercept):
    """Optimal value of LP (4) / (9) over variables [alpha+ | alpha- | b+ | b- | xi]."""
    n, d = K.shape
    YK = y[:, None] * K
    blocks, cost, bounds = [YK], [np.ones(d)], [(0, None)] * d
    if alpha_sign == "free":
        blocks, cost, bounds = blocks + [-YK], cost + [np.ones(d)], bounds + [(0, None)] * d
    if intercept == "free":
        blocks, cost, bounds = blocks + [y[:, None]], cost + [np.zeros(1)], bounds + [(None, None)]
    if intercept == "regularized":
        blocks, cost, bounds = blocks + [np.c_[y, -y]], cost + [np.ones(2)], bounds + [(0, None)] * 2
    blocks, cost, bounds = blocks + [np.eye(n)], cost + [np.full(n, C)], bounds + [(0, None)] * n
    A_ub, b_ub = -np.hstack(blocks), -np.ones(n)
    res = linprog(np.concatenate(cost), A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs")
    assert res.status == 0
    return res.fun


def highs_qp_reference(K, y, C, loss, alpha_sign, intercept, epsilon=0.1):
    """Optimal value of QP (7) / (11) / (13) over variables [alpha | b | xi], by HiGHS's QP solver."""
    inf = highspy.kHighsInf
    d = K.shape[1]
    S, rhs = _margin_rows(y, loss, epsilon)
    m = len(rhs)
    A = sp.csc_matrix(np.hstack([S @ K, S.sum(axis=1, keepdims=True), np.eye(m)]))
    alpha_lower, b_bound = (0.0 if alpha_sign == "nonneg" else -inf), (0.0 if intercept == "none" else inf)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = d + 1 + m, m
    lp.col_cost_ = np.concatenate([np.zeros(d + 1), np.full(m, C)])
    lp.col_lower_ = np.concatenate([np.full(d, alpha_lower), [-b_bound], np.zeros(m)])
    lp.col_upper_ = np.concatenate([np.full(d, inf), [b_bound], np.full(m, inf)])
    lp.row_lower_, lp.row_upper_ = rhs, np.full(m, inf)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    b_weight = 1.0 if intercept == "regularized" else 0.0
    H = sp.diags(np.concatenate([np.ones(d), [b_weight], np.zeros(m)]), format="csc")
    hessian = highspy.HighsHessian()
    hessian.dim_, hessian.format_ = d + 1 + m, highspy.HessianFormat.kTriangular
    hessian.start_, hessian.index_, hessian.value_ = H.indptr, H.indices, H.data
    model = highspy.HighsModel()
    model.lp_, model.hessian_ = lp, hessian
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.passModel(model)
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return h.getInfo().objective_function_value


def _add_in_chunks(master, K, chunk=37, seed=0):
    """Add the columns of K in a random order, in chunks, solving after each; return the last solution."""
    order = np.random.default_rng(seed).permutation(K.shape[1])
    for start in range(0, len(order), chunk):
        master.add_columns(K[:, order[start : start + chunk]])
        solution = master.solve()
    return solution


def _check_complementarity(solution, S, rhs, K, C, tol=1e-6):
    """Primal feasibility, 0 <= u <= C, u = C where xi > tol, u = 0 where the margin constraint is slack by > tol."""
    u, xi = solution.duals, solution.xi
    slack = S @ (K @ solution.alpha + solution.intercept) + xi - rhs
    assert np.all(xi >= -TOL) and np.all(slack >= -TOL)
    assert np.all(u >= -TOL) and np.all(u <= C + TOL)
    np.testing.assert_allclose(u[xi > tol], C, atol=1e-6)
    np.testing.assert_allclose(u[slack > tol], 0.0, atol=1e-6)


# ---------------------------------------------------------------- LP (HiGHS)


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


# ---------------------------------------------------------------- QP (Clarabel, OSQP)


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


# ---------------------------------------------------------------- QP, free alpha and free b (libsvm)

SVM_CASES = ["hinge", "epsilon_insensitive"]


@pytest.mark.parametrize("loss", SVM_CASES)
def test_svm_dual_incremental_equals_full_equals_highs(problem, loss):
    K, y = _targets(problem, loss)
    full = SVMDualMaster(y, C, loss=loss, columns=K).solve()
    incremental = _add_in_chunks(SVMDualMaster(y, C, loss=loss), K)
    reference = highs_qp_reference(K, y, C, loss, "free", "free")
    assert full.optimal and incremental.optimal
    assert full.objective == pytest.approx(reference, rel=1e-6)
    assert incremental.objective == pytest.approx(reference, rel=1e-6)


@pytest.mark.parametrize("loss", SVM_CASES)
def test_svm_dual_satisfies_kkt_like_the_clarabel_master(problem, loss):
    K, y = _targets(problem, loss)
    solution = SVMDualMaster(y, C, loss=loss, columns=K).solve()
    S, rhs = _margin_rows(y, loss)
    # libsvm caches kernel values in single precision: margins here are exact to ~1e-4, not 1e-9
    _check_complementarity(solution, S, rhs, K, C, tol=1e-3)
    w = solution.pricing_weights
    np.testing.assert_allclose(w, S.T @ solution.duals, atol=1e-12)
    np.testing.assert_allclose(solution.alpha, K.T @ w, atol=1e-12)  # eq. 8, free alpha
    assert abs(w.sum()) <= 1e-6  # free b: sum_r u_r s_r = 0
    clarabel = solve_qp(K, y, C, loss=loss, alpha_sign="free", intercept="free")
    np.testing.assert_allclose(solution.alpha, clarabel.alpha, atol=1e-3 * np.abs(clarabel.alpha).max())
    # (the duals need not agree: u is not unique when K K' is singular, here 150 columns of rank 50)


# The two active-set masters: libsvm's with a free b (hinge and epsilon-insensitive), dual CD's
# with b penalised (hinge only), solved tightly here so that they meet the 1e-6 references.
NONNEG_MASTERS = {
    "libsvm": (lambda y, C, loss, **kw: NonnegSVMDualMaster(y, C, loss=loss, **kw), "free"),
    "dual_cd": (lambda y, C, loss, **kw: NonnegLinearSVMCDMaster(y, C, tol=1e-9, loose_tol=None, **kw), "regularized"),
}


@pytest.mark.parametrize(
    "backend, loss", [("libsvm", "hinge"), ("libsvm", "epsilon_insensitive"), ("dual_cd", "hinge")]
)
def test_nonneg_masters_equal_the_full_qp_whatever_the_column_order(problem, backend, loss):
    """Lawson-Hanson over libsvm or dual CD reaches the alpha >= 0 optimum (eq. 7, 13 with b), with the
    columns arriving one by one in a random order (as in CG), in chunks, or all at once. SVR gets
    the linear and RBF columns only: SMO crawls on the quadratic ones (see qp_libsvm)."""
    make, intercept = NONNEG_MASTERS[backend]
    K, y = _targets(problem, loss)
    if loss == "epsilon_insensitive":
        K = np.hstack([K[:, :50], K[:, 100:]])
    reference = highs_qp_reference(K, y, C, loss, "nonneg", intercept)
    clarabel = solve_qp(K, y, C, loss=loss, alpha_sign="nonneg", intercept=intercept)
    order = np.random.default_rng(1).permutation(K.shape[1])
    one_by_one = make(y, C, loss)
    for j in order:
        one_by_one.add_columns(K[:, j])
        shuffled = one_by_one.solve()
    chunked = _add_in_chunks(make(y, C, loss), K)  # its own random order, seed 0
    at_once = make(y, C, loss, columns=K).solve()
    orders = (order, np.random.default_rng(0).permutation(K.shape[1]), np.arange(K.shape[1]))
    for columns, solution in zip(orders, (shuffled, chunked, at_once), strict=True):
        assert solution.optimal and solution.objective == pytest.approx(reference, rel=1e-6)
        assert solution.alpha.min() >= 0.0
        scores = K[:, columns].T @ solution.pricing_weights
        np.testing.assert_allclose(solution.alpha, np.maximum(scores, 0.0), atol=1e-6)  # eq. 8 with alpha >= 0
        alpha = np.empty_like(solution.alpha)
        alpha[columns] = solution.alpha
        np.testing.assert_allclose(alpha, clarabel.alpha, atol=1e-3 * clarabel.alpha.max())
        assert solution.intercept == pytest.approx(clarabel.intercept, abs=1e-3 * clarabel.alpha.max())


def test_nonneg_dual_cd_solves_loosely_until_tightened(problem):
    """With loose_tol the master is cheaper and less accurate; tighten() makes the next solve meet tol."""
    K, y, _ = problem
    reference = highs_qp_reference(K, y, C, "hinge", "nonneg", "regularized")
    master = NonnegLinearSVMCDMaster(y, C, columns=K, tol=1e-9, loose_tol=0.5)
    loose = master.solve()
    assert loose.optimal and loose.objective < reference * (1 - 1e-6)  # a dual objective: below the optimum
    assert master.tighten() and not master.tighten()
    tight = master.solve()
    assert tight.objective == pytest.approx(reference, rel=1e-7)
    assert tight.iterations > 0  # solved again, not the cached loose solution
    assert NonnegLinearSVMCDMaster(y, C, loose_tol=None).tighten() is False
    with pytest.raises(ValueError, match="loose_tol must be > 0 or None"):
        NonnegLinearSVMCDMaster(y, C, loose_tol=0.0)


def test_nonneg_svm_dual_reports_an_unsettled_active_set(problem):
    K, y, _ = problem
    with pytest.raises(SolverError, match=r"active set unsettled after 1 steps"):
        NonnegSVMDualMaster(y, C, columns=K, max_steps=1).solve()


def test_make_qp_master_backends(problem):
    _, y, _ = problem
    assert isinstance(make_qp_master(y, C, alpha_sign="free", intercept="free", solver="libsvm"), SVMDualMaster)
    assert isinstance(make_qp_master(y, C, intercept="free", solver="libsvm"), NonnegSVMDualMaster)
    default = make_qp_master(y, C, alpha_sign="free", intercept="free")
    assert isinstance(default, QPMaster) and default.solver == "clarabel"
    assert make_qp_master(y, C, solver="osqp").solver == "osqp"
    with pytest.raises(ValueError, match=r"solver='libsvm' .* a free offset .*intercept='none'"):
        make_qp_master(y, C, alpha_sign="free", solver="libsvm")
    cd = {"intercept": "regularized", "solver": "dual_cd"}
    assert type(make_qp_master(y, C, alpha_sign="free", **cd)) is LinearSVMCDMaster
    assert isinstance(make_qp_master(y, C, **cd), NonnegLinearSVMCDMaster)
    assert type(make_qp_master(y, C, alpha_sign="free", intercept="free", solver="dual_cd")) is FreeOffsetSVMCDMaster
    assert type(make_qp_master(y, C, intercept="free", solver="dual_cd")) is NonnegFreeOffsetSVMCDMaster
    with pytest.raises(
        ValueError, match=r"solver='dual_cd' .* a free offset .* or a regularized offset .*intercept='none'"
    ):
        make_qp_master(y, C, intercept="none", solver="dual_cd")
    with pytest.raises(ValueError, match=r"solver='dual_cd' solves the classification master only"):
        make_qp_master(y, C, loss="epsilon_insensitive", **cd)
    with pytest.raises(ValueError, match=r"solver='cvxopt' is not one of"):
        make_qp_master(y, C, solver="cvxopt")


def test_svm_dual_hands_a_crawling_solve_to_clarabel(problem):
    """Past max_iter libsvm's solve goes to Clarabel on the same columns: the optimum all the same, counted."""
    K, y, _ = problem
    master = SVMDualMaster(y, C, columns=K, max_iter=2)
    solution = master.solve()
    assert master.n_exact_solves == 1 and solution.optimal
    assert solution.objective == pytest.approx(highs_qp_reference(K, y, C, "hinge", "free", "free"), rel=1e-6)
    plain = SVMDualMaster(y, C, columns=K)
    assert plain.solve().optimal and plain.n_exact_solves == 0  # the default budget: libsvm alone
    with pytest.raises(ValueError, match="hinge masters need labels"):
        SVMDualMaster(y * 2, C)
    with pytest.raises(ValueError, match="epsilon must be >= 0"):
        SVMDualMaster(y, C, loss="epsilon_insensitive", epsilon=-1)


def test_nonneg_svr_master_reaches_the_optimum_on_quadratic_columns(problem):
    """SMO crawls on the quadratic columns of SVR (eq. 13); with Clarabel taking over, the optimum is reached."""
    K, _, response = problem
    master = NonnegSVMDualMaster(response, C, loss="epsilon_insensitive", max_iter=1000)
    solution = _add_in_chunks(master, K)
    assert master.n_exact_solves > 0
    reference = highs_qp_reference(K, response, C, "epsilon_insensitive", "nonneg", "free")
    assert solution.optimal and solution.objective == pytest.approx(reference, rel=1e-6)


# ---------------------------------------------------------------- QP, liblinear's penalised offset (dual CD)


def test_dual_cd_incremental_equals_full_equals_highs(problem):
    """Warm-started coordinate descent reaches the optimum of eq. 11 with b a constant column (liblinear's
    offset), whether the columns come one by one (as in CG), in chunks, or all at once."""
    K, y, _ = problem
    K = K / np.abs(K).max(axis=0)  # coordinate descent crawls on the raw quadratic columns (|K| up to ~100)
    reference = highs_qp_reference(K, y, C, "hinge", "free", "regularized")
    one_by_one = LinearSVMCDMaster(y, C, tol=1e-10)
    for j in range(K.shape[1]):
        one_by_one.add_columns(K[:, j])
        last = one_by_one.solve()
    chunked = _add_in_chunks(LinearSVMCDMaster(y, C, tol=1e-10), K)
    at_once = LinearSVMCDMaster(y, C, tol=1e-10, columns=K).solve()
    for solution in (last, chunked, at_once):
        assert solution.optimal and solution.objective == pytest.approx(reference, rel=1e-6)
    assert last.iterations < at_once.iterations  # the last column, from the previous alpha: few passes


def test_dual_cd_satisfies_kkt_and_equals_liblinear(problem):
    K, y, _ = problem
    K = K[:, :50]  # the linear kernel's columns, on which liblinear converges to 1e-10
    solution = LinearSVMCDMaster(y, 0.1, tol=1e-10, columns=K).solve()
    S, rhs = _margin_rows(y, "hinge")
    _check_complementarity(solution, S, rhs, K, 0.1, tol=1e-6)
    w = solution.pricing_weights
    np.testing.assert_allclose(w, y * solution.duals, atol=1e-15)
    np.testing.assert_allclose(solution.alpha, K.T @ w, atol=1e-9)  # eq. 8
    assert solution.intercept == pytest.approx(w.sum(), abs=1e-9)  # b = B w_B = B^2 sum_i y_i u_i, B = 1
    liblinear = LinearSVC(loss="hinge", C=0.1, tol=1e-10, max_iter=1_000_000, random_state=0).fit(K, y)
    np.testing.assert_allclose(solution.alpha, liblinear.coef_[0], atol=1e-6)
    assert solution.intercept == pytest.approx(liblinear.intercept_[0], abs=1e-6)


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
    never = huber_newton(X, y, np.zeros(X.shape[1]), big_C, tol, done=lambda u, w, w_u: False, max_iter=3)
    assert not never.accepted and np.all((never.u >= 0.0) & (never.u <= big_C))


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
    import mkbench.masters.svm_cd as svm_cd

    calls = []

    def refused(X, y, w, C, tol, **options):
        calls.append(tol)
        return HuberNewton(w, np.full(len(y), C / 2), 1, False)  # a feasible point, not accepted

    monkeypatch.setattr(svm_cd, "huber_newton", refused)
    K, y = newton_problem
    big_C = 100.0
    master = master_class(y, big_C, tol=1e-6, loose_tol=None)
    solution = _add_in_chunks(master, K, chunk=7)
    assert calls and master.n_newton_solves == 0
    assert solution.objective == pytest.approx(
        highs_qp_reference(K, y, big_C, "hinge", alpha_sign, intercept), rel=1e-6
    )


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


def test_dual_cd_failure_raises_or_records(problem):
    K, y, _ = problem
    with pytest.raises(
        SolverError, match=r"dual coordinate descent stopped with status 'max_epochs reached'.*50 data rows"
    ):
        LinearSVMCDMaster(y, C, columns=K, max_epochs=1).solve()
    record = LinearSVMCDMaster(y, C, columns=K, max_epochs=1, on_failure="record").solve()
    assert record.status == "max_epochs reached" and np.isnan(record.objective)
    with pytest.raises(
        SolverError, match=r"status 'max_epochs reached' on the restricted linear SVM dual \(alpha nonneg\)"
    ):
        NonnegLinearSVMCDMaster(y, C, columns=K, max_epochs=1).solve()
    with pytest.raises(SolverError, match=r"status 'active set unsettled after 1 steps'"):
        NonnegLinearSVMCDMaster(y, C, columns=K, max_steps=1).solve()
    with pytest.raises(ValueError, match="hinge masters need labels"):
        LinearSVMCDMaster(y * 2, C)
    with pytest.raises(ValueError, match="intercept_scaling must be a finite number > 0"):
        LinearSVMCDMaster(y, C, intercept_scaling=0.0)
    with pytest.raises(ValueError, match="tol must be > 0"):
        LinearSVMCDMaster(y, C, tol=0.0)
    with pytest.raises(ValueError, match="columns must have shape"):
        LinearSVMCDMaster(y, C).add_columns(K[:10])


# ---------------------------------------------------------------- QP, free offset (dual CD, method of multipliers)

FREE_OFFSET_MASTERS = {
    "free": lambda y, C, **kw: FreeOffsetSVMCDMaster(y, C, tol=1e-9, **kw),
    "nonneg": lambda y, C, **kw: NonnegFreeOffsetSVMCDMaster(y, C, tol=1e-9, loose_tol=None, **kw),
}


@pytest.mark.parametrize("alpha_sign", ["free", "nonneg"])
def test_free_offset_dual_cd_equals_the_full_qp_whatever_the_column_order(problem, alpha_sign):
    """Coordinate descent with y'u = 0 by the method of multipliers reaches the optimum of eq. 11 / eq. 7 with a
    free b (§4.1, second case), with the columns one by one in a random order, in chunks, or all at once."""

    def make(y, C, **kw):  # a budget large enough that coordinate descent alone reaches tol = 1e-9
        return FREE_OFFSET_MASTERS[alpha_sign](y, C, max_epochs=10**7, **kw)

    K, y, _ = problem
    reference = highs_qp_reference(K, y, C, "hinge", alpha_sign, "free")
    clarabel = solve_qp(K, y, C, alpha_sign=alpha_sign, intercept="free")
    order = np.random.default_rng(1).permutation(K.shape[1])
    one_by_one = make(y, C)
    for j in order:
        one_by_one.add_columns(K[:, j])
        shuffled = one_by_one.solve()
    chunked_master = make(y, C)
    chunked = _add_in_chunks(chunked_master, K)
    at_once = make(y, C, columns=K).solve()
    assert one_by_one.n_exact_solves == chunked_master.n_exact_solves == 0  # the multipliers alone got there
    orders = (order, np.random.default_rng(0).permutation(K.shape[1]), np.arange(K.shape[1]))
    for columns, solution in zip(orders, (shuffled, chunked, at_once), strict=True):
        assert solution.optimal and solution.objective == pytest.approx(reference, rel=1e-6)
        assert abs(y @ solution.duals) <= 1e-6 * C * len(y)  # the equality of the free offset's dual
        scores = K[:, columns].T @ solution.pricing_weights
        expected = scores if alpha_sign == "free" else np.maximum(scores, 0.0)
        np.testing.assert_allclose(solution.alpha, expected, atol=1e-6)  # eq. 8
        alpha = np.empty_like(solution.alpha)
        alpha[columns] = solution.alpha
        np.testing.assert_allclose(alpha, clarabel.alpha, atol=1e-4 * np.abs(clarabel.alpha).max())
        assert solution.intercept == pytest.approx(clarabel.intercept, abs=1e-4 * np.abs(clarabel.alpha).max())
        S, rhs = _margin_rows(y, "hinge")
        _check_complementarity(solution, S, rhs, K[:, columns], C, tol=1e-5)


@pytest.mark.parametrize("alpha_sign", ["free", "nonneg"])
@pytest.mark.parametrize(("scale", "shift"), [(0.01, 0.0), (100.0, 0.0), (1.0, 50.0)])
def test_free_offset_dual_cd_solves_every_input_scale(problem, alpha_sign, scale, shift):
    """The same optimum as Clarabel's full QP whatever the scale of the columns, and shifted columns (raw
    pixels): where coordinate descent crawls (columns x 100 act as C x 10^4) the solve goes to Clarabel."""
    K, y, _ = problem
    K = K * scale + shift
    clarabel = solve_qp(K, y, C, alpha_sign=alpha_sign, intercept="free")
    master = FREE_OFFSET_MASTERS[alpha_sign](y, C)
    solution = _add_in_chunks(master, K, chunk=25)
    assert solution.optimal
    primal = 0.5 * solution.alpha @ solution.alpha + C * solution.xi.sum()
    alpha = np.empty_like(solution.alpha)
    alpha[np.random.default_rng(0).permutation(K.shape[1])] = solution.alpha
    # at scale 100 (objective ~0.02) Clarabel's and HiGHS's own optima differ by 1e-4 relative
    assert primal == pytest.approx(clarabel.objective, rel=1e-3)
    np.testing.assert_allclose(alpha, clarabel.alpha, atol=1e-3 * np.abs(clarabel.alpha).max())
    if scale == 100.0:
        assert master.n_exact_solves > 0


def test_free_offset_dual_cd_hands_every_solve_to_clarabel_without_budget(problem):
    """With max_epochs=1 every solve is Clarabel's, and coordinate descent resumes from its u: still the optimum."""
    K, y, _ = problem
    master = NonnegFreeOffsetSVMCDMaster(y, C, tol=1e-9, loose_tol=None, max_epochs=1)
    solution = _add_in_chunks(master, K)
    assert master.n_exact_solves >= 150 // 37
    assert solution.objective == pytest.approx(highs_qp_reference(K, y, C, "hinge", "nonneg", "free"), rel=1e-6)


@pytest.mark.parametrize("master_class", [FreeOffsetSVMCDMaster, NonnegFreeOffsetSVMCDMaster])
def test_free_offset_dual_cd_goes_on_where_clarabel_fails_too(problem, monkeypatch, master_class):
    """Where coordinate descent crawls and Clarabel fails as well (it stopped 'AlmostSolved' on flare-solar with 500
    Fourier learners), coordinate descent goes on with more passes and still reaches the optimum; if those run out
    too, the failure names both."""
    import mkbench.masters.svm_cd as svm_cd
    import mkbench.masters.svm_cd_offset as offset

    def failing(K, y, C, **options):
        assert options["on_failure"] == "record"
        failed = solve_qp(K, y, C, **options, settings={"max_iter": 1})  # Clarabel stopped after one iteration
        assert not failed.optimal
        return failed

    monkeypatch.setattr(offset, "solve_qp", failing)
    monkeypatch.setattr(svm_cd, "NEWTON_AFTER", 10**9)  # no Newton: coordinate descent crawls to its budget
    K, y, _ = problem
    K = np.hstack([K[:, :50], K[:, 100:]])  # linear and RBF columns: coordinate descent converges without Clarabel
    sign = "free" if master_class is FreeOffsetSVMCDMaster else "nonneg"
    reference = highs_qp_reference(K, y, C, "hinge", sign, "free")
    master = master_class(y, C, tol=1e-6, loose_tol=None, max_epochs=200, columns=K)
    solution = master.solve()
    assert master.n_exact_solves >= 1 and solution.optimal
    assert solution.objective == pytest.approx(reference, rel=1e-4)
    monkeypatch.setattr(offset, "CRAWL_FACTOR", 1)
    stuck = master_class(y, C, tol=1e-9, loose_tol=None, max_epochs=1, columns=K)
    with pytest.raises(
        SolverError, match=r"Clarabel stopped with status '.*', and 1 x max_epochs more passes did not converge"
    ):
        stuck.solve()


class _NoRestart(NonnegFreeOffsetSVMCDMaster):
    def _restart_exactly(self):
        return False


class _UselessRestart(NonnegFreeOffsetSVMCDMaster):
    def _restart_exactly(self):  # claims a restart and changes nothing: the second budget runs out too
        return True


def test_free_offset_active_set_restarts_from_clarabel_when_it_does_not_settle(problem):
    """With too few active-set steps to settle (max_steps=5, all 150 columns at once), the master restarts once
    from Clarabel's optimum over W and returns the optimum of eq. 7 with a free b; without the restart the same
    budget fails."""
    K, y, _ = problem
    reference = highs_qp_reference(K, y, C, "hinge", "nonneg", "free")
    options = dict(tol=1e-9, loose_tol=None, max_steps=5, max_epochs=10**7, columns=K)
    master = NonnegFreeOffsetSVMCDMaster(y, C, **options)
    solution = master.solve()
    assert master.n_exact_solves == 1 and solution.optimal
    assert solution.objective == pytest.approx(reference, rel=1e-6)
    assert np.all(solution.alpha >= 0) and np.count_nonzero(solution.alpha) < K.shape[1]  # alpha exactly 0 off P
    np.testing.assert_allclose(solution.alpha, np.maximum(K.T @ solution.pricing_weights, 0.0), atol=1e-6)  # eq. 8
    assert not _NoRestart(y, C, on_failure="record", **options).solve().optimal
    with pytest.raises(SolverError, match=r"unsettled after 1 steps and 1 more from the exact optimum over W"):
        _UselessRestart(y, C, **{**options, "max_steps": 1}).solve()  # the restart's budget, too, runs out
    # P from the exact optimum leaves out the columns the interior point leaves at ~1e-9 with a score < 0,
    # so one step from it settles
    settled = NonnegFreeOffsetSVMCDMaster(y, C, **{**options, "max_steps": 1}).solve()
    assert settled.objective == pytest.approx(reference, rel=1e-6)


def test_error_points_are_rows_with_slack(problem):
    K, y, response = problem
    hinge = solve_qp(K, y, C)
    np.testing.assert_array_equal(hinge.error_points(1e-6), np.flatnonzero(hinge.xi > 1e-6))
    tube = solve_qp(K, response, C, loss="epsilon_insensitive", alpha_sign="free")
    n = len(response)
    expected = np.flatnonzero((tube.xi[:n] > 1e-6) | (tube.xi[n:] > 1e-6))
    np.testing.assert_array_equal(tube.error_points(1e-6), expected)


def test_column_store_appends_past_its_capacity():
    from mkbench.masters._solution import ColumnStore

    rng = np.random.default_rng(0)
    blocks = [rng.normal(size=(5, k)) for k in (1, 20, 3, 40)]  # crosses the initial capacity twice
    store = ColumnStore(5)
    for block in blocks:
        store.append(block)
    np.testing.assert_array_equal(store.array, np.hstack(blocks))
    assert len(store) == 64


@pytest.mark.parametrize("contiguous", ["columns", "rows"])
def test_column_store_keeps_the_masked_columns_and_says_where_they_went(contiguous):
    """keep(mask) leaves exactly the kept columns, each where ``order`` says, and appending goes on after them."""
    from mkbench.masters._solution import ColumnStore

    rng = np.random.default_rng(2)
    K = rng.normal(size=(6, 40))
    store = ColumnStore(6, contiguous=contiguous)
    store.append(K)
    mask = rng.random(40) < 0.6
    mask[[0, -1]] = [False, True]  # the first dropped, the last kept
    order = store.keep(mask)
    assert sorted(order) == list(np.flatnonzero(mask))
    np.testing.assert_array_equal(store.array, K[:, order])
    store.keep(np.zeros(len(store), dtype=bool))
    assert len(store) == 0
    store.append(K[:, :3])
    np.testing.assert_array_equal(store.array, K[:, :3])


@pytest.mark.parametrize("k", [1, 3])
def test_add_outer_adds_the_rank_k_term_in_place(k):
    from mkbench.masters._solution import add_outer

    rng = np.random.default_rng(1)
    A = rng.normal(size=(7, 4))
    G = A @ A.T
    K = rng.normal(size=(7, 12))[:, ::4][:, :k]  # a strided view, as ColumnStore slices give
    expected = G + K @ K.T
    out = add_outer(G, K)
    np.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-13)
    assert np.shares_memory(out, G)  # no n x n copy
