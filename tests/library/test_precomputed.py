"""The checks of precomputed Gram matrices (issue 48), against numpy.linalg.eigvalsh as the reference.

A kernel with one eigenvalue just below 0 is caught, by its index and that eigenvalue,
whichever check decides; numerically semi-definite kernels (rank-deficient, so rounding
may leave the smallest eigenvalue a hair below 0) pass; the two checks' tolerances are
the documented ones; the kernels are copied once, at fit, and never modified; the
compiled passes equal numpy's; the benchmark runs.
"""

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from sklearn.metrics.pairwise import rbf_kernel

from mkbench import SILPClassifier, SimpleMKLClassifier
from mkbench.kernels.precomputed import (
    FAST_PSD_TOL,
    PSD_TOL,
    _asymmetry,
    _largest_and_row_sums,
    prediction_grams,
    training_grams,
)

from ..conftest import ROOT

SMALLEST = re.compile(r"smallest eigenvalue (\S+),")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(48)
    X = rng.normal(size=(300, 5))
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 > 0.5).astype(int)
    return X, y


def gershgorin(K: np.ndarray) -> float:
    """The lowest point of K's Gershgorin discs: K_ii - sum_{j != i} |K_ij|, least over i."""
    return float((np.diagonal(K) - (np.abs(K).sum(axis=1) - np.abs(np.diagonal(K)))).min())


def with_smallest_eigenvalue(K: np.ndarray, target: float) -> np.ndarray:
    """K with its smallest eigenvalue moved to ``target``: a multiple of its eigenvector's outer product added."""
    eigenvalues, vectors = np.linalg.eigh(K)
    v = vectors[:, 0]
    moved = K + (target - eigenvalues[0]) * np.outer(v, v)
    return (moved + moved.T) / 2


def test_a_barely_indefinite_kernel_is_caught_by_index_and_eigenvalue(data):
    X, y = data
    wide = rbf_kernel(X, gamma=0.01)  # largest eigenvalue ~ n: the hardest case for a single-precision Cholesky
    bad = with_smallest_eigenvalue(wide, -1e-3 * wide.diagonal().max())
    reference = np.linalg.eigvalsh(bad)
    assert reference[0] == pytest.approx(-1e-3, rel=1e-6) and reference[1] > 0  # one eigenvalue below 0
    assert gershgorin(bad) < 0  # so the Cholesky factorisation has to decide
    kernels = [X @ X.T, bad, rbf_kernel(X, gamma=1.0)]
    for check_psd in ("fast", "full"):
        with pytest.raises(ValueError, match="precomputed kernel 1 is not positive semi-definite") as error:
            training_grams(kernels, len(y), check_psd=check_psd)
        assert float(SMALLEST.search(str(error.value)).group(1)) == pytest.approx(reference[0], rel=1e-2)
    for estimator in (SILPClassifier, SimpleMKLClassifier):
        with pytest.raises(ValueError, match=r"kernel 1 is not positive semi-definite .*K \+ c I with c >= 0.001\)"):
            estimator("precomputed").fit(kernels, y)


def test_numerically_semidefinite_kernels_pass(data, monkeypatch):
    X, y = data  # n = 300 points of d = 5 features
    centred = X - X.mean(axis=0)
    kernels = {
        "linear": X @ X.T,
        "centred linear": centred @ centred.T,
        "quadratic": (X @ X.T + 1.0) ** 2,
        "linear, single precision": (X @ X.T).astype(np.float32),
    }
    for name, K in kernels.items():
        eigenvalues = np.linalg.eigvalsh(K.astype(np.float64))
        assert np.sum(eigenvalues > 1e-8 * eigenvalues[-1]) <= 21, name  # rank d (linear), 21 (quadratic) < n
        assert abs(eigenvalues[0]) < 1e-6 * eigenvalues[-1] and gershgorin(K) < 0, name
        np.testing.assert_array_equal(training_grams([K], len(y), check_psd="full")[0], K)
    with monkeypatch.context() as patch:  # the single-precision Cholesky certifies them all: no eigenvalues computed
        patch.setattr(np.linalg, "eigvalsh", lambda K: pytest.fail("the fast check computed eigenvalues"))
        for K in kernels.values():
            np.testing.assert_array_equal(training_grams([K], len(y), check_psd="fast")[0], K)
    assert SILPClassifier("precomputed").fit(list(kernels.values()), y).status_ == "optimal"


