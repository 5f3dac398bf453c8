"""Column generation reaches the optimum of the full master (cgboost Theorem 3.1, Remarks 4.1-4.2).

The references are the full master problems with all P * n columns, solved
directly by scipy's linprog (LPs) and HiGHS's QP solver (QPs), the helpers of
_masters_common, which build them from the papers' formulas.
"""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from mkbench.cg import column_generation
from mkbench.kernels import KernelColumns
from mkbench.masters import (
    FreeOffsetSVMCDMaster,
    LinearSVMCDMaster,
    LPMaster,
    NonnegFreeOffsetSVMCDMaster,
    NonnegLinearSVMCDMaster,
    NonnegSVMDualMaster,
    QPMaster,
    SVMDualMaster,
)
from mkbench.oracles import KernelOracle

from ._paper import paper_cgboost

from ._masters_common import highs_qp_reference, linprog_reference

KERNELS = ["linear", "quadratic", "rbf"]
TOL = 1e-7


@pytest.fixture(scope="module")
def data():
    """60 points, 3 features, labels from a noisy quadratic rule, a smooth response."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] - 0.6 * X[:, 1] ** 2 + 0.4 + 0.4 * rng.normal(size=60) > 0, 1.0, -1.0)
    response = np.sin(X[:, 0]) + 0.5 * X[:, 2] + 0.1 * rng.normal(size=60)
    return X, y, response


def _all_columns(X):
    columns = KernelColumns(X, KERNELS)
    return np.hstack([columns.block(p, range(len(X))) for p in range(len(KERNELS))])


def _run(X, master, strategy, **kwargs):
    oracle = KernelOracle(KernelColumns(X, KERNELS), strategy=strategy)
    return column_generation(master, oracle, tol=TOL, max_iter=2000, **kwargs), oracle


def _assert_no_violating_column(result, X, master):
    """Every column outside the master prices within tol, checked on the dense K (Theorem 3.1)."""
    scores = (_all_columns(X).T @ result.solution.pricing_weights).reshape(len(KERNELS), -1)
    chosen = np.zeros_like(scores, dtype=bool)
    for p, j in result.choices:
        chosen[p, j] = True
    assert master.violation(scores[~chosen]).max(initial=-np.inf) <= TOL
    assert result.history[-1]["max_violation"] <= TOL


LP_CASES = [("nonneg", "none"), ("free", "free"), ("nonneg", "free"), ("free", "regularized")]


@pytest.mark.parametrize("strategy", ["full", "stratified"])
@pytest.mark.parametrize(("alpha_sign", "intercept"), LP_CASES)
def test_lp_column_generation_reaches_the_full_lp(data, strategy, alpha_sign, intercept):
    X, y, _ = data
    master = LPMaster(y, 1.0, alpha_sign=alpha_sign, intercept=intercept)
    result, _ = _run(X, master, strategy)
    assert result.status == "optimal"
    expected = linprog_reference(_all_columns(X), y, 1.0, alpha_sign, intercept)
    assert result.solution.objective == pytest.approx(expected, rel=1e-6)
    _assert_no_violating_column(result, X, master)
    assert result.n_iter < len(KERNELS) * len(X)  # sparse: far fewer columns than the library


QP_CASES = [
    ("hinge", "nonneg", "none"),  # eq. 7, Theorem 3.1
    ("hinge", "free", "none"),  # eq. 11, Remark 4.1
    ("hinge", "free", "free"),  # §4.1, b free
    ("hinge", "nonneg", "regularized"),  # §4.1, b a constant column
    ("epsilon_insensitive", "free", "free"),  # eq. 13, Remark 4.2
]


@pytest.mark.parametrize("strategy", ["full", "stratified"])
@pytest.mark.parametrize(("loss", "alpha_sign", "intercept"), QP_CASES)
def test_qp_column_generation_reaches_the_full_qp(data, strategy, loss, alpha_sign, intercept):
    X, y, response = data
    target = y if loss == "hinge" else response
    master = QPMaster(target, 1.0, loss=loss, alpha_sign=alpha_sign, intercept=intercept)
    result, _ = _run(X, master, strategy)
    assert result.status == "optimal"
    expected = highs_qp_reference(_all_columns(X), target, 1.0, loss, alpha_sign, intercept)
    assert result.solution.objective == pytest.approx(expected, rel=1e-4)
    _assert_no_violating_column(result, X, master)


# The dual-solver masters: libsvm (free b; linear and RBF columns only, the quadratic ones make
# K K' too ill-conditioned for SMO, see qp_libsvm) and dual CD (b penalised; every kernel, with
# its default loose solves until column generation tightens it; b penalised or free).
DUAL_BACKENDS = {
    "libsvm": (["linear", "rbf"], "free", {"free": SVMDualMaster, "nonneg": NonnegSVMDualMaster}),
    "dual_cd": (
        ["linear", "quadratic", "rbf"],
        "regularized",
        {"free": LinearSVMCDMaster, "nonneg": NonnegLinearSVMCDMaster},
    ),
    "dual_cd-free-offset": (
        ["linear", "quadratic", "rbf"],
        "free",
        {"free": FreeOffsetSVMCDMaster, "nonneg": NonnegFreeOffsetSVMCDMaster},
    ),
}


@pytest.mark.parametrize("strategy", ["full", "stratified"])
@pytest.mark.parametrize("alpha_sign", ["free", "nonneg"])
@pytest.mark.parametrize("backend", sorted(DUAL_BACKENDS))
def test_dual_solver_column_generation_reaches_the_full_qp(data, strategy, alpha_sign, backend):
    X, y, _ = data
    kernels, intercept, masters = DUAL_BACKENDS[backend]
    columns = KernelColumns(X, kernels)
    master = masters[alpha_sign](y, 1.0)
    result = column_generation(master, KernelOracle(columns, strategy=strategy), tol=1e-6, max_iter=2000)
    assert result.status == "optimal"
    K = np.hstack([columns.block(p, range(len(X))) for p in range(len(kernels))])
    expected = highs_qp_reference(K, y, 1.0, "hinge", alpha_sign, intercept)
    assert result.solution.objective == pytest.approx(expected, rel=1e-4)
    chosen = [p * len(X) + j for p, j in result.choices]
    outside = np.setdiff1d(np.arange(K.shape[1]), chosen)
    assert master.violation(K[:, outside].T @ result.solution.pricing_weights).max(initial=-np.inf) <= 1e-6


class _CountingCDMaster(LinearSVMCDMaster):
    """A dual-CD master that logs the passes of every solve."""

    def solve(self):
        solution = super().solve()
        self.passes.append(solution.iterations)
        return solution


@pytest.mark.parametrize("max_iter", [4, 2000])
def test_history_counts_every_master_solve_the_tight_re_solve_included(data, max_iter):
    """master_iterations / master_seconds sum to the master's whole work, also when the loop stops early."""
    X, y, _ = data
    master = _CountingCDMaster(y, 1.0, loose_tol=0.1)
    master.passes = []
    result = column_generation(master, KernelOracle(KernelColumns(X, KERNELS)), tol=1e-6, max_iter=max_iter)
    assert result.status == ("max_iter" if max_iter == 4 else "optimal")
    # one solve per row; stopped early, one more: the re-solve at the tight tolerance, counted in the last row
    assert len(master.passes) == len(result.history) + (result.status == "max_iter")
    assert sum(row["master_iterations"] for row in result.history) == sum(master.passes)
    seconds = [row["master_seconds"] for row in result.history]
    assert all(s >= 0 for s in seconds) and sum(seconds) <= result.history[-1]["seconds"]


