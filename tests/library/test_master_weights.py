"""Per-sample C in the restricted masters (issue 42, item 4): C_i = C w_i for sample weights w.

Every hinge and epsilon-insensitive master takes C as a float or as one C_i >= 0 per
sample, the least-squares masters weigh their residuals. The references are solved
here, independently of the masters, from the papers' problems with the slack cost
sum_i C_i xi_i: the LPs (cgboost eq. 4, SSMK eq. 9) by scipy's ``linprog`` (the
reference of tests/library/_masters_common.py, with one C_i per slack), the QPs
(cgboost eq. 7, 11, 13; CGEns (1)) by Clarabel on the full problem, libsvm by
scikit-learn's ``SVC`` / ``SVR`` with ``sample_weight``, the ridge and simplex
least-squares masters (MARK eq. 8; CGEns-SLS (10)) by ``numpy.linalg.lstsq``. And
two identities that need no solver: integer weights equal the rows repeated, a
weight of 0 equals the row dropped.
"""

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import clarabel
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC, SVR

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
    make_hinge_master,
)
from mkbench.masters._solution import check_C
from mkbench.masters.combined_svm import CombinedSVM
from mkbench.masters.dual_cd import projected_gradient_span
from mkbench.masters.ridge import RidgeMaster, StagewiseMaster
from mkbench.masters.simplex_ls import SimplexLSMaster
from mkbench.masters.svm_newton import huber_newton

from ..conftest import ROOT
from ._masters_common import linprog_reference  # takes an array C too: np.full(n, C) is C itself

C = 0.7
EPSILON = 0.1
N = 48

LP_CASES = [("nonneg", "none"), ("free", "free"), ("nonneg", "free"), ("free", "regularized")]

#: (name, factory(y, C), loss, alpha_sign, intercept, relative accuracy of the objective)
QP_BACKENDS = [
    ("clarabel", lambda y, C: QPMaster(y, C), "hinge", "nonneg", "none", 1e-7),
    ("clarabel", lambda y, C: QPMaster(y, C, alpha_sign="free", intercept="free"), "hinge", "free", "free", 1e-7),
    ("clarabel", lambda y, C: QPMaster(y, C, intercept="regularized"), "hinge", "nonneg", "regularized", 1e-7),
    ("osqp", lambda y, C: QPMaster(y, C, alpha_sign="free", solver="osqp"), "hinge", "free", "none", 1e-6),
    ("libsvm", lambda y, C: SVMDualMaster(y, C), "hinge", "free", "free", 1e-5),
    ("libsvm", lambda y, C: NonnegSVMDualMaster(y, C), "hinge", "nonneg", "free", 1e-5),
    ("dual_cd", lambda y, C: LinearSVMCDMaster(y, C, tol=1e-7), "hinge", "free", "regularized", 1e-6),
    (
        "dual_cd",
        lambda y, C: NonnegLinearSVMCDMaster(y, C, tol=1e-7, loose_tol=None),
        "hinge",
        "nonneg",
        "regularized",
        1e-6,
    ),
    ("dual_cd", lambda y, C: FreeOffsetSVMCDMaster(y, C, tol=1e-7), "hinge", "free", "free", 1e-6),
    (
        "dual_cd",
        lambda y, C: NonnegFreeOffsetSVMCDMaster(y, C, tol=1e-7, loose_tol=None),
        "hinge",
        "nonneg",
        "free",
        1e-6,
    ),
    (
        "clarabel",
        lambda y, C: QPMaster(y, C, loss="epsilon_insensitive", alpha_sign="free", intercept="free"),
        "epsilon_insensitive",
        "free",
        "free",
        1e-7,
    ),
    (
        "osqp",
        lambda y, C: QPMaster(y, C, loss="epsilon_insensitive", solver="osqp"),
        "epsilon_insensitive",
        "nonneg",
        "none",
        1e-6,
    ),
    (
        "libsvm",
        lambda y, C: SVMDualMaster(y, C, loss="epsilon_insensitive"),
        "epsilon_insensitive",
        "free",
        "free",
        1e-5,
    ),
]
QP_IDS = [f"{name}-{loss[:5]}-{sign}-{b}" for name, _, loss, sign, b, _ in QP_BACKENDS]


