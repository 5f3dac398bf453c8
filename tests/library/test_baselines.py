"""Tests of the model-selected baselines (MARK §5.2) and of mkbench.metrics."""

import math

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import make_classification, make_friedman1
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge
from sklearn.metrics import r2_score
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench import metrics
from mkbench.estimators import kernel_ridge
from mkbench.estimators.kernel_ridge import KernelColumnRidge, SelectedKernelColumnRidge, SelectedKernelRidge
from mkbench.estimators.selected_svm import SelectedSVC, SelectedSVR
from mkbench.estimators.validation_search import _pattern_search
from mkbench.exceptions import ConfigError, SolverError

from ._paper_mark import PAPER, PAPER_EQ8
from ._weight_checks import SPLIT, weight_checks


@pytest.fixture(scope="module")
def regression():
    """Friedman #1 (nonlinear), 150 training and 50 test points."""
    X, y = make_friedman1(n_samples=200, noise=1.0, random_state=0)
    return X[:150], y[:150], X[150:]


@pytest.fixture(scope="module")
def classification():
    X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    return X[:150], y[:150], X[150:]


def single_point(params):
    return {name: [value] for name, value in params.items()}


# Against trusted references ------------------------------------------------------


def test_svr_with_one_candidate_is_sklearn_svr_on_standardised_y(regression):
    X, y, X_test = regression
    params = {"C": 2.0, "epsilon": 0.2, "gamma": 0.3}
    model = SelectedSVR(**PAPER["svr"], search="grid", param_grid=single_point(params)).fit(X, y)
    mean, std = y.mean(), y.std()
    reference = SVR(kernel="rbf", **params).fit(X, (y - mean) / std)
    assert model.best_params_ == params
    expected = reference.predict(X_test) * std + mean
    assert_allclose(model.predict(X_test), expected, rtol=0, atol=1e-10)
    assert model.n_support_ == reference.support_.size
    assert model.storage_ == reference.support_.size * X.shape[1] + 2


def test_svr_on_standardised_y_is_svr_with_scaled_c_and_epsilon(regression):
    """SVR(C, eps) on y / s is SVR(C s, eps s) on y, up to libsvm's tolerance."""
    X, y, X_test = regression
    params = {"C": 2.0, "epsilon": 0.2, "gamma": 0.3}
    model = SelectedSVR(**PAPER["svr"], search="grid", param_grid=single_point(params)).fit(X, y)
    std = y.std()
    raw = SVR(kernel="rbf", C=2.0 * std, epsilon=0.2 * std, gamma=0.3, tol=1e-8).fit(X, y)
    assert_allclose(model.predict(X_test), raw.predict(X_test), rtol=0, atol=2e-3 * std)


def test_krr_with_one_candidate_is_sklearn_kernel_ridge_on_centred_y(regression):
    X, y, X_test = regression
    params = {"alpha": 0.1, "gamma": 0.3}
    model = SelectedKernelRidge(**PAPER["krr"], search="grid", param_grid=single_point(params)).fit(X, y)
    reference = KernelRidge(kernel="rbf", **params).fit(X, y - y.mean())
    assert model.best_params_ == params
    expected = reference.predict(X_test) + y.mean()
    assert_allclose(model.predict(X_test), expected, rtol=0, atol=1e-10)
    assert model.n_support_ == X.shape[0]


# MARK's KRR, eq. (8)-(10) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_problem():
    """40 training and 10 test points, y with a large mean (the penalised offset matters)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    y = 20.0 + 3.0 * np.sin(X[:, 0]) + X[:, 1] ** 2 + 0.3 * rng.normal(size=50)
    return X[:40], y[:40], X[40:]


@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
def test_eq9_solution_is_ridge_on_the_kernel_columns_and_ones(small_problem, C):
    """Eq. 8 is 1/2 x Ridge's objective ||y - G w||^2 + C ||w||^2 on the features G = [K e]."""
    X, y, X_test = small_problem
    model = KernelColumnRidge(C=C, gamma=0.4, **PAPER_EQ8).fit(X, y)
    G = np.column_stack([rbf_kernel(X, gamma=0.4), np.ones(len(y))])
    reference = Ridge(alpha=C, fit_intercept=False, solver="svd").fit(G, y)
    assert_allclose(model.dual_coef_, reference.coef_[:-1], rtol=0, atol=1e-8)
    assert model.intercept_ == pytest.approx(reference.coef_[-1], rel=0, abs=1e-8)
    G_test = np.column_stack([rbf_kernel(X_test, X, gamma=0.4), np.ones(len(X_test))])
    assert_allclose(model.predict(X_test), reference.predict(G_test), rtol=0, atol=1e-8)
    assert_allclose(model.predict(X), reference.predict(G), rtol=0, atol=1e-8)


