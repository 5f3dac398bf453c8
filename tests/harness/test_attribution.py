"""Values outside tolerance attributed to an ablation, a declared data difference or nothing, from hand-made
tables; the catalogue's errors for the keys that declare them; the count in REPRODUCTION.md."""

import pandas as pd
import pytest

from mkbench.exceptions import ConfigError
from mkbench.harness.attribution import describe
from mkbench.harness.catalogue import load_catalogue
from mkbench.harness.report import write_table
from mkbench.harness.reproduction import assess, build_reproduction

from .test_reproduction import CONFIG, PAPERS, _catalogue, _item, _table

SENSITIVE = {**CONFIG, "tables": {**CONFIG["tables"], "tab-s": {"experiment": "exp-a", "metrics": ["test_error"]}}}


def _variants(root, values):
    """The sensitivity table tab-s: {(dataset, method): test error}, no published values."""
    rows = [{"dataset": d, "method": m, "status": "optimal", "test_error": v} for (d, m), v in values.items()]
    write_table(pd.DataFrame(rows), ["test_error"], root / "results" / "tables" / "tab-s", caption="S")


def _assess(root, compare=None, **extra):
    _, [entry] = load_catalogue(
        _catalogue(root, [_item(tables=["tab-a"], compare=compare or {"test_error": 0.02}, **extra)]), SENSITIVE, root
    )
    return assess(entry, root)


def test_a_variant_within_tolerance_explains_a_value_and_declared_data_the_rest(tmp_path):
    # paper 0.10 everywhere; ours: d1/m1 0.20 (a variant reaches 0.11), d2/m1 0.30 (variants miss),
    # d3/m1 0.25 (its data is declared different), d1/m2 0.10 (within)
    _table(
        tmp_path,
        "tab-a",
        {
            ("d1", "m1"): {"test_error": [0.20]},
            ("d2", "m1"): {"test_error": [0.30]},
            ("d3", "m1"): {"test_error": [0.25]},
            ("d1", "m2"): {"test_error": [0.10]},
        },
        {(d, m, "test_error"): 0.10 for d, m in [("d1", "m1"), ("d2", "m1"), ("d3", "m1"), ("d1", "m2")]},
    )
    _variants(
        tmp_path,
        {
            ("d1", "m1~raw"): 0.11,
            ("d1", "m1~other"): 0.30,
            ("d2", "m1~raw"): 0.15,
            ("d2", "m2~raw"): 0.10,
            ("d2", "m1"): 0.10,
        },
    )  # m2's and the unsuffixed row never count
    result = _assess(
        tmp_path,
        sensitivity=[{"table": "tab-s", "variants": "{method}~"}],
        data_differs=[{"datasets": ["d3"], "metrics": ["test_error"], "reason": "another grouping"}],
    )
    kinds = {(a.gap.dataset, a.gap.method): (a.kind, a.detail) for a in result.attributions}
    assert kinds == {
        ("d1", "m1"): ("explained by an ablation", "within tolerance: m1~raw 0.11"),
        ("d2", "m1"): ("unexplained", ""),
        ("d3", "m1"): ("data differs", "another grouping"),
    }
    assert result.n_compared == 4
    assert describe(list(result.attributions)) == [
        "explained by an ablation: 1 (d1 / m1 / test_error (within tolerance: m1~raw 0.11))",
        "data differs: 1 (another grouping: d3 / m1 / test_error)",
        "unexplained: 1 (d2 / m1 / test_error)",
    ]


def test_variants_on_a_data_set_of_their_own_explain_the_data_set_they_are_mapped_to(tmp_path):
    """An ablation of the data's coding (splice-onehot for splice) runs on another data set: the
    sensitivity's ``datasets`` mapping says whose cells its rows explain; other data sets are unaffected."""
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.20]}, ("d2", "m1"): {"test_error": [0.20]}},
        {("d1", "m1", "test_error"): 0.10, ("d2", "m1", "test_error"): 0.10},
    )
    _variants(tmp_path, {("d1-onehot", "m1~onehot"): 0.11, ("d2", "m1~onehot"): 0.30})
    mapped = [{"table": "tab-s", "variants": "{method}~", "datasets": {"d1": "d1-onehot"}}]
    kinds = {a.gap.dataset: (a.kind, a.detail) for a in _assess(tmp_path, sensitivity=mapped).attributions}
    assert kinds == {"d1": ("explained by an ablation", "within tolerance: m1~onehot 0.11"), "d2": ("unexplained", "")}
    # without the mapping the one-hot rows belong to no compared data set
    plain = [{"table": "tab-s", "variants": "{method}~"}]
    assert {a.kind for a in _assess(tmp_path, sensitivity=plain).attributions} == {"unexplained"}


