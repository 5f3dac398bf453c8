"""CG-Boost at its defaults (issue 42): inputs scaled by ranges, kernels normalised, free alpha, C = 10.

Each default is checked against a trusted reference: the model is the optimum of the full
master solved directly (Clarabel), on inputs and kernels rebuilt here from scikit-learn's
scalers and pairwise kernels; predictions do not depend on the units or offsets of the
features, nor on which class is called positive; a failing fast master falls back to the
interior point; and the papers' protocols keep the papers' settings (the config pins them).
"""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from sklearn.datasets import load_breast_cancer, make_regression
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from mkbench import CGBoostClassifier, CGBoostRegressor, ColumnGenerationClassifier
from mkbench.exceptions import ConfigError, SolverError
from mkbench.harness.config import load_config, validate_config
from mkbench.kernels.scaled import Normalized, mean_diagonal, mean_row_norm
from mkbench.masters import solve_qp

from ._paper import PAPER_CLASSIFIER
from ..conftest import ROOT


@pytest.fixture(scope="module")
def cancer():
    """150 raw breast-cancer rows (features from 1e-3 to 1e3) to fit, 100 others to predict."""
    X, y = load_breast_cancer(return_X_y=True)
    rows = np.random.default_rng(0).permutation(len(y))
    return X[rows[:150]], y[rows[:150]], X[rows[150:250]]


def _reference_inputs(X):
    """The "range" scaling rebuilt from scikit-learn: min-max, centred, then one factor to unit mean variance."""
    scaled = MinMaxScaler().fit_transform(X)
    centred = StandardScaler(with_std=False).fit_transform(scaled)
    return centred / np.sqrt(centred.var(axis=0).mean())


def test_range_scaling_equals_scikit_learns_scalers(cancer):
    X, _, _ = cancer
    model = CGBoostClassifier().fit(X, np.arange(len(X)) % 2)
    np.testing.assert_allclose(model._scaled(X), _reference_inputs(X), atol=1e-10)


def test_the_default_model_is_the_full_master_solved_directly(cancer):
    X, y, X_new = cancer
    model = CGBoostClassifier().fit(X, y)
    assert model.status_ == "optimal" and model.n_iter_ == 3 * len(X)  # the full master ("all"), by libsvm
    Z = _reference_inputs(X)
    sigma = 2 * Z.var(axis=0).sum()  # mean squared distance over all ordered pairs (cgboost §5)
    grams = [linear_kernel(Z), polynomial_kernel(Z, degree=2, gamma=1.0, coef0=1.0), rbf_kernel(Z, gamma=1 / sigma)]
    # each kernel scaled so that a row of columns has unit mean squared norm, 1/3 each (kernels/scaled.py)
    K = np.hstack([G / np.sqrt(3 * np.mean(np.sum(G**2, axis=1))) for G in grams])
    signed = np.where(y == 1, 1.0, -1.0)
    full = solve_qp(K, signed, 10.0, alpha_sign="free", intercept="free")
    assert model.history_[-1]["objective"] == pytest.approx(full.objective, rel=1e-5)
    Z_new = (X_new - X.mean(axis=0)) / (
        np.ptp(X, axis=0) * np.sqrt(((X - X.mean(axis=0)) / np.ptp(X, axis=0)).var(axis=0).mean())
    )
    grams_new = [
        linear_kernel(Z_new, Z),
        polynomial_kernel(Z_new, Z, degree=2, gamma=1.0, coef0=1.0),
        rbf_kernel(Z_new, Z, gamma=1 / sigma),
    ]
    K_new = np.hstack(
        [G_new / np.sqrt(3 * np.mean(np.sum(G**2, axis=1))) for G_new, G in zip(grams_new, grams, strict=True)]
    )
    np.testing.assert_allclose(model.decision_function(X_new), K_new @ full.alpha + full.intercept, atol=2e-3)


def test_column_generation_reaches_the_same_optimum_as_the_full_master(cancer):
    X, y, _ = cancer
    direct = CGBoostClassifier().fit(X, y)
    generated = CGBoostClassifier(strategy="stratified").fit(X, y)
    assert generated.status_ == "optimal"
    assert generated.history_[-1]["objective"] == pytest.approx(direct.history_[-1]["objective"], rel=1e-4)


@pytest.mark.parametrize("by", ["diagonal", "rows"])
def test_normalised_kernels_against_scikit_learn(cancer, by):
    X, _, _ = cancer
    Z = StandardScaler().fit_transform(X)
    kernel = Normalized(__import__("mkbench").kernels.Polynomial(2, 1.0), by=by, n_kernels=3).resolve(Z)
    G = polynomial_kernel(Z, degree=2, gamma=1.0, coef0=1.0)
    expected = np.trace(G) / len(Z) if by == "diagonal" else np.sqrt(3 * np.mean(np.sum(G**2, axis=1)))
    assert kernel.scale == pytest.approx(expected, rel=1e-10)
    np.testing.assert_allclose(kernel(Z, Z[:5]), G[:, :5] / expected, rtol=1e-10)
    assert mean_diagonal(kernel.kernel, Z) == pytest.approx(np.trace(G) / len(Z))
    assert mean_row_norm(kernel.kernel, Z) == pytest.approx(np.mean(np.sum(G**2, axis=1)))


