"""Every rule of claim_rules.py decides a claim three ways on synthetic records, holds, contradicted and
inconclusive (within noise), so that no rule can decide a claim whichever way the records come out; the
thresholds a rule allows; the other readings that mark a verdict fragile; the standard error of each statistic."""

import json

import numpy as np
import pytest

from mkbench.harness.claim_rules import alternatives, evaluate, rule_problems
from mkbench.harness.claim_statistics import loglog_slope, ratio, trend
from mkbench.harness.claims import Claim, judge

from .test_claims import _runs, _summary

SPLITS = 8
NOISE = np.array([0.9, -1.1, 0.4, -0.2, 1.3, -0.7, 0.1, -0.7])  # mean 0, sd 0.8: the noise of a "within" case
BASE = 0.2 + 0.05 * np.linspace(0, 1, SPLITS)  # split-to-split spread the pairing removes

DIFFERENCE = {"source": "summary", "experiment": "exp", "metric": "test_error", "a": "ours", "b": "theirs"}
RATIO = {**DIFFERENCE, "statistic": "ratio"}

#: rule, check, then theirs as a function of ours for holds, contradicted and within noise.
CASES = {
    "direction, difference": (
        "direction",
        {**DIFFERENCE, "at_least": 0},
        [lambda a: a + 0.03, lambda a: a - 0.03, lambda a: a + 0.02 * NOISE],
    ),
    "direction, ratio": (
        "direction",
        {**RATIO, "at_most": 1},
        [lambda a: 0.5 * a, lambda a: 1.5 * a, lambda a: a * (1 + 0.05 * NOISE)],
    ),
    "intensifier": (
        "intensifier",
        {**RATIO, "at_least": 2},
        [lambda a: 3 * a, lambda a: 1.2 * a, lambda a: a * (2 + 0.3 * NOISE)],
    ),
    "stated factor": (
        {"factor": "3000 / 255"},
        {**RATIO, "at_least": 9.41},
        [lambda a: 12 * a, lambda a: 3 * a, lambda a: a * (9.41 + 1.5 * NOISE)],
    ),
    "comparable, difference": (
        "comparable",
        {**DIFFERENCE, "at_least": -0.02, "at_most": 0.02},
        [lambda a: a + 0.001, lambda a: a + 0.06, lambda a: a + 0.02 + 0.02 * NOISE],
    ),
    "comparable, ratio": (
        "comparable",
        {**RATIO, "at_least": 1 / 1.15, "at_most": 1.15},
        [lambda a: 1.02 * a, lambda a: 1.5 * a, lambda a: a * (1.15 + 0.1 * NOISE)],
    ),
    "slightly": (
        "slightly",
        {**DIFFERENCE, "at_least": 0, "at_most": 0.02},
        [lambda a: a + 0.01, lambda a: a + 0.06, lambda a: a + 0.02 * NOISE],
    ),
    "bound": (
        {"bound": 1.2, "alternatives": [1.1, 1.3], "words": "'near linear'"},
        {"source": "summary", "experiment": "exp", "metric": "test_error", "a": "theirs", "at_most": 1.2},
        [lambda a: 1.0 + 0 * a, lambda a: 1.5 + 0 * a, lambda a: 1.2 + 0.2 * NOISE],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_rule_can_hold_be_contradicted_and_be_within_noise(tmp_path, case):
    rule, check, theirs = CASES[case]
    assert rule_problems(rule, check) == []
    claim = Claim(id="c", paper="p", where="§1", quote="q", claim="c", evidence="e", check=check, rule=rule)
    verdicts = []
    for make in theirs:
        _summary(tmp_path, "exp", _runs("ours", BASE) + _runs("theirs", make(BASE)))
        verdicts.append(judge(claim, tmp_path).verdict)
    assert verdicts == ["holds", "contradicted", "inconclusive"]


def _trend_records(root, gaps, spread):
    """theirs - ours by n_train: ``gaps[l]`` plus ``spread`` times the noise, paired over the splits."""
    rows = []
    for size, gap in gaps.items():
        rows += _runs("ours", BASE, n_train=size) + _runs("theirs", BASE + gap + spread * NOISE, n_train=size)
    _summary(root, "exp", rows)


def test_the_trend_rule_holds_is_contradicted_and_is_within_noise_by_its_bootstrap_error(tmp_path):
    check = {**DIFFERENCE, "by": ["dataset", "n_train"], "statistic": "trend", "at_most": -0.5}
    assert rule_problems("trend", check) == []
    claim = Claim(id="c", paper="p", where="§1", quote="q", claim="c", evidence="e", check=check, rule="trend")
    falling = {10: 0.08, 20: 0.06, 50: 0.04, 100: 0.02, 200: 0.01}
    _trend_records(tmp_path, falling, 0.002)
    assert judge(claim, tmp_path).verdict == "holds"
    _trend_records(tmp_path, {size: 0.09 - g for size, g in falling.items()}, 0.002)  # growing with l
    assert judge(claim, tmp_path).verdict == "contradicted"
    _trend_records(tmp_path, falling, 0.2)  # each group's mean drowned in its runs' spread
    noisy = judge(claim, tmp_path)
    assert noisy.verdict == "inconclusive" and "within noise" in noisy.why
    assert noisy.numbers == judge(claim, tmp_path).numbers  # a seeded bootstrap: the same error every time


def test_a_threshold_that_is_not_its_rules_is_an_error():
    assert rule_problems("intensifier", {**RATIO, "at_least": 1.5}) != []
    assert rule_problems("direction", {**DIFFERENCE, "at_least": 0.005}) != []  # the old improper-C threshold
    assert rule_problems({"factor": "3000 / 255"}, {**RATIO, "at_least": 2}) != []  # the old stratified threshold
    assert rule_problems("comparable", {**DIFFERENCE, "at_least": -0.02, "at_most": 0.03}) != []
    assert rule_problems("trend", {**DIFFERENCE, "statistic": "trend", "at_most": 0}) != []
    assert rule_problems({"bound": 1.2, "alternatives": [1.3], "words": "w"}, {**DIFFERENCE, "at_most": 1.5}) != []
    assert evaluate("122+20+13") == 155 and evaluate("3000 / 255") == pytest.approx(11.7647, abs=1e-4)
    with pytest.raises(ValueError, match="not arithmetic"):
        evaluate("__import__('os')")


def test_a_verdict_that_another_reading_of_the_words_changes_is_fragile(tmp_path):
    # theirs / ours = 1.7 tightly: not "much" at 2x, but it is at 1.5x
    check = {**RATIO, "at_least": 2}
    claim = Claim(id="c", paper="p", where="§1", quote="q", claim="c", evidence="e", check=check, rule="intensifier")
    _summary(tmp_path, "exp", _runs("ours", BASE) + _runs("theirs", 1.7 * BASE))
    verdict = judge(claim, tmp_path)
    assert verdict.verdict == "contradicted" and verdict.fragile
    assert verdict.readings == (("1.5x", "holds"), ("3x", "contradicted"))
    assert verdict.robustness.startswith("**fragile**: 1.5x: holds")
    _summary(tmp_path, "exp", _runs("ours", BASE) + _runs("theirs", 5 * BASE))
    robust = judge(claim, tmp_path)
    assert (robust.verdict, robust.fragile) == ("holds", False) and robust.robustness.startswith("robust")


def test_each_rule_names_its_other_readings():
    names = lambda rule, check: [name for name, _ in alternatives(rule, check)]  # noqa: E731
    assert names("direction", {**DIFFERENCE, "at_least": 0}) == ["ratio of means >= 1"]
    assert names("direction", {"source": "summary", "a": "x", "at_least": 0}) == []  # one method: none
    assert names("intensifier", {**RATIO, "at_least": 2}) == ["1.5x", "3x"]
    factor = {"factor": "3000 / 255", "alternatives": [2], "words": "'significantly'"}
    assert names(factor, {**RATIO, "at_least": 9.41}) == [
        "the stated factor 11.8 without tolerance",
        "2x ('significantly')",
    ]
    assert names("trend", {**DIFFERENCE, "statistic": "trend", "at_most": -0.5}) == ["rho <= 0 (any fall)"]
    [(_, half), (_, twice), (_, alone)] = alternatives("slightly", {**DIFFERENCE, "at_least": 0, "at_most": 0.02})
    assert (half["at_most"], twice["at_most"], alone.get("at_most")) == (0.01, 0.04, None)


def test_the_ratio_error_is_the_delta_methods_and_the_slope_error_least_squares():
    a = np.array([1.0, 2.0, 3.0, 4.0])
    b = np.array([2.1, 3.9, 6.2, 7.8])
    value, se = ratio(a, b)
    r = b.mean() / a.mean()
    assert value == pytest.approx(r)
    assert se == pytest.approx(np.std(b - r * a, ddof=1) / np.sqrt(4) / a.mean())
    assert np.isnan(ratio(a[:1], b[:1])[1])  # one run: no uncertainty
    x = np.array([1e3, 2e3, 4e3, 8e3])
    slope, se = loglog_slope(x, 3e-4 * x**1.1)
    assert slope == pytest.approx(1.1) and se == pytest.approx(0, abs=1e-9)
    slope, se = loglog_slope(x, 3e-4 * x**1.1 * np.array([1.2, 0.8, 1.1, 0.9]))
    fit = np.polyfit(np.log(x), np.log(3e-4 * x**1.1 * np.array([1.2, 0.8, 1.1, 0.9])), 1, cov="unscaled")
    assert slope == pytest.approx(fit[0][0]) and se > 0
    rho, se = trend(np.array([1, 2, 3]), [np.array([0.3, 0.31]), np.array([0.2, 0.21]), np.array([0.1, 0.11])])
    assert rho == pytest.approx(-1.0) and se == pytest.approx(0.0)


def test_a_bench_series_is_judged_by_its_slope_and_its_error(tmp_path):
    sizes = [1000, 2000, 4000, 8000, 16000]
    tight = [0.2 * (n / 1000) ** 0.96 for n in sizes]
    noisy = [t * f for t, f in zip(tight, [1.0, 1.9, 0.6, 1.9, 0.9], strict=True)]
    bench = {
        "series": [
            {"label": "MARK-L tight", "sizes": sizes, "seconds": tight},
            {"label": "MARK-L noisy", "sizes": sizes, "seconds": noisy},
        ]
    }
    (tmp_path / "results" / "bench").mkdir(parents=True)
    (tmp_path / "results" / "bench" / "scale.json").write_text(json.dumps(bench))
    rule = {"bound": 1.2, "alternatives": [1.1, 1.3], "words": "'near linear'"}

    def verdict(series):
        check = {"source": "bench", "bench": "scale", "values": {"slope": {"series": series}}, "at_most": 1.2}
        return judge(
            Claim(id="c", paper="p", where="§1", quote="q", claim="c", evidence="e", check=check, rule=rule), tmp_path
        )

    assert verdict("tight").verdict == "holds" and "slope: 0.96 ± " in verdict("tight").numbers
    slope, se = loglog_slope(sizes, noisy)
    assert abs(slope - 1.2) < 2 * se  # the scatter of the sizes leaves 1.2 within reach
    assert verdict("noisy").verdict == "inconclusive"


def test_the_claims_schema_names_the_codes_rules_and_reductions():
    """claims.schema.yaml (a YAML file, as the config's schema) enumerates what the code implements, no more."""
    from mkbench.harness.claim_checks import REDUCTIONS
    from mkbench.harness.claim_rules import NAMED
    from mkbench.harness.claims import _SCHEMA

    check = _SCHEMA["$defs"]["check"]["allOf"]
    history = next(kind["then"] for kind in check if kind["if"]["properties"]["source"]["const"] == "history")
    assert history["properties"]["reduce"]["enum"] == list(REDUCTIONS)
    assert _SCHEMA["$defs"]["rule"]["anyOf"][0]["enum"] == list(NAMED)
    assert "experiment" in history["properties"] and "at_most" in history["properties"]  # the merged summary keys
