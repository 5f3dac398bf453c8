"""Markdown tables in the paper's order and units, ours beside the paper's, split when wide."""

import numpy as np
import pandas as pd

from mkbench.harness.render import MAX_COLUMNS, to_markdown


def _table(rows):
    """rows: (dataset, method, metric, ours, paper[, n_failed]) -> the frame paper_vs_ours makes."""
    out = []
    for dataset, method, metric, ours, paper, *failed in rows:
        out.append(
            {
                "dataset": dataset,
                "method": method,
                "metric": metric,
                "ours_mean": ours,
                "ours_std": 0.01,
                "n": 5,
                "n_failed": failed[0] if failed else 0,
                "n_not_optimal": 0,
                "paper_mean": paper,
                "paper_std": np.nan,
                "note": "",
            }
        )
    return pd.DataFrame(out)


def _body(text):
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_rows_follow_the_paper_then_ours_only_errors_in_percent_and_one_data_set_is_named_once():
    table = _table(
        [
            ("d", "ours-only", "test_error", 0.2, np.nan),
            ("d", "b", "test_error", 0.1234, 0.15),
            ("d", "a", "test_error", 0.3, 0.25),
        ]
    )
    text = to_markdown(table, "Caption.", ["test_error"], order=[("d", "a"), ("d", "b"), ("d", "a")])
    header, _, *rows = _body(text)
    assert header == ["method", "test error (%)", "runs"]
    assert rows == [["a", "30 ± 1 (25)", "5"], ["b", "12.34 ± 1 (15)", "5"], ["ours-only", "20 ± 1", "5"]]
    assert text.startswith("Caption. Data set: d.")


def test_failed_runs_and_data_sets_get_columns_only_when_they_vary():
    table = _table([("d1", "m", "test_mse", 10.0, 12.0, 1), ("d2", "m", "test_mse", 5.0, np.nan)])
    header, _, first, second = _body(to_markdown(table, "c"))
    assert header == ["dataset", "method", "test MSE", "runs", "failed"]
    assert first == ["d1", "m", "10 ± 0.01 (12)", "5", "1"] and second[-1] == "0"


def test_a_wide_table_is_split_into_parts_that_repeat_the_row_labels():
    metrics = [f"metric_{i}" for i in range(12)]
    table = _table([("d", m, metric, 1.0, 2.0) for m in ("x", "y") for metric in metrics])
    text = to_markdown(table, "c", metrics)
    assert "Part 1 of 2:" in text and "Part 2 of 2:" in text
    headers = [rows[0] for rows in (_body(part) for part in text.split("Part ")[1:])]
    assert all(len(h) <= MAX_COLUMNS and h[0] == "method" for h in headers)
    assert [h for row in headers for h in row[1:] if h.startswith("metric")] == [m.replace("_", " ") for m in metrics]


def test_methods_layout_has_a_column_per_method_and_a_part_per_metric_in_the_paper_order():
    table = _table(
        [
            ("d2", "b", "test_error", 0.1, 0.12, 1),
            ("d1", "a", "test_error", 0.2, 0.25),
            ("d1", "b", "test_error", 0.3, np.nan),
            ("d2", "a", "test_error", 0.4, 0.5),
            ("d1", "a", "n_iter", 10.0, np.nan),
            ("d2", "b", "n_iter", 20.0, np.nan),
        ]
    )
    order = [("d1", "a"), ("d1", "b"), ("d2", "a"), ("d2", "b")]
    text = to_markdown(table, "c", ["test_error", "n_iter"], order=order, layout="methods")
    errors, iterations = text.split("iterations:")
    header, _, *rows = _body(errors)
    assert header == ["dataset", "a", "b"]
    assert rows == [["d1", "20 ± 1 (25)", "30 ± 1"], ["d2", "40 ± 1 (50)", "10 ± 1 (12)"]]
    assert _body(iterations)[2:] == [["d1", "10 ± 0.01", "—"], ["d2", "—", "20 ± 0.01"]]
    assert "Runs per cell: 5." in text and "Failed runs: d2 / b: 1." in text


def test_methods_layout_splits_many_methods_into_parts():
    methods = [f"m{i:02d}" for i in range(12)]
    text = to_markdown(_table([("d", m, "test_error", 0.1, np.nan) for m in methods]), "c", layout="methods")
    assert f"test error (%) (methods 1-{MAX_COLUMNS - 1} of 12):" in text
    headers = [row[0] for row in (_body(part) for part in text.split("test error (%)")[1:])]
    assert all(len(h) <= MAX_COLUMNS for h in headers) and [h for row in headers for h in row[1:]] == methods
