"""Dual coordinate descent with a free offset by the method of multipliers (svm_cd_offset:
FreeOffsetSVMCDMaster, NonnegFreeOffsetSVMCDMaster): the optimum whatever the column order and input scale,
the hand-over to Clarabel and the restart of an unsettled active set."""

import numpy as np
import pytest

from mkbench.exceptions import SolverError
from mkbench.masters import FreeOffsetSVMCDMaster, NonnegFreeOffsetSVMCDMaster, solve_qp

from ._masters_common import (
    C,
    _add_in_chunks,
    _check_complementarity,
    _margin_rows,
    highs_qp_reference,
)


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
    import mkbench.masters.svm_cd_newton as svm_cd_newton
    import mkbench.masters.svm_cd_offset as offset

    def failing(K, y, C, **options):
        assert options["on_failure"] == "record"
        failed = solve_qp(K, y, C, **options, settings={"max_iter": 1})  # Clarabel stopped after one iteration
        assert not failed.optimal
        return failed

    monkeypatch.setattr(offset, "solve_qp", failing)
    monkeypatch.setattr(svm_cd_newton, "NEWTON_AFTER", 10**9)  # no Newton: coordinate descent crawls to its budget
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
