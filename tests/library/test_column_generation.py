"""ColumnGenerationClassifier: new column family x master combinations reach the full problem solved directly, and the
papers' estimators are its presets: subclasses that give the engine's model."""

import ast
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

import mkbench.estimators.column_generation
from mkbench import (
    CGBoostClassifier,
    CGBoostRegressor,
    CGEnsClassifier,
    CGEnsSLSClassifier,
    ColumnGenerationClassifier,
    LPBoostClassifier,
)
from mkbench.kernels import KernelColumns
from mkbench.masters import solve_lp, solve_qp

from ._paper import paper_cgboost, paper_column_generation
from ._weight_checks import CG_PATH, DUAL_CD, weight_checks

from .test_cgens import all_stumps


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2))
    labels = np.where((X**2).sum(1) + 0.3 * rng.normal(size=40) < 1.2, "in", "out")
    return X, labels, np.where(labels == "out", 1.0, -1.0)  # classes_ = ["in", "out"]: "out" is +1


@pytest.mark.parametrize("positive", [True, False])
def test_the_2_norm_master_over_stumps_is_the_qp_over_all_stumps(data, positive):
    """CG-Boost's QP (eq. 7) over stumps, free offset: no paper estimator offers it; alpha >= 0 changes nothing."""
    X, labels, signed = data
    model = paper_column_generation("stump", C=0.5, solver="libsvm", positive=positive, tol=1e-7).fit(X, labels)
    full = solve_qp(all_stumps(X), signed, 0.5, alpha_sign="free", intercept="free")  # Clarabel over all 78 stumps
    assert model.status_ == "optimal" and model.max_violation_ <= 1e-7
    assert model.objective_ == pytest.approx(full.objective, rel=1e-5)
    assert model.duality_gap_ < 1e-8  # the stumps are searched exhaustively: Claim IV.1's gap is known
    f_full = all_stumps(X) @ full.alpha + full.intercept
    np.testing.assert_allclose(model.decision_function(X), f_full, atol=1e-4 * np.abs(f_full).max())


def test_the_lp_over_stumps_with_a_free_offset_is_the_lp_over_all_stumps(data):
    X, labels, signed = data
    model = paper_column_generation("stump", penalty="l1", C=0.2).fit(X, labels)
    H = all_stumps(X)
    full = solve_lp(np.hstack([H, -H]), signed, 0.2, alpha_sign="nonneg", intercept="free")  # negation complete
    assert model.status_ == "optimal"
    assert model.objective_ == pytest.approx(full.objective, rel=1e-6)


def test_lpboost_over_a_kernel_mixture_is_the_lp_over_all_kernel_columns(data):
    X, labels, signed = data
    kernels = ["linear", "quadratic", "rbf"]
    model = paper_column_generation(kernels, penalty="l1", C=1.0, fit_intercept=False, strategy="full").fit(X, labels)
    columns = KernelColumns(X, kernels)
    K = np.hstack([columns.block(p, range(len(X))) for p in range(3)])
    full = solve_lp(K, signed, 1.0, alpha_sign="nonneg", intercept="none")
    assert model.status_ == "optimal"
    assert model.objective_ == pytest.approx(full.objective, rel=1e-6)


def _same_model(a, b, X):
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.n_iter_ == b.n_iter_ and a.status_ == b.status_


