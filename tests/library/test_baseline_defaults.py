"""MARK and the selected baselines at their defaults (issue 42), each checked against a trusted reference.

MARK-L at its defaults is, at every iteration, the ridge optimum (eq. 8, 9) of its columns solved
directly by scikit-learn; the selected baselines scale the inputs by ranges as scikit-learn's
scalers do, and KernelColumnRidge fits eq. 9 to standardised targets as a direct ridge solve does.
Every default fit gives the same predictions whatever the units and offsets of the features and of
the targets, finishes without a warning, and fits diabetes and wine as well as the scikit-learn
estimator a user tries first. The papers' protocols keep the paper's settings (the config pins them).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_wine
from sklearn.linear_model import Ridge
from sklearn.metrics import accuracy_score, mean_squared_error
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import SVC, SVR

from mkbench import MARKRegressor
from mkbench.estimators.kernel_ridge import KernelColumnRidge, SelectedKernelColumnRidge, SelectedKernelRidge
from mkbench.estimators.selected_svm import SelectedSVC, SelectedSVR
from mkbench.estimators.validation_search import _pattern_search
from mkbench.harness.config import load_config

from ._paper_mark import PAPER
from ..conftest import ROOT

SELECTED_REGRESSORS = (SelectedSVR, SelectedKernelRidge, SelectedKernelColumnRidge)


@pytest.fixture(scope="module")
def diabetes():
    """120 raw diabetes rows to fit (targets 25-346), 60 others to predict."""
    X, y = load_diabetes(return_X_y=True)
    return X[:120], y[:120], X[120:180]


def _range_scaled(X, X_new):
    """The "range" scaling rebuilt from scikit-learn: min-max, centred, then one factor to unit mean variance."""
    minmax = MinMaxScaler().fit(X)
    centre = StandardScaler(with_std=False).fit(minmax.transform(X))
    Z, Z_new = (centre.transform(minmax.transform(A)) for A in (X, X_new))
    factor = np.sqrt(Z.var(axis=0).mean())
    return Z / factor, Z_new / factor


# --- MARK: its master's optimum and its invariances ----------------------------------------------


def test_default_mark_is_the_ridge_optimum_of_its_columns_at_every_iteration(diabetes):
    """Eq. 8 on the chosen columns, solved by scikit-learn's Ridge on G = [K_hat e] (alpha = C), each iteration."""
    X, y, _ = diabetes

    def direct_solve_gap(model):
        G = np.column_stack([model._columns(X), np.ones(len(y))])
        ridge = Ridge(alpha=10.0, fit_intercept=False, solver="cholesky").fit(G, y - y.mean())
        fitted = np.append(model.coef_, model.intercept_ - y.mean())
        return {"gap": float(np.abs(fitted - ridge.coef_).max() / np.abs(ridge.coef_).max())}

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reaching T, the model's size, is no warning
        model = MARKRegressor(random_state=0, callback=direct_solve_gap).fit(X, y)
    assert model.status_ == "max_iter" and model.n_iter_ == 100 == len(model.coef_)
    assert max(row["gap"] for row in model.history_[1:]) < 1e-8


@pytest.mark.parametrize(
    ("X_map", "y_map", "atol"),
    [
        (lambda X: X * 1e6, None, 1e-9),
        (lambda X: X * 1e-6, None, 1e-9),
        (lambda X: X * np.logspace(-4, 4, X.shape[1]), None, 1e-9),  # each feature in its own units
        (lambda X: X + 100.0, None, 1e-6),  # an offset 2000 standard deviations away: 1e-13 of each value lost
        (None, (1e9, 0.0), 1e-9),
        (None, (1.0, 1e5), 1e-9),
    ],
    ids=["X*1e6", "X*1e-6", "X-units", "X+100", "y*1e9", "y+1e5"],
)
def test_default_mark_predicts_the_same_whatever_the_units(diabetes, X_map, y_map, atol):
    X, y, X_new = diabetes
    reference = MARKRegressor(random_state=0).fit(X, y).predict(X_new)
    X_map = X_map or (lambda X: X)
    factor, offset = y_map or (1.0, 0.0)
    predicted = MARKRegressor(random_state=0).fit(X_map(X), factor * y + offset).predict(X_map(X_new))
    np.testing.assert_allclose((predicted - offset) / factor, reference, rtol=0, atol=atol * np.abs(reference).max())


