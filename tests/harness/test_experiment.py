import math
import warnings

import numpy as np
import pytest
from sklearn.compose import TransformedTargetRegressor
from sklearn.datasets import load_diabetes
from sklearn.exceptions import ConvergenceWarning
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

import mkbench.harness.experiment as experiment
from mkbench.exceptions import ConfigError, SolverError
from mkbench.harness.datasets import Dataset


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return Dataset("sk-diabetes", X, y, [f"x{i}" for i in range(X.shape[1])], "regression", {})


def _split(n):
    idx = np.random.default_rng(0).permutation(n)
    return {"train": np.sort(idx[:300]), "test": np.sort(idx[300:])}


def test_record_metrics_equal_a_direct_scikit_learn_fit(diabetes):
    split = _split(len(diabetes.y))
    # the papers' settings of the baseline (config estimator_defaults: inputs as run_job prepares them, epsilon searched)
    params = {
        "search": "grid",
        "param_grid": {"C": [30.0], "gamma": [0.05], "epsilon": [0.5]},
        "scaling": None,
        "epsilon": "search",
    }
    record = experiment.run_job(
        diabetes, split, method="svr", estimator="svr", params=params, ids={"experiment": "e", "seed": 0, "split": 0}
    )
    # inputs standardised by run_job, the target by the baseline (estimators/validation_search.py docstring)
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
    with pytest.raises(KeyError, match="unknown method 'svmtorch'; known methods: .*cgboost, cgboost-regressor, .*svr"):
        experiment.run_job(diabetes, _split(len(diabetes.y)), method="m", estimator="svmtorch")
    with pytest.raises(ConfigError, match="has no parameter\\(s\\) gama"):
        experiment.run_job(diabetes, _split(len(diabetes.y)), method="m", estimator="svr", params={"gama": 1})


def test_cgboost_record_has_columns_per_kernel(diabetes):
    y = np.where(diabetes.y > np.median(diabetes.y), 1, -1)
    data = Dataset("sk-diabetes-binary", diabetes.X, y, diabetes.feature_names, "binary", {})
    record = experiment.run_job(
        data, _split(len(y)), method="cg", estimator="cgboost", params={"kernels": "L,R", "penalty": "l1", "C": 1.0}
    )
    assert record["status"] == "optimal" and record["cg_status"] == "optimal"
    assert record["columns_linear"] + record["columns_rbf"] == record["n_support"] > 0
    assert 0 <= record["test_error"] <= 1 and record["history"][-1]["max_violation"] <= 1e-6


def test_trace_scores_a_part_at_every_iteration(diabetes):
    y = np.where(diabetes.y > np.median(diabetes.y), 1, -1)
    data = Dataset("sk-diabetes-binary", diabetes.X, y, diabetes.feature_names, "binary", {})
    split = _split(len(y))
    split["validation"], split["test"] = split["test"][:60], split["test"][60:]
    record = experiment.run_job(
        data,
        split,
        method="cg",
        estimator="cgboost",
        trace=("validation",),
        params={"kernels": "L,R", "penalty": "l1", "C": 1.0},
    )
    history = record["history"]
    assert len(history) == record["n_iter"] + 1 and all("validation_error" in row for row in history)
    assert history[-1]["validation_error"] == record["validation_error"]  # the last model is the fitted one
    assert len({row["validation_error"] for row in history}) > 1
    with pytest.raises(ConfigError, match=r"trace names part\(s\) \['unlabeled'\] that the split lacks"):
        experiment.run_job(data, split, method="cg", estimator="cgboost", trace=("unlabeled",))
    with pytest.raises(ConfigError, match="method 'svc' takes no per-iteration callback and has no staged_predict"):
        experiment.run_job(data, split, method="s", estimator="svc", trace=("validation",))


def test_center_normalize_uses_the_training_mean_then_unit_rows():
    X = np.random.default_rng(0).normal(loc=3.0, size=(10, 4))
    Z = experiment._preprocess(X, np.arange(5), "center-normalize")
    centred = X - X[:5].mean(axis=0)
    np.testing.assert_allclose(np.linalg.norm(Z, axis=1), 1.0)
    np.testing.assert_allclose(Z * np.linalg.norm(centred, axis=1, keepdims=True), centred)


def test_fit_unlabeled_passes_the_unlabeled_part_to_fit():
    from sklearn.datasets import load_breast_cancer

    from mkbench import SSMKClassifier
    from mkbench.harness.splits import make_splits

    X, y = load_breast_cancer(return_X_y=True)
    data = Dataset("sk-breast-cancer", X, y, [f"x{i}" for i in range(X.shape[1])], "binary", {})
    split = make_splits("semisupervised", y=y, seed=0, n_labeled=30, n_unlabeled=100, n_test=200, n_repeats=1)[0]
    record = experiment.run_job(
        data, split, method="ssmk", estimator="ssmk", fit_unlabeled=True, params={"kernels": "L,R", "C": 1.0}
    )
    X = StandardScaler().fit(X[split["train"]]).transform(X)  # run_job's default preprocessing
    direct = SSMKClassifier("L,R", C=1.0).fit(X[split["train"]], y[split["train"]], X_unlabeled=X[split["unlabeled"]])
    assert record["test_error"] == pytest.approx(np.mean(direct.predict(X[split["test"]]) != y[split["test"]]))
    assert record["n_iter"] == direct.n_iter_ and direct.n_unlabeled_ == 100
    with pytest.raises(ConfigError, match="fit_unlabeled needs an 'unlabeled' part"):
        experiment.run_job(
            data, {"train": split["train"], "test": split["test"]}, method="ssmk", estimator="ssmk", fit_unlabeled=True
        )