def test_the_engine_imports_no_named_estimator():
    """The direction of skglm's GeneralizedLinearEstimator and Lasso: the presets import the engine, never back."""
    tree = ast.parse(Path(mkbench.estimators.column_generation.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"cgboost", "cgens", "lpboost", "cgens_sls", "cgboost_regressor"}
    for preset in (CGBoostClassifier, CGEnsClassifier, LPBoostClassifier):
        assert issubclass(preset, ColumnGenerationClassifier)


def test_cgens_is_a_preset(data):
    X, labels, _ = data
    for solver, offset, tol in [("dual_cd", "regularized", 1e-3), ("dual_cd", True, 1e-3), ("libsvm", True, 1e-8)]:
        preset = CGEnsClassifier(C=0.5, max_iter=60, tol=1e-3, fit_intercept=offset, solver=solver, solver_tol=tol)
        engine = paper_column_generation(
            "stump", penalty="l2", fit_intercept=offset, solver=solver, C=0.5, max_iter=60, tol=1e-3
        )
        preset.fit(X, labels)
        _same_model(preset, engine.fit(X, labels), X)
        assert preset.learners_ == engine.learners_
        np.testing.assert_array_equal(preset.intercept_path_, engine.intercept_path_)


def test_lpboost_and_cgboost_are_presets(data):
    X, labels, _ = data
    preset = LPBoostClassifier("perceptron", C=0.3, random_state=1).fit(X, labels)
    engine = paper_column_generation(
        "perceptron", penalty="l1", fit_intercept=False, C=0.3, max_iter=100, random_state=1
    ).fit(X, labels)
    _same_model(preset, engine, X)
    options = dict(penalty="l2", positive=True, fit_intercept=True, C=2.0, solver="dual_cd")
    preset = paper_cgboost("L,R", **options).fit(X, labels)
    _same_model(preset, paper_column_generation("L,R", **options).fit(X, labels), X)
    # CG-Boost's LP at solver="auto" is HiGHS' primal route, the engine's the dual: the same optimum
    lp = dict(penalty="l1", C=1.0, strategy="full")
    primal = paper_cgboost("L,R", **lp).fit(X, labels)
    _same_model(primal, paper_column_generation("L,R", solver="primal", **lp).fit(X, labels), X)
    assert primal.objective_ == pytest.approx(paper_column_generation("L,R", **lp).fit(X, labels).objective_, rel=1e-7)


def test_presets_offer_probabilities_and_keep_two_classes(data):
    X, labels, _ = data
    for preset in (CGEnsClassifier(max_iter=20), LPBoostClassifier(max_iter=20)):
        assert not hasattr(preset, "predict_proba")
        model = clone(preset).set_params(probability=True).fit(X, labels)
        np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)
        assert model.__sklearn_tags__().classifier_tags.multi_class is False
        with pytest.raises(ValueError, match="3 classes.*use CGEnsSLSClassifier"):
            preset.fit(X, np.digitize(X[:, 0], [-0.5, 0.5]))
    assert not hasattr(CGBoostClassifier(), "staged_predict") and hasattr(CGEnsClassifier(), "staged_predict")


@pytest.mark.parametrize(
    "estimator",
    [
        ColumnGenerationClassifier(),
        CGBoostClassifier(),
        CGBoostRegressor(),
        CGEnsClassifier(),
        LPBoostClassifier(),
        CGEnsSLSClassifier(),
    ],
    ids=lambda estimator: type(estimator).__name__,
)
def test_every_parameter_is_validated_declaratively(estimator):
    check_param_validation(type(estimator).__name__, estimator)


def test_more_classes_and_probabilities(data):
    X, _, _ = data
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    model = paper_column_generation("stump", C=1.0, max_iter=30, probability=True).fit(X, y)
    assert model.decision_function(X).shape == (40, 3) and len(model.estimators_) == 3
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)
    assert (model.predict(X) == y).mean() > 0.8


def test_bad_parameters_name_the_fix(data):
    X, labels, _ = data
    with pytest.raises(ValueError, match=r"'penalty' parameter of ColumnGenerationClassifier must be a str among"):
        paper_column_generation("stump", penalty="l0").fit(X, labels)
    with pytest.raises(ValueError, match=r"'fit_intercept' parameter .* must be an instance of 'bool'.*'regularized'"):
        paper_column_generation("stump", fit_intercept="yes").fit(X, labels)
    with pytest.raises(ValueError, match=r"'solver' parameter .* must be a str among .*Got 'simplex' instead"):
        paper_column_generation("stump", solver="simplex").fit(X, labels)
    with pytest.raises(ValueError, match="solver='dual_cd' is not one of 'auto', 'dual', 'primal'"):  # the LP's routes
        paper_column_generation("stump", penalty="l1", solver="dual_cd").fit(X, labels)
    with pytest.raises(KeyError, match="unknown kernel 'trees'.*or a weak-learner family: 'stump'"):
        paper_column_generation("trees").fit(X, labels)


@parametrize_with_checks(
    [ColumnGenerationClassifier("stump", max_iter=20), ColumnGenerationClassifier(["linear", "rbf"], max_iter=20)],
    # over kernels: the full master by libsvm meets scikit-learn's weight checks; over stumps the fit stops at 20
    expected_failed_checks=lambda estimator: (
        weight_checks(f"{CG_PATH}; and {DUAL_CD}") if estimator.columns == "stump" else {}
    ),
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
