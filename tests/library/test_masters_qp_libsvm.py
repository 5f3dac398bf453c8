"""The libsvm masters (qp_libsvm: SVMDualMaster, free alpha and free b; NonnegSVMDualMaster) and make_qp_master:
the optimum of HiGHS's QP and Clarabel's, the hand-over to Clarabel of a crawling solve, the backends chosen."""

import numpy as np
import pytest

from mkbench.masters import (
    FreeOffsetSVMCDMaster,
    LinearSVMCDMaster,
    NonnegFreeOffsetSVMCDMaster,
    NonnegLinearSVMCDMaster,
    NonnegSVMDualMaster,
    QPMaster,
    SVMDualMaster,
    make_qp_master,
    solve_qp,
)

from ._masters_common import (
    C,
    _add_in_chunks,
    _check_complementarity,
    _margin_rows,
    _targets,
    highs_qp_reference,
)


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
