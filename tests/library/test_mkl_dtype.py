"""SILP and SimpleMKL on a float32 kernel stack (issue 44): the kernels rounded once, sums in float64, the certificate.

With ``dtype="float32"`` the estimators solve the MKL problem of the training kernels rounded
to float32. The references here do not share the estimators' arithmetic: the float64 stack
rounded by numpy, numpy's einsum over it (upcast to float64) for the combined kernels, the
gradients and the duality gap, and Clarabel's solve of the MKL QCQP (``test_mkl.mkl_optimum``)
for the optimum. The papers' experiments pin ``dtype: float64`` (config/config.yaml's
``estimator_defaults``), so that their tables do not move with the library's default.
"""

import numpy as np
import pytest

from mkbench import SILPClassifier, SimpleMKLClassifier
from mkbench.harness.config import load_config
from mkbench.harness.methods import make_method
from mkbench.kernels import RBF, Linear, Polynomial
from mkbench.kernels.grid import OnVariables, resolve_kernels, unit_trace_stack
from mkbench.masters.combined_svm import CombinedSVM

from ..conftest import ROOT
from .test_mkl import KERNELS, C, _signed, _unit_trace, data, mkl_optimum  # noqa: F401 (data: the fixture)

ESTIMATORS = [SILPClassifier, SimpleMKLClassifier]


def _gaussian_call(X, Z):
    """A kernel called, not built from shared products."""
    return np.exp(-((X[:, None] - Z[None]) ** 2).sum(-1) / 3.0)


def test_the_float32_stack_is_the_float64_stack_rounded_once():
    X = np.random.default_rng(0).normal(size=(40, 3))
    kernels = resolve_kernels("simplemkl", X) + [OnVariables(Polynomial(2), (0, 2)), _gaussian_call]
    kernels = resolve_kernels(kernels, X)
    stack, scales = unit_trace_stack(kernels, X)
    single, single_scales = unit_trace_stack(kernels, X, np.float32)
    assert single.dtype == np.float32 and single.shape == stack.shape
    np.testing.assert_array_equal(single, stack.astype(np.float32))  # the nearest float32 of each entry
    np.testing.assert_array_equal(single_scales, scales)
    change = np.abs(single.astype(np.float64) - stack)
    assert np.all(change <= 2.0**-24 * np.abs(stack) + 2.0**-150)
    with pytest.raises(ValueError, match="float64 or float32, got dtype float16"):
        unit_trace_stack(kernels, X, np.float16)


@pytest.mark.parametrize("n_used", [1, 3, 4, 9, 13])
def test_sparse_combinations_are_the_numpy_loop_bit_for_bit_and_float32_sums_in_float64(n_used):
    rng = np.random.default_rng(n_used)
    X = rng.normal(size=(30, 3))
    stack, _ = unit_trace_stack(resolve_kernels("simplemkl", X), X)  # 52 kernels: under half of them used
    weights = np.zeros(len(stack))
    weights[rng.choice(len(stack), n_used, replace=False)] = rng.random(n_used)
    loop = np.zeros((30, 30))
    for k in np.flatnonzero(weights):  # the float64 path's former loop, whose bits the papers' iterates rest on
        loop += stack[k] * weights[k]
    np.testing.assert_array_equal(CombinedSVM(stack, np.ones(30), 1.0, 1e-5).kernel(weights), loop)
    single = stack.astype(np.float32)
    svm = CombinedSVM(single, np.ones(30), 1.0, 1e-5)
    for w in (weights, rng.random(len(stack))):  # sparse and dense
        K = svm.kernel(w)
        assert K.dtype == np.float64
        np.testing.assert_allclose(K, np.einsum("k,kij->ij", w, single.astype(np.float64)), rtol=1e-14)


@pytest.mark.parametrize("support_size", [5, 12, 13, 40])  # the support block up to n / 4, then the support's rows
def test_float32_quadratic_terms_are_the_rounded_kernels_in_float64(support_size):
    rng = np.random.default_rng(support_size)
    X = rng.normal(size=(50, 3))
    single, _ = unit_trace_stack(resolve_kernels("simplemkl", X), X, np.float32)
    alpha_y = np.zeros(50)
    alpha_y[rng.choice(50, support_size, replace=False)] = rng.normal(size=support_size)
    terms = CombinedSVM(single, np.ones(50), 1.0, 1e-5).quadratic_terms(alpha_y)
    expected = np.einsum("kij,i,j->k", single.astype(np.float64), alpha_y, alpha_y)
    np.testing.assert_allclose(terms, expected, rtol=1e-13)  # float32 sums would be off by ~1e-7


