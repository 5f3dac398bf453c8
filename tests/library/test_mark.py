"""MARK-L / MARK-S: the ridge master against direct solves, MARK-L against closed-form KRR (eq. 9),
MARK-S against the stagewise step (Algorithm 3.2), the sigma search against brute force."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench import MARKRegressor
from mkbench.harness.methods import make_method
from mkbench.kernels import RBF, WeakRBF, mean_squared_distance
from mkbench.masters.ridge import RidgeMaster, StagewiseMaster
from mkbench.oracles.width_search import DEFAULT_SIGMA_GRID, KernelColumnSearch, _exp_parts, _sigma_chains


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    y = 5.0 + np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + 0.1 * rng.normal(size=40)
    return X, y


def _krr(G_columns, y, C):
    """Closed form of eq. 9 with G = [K e] (the paper's order): returns alpha, b."""
    G = np.column_stack([G_columns, np.ones(len(y))])
    theta = np.linalg.solve(G.T @ G + C * np.eye(G.shape[1]), G.T @ y)
    return theta[:-1], theta[-1]


def _model_columns(model, X):
    return np.column_stack([k(X, model.centers_[[t]])[:, 0] for t, k in enumerate(model.column_kernels_)])


# --- the masters -------------------------------------------------------------------------------


def test_ridge_master_equals_a_direct_solve_after_every_added_column(data):
    X, y = data
    rng = np.random.default_rng(0)
    columns = np.exp(-rng.uniform(0, 3, size=(40, 12)))
    master = RidgeMaster(y, C=0.7)
    sol = master.solve()
    assert sol.intercept == pytest.approx(y.sum() / (40 + 0.7), rel=1e-12)  # no column: b of eq. 9 alone
    added = 0
    for block in (1, 1, 3, 1, 2, 4):  # one column at a time, and blocks
        master.add_columns(columns[:, added : added + block])
        added += block
        sol = master.solve()
        alpha, b = _krr(columns[:, :added], y, 0.7)
        np.testing.assert_allclose(sol.alpha, alpha, rtol=1e-10, atol=1e-12)
        assert sol.intercept == pytest.approx(b, rel=1e-10)
        residual = y - columns[:, :added] @ alpha - b
        np.testing.assert_allclose(sol.pricing_weights, residual, atol=1e-10)
        H = 0.35 * (alpha @ alpha + b * b) + 0.5 * residual @ residual  # eq. 8
        assert sol.objective == pytest.approx(H, rel=1e-12)
        G = np.column_stack([np.ones(40), columns[:, :added]])  # the master's order [e, K]
        np.testing.assert_allclose(master.gram, G.T @ G, rtol=1e-10, atol=1e-9)  # eq. 13-15
    assert master.n_columns == 12
    # optimality (eq. 11): every column in the master has gradient -K'r + C alpha = 0
    np.testing.assert_allclose(columns.T @ sol.pricing_weights, 0.7 * sol.alpha, atol=1e-9)


def test_ridge_duality_gap_bounds_the_distance_to_the_full_optimum(data):
    X, y = data
    columns = np.exp(-np.abs(X[:, :1] - X[:8, 0]))  # 8 candidate columns
    master = RidgeMaster(y, C=2.0)
    master.add_columns(columns[:, :3])
    sol = master.solve()
    gap = master.duality_gap(columns[:, 3:].T @ sol.pricing_weights)
    alpha, b = _krr(columns, y, 2.0)
    r = y - columns @ alpha - b
    H_full = 1.0 * (alpha @ alpha + b * b) + 0.5 * r @ r
    assert 0 < sol.objective - H_full <= gap
    master.add_columns(columns[:, 3:])
    sol = master.solve()
    assert sol.objective == pytest.approx(H_full, rel=1e-12)
    assert master.duality_gap(np.zeros(0)) == 0.0


def test_stagewise_master_takes_shrunk_least_squares_steps(data):
    X, y = data
    columns = np.exp(-(X[:, :2] ** 2))
    master = StagewiseMaster(y, nu=0.3)
    r = y.copy()
    expected = []
    for j in (0, 1, 0):
        g = columns[:, j]
        a = np.linalg.lstsq(g[:, None], r, rcond=None)[0][0]  # step 10
        r = r - 0.3 * a * g  # step 11
        expected.append(0.3 * a)
        master.add_columns(g)
    sol = master.solve()
    np.testing.assert_allclose(sol.alpha, expected, rtol=1e-12)
    np.testing.assert_allclose(sol.pricing_weights, r, atol=1e-12)
    assert sol.intercept == 0.0
    with pytest.raises(ValueError, match="nonzero column"):
        master.add_columns(np.zeros(40))
    with pytest.raises(ValueError, match=r"nu must lie in \(0, 1\]"):
        StagewiseMaster(y, nu=1.5)


# --- the sigma search (§4) ---------------------------------------------------------------------


def test_sigma_chains_pair_each_width_with_its_double():
    assert _sigma_chains(np.array([0.5, 1.0, 2.0, 3.0])) == [[3], [2, 1, 0]]
    chains = _sigma_chains(DEFAULT_SIGMA_GRID)
    assert len(chains) == 2 and sorted(k for c in chains for k in c) == list(range(25))


@pytest.mark.parametrize(
    ("kernel", "grid"),
    [("weak_rbf", DEFAULT_SIGMA_GRID), ("rbf", np.array([0.3, 1.0, 2.5, 5.0])), ("weak_rbf", np.array([0.7]))],
)
def test_search_scores_and_choice_equal_brute_force(data, kernel, grid):
    X, y = data
    r = y - y.mean()
    search = KernelColumnSearch(X, kernel, grid, None, np.random.RandomState(0))
    centres = np.arange(40)
    scores = search.scores(r, centres)
    attributes = range(3) if kernel == "weak_rbf" else [None]
    brute = np.empty((40, len(attributes), grid.size))
    for n in centres:
        for g, a in enumerate(attributes):
            for k, factor in enumerate(grid):
                if a is None:
                    column = RBF(factor * mean_squared_distance(X))(X, X[[n]])[:, 0]
                else:
                    column = WeakRBF(a, factor * mean_squared_distance(X[:, [a]]))(X, X[[n]])[:, 0]
                brute[n, g, k] = column @ r  # eq. 17
    np.testing.assert_allclose(scores, brute, rtol=1e-9, atol=1e-12)
    pricing = search.price(RidgeMaster(r, 1.0).solve(), RidgeMaster(r, 1.0), tol=0.0)
    best = np.unravel_index(np.argmax(np.abs(brute)), brute.shape)
    assert pricing.choice == tuple(int(i) for i in best)
    assert pricing.max_violation == pytest.approx(np.abs(brute).max(), rel=1e-9)
    np.testing.assert_allclose(pricing.column @ r, brute[best], rtol=1e-9)


def test_exponential_of_the_fused_search_is_near_numpy():
    """Within an ulp when compiled on its own; numba may hand out the build inlined into the fastmath
    search (reassociated: 2.4e-14 relative at x = -708), whichever compiled first, so the bound is that."""
    x = np.concatenate([[0.0, -708.0], -np.geomspace(1e-300, 708.0, 4000), -np.linspace(0.0, 1.0, 1001)])
    values = np.array([p * np.array(bits, dtype=np.int64).view(np.float64) for p, bits in map(_exp_parts, x)])
    assert values[0] == 1.0  # the centre's own term, exactly
    exact = np.exp(x)
    assert np.all(np.abs(values - exact) <= 5e-14 * exact)
    small = np.abs(x) <= 30.0  # |k| <= 43: the widths that matter
    assert np.all(np.abs(values - exact)[small] <= 1e-14 * exact[small])


@pytest.mark.parametrize("kernel", ["rbf", "weak_rbf"])
@pytest.mark.parametrize(
    "grid",
    [
        DEFAULT_SIGMA_GRID,  # two chains of 13 and 12 widths
        2.0 ** np.arange(-8.0, 4.5),  # one chain of 13: three full passes of four squarings
        np.array([0.1, 0.2, 0.4, 0.8, 1.6, 3.2]),  # one chain of 6: a pass that runs past its end
        np.array([0.3, 1.0, 2.5, 5.0]),  # a chain 2.5, 5 and two single widths
        np.array([0.07, 0.5, 0.9, 1.3, 7.0]),  # no factor 2 at all: one exponential per width
    ],
    ids=["default", "chain13", "chain6", "mixed", "no-chain"],
)
@pytest.mark.parametrize("n_candidates", [9, None], ids=["sampled", "exhaustive"])
def test_fused_scores_equal_the_kernel_columns(kernel, grid, n_candidates):
    # several blocks of training points (the last one partial), spreads of many orders of
    # magnitude (columns underflowing to 0 at small widths), repeated points (distance 0)
    rng = np.random.default_rng(7)
    n = 1300 if n_candidates else 530
    X = rng.standard_t(2, size=(n, 4)) * np.array([1.0, 30.0, 0.01, 5.0])
    X[100:110] = X[0]
    r = rng.normal(size=n) * rng.choice([1e-3, 1.0, 1e3], size=n)
    search = KernelColumnSearch(X, kernel, grid, n_candidates, np.random.RandomState(3))
    centres = search._sample()
    scores = search.scores(r, centres)
    assert scores.shape == (centres.size, search.n_attributes, grid.size)
    direct = np.empty_like(scores)
    bound = np.empty_like(scores)  # sum_i |K_i r_i|: the scale of each sum's rounding
    for g in range(search.n_attributes):
        for k in range(grid.size):
            K = search.kernel(g, k)(X, X[centres])  # the columns K(X, x_n), by the kernel objects
            direct[:, g, k] = K.T @ r
            bound[:, g, k] = np.abs(K).T @ np.abs(r)
    assert np.all(np.abs(scores - direct) <= 1e-10 * bound)
    np.testing.assert_allclose(scores, direct, rtol=1e-10, atol=1e-10 * np.abs(r).max())
    assert np.argmax(np.abs(scores)) == np.argmax(np.abs(direct))  # the column the search proposes


def test_search_samples_centres_and_skips_chosen_columns(data):
    X, y = data
    r = y - y.mean()
    master = RidgeMaster(r, 1.0)
    search = KernelColumnSearch(X, "weak_rbf", DEFAULT_SIGMA_GRID, 5, np.random.RandomState(1))
    first = search.price(master.solve(), master, 0.0)
    assert first.n_priced == 5 * 3 * 25  # N' centres x M attributes x the sigma grid
    exhaustive = KernelColumnSearch(X, "weak_rbf", DEFAULT_SIGMA_GRID, None, np.random.RandomState(1))
    best = exhaustive.price(master.solve(), master, 0.0)
    exhaustive.add(best.choice)
    again = exhaustive.price(master.solve(), master, 0.0)  # same residual: next best, never the chosen one
    assert again.choice != best.choice and again.max_violation <= best.max_violation
    sampled = KernelColumnSearch(X, "weak_rbf", np.array([1.0]), 30, np.random.RandomState(2))
    for _ in range(60):  # same residual throughout: without the mask the same column would win each time
        pricing = sampled.price(master.solve(), master, 0.0)
        assert pricing.choice not in sampled.chosen
        sampled.add(pricing.choice)
    constant = KernelColumnSearch(np.ones((6, 2)), "weak_rbf", DEFAULT_SIGMA_GRID, None, np.random.RandomState(0))
    assert constant.n_attributes == 0  # constant attributes give no candidate
    assert constant.price(RidgeMaster(np.arange(6.0), 1.0).solve(), None, 0.0).choice is None


# --- the estimator -----------------------------------------------------------------------------


def test_exhaustive_mark_l_with_every_column_equals_closed_form_krr(data):
    X, y = data
    model = MARKRegressor("L", kernel="rbf", sigma_grid=[1.0], n_candidates=None, C=0.5, max_iter=40).fit(X, y)
    assert model.n_iter_ == 40 and model.status_ == "optimal"  # every column is in: none left to price
    assert sorted(model.center_indices_) == list(range(40))
    K = RBF(mean_squared_distance(X))(X, X)
    alpha, b = _krr(K, y - y.mean(), 0.5)  # eq. 9 on the centred responses (step 1: b = mean y)
    np.testing.assert_allclose(model.coef_[np.argsort(model.center_indices_)], alpha, atol=1e-8)
    assert model.intercept_ == pytest.approx(y.mean() + b, abs=1e-8)
    X_new = X[:5] + 0.1
    np.testing.assert_allclose(model.predict(X_new), RBF(model.sigmas_[0])(X_new, X) @ alpha + y.mean() + b, atol=1e-8)
    assert model.history_[-1]["duality_gap"] == 0.0  # no candidate left outside the master


def test_mark_l_is_krr_on_its_columns_at_every_iteration(data):
    X, y = data

    def direct_solve_gap(current):
        if current.coef_.size == 0:
            return {"gap": abs(current.intercept_ - y.mean())}  # step 1, b = mean(y)
        alpha, b = _krr(_model_columns(current, X), y - y.mean(), 10.0)
        return {"gap": max(np.abs(current.coef_ - alpha).max(), abs(current.intercept_ - y.mean() - b))}

    model = MARKRegressor(n_candidates=10, max_iter=15, random_state=0, callback=direct_solve_gap).fit(X, y)
    gaps = [row["gap"] for row in model.history_]
    assert len(gaps) == 16 and max(gaps) < 1e-8
    mse = [row["train_mse"] for row in model.history_]
    assert mse[-1] == pytest.approx(np.mean((model.predict(X) - y) ** 2), rel=1e-10)
    assert mse[0] == pytest.approx(np.var(y), rel=1e-12)
    assert all(a >= b - 1e-12 for a, b in zip(mse, mse[1:], strict=False))  # ridge on nested column sets


def test_mark_l_chooses_the_columns_a_direct_solve_of_eq_9_would(data):
    """The fit against a replay of Algorithm 3.1 whose master is numpy.linalg.lstsq of eq. 9 at every step:
    the same columns in the same order, the same weights and predictions (1e-8 relative)."""
    X, y = data
    model = MARKRegressor(kernel="rbf", C=3.0, n_candidates=8, max_iter=30, random_state=4).fit(X, y)
    search = KernelColumnSearch(X, "rbf", DEFAULT_SIGMA_GRID, 8, np.random.RandomState(4))
    centred, columns, choices = y - y.mean(), np.zeros((40, 0)), []
    for _ in range(30):
        G = np.column_stack([np.ones(40), columns])  # eq. 8 as least squares: [G; sqrt(C) I] theta = [y; 0]
        theta = np.linalg.lstsq(
            np.vstack([G, np.sqrt(3.0) * np.eye(G.shape[1])]), np.r_[centred, np.zeros(G.shape[1])]
        )[0]
        pricing = search.price(
            SimpleNamespace(pricing_weights=centred - G @ theta), SimpleNamespace(violation=np.abs), 1e-8
        )
        choices.append(pricing.choice)
        search.add(pricing.choice)
        columns = np.column_stack([columns, pricing.column])
    G = np.column_stack([np.ones(40), columns])
    theta = np.linalg.lstsq(np.vstack([G, np.sqrt(3.0) * np.eye(31)]), np.r_[centred, np.zeros(31)])[0]
    np.testing.assert_array_equal(model.center_indices_, [n for n, _, _ in choices])
    np.testing.assert_array_equal(model.sigmas_, [search.widths[g, k] for _, g, k in choices])
    np.testing.assert_allclose(model.coef_, theta[1:], rtol=1e-8, atol=1e-8 * np.abs(theta).max())
    X_new = X[:7] + 0.05
    reference = np.column_stack([search.kernel(g, k)(X_new, X[[n]])[:, 0] for n, g, k in choices]) @ theta[1:]
    np.testing.assert_allclose(model.predict(X_new), reference + theta[0] + y.mean(), rtol=1e-8)


def test_exhaustive_mark_l_duality_gap_bounds_the_full_ridge(data):
    X, y = data
    grid = np.array([0.5, 2.0])
    model = MARKRegressor(n_candidates=None, sigma_grid=grid, C=3.0, max_iter=6).fit(X, y)
    # the full problem: ridge (eq. 8) over all 40 x 3 x 2 weak RBF candidate columns
    full = np.column_stack(
        [
            WeakRBF(a, f * mean_squared_distance(X[:, [a]]))(X, X[[n]])[:, 0]
            for n in range(40)
            for a in range(3)
            for f in grid
        ]
    )
    alpha, b = _krr(full, y - y.mean(), 3.0)
    r = y - y.mean() - full @ alpha - b
    H_full = 1.5 * (alpha @ alpha + b * b) + 0.5 * r @ r
    for row in model.history_:
        assert 0 <= row["objective"] - H_full <= row["duality_gap"]


def test_mark_s_with_nu_1_and_one_step_is_the_least_squares_fit_of_its_column(data):
    X, y = data
    model = MARKRegressor("S", nu=1.0, max_iter=1, random_state=0).fit(X, y)
    column = model.column_kernels_[0](X, model.centers_[[0]])[:, 0]
    coef = np.linalg.lstsq(column[:, None], y - y.mean(), rcond=None)[0]
    np.testing.assert_allclose(model.coef_, coef, rtol=1e-12)
    assert model.intercept_ == pytest.approx(y.mean())


def test_mark_s_follows_the_stagewise_steps(data):
    X, y = data
    model = MARKRegressor("S", nu=0.3, max_iter=12, n_candidates=8, random_state=1).fit(X, y)
    stages = list(model.staged_predict(X))
    columns = _model_columns(model, X)
    assert len(stages) == 13 and np.allclose(stages[0], y.mean())
    for t in range(12):
        r = y - stages[t]
        alpha = columns[:, t] @ r / (columns[:, t] @ columns[:, t])  # step 10
        np.testing.assert_allclose(stages[t + 1], stages[t] + 0.3 * alpha * columns[:, t], atol=1e-10)  # step 11
    np.testing.assert_allclose(stages[-1], model.predict(X), atol=1e-12)


def test_fitted_model_attributes_and_storage(data):
    X, y = data
    weak = MARKRegressor(max_iter=10, n_candidates=10, random_state=0).fit(X, y)
    assert weak.coef_.shape == weak.sigmas_.shape == weak.attributes_.shape == (10,)
    assert weak.centers_.shape == (10, 3)
    np.testing.assert_array_equal(weak.centers_, X[weak.center_indices_])
    assert all(isinstance(k, WeakRBF) for k in weak.column_kernels_)
    assert weak.n_support_ == 10 and weak.storage_ == 3 * 10 + 1  # §5.2: 3T + 1
    regular = MARKRegressor(kernel="rbf", max_iter=7, n_candidates=10, random_state=0).fit(X, y)
    assert regular.attributes_ is None and regular.storage_ == 7 * (3 + 2) + 1
    stages = list(weak.staged_predict(X[:4]))
    np.testing.assert_allclose(stages[-1], weak.predict(X[:4]), atol=1e-12)
    assert make_method("mark", {"C": 1.0}).get_params()["C"] == 1.0


def test_reproducible_with_random_state(data):
    X, y = data
    a, b, c = (MARKRegressor(n_candidates=5, max_iter=8, random_state=s).fit(X, y) for s in (4, 4, 5))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.center_indices_, b.center_indices_)
    assert not np.array_equal(a.center_indices_, c.center_indices_)