@pytest.fixture(scope="module")
def problem():
    """48 points, 12 columns (linear, quadratic and RBF at 4 centres each), labels, responses, weights."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(N, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.3 + 0.5 * rng.normal(size=N) > 0, 1.0, -1.0)
    response = X[:, 0] + np.sin(X[:, 1]) + 0.2 * rng.normal(size=N)
    Z = X[rng.choice(N, 4, replace=False)]
    linear = X @ Z.T
    K = np.hstack([linear, (1.0 + linear) ** 2 / 10.0, np.exp(-((X[:, None] - Z[None]) ** 2).sum(-1))])
    weights = rng.uniform(0.2, 3.0, size=N)
    counts = rng.integers(0, 4, size=N)  # integer weights, zeros among them
    return K, y, response, weights, counts


def _targets(problem, loss):
    K, y, response, _, _ = problem
    return K, (y if loss == "hinge" else response)


def _margins(y, loss):
    """(row of each margin constraint, its sign s_r, its rhs) for f: s_r f(x_row) + xi_r >= rhs_r."""
    n = len(y)
    if loss == "hinge":
        return np.arange(n), y, np.ones(n)
    return np.tile(np.arange(n), 2), np.repeat([1.0, -1.0], n), np.concatenate([y - EPSILON, -y - EPSILON])


def clarabel_reference(K, y, costs, loss, alpha_sign, intercept):
    """(objective, alpha, b) of QP (7) / (11) / (13) with slack costs C_i, by Clarabel over [alpha | b | xi].

    Rows of C_i = 0 must be dropped by the caller (their slack would be free).
    """
    d = K.shape[1]
    row, sign, rhs = _margins(y, loss)
    m = len(rhs)
    b_weight = 1.0 if intercept == "regularized" else 0.0
    P = sp.diags(np.concatenate([np.ones(d), [b_weight], np.zeros(m)]), format="csc")
    q = np.concatenate([np.zeros(d + 1), costs[row]])
    margin = np.hstack([sign[:, None] * K[row], sign[:, None], np.eye(m)])  # s_r (K alpha + b) + xi >= rhs
    blocks, lower = [margin, np.hstack([np.zeros((m, d + 1)), np.eye(m)])], [rhs, np.zeros(m)]
    if alpha_sign == "nonneg":
        blocks.append(np.hstack([np.eye(d), np.zeros((d, 1 + m))]))
        lower.append(np.zeros(d))
    if intercept == "none":
        blocks.append(np.r_[np.zeros(d), 1.0, np.zeros(m)][None])
        lower.append(np.zeros(1))
        blocks.append(np.r_[np.zeros(d), -1.0, np.zeros(m)][None])
        lower.append(np.zeros(1))
    A = sp.csc_matrix(np.vstack(blocks))
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = 1e-11
    cone = [clarabel.NonnegativeConeT(A.shape[0])]
    result = clarabel.DefaultSolver(P, q, -A, -np.concatenate(lower), cone, settings).solve()
    assert result.status == clarabel.SolverStatus.Solved
    x = np.array(result.x)
    return float(result.obj_val), x[:d], float(x[d])


def primal_objective(solution, K, y, costs, loss, intercept):
    """The objective of the master's problem at its (alpha, b): 1/2 ||alpha||^2 (+ b^2 / 2) + sum_r C_i(r) xi_r."""
    row, sign, rhs = _margins(y, loss)
    alpha, b = np.asarray(solution.alpha), solution.intercept
    xi = np.maximum(0.0, rhs - sign * (K[row] @ alpha + b))
    penalty = alpha @ alpha + (b * b if intercept == "regularized" else 0.0)
    return 0.5 * penalty + costs[row] @ xi


def _solve(master, K):
    master.add_columns(K)
    return master.solve()


