"""The stratified strategy's threshold for an "appropriate" column of a cheaper kernel (cgboost §5; issue 43).

``stratify_ratio`` changes which column enters when, never the optimum column generation reaches;
0 is the plain reading (any violating column of the first kernel with one).
"""

import numpy as np
import pytest

from mkbench.cg import column_generation
from mkbench.estimators import CGBoostClassifier
from mkbench.kernels import KernelColumns
from mkbench.masters import QPMaster
from mkbench.oracles import KernelOracle

KERNELS = ["linear", "quadratic", "rbf"]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] - 0.6 * X[:, 1] ** 2 + 0.4 + 0.4 * rng.normal(size=60) > 0, 1.0, -1.0)
    return X, y


def _run(X, y, ratio):
    oracle = KernelOracle(KernelColumns(X, KERNELS), strategy="stratified", stratify_ratio=ratio)
    master = QPMaster(y, 1.0, alpha_sign="free")
    return column_generation(master, oracle, tol=1e-7, max_iter=2000)


def _first_non_linear(result):
    return next(i for i, (p, _) in enumerate(result.choices) if p != 0)


def test_a_ratio_lets_later_kernels_in_earlier_and_keeps_the_optimum(data):
    X, y = data
    plain, thresholded = _run(X, y, 0.0), _run(X, y, 0.5)
    assert plain.status == thresholded.status == "optimal"
    assert thresholded.solution.objective == pytest.approx(plain.solution.objective, rel=1e-5)
    assert _first_non_linear(thresholded) < _first_non_linear(plain)


def test_ratio_zero_is_the_plain_stratified_rule(data):
    X, y = data
    default = column_generation(
        QPMaster(y, 1.0, alpha_sign="free"),
        KernelOracle(KernelColumns(X, KERNELS), strategy="stratified"),
        tol=1e-7,
        max_iter=2000,
    )
    assert _run(X, y, 0.0).choices == default.choices


def test_the_full_scan_ignores_the_ratio(data):
    X, y = data
    runs = [
        column_generation(
            QPMaster(y, 1.0, alpha_sign="free"),
            KernelOracle(KernelColumns(X, KERNELS), strategy="full", stratify_ratio=r),
            tol=1e-7,
            max_iter=2000,
        )
        for r in (0.0, 0.5)
    ]
    assert runs[0].choices == runs[1].choices


@pytest.mark.parametrize("bad", [-0.1, 1.0, True, "0.1"])
def test_bad_ratios_are_refused(data, bad):
    X, _ = data
    with pytest.raises(ValueError, match="stratify_ratio"):
        KernelOracle(KernelColumns(X, KERNELS), strategy="stratified", stratify_ratio=bad)


def test_the_classifier_passes_it_through(data):
    X, y = data
    common = {
        "kernels": "L,Q,R",
        "penalty": "l2",
        "positive": False,
        "strategy": "stratified",
        "columns_per_iteration": 1,
        "scaling": None,
        "normalize_kernels": False,
        "C": 1.0,
        "solver": "clarabel",
    }
    plain = CGBoostClassifier(**common).fit(X, y)
    thresholded = CGBoostClassifier(stratify_ratio=0.5, **common).fit(X, y)
    assert CGBoostClassifier().get_params()["stratify_ratio"] == 0.0
    first = [next(i for i, (name, _) in enumerate(m.columns_) if name != "linear") for m in (plain, thresholded)]
    assert first[1] < first[0]
    np.testing.assert_array_equal(plain.predict(X), thresholded.predict(X))