def test_target_mse_stops_early_and_callback_sees_the_model(data):
    X, y = data
    X_val, y_val = X[:10], y[:10]
    model = MARKRegressor(
        target_mse=0.1 * np.var(y),
        max_iter=200,
        random_state=0,
        callback=lambda m: {"validation_mse": np.mean((m.predict(X_val) - y_val) ** 2)},
    ).fit(X, y)
    mse = [row["train_mse"] for row in model.history_]
    assert model.status_ == "target_mse" and model.n_iter_ < 200
    assert mse[-1] <= 0.1 * np.var(y) < mse[-2]
    assert model.history_[-1]["validation_mse"] == pytest.approx(np.mean((model.predict(X_val) - y_val) ** 2))


def test_bad_inputs_have_clear_messages(data):
    X, y = data
    with pytest.raises(ValueError, match="'variant' parameter of MARKRegressor must be a str among"):
        MARKRegressor(variant="M").fit(X, y)
    with pytest.raises(ValueError, match="'nu' parameter"):
        MARKRegressor("S", nu=0.0).fit(X, y)
    with pytest.raises(ValueError, match="'n_candidates' parameter"):
        MARKRegressor(n_candidates=0).fit(X, y)
    with pytest.raises(ValueError, match="sigma_grid must be a non-empty list of finite factors > 0"):
        MARKRegressor(sigma_grid=[1.0, -2.0]).fit(X, y)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        MARKRegressor().fit(np.where(X > 2, np.nan, X), y)
    with pytest.raises(ValueError, match="kernel='poly' is not one of"):
        KernelColumnSearch(X, "poly", DEFAULT_SIGMA_GRID, None, np.random.RandomState(0))