def _in_halves(master, K):
    """Add the columns in two halves, solving after each (the warm-started route); the last solution, alpha in K's order."""
    master.add_columns(K[:, ::2])
    master.solve()
    solution = _solve(master, K[:, 1::2])
    order = np.r_[np.arange(0, K.shape[1], 2), np.arange(1, K.shape[1], 2)]
    alpha = np.empty_like(solution.alpha)
    alpha[order] = solution.alpha
    return replace(solution, alpha=alpha)


# ---------------------------------------------------------------- validation


def test_check_C_accepts_a_number_or_one_weight_per_sample():
    assert check_C(2, 3) == 2.0 and isinstance(check_C(2, 3), float)
    for values in ([1, 0, 2], np.array([0.5, 0.0, 1e-300]), (3.0, 1.0, 0.0)):
        C = check_C(values, 3)
        assert isinstance(C, np.ndarray) and C.dtype == np.float64 and C.shape == (3,)
        np.testing.assert_array_equal(C, np.asarray(values, dtype=np.float64))
    original = np.array([1.0, 2.0, 3.0])
    check_C(original, 3)[0] = 9.0
    assert original[0] == 1.0  # a copy


@pytest.mark.parametrize(
    ("C", "message"),
    [
        (np.ones(4), r"C must be a number > 0 or an array of shape \(3,\).*got an array of shape \(4,\)"),
        (np.ones((3, 1)), r"shape \(3, 1\)"),
        ([1.0, -2.0, 1.0], r"C has 1 negative entries \(the first C\[1\] = -2\.0\).*>= 0"),
        ([1.0, np.nan, np.nan], r"C has 2 NaN or infinite entries \(the first C\[1\] = nan\)"),
        ([1.0, np.inf, 1.0], r"NaN or infinite entries \(the first C\[1\] = inf\)"),
        ([0.0, 0.0, 0.0], r"C is 0 for every sample: at least one weight must be > 0"),
        ([True, False, True], r"C must hold real numbers.*dtype bool"),
        (["1", "2", "3"], r"C must hold real numbers"),
        (0.0, r"C must be a finite number > 0, got 0\.0"),
        ("1", r"C must be a finite number > 0, got '1' \(a str\)"),
    ],
)
def test_check_C_names_the_problem(C, message):
    with pytest.raises(ValueError, match=message):
        check_C(C, 3)


def test_check_C_without_rows_takes_numbers_only():
    with pytest.raises(ValueError, match=r"C must be a finite number > 0, got array\(\[1\., 2\.\]\) \(a ndarray\)"):
        check_C(np.array([1.0, 2.0]))


@pytest.mark.parametrize(
    "make",
    [
        lambda y, C: LPMaster(y, C),
        lambda y, C: DualLPMaster(y, C),
        lambda y, C: QPMaster(y, C),
        lambda y, C: SVMDualMaster(y, C),
        lambda y, C: FreeOffsetSVMCDMaster(y, C),
        lambda y, C: NonnegLinearSVMCDMaster(y, C),
        lambda y, C: SimplexLSMaster(y[:, None], C),
    ],
)
def test_every_master_checks_its_per_sample_C(problem, make):
    _, y, _, _, _ = problem
    with pytest.raises(ValueError, match=rf"shape \({N},\)"):
        make(y, np.ones(N - 1))
    with pytest.raises(ValueError, match="negative"):
        make(y, np.r_[-1.0, np.ones(N - 1)])


def test_ridge_masters_check_their_sample_weight(problem):
    _, _, response, _, _ = problem
    with pytest.raises(ValueError, match=r"sample_weight must be a number > 0 or an array of shape \(48,\)"):
        RidgeMaster(response, 1.0, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match=r"sample_weight has 1 NaN"):
        StagewiseMaster(response, 0.5, sample_weight=np.r_[np.nan, np.ones(N - 1)])


# ---------------------------------------------------------------- LP: HiGHS against linprog


