"""REPRODUCTION.md: statuses and gaps from hand-made tables and catalogues, bad catalogues, atomic output,
the command line, the committed catalogue, and the report's caption templates."""

import html
import os
from types import SimpleNamespace

import pandas as pd
import pytest
import yaml

from mkbench.exceptions import ConfigError
from mkbench.harness.cli import main
from mkbench.harness.config import load_config
from mkbench.harness.report import write_table
from mkbench.harness.catalogue import REASONS, Tolerance, existing_targets, load_catalogue
from mkbench.harness.reproduction import assess, build_reproduction, write_reproduction

from ..conftest import ROOT

#: A workflow config as far as the catalogue reads it: tables, figures and their experiments' papers.
CONFIG = {
    "experiments": {"exp-a": {"paper": "pa", "methods": {}}, "exp-b": {"paper": "pb", "methods": {}}},
    "tables": {
        "tab-a": {"experiment": "exp-a", "metrics": ["test_error", "n_support", "fit_seconds"]},
        "tab-b": {"experiment": "exp-b", "metrics": ["test_mse"]},
    },
    "figures": {"fig-a": {"experiment": ["exp-a"], "metric": "test_error"}},
}
PAPERS = {"pa": {"citation": "A. Author, Paper A"}, "pb": {"citation": "B. Author, Paper B"}}


def _table(root, name, ours, paper, failed=()):
    """Write results/tables/<name>.csv/.md with mkbench.harness.report.write_table.

    ours: {(dataset, method): {metric: [values per split]}}; paper: {(dataset, method, metric): mean};
    failed: (dataset, method) pairs with one more, failed, run.
    """
    rows = []
    for (dataset, method), metrics in ours.items():
        n = len(next(iter(metrics.values())))
        rows += [
            {"dataset": dataset, "method": method, "status": "optimal", **{m: v[i] for m, v in metrics.items()}}
            for i in range(n)
        ]
        if (dataset, method) in failed:
            rows.append({"dataset": dataset, "method": method, "status": "failed: solver", **{m: 0.0 for m in metrics}})
    metrics = sorted({m for values in ours.values() for m in values})
    reference = pd.DataFrame(
        [
            {
                "paper": "p",
                "table": "T",
                "dataset": d,
                "method": m,
                "metric": k,
                "mean": v,
                "std": None,
                "unit": "",
                "note": "",
            }
            for (d, m, k), v in paper.items()
        ]
    )
    (root / "results" / "tables").mkdir(parents=True, exist_ok=True)
    write_table(pd.DataFrame(rows), metrics, root / "results" / "tables" / name, caption=name, reference=reference)


def _catalogue(root, items, papers=PAPERS):
    path = root / "reproduction.yaml"
    path.write_text(yaml.safe_dump({"papers": papers, "items": items}, sort_keys=False))
    return path


def _assess_all(root, items):
    _, entries = load_catalogue(_catalogue(root, items), CONFIG, root)
    return [assess(entry, root) for entry in entries]


def _item(**extra):
    return {"paper": "pa", "item": "Table 1", "shows": "errors", **extra}


# --- statuses and gaps -------------------------------------------------------------------------------


def test_within_tolerance_is_reproduced_and_the_gap_is_ours_minus_the_papers(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.10, 0.12]}, ("d1", "m2"): {"test_error": [0.2, 0.2]}},
        {("d1", "m1", "test_error"): 0.10, ("d1", "m2", "test_error"): 0.21},
    )
    [result] = _assess_all(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02})])
    assert result.status == "reproduced (2 of 2 values within tolerance)"
    # gaps: m1 0.11 - 0.10 = +0.01, m2 0.2 - 0.21 = -0.01; both are half the tolerance, the first is kept
    assert result.gap.startswith("test_error +0.01 (tolerance 0.02): ours 0.11 vs paper 0.1, d1 / m1")


