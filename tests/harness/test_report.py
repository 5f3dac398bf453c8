import numpy as np
import pandas as pd
import pytest

from mkbench._io import write_json
from mkbench.exceptions import ConfigError, DataError
from mkbench.harness.figures import draw_bars, draw_figure, draw_lines
from mkbench.harness.report import (
    MARK_L_STORAGE,
    collect_histories,
    collect_records,
    load_reference,
    paper_vs_ours,
    summarise,
    write_table,
)
from mkbench.harness.selection import select_by
from mkbench.metrics import svm_storage

from ..conftest import ROOT


def _records(tmp_path, values, status=None):
    paths = []
    for i, v in enumerate(values):
        rec = {
            "dataset": "boston",
            "method": "svr",
            "split": i,
            "test_mse": v,
            "storage": 1000,
            "status": (status or {}).get(i, "optimal"),
            "history": [1, 2],
            "versions": {},
        }
        path = tmp_path / f"r{i}.json"
        write_json(path, rec)
        paths.append(path)
    return paths


def test_summary_matches_numpy_and_excludes_failed_runs(tmp_path):
    values = [10.0, 12.0, 17.0, 99.0]
    frame = collect_records(_records(tmp_path, values, status={3: "failed: solver status 'Time limit'"}))
    summary = summarise(frame, ["test_mse", "storage_ratio"]).set_index("metric")
    assert summary.loc["test_mse", "mean"] == pytest.approx(np.mean(values[:3]))
    assert summary.loc["test_mse", "std"] == pytest.approx(np.std(values[:3], ddof=1))
    assert summary.loc["test_mse", "n"] == 3
    assert summary.loc["test_mse", "n_failed"] == 1
    assert summary.loc["storage_ratio", "mean"] == pytest.approx(1000 / MARK_L_STORAGE)


def test_unknown_metric_is_named(tmp_path):
    frame = collect_records(_records(tmp_path, [1.0]))
    with pytest.raises(ConfigError, match="metric\\(s\\) test_rmse are in no record"):
        summarise(frame, ["test_rmse"])


def test_truncated_record_is_named(tmp_path):
    paths = _records(tmp_path, [1.0])
    paths[0].write_text(paths[0].read_text()[:20])
    with pytest.raises(DataError, match=f"record '{paths[0]}' is unreadable"):
        collect_records(paths)


def test_paper_values_stand_beside_ours_never_in_place(tmp_path):
    frame = collect_records(_records(tmp_path, [10.0, 14.0]))
    reference = load_reference(ROOT / "config" / "reference" / "mark.csv", ["Table 2", "Table 1"])
    table = paper_vs_ours(summarise(frame, ["test_mse"]), reference)
    svr = table[(table.dataset == "boston") & (table.method == "svr") & (table.metric == "test_mse")]
    assert svr["ours_mean"].item() == pytest.approx(12.0)
    assert svr["paper_mean"].item() == pytest.approx(11.5)
    # rows only the paper has (HIV: data not public) are kept, with no number of ours
    hiv = table[table.dataset == "hiv-qsar"]
    assert len(hiv) > 0 and hiv["ours_mean"].isna().all()
    assert hiv["note"].str.contains("data not public").all()


def test_a_variant_stands_beside_its_methods_paper_values_and_paper_only_rows_stay_in_the_primary(tmp_path):
    frame = collect_records(_records(tmp_path, [10.0, 14.0])).assign(method="svr~fit-80")
    reference = load_reference(ROOT / "config" / "reference" / "mark.csv", ["Table 2", "Table 1"])
    table = paper_vs_ours(summarise(frame, ["test_mse"]), reference)
    assert table[["dataset", "method"]].drop_duplicates().values.tolist() == [["boston", "svr~fit-80"]]
    assert table["ours_mean"].item() == pytest.approx(12.0) and table["paper_mean"].item() == pytest.approx(11.5)
    write_table(frame, ["test_mse"], tmp_path / "t", caption="C", reference=reference)
    assert "| svr~fit-80 | 12 ± 2.83 (11.5 ± 6.95) |" in (tmp_path / "t.md").read_text()


def test_each_grid_setting_of_an_unselected_table_stands_beside_its_methods_paper_value(tmp_path):
    frame = collect_records(_records(tmp_path, [10.0, 14.0])).assign(param=["C=1.0", "C=10.0"])
    reference = load_reference(ROOT / "config" / "reference" / "mark.csv", "Table 2")
    table = paper_vs_ours(summarise(frame, ["test_mse"]), reference)
    assert table.set_index("method")["paper_mean"].to_dict() == {"svr [C=1.0]": 11.5, "svr [C=10.0]": 11.5}


