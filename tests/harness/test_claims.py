"""Claim checks and verdicts on synthetic records where a claim holds, fails or cannot tell (within noise, a run
stopped at a limit, an item not reproduced); what a contradiction rests on; the claims catalogue's errors;
REPRODUCTION.md's Claims section; and the committed catalogue against the config."""

import json

import numpy as np
import pandas as pd
import pytest
import yaml

from mkbench.exceptions import ConfigError
from mkbench.harness.claim_checks import Comparison, MissingRecords, run_check
from mkbench.harness.catalogue import Gap, Tolerance
from mkbench.harness.claim_guards import ItemState
from mkbench.harness.claim_report import rebuild_command
from mkbench.harness.claims import Claim, item_status, judge, load_claims
from mkbench.harness.config import load_config
from mkbench.harness.catalogue import load_catalogue
from mkbench.harness.reproduction import build_reproduction

from ..conftest import ROOT
from .test_reproduction import _table

SPLITS = 6


def _summary(root, name, rows):
    path = root / "results" / "summary" / f"{name}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(path, index=False)


def _runs(method, values, dataset="d1", **fields):
    """One summary row per split: ``values[i]`` is split i's test_error."""
    return [
        {
            "dataset": dataset,
            "method": method,
            "seed": 0,
            "split": i,
            "param": "default",
            "status": "optimal",
            "test_error": v,
            **{k: (f[i] if isinstance(f, list) else f) for k, f in fields.items()},
        }
        for i, v in enumerate(values)
    ]


def _history(root, name, curves):
    """curves: {(method, split): y values at iterations 0, 1, ...}."""
    rows = [
        {
            "experiment": name,
            "dataset": "d1",
            "method": method,
            "seed": 0,
            "split": split,
            "param": "default",
            "iteration": i,
            "n_columns": 2 * i,
            "objective": y,
        }
        for (method, split), ys in curves.items()
        for i, y in enumerate(ys)
    ]
    path = root / "results" / "summary" / f"{name}.history.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(path, index=False)


def _claim(check):
    return Claim(id="c", paper="p", where="§1", quote="q", claim="c", evidence="e", check=check)


BELOW = {"source": "summary", "experiment": "exp", "metric": "test_error", "a": "ours", "b": "theirs", "at_least": 0}


# --- verdicts ------------------------------------------------------------------------------------------


def test_a_clear_paired_difference_holds_and_its_mirror_is_contradicted(tmp_path):
    rng = np.random.default_rng(0)
    base = 0.2 + 0.05 * rng.random(SPLITS)  # split-to-split spread the pairing removes
    _summary(tmp_path, "exp", _runs("ours", base) + _runs("theirs", base + 0.03 + 0.001 * rng.random(SPLITS)))
    verdict = judge(_claim(BELOW), tmp_path)
    assert verdict.verdict == "holds"
    assert "theirs − ours: 0.03" in verdict.numbers
    flipped = judge(_claim({**BELOW, "a": "theirs", "b": "ours"}), tmp_path)
    assert flipped.verdict == "contradicted"
    assert "1 of 1 comparisons miss" in flipped.why


def test_a_difference_within_two_standard_errors_is_inconclusive(tmp_path):
    noise = np.array([0.02, -0.02, 0.015, -0.01, 0.01, -0.012])
    _summary(tmp_path, "exp", _runs("ours", np.full(SPLITS, 0.2)) + _runs("theirs", 0.2 + noise))
    (comparison,) = run_check(BELOW, tmp_path)
    assert comparison.se == pytest.approx(np.std(noise, ddof=1) / np.sqrt(SPLITS))
    assert comparison.within_noise
    assert judge(_claim(BELOW), tmp_path).verdict == "inconclusive"


def test_ratio_of_means_with_two_sided_bounds_and_its_standard_error(tmp_path):
    ours = [1.0, 3.0, 1.9, 2.1]
    _summary(tmp_path, "exp", _runs("ours", ours) + _runs("theirs", [1.1 * v for v in ours]))
    check = {**BELOW, "statistic": "ratio", "at_least": 1 / 1.15, "at_most": 1.15}
    (comparison,) = run_check(check, tmp_path)
    assert comparison.value == pytest.approx(1.1) and comparison.holds and comparison.se == pytest.approx(0)
    assert judge(_claim(check), tmp_path).verdict == "holds"
    _summary(tmp_path, "exp", _runs("ours", ours) + _runs("theirs", [1.3 * v for v in ours]))
    assert judge(_claim(check), tmp_path).verdict == "contradicted"
    # 1.3 on average, but the runs disagree: the delta-method error puts 1.15 within noise
    _summary(tmp_path, "exp", _runs("ours", ours) + _runs("theirs", [1.0, 6.0, 1.5, 1.9]))
    (noisy,) = run_check(check, tmp_path)
    assert noisy.value == pytest.approx(10.4 / 8.0) and noisy.within_noise
    assert judge(_claim(check), tmp_path).verdict == "inconclusive"