def test_a_gap_outside_tolerance_deviates_and_the_largest_is_named_with_its_row(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {
            ("d1", "m1"): {"test_error": [0.10], "n_support": [100.0]},
            ("d2", "m1"): {"test_error": [0.30], "n_support": [150.0]},
        },
        {
            ("d1", "m1", "test_error"): 0.11,
            ("d2", "m1", "test_error"): 0.25,
            ("d1", "m1", "n_support"): 100.0,
            ("d2", "m1", "n_support"): 100.0,
        },
    )
    [result] = _assess_all(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02, "n_support": "25%"})])
    assert result.status == "deviates (2 of 4 values within tolerance)"
    # d2: test_error +0.05 is 2.5 tolerances, n_support +50% is 2 tolerances: the error is the largest
    assert result.gap == "test_error +0.05 (tolerance 0.02): ours 0.3 vs paper 0.25, d2 / m1"
    assert "n_support +50.0% (tolerance 25%): ours 150 vs paper 100, d2 / m1" in result.by_metric


def test_not_reproduced_means_every_listed_reading_run_and_none_gives_the_item(tmp_path):
    """Issue 43's definition, not a share of values within tolerance: an item is "not reproduced" when every
    reading the catalogue lists for it was run and a compared value stays unexplained; its unexplained values
    are then counted as "not reproduced". Otherwise a value outside tolerance leaves the item "deviates"."""
    # d1 within tolerance; d2 and d3 outside; with the paper's 5 runs d2 (0.15 vs 0.10 +- 0.05) is within noise
    ours = {("d1", "m1"): [0.10] * 5, ("d2", "m1"): [0.11, 0.19, 0.15, 0.13, 0.17], ("d3", "m1"): [0.5] * 5}
    rows = [
        {"dataset": d, "method": m, "status": "optimal", "test_error": v} for (d, m), vs in ours.items() for v in vs
    ]
    reference = pd.DataFrame(
        [
            {
                "paper": "p",
                "table": "T",
                "dataset": d,
                "method": "m1",
                "metric": "test_error",
                "mean": 0.10,
                "std": 0.05,
                "unit": "",
                "note": "",
            }
            for d in ("d1", "d2", "d3")
        ]
    )
    (tmp_path / "results" / "tables").mkdir(parents=True)
    write_table(
        pd.DataFrame(rows), ["test_error"], tmp_path / "results" / "tables" / "tab-a", caption="A", reference=reference
    )
    [alone] = _assess_all(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02})])
    assert alone.status == "deviates (1 of 3 values within tolerance)" and not alone.not_reproduced
    assert [a.kind for a in alone.attributions] == ["unexplained", "unexplained"]
    readings = [{"reading": "the primary", "tables": ["tab-a"]}, {"reading": "another", "tables": ["tab-c"]}]
    config = {**CONFIG, "tables": {**CONFIG["tables"], "tab-c": {"experiment": "exp-a", "metrics": ["test_error"]}}}
    _, [entry] = load_catalogue(
        _catalogue(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02}, readings=readings)]),
        config,
        tmp_path,
    )
    assert assess(entry, tmp_path).status.startswith("deviates")  # tab-c not run: not every reading was
    (tmp_path / "results" / "tables" / "tab-c.csv").write_text("dataset,method,metric,ours_mean\n")
    ran = assess(entry, tmp_path)
    assert ran.status == "not reproduced (1 of 3 values within tolerance)" and ran.not_reproduced
    assert [a.kind for a in ran.attributions] == ["not reproduced", "not reproduced"]
    noisy_item = _item(tables=["tab-a"], compare={"test_error": 0.02}, paper_runs=5, readings=readings)
    _, [noisy] = load_catalogue(_catalogue(tmp_path, [noisy_item]), config, tmp_path)
    found = assess(noisy, tmp_path)  # d3 stays unexplained: still not reproduced, d2 within noise
    assert found.status == "not reproduced (1 of 3 values within tolerance, 1 within noise)"
    assert sorted(a.kind for a in found.attributions) == ["not reproduced", "within noise"]


