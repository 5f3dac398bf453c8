
import numpy as np
import pandas as pd
import pytest

from mkbench._io import write_json
from mkbench.exceptions import ConfigError, DataError
from mkbench.metrics import svm_storage
from mkbench.report import (
    MARK_L_STORAGE,
    collect_records,
    load_reference,
    paper_vs_ours,
    summarise,
    write_table,
)

from .conftest import ROOT


def _records(tmp_path, values, status=None):
    paths = []
    for i, v in enumerate(values):
        rec = {"dataset": "boston", "method": "svr", "split": i, "test_mse": v, "storage": 1000,
               "status": (status or {}).get(i, "optimal"), "history": [1, 2], "versions": {}}
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


def test_reference_transcription_is_consistent_with_the_storage_formula():
    # MARK §5.2: SVM storage on Abalone is (1375 x 9 + 2) / (3 x 100 + 1) = 41.1
    ref = load_reference(ROOT / "config" / "reference" / "mark.csv", "Table 3").set_index(["method", "metric"])
    assert ref.loc[("svr", "storage_ratio"), "mean"] == round(svm_storage(1375, 9) / MARK_L_STORAGE, 1)


def test_reference_errors(tmp_path):
    with pytest.raises(ConfigError, match="does not exist; published numbers go in config/reference"):
        load_reference(tmp_path / "nope.csv", "Table 1")
    with pytest.raises(ConfigError, match="has no rows for table\\(s\\) \\['Table 9'\\]; tables in it: Table 1"):
        load_reference(ROOT / "config" / "reference" / "mark.csv", "Table 9")


def test_write_table_outputs_markdown_and_csv_only(tmp_path):
    frame = collect_records(_records(tmp_path, [10.0, 14.0]))
    out = tmp_path / "tables"
    out.mkdir()
    write_table(frame, ["test_mse"], out / "t", caption="Caption here",
                reference=load_reference(ROOT / "config" / "reference" / "mark.csv", "Table 2"))
    assert sorted(p.name for p in out.iterdir()) == ["t.csv", "t.md"]
    md = (out / "t.md").read_text()
    assert md.startswith("Caption here")
    assert "test_mse (ours)" in md and "test_mse (paper)" in md and "12 ± 2.83" in md and "11.5 ± 6.95" in md
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