@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
def test_gradient_of_eq8_vanishes_at_the_solution(small_problem, C):
    """Eq. 11: dH/dalpha = -K'r + C alpha and dH/db = -e'r + C b are 0 at the optimum."""
    X, y, _ = small_problem
    model = KernelColumnRidge(C=C, gamma=0.4, **PAPER_EQ8).fit(X, y)
    K = rbf_kernel(X, gamma=0.4)
    alpha, b = model.dual_coef_, model.intercept_
    r = y - K @ alpha - b
    scale = np.abs(K.T @ y).max()  # the gradient at alpha = 0, b = 0
    assert np.abs(-K.T @ r + C * alpha).max() <= 1e-10 * scale
    assert abs(-r.sum() + C * b) <= 1e-10 * scale
    # and the offset is really fitted and penalised: not 0, not the unpenalised value
    assert 0 < b < y.mean()


def test_gamma_scale_is_the_search_start(small_problem):
    X, y, _ = small_problem
    model = KernelColumnRidge(C=0.5, **PAPER_EQ8).fit(X, y)
    assert model.gamma_ == pytest.approx(1 / (X.shape[1] * X.var()))
    assert_allclose(model.predict(X), KernelColumnRidge(C=0.5, gamma=model.gamma_, **PAPER_EQ8).fit(X, y).predict(X))


def test_selected_eq8_krr_with_one_candidate_is_kernel_column_ridge_on_80_percent(small_problem):
    X, y, X_test = small_problem
    params = {"C": 0.3, "gamma": 0.4}
    model = SelectedKernelColumnRidge(**PAPER["krr-eq8"], search="grid", param_grid=single_point(params), refit=False)
    model.set_params(random_state=0).fit(X, y)
    train = np.setdiff1d(np.arange(len(y)), model.validation_indices_)
    reference = KernelColumnRidge(**params, **PAPER_EQ8).fit(X[train], y[train])
    assert model.best_params_ == params
    assert_allclose(model.predict(X_test), reference.predict(X_test), rtol=0, atol=1e-10)
    assert model.best_score_ == pytest.approx(
        metrics.mse(y[model.validation_indices_], reference.predict(X[model.validation_indices_]))
    )


@pytest.mark.parametrize(("refit", "n_fitted"), [(False, 80), (True, 100)])
def test_eq8_krr_support_vectors_are_the_points_it_was_fitted_on(regression, refit, n_fitted):
    """MARK Table 2: 364 = 0.8 x 455 support vectors on Boston, the fit set without validation."""
    X, y = regression[0][:100], regression[1][:100]
    model = SelectedKernelColumnRidge(**PAPER["krr-eq8"], max_evals=5, random_state=0, refit=refit).fit(X, y)
    assert model.n_support_ == n_fitted == model.best_estimator_.X_fit_.shape[0]
    assert model.storage_ == metrics.svm_storage(n_fitted, X.shape[1])
    fitted_rows = np.arange(100) if refit else np.setdiff1d(np.arange(100), model.validation_indices_)
    assert_array_equal(model.best_estimator_.X_fit_, X[fitted_rows])


@pytest.mark.parametrize("estimator", [SelectedSVR, SelectedKernelRidge])
def test_refit_false_keeps_the_model_fitted_without_the_validation_part(regression, estimator):
    X, y, X_test = regression
    kept = estimator(max_evals=4, random_state=0, refit=False).fit(X, y)
    train = np.setdiff1d(np.arange(len(y)), kept.validation_indices_)
    scaled = kept._scaled(X)  # the scaling is fitted on the whole training set, validation part included
    reference = kept._make_model(kept.best_params_).fit(scaled[train], y[train])
    assert_allclose(kept.predict(X_test), reference.predict(kept._scaled(X_test)), rtol=0, atol=1e-10)
    refitted = estimator(max_evals=4, random_state=0).fit(X, y)
    assert refitted.best_params_ == kept.best_params_
    assert not np.allclose(refitted.predict(X_test), kept.predict(X_test))


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({"C": 0.0}, "'C' parameter of KernelColumnRidge must be a float in the range (0.0, inf). Got 0.0"),
        ({"C": -1.0}, "'C' parameter of KernelColumnRidge must be a float in the range (0.0, inf). Got -1.0"),
        ({"C": np.inf}, "'C' parameter of KernelColumnRidge must be a float in the range (0.0, inf). Got inf"),
        ({"gamma": 0.0}, "'gamma' parameter of KernelColumnRidge must be a str among {'scale'} or a float"),
        ({"gamma": "auto"}, "'gamma' parameter of KernelColumnRidge must be a str among {'scale'} or a float"),
    ],
)
def test_invalid_eq8_parameters_are_named(small_problem, params, fragment):
    X, y, _ = small_problem
    with pytest.raises(ValueError) as error:
        KernelColumnRidge(**params).fit(X, y)
    assert fragment in str(error.value)