def test_fit_seconds_never_decide_when_not_compared(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.1], "fit_seconds": [500.0]}},
        {("d1", "m1", "test_error"): 0.1, ("d1", "m1", "fit_seconds"): 1.0},
    )
    [result] = _assess_all(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02})])
    assert result.status.startswith("reproduced (1 of 1")


def test_a_published_value_without_ours_is_incomplete(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.1]}},
        {("d1", "m1", "test_error"): 0.1, ("hiv", "m1", "test_error"): 0.3},
    )
    [result] = _assess_all(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02})])
    assert result.status == "incomplete (1 of 2 values within tolerance)"
    assert "no value of ours for 1: hiv / m1 / test_error" in result.gap


def test_rows_select_datasets_and_methods_by_glob(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {
            ("d1", "l2-a"): {"test_error": [0.1]},
            ("d1", "l1-a"): {"test_error": [0.5]},
            ("d2", "l2-a"): {"test_error": [0.9]},
        },
        {("d1", "l2-a", "test_error"): 0.1, ("d1", "l1-a", "test_error"): 0.1, ("d2", "l2-a", "test_error"): 0.1},
    )
    items = [
        _item(
            item="top", tables=["tab-a"], rows={"methods": ["l2-*"], "datasets": ["d1"]}, compare={"test_error": 0.02}
        ),
        _item(item="bottom", tables=["tab-a"], rows={"methods": ["l1-*"]}, compare={"test_error": 0.02}),
    ]
    top, bottom = _assess_all(tmp_path, items)
    assert top.status == "reproduced (1 of 1 values within tolerance)"
    assert bottom.status == "deviates (0 of 1 values within tolerance)" and "d1 / l1-a" in bottom.gap


def test_failed_runs_are_counted_in_the_status(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.1, 0.1]}},
        {("d1", "m1", "test_error"): 0.1},
        failed=[("d1", "m1")],
    )
    [result] = _assess_all(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02})])
    assert result.status == "reproduced (1 of 1 values within tolerance; 1 failed runs)"


def test_tolerances_absolute_relative_and_a_zero_published_value():
    assert Tolerance.parse(0.02).gap(0.13, 0.10) == pytest.approx(0.03)
    assert Tolerance.parse("25%").gap(75.0, 100.0) == pytest.approx(-0.25)
    assert Tolerance.parse("25%").gap(0.0, 0.0) == 0.0
    assert Tolerance.parse("25%").gap(3.0, 0.0) == float("inf")
    assert str(Tolerance.parse("25%")) == "25%" and str(Tolerance.parse(0.02)) == "0.02"


def test_a_gap_exactly_at_the_tolerance_is_within(tmp_path):
    _table(tmp_path, "tab-b", {("d1", "m1"): {"test_mse": [12.5]}}, {("d1", "m1", "test_mse"): 10.0})
    [result] = _assess_all(tmp_path, [_item(paper="pb", tables=["tab-b"], compare={"test_mse": "25%"})])
    assert result.status.startswith("reproduced")


def test_missing_outputs_are_not_run_yet_and_name_the_files(tmp_path):
    items = [_item(tables=["tab-a"], compare={"test_error": 0.02}), _item(item="Figure 1", figures=["fig-a"])]
    table, figure = _assess_all(tmp_path, items)
    assert table.status == "not run yet" and "results/tables/tab-a.csv" in table.gap
    assert figure.status == "not run yet" and "results/figures/fig-a.png" in figure.gap


def test_an_existing_figure_is_drawn_and_compared_visually(tmp_path):
    (tmp_path / "results" / "figures").mkdir(parents=True)
    (tmp_path / "results" / "figures" / "fig-a.png").write_bytes(b"png")
    [result] = _assess_all(tmp_path, [_item(item="Figure 1", figures=["fig-a"])])
    assert (result.status, result.gap) == ("drawn", "figure: compare visually")


