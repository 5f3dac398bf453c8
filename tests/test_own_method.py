"""A user's own estimator in the workflow by its import path (issue 46): it runs beside the papers' methods.

An estimator defined outside the package (a module written into the working copy) is
added to a smoke experiment by ``estimator: "module:Class"``; the workflow fits it on
the experiment's splits and its rows appear in the experiment's table. A wrong module,
class or parameter stops ``snakemake -n`` before any job, with a message naming it.
"""

import copy
import os
import re
import subprocess

import pandas as pd
import pytest
import yaml

from mkbench.harness.config import added_methods, load_config
from mkbench.harness.methods import make_method, method_parameters, method_problem
from mkbench.harness.reproduction import build_reproduction

from .conftest import ROOT
from .test_resilience import SNAKEMAKE, workflow_copy

OWN_MODULE = '''
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.neighbors import KNeighborsClassifier


class Nearest(ClassifierMixin, BaseEstimator):
    """k nearest neighbours: a method that is not mkbench's."""

    def __init__(self, k=3):
        self.k = k

    def fit(self, X, y):
        self.model_ = KNeighborsClassifier(self.k).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)
'''


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    """A copy of the workflow whose small config adds ``nearest`` (``own_methods:Nearest``) to smoke-classification."""
    folder = workflow_copy(tmp_path_factory.mktemp("own-method"), {"smoke-classification": ["svc", "cgboost-lp"]})
    (folder / "own_methods.py").write_text(OWN_MODULE)
    (folder / "mine.yaml").write_text(
        yaml.safe_dump(
            {
                "experiments": {
                    "smoke-classification": {
                        "methods": {
                            "nearest": {"estimator": "own_methods:Nearest", "params": {"k": 5}},
                        }
                    }
                }
            }
        )
    )
    return folder


def _snakemake(folder, *args):
    env = {**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.run(
        [SNAKEMAKE, "--cores", "2", "--configfile", "small.yaml", "mine.yaml", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


def test_an_import_path_names_an_estimator_and_its_parameters(monkeypatch, tmp_path):
    (tmp_path / "own_methods.py").write_text(OWN_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert method_problem("own_methods:Nearest") == ""
    assert method_parameters("own_methods:Nearest") == ("k",)
    assert make_method("own_methods:Nearest", {"k": 5}).k == 5
    assert "has no 'Farthest'" in method_problem("own_methods:Farthest")
    assert "cannot import module 'no_such_module'" in method_problem("no_such_module:Nearest")
    assert "is not a scikit-learn estimator class" in method_problem("os:getcwd")
    with pytest.raises(Exception, match="method 'own_methods:Nearest' has no parameter.s. kk; valid parameters: k"):
        make_method("own_methods:Nearest", {"kk": 5})


def test_the_workflow_fits_it_on_the_experiments_splits_and_tables_it(own):
    result = _snakemake(own)
    assert result.returncode == 0, result.stderr[-3000:]
    table = (own / "results" / "tables" / "smoke-classification.md").read_text()
    rows = {line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("|")}
    assert "nearest †" in rows and "svc" in rows, table  # marked as added beside the paper's methods
    assert "† Added beside the paper's methods" in table
    summary = (own / "results" / "summary" / "smoke-classification.csv").read_text()
    assert summary.count("nearest") >= 2  # its test error and training error, from its records


@pytest.mark.parametrize(
    ("estimator", "params", "message"),
    [
        ("own_methods:Farthest", {}, "module 'own_methods' has no 'Farthest'"),
        ("not_installed:Nearest", {}, "cannot import module 'not_installed'"),
        ("own_methods:Nearest", {"kk": 5}, "method 'own_methods:Nearest' has no parameter.s. kk; valid parameters: k"),
    ],
)
def test_a_wrong_import_path_or_parameter_stops_the_dry_run(own, estimator, params, message):
    mine = own / "mine.yaml"
    original = mine.read_text()
    config = yaml.safe_load(original)
    config["experiments"]["smoke-classification"]["methods"]["nearest"] = {"estimator": estimator, "params": params}
    mine.write_text(yaml.safe_dump(config))
    try:
        result = _snakemake(own, "-n")
    finally:
        mine.write_text(original)
    out = result.stdout + result.stderr
    assert result.returncode != 0
    assert "methods/nearest" in out and re.search(message, out), out[-2000:]
    assert "Traceback" not in out


def _with_added_method(root, tmp_path, experiment: str, like: str):
    """A results tree under ``tmp_path`` equal to ``root``'s but for an added method ``my-own-method``: ``like``'s runs
    renamed, with every value 0 (a method that would win or lose every comparison it entered)."""
    for path in root.iterdir():  # the benchmarks, config, ... that the catalogue names
        if path.name != "results" and not path.name.startswith("."):
            (tmp_path / path.name).symlink_to(path)
    copied = ("results/summary", "results/tables")  # real folders: the changed files below must not write through
    for folder in ("results", *copied):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        for path in (root / folder).iterdir():
            if f"{folder}/{path.name}" not in copied:
                (tmp_path / folder / path.name).symlink_to(path)
    for name in (f"summary/{experiment}.csv", f"tables/{experiment}.csv"):
        frame = pd.read_csv(root / "results" / name)
        mine = frame[frame["method"] == like].assign(method="my-own-method")
        assert len(mine), (name, like)
        numbers = [c for c in mine.columns if c.endswith(("_error", "_seconds", "_mean")) or c.startswith("columns_")]
        mine[numbers] = 0.0
        if "paper_mean" in mine:
            mine[["paper_mean", "paper_std"]] = float("nan")
        target = tmp_path / "results" / name
        assert target.is_symlink() and not target.parent.is_symlink()  # the link goes, the committed file stays
        target.unlink()
        pd.concat([frame, mine], ignore_index=True).to_csv(target, index=False)


def test_an_added_method_changes_no_verdict_or_attribution(tmp_path):
    experiment, like = "cgboost-table1", "cgboost-l2-L,Q,R"  # the experiment most claims of the CG-Boost paper read
    config = load_config(ROOT / "config" / "config.yaml")
    catalogue = ROOT / "config" / "reproduction.yaml"
    before = build_reproduction(config, catalogue, root=ROOT)
    added = copy.deepcopy(config)
    added["experiments"][experiment]["methods"]["my-own-method"] = {
        "estimator": "sklearn.svm:SVC",
        "params": {},
        "grid": {},
        "trace": [],
    }
    assert added_methods(added, experiment) == ["my-own-method"]
    _with_added_method(ROOT, tmp_path, experiment, like)
    after = build_reproduction(added, catalogue, root=tmp_path)
    assert "my-own-method" not in after
    assert after == before