@pytest.mark.parametrize("route", [LPMaster, DualLPMaster])
@pytest.mark.parametrize(("alpha_sign", "intercept"), LP_CASES)
def test_lp_with_per_sample_C_reaches_linprogs_optimum(problem, route, alpha_sign, intercept):
    K, y, _, weights, _ = problem
    costs = C * weights
    solution = _in_halves(route(y, costs, alpha_sign=alpha_sign, intercept=intercept), K)
    assert solution.objective == pytest.approx(linprog_reference(K, y, costs, alpha_sign, intercept), rel=1e-7)
    assert np.all(solution.duals >= -1e-9) and np.all(solution.duals <= costs + 1e-9)  # 0 <= u_i <= C_i (eq. 5)
    f = K @ solution.alpha + solution.intercept
    np.testing.assert_allclose(solution.xi, np.maximum(0.0, 1.0 - y * f), atol=1e-8)


@pytest.mark.parametrize("route", [LPMaster, DualLPMaster])
@pytest.mark.parametrize(("alpha_sign", "intercept"), LP_CASES)
def test_lp_integer_weights_equal_the_rows_repeated(problem, route, alpha_sign, intercept):
    """Weights 0-3: the rows repeated (weight 0: dropped); the dropped rows get u = 0 and xi = their hinge."""
    K, y, _, _, counts = problem
    weighted = _solve(route(y, C * counts, alpha_sign=alpha_sign, intercept=intercept), K)
    repeated = _solve(
        route(np.repeat(y, counts), C, alpha_sign=alpha_sign, intercept=intercept), np.repeat(K, counts, 0)
    )
    assert weighted.objective == pytest.approx(repeated.objective, rel=1e-9)
    absent = counts == 0
    assert np.all(weighted.duals[absent] == 0.0) and np.all(weighted.pricing_weights[absent] == 0.0)
    f = K @ weighted.alpha + weighted.intercept
    np.testing.assert_allclose(weighted.xi[absent], np.maximum(0.0, 1.0 - y[absent] * f[absent]), atol=1e-9)


@pytest.mark.parametrize("route", [LPMaster, DualLPMaster])
def test_lp_constant_array_equals_scalar_C(problem, route):
    K, y, _, _, _ = problem
    scalar = _in_halves(route(y, C, alpha_sign="free", intercept="free"), K)
    array = _in_halves(route(y, np.full(N, C), alpha_sign="free", intercept="free"), K)
    assert array.objective == pytest.approx(scalar.objective, rel=1e-12)
    np.testing.assert_allclose(array.pricing_weights, scalar.pricing_weights, atol=1e-9)


# ---------------------------------------------------------------- QP backends against Clarabel on the full QP


@pytest.mark.parametrize(("name", "make", "loss", "alpha_sign", "intercept", "rel"), QP_BACKENDS, ids=QP_IDS)
def test_qp_with_per_sample_C_reaches_clarabels_optimum(problem, name, make, loss, alpha_sign, intercept, rel):
    """The primal objective at the master's (alpha, b) is the direct QP's optimum; alpha is unique (1/2 ||alpha||^2)."""
    K, target = _targets(problem, loss)
    costs = C * problem[3]
    best, alpha, _ = clarabel_reference(K, target, costs, loss, alpha_sign, intercept)
    solution = _in_halves(make(target, costs), K)
    assert primal_objective(solution, K, target, costs, loss, intercept) == pytest.approx(best, rel=rel)
    np.testing.assert_allclose(solution.alpha, alpha, atol=30 * rel * max(1.0, np.abs(alpha).max()))
    if alpha_sign == "nonneg":  # the same columns in use, where the reference's are clearly nonzero
        clear = np.abs(alpha) > 1e-3 * np.abs(alpha).max()
        assert np.array_equal(solution.alpha[clear] > 0, np.ones(clear.sum(), dtype=bool))
        assert np.all(np.abs(solution.alpha[alpha < 1e-9]) < 1e-3 * np.abs(alpha).max())
    u = solution.duals
    row, _, _ = _margins(target, loss)
    assert np.all(u >= -1e-7) and np.all(u <= costs[row] * (1 + 1e-7) + 1e-9)