def _noisy_table(root):
    """d1/m1: ours 0.20 ± 0.032 (5 runs) vs paper 0.15 ± 0.05; d2/m1: ours 0.30 ± 0.007 vs paper 0.10 ± 0.05."""
    ours = {("d1", "m1"): [0.20, 0.24, 0.16, 0.22, 0.18], ("d2", "m1"): [0.30, 0.31, 0.29, 0.30, 0.30]}
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
                "mean": mean,
                "std": 0.05,
                "unit": "",
                "note": "",
            }
            for d, mean in (("d1", 0.15), ("d2", 0.10))
        ]
    )
    (root / "results" / "tables").mkdir(parents=True, exist_ok=True)
    write_table(
        pd.DataFrame(rows), ["test_error"], root / "results" / "tables" / "tab-a", caption="A", reference=reference
    )


def test_a_difference_under_two_standard_errors_is_within_noise_when_the_paper_gives_its_runs(tmp_path):
    _noisy_table(tmp_path)
    # d1: |0.05| < 2 * sqrt(0.0316^2 / 5 + 0.05^2 / 5) = 0.053; d2: |0.20| > 2 * 0.0225
    kinds = {a.gap.dataset: (a.kind, a.detail) for a in _assess(tmp_path, paper_runs=5).attributions}
    assert kinds == {"d1": ("within noise", "+0.05, 2 s.e. 0.0529"), "d2": ("unexplained", "")}
    # without the paper's run count the standard error is unknown: both are unexplained
    assert {a.kind for a in _assess(tmp_path).attributions} == {"unexplained"}
    # runs by data set: the paper's d1 value from 1000 runs is exact enough (2 s.e. 0.028) to tell 0.05 apart
    kinds = {a.gap.dataset: a.kind for a in _assess(tmp_path, paper_runs={"d1": 1000, "*": 5}).attributions}
    assert kinds == {"d1": "unexplained", "d2": "unexplained"}
    kinds = {a.gap.dataset: a.kind for a in _assess(tmp_path, paper_runs={"d2": 1000, "*": 5}).attributions}
    assert kinds == {"d1": "within noise", "d2": "unexplained"}


def test_without_a_sensitivity_table_on_disk_every_value_outside_is_unexplained(tmp_path):
    _table(tmp_path, "tab-a", {("d1", "m1"): {"test_error": [0.20]}}, {("d1", "m1", "test_error"): 0.10})
    result = _assess(tmp_path, sensitivity=[{"table": "tab-s", "variants": "{method}~"}])
    assert [a.kind for a in result.attributions] == ["unexplained"]


def test_reproduction_md_counts_the_attributions_against_the_compared_values(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.20]}, ("d2", "m1"): {"test_error": [0.10]}},
        {("d1", "m1", "test_error"): 0.10, ("d2", "m1", "test_error"): 0.10},
    )
    path = _catalogue(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02})])
    text = build_reproduction(SENSITIVE, path, root=tmp_path)
    assert (
        "Compared values: 2; within tolerance: 1; outside: 1 (0 within noise, 0 explained by an ablation, "
        "0 data differs, 0 not reproduced, 1 unexplained). Unexplained: 1 values, 50% of the compared values"
    ) in text
    assert "- Outside tolerance: unexplained: 1 (d1 / m1 / test_error)." in text


def test_a_variant_explains_a_value_only_with_its_whole_row_unless_scoped_with_a_reason(tmp_path):
    # paper: test error 0.10 and 100 support vectors; ours 0.20 and 100. Along the sweep, C=1 hits the error
    # alone (0.11, with 300 support vectors) and C=10 hits neither; C=100 hits the whole row (0.105, 110).
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.20], "n_support": [100.0]}},
        {("d1", "m1", "test_error"): 0.10, ("d1", "m1", "n_support"): 100.0},
    )
    sweep = {"m1 [C=1]": (0.11, 300.0), "m1 [C=10]": (0.30, 300.0)}

    def rows(sweep):
        return [
            {"dataset": "d1", "method": m, "status": "optimal", "test_error": e, "n_support": n}
            for m, (e, n) in sweep.items()
        ]

    write_table(
        pd.DataFrame(rows(sweep)), ["test_error", "n_support"], tmp_path / "results" / "tables" / "tab-s", caption="S"
    )
    compare = {"test_error": 0.02, "n_support": "25%"}
    whole = {"compare": compare, "sensitivity": [{"table": "tab-s", "variants": "{method} ["}]}
    assert [a.kind for a in _assess(tmp_path, **whole).attributions] == ["unexplained"]  # C=1 misses the count
    scoped = {
        "compare": compare,
        "sensitivity": [
            {
                "table": "tab-s",
                "variants": "{method} [",
                "metrics": ["test_error"],
                "reason": "the count is not recorded",
            }
        ],
    }
    [found] = _assess(tmp_path, **scoped).attributions
    assert (found.kind, found.detail) == (
        "explained by an ablation",
        "within tolerance: m1 [C=1] 0.11 (scoped to test_error: the count is not recorded)",
    )
    write_table(
        pd.DataFrame(rows({**sweep, "m1 [C=100]": (0.105, 110.0)})),
        ["test_error", "n_support"],
        tmp_path / "results" / "tables" / "tab-s",
        caption="S",
    )
    [found] = _assess(tmp_path, **whole).attributions
    assert found.kind == "explained by an ablation" and found.detail == "within tolerance: m1 [C=100] 0.105"


