import math

import numpy as np
import pytest
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import load_diabetes
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

import mkbench.experiment as experiment
from mkbench.datasets import Dataset
from mkbench.exceptions import ConfigError, SolverError


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return Dataset("sk-diabetes", X, y, [f"x{i}" for i in range(X.shape[1])], "regression", {})


def _split(n):
    idx = np.random.default_rng(0).permutation(n)
    return {"train": np.sort(idx[:300]), "test": np.sort(idx[300:])}


def test_record_metrics_equal_a_direct_scikit_learn_fit(diabetes):
    split = _split(len(diabetes.y))
    params = {"search": "grid", "param_grid": {"C": [30.0], "gamma": [0.05], "epsilon": [0.5]}}
    record = experiment.run_job(diabetes, split, method="svr", estimator="svr", params=params,
                                ids={"experiment": "e", "seed": 0, "split": 0})
    # inputs standardised by run_job, the target by the baseline (baselines.py docstring)
    svr = TransformedTargetRegressor(SVR(C=30.0, gamma=0.05, epsilon=0.5), transformer=StandardScaler())
    ref = make_pipeline(StandardScaler(), svr)
    ref.fit(diabetes.X[split["train"]], diabetes.y[split["train"]])
    pred = ref.predict(diabetes.X[split["test"]])
    assert record["test_mse"] == pytest.approx(np.mean((pred - diabetes.y[split["test"]]) ** 2), rel=1e-9)
    assert record["n_support"] == ref[-1].regressor_.support_.size
    assert record["status"] == "optimal"
    assert record["p_search"] == "grid" and record["experiment"] == "e"
    assert record["n_train"] == 300 and record["n_test"] == len(diabetes.y) - 300
    assert record["versions"]["scikit-learn"]


class _FailingModel:
    def fit(self, X, y):
        raise SolverError("HiGHS returned status 'Infeasible' on a 10 x 4 LP")


def test_solver_failure_is_recorded_not_hidden(diabetes, monkeypatch):
    monkeypatch.setattr(experiment, "make_method", lambda name, params: _FailingModel())
    record = experiment.run_job(diabetes, _split(len(diabetes.y)), method="m", estimator="svr")
    assert record["status"].startswith("failed: HiGHS returned status 'Infeasible'")
    assert math.isnan(record["test_mse"]) and math.isnan(record["train_mse"])


def test_bad_preprocess_and_unknown_method(diabetes):
    with pytest.raises(ConfigError, match="unknown preprocess 'scale'"):
        experiment.run_job(diabetes, _split(len(diabetes.y)), method="m", estimator="svr", preprocess="scale")
    with pytest.raises(KeyError, match="unknown method 'svmtorch'; known methods: cgboost, cgboost-regressor, krr, svc, svr"):
        experiment.run_job(diabetes, _split(len(diabetes.y)), method="m", estimator="svmtorch")
    with pytest.raises(ConfigError, match="has no parameter\\(s\\) gama"):
        experiment.run_job(diabetes, _split(len(diabetes.y)), method="m", estimator="svr", params={"gama": 1})


def test_cgboost_record_has_columns_per_kernel(diabetes):
    y = np.where(diabetes.y > np.median(diabetes.y), 1, -1)
    data = Dataset("sk-diabetes-binary", diabetes.X, y, diabetes.feature_names, "binary", {})
    record = experiment.run_job(data, _split(len(y)), method="cg", estimator="cgboost",
                                params={"kernels": "L,R", "penalty": "l1", "C": 1.0})
    assert record["status"] == "optimal" and record["cg_status"] == "optimal"
    assert record["columns_linear"] + record["columns_rbf"] == record["n_support"] > 0
    assert 0 <= record["test_error"] <= 1 and record["history"][-1]["max_violation"] <= 1e-6