@pytest.mark.parametrize(("name", "make", "loss", "alpha_sign", "intercept", "rel"), QP_BACKENDS, ids=QP_IDS)
def test_qp_integer_weights_equal_the_rows_repeated(problem, name, make, loss, alpha_sign, intercept, rel):
    """Weights 0-3 against the rows repeated (0: dropped): the same optimum and alpha, u = 0 on the dropped rows."""
    K, target = _targets(problem, loss)
    counts = problem[4]
    weighted = _solve(make(target, C * counts), K)
    repeated = _solve(make(np.repeat(target, counts), C), np.repeat(K, counts, axis=0))
    costs = C * counts.astype(np.float64)
    best = primal_objective(
        repeated, np.repeat(K, counts, 0), np.repeat(target, counts), np.full(counts.sum(), C), loss, intercept
    )
    assert primal_objective(weighted, K, target, costs, loss, intercept) == pytest.approx(best, rel=rel)
    np.testing.assert_allclose(weighted.alpha, repeated.alpha, atol=30 * rel * max(1.0, np.abs(repeated.alpha).max()))
    row, sign, rhs = _margins(target, loss)
    absent = counts[row] == 0
    assert np.all(weighted.duals[absent] == 0.0)
    assert np.all(weighted.pricing_weights[counts == 0] == 0.0) or name == "dual_cd"  # centred weights there
    f = K @ weighted.alpha + weighted.intercept
    np.testing.assert_allclose(weighted.xi[absent], np.maximum(0.0, rhs - sign * f[row])[absent], atol=1e-6)


@pytest.mark.parametrize(("name", "make", "loss", "alpha_sign", "intercept", "rel"), QP_BACKENDS, ids=QP_IDS)
def test_qp_zero_weights_equal_the_rows_dropped(problem, name, make, loss, alpha_sign, intercept, rel):
    K, target = _targets(problem, loss)
    costs = C * problem[3]
    costs[::5] = 0.0
    kept = costs > 0
    best, alpha, _ = clarabel_reference(K[kept], target[kept], costs[kept], loss, alpha_sign, intercept)
    solution = _in_halves(make(target, costs), K)
    assert primal_objective(solution, K, target, costs, loss, intercept) == pytest.approx(best, rel=rel)
    np.testing.assert_allclose(solution.alpha, alpha, atol=30 * rel * max(1.0, np.abs(alpha).max()))


@pytest.mark.parametrize(("name", "make", "loss", "alpha_sign", "intercept", "rel"), QP_BACKENDS, ids=QP_IDS)
def test_qp_constant_array_equals_scalar_C(problem, name, make, loss, alpha_sign, intercept, rel):
    K, target = _targets(problem, loss)
    scalar = _in_halves(make(target, C), K)
    array = _in_halves(make(target, np.full(N, C)), K)
    assert array.objective == pytest.approx(scalar.objective, rel=rel)
    np.testing.assert_allclose(array.alpha, scalar.alpha, atol=30 * rel * max(1.0, np.abs(scalar.alpha).max()))


def test_make_hinge_master_passes_the_per_sample_C_to_every_backend(problem):
    K, y, _, weights, _ = problem
    costs = C * weights
    best = linprog_reference(K, y, costs, "nonneg", "free")
    for solver in ("primal", "dual"):
        master = make_hinge_master(y, costs, penalty="l1", intercept="free", solver=solver)
        assert _solve(master, K).objective == pytest.approx(best, rel=1e-7)
    best, _, _ = clarabel_reference(K, y, costs, "hinge", "nonneg", "free")
    for solver in ("dual_cd", "clarabel", "osqp", "libsvm"):
        master = make_hinge_master(y, costs, intercept="free", solver=solver)
        np.testing.assert_array_equal(master.C, costs)
        getattr(master, "tighten", lambda: None)()  # as column generation does before it returns
        assert primal_objective(_solve(master, K), K, y, costs, "hinge", "free") == pytest.approx(best, rel=1e-4)