def test_duality_gap_of_full_scans_is_proposition_4_1(data):
    X, y, _ = data
    K = _all_columns(X)
    result, _ = _run(X, QPMaster(y, 1.0, alpha_sign="free"), "full")
    first = result.history[0]  # empty master: every column is in N
    scores = K.T @ QPMaster(y, 1.0, alpha_sign="free").solve().pricing_weights
    assert first["duality_gap"] == pytest.approx(0.5 * scores @ scores, rel=1e-6)
    gaps = np.array([row["duality_gap"] for row in result.history])
    assert np.all(gaps >= -1e-9) and gaps[-1] <= 1e-8
    # primal objective minus gap is a lower bound on the optimum at every iteration
    lower = np.array([row["objective"] for row in result.history]) - gaps
    assert np.all(lower <= result.solution.objective + 1e-6)


def test_gap_tol_stops_early_within_the_promised_distance_of_the_optimum(data):
    X, y, _ = data
    optimum = highs_qp_reference(_all_columns(X), y, 1.0, "hinge", "free", "none")
    exact, _ = _run(X, QPMaster(y, 1.0, alpha_sign="free"), "full")
    early, _ = _run(X, QPMaster(y, 1.0, alpha_sign="free"), "full", gap_tol=0.05)
    assert early.status == "gap_tol" and early.n_iter < exact.n_iter
    objective = early.solution.objective
    assert optimum * (1 - 1e-6) <= objective <= optimum + 0.05 * objective
    last, before = early.history[-1], early.history[-2]
    assert last["duality_gap"] <= 0.05 * last["objective"]
    assert before["duality_gap"] > 0.05 * before["objective"]  # it stopped at the first such iteration
    with pytest.raises(ValueError, match="gap_tol must be > 0 or None"):
        column_generation(QPMaster(y, 1.0), KernelOracle(KernelColumns(X, KERNELS)), gap_tol=0)


