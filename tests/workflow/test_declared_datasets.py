"""Data sets declared in the config (issue 46): a local file or an OpenML id, beside the registered sets.

A CSV, an .npz and a libsvm file load with their labels coded for the task and their
sha256 checked; an OpenML data set is read from a local cache of scikit-learn's (built
here from scikit-learn's own OpenML test fixture, so no network is needed). Bad
declarations stop at reading, naming the data set. A CSV and an OpenML set run
through the workflow's split, fit and table.
"""

import gzip
import json
import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pandas as pd
import pytest
import sklearn
import yaml
from sklearn.datasets import dump_svmlight_file, load_breast_cancer, load_diabetes, load_wine

from mkbench.exceptions import ConfigError, DataError
from mkbench.harness.config import load_config
from mkbench.harness.datasets import load
from mkbench.harness.datasets._registry import _REGISTRY
from mkbench.harness.datasets.declared import array_digest, declare, file_digest

from .test_resilience import SNAKEMAKE, workflow_copy

IRIS_FIXTURE = Path(sklearn.__file__).parent / "datasets" / "tests" / "data" / "openml" / "id_61"


@pytest.fixture(autouse=True)
def _forget_declared():
    """Each test declares its own sets: drop them from the registry afterwards."""
    before = set(_REGISTRY)
    yield
    for name in set(_REGISTRY) - before:
        del _REGISTRY[name]


def breast_cancer_csv(path: Path) -> Path:
    data = load_breast_cancer()
    frame = pd.DataFrame(data.data, columns=[f"f{j}" for j in range(data.data.shape[1])])
    frame["diagnosis"] = np.array(data.target_names)[data.target]
    frame.to_csv(path, index=False)
    return path


def openml_cache(home: Path) -> Path:
    """scikit-learn's OpenML cache under ``home`` holding iris (data id 61), from scikit-learn's test fixture."""
    description = json.load(gzip.open(IRIS_FIXTURE / "api-v1-jd-61.json.gz"))["data_set_description"]
    copies = {
        "api-v1-jd-61.json.gz": "api/v1/json/data/61",
        "api-v1-jdf-61.json.gz": "api/v1/json/data/features/61",
        "api-v1-jdq-61.json.gz": "api/v1/json/data/qualities/61",
        "data-v1-dl-61.arff.gz": urlparse(description["url"]).path.lstrip("/"),
    }
    for source, target in copies.items():
        path = home / "openml" / "openml.org" / f"{target}.gz"
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(IRIS_FIXTURE / source, path)
    return home


def test_a_csv_loads_with_its_labels_coded_and_its_digest_checked(tmp_path):
    path = breast_cancer_csv(tmp_path / "cancer.csv")
    declare({"my-cancer": {"file": str(path), "sha256": file_digest(path), "target": "diagnosis", "task": "binary"}})
    ds = load("my-cancer")
    truth = load_breast_cancer()
    np.testing.assert_allclose(ds.X, truth.data)
    assert ds.metadata["positive_class"] == "malignant"  # the second of the sorted classes, as classes_[1]
    np.testing.assert_array_equal(ds.y, np.where(truth.target == 0, 1, -1))
    path.write_text(path.read_text().replace("malignant", "benign", 1))  # one label changed
    with pytest.raises(DataError, match=r"my-cancer: .*cancer.csv' has sha256 [0-9a-f]{64}, the config declares"):
        load("my-cancer")


def test_npz_and_libsvm_files(tmp_path):
    wine, diabetes = load_wine(), load_diabetes()
    np.savez(tmp_path / "wine.npz", X=wine.data, labels=wine.target + 10)
    dump_svmlight_file(diabetes.data, diabetes.target, str(tmp_path / "diabetes.svm"))
    declare(
        {
            "my-wine": {
                "file": str(tmp_path / "wine.npz"),
                "sha256": file_digest(tmp_path / "wine.npz"),
                "target": "labels",
                "task": "multiclass",
            },
            "my-diabetes": {
                "file": str(tmp_path / "diabetes.svm"),
                "sha256": file_digest(tmp_path / "diabetes.svm"),
                "task": "regression",
            },
        }
    )
    wine_set, diabetes_set = load("my-wine"), load("my-diabetes")
    np.testing.assert_array_equal(wine_set.y, wine.target)  # 10, 11, 12 -> codes 0, 1, 2 in numeric order
    assert wine_set.metadata["classes"] == ["10", "11", "12"]
    np.testing.assert_allclose(diabetes_set.X, diabetes.data, rtol=1e-12)
    np.testing.assert_allclose(diabetes_set.y, diabetes.target)