# ---------------------------------------------------------------- libsvm against scikit-learn's SVC / SVR


def test_libsvm_master_equals_svc_with_sample_weight(problem):
    """The restricted master on its Gram matrix G = K K' is SVC(kernel="precomputed").fit(G, y, sample_weight=w)."""
    K, y, _, weights, _ = problem
    master = SVMDualMaster(y, C * weights, tol=1e-8)
    solution = _solve(master, K)
    svc = SVC(kernel="precomputed", C=C, tol=1e-8).fit(master._gram, y, sample_weight=weights)
    coef = np.zeros(N)
    coef[svc.support_] = svc.dual_coef_[0]
    np.testing.assert_array_equal(solution.pricing_weights, coef)  # the same libsvm call: the same floats
    assert solution.intercept == svc.intercept_[0]


def test_libsvm_svr_master_equals_svr_with_sample_weight(problem):
    K, _, response, weights, _ = problem
    master = SVMDualMaster(response, C * weights, loss="epsilon_insensitive", epsilon=EPSILON, tol=1e-8)
    solution = _solve(master, K)
    svr = SVR(kernel="precomputed", C=C, epsilon=EPSILON, tol=1e-8).fit(master._gram, response, sample_weight=weights)
    coef = np.zeros(N)
    coef[svr.support_] = svr.dual_coef_[0]
    np.testing.assert_array_equal(solution.pricing_weights, coef)
    assert solution.intercept == svr.intercept_[0]


def test_libsvm_zero_weights_map_back_to_their_rows(problem):
    """libsvm drops the samples of weight 0 and numbers its support among the rest; the master's u is per row."""
    K, y, _, _, counts = problem
    master = SVMDualMaster(y, C * counts, tol=1e-8)
    solution = _solve(master, K)
    kept = counts > 0
    G = K[kept] @ K[kept].T
    svc = SVC(kernel="precomputed", C=C, tol=1e-8).fit(G, y[kept], sample_weight=counts[kept])
    coef = np.zeros(kept.sum())
    coef[svc.support_] = svc.dual_coef_[0]
    np.testing.assert_allclose(solution.pricing_weights[kept], coef, atol=1e-6)
    assert np.all(solution.pricing_weights[~kept] == 0.0)


def test_combined_svm_with_per_sample_C_equals_svc(problem):
    K, y, _, weights, counts = problem
    stack = np.stack([K[:, :4] @ K[:, :4].T, K[:, 4:] @ K[:, 4:].T])
    stack /= np.trace(stack, axis1=1, axis2=2)[:, None, None] / N
    beta = np.array([0.3, 0.7])
    for w in (weights, counts.astype(np.float64)):
        solution = CombinedSVM(stack, y, C * w, 1e-8).solve(beta)
        kept = w > 0
        Kb = (beta @ stack.reshape(2, -1)).reshape(N, N)[np.ix_(kept, kept)]
        svc = SVC(kernel="precomputed", C=C, tol=1e-8).fit(Kb, y[kept], sample_weight=w[kept])
        coef = np.zeros(kept.sum())
        coef[svc.support_] = svc.dual_coef_[0]
        np.testing.assert_allclose(solution.alpha_y[kept], coef, atol=1e-9)
        assert np.all(solution.alpha_y[~kept] == 0.0)
        assert solution.intercept == pytest.approx(svc.intercept_[0], abs=1e-9)


# ---------------------------------------------------------------- dual coordinate descent and Newton's method