def test_a_variant_missing_a_compared_metric_of_the_row_explains_nothing(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.20], "n_support": [100.0]}},
        {("d1", "m1", "test_error"): 0.10, ("d1", "m1", "n_support"): 100.0},
    )
    _variants(tmp_path, {("d1", "m1~raw"): 0.10})  # no n_support column at all
    result = _assess(
        tmp_path,
        compare={"test_error": 0.02, "n_support": "25%"},
        sensitivity=[{"table": "tab-s", "variants": "{method}~"}],
    )
    assert [a.kind for a in result.attributions] == ["unexplained"]


def test_a_data_difference_covers_only_the_metrics_and_methods_it_names(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {("d1", "m1"): {"test_error": [0.20], "n_support": [300.0]}, ("d1", "m2"): {"test_error": [0.30]}},
        {("d1", "m1", "test_error"): 0.10, ("d1", "m1", "n_support"): 100.0, ("d1", "m2", "test_error"): 0.10},
    )
    differs = [{"datasets": ["d1"], "metrics": ["test_error"], "methods": ["m1"], "reason": "another grouping"}]
    result = _assess(tmp_path, compare={"test_error": 0.02, "n_support": "25%"}, data_differs=differs)
    kinds = {(a.gap.method, a.gap.metric): a.kind for a in result.attributions}
    assert kinds == {
        ("m1", "test_error"): "data differs",
        ("m1", "n_support"): "unexplained",
        ("m2", "test_error"): "unexplained",
    }


def test_each_paper_gets_its_own_row_of_attributions_and_its_written_verdict(tmp_path):
    _table(
        tmp_path,
        "tab-a",
        {
            ("d1", "m1"): {"test_error": [0.20]},
            ("d2", "m1"): {"test_error": [0.10]},
            ("d3", "m1"): {"test_error": [0.11]},
        },
        {("d1", "m1", "test_error"): 0.10, ("d2", "m1", "test_error"): 0.10, ("d3", "m1", "test_error"): 0.10},
    )
    items = [
        _item(tables=["tab-a"], compare={"test_error": 0.02}),
        {"paper": "pb", "item": "Table 9", "shows": "s", "reason": "data not public"},
    ]
    papers = {"pa": {**PAPERS["pa"], "verdict": "Holds in part."}, "pb": PAPERS["pb"]}
    text = build_reproduction(SENSITIVE, _catalogue(tmp_path, items, papers), root=tmp_path)
    section = text.split("## Does each paper hold up?")[1].split("\n## ")[0]
    rows = {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in section.splitlines()
        if line.startswith("| p")
    }
    # claims, compared, within tolerance, within noise, explained, data differs, not reproduced, unexplained,
    # not reproducible
    assert rows["pa"] == ["—", "3", "2", "0", "0", "0", "0", "1 (33%)", "—"]
    assert rows["pb"] == ["—", "—", "—", "—", "—", "—", "—", "—", "1"]
    assert "**pa.** Holds in part." in section and "**pb.**" not in section
    assert text.index("## Does each paper hold up?") < text.index("## pa: ")


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"sensitivity": [{"table": "nope", "variants": "{method}~"}]}, "unknown sensitivity table 'nope'"),
        ({"sensitivity": [{"table": "tab-s", "variants": "~raw"}]}, "does not match"),
        ({"data_differs": [{"datasets": ["d1"], "metrics": ["test_error"]}]}, "'reason' is a required property"),
        ({"data_differs": [{"datasets": ["d1"], "reason": "r"}]}, "'metrics' is a required property"),
        (
            {"data_differs": [{"datasets": ["d1"], "metrics": ["n_support"], "reason": "r"}]},
            r"data_differs names metrics \['n_support'\] that the entry does not compare",
        ),
        ({"sensitivity": [{"table": "tab-s", "variants": "{method}~", "whole_rows": True}]}, "whole_rows"),
        ({"sensitivity": [{"table": "tab-s", "variants": "{method}~", "metrics": ["test_error"]}]}, "reason"),
    ],
)
def test_bad_sensitivity_and_data_keys_are_named(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message):
        load_catalogue(
            _catalogue(tmp_path, [_item(tables=["tab-a"], compare={"test_error": 0.02}, **extra)]), SENSITIVE, tmp_path
        )


def test_sensitivity_needs_tables(tmp_path):
    item = {
        "paper": "pa",
        "item": "Figure 1",
        "shows": "s",
        "figures": ["fig-a"],
        "sensitivity": [{"table": "tab-s", "variants": "{method}~"}],
    }
    with pytest.raises(ConfigError, match="sensitivity explains the compared cells of tables"):
        load_catalogue(_catalogue(tmp_path, [item], PAPERS), SENSITIVE, tmp_path)