def test_reference_transcription_is_consistent_with_the_storage_formula():
    # MARK §5.2: SVM storage on Abalone is (1375 x 9 + 2) / (3 x 100 + 1) = 41.1
    ref = load_reference(ROOT / "config" / "reference" / "mark.csv", "Table 3").set_index(["method", "metric"])
    assert ref.loc[("svr", "storage_ratio"), "mean"] == round(svm_storage(1375, 9) / MARK_L_STORAGE, 1)


def test_reference_errors(tmp_path):
    with pytest.raises(ConfigError, match="does not exist; published numbers go in config/reference"):
        load_reference(tmp_path / "nope.csv", "Table 1")
    with pytest.raises(ConfigError, match="has no rows for table\\(s\\) \\['Table 9'\\]; tables in it: Table 1"):
        load_reference(ROOT / "config" / "reference" / "mark.csv", "Table 9")


def test_write_table_outputs_markdown_csv_and_html_only(tmp_path):
    frame = collect_records(_records(tmp_path, [10.0, 14.0]))
    out = tmp_path / "tables"
    out.mkdir()
    write_table(
        frame,
        ["test_mse"],
        out / "t",
        caption="Caption here",
        reference=load_reference(ROOT / "config" / "reference" / "mark.csv", "Table 2"),
    )
    assert sorted(p.name for p in out.iterdir()) == ["t.csv", "t.html", "t.md"]
    md = (out / "t.md").read_text()
    assert md.startswith("Caption here")
    assert "| test MSE " in md and "| 12 ± 2.83 (11.5 ± 6.95) " in md  # ours ± sd (paper ± sd)
    assert pd.read_csv(out / "t.csv")["ours_mean"].notna().any()


def test_grid_settings_are_not_averaged_together():
    records = pd.DataFrame(
        {
            "dataset": ["d"] * 4,
            "method": ["cg"] * 4,
            "param": ["C=0.1", "C=0.1", "C=1.0", "C=1.0"],
            "status": ["optimal"] * 4,
            "test_error": [0.1, 0.3, 0.5, 0.7],
        }
    )
    summary = summarise(records, ["test_error"]).set_index("method")
    assert summary.loc["cg [C=0.1]", "mean"] == pytest.approx(0.2)
    assert summary.loc["cg [C=1.0]", "mean"] == pytest.approx(0.6)


def test_select_by_validation_keeps_the_best_setting_of_each_split():
    records = pd.DataFrame(
        {
            "dataset": ["d"] * 6,
            "method": ["cg"] * 6,
            "seed": [0] * 6,
            "split": [0, 0, 0, 1, 1, 1],
            "param": ["C=0.1", "C=1.0", "C=10.0"] * 2,
            "status": ["optimal", "optimal", "failed: x", "optimal", "optimal", "optimal"],
            "validation_error": [0.3, 0.2, 0.0, 0.1, 0.4, 0.2],
            "test_error": [0.35, 0.25, np.nan, 0.15, 0.45, 0.3],
        }
    )
    chosen = select_by(records, "validation_error")
    assert chosen["s_param"].tolist() == ["C=1.0", "C=0.1"]  # the failed setting is never chosen
    summary = summarise(chosen, ["test_error"]).set_index("method")
    assert summary.loc["cg", "mean"] == pytest.approx(0.2) and summary.loc["cg", "n"] == 2
    with pytest.raises(ConfigError, match="cannot select by 'val_err'"):
        select_by(records, "val_err")


def test_histories_in_long_format_and_curves(tmp_path):
    paths = []
    for split, n in enumerate((3, 2)):
        rec = {
            "experiment": "e",
            "dataset": "d",
            "method": "cg",
            "seed": 0,
            "split": split,
            "param": "default",
            "history": [{"n_columns": i, "objective": 10.0 - i} for i in range(n)],
        }
        paths.append(tmp_path / f"r{split}.json")
        write_json(paths[-1], rec)
    write_json(tmp_path / "none.json", {"experiment": "e", "dataset": "d", "method": "svc", "split": 0})
    frame = collect_histories([*paths, tmp_path / "none.json"])
    assert len(frame) == 5 and frame["split"].tolist() == [0, 0, 0, 1, 1]
    assert frame["objective"].tolist() == [10.0, 9.0, 8.0, 10.0, 9.0]
    draw_lines(frame, "n_columns", "objective", tmp_path / "fig", title="t", logy=True)
    assert (tmp_path / "fig.png").stat().st_size > 0 and (tmp_path / "fig.pdf").stat().st_size > 0
    with pytest.raises(ConfigError, match="'duality_gap' is not a field to draw"):
        draw_lines(frame, "n_columns", "duality_gap", tmp_path / "fig2", title="t")