def test_reasons_give_their_status_and_no_command(tmp_path):
    items = [_item(item=f"Table {i}", reason=reason) for i, reason in enumerate(REASONS)]
    statuses = [a.status for a in _assess_all(tmp_path, items)]
    assert statuses == [
        "not reproducible (data not public)",
        "not reproducible (features not available)",
        "not configured yet",
    ]


def test_script_entries_check_their_outputs_and_quote_their_command(tmp_path):
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "speed.py").write_text("")
    script = {
        "command": "python benchmarks/speed.py --json results/bench/speed.json",
        "outputs": ["results/bench/speed.json"],
    }
    _, [entry] = load_catalogue(_catalogue(tmp_path, [_item(item="Figure 4", script=script)]), CONFIG, tmp_path)
    assert assess(entry, tmp_path).status == "not run yet"
    assert entry.rebuild == script["command"]
    (tmp_path / "results" / "bench").mkdir(parents=True)
    (tmp_path / "results" / "bench" / "speed.json").write_text("{}")
    assert assess(entry, tmp_path).status == "drawn"


def test_markdown_lists_every_entry_by_paper_with_its_rebuild_command(tmp_path):
    _table(tmp_path, "tab-a", {("d1", "m1"): {"test_error": [0.5]}}, {("d1", "m1", "test_error"): 0.1})
    items = [
        _item(tables=["tab-a"], compare={"test_error": 0.02}, note="one seed"),
        {"paper": "pb", "item": "Table 9", "shows": "a | b", "reason": "data not public"},
    ]
    text = build_reproduction(CONFIG, _catalogue(tmp_path, items), root=tmp_path, command="mkbench report X")
    assert "Generated by `mkbench report X`" in text
    assert "## pa: A. Author, Paper A" in text and "## pb: B. Author, Paper B" in text
    assert "`snakemake --cores 8 results/tables/tab-a.md`" in text
    assert "### pa: Table 1\n\n- Largest gap per metric:" in text and "- Note: one seed" in text
    assert "a \\| b" in text  # a pipe in a cell is escaped
    assert "Summary: 1 deviates, 1 not reproducible." in text
    # configured but in no entry: listed apart
    assert "## Also built (not in the papers)" in text and "table `tab-b`" in text and "figure `fig-a`" in text


# --- bad catalogues --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item, message",
    [
        (
            _item(tables=["tab-z"], compare={"test_error": 0.02}),
            "unknown table 'tab-z'; tables of the config: tab-a, tab-b",
        ),
        (_item(figures=["fig-z"]), "unknown figure 'fig-z'; figures of the config: fig-a"),
        (_item(paper="pz", reason="data not public"), "unknown paper 'pz'; papers: pa, pb"),
        (_item(), "give either targets (tables, figures or script) or a reason"),
        (_item(figures=["fig-a"], reason="data not public"), "not both"),
        (_item(tables=["tab-a"]), "tables and compare go together"),
        (_item(figures=["fig-a"], compare={"test_error": 0.02}), "tables and compare go together"),
        (_item(figures=["fig-a"], rows={"datasets": ["d1"]}), "rows selects rows of tables"),
        (_item(tables=["tab-a"], compare={"test_mse": 0.02}), "compare metric 'test_mse' is in none of its tables"),
        (
            _item(tables=["tab-b"], compare={"test_mse": 0.02}),
            "table 'tab-b' is drawn from an experiment of paper 'pb'",
        ),
        (
            _item(script={"command": "python benchmarks/nope.py", "outputs": ["x.json"]}),
            "benchmark script 'benchmarks/nope.py' does not exist",
        ),
        # structural problems, found by the schema: the entry and key are named
        ({"paper": "pa", "item": "Table 1", "reason": "data not public"}, "at items/0: 'shows' is a required property"),
        (_item(reason="lost"), "at items/0/reason: 'lost' is not one of"),
        (_item(figure=["fig-a"]), "at items/0: Additional properties are not allowed ('figure' was unexpected)"),
        (_item(tables=["tab-a"], compare={"test_error": "25"}), "at items/0/compare/test_error"),
        (_item(tables=["tab-a"], compare={"test_error": -0.1}), "at items/0/compare/test_error"),
    ],
)
def test_bad_entries_are_named_with_the_problem(tmp_path, item, message):
    with pytest.raises(ConfigError) as info:
        load_catalogue(_catalogue(tmp_path, [item]), CONFIG, tmp_path)
    assert message in str(info.value)
    assert "invalid reproduction catalogue" in str(info.value)