def test_stratified_prices_fewer_columns_and_respects_kernel_priority(data):
    X, y, _ = data
    full, _ = _run(X, QPMaster(y, 1.0, alpha_sign="free"), "full")
    strat, oracle = _run(X, QPMaster(y, 1.0, alpha_sign="free"), "stratified")
    n_full = sum(row["n_priced"] for row in full.history)
    n_strat = sum(row["n_priced"] for row in strat.history)
    assert n_strat < n_full
    assert all(row["n_priced"] == len(KERNELS) * len(X) for row in full.history)
    # an iteration that adds a linear column prices the other kernels at most on the error
    # points (step i), never in the step where the linear column was found
    n_linear_from_full_step = 0
    for (p, _j), row in zip(strat.choices, strat.history, strict=False):
        if p == 0:
            assert row["priced_quadratic"] == row["priced_rbf"] < len(X)
            n_linear_from_full_step += row["priced_linear"] == len(X) and row["priced_rbf"] > 0
    assert n_linear_from_full_step > 0  # the case where step (ii) is reached is exercised
    last = strat.history[-1]
    assert last["n_priced"] == len(KERNELS) * len(X)  # the optimality certificate scans everything
    assert last["columns_linear"] == sum(p == 0 for p, _ in strat.choices)


def test_priority_by_name_and_bad_priority(data):
    X, y, _ = data
    columns = KernelColumns(X, KERNELS)
    assert KernelOracle(columns, strategy="stratified", priority=["rbf", "linear", "quadratic"]).priority == [2, 0, 1]
    with pytest.raises(ValueError, match="must list each kernel of the library exactly once"):
        KernelOracle(columns, strategy="stratified", priority=["rbf", "linear"])
    with pytest.raises(ValueError, match="must list each kernel of the library exactly once"):
        KernelOracle(columns, strategy="stratified", priority=["rbf", "linear", "cubic"])  # a name not in it
    with pytest.raises(ValueError, match="strategy='greedy' is not one of"):
        KernelOracle(columns, strategy="greedy")


def test_limits_and_callback(data):
    X, y, _ = data
    calls = []

    def callback(solution, choices):
        calls.append(len(choices))
        return {"n_alpha_nonzero": int(np.count_nonzero(solution.alpha))}

    result, _ = _run(X, QPMaster(y, 1.0, alpha_sign="free"), "full", callback=callback)
    assert calls == list(range(result.n_iter + 1))
    assert all("n_alpha_nonzero" in row for row in result.history)
    limited = column_generation(
        QPMaster(y, 1.0, alpha_sign="free"), KernelOracle(KernelColumns(X, KERNELS)), max_iter=3
    )
    assert limited.status == "max_iter" and limited.n_iter == 3 and len(limited.history) == 4
    with pytest.raises(ValueError, match="max_iter must be an integer >= 0"):
        column_generation(QPMaster(y, 1.0), KernelOracle(KernelColumns(X, KERNELS)), max_iter=-1)
    with pytest.raises(ValueError, match="time_limit must be > 0"):
        column_generation(QPMaster(y, 1.0), KernelOracle(KernelColumns(X, KERNELS)), time_limit=0)


def test_blockwise_pricing_gives_the_same_path(data):
    """A memory budget too small for the Gram blocks changes how columns are computed, not the result."""
    X, y, _ = data
    kept, _ = _run(X, LPMaster(y, 1.0), "full")
    oracle = KernelOracle(KernelColumns(X, KERNELS, memory_budget=10 * 60 * 8), strategy="full")
    blockwise = column_generation(LPMaster(y, 1.0), oracle, tol=TOL)
    assert blockwise.choices == kept.choices
    assert blockwise.solution.objective == pytest.approx(kept.solution.objective, rel=1e-12)