@pytest.mark.parametrize("factor", [0.1, 10.0])
def test_the_two_tolerances(data, factor):
    # fast: no eigenvalue below -FAST_PSD_TOL ||K||_inf; full: none below -PSD_TOL lambda_max (the former check)
    X, y = data
    K = rbf_kernel(X, gamma=0.05)
    infinity_norm = np.abs(K).sum(axis=1).max()
    bad = with_smallest_eigenvalue(K, -factor * FAST_PSD_TOL * infinity_norm)
    eigenvalues = np.linalg.eigvalsh(bad)
    assert eigenvalues[0] < -PSD_TOL * eigenvalues[-1] and eigenvalues[-1] <= infinity_norm
    with pytest.raises(ValueError, match="kernel 0 is not positive semi-definite"):
        training_grams([bad], len(y), check_psd="full")
    if factor < 1:
        training_grams([bad], len(y), check_psd="fast")
    else:
        with pytest.raises(ValueError, match="kernel 0 is not positive semi-definite"):
            training_grams([bad], len(y), check_psd="fast")


def test_check_psd_options(data):
    X, y = data
    indefinite = X @ X.T - 5.0 * np.eye(len(y))
    assert training_grams([indefinite], len(y), check_psd=False).shape == (1, len(y), len(y))
    for wrong in ("exact", True, 0, None):
        with pytest.raises(ValueError, match=f"check_psd must be 'fast', 'full' or False, got {wrong!r}"):
            training_grams([indefinite], len(y), check_psd=wrong)


def test_kernels_are_copied_once_at_fit_and_never_modified(data):
    X, y = data
    grams = np.stack([X @ X.T, rbf_kernel(X, gamma=0.5)])
    before = grams.copy()
    stack = training_grams(grams, len(y))
    assert not np.shares_memory(stack, grams)
    np.testing.assert_array_equal(stack, grams)
    model = SILPClassifier("precomputed", C=10.0).fit(grams, y)  # scales its copy to unit trace
    SimpleMKLClassifier("precomputed", C=10.0).fit(list(grams), y)
    np.testing.assert_array_equal(grams, before)
    test = np.stack([X[:20] @ X.T, rbf_kernel(X[:20], X, gamma=0.5)])
    assert all(np.shares_memory(view, test) for view in prediction_grams(test, 2, len(y)))  # no copy at prediction
    np.testing.assert_array_equal(model.predict(test), model.predict(list(test)))


def test_non_finite_and_asymmetric_kernels_are_named(data):
    X, y = data
    K = X @ X.T
    for k, value in ((0, np.inf), (1, -np.inf), (1, np.nan)):
        broken = K.copy()
        broken[7, 250] = value
        with pytest.raises(ValueError, match=f"precomputed kernel {k} has NaN or infinite values"):
            training_grams([K, broken] if k else [broken, K], len(y))
    scale = np.abs(K).max()
    for i, j in ((0, 299), (63, 64), (299, 0), (150, 149)):
        asymmetric = K.copy()
        asymmetric[i, j] += 1e-8 * scale
        with pytest.raises(ValueError, match="precomputed kernel 0 is not symmetric"):
            training_grams([asymmetric], len(y))
        asymmetric[i, j] = K[i, j] + 1e-12 * scale  # within the tolerance, 1e-10 x max |K_ij|
        training_grams([asymmetric], len(y))


@pytest.mark.parametrize("n", [1, 63, 64, 150])
def test_compiled_passes_equal_numpy(n):
    A = np.random.default_rng(n).normal(size=(n, n))
    row_abs = np.empty(n)
    assert _largest_and_row_sums(A, row_abs) == np.abs(A).max()
    np.testing.assert_allclose(row_abs, np.abs(A).sum(axis=1), rtol=1e-13)
    assert _asymmetry(A) == np.abs(A - A.T).max()
    A[n // 2, 0] = np.nan
    assert np.isnan(_largest_and_row_sums(A, row_abs))


def test_benchmark_runs(tmp_path):
    out = tmp_path / "mkl_precomputed.json"
    script = ROOT / "benchmarks" / "mkl_precomputed.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text())
    assert record["benchmark"] == "mkl_precomputed" and record["issue"] == 48 and record["parameters"]["quick"]
    assert [r["goal"] for r in record["ratios"]] == ["<= 1.1", None, "<= 1.1", None]
    for r in record["ratios"]:
        assert r["value"] == pytest.approx(r["ours"]["value"] / r["peer"]["value"])
    assert {"SimpleMKL", "SILP"} <= set(record["timings"])