def test_every_problem_is_reported_at_once_and_duplicates_are_named(tmp_path):
    items = [
        _item(tables=["tab-z"], compare={"test_error": 0.02}),
        _item(item="Figure 1", figures=["fig-z"]),
        _item(item="Table 2", reason="data not public"),
        _item(item="Table 2", reason="data not public"),
    ]
    with pytest.raises(ConfigError) as info:
        load_catalogue(_catalogue(tmp_path, items), CONFIG, tmp_path)
    text = str(info.value)
    assert "items/0 (pa Table 1)" in text and "items/1 (pa Figure 1)" in text
    assert "pa 'Table 2' is listed 2 times" in text


def test_missing_and_unparsable_catalogues(tmp_path):
    with pytest.raises(ConfigError, match="catalogue '.*nope.yaml' does not exist"):
        load_catalogue(tmp_path / "nope.yaml", CONFIG)
    bad = tmp_path / "bad.yaml"
    bad.write_text("items: [\n")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        load_catalogue(bad, CONFIG)


def test_a_compared_metric_without_published_values_is_an_error(tmp_path):
    _table(
        tmp_path, "tab-a", {("d1", "m1"): {"test_error": [0.1], "n_support": [10.0]}}, {("d1", "m1", "test_error"): 0.1}
    )
    _, [entry] = load_catalogue(
        _catalogue(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02, "n_support": "25%"})]),
        CONFIG,
        tmp_path,
    )
    with pytest.raises(ConfigError, match="no published value of 'n_support' in the selected rows of tab-a"):
        assess(entry, tmp_path)


# --- atomic output -----------------------------------------------------------------------------------


def _written(tmp_path):
    _table(tmp_path, "tab-a", {("d1", "m1"): {"test_error": [0.1]}}, {("d1", "m1", "test_error"): 0.1})
    out = tmp_path / "REPRODUCTION.md"
    out.write_text("previous\n")
    return out


def test_a_bad_catalogue_or_table_leaves_the_previous_file(tmp_path):
    out = _written(tmp_path)
    bad = _catalogue(tmp_path, [_item(tables=["tab-a"], compare={"n_support": 0.02})])
    with pytest.raises(ConfigError):
        write_reproduction(CONFIG, bad, out, root=tmp_path)
    assert out.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["REPRODUCTION.md", "reproduction.yaml", "results"]


def test_a_write_interrupted_before_the_rename_leaves_the_previous_file(tmp_path, monkeypatch):
    out = _written(tmp_path)
    catalogue = _catalogue(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02})])

    def fail(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError, match="disk full"):
        write_reproduction(CONFIG, catalogue, out, root=tmp_path)
    assert out.read_text() == "previous\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.undo()
    text = write_reproduction(CONFIG, catalogue, out, root=tmp_path)
    assert out.read_text() == text and "reproduced (1 of 1" in text


# --- command line ------------------------------------------------------------------------------------