def test_summed_metric_groups_and_a_threshold_on_one_method(tmp_path):
    rows = _runs("ours", [0.1] * 3, columns_linear=[10, 12, 14], columns_rbf=[1, 1, 1])
    rows += _runs("ours", [0.1] * 3, dataset="d2", columns_linear=[50, 50, 50])  # no RBF field: counts 0
    _summary(tmp_path, "exp", rows)
    check = {
        "source": "summary",
        "experiment": "exp",
        "metric": ["columns_linear", "columns_rbf"],
        "a": "ours",
        "at_most": 20,
    }
    d1, d2 = run_check(check, tmp_path)
    assert (d1.label, d1.value, d1.n) == ("d1", 13.0, 3)
    assert (d2.label, d2.value) == ("d2", 50.0)
    assert judge(_claim(check), tmp_path).verdict == "contradicted"


def test_grid_settings_are_named_method_at_param_or_selected_per_split(tmp_path):
    rows = []
    for c, val, test in (("C=1", [0.3, 0.3], [0.30, 0.31]), ("C=10", [0.2, 0.2], [0.25, 0.26])):
        for r in _runs("ours", test, validation_error=val):
            rows.append({**r, "param": c})
    rows += _runs("theirs", [0.28, 0.29])
    _summary(tmp_path, "exp", rows)
    (by_name,) = run_check({**BELOW, "a": "ours@C=1"}, tmp_path)
    assert by_name.value == pytest.approx(-0.02)
    (selected,) = run_check({**BELOW, "select": "validation_error"}, tmp_path)
    assert selected.value == pytest.approx(0.03)  # C=10 has the lower validation error
    with pytest.raises(MissingRecords, match="its grid settings are ours@C=1, ours@C=10, or select one"):
        run_check(BELOW, tmp_path)
    _summary(tmp_path, "again", rows)  # the same runs twice
    with pytest.raises(ConfigError, match="several rows per run"):
        run_check({**BELOW, "a": "ours@C=1", "experiment": ["exp", "again"]}, tmp_path)


def test_history_reductions(tmp_path):
    _history(
        tmp_path,
        "exp",
        {
            ("slow", 0): [10, 8, 6, 5, 4, 3.5, 3.2, 3.1, 3.0, 2.9, 2.8],
            ("fast", 0): [10, 5, 3, 2.9, 2.8, 2.8, 2.8, 2.8, 2.8, 2.8, 2.8],
            ("bump", 0): [5, 3, 2, 2.5, 3.0, 3.5, 3.5, 3.5, 3.5, 3.5, 4.0],
        },
    )

    def value(reduce, method, **extra):
        check = {
            "source": "history",
            "experiment": "exp",
            "metric": "objective",
            "reduce": reduce,
            "a": method,
            "at_least": 0,
            **extra,
        }
        return run_check(check, tmp_path)[0].value

    assert value("final", "slow") == 2.8
    assert value("min", "bump") == 2.0
    assert value("mean", "fast") == pytest.approx(np.mean([10, 5, 3, 2.9] + [2.8] * 7))
    assert value("rise", "bump") == pytest.approx(2.0)
    assert value("rise", "slow") == 0
    assert value("tail_drop", "slow") == pytest.approx(3.0 - 2.8)  # from iteration 8 (80% of 10) to 10
    assert value("at", "slow", at=3) == 5
    assert value("at", "slow", at=6, x="n_columns") == 5  # x = 2 * iteration
    # reach: both get to 2.8 (the worse final); fast at iteration 4, slow at 10: ratio 2.5
    check = {
        "source": "history",
        "experiment": "exp",
        "metric": "objective",
        "reduce": "reach",
        "a": "fast",
        "b": "slow",
        "statistic": "ratio",
        "at_least": 2,
    }
    (reach,) = run_check(check, tmp_path)
    assert reach.value == pytest.approx(10 / 4)
    assert judge(_claim({**check, "a": "slow", "b": "fast"}), tmp_path).verdict == "contradicted"