def test_line_figures_put_the_legend_under_the_panels(tmp_path, monkeypatch):
    """The legend takes no width: it sits under the panels (issue 22: legend inside or below)."""
    import mkbench.harness.figures as figures

    frame = pd.DataFrame(
        {
            "dataset": "d",
            "method": ["a", "a", "b", "b", "c", "c"],
            "status": "optimal",
            "n_train": [10, 20] * 3,
            "test_error": [0.3, 0.2, 0.35, 0.25, 0.4, 0.3],
        }
    )
    drawn = {}
    monkeypatch.setattr(figures, "_save", lambda figure, stem: drawn.setdefault("figure", figure))
    draw_lines(frame, "n_train", "test_error", tmp_path / "fig", title="t")
    figure = drawn["figure"]
    figure.canvas.draw()
    legend = figure.legends[0]
    box = legend.get_window_extent()
    panel = figure.axes[0].get_window_extent()
    assert box.y1 <= panel.y0  # entirely below the panel
    assert [t.get_text() for t in legend.get_texts()] == ["a", "b", "c"] and legend.get_title().get_text() == ""


def test_a_method_along_its_grid_is_one_line_with_the_papers_value_dashed_in_its_colour(tmp_path, monkeypatch):
    import matplotlib.colors as mcolors

    import mkbench.harness.figures as figures

    frame = pd.DataFrame(
        {
            "dataset": "d",
            "method": ["a"] * 3 + ["b"] * 3,
            "status": "optimal",
            "param": ["C=0.01", "C=1.0", "C=100.0"] * 2,
            "p_C": [0.01, 1.0, 100.0] * 2,
            "test_error": [0.3, 0.2, 0.25, 0.4, 0.3, 0.35],
        }
    )
    reference = pd.DataFrame(
        {"dataset": "d", "method": ["a", "b", "z"], "metric": "test_error", "mean": [0.15, 0.5, 0.9]}
    )
    drawn = {}
    monkeypatch.setattr(figures, "_save", lambda figure, stem: drawn.setdefault("figure", figure))
    draw_lines(frame, "p_C", "test_error", tmp_path / "fig", title="t", logx=True, reference=reference)
    ax = drawn["figure"].axes[0]
    assert ax.get_xscale() == "log"
    # one line per method (the grid settings are its x values, not methods of their own)
    assert [t.get_text() for t in drawn["figure"].legends[0].get_texts()] == ["a", "b"]
    solid = {mcolors.to_hex(line.get_color()): line for line in ax.get_lines() if line.get_linestyle() == "-"}
    dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    # the paper's values in percent, one per method drawn (z is not drawn), each in its method's colour
    assert sorted(line.get_ydata()[0] for line in dashed) == [15.0, 50.0]
    assert {mcolors.to_hex(line.get_color()) for line in dashed} == set(solid)


def test_the_same_records_draw_the_same_bytes_and_leave_numpy_global_state_alone(tmp_path):
    frame = pd.DataFrame(
        {"dataset": "d", "method": ["a"] * 6 + ["b"] * 6, "status": "optimal", "test_error": np.linspace(0.1, 0.3, 12)}
    )
    for seed, stem in ((1, "one"), (2, "two")):  # seaborn jitters the strip points with NumPy's global generator
        np.random.seed(seed)
        expected_next = np.random.random()
        np.random.seed(seed)
        draw_figure(frame, "test_error", tmp_path / stem, title="t")
        assert np.random.random() == expected_next
    for ext in ("png", "pdf"):
        assert (tmp_path / f"one.{ext}").read_bytes() == (tmp_path / f"two.{ext}").read_bytes()


def test_largest_restricted_problem_is_read_from_the_history(tmp_path):
    rec = {
        "dataset": "d",
        "method": "ssmk",
        "status": "optimal",
        "history": [{"problem_rows": 10, "problem_columns": c} for c in (1, 5, 3)],
    }
    write_json(tmp_path / "r.json", rec)
    frame = collect_records([tmp_path / "r.json"])
    assert frame.loc[0, "max_problem_columns"] == 5 and frame.loc[0, "max_problem_rows"] == 10