def test_dual_cd_masters_turn_to_newton_with_per_sample_C_and_reach_the_optimum(problem):
    """At C_i up to 300 coordinate descent exhausts its passes: Newton's method (rows scaled by sqrt(C_i)) ends solves."""
    K, y, _, weights, _ = problem
    Kn = K / np.abs(K).max(axis=0)
    costs = 100.0 * weights
    costs[::7] = 0.0
    kept = costs > 0
    for make, alpha_sign, intercept in [
        (lambda: LinearSVMCDMaster(y, costs, tol=1e-6), "free", "regularized"),
        (lambda: FreeOffsetSVMCDMaster(y, costs, tol=1e-6), "free", "free"),
        (lambda: NonnegLinearSVMCDMaster(y, costs, tol=1e-6, loose_tol=None), "nonneg", "regularized"),
    ]:
        master = make()
        solution = _in_halves(master, Kn)
        assert master.n_newton_solves > 0
        best, _, _ = clarabel_reference(Kn[kept], y[kept], costs[kept], "hinge", alpha_sign, intercept)
        assert primal_objective(solution, Kn, y, costs, "hinge", intercept) == pytest.approx(best, rel=1e-5)
        assert np.all(solution.duals[~kept] == 0.0)


def test_huber_newton_with_per_sample_C_meets_liblinears_criterion(problem):
    K, y, _, weights, _ = problem
    X = np.c_[np.ones(N), K / np.abs(K).max(axis=0)]
    costs = 50.0 * weights
    costs[::4] = 0.0
    tol = 1e-4

    def done(u, w, w_u):
        return projected_gradient_span(X, y, u, w_u, costs) <= tol

    result = huber_newton(X, y, np.zeros(X.shape[1]), costs, tol, done=done)
    assert result.accepted
    assert np.all(result.u >= 0.0) and np.all(result.u <= costs) and np.all(result.u[costs == 0] == 0.0)


def test_projected_gradient_span_leaves_out_the_points_of_zero_C():
    """A point of C_i = 0 is fixed at 0: its gradient, however negative, is no violation."""
    X, y, w = np.eye(3), np.ones(3), np.zeros(3)  # g_i = -1 everywhere
    alpha = np.array([0.0, 0.5, 0.0])
    assert projected_gradient_span(X, y, alpha, w, np.array([0.0, 1.0, 0.0])) == 0.0
    assert projected_gradient_span(X, y, alpha, w, np.array([1.0, 1.0, 0.0])) == 0.0
    assert projected_gradient_span(X, y, alpha, w, 1.0) == 0.0


# ---------------------------------------------------------------- least squares: ridge, stagewise, simplex


def _weighted_ridge(G, y, w, C):
    """argmin C/2 ||theta||^2 + 1/2 sum_i w_i (y_i - G_i theta)^2 by lstsq on the stacked system."""
    root = np.sqrt(w)[:, None]
    A = np.vstack([root * G, np.sqrt(C) * np.eye(G.shape[1])])
    return np.linalg.lstsq(A, np.r_[root[:, 0] * y, np.zeros(G.shape[1])], rcond=None)[0]


def test_ridge_master_with_weighted_residuals_equals_lstsq(problem):
    K, _, response, weights, counts = problem
    G = np.c_[np.ones(N), K]
    for w in (weights, counts.astype(np.float64)):
        solution = _in_halves(RidgeMaster(response, 0.3, sample_weight=w), K)
        theta = _weighted_ridge(G, response, w, 0.3)
        np.testing.assert_allclose(np.r_[solution.intercept, solution.alpha], theta, rtol=1e-9, atol=1e-10)
        residual = response - G @ theta
        np.testing.assert_allclose(solution.xi, residual, atol=1e-9)
        np.testing.assert_allclose(solution.pricing_weights, w * residual, atol=1e-9)
        assert solution.objective == pytest.approx(0.15 * theta @ theta + 0.5 * residual @ (w * residual), rel=1e-12)


def test_ridge_master_integer_weights_equal_the_rows_repeated(problem):
    K, _, response, _, counts = problem
    weighted = _solve(RidgeMaster(response, 0.3, sample_weight=counts), K)
    repeated = _solve(RidgeMaster(np.repeat(response, counts), 0.3), np.repeat(K, counts, axis=0))
    np.testing.assert_allclose(weighted.alpha, repeated.alpha, rtol=1e-9)
    assert weighted.objective == pytest.approx(repeated.objective, rel=1e-10)
    # the duality gap over columns outside the master is the same through the weighted scores K'Wr
    outside = np.sin(np.arange(N))[:, None] * K[:, :3]
    gap_w = RidgeMaster(response, 0.3, sample_weight=counts).duality_gap(outside.T @ weighted.pricing_weights)
    gap_r = RidgeMaster(np.repeat(response, counts), 0.3).duality_gap(
        np.repeat(outside, counts, axis=0).T @ repeated.pricing_weights
    )
    assert gap_w == pytest.approx(gap_r, rel=1e-9)


