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
from mkbench.harness.figures import draw_bars, draw_figure, draw_lines
from mkbench.harness.report import ADDED_MARK, write_table
from mkbench.harness.reproduction import build_reproduction

from ..conftest import ROOT
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


@pytest.mark.parametrize(
    "experiment, like",
    [
        ("cgboost-table1", "cgboost-l2-L,Q,R"),  # the experiment most claims of the CG-Boost paper read
        ("cgens-table1", "cgens"),  # a cross-validated method whose C was chosen at its grid's edge (edges text)
    ],
)
def test_an_added_method_changes_no_verdict_or_attribution(tmp_path, experiment, like):
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


def _two_methods_on_a_grid() -> pd.DataFrame:
    """Records of a paper's method and an added one, each at two grid settings (C) on two splits."""
    return pd.DataFrame(
        {
            "dataset": "d",
            "method": ["svm"] * 4 + ["mine"] * 4,
            "split": [0, 1] * 4,
            "param": ["C=0.1", "C=0.1", "C=1.0", "C=1.0"] * 2,
            "p_C": [0.1, 0.1, 1.0, 1.0] * 2,
            "status": "optimal",
            "test_error": [0.3, 0.2, 0.25, 0.2, 0.1, 0.15, 0.12, 0.11],
            "count_1": [1, 2, 3, 4, 5, 6, 7, 8],
            "count_2": [2, 2, 2, 2, 1, 1, 1, 1],
        }
    )


def test_an_added_method_is_marked_at_every_grid_setting_in_a_table(tmp_path):
    write_table(_two_methods_on_a_grid(), ["test_error"], tmp_path / "t", caption="c", added=["mine"])
    text = (tmp_path / "t.md").read_text()
    rows = [line for line in text.splitlines() if "[C=" in line]
    assert [row.split("|")[1].strip() for row in rows] == [
        "svm [C=0.1]",
        "svm [C=1.0]",
        f"mine [C=0.1] {ADDED_MARK}",
        f"mine [C=1.0] {ADDED_MARK}",
    ], text
    assert f"{ADDED_MARK} Added beside the paper's methods" in text
    write_table(_two_methods_on_a_grid(), ["test_error"], tmp_path / "u", caption="c")  # nothing added
    assert ADDED_MARK not in (tmp_path / "u.md").read_text()


@pytest.mark.parametrize("kind", ["box", "lines", "lines along C", "bars"])
def test_an_added_method_is_marked_in_every_kind_of_figure(tmp_path, monkeypatch, kind):
    import mkbench.harness.figures as figures

    drawn = []
    monkeypatch.setattr(figures, "_save", lambda figure, stem: drawn.append(figure))
    records = _two_methods_on_a_grid()
    for added in (["mine"], []):
        if kind == "box":
            draw_figure(records, "test_error", tmp_path / "f", title="t", added=added)
        elif kind == "bars":
            draw_bars(records, "count", tmp_path / "f", title="t", added=added)
        else:
            x = "p_C" if kind == "lines along C" else "split"
            draw_lines(records, x, "test_error", tmp_path / "f", title="t", added=added)
    marked, plain = (_figure_texts(figure) for figure in drawn)
    names = [text for text in marked if "mine" in text]
    assert names and all(text.endswith(ADDED_MARK) for text in names), marked
    assert any(text.startswith(f"{ADDED_MARK}: added beside the paper's methods") for text in marked), marked
    assert not any("svm" in text and ADDED_MARK in text for text in marked), marked
    assert not any(ADDED_MARK in text for text in plain), plain


def _figure_texts(figure) -> list[str]:
    """Every text of a figure: tick labels, legend entries, notes (unwrapped, split at their '; ')."""
    figure.canvas.draw()
    texts = [text.get_text().replace("\n", " ") for text in figure.findobj(lambda a: hasattr(a, "get_text"))]
    return [part for text in texts for part in text.split("; ") if part]


def test_the_worked_example_of_config_readme_adds_to_an_experiment_of_the_config(tmp_path):
    """config/README.md's overlay (shown in the documentation site too) names an experiment that exists, and
    with a real estimator in place of its placeholder it reads as a valid overlay."""
    text = (ROOT / "config" / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Your own method") :]
    example = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))
    config = load_config(ROOT / "config" / "config.yaml")
    assert set(example["experiments"]) <= set(config["experiments"]), example["experiments"]
    for method in (m for e in example["experiments"].values() for m in e["methods"].values()):
        method["estimator"] = "sklearn.svm:SVC"  # the placeholder's stand-in: it takes C and gamma too
    overlay = tmp_path / "mine.yaml"
    overlay.write_text(yaml.safe_dump({"experiments": example["experiments"]}))
    merged = load_config(ROOT / "config" / "config.yaml", overlay)
    assert added_methods(merged, list(example["experiments"])) == ["my-mkl"]