def test_eq8_krr_refuses_a_searched_negative_C(small_problem):
    X, y, _ = small_problem
    with pytest.raises(ValueError, match=r"'C' parameter of KernelColumnRidge .* Got -1.0"):
        SelectedKernelColumnRidge(search="grid", param_grid={"C": [-1.0]}).fit(X, y)


def test_eq8_krr_reports_a_failed_factorisation(small_problem, monkeypatch):
    def not_positive_definite(*args, **kwargs):
        raise np.linalg.LinAlgError("2-th leading minor not positive definite")

    monkeypatch.setattr(kernel_ridge, "cho_factor", not_positive_definite)
    X, y, _ = small_problem
    with pytest.raises(SolverError, match=r"G'G \+ C I of eq. 9 is not numerically positive definite for C=1e-12"):
        KernelColumnRidge(C=1e-12).fit(X, y)


def test_svc_with_one_candidate_is_sklearn_svc(classification):
    X, y, X_test = classification
    params = {"C": 2.0, "gamma": 0.3}
    model = SelectedSVC(**PAPER["svc"], search="grid", param_grid=single_point(params)).fit(X, y)
    reference = SVC(kernel="rbf", **params).fit(X, y)
    assert model.best_params_ == params
    assert_array_equal(model.predict(X_test), reference.predict(X_test))
    assert_allclose(model.best_estimator_.dual_coef_, reference.dual_coef_, rtol=0, atol=1e-10)
    assert_array_equal(model.classes_, reference.classes_)
    assert model.n_support_ == reference.support_.size


# The validation split and the selection ------------------------------------------


@pytest.mark.parametrize("n_samples", [150, 101])
def test_validation_set_is_20_percent_and_scores_are_its_mse(regression, n_samples):
    X, y = regression[0][:n_samples], regression[1][:n_samples]
    model = SelectedSVR(**PAPER["svr"], search="grid", random_state=0).fit(X, y)
    validation = model.validation_indices_
    assert validation.size == math.ceil(0.2 * n_samples)
    train = np.setdiff1d(np.arange(n_samples), validation)
    for params, score in model.search_history_[:5]:
        refit = TransformedTargetRegressor(SVR(**params), transformer=StandardScaler())
        refit.fit(X[train], y[train])
        assert score == pytest.approx(metrics.mse(y[validation], refit.predict(X[validation])))


@pytest.mark.parametrize(
    "model",
    [SelectedSVR(search="grid"), SelectedKernelRidge(), SelectedKernelColumnRidge(), SelectedSVC(search="grid")],
    ids=["svr-grid", "krr-pattern", "krr-eq8-pattern", "svc-grid"],
)
def test_selected_params_minimise_the_recorded_validation_score(regression, classification, model):
    X, y, _ = classification if isinstance(model, SelectedSVC) else regression
    model.set_params(random_state=0).fit(X, y)
    scores = [score for _, score in model.search_history_]
    assert model.best_score_ == min(scores)
    assert model.best_params_ == model.search_history_[int(np.argmin(scores))][0]


def test_default_grid_is_start_times_powers_of_4(regression):
    X, y, _ = regression
    model = SelectedKernelRidge(search="grid", random_state=0).fit(X, y)
    assert len(model.search_history_) == 25
    alphas = sorted({params["alpha"] for params, _ in model.search_history_})
    assert_allclose(alphas, [1 / 16, 1 / 4, 1, 4, 16])