def test_stagewise_master_integer_weights_equal_the_rows_repeated(problem):
    K, _, response, _, counts = problem
    weighted = _solve(StagewiseMaster(response, 0.5, sample_weight=counts), K)
    repeated = _solve(StagewiseMaster(np.repeat(response, counts), 0.5), np.repeat(K, counts, axis=0))
    np.testing.assert_allclose(weighted.alpha, repeated.alpha, rtol=1e-10)
    np.testing.assert_allclose(np.repeat(weighted.xi, counts), repeated.xi, atol=1e-12)
    assert weighted.objective == pytest.approx(repeated.objective, rel=1e-12)


def test_simplex_ls_master_with_per_sample_C_equals_lstsq(problem):
    """min 1/2 ||W||^2 + 1/2 sum_i C_i ||l_i - W'h_i - b||^2, b free: lstsq on the weighted stacked system."""
    K, y, _, weights, counts = problem
    L = np.c_[y, 0.5 * y + 0.1]
    for w in (weights, counts.astype(np.float64)):
        costs = C * w
        solution = _solve(SimplexLSMaster(L, costs), K)
        root = np.sqrt(costs)[:, None]
        A = np.vstack([root * np.c_[K, np.ones(N)], np.c_[np.eye(12), np.zeros((12, 1))]])
        theta = np.linalg.lstsq(A, np.vstack([root * L, np.zeros((12, 2))]), rcond=None)[0]
        np.testing.assert_allclose(solution.alpha, theta[:12], atol=1e-9)
        np.testing.assert_allclose(solution.intercept, theta[12], atol=1e-9)
        Xi = L - K @ theta[:12] - theta[12]
        np.testing.assert_allclose(solution.pricing_weights, costs[:, None] * Xi, atol=1e-9)
        assert solution.objective == pytest.approx(
            0.5 * np.sum(theta[:12] ** 2) + 0.5 * np.sum(costs[:, None] * Xi**2), rel=1e-10
        )


def test_simplex_ls_constant_array_equals_scalar_C(problem):
    K, y, _, _, _ = problem
    L = np.c_[y, -y]
    scalar = _solve(SimplexLSMaster(L, C), K)
    array = _solve(SimplexLSMaster(L, np.full(N, C)), K)
    np.testing.assert_allclose(array.alpha, scalar.alpha, rtol=1e-9, atol=1e-12)
    assert array.objective == pytest.approx(scalar.objective, rel=1e-12)


# ---------------------------------------------------------------- the scalar path, bit for bit


SCALAR_RUN = Path(__file__).with_name("_scalar_master_run.py")


@pytest.mark.skipif(
    "MKBENCH_SCALAR_BASELINE" not in os.environ,
    reason="set MKBENCH_SCALAR_BASELINE to the src/ of a checkout before per-sample C (e.g. commit 505cae6)",
)
def test_scalar_C_outputs_are_unchanged_bit_for_bit(tmp_path):
    """Every master at a scalar C gives the very floats of the checkout before per-sample C (np.array_equal)."""
    outputs = []
    for name, src in (("old", os.environ["MKBENCH_SCALAR_BASELINE"]), ("new", str(ROOT / "src"))):
        path = tmp_path / f"{name}.npz"
        env = {**os.environ, "PYTHONPATH": src}
        subprocess.run([sys.executable, str(SCALAR_RUN), str(path)], check=True, env=env)
        outputs.append(np.load(path))
    old, new = outputs
    assert set(old) == set(new)
    differ = [key for key in old if not np.array_equal(old[key], new[key], equal_nan=True)]
    assert not differ, differ[:10]
