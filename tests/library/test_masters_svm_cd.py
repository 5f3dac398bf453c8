"""Dual coordinate descent with liblinear's penalised offset (svm_cd: LinearSVMCDMaster,
NonnegLinearSVMCDMaster): incremental = full = HiGHS's QP, equal to liblinear, loose solves, failures."""

import numpy as np
import pytest
from sklearn.svm import LinearSVC

from mkbench.exceptions import SolverError
from mkbench.masters import LinearSVMCDMaster, NonnegLinearSVMCDMaster

from ._masters_common import (
    C,
    _add_in_chunks,
    _check_complementarity,
    _margin_rows,
    highs_qp_reference,
)


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