def test_bench_values_by_key_path(tmp_path):
    bench = {
        "ratios": [{"what": "fit time A / B, credit", "value": 2.3}, {"what": "fit time A / B, sonar", "value": 0.2}]
    }
    (tmp_path / "results" / "bench").mkdir(parents=True)
    (tmp_path / "results" / "bench" / "speed.json").write_text(json.dumps(bench))
    check = {
        "source": "bench",
        "bench": "speed",
        "at_most": 0.25,
        "values": {"credit": ["ratios", {"what": "credit"}, "value"], "sonar": ["ratios", {"what": "sonar"}, "value"]},
    }
    credit, sonar = run_check(check, tmp_path)
    assert (credit.value, credit.holds, sonar.holds) == (2.3, False, True)
    assert judge(_claim(check), tmp_path).verdict == "contradicted"
    with pytest.raises(ConfigError, match="2 items have 'what' containing 'fit time'"):
        run_check({**check, "values": {"x": ["ratios", {"what": "fit time"}, "value"]}}, tmp_path)
    with pytest.raises(ConfigError, match="no 'nope'"):
        run_check({**check, "values": {"x": ["nope"]}}, tmp_path)


def test_missing_records_and_reasons_are_inconclusive(tmp_path):
    verdict = judge(_claim(BELOW), tmp_path)
    assert verdict.verdict == "inconclusive" and "not run yet: results/summary/exp.csv is missing" in verdict.why
    _summary(tmp_path, "exp", _runs("ours", [0.1, 0.2]))
    assert "no records of method 'theirs'" in judge(_claim(BELOW), tmp_path).why
    reasoned = Claim(id="c", paper="p", where="T1", quote="q", claim="c", evidence="e", reason="data not public")
    assert judge(reasoned, tmp_path).why == "data not public"
    with pytest.raises(MissingRecords):
        run_check({**BELOW, "experiment": "other"}, tmp_path)


def test_comparison_noise_uses_the_nearest_bound():
    inside = Comparison("x", 1.0, 0.01, 5, at_least=0.9, at_most=1.15)
    assert inside.holds and not inside.within_noise
    near_top = Comparison("x", 1.14, 0.01, 5, at_least=0.9, at_most=1.15)
    assert near_top.within_noise
    assert not Comparison("x", 1.14, float("nan"), 1, at_most=1.0).within_noise


# --- the catalogue -----------------------------------------------------------------------------------


def _write(tmp_path, claims):
    path = tmp_path / "claims.yaml"
    path.write_text(yaml.safe_dump({"claims": claims}, sort_keys=False))
    return path


def _spec(**extra):
    rule = {"rule": "direction"} if "check" in extra else {}
    return {"id": "p-one", "paper": "p", "where": "§1", "quote": "q", "claim": "c", "evidence": "e", **rule, **extra}


@pytest.mark.parametrize(
    "claims, message",
    [
        ([_spec(paper="nope", check=BELOW)], "unknown paper 'nope'"),
        ([_spec(items=["Figure 9"], check=BELOW)], r"unknown items \['Figure 9'\]"),
        ([_spec()], "either a check or a reason"),
        ([_spec(check=BELOW, reason="r")], "either a check or a reason"),
        ([_spec(check=BELOW), _spec(check=BELOW)], "'p-one' is listed 2 times"),
        ([_spec(check={**BELOW, "metrc": "x"})], "metrc"),
        ([_spec(check={k: v for k, v in BELOW.items() if k != "at_least"})], "at_least"),
        ([_spec(check={**BELOW, "source": "history"})], "reduce"),
        ([_spec(id="Bad Id", check=BELOW)], "Bad Id"),
        ([{k: v for k, v in _spec(check=BELOW).items() if k != "rule"}], "its check needs a rule"),
        ([_spec(check=BELOW, rule="intensifier")], "rule intensifier needs a ratio with at_least 2"),
        ([_spec(check={**BELOW, "at_least": 0.005})], "rule direction needs one bound of 0"),
        ([_spec(check=BELOW, rule={"factor": "3000 / 255"})], r"rule factor 3000 / 255 needs at_least 9.41"),
        ([_spec(check=BELOW, rule="sometimes")], "sometimes"),
    ],
)
def test_bad_catalogues_name_the_problem(tmp_path, claims, message):
    with pytest.raises(ConfigError, match=message):
        load_claims(_write(tmp_path, claims), {"p": {"Figure 1"}})


