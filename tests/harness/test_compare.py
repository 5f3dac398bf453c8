"""``mkbench compare`` (issue 46, item 5): one's own estimator on an experiment's splits, beside the papers' methods.

Run in a folder holding the repository's config and committed summaries, it fits an
outside estimator on the first splits of the MKL experiment (Ionosphere, Sonar: the
mirror's files), writes the experiment's table with its rows marked as added and the
papers' methods on the same splits, and resumes from its records on a second call.
"""

import os

import pytest

from mkbench.harness.cli import main

from ..conftest import ROOT
from ..workflow.test_own_method import OWN_MODULE


@pytest.fixture
def folder(tmp_path, monkeypatch, mirror):
    (tmp_path / "own_methods.py").write_text(OWN_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "config").symlink_to(ROOT / "config")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "summary").symlink_to(ROOT / "results" / "summary")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _compare(*extra):
    return main(
        ["compare", "--estimator", "own_methods:Nearest", "--experiment", "mkl-uci", "--max-splits", "2", *extra]
    )


def test_compare_tables_the_estimator_beside_the_papers_methods_on_the_same_splits(folder, capsys):
    assert _compare("--param", "k=5", "--label", "knn") == 0
    table = (folder / "results" / "compare" / "mkl-table.md").read_text()
    assert table in capsys.readouterr().out
    lines = [[cell.strip() for cell in line.split("|")[1:-1]] for line in table.splitlines() if line.startswith("| ")]
    header, body = lines[0], [cells for cells in lines[1:] if not set(cells[0]) <= set(":-")]
    rows = {(cells[0], cells[1]): dict(zip(header, cells, strict=True)) for cells in body}
    for dataset in ("ionosphere", "sonar"):
        assert (dataset, "knn †") in rows and (dataset, "silp") in rows and (dataset, "simplemkl") in rows
        assert {row["runs"] for (d, _), row in rows.items() if d == dataset} == {"2"}  # all on the same 2 splits
    assert rows["ionosphere", "silp"]["test error (%)"].endswith("(7.8 ± 1.5)")  # the paper's value beside ours
    records = sorted((folder / "results" / "compare" / "runs").rglob("*.json"))
    assert len(records) == 4  # 2 data sets x 2 splits
    stamps = [os.stat(path).st_mtime_ns for path in records]
    assert _compare("--param", "k=5", "--label", "knn") == 0  # resumes: read, not refitted
    assert [os.stat(path).st_mtime_ns for path in records] == stamps


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--param", "kk=5"], "method 'own_methods:Nearest' has no parameter.s. kk; valid parameters: k"),
        (["--label", "silp"], "--label 'silp' is a method of mkl-uci already"),
        (["--param", "k"], "--param 'k': write KEY=VALUE"),
    ],
)
def test_compare_stops_on_a_bad_parameter_or_label(folder, capsys, extra, message):
    import re

    assert _compare(*extra) == 2
    assert re.search(message, capsys.readouterr().err)