def _disc_job_data():
    from mkbench.harness.datasets import load

    data = load("gaussian-disc")
    idx = np.random.default_rng(1).permutation(len(data.y))[:300]
    return data, {"train": np.sort(idx[:200]), "test": np.sort(idx[200:])}


def test_trace_through_staged_predictions_without_a_callback():
    """CGEns Fig. 1: CGEns and scikit-learn's AdaBoost have no callback; staged_predict scores every iteration."""
    from sklearn.ensemble import AdaBoostClassifier

    from mkbench.estimators import CGEnsClassifier

    data, split = _disc_job_data()
    X, y = data.X, data.y
    for estimator, params, direct in (
        ("cgens", {"C": 1.0, "max_iter": 15}, CGEnsClassifier(C=1.0, max_iter=15)),
        ("adaboost", {"n_estimators": 15, "random_state": 0}, AdaBoostClassifier(n_estimators=15, random_state=0)),
    ):
        record = experiment.run_job(
            data,
            split,
            method=estimator,
            estimator=estimator,
            params=params,
            trace=("train", "test"),
            preprocess="none",
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            direct.fit(X[split["train"]], y[split["train"]])
        expected = [np.mean(p != y[split["test"]]) for p in direct.staged_predict(X[split["test"]])]
        rows = {row["n_columns"]: row for row in record["history"] if "test_error" in row}
        assert sorted(rows) == list(range(1, len(expected) + 1))
        np.testing.assert_allclose([rows[t]["test_error"] for t in sorted(rows)], expected)
        assert rows[len(expected)]["test_error"] == record["test_error"]  # the last stage is the fitted model
        assert rows[len(expected)]["train_error"] == record["train_error"]
        if estimator == "cgens":  # its own history is kept, the scores added to its rows
            assert len(record["history"]) == direct.n_iter_ + 1 and record["history"][0]["n_columns"] == 0
            assert all("objective" in row for row in record["history"])


def test_count_features_records_each_features_stumps():
    from mkbench.estimators.feature_counts import feature_counts
    from mkbench.estimators import CGEnsClassifier

    data, split = _disc_job_data()
    record = experiment.run_job(
        data,
        split,
        method="cgens",
        estimator="cgens",
        params={"C": 1.0, "max_iter": 9},
        preprocess="none",
        count_features=True,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        direct = CGEnsClassifier(C=1.0, max_iter=9).fit(data.X[split["train"]], data.y[split["train"]])
    counts = feature_counts(direct)
    assert [record["feature_count_1"], record["feature_count_2"]] == counts.tolist() and counts.sum() == 9
    assert "feature_count_3" not in record and "feature_count_0" not in record
    with pytest.raises(ConfigError, match="method 'svm-ensemble-kernel' is not an ensemble of stumps"):
        experiment.run_job(data, split, method="s", estimator="svm-ensemble-kernel", count_features=True)


def test_record_status_is_the_models_own(diabetes):
    """A time-limit stop is recorded as such (status_), not guessed from the ConvergenceWarning as max_iter."""
    y = np.where(diabetes.y > np.median(diabetes.y), 1, -1)
    data = Dataset("sk-diabetes-binary", diabetes.X, y, diabetes.feature_names, "binary", {})
    params = {"kernels": "L,R", "penalty": "l1", "C": 1.0}
    stopped = experiment.run_job(
        data, _split(len(y)), method="cg", estimator="cgboost", params={**params, "time_limit": 1e-9}
    )
    assert stopped["status"] == stopped["cg_status"] == "time_limit"
    capped = experiment.run_job(
        data, _split(len(y)), method="cg", estimator="cgboost", params={**params, "max_iter": 1}
    )
    assert capped["status"] == "max_iter"


def test_a_solver_stopped_by_its_iteration_limit_is_recorded_as_not_converged(diabetes):
    """RFF's liblinear at its iteration limit: the search's refit warns, and the record names it, never "optimal"."""
    y = np.where(diabetes.y > np.median(diabetes.y), 1, -1)
    data = Dataset("sk-diabetes-binary", diabetes.X, y, diabetes.feature_names, "binary", {})
    search = {"method": "rff", "n_iters": None, "cv": 2, "param_grid": {"C": [1.0]}}
    capped = experiment.run_job(
        data,
        _split(len(y)),
        method="rff",
        estimator="staged-cv",
        params={**search, "params": {"gamma": 0.1, "n_components": 50, "max_iter": 2}},
    )
    assert capped["status"].startswith("not converged: ") and "iterations" in capped["status"]
    free = experiment.run_job(
        data,
        _split(len(y)),
        method="rff",
        estimator="staged-cv",
        params={**search, "params": {"gamma": 0.1, "n_components": 50}},
    )
    assert free["status"] == "optimal"


def test_records_carry_the_cpu_time_of_fit_and_predict(diabetes):
    """Wall time and the process's CPU time (what `mkbench cost` prices) of the fit and of the predictions."""
    record = experiment.run_job(diabetes, _split(len(diabetes.y)), method="m", estimator="svr")
    assert record["fit_cpu_seconds"] > 0.0 and record["predict_cpu_seconds"] >= 0.0
    assert record["fit_cpu_seconds"] <= 4 * record["fit_seconds"] + 0.1  # a few BLAS threads at most