# --- the selected baselines and eq. 8 -------------------------------------------------------------


def test_default_kernel_column_ridge_is_eq9_on_scaled_inputs_and_standardised_targets(diabetes):
    X, y, X_new = diabetes
    model = KernelColumnRidge().fit(X, y)
    Z, Z_new = _range_scaled(X, X_new)
    gamma = 1.0 / (Z.shape[1] * Z.var())
    assert model.gamma_ == pytest.approx(gamma, rel=1e-12)
    np.testing.assert_allclose(model.X_fit_, Z, atol=1e-12)
    G = np.column_stack([rbf_kernel(Z, gamma=gamma), np.ones(len(y))])
    target = StandardScaler().fit(y[:, None])
    ridge = Ridge(alpha=1.0, fit_intercept=False, solver="svd").fit(G, target.transform(y[:, None])[:, 0])
    G_new = np.column_stack([rbf_kernel(Z_new, Z, gamma=gamma), np.ones(len(Z_new))])
    expected = target.inverse_transform(ridge.predict(G_new)[:, None])[:, 0]
    np.testing.assert_allclose(model.predict(X_new), expected, rtol=1e-9)


def test_eq8_on_targets_as_given_depends_on_their_offset(diabetes):
    """Why scale_target: the penalised b of eq. 8 pulls a shifted y towards 0; standardised targets do not."""
    X, y, X_new = diabetes
    for scale_target, moved in [(False, True), (True, False)]:
        model = KernelColumnRidge(scale_target=scale_target)
        shifted = model.fit(X, y + 1e5).predict(X_new) - 1e5
        difference = np.abs(shifted - model.fit(X, y).predict(X_new)).max()
        assert (difference > 1.0) == moved, difference


@pytest.mark.parametrize("estimator", [*SELECTED_REGRESSORS, SelectedSVC, KernelColumnRidge])
def test_selected_baselines_scale_the_inputs_as_scikit_learn_does(diabetes, estimator):
    X, y, X_new = diabetes
    target = (y > np.median(y)).astype(int) if estimator is SelectedSVC else y
    model = estimator().fit(X, target)
    Z, Z_new = _range_scaled(X, X_new)
    np.testing.assert_allclose(model._scaled(X), Z, atol=1e-12)
    np.testing.assert_allclose(model._scaled(X_new), Z_new, atol=1e-12)


@pytest.mark.parametrize("estimator", [*SELECTED_REGRESSORS, SelectedSVC, KernelColumnRidge])
@pytest.mark.parametrize(
    ("X_map", "y_map"),
    [
        (lambda X: X * 1e6, None),
        (lambda X: X * 1e-6, None),
        (lambda X: X * np.logspace(-4, 4, X.shape[1]), None),
        (lambda X: X + 100.0, None),
        (None, (1e9, 0.0)),
        (None, (1.0, 1e5)),
    ],
    ids=["X*1e6", "X*1e-6", "X-units", "X+100", "y*1e9", "y+1e5"],
)
def test_default_baselines_predict_the_same_whatever_the_units(diabetes, estimator, X_map, y_map):
    X, y, X_new = diabetes
    classifier = estimator is SelectedSVC
    if classifier and y_map is not None:
        pytest.skip("class labels have no units")
    target = (y > np.median(y)).astype(int) if classifier else y
    params = {} if estimator is KernelColumnRidge else {"random_state": 0}
    reference = estimator(**params).fit(X, target)
    X_map = X_map or (lambda X: X)
    factor, offset = y_map or (1.0, 0.0)
    model = estimator(**params).fit(X_map(X), factor * target + offset)
    predicted = (model.predict(X_map(X_new)) - offset) / factor
    if classifier:
        np.testing.assert_array_equal(predicted, reference.predict(X_new))
    else:
        expected = reference.predict(X_new)
        np.testing.assert_allclose(predicted, expected, rtol=0, atol=1e-6 * np.abs(expected).max())
    if hasattr(reference, "best_params_"):
        assert model.best_params_ == pytest.approx(reference.best_params_, rel=1e-12)