@parametrize_with_checks(
    [
        MARKRegressor(max_iter=20, random_state=0),
        MARKRegressor(kernel="rbf", max_iter=20, random_state=0),
        MARKRegressor("S", nu=0.5, max_iter=20, random_state=0),
    ]
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_n_sample_is_the_deprecated_name_of_n_candidates(data):
    """n_sample (MARK's former name of N') still fits the same model, with a FutureWarning naming the new one."""
    X, y = data
    renamed = MARKRegressor(n_candidates=7, max_iter=6, random_state=0).fit(X, y)
    with pytest.warns(FutureWarning, match="n_sample was renamed n_candidates .* use n_candidates=7"):
        former = MARKRegressor(n_sample=7, max_iter=6, random_state=0).fit(X, y)
    np.testing.assert_array_equal(former.predict(X), renamed.predict(X))
    with pytest.warns(FutureWarning):  # None (exhaustive) is a value too, not "unset"
        exhaustive = MARKRegressor(n_sample=None, n_candidates=7, max_iter=3).fit(X, y)
    np.testing.assert_array_equal(
        exhaustive.predict(X), MARKRegressor(n_candidates=None, max_iter=3).fit(X, y).predict(X)
    )
    with pytest.raises(ValueError, match="'n_sample' parameter"):
        MARKRegressor(n_sample=0).fit(X, y)