def test_cli_writes_the_reproduction_without_rebuilding_tables(tmp_path, monkeypatch, capsys):
    config = load_config(ROOT / "config" / "smoke.yaml")
    name = next(iter(config["tables"]))
    experiment = config["tables"][name]["experiment"]
    monkeypatch.chdir(tmp_path)
    _table(tmp_path, name, {("d1", "m1"): {"test_mse": [3.0]}}, {("d1", "m1", "test_mse"): 3.0})
    catalogue = _catalogue(
        tmp_path, [{"paper": "pa", "item": "Table 1", "shows": "x", "tables": [name], "compare": {"test_mse": "10%"}}]
    )
    assert config["experiments"][experiment].get("paper") is None  # smoke experiments belong to no paper
    args = [
        "report",
        "--config",
        str(ROOT / "config" / "smoke.yaml"),
        "--catalogue",
        str(catalogue),
        "--reproduction",
        "REPRODUCTION.md",
    ]
    assert main(args) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip() == "REPRODUCTION.md"
    text = (tmp_path / "REPRODUCTION.md").read_text()
    assert "reproduced (1 of 1 values within tolerance)" in text
    assert (
        f"mkbench report --config {ROOT / 'config' / 'smoke.yaml'} --reproduction REPRODUCTION.md --catalogue" in text
    )
    assert not (tmp_path / "results" / "runs").exists()  # no records needed: no table was rebuilt


def test_cli_names_a_bad_catalogue_without_a_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    catalogue = _catalogue(tmp_path, [_item(tables=["cgboost-table1"], compare={"test_error": 0.02})])
    args = [
        "report",
        "--config",
        str(ROOT / "config" / "smoke.yaml"),
        "--catalogue",
        str(catalogue),
        "--reproduction",
        "REPRODUCTION.md",
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "unknown table 'cgboost-table1'" in err and "Traceback" not in err
    assert not (tmp_path / "REPRODUCTION.md").exists()


# --- the committed catalogue and the report templates --------------------------------------------------


def test_the_committed_catalogue_fits_the_default_config():
    config = load_config(ROOT / "config" / "config.yaml")
    papers, entries = load_catalogue(ROOT / "config" / "reproduction.yaml", config, ROOT)
    assert set(papers) == {"cgboost", "mark", "ssmk", "mkl", "cgens"}
    assert {e.paper for e in entries} == set(papers)
    for path in existing_targets(ROOT / "config" / "reproduction.yaml", config, ROOT):
        assert (ROOT / path).exists()


def _render(template, **snakemake):
    """Render a report template as Snakemake does: Jinja2 (trim and lstrip blocks), then docutils."""
    docutils_core = pytest.importorskip("docutils.core")
    jinja2 = pytest.importorskip("jinja2")
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
    rst = env.from_string((ROOT / "workflow" / "report" / template).read_text()).render(
        snakemake=SimpleNamespace(**snakemake), categories={}, files=[]
    )
    body = docutils_core.publish_parts(rst, writer="html", settings_overrides={"report_level": 2})["body"]
    assert "system-message" not in body, body  # no reStructuredText error or warning
    return body


@pytest.mark.parametrize("configfile", ["config.yaml", "smoke.yaml"])
def test_every_caption_names_the_config_caption_and_protocol(configfile, tmp_path):
    config = load_config(ROOT / "config" / configfile)
    for rule, kind in (("table", "tables"), ("figure", "figures")):
        for name, spec in config[kind].items():
            html_text = _render("caption.rst", config=config, rule=rule, wildcards=SimpleNamespace(**{rule: name}))
            experiments = spec["experiment"] if isinstance(spec["experiment"], list) else [spec["experiment"]]
            protocol = config["experiments"][experiments[0]]["protocol"]
            assert spec["caption"].split(":")[0] in html.unescape(html_text)
            assert protocol in html_text
            if rule == "table":  # the caption line once: the table is the report item, its HTML page
                assert html_text.count(spec["caption"].split(":")[0]) == 1


def test_workflow_description_renders():
    config = load_config(ROOT / "config" / "config.yaml")
    text = " ".join(_render("workflow.rst", config=config).split())
    counts = [len(config[kind]) for kind in ("experiments", "tables", "figures")]
    assert "{} experiments, {} tables and {} figures".format(*counts) in text and "REPRODUCTION.md" in text