def test_convergence_warning_when_stopped_early(data):
    X, y, _ = data
    with pytest.warns(ConvergenceWarning, match="raise max_iter or time_limit"):
        model = paper_cgboost(max_iter=2).fit(X, y)
    assert model.status_ == "max_iter" and model.n_iter_ == 2


# Multiple pricing: several violating columns enter per step, on the way to the same optimum.
MULTI_CASES = [
    (lambda y: LPMaster(y, 1.0, alpha_sign="nonneg", intercept="free"), "lp"),
    (lambda y: NonnegFreeOffsetSVMCDMaster(y, 1.0), "qp-nonneg"),
    (lambda y: FreeOffsetSVMCDMaster(y, 1.0), "qp-free"),
]


@pytest.mark.parametrize("strategy", ["full", "stratified"])
@pytest.mark.parametrize(("make_master", "problem"), MULTI_CASES)
def test_several_columns_per_iteration_reach_the_full_master(data, strategy, make_master, problem):
    X, y, _ = data
    master = make_master(y)
    oracle = KernelOracle(KernelColumns(X, KERNELS), strategy=strategy, columns_per_iteration=7)
    result = column_generation(master, oracle, tol=1e-6, max_iter=2000)
    assert result.status == "optimal"
    K = _all_columns(X)
    if problem == "lp":
        expected = linprog_reference(K, y, 1.0, "nonneg", "free")
    else:
        expected = highs_qp_reference(K, y, 1.0, "hinge", problem.split("-")[1], "free")
    assert result.solution.objective == pytest.approx(expected, rel=1e-4)
    chosen = [p * len(X) + j for p, j in result.choices]
    assert len(set(chosen)) == len(chosen)  # no column enters twice
    outside = np.setdiff1d(np.arange(K.shape[1]), chosen)
    assert master.violation(K[:, outside].T @ result.solution.pricing_weights).max(initial=-np.inf) <= 1e-6
    # fewer steps than columns: most steps brought several columns
    steps = result.history[-1]["iteration"]
    assert steps < result.n_iter and result.history[-1]["n_columns"] == result.n_iter


@pytest.mark.parametrize("strategy", ["full", "stratified"])
def test_several_columns_are_the_most_violating_of_the_scan(data, strategy):
    """The proposed columns are fresh, violate by more than tol, come by decreasing violation, and
    are the top of the scan that supplied the best column (one kernel, for the stratified strategy)."""
    X, y, _ = data
    master = QPMaster(y, 1.0, alpha_sign="free", intercept="free")
    columns = KernelColumns(X, KERNELS)
    oracle = KernelOracle(columns, strategy=strategy, columns_per_iteration=5)
    solution = master.solve()
    for _ in range(4):
        pricing = oracle.price(solution, master, 1e-6)
        proposed = [(pricing.choice, pricing.column), *pricing.more]
        assert len(proposed) == 5
        scores = np.array([column @ solution.pricing_weights for _, column in proposed])
        violations = master.violation(scores)
        assert np.all(violations > 1e-6) and np.all(np.diff(violations) <= 1e-12)
        assert violations[0] == pytest.approx(pricing.max_violation)
        kernels_used = {p for (p, _), _ in proposed}
        if strategy == "full":
            every = master.violation(_all_columns(X).T @ solution.pricing_weights)
            every[[p * len(X) + j for p, j in zip(*np.nonzero(oracle.in_master), strict=True)]] = -np.inf
            assert violations[-1] == pytest.approx(np.sort(every)[-5])
        else:
            assert len(kernels_used) == 1
        for choice, column in proposed:
            assert not oracle.in_master[choice]
            np.testing.assert_allclose(column, columns.column(*choice))
        master.add_columns(np.column_stack([c for _, c in proposed]))
        for choice, _ in proposed:
            oracle.add(choice)
        solution = master.solve()


def test_several_columns_per_iteration_stop_at_max_iter_and_bad_values(data):
    X, y, _ = data
    oracle = KernelOracle(KernelColumns(X, KERNELS), columns_per_iteration=4)
    limited = column_generation(QPMaster(y, 1.0, alpha_sign="free"), oracle, max_iter=6)
    assert limited.status == "max_iter" and limited.n_iter == 6
    assert [row["n_columns"] for row in limited.history] == [0, 4, 6]
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(ValueError, match="columns_per_iteration must be an integer >= 1"):
            KernelOracle(KernelColumns(X, KERNELS), columns_per_iteration=bad)