@pytest.mark.parametrize("transform", ["x1e6", "x1e-6", "offset", "standardised", "flipped"])
def test_defaults_predict_the_same_whatever_the_units_of_the_features(cancer, transform):
    X, y, X_new = cancer
    scale = np.random.default_rng(1).uniform(0.5, 2.0, X.shape[1])
    change = {
        "x1e6": lambda A: A * 1e6,
        "x1e-6": lambda A: A * 1e-6,
        "offset": lambda A: A + 1e3 * scale,
        "standardised": StandardScaler().fit(X).transform,
        "flipped": lambda A: -A * scale,
    }[transform]
    raw = CGBoostClassifier().fit(X, y)
    moved = CGBoostClassifier().fit(change(X), y)
    np.testing.assert_array_equal(moved.predict(change(X_new)), raw.predict(X_new))
    np.testing.assert_allclose(moved.decision_function(change(X_new)), raw.decision_function(X_new), atol=1e-6)


def test_defaults_give_one_partition_whichever_class_is_positive(cancer):
    X, y, X_new = cancer
    model = CGBoostClassifier().fit(X, y)
    swapped = CGBoostClassifier().fit(X, 1 - y)
    named = CGBoostClassifier().fit(X, np.array(["malignant", "benign"])[y])  # classes_ sorted: "benign" first
    np.testing.assert_array_equal(swapped.predict(X_new), 1 - model.predict(X_new))
    np.testing.assert_array_equal(named.predict(X_new), np.array(["malignant", "benign"])[model.predict(X_new)])
    # the paper's alpha >= 0 is not symmetric: the reason it is no longer the default
    scaler = StandardScaler().fit(X)  # (on raw features the paper's setting stalls, the SolverError)
    paper = [
        CGBoostClassifier(**PAPER_CLASSIFIER).fit(scaler.transform(X), labels).predict(scaler.transform(X_new))
        for labels in (y, 1 - y)
    ]
    assert np.any(paper[1] != 1 - paper[0])


def test_regressor_reports_in_the_units_of_y():
    X, y = make_regression(120, 5, noise=5.0, random_state=0)
    model = CGBoostRegressor().fit(X, y)
    for factor, offset in [(1e9, 0.0), (1e-6, 0.0), (1.0, 1e5)]:
        moved = CGBoostRegressor().fit(X, factor * y + offset)
        np.testing.assert_allclose(
            moved.predict(X), factor * model.predict(X) + offset, rtol=1e-6, atol=1e-6 * factor * np.ptp(y)
        )
    # coef_ and intercept_ are the model in y's units: f(x) = sum alpha K(x, x_j) + b
    assert model.coef_.shape == (model.n_iter_,) and np.isfinite(model.intercept_)
    with pytest.raises(ValueError, match="standard deviation overflows"):
        CGBoostRegressor().fit(X, y * 1e200)


def test_a_failing_fast_master_falls_back_to_the_interior_point(cancer, monkeypatch):
    X, y, X_new = cancer
    from mkbench.masters import qp_libsvm

    def stall(self):
        raise SolverError("libsvm stopped with status 'max_iter reached' (injected by the test)")

    expected = CGBoostClassifier(solver="clarabel").fit(X, y)
    monkeypatch.setattr(qp_libsvm.SVMDualMaster, "solve", stall)
    model = CGBoostClassifier().fit(X, y)
    assert model.status_ == "optimal"
    assert "refitted with 'clarabel'" in model.history_[0]["note"] and "injected" in model.history_[0]["note"]
    np.testing.assert_array_equal(model.predict(X_new), expected.predict(X_new))
    with pytest.raises(SolverError, match="injected"):  # a solver the user chose is not replaced
        CGBoostClassifier(solver="libsvm").fit(X, y)


def test_column_generation_classifier_defaults_are_cgboosts(cancer):
    X, y, X_new = cancer
    general = ColumnGenerationClassifier().fit(X, y)
    preset = CGBoostClassifier().fit(X, y)
    np.testing.assert_array_equal(general.decision_function(X_new), preset.decision_function(X_new))
    assert general._slack_weight() == 10.0 and ColumnGenerationClassifier("stump")._slack_weight() == 1.0
    stumps = ColumnGenerationClassifier("stump", max_iter=5).fit(X, y)
    np.testing.assert_array_equal(stumps.coef_, ColumnGenerationClassifier("stump", C=1.0, max_iter=5).fit(X, y).coef_)


def test_the_papers_protocols_pin_the_papers_settings():
    for name in ("config.yaml", "smoke.yaml"):
        config = load_config(ROOT / "config" / name)
        assert config["estimator_defaults"]["cgboost"] == PAPER_CLASSIFIER
        for exp in config["experiments"].values():
            for spec in exp["methods"].values():
                if spec["estimator"] == "cgboost":
                    assert set(PAPER_CLASSIFIER) <= set(spec["params"])


def test_estimator_defaults_are_checked_when_the_config_is_read():
    def smoke_with(defaults):
        config = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
        config["estimator_defaults"] = defaults
        return config

    with pytest.raises(ConfigError, match="estimator_defaults/cgboost: method 'cgboost' has no parameter.*scalling"):
        validate_config(smoke_with({"cgboost": {"scalling": None}}))
    with pytest.raises(ConfigError, match="unknown estimator 'cgbost'"):
        validate_config(smoke_with({"cgbost": {}}))
    with pytest.raises(ConfigError, match="estimator_defaults/cgboost.*kernels"):  # values are built as methods' are
        validate_config(smoke_with({"cgboost": {"kernels": "L,Z"}}))