def test_bars_of_numbered_fields(tmp_path):
    """CGEns Fig. 5: feature_count_<j> by feature j, one bar per method (mean over splits)."""
    rows = [
        {
            "dataset": "spambase",
            "method": m,
            "split": k,
            "status": "optimal",
            "param": "default",
            "feature_count_1": k + (m == "cgens"),
            "feature_count_2": 3,
            "feature_count_10": 0,
            "test_error": 0.1,
        }
        for m in ("cgens", "adaboost")
        for k in range(3)
    ]
    frame = pd.DataFrame(rows + [{**rows[0], "status": "failed: x", "feature_count_1": 99}])
    drawn = draw_bars(frame, "feature_count", tmp_path / "bars", title="t")
    means = drawn.groupby(["method", "k"])["feature_count"].mean()
    assert means[("cgens", 1)] == 2.0 and means[("adaboost", 1)] == 1.0  # the failed job's 99 is left out
    assert sorted(drawn["k"].unique()) == [1, 2, 10] and means[("adaboost", 2)] == 3
    assert (tmp_path / "bars.png").stat().st_size > 0 and (tmp_path / "bars.pdf").stat().st_size > 0
    with pytest.raises(ConfigError, match="no record has fields selected_1, selected_2"):
        draw_bars(frame, "selected", tmp_path / "none", title="t")


def test_the_workflow_and_the_cli_write_a_table_with_its_configs_settings(tmp_path):
    """write_config_table (the table rule and `mkbench report` both call it) applies the table's accept_status
    and marks the methods the config adds."""
    from mkbench.harness.report import ADDED_MARK, write_config_table

    records = pd.DataFrame(
        {
            "dataset": "d",
            "method": ["ens"] * 2 + ["mine"] * 2,
            "split": [0, 1] * 2,
            "param": "default",
            "status": ["max_iter", "max_iter", "optimal", "optimal"],
            "test_error": [0.1, 0.2, 0.15, 0.25],
        }
    )
    methods = {"ens": {"estimator": "cgens"}, "mine": {"estimator": "sklearn.svm:SVC"}}
    config = {
        "experiments": {"exp": {"paper": "p", "methods": methods}},
        "reference_dir": str(tmp_path),
        "tables": {
            "tab": {
                "experiment": "exp",
                "caption": "T",
                "metrics": ["test_error"],
                "layout": "rows",
                "accept_status": ["max_iter"],
            }
        },
    }
    table = write_config_table(config, "tab", records, tmp_path / "tab")
    text = (tmp_path / "tab.md").read_text()
    assert table.set_index("method").loc["ens", "n_not_optimal"] == 0  # max_iter is the protocol's end here
    assert f"mine {ADDED_MARK}" in text, text
    assert "a status the protocol accepts (not counted as not optimal): max_iter in 2 of 4" in text, text


def test_a_table_has_an_html_page_with_its_rows(tmp_path):
    """The Snakemake report shows a table's HTML page inline (its Markdown only as a download)."""
    records = pd.DataFrame(
        {"dataset": "d", "method": ["a", "a", "b", "b"], "status": "optimal", "test_error": [0.1, 0.2, 0.3, 0.4]}
    )
    write_table(records, ["test_error"], tmp_path / "t", caption="Caption <one>\nmore")
    page = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<title>Caption &lt;one&gt;</title>" in page
    assert page.count("<tr>") == 3 and '<td style="text-align:left">b</td>' in page, page  # header and two rows


def test_training_and_test_curves_share_an_axis_with_a_line_style_per_part(tmp_path, monkeypatch):
    """MARK Fig. 1: each method's training and test curves in its colour, solid and dashed, one Q² axis."""
    import mkbench.harness.figures as figures

    frame = pd.DataFrame(
        {
            "dataset": "d",
            "method": ["a"] * 4 + ["b"] * 4,
            "split": [0, 0, 1, 1] * 2,
            "n_columns": [1, 2] * 4,
            "train_q2": [0.5, 0.3, 0.6, 0.2, 0.7, 0.5, 0.6, 0.4],
            "test_q2": [0.6, 0.4, 0.7, 0.5, 0.8, 0.6, 0.7, 0.5],
        }
    )
    drawn = {}
    monkeypatch.setattr(figures, "_save", lambda figure, stem: drawn.setdefault("figure", figure))
    draw_lines(frame, "n_columns", ["train_q2", "test_q2"], tmp_path / "f", title="t")
    figure = drawn["figure"]
    assert [t.get_text() for t in figure.legends[0].get_texts()] == ["a", "b", "train", "test"]  # no subtitles
    ax = figure.axes[0]
    assert ax.get_ylabel() == "Q²" and len(ax.get_lines()) >= 4
    assert {line.get_linestyle() for line in ax.get_lines()[:4]} == {"-", "--"}
    with pytest.raises(ConfigError, match="not one quantity"):
        draw_lines(frame.assign(test_mse=1.0), "n_columns", ["train_q2", "test_mse"], tmp_path / "g", title="t")
    reference = pd.DataFrame({"dataset": "d", "method": ["a"], "metric": "test_q2", "mean": [0.5]})
    with pytest.raises(ConfigError, match="draws one metric"):
        draw_lines(frame, "n_columns", ["train_q2", "test_q2"], tmp_path / "h", title="t", reference=reference)