@pytest.fixture(scope="module")
def fits(data):  # noqa: F811 (the fixture imported above)
    X, labels, _ = data
    return {
        (cls, dtype): cls(KERNELS, C=C, tol=1e-5, scaling=None, dtype=dtype).fit(X, labels)
        for cls in ESTIMATORS
        for dtype in ("float64", "float32")
    }


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_the_certificate_holds_for_the_rounded_kernels(data, fits, cls):  # noqa: F811
    X, labels, _ = data
    model = fits[cls, "float32"]
    y = _signed(labels)
    rounded = unit_trace_stack(KERNELS, X)[0].astype(np.float32).astype(np.float64)  # the fit's kernels (test 1)
    v = np.zeros(len(y))
    v[model.support_] = model.dual_coef_
    J = np.abs(v).sum() - 0.5 * v @ np.einsum("k,kij->ij", model.weights_, rounded) @ v
    assert model.objective_ == pytest.approx(J, rel=1e-9)
    gradient = -0.5 * np.einsum("kij,i,j->k", rounded, v, v)
    gap = (np.max(-gradient) - model.weights_ @ -gradient) / J  # SimpleMKL's relative duality gap, in float64
    assert gap == pytest.approx(model.history_[-1].get("duality_gap", model.history_[-1]["gap"]), abs=1e-9)
    if cls is SimpleMKLClassifier:
        assert model.status_ == "optimal" and gap <= model.tol
    else:  # SILP certifies J(beta) - min J <= tol J(beta) by theta <= min J
        assert model.status_ == "optimal" and (J - model.history_[-1]["theta"]) / J <= model.tol
    # J(beta) bounds the optimum of the rounded kernels from above, within tol (Clarabel's optimum)
    optimum = mkl_optimum(list(rounded), y, C)
    assert optimum * (1 - 1e-6) <= model.objective_ <= optimum * (1 + 2 * model.tol)
    # and the float32 kernels' optimum is the float64 kernels' up to the rounding of the kernels
    assert model.objective_ == pytest.approx(fits[cls, "float64"].objective_, rel=2 * model.tol)
    assert model.objective_ == pytest.approx(mkl_optimum(_unit_trace(KERNELS, X), y, C), rel=1e-4)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_float32_fits_predict_as_float64_fits(data, fits, cls):  # noqa: F811
    _, _, X_new = data
    single, double = fits[cls, "float32"], fits[cls, "float64"]
    np.testing.assert_allclose(single.weights_, double.weights_, atol=1e-3)
    f = double.decision_function(X_new)
    np.testing.assert_allclose(single.decision_function(X_new), f, atol=1e-3 * np.abs(f).max())


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_precomputed_and_weighted_float32_fits(data, cls):  # noqa: F811
    X, labels, X_new = data
    kernels = [Linear(), RBF(sigma=2.0)]
    grams = [k(X, X) for k in kernels]
    from_x = cls(kernels, C=C, scaling=None, dtype="float32").fit(X, labels)
    precomputed = cls("precomputed", C=C, dtype="float32").fit(grams, labels)
    np.testing.assert_allclose(precomputed.weights_, from_x.weights_, atol=1e-6)
    assert precomputed.objective_ == pytest.approx(from_x.objective_, rel=1e-6)
    # integer weights fit the rows repeated (the kernels scaled to unit weighted trace in float64, then rounded)
    w = np.random.default_rng(0).integers(1, 3, size=len(X))
    weighted = cls(kernels, C=C, scaling=None, dtype="float32").fit(X, labels, sample_weight=w)
    repeated = cls(kernels, C=C, scaling=None, dtype="float32").fit(np.repeat(X, w, axis=0), np.repeat(labels, w))
    assert weighted.objective_ == pytest.approx(repeated.objective_, rel=1e-4)
    f = repeated.decision_function(X_new)
    np.testing.assert_allclose(weighted.decision_function(X_new), f, atol=1e-3 * np.abs(f).max())


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_float32_is_the_default(cls):  # measured faster at the same test error (CHANGELOG, issue 44)
    assert cls().get_params()["dtype"] == "float32"


def test_bad_dtype_has_a_clear_message(data):  # noqa: F811
    X, labels, _ = data
    with pytest.raises(
        ValueError,
        match=r"'dtype' parameter of SILPClassifier must be a str among \{'float(32|64)', 'float(32|64)'\}. Got 'float16'",
    ):
        SILPClassifier(dtype="float16").fit(X, labels)


#: The workflow's configs with MKL experiments (the main one, the peers' overlay over it, the smoke run's) and how
#: many SILP or SimpleMKL methods each has at least (mkl-uci, mkl-credit and their sensitivity runs; smoke's two).
CONFIGS = [(("config.yaml",), 4), (("config.yaml", "peers.yaml"), 4), (("smoke.yaml",), 2)]


@pytest.mark.parametrize(("files", "least"), CONFIGS, ids=["+".join(files) for files, _ in CONFIGS])
def test_paper_configs_pin_the_float64_stack(files, least):
    if "peers.yaml" in files:
        pytest.importorskip("lightgbm", reason="config/peers.yaml names lightgbm:LGBMClassifier (the [peers] extra)")
    config = load_config(*(ROOT / "config" / name for name in files))
    found = 0
    for experiment, exp in config["experiments"].items():
        for label, spec in exp["methods"].items():
            if spec["estimator"] in ("silp", "simplemkl"):
                found += 1
                assert spec["params"].get("dtype") == "float64", f"{files}: {experiment}/{label} leaves dtype"
                assert make_method(spec["estimator"], spec["params"]).dtype == "float64"
    assert found >= least  # the check is not vacuous
