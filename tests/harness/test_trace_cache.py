"""Traced CG-Boost runs scored from cached kernel columns equal the same runs scored by ``predict`` (issue 43)."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

import mkbench.harness.experiment as experiment
import mkbench.harness.tracing as tracing
from mkbench.harness.datasets import Dataset


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return Dataset(
        "sk-breast-cancer",
        X,
        np.where(y == 1, "benign", "malignant"),
        [f"x{i}" for i in range(X.shape[1])],
        "binary",
        {},
    )


def _split(n):
    idx = np.random.default_rng(1).permutation(n)
    return {"train": np.sort(idx[:150]), "validation": np.sort(idx[150:300]), "test": np.sort(idx[300:])}


@pytest.mark.parametrize("kernels, scaling", [("L,Q,R", "range"), ("L+R", None), ("Q", "standard")])
def test_cached_columns_score_as_predict_does(cancer, monkeypatch, kernels, scaling):
    params = {
        "kernels": kernels,
        "penalty": "l2",
        "positive": False,
        "C": 0.1,
        "scaling": scaling,
        "strategy": "stratified",
        "columns_per_iteration": 1,
        "max_iter": 40,
        "solver": "clarabel",
    }
    run = dict(
        method="cg",
        estimator="cgboost",
        params=params,
        trace=("validation", "test", "train"),
        preprocess="standardize" if scaling is None else "none",
    )
    cached = experiment.run_job(cancer, _split(len(cancer.y)), **run)
    monkeypatch.setattr(tracing._ColumnCache, "predict", lambda self, model, part: None)
    direct = experiment.run_job(cancer, _split(len(cancer.y)), **run)
    names = ("validation_error", "test_error", "train_error")
    assert len(cached["history"]) == len(direct["history"]) > 20
    for mine, theirs in zip(cached["history"], direct["history"], strict=True):
        assert {k: mine[k] for k in names} == pytest.approx({k: theirs[k] for k in names}, abs=1e-12)
    last = cached["history"][-1]
    used = {k[len("used_") :]: v for k, v in last.items() if k.startswith("used_")}
    assert used and all(last[f"used_{kernel}"] == cached[f"columns_{kernel}"] for kernel in used)
    assert cached["test_error"] == pytest.approx(last["test_error"])


def test_raw_pixels_undo_the_division_by_255():
    X = np.array([[0.0, 1.0], [128 / 255, 3 / 255]])
    np.testing.assert_array_equal(experiment._preprocess(X, np.arange(2), "raw-pixels"), [[0, 255], [128, 3]])