def test_a_figure_with_claims_is_judged_by_them_in_reproduction_md(tmp_path):
    config = {
        "experiments": {"exp": {"paper": "p", "methods": {}}},
        "tables": {},
        "figures": {"fig": {"experiment": "exp"}},
    }
    (tmp_path / "results" / "figures").mkdir(parents=True)
    (tmp_path / "results" / "figures" / "fig.png").write_bytes(b"png")
    catalogue = tmp_path / "reproduction.yaml"
    catalogue.write_text(
        yaml.safe_dump(
            {
                "papers": {"p": {"citation": "P. Author"}},
                "items": [
                    {"paper": "p", "item": "Figure 1", "shows": "s", "figures": ["fig"]},
                    {"paper": "p", "item": "Figure 2", "shows": "s", "figures": ["fig"]},
                ],
            }
        )
    )
    _summary(tmp_path, "exp", _runs("ours", [0.1, 0.12, 0.11]) + _runs("theirs", [0.2, 0.21, 0.22]))
    _write(
        tmp_path,
        [_spec(items=["Figure 1"], check=BELOW), _spec(id="p-two", items=["Figure 1"], reason="data not public")],
    )
    text = build_reproduction(config, catalogue, root=tmp_path)
    rows = {line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| Figure")}
    assert "| claims: 1 holds, 1 inconclusive |" in rows["Figure 1"].replace("  ", "")
    assert "| drawn " in rows["Figure 2"]  # no claim on it
    assert "2 claims: 1 holds, 1 inconclusive; 0 of the verdicts are fragile" in text
    assert (
        "| p       | 2: 1 holds, 0 contradicted, 1 inconclusive |" in text
    )  # the paper's row in "Does each paper hold up?"
    assert "Summary: 1 judged by their claims, 1 drawn." in text
    assert "### p-one" in text and "- **Verdict**: **holds**" in text
    assert "- **Rebuild**: `snakemake --cores 8 results/summary/exp.csv`" in text


def test_item_status_counts_verdicts_per_item():
    claims = [Claim(id=i, paper="p", where="", quote="", claim="", evidence="", items=("F1",)) for i in "abc"]
    from mkbench.harness.claims import Verdict

    verdicts = [Verdict("holds", ""), Verdict("contradicted", ""), Verdict("holds", "")]
    assert item_status(claims, verdicts) == {("p", "F1"): "claims: 2 holds, 1 contradicted"}


def test_the_committed_claims_catalogue_is_valid_and_every_claim_is_decidable():
    config = load_config(ROOT / "config" / "config.yaml")
    papers, entries = load_catalogue(ROOT / "config" / "reproduction.yaml", config, ROOT)
    known = {paper: {e.item for e in entries if e.paper == paper} for paper in papers}
    claims = load_claims(ROOT / "config" / "claims.yaml", known)
    assert len(claims) >= 20
    experiments = set(config["experiments"])
    for claim in claims:
        if claim.check and claim.check["source"] != "bench":
            named = claim.check["experiment"]
            assert set(named if isinstance(named, list) else [named]) <= experiments, claim.id
        verdict = judge(claim, ROOT)  # committed records: nothing raises
        assert verdict.verdict in ("holds", "contradicted", "inconclusive")


def test_trend_is_spearman_rho_of_the_size_of_the_difference_along_the_last_group(tmp_path):
    rows = []
    for n, gap in ((10, 0.05), (50, -0.03), (100, 0.01), (500, 0.0)):  # sizes 0.05, 0.03, 0.01, 0: falling
        rows += _runs("ours", [0.2, 0.3], n_train=n) + _runs("theirs", [0.2 + gap, 0.3 + gap], n_train=n)
    _summary(tmp_path, "exp", rows)
    check = {**BELOW, "by": ["dataset", "n_train"], "statistic": "trend", "at_least": None, "at_most": -0.5}
    del check["at_least"]
    (trend,) = run_check(check, tmp_path)
    assert trend.value == pytest.approx(-1.0) and "10: 0.05, 50: 0.03, 100: 0.01, 500: 0" in trend.label
    assert judge(_claim(check), tmp_path).verdict == "holds"
    assert judge(_claim({**check, "a": "theirs", "b": "ours", "by": ["n_train"]}), tmp_path).verdict == "holds"
    _summary(
        tmp_path,
        "exp",
        [
            {**r, "test_error": r["test_error"] * (1 + r["n_train"] / 100)} if r["method"] == "theirs" else r
            for r in rows
        ],
    )  # the difference now grows with l
    assert judge(_claim(check), tmp_path).verdict == "contradicted"


def test_a_bench_claim_rebuilds_without_the_machines_mirror(tmp_path):
    """The recorded command loses its --mirror DIR (the environment's mirror serves on another machine)."""
    bench = tmp_path / "results" / "bench"
    bench.mkdir(parents=True)
    command = "python benchmarks/x.py --mirror '/data/my mirror' --sizes 1 2 --json results/bench/x.json"
    (bench / "x.json").write_text(json.dumps({"command": command}))
    claim = type("C", (), {"check": {"source": "bench", "bench": "x"}})()
    assert rebuild_command(claim, tmp_path) == "python benchmarks/x.py --sizes 1 2 --json results/bench/x.json"
    claim.check["bench"] = "missing"
    assert rebuild_command(claim, tmp_path) == "snakemake bench --cores 1"


# --- what our records cannot decide, and what a contradiction rests on --------------------------------


def _stopped(root, statuses, n_iter=50):
    """A history of two methods on three splits, their curve ending lower for 'fast', and a summary giving
    each run's stopping status: ``statuses[method]`` is "optimal", "max_iter" or "time_limit"."""
    _history(
        root,
        "exp",
        {
            (m, split): ys
            for split in range(3)
            for m, ys in (("slow", [10, 6, 4, 3, 2.9]), ("fast", [10, 3, 2.9, 2.8, 2.8]))
        },
    )
    _summary(
        root,
        "exp",
        [
            {
                "dataset": "d1",
                "method": m,
                "seed": 0,
                "split": split,
                "param": "default",
                "status": "optimal",
                "cg_status": status,
                "n_iter": n_iter,
            }
            for m, status in statuses.items()
            for split in range(3)
        ],
    )


REACH = {
    "source": "history",
    "experiment": "exp",
    "metric": "objective",
    "reduce": "reach",
    "a": "fast",
    "b": "slow",
    "statistic": "ratio",
    "at_least": 1,
}


def test_a_run_stopped_at_a_limit_cannot_decide_a_claim_about_the_end_of_a_run(tmp_path):
    _stopped(tmp_path, {"fast": "optimal", "slow": "optimal"})
    assert judge(_claim(REACH), tmp_path).verdict == "holds"
    _stopped(tmp_path, {"fast": "optimal", "slow": "time_limit"}, n_iter=609)
    cut = judge(_claim(REACH), tmp_path)
    assert cut.verdict == "inconclusive"
    assert cut.why == (
        "a run stopped at a limit cannot decide a claim about the end of a run: slow stopped at its "
        "time limit in 3 of 3 runs after 609 iterations; on the comparisons alone: holds"
    )
    # an iteration limit the paper fixes for a method is its protocol; a time limit never is
    _stopped(tmp_path, {"fast": "max_iter", "slow": "optimal"})
    assert "fast stopped at its iteration limit" in judge(_claim(REACH), tmp_path).why
    fixed = Claim(**{**_claim(REACH).__dict__, "iterations": {"fast": "§1: 'we ran 5 iterations'"}})
    assert judge(fixed, tmp_path).verdict == "holds"
    # a value at a given x does not read the end of the run
    _stopped(tmp_path, {"fast": "time_limit", "slow": "time_limit"})
    at = {**REACH, "reduce": "at", "at": 2, "statistic": "difference", "at_least": 0}
    assert judge(_claim(at), tmp_path).verdict == "holds"


def _state(not_reproduced, gaps=()):
    return ItemState(
        not_reproduced, "not reproduced (1 of 27 values within tolerance)" if not_reproduced else "ok", tuple(gaps)
    )


def test_a_claim_on_an_item_that_is_not_reproduced_is_inconclusive_unless_about_its_protocol(tmp_path):
    _summary(tmp_path, "exp", _runs("ours", [0.1, 0.12, 0.11]) + _runs("theirs", [0.2, 0.21, 0.22]))
    claim = Claim(**{**_claim(BELOW).__dict__, "items": ("Table 1",)})
    assert judge(claim, tmp_path, {("p", "Table 1"): _state(False)}).verdict == "holds"
    verdict = judge(claim, tmp_path, {("p", "Table 1"): _state(True)})
    assert verdict.verdict == "inconclusive" and verdict.why.startswith(
        "judged on an item that is not reproduced: Table 1: not reproduced (1 of 27"
    )
    assert verdict.why.endswith("; on the comparisons alone: holds")
    about = Claim(**{**claim.__dict__, "about_protocol": "the claim is that LP (4) collapses"})
    assert judge(about, tmp_path, {("p", "Table 1"): _state(True)}).verdict == "holds"


def test_a_contradiction_resting_on_a_baseline_far_from_the_papers_says_so(tmp_path):
    # the claim: theirs is worse (higher) than ours; ours is far below the paper's value of ours
    _summary(tmp_path, "exp", _runs("ours", [0.30, 0.31, 0.32]) + _runs("theirs", [0.2, 0.21, 0.22]))
    claim = Claim(**{**_claim(BELOW).__dict__, "items": ("Table 1",)})
    tolerance = Tolerance.parse(0.02)
    near = [
        Gap("d1", "ours", "test_error", 0.31, 0.30, tolerance),
        Gap("d1", "theirs", "test_error", 0.21, 0.22, tolerance),
    ]
    plain = judge(claim, tmp_path, {("p", "Table 1"): _state(False, near)})
    assert plain.verdict == "contradicted" and plain.why == "1 of 1 comparisons miss the threshold"
    far = [near[0], Gap("d1", "theirs", "test_error", 0.21, 0.40, tolerance)]
    verdict = judge(claim, tmp_path, {("p", "Table 1"): _state(False, far)})
    assert verdict.verdict == "contradicted"
    assert verdict.why == (
        "1 of 1 comparisons miss the threshold; d1, theirs − ours rests on our theirs deviating "
        "from the paper's theirs on d1: test_error 0.21 against the paper's 0.4, beyond the "
        "tolerance 0.02"
    )


def test_a_single_run_has_no_uncertainty_and_says_so(tmp_path):
    _summary(tmp_path, "exp", _runs("ours", [0.1]) + _runs("theirs", [0.05]))
    (comparison,) = run_check(BELOW, tmp_path)
    assert np.isnan(comparison.se) and not comparison.within_noise
    assert str(comparison) == "d1, theirs − ours: -0.05 (one run: no uncertainty) (needs >= 0)"
    assert judge(_claim(BELOW), tmp_path).verdict == "contradicted"


def test_a_figure_that_runs_a_tables_protocol_shares_its_reproduction(tmp_path):
    """Figure 1 follows Table 1's protocol (catalogue key protocol); Table 1 is not reproduced (its one
    listed reading run, a value unexplained), so the claim
    on Figure 1 is inconclusive in REPRODUCTION.md; a protocol that is no item with tables is an error."""
    config = {
        "experiments": {"exp": {"paper": "p", "methods": {}}},
        "tables": {"tab": {"experiment": "exp", "metrics": ["test_error"]}},
        "figures": {"fig": {"experiment": "exp"}},
    }
    (tmp_path / "results" / "figures").mkdir(parents=True)
    (tmp_path / "results" / "figures" / "fig.png").write_bytes(b"png")
    _table(tmp_path, "tab", {("d1", "ours"): {"test_error": [0.5]}}, {("d1", "ours", "test_error"): 0.1})
    _summary(tmp_path, "exp", _runs("ours", [0.1, 0.12, 0.11]) + _runs("theirs", [0.2, 0.21, 0.22]))
    _write(tmp_path, [_spec(items=["Figure 1"], check=BELOW)])
    items = [
        {
            "paper": "p",
            "item": "Table 1",
            "shows": "s",
            "tables": ["tab"],
            "compare": {"test_error": 0.02},
            "readings": [{"reading": "the only one", "tables": ["tab"]}],
        },
        {"paper": "p", "item": "Figure 1", "shows": "s", "figures": ["fig"], "protocol": "Table 1"},
    ]
    catalogue = tmp_path / "reproduction.yaml"
    catalogue.write_text(yaml.safe_dump({"papers": {"p": {"citation": "P. Author"}}, "items": items}))
    text = build_reproduction(config, catalogue, root=tmp_path)
    assert (
        "- **Verdict**: **inconclusive** (judged on an item that is not reproduced: Figure 1: runs the protocol "
        "of Table 1, not reproduced (0 of 1 values within tolerance); on the comparisons alone: holds)"
    ) in text
    items[1]["protocol"] = "Figure 9"
    catalogue.write_text(yaml.safe_dump({"papers": {"p": {"citation": "P. Author"}}, "items": items}))
    with pytest.raises(ConfigError, match="its protocol 'Figure 9' is no item of p with tables"):
        build_reproduction(config, catalogue, root=tmp_path)
