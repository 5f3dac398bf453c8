"""What the tests of the restricted masters share (test_masters_*.py): the problem, references and checks.

References are built here from the papers' formulas, independently of the masters:
the LPs (cgboost eq. 4, SSMK eq. 9) with scipy's linprog, the QPs (cgboost eq. 7,
11, 13) with HiGHS's QP solver. test_cg.py, test_ssmk.py and test_master_weights.py
use them too.
"""

import highspy
import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from mkbench.kernels import KernelColumns

C = 1.0
TOL = 1e-7


def masters_problem():
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