def test_svc_validation_split_is_stratified():
    X, y = make_classification(n_samples=100, weights=[0.8], flip_y=0, random_state=0)
    model = SelectedSVC(max_evals=3, random_state=0).fit(X, y)
    assert np.bincount(y[model.validation_indices_]).tolist() == [16, 4]


# Pattern search ---------------------------------------------------------------------


def test_pattern_search_finds_the_minimum_of_a_quadratic_in_log_space():
    def evaluate(batch):
        return [(np.log2(p["C"]) - 3) ** 2 + (np.log2(p["gamma"]) + 1.25) ** 2 for p in batch]

    history = _pattern_search(evaluate, {"C": 1.0, "gamma": 1.0}, max_evals=100)
    best, loss = min(history, key=lambda entry: entry[1])
    assert best == {"C": 8.0, "gamma": 2**-1.25}
    assert loss == 0
    points = [tuple(params.values()) for params, _ in history]
    assert len(points) == len(set(points)), "a point was evaluated twice"
    assert len(history) < 100, "the search stops when the step is below its minimum"


@pytest.mark.parametrize("estimator", [SelectedSVR, SelectedKernelRidge, SelectedKernelColumnRidge])
def test_pattern_search_improves_on_its_start_within_max_evals(regression, estimator):
    X, y, _ = regression
    model = estimator(max_evals=15, random_state=0).fit(X, y)
    start_params, start_score = model.search_history_[0]
    assert start_params == model._start_params(model._scaled(X))
    assert all(type(value) is float for value in model.best_params_.values())
    assert len(model.search_history_) <= 15
    assert model.best_score_ < start_score


def test_search_bounds_are_the_searched_range_and_an_edge_choice_is_flagged(regression):
    X, y, _ = regression
    model = SelectedKernelRidge(max_evals=10, random_state=0).fit(X, y)
    start = model._start_params(model._scaled(X))
    for name, value in start.items():
        assert model.search_bounds_[name] == pytest.approx((value * 2.0**-20, value * 2.0**20))
    grid = SelectedKernelRidge(search="grid", random_state=0).fit(X, y)
    assert grid.search_bounds_["alpha"] == pytest.approx((1 / 16, 16))
    # a search that runs into its range's edge: the loss keeps falling as C falls
    history = _pattern_search(lambda batch: [np.log2(p["C"]) for p in batch], {"C": 1.0}, max_evals=200)
    assert min(history, key=lambda entry: entry[1])[0]["C"] == pytest.approx(2.0**-20)
    from mkbench.harness.selection import grid_edges

    records = pd.DataFrame(
        [
            {
                "dataset": "d",
                "method": "krr",
                "s_C": 2.0**-20,
                "b_C_low": 2.0**-20,
                "b_C_high": 2.0**20,
                "s_gamma": 0.5,
                "b_gamma_low": 1e-6,
                "b_gamma_high": 1e6,
            }
        ]
    )
    edges = grid_edges(records).set_index("parameter")
    assert edges.loc["C", ["n_low", "n_high"]].tolist() == [1, 0]
    assert edges.loc["gamma", ["n_low", "n_high"]].tolist() == [0, 0]


def test_same_random_state_gives_same_selection(regression):
    X, y, _ = regression
    first, second, other = (SelectedSVR(max_evals=10, random_state=seed).fit(X, y) for seed in (1, 1, 2))
    assert first.best_params_ == second.best_params_
    assert_array_equal(first.validation_indices_, second.validation_indices_)
    assert not np.array_equal(first.validation_indices_, other.validation_indices_)


def test_parallel_search_gives_the_serial_result(regression):
    X, y, _ = regression
    serial = SelectedKernelRidge(max_evals=8, random_state=0).fit(X, y)
    parallel = SelectedKernelRidge(max_evals=8, random_state=0, n_jobs=2).fit(X, y)
    # same points in the same order; scores equal up to BLAS rounding across processes
    assert [p for p, _ in parallel.search_history_] == [p for p, _ in serial.search_history_]
    np.testing.assert_allclose(
        [s for _, s in parallel.search_history_], [s for _, s in serial.search_history_], rtol=1e-12
    )


# Errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "fragments"),
    [
        (
            {"search": "random"},
            ["'search' parameter of SelectedSVR", "'grid'", "'pattern'", "Got 'random'"],
        ),
        ({"validation_fraction": -0.1}, ["'validation_fraction'", "range (0.0, 1.0)", "Got -0.1"]),
        ({"validation_fraction": 1.0}, ["'validation_fraction'", "range (0.0, 1.0)", "Got 1.0"]),
        ({"max_evals": 0}, ["'max_evals'", "range [1, inf)", "Got 0"]),
    ],
)
def test_invalid_parameters_are_named(regression, params, fragments):
    X, y, _ = regression
    with pytest.raises(ValueError) as error:
        SelectedSVR(**params).fit(X, y)
    for fragment in fragments:
        assert fragment in str(error.value)


def test_param_grid_with_pattern_search_is_refused(regression):
    X, y, _ = regression
    with pytest.raises(ConfigError, match=r"only used by search='grid'"):
        SelectedSVR(param_grid={"C": [1.0]}).fit(X, y)


def test_param_grid_with_unknown_parameter_is_refused(regression):
    X, y, _ = regression
    message = r"unknown parameter\(s\) degree; searched parameters: C, epsilon, gamma"
    with pytest.raises(ConfigError, match=message):
        SelectedSVR(search="grid", epsilon="search", param_grid={"degree": [2]}).fit(X, y)
    with pytest.raises(ConfigError, match=r"unknown parameter\(s\) degree; searched parameters: C, gamma"):
        SelectedSVR(search="grid", param_grid={"degree": [2]}).fit(X, y)
    with pytest.raises(ConfigError, match=r"has epsilon, which is held fixed \(epsilon=0.1\); set epsilon='search'"):
        SelectedSVR(search="grid", param_grid=[{"C": [1.0]}, {"epsilon": [0.2]}]).fit(X, y)


def test_invalid_grid_value_is_reported_by_the_model(regression):
    X, y, _ = regression
    with pytest.raises(ValueError, match=r"'C' parameter of SVR .* Got -1.0"):
        SelectedSVR(search="grid", param_grid={"C": [-1.0]}).fit(X, y)


# Registry ------------------------------------------------------------------------------


def test_q2_is_mse_over_variance():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.normal(size=50), rng.normal(size=50)
    expected = metrics.mse(y_true, y_pred) / np.var(y_true)
    assert metrics.q2(y_true, y_pred) == pytest.approx(expected)
    assert metrics.q2(y_true, y_pred) == pytest.approx(1 - r2_score(y_true, y_pred))


def test_q2_of_constant_target_is_refused():
    with pytest.raises(ValueError, match="constant"):
        metrics.q2([1.0, 1.0], [1.0, 2.0])


def test_error_rate_and_accuracy():
    assert metrics.accuracy([0, 1, 1, 0], [0, 1, 0, 0]) == 0.75
    assert metrics.error_rate([0, 1, 1, 0], [0, 1, 0, 0]) == 0.25


@pytest.mark.parametrize(
    ("n_support", "n_features", "ratio"),
    [
        (27.4, 230, 20.9),  # Table 1, HIV, SVMTorch: 6304 / 301
        (256, 13, 11.1),  # Table 2, Boston, SVMTorch
        (364, 13, 15.7),  # Table 2, Boston, KRR
        (1375, 9, 41.1),  # Table 3, Abalone, SVMTorch: (1375 * 9 + 2) / (3 * 100 + 1)
    ],
)
def test_storage_ratios_reproduce_the_mark_tables(n_support, n_features, ratio):
    assert metrics.mark_storage(100) == 301
    storage = metrics.svm_storage(n_support, n_features)
    assert round(storage / metrics.mark_storage(100), 1) == ratio


def test_storage_of_negative_count_is_refused():
    with pytest.raises(ValueError, match=r"n_support must be non-negative, got -1"):
        metrics.svm_storage(-1, 9)
    with pytest.raises(ValueError, match=r"n_columns must be non-negative, got -3"):
        metrics.mark_storage(-3)


# scikit-learn API ---------------------------------------------------------------------------


@parametrize_with_checks(
    [
        SelectedSVR(max_evals=4, random_state=0),
        SelectedKernelRidge(max_evals=4, random_state=0),
        KernelColumnRidge(),
        SelectedKernelColumnRidge(max_evals=4, random_state=0),
        SelectedKernelColumnRidge(max_evals=4, random_state=0, refit=False),
        SelectedSVC(max_evals=4, random_state=0, refit=False),
        SelectedSVC(max_evals=4, random_state=0),
    ],
    expected_failed_checks=lambda estimator: {} if isinstance(estimator, KernelColumnRidge) else weight_checks(SPLIT),
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