def test_default_svr_holds_epsilon_at_a_tenth_of_the_targets_spread(diabetes):
    X, y, _ = diabetes
    model = SelectedSVR(random_state=0).fit(X, y)
    assert set(model.best_params_) == {"C", "gamma"}
    assert model.best_estimator_.regressor_.epsilon == 0.1
    searched = SelectedSVR(random_state=0, epsilon="search").fit(X, y)
    assert set(searched.best_params_) == {"C", "epsilon", "gamma"}


def test_the_default_search_moves_only_on_a_sufficient_decrease_and_stops_at_a_factor_2():
    def evaluate(batch):  # a bowl in log2 space, its floor 0.5 % below the start's loss
        return [1.0 - 0.005 * np.exp(-((np.log2(p["C"]) - 2) ** 2)) for p in batch]

    coarse = _pattern_search(evaluate, {"C": 1.0}, max_evals=50, min_improvement=0.01, min_step=1.0)
    assert min(coarse, key=lambda entry: entry[1])[0] == {"C": 4.0}  # the best point seen is kept ...
    offsets = [np.log2(p["C"]) for p, _ in coarse]
    assert offsets == [0.0, 2.0, -2.0, 1.0, -1.0]  # ... but no move was made, and no step below a factor 2
    paper = _pattern_search(evaluate, {"C": 1.0}, max_evals=50)
    assert len(paper) > len(coarse) and min(paper, key=lambda entry: entry[1])[0] == {"C": 4.0}


# --- the goals on two small data sets -------------------------------------------------------------


@pytest.mark.parametrize("estimator", [MARKRegressor, KernelColumnRidge, *SELECTED_REGRESSORS])
def test_default_regressors_fit_diabetes_as_well_as_svr_without_a_warning(estimator):
    X, y = load_diabetes(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
    params = {} if estimator is KernelColumnRidge else {"random_state": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = mean_squared_error(y_test, estimator(**params).fit(X_train, y_train).predict(X_test))
    assert ours <= 1.1 * mean_squared_error(y_test, SVR().fit(X_train, y_train).predict(X_test))


def test_default_svc_fits_raw_wine_as_well_as_svc_on_standardised_inputs():
    X, y = load_wine(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = accuracy_score(y_test, SelectedSVC(random_state=0).fit(X_train, y_train).predict(X_test))
    scaler = StandardScaler().fit(X_train)
    standardised = SVC().fit(scaler.transform(X_train), y_train).predict(scaler.transform(X_test))
    assert ours >= accuracy_score(y_test, standardised) - 0.02  # one of the 54 test points
    assert ours >= accuracy_score(y_test, SVC().fit(X_train, y_train).predict(X_test)) + 0.2  # raw: SVC() ~0.65


# --- the paper's protocol ---------------------------------------------------------------------------


@pytest.mark.parametrize("config_name", ["config.yaml", "smoke.yaml"])
def test_the_papers_protocols_pin_the_papers_settings(config_name):
    config = load_config(ROOT / "config" / config_name)
    missing = sorted(set(PAPER) - set(config["estimator_defaults"]))
    if missing:
        pytest.skip(f"config/{config_name} pins no estimator_defaults for {', '.join(missing)} yet (issue 42)")
    for exp in config["experiments"].values():
        for label, spec in exp["methods"].items():
            if spec["estimator"] in PAPER:
                pinned = {name: (spec.get("params") or {}).get(name) for name in PAPER[spec["estimator"]]}
                assert pinned == PAPER[spec["estimator"]], label