def test_an_openml_set_is_read_from_the_local_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SCIKIT_LEARN_DATA", str(openml_cache(tmp_path)))
    declare({"my-iris": {"openml": 61, "task": "multiclass"}})
    ds = load("my-iris")
    assert ds.X.shape == (150, 4) and ds.metadata["classes"] == ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    np.testing.assert_array_equal(np.bincount(ds.y), [50, 50, 50])
    labels = np.array(ds.metadata["classes"])[ds.y]  # as OpenML holds them
    declare(
        {
            "my-iris-pinned": {"openml": 61, "task": "multiclass", "sha256": array_digest(ds.X, labels)},
            "my-iris-changed": {"openml": 61, "task": "multiclass", "sha256": "0" * 64},
        }
    )
    np.testing.assert_array_equal(load("my-iris-pinned").y, ds.y)
    with pytest.raises(
        DataError, match=r"OpenML data set 61 loads with array sha256 [0-9a-f]{64}, the config declares 0+: "
    ):
        load("my-iris-changed")


def test_bad_declarations_are_named(tmp_path):
    path = breast_cancer_csv(tmp_path / "cancer.csv")
    cases = {
        "sk-breast-cancer": (
            {"file": str(path), "sha256": "0" * 64, "target": "diagnosis", "task": "binary"},
            "is a data set of mkbench already",
        ),
        "gone": (
            {"file": str(tmp_path / "gone.csv"), "sha256": "0" * 64, "target": "y", "task": "binary"},
            "does not exist",
        ),
        "no-target": ({"file": str(path), "sha256": "0" * 64, "task": "binary"}, "needs target"),
        "odd": (
            {"file": str(tmp_path / "cancer.xlsx"), "sha256": "0" * 64, "task": "binary"},
            "cannot tell the format",
        ),
    }
    for name, (entry, message) in cases.items():
        with pytest.raises(ConfigError, match=f"at datasets/{name}: .*{message}"):
            declare({name: entry})
    with pytest.raises(DataError, match=r"feature column.s. \['diagnosis'\] are not numbers: encode them first"):
        declare({"text": {"file": str(path), "sha256": file_digest(path), "target": "f0", "task": "binary"}})
        load("text")
    wine = load_wine(as_frame=True).frame
    wine.to_csv(tmp_path / "wine.csv", index=False)
    declare(
        {
            "three": {
                "file": str(tmp_path / "wine.csv"),
                "sha256": file_digest(tmp_path / "wine.csv"),
                "target": "target",
                "task": "binary",
            }
        }
    )
    with pytest.raises(DataError, match="task binary, but the target has 3 classes: declare task: multiclass"):
        load("three")


def test_the_workflow_splits_fits_and_tables_declared_sets(tmp_path_factory, monkeypatch):
    folder = workflow_copy(tmp_path_factory.mktemp("declared"), {"smoke-regression": ["svr"]})
    path = breast_cancer_csv(folder / "cancer.csv")
    home = openml_cache(folder / "sklearn-data")
    overlay = {
        "datasets": {
            "my-cancer": {"file": "cancer.csv", "sha256": file_digest(path), "target": "diagnosis", "task": "binary"},
            "my-iris": {"openml": 61, "task": "multiclass"},
        },
        "experiments": {
            "own-data": {
                "title": "A CSV and an OpenML set declared in the config",
                "datasets": ["my-cancer", "my-iris"],
                "protocol": "holdout",
                "methods": {
                    "svc": {"estimator": "svc", "params": {"search": "pattern", "max_evals": 4, "random_state": 0}}
                },
            }
        },
        "tables": {
            "own-data": {
                "experiment": "own-data",
                "caption": "Declared data sets",
                "metrics": ["train_error", "test_error"],
            }
        },
    }
    (folder / "mine.yaml").write_text(yaml.safe_dump(overlay))
    monkeypatch.chdir(folder)  # a declared file's relative path starts at the working directory
    load_config("small.yaml", "mine.yaml")  # valid as a whole
    env = {**os.environ, "SCIKIT_LEARN_DATA": str(home)}
    result = subprocess.run(
        [SNAKEMAKE, "--cores", "2", "--configfile", "small.yaml", "mine.yaml"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    table = pd.read_csv(folder / "results" / "tables" / "own-data.csv")
    errors = table[table["metric"] == "test_error"].set_index("dataset")["ours_mean"]
    assert set(errors.index) == {"my-cancer", "my-iris"}
    assert errors["my-cancer"] < 0.1 and errors["my-iris"] < 0.15  # fitted on the data, not on noise
