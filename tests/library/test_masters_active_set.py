"""The Lawson-Hanson active set over alpha >= 0 (active_set.NonnegActiveSet) on its two backends, libsvm and
dual coordinate descent: the optimum whatever the column order, and an unsettled active set reported."""

import numpy as np
import pytest

from mkbench.exceptions import SolverError
from mkbench.masters import NonnegLinearSVMCDMaster, NonnegSVMDualMaster, solve_qp

from ._masters_common import C, _add_in_chunks, _targets, highs_qp_reference


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


def test_nonneg_svm_dual_reports_an_unsettled_active_set(problem):
    K, y, _ = problem
    with pytest.raises(SolverError, match=r"active set unsettled after 1 steps"):
        NonnegSVMDualMaster(y, C, columns=K, max_steps=1).solve()
