"""The evidence of every claim is the paper's: each number in it occurs in the paper's text, or is computed from
such numbers with the computation written beside it ("122+20+13 = 155", "3000 / 255 = 11.8"), or is listed
under the claim's ``computed`` and recomputed here from the paper's tables as transcribed in config/reference.

The papers' texts are found through $MKBENCH_PAPERS, else ../shared/papers beside the repository; the tests that
read them skip, with the reason, when neither is there.
"""

import os
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mkbench.harness.claim_rules import evaluate

from ..conftest import ROOT

CLAIMS = yaml.safe_load((ROOT / "config" / "claims.yaml").read_text(encoding="utf-8"))["claims"]
TEXTS = {
    paper: spec["text"]
    for paper, spec in yaml.safe_load((ROOT / "config" / "reproduction.yaml").read_text(encoding="utf-8"))[
        "papers"
    ].items()
}

NUMBER = r"\d+(?:\.\d+)?"
#: A computation written in the evidence: numbers joined by + - * / (or x, brackets), "= result".
COMPUTATION = re.compile(rf"({NUMBER}(?:\s*[-+*/x]\s*{NUMBER})+)\s*=\s*({NUMBER})")


@pytest.fixture(scope="module")
def papers() -> Path:
    """The folder of the papers' texts: $MKBENCH_PAPERS, else ../shared/papers beside the repository."""
    path = Path(os.environ.get("MKBENCH_PAPERS") or ROOT.parent / "shared" / "papers")
    if not path.is_dir():
        pytest.skip(f"the papers' texts are not at {path}: set MKBENCH_PAPERS to their folder")
    return path


def _occurs(number: str, text: str) -> bool:
    """Whether ``number`` is written in ``text`` as a number of its own (not the start of 13.5 for 13)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?!\.?\d)", text) is not None


def _decimals(value: str) -> int:
    return len(value.split(".")[1]) if "." in value else 0


def foreign_numbers(evidence: str, text: str, computed: list[float]) -> list[str]:
    """The numbers of ``evidence`` that are not the paper's: absent from ``text``, a written computation whose
    operands are not in ``text`` or whose result is wrong, and not among the ``computed`` values."""
    wrong = []
    for match in COMPUTATION.finditer(evidence):
        expression, result = match.groups()
        wrong += [n for n in re.findall(NUMBER, expression) if not _occurs(n, text)]
        if round(evaluate(expression), _decimals(result)) != float(result):
            wrong.append(f"{expression} = {result} (is {evaluate(expression):.4g})")
    rest = COMPUTATION.sub(" ", evidence)
    for number in re.findall(NUMBER, rest):
        if not _occurs(number, text) and not any(abs(float(number) - c) < 1e-12 for c in computed):
            wrong.append(number)
    return wrong


@pytest.mark.parametrize("claim", CLAIMS, ids=[c["id"] for c in CLAIMS])
def test_every_number_of_the_evidence_is_the_papers(papers, claim):
    text = (papers / TEXTS[claim["paper"]]).read_text(encoding="utf-8")
    computed = [c["value"] for c in claim.get("computed", [])]
    assert foreign_numbers(claim["evidence"], text, computed) == []


def test_the_check_names_numbers_that_are_not_the_papers():
    text = "Table 2: MSE 12.4 11.5; 255 kernel columns against 3000 columns."
    assert foreign_numbers("Boston MARK-L 10.96 vs SVMTorch 10.24", text, []) == ["10.96", "10.24"]
    assert foreign_numbers("MARK-L 12.4 vs 11.5 (12.4 / 11.5 = 1.08)", text, []) == []
    assert foreign_numbers("255 vs 3000 (3000 / 255 = 12.8)", text, []) == ["3000 / 255 = 12.8 (is 11.76)"]
    assert foreign_numbers("255 vs 3000 (3000 / 250 = 12)", text, []) == ["250"]
    assert foreign_numbers("12.4 (mean 0.1753)", text, [0.1753]) == []
    assert foreign_numbers("1.1", "1.15", []) == ["1.1"]  # 1.1 is not the start of 1.15


def _recompute(paper: str, spec: dict) -> float:
    """The mean, or mean rank among ``among`` (1 = lowest), of a method's values over a table's rows."""
    reference = pd.read_csv(ROOT / "config" / "reference" / f"{paper}.csv", comment="#")
    rows = reference[(reference["table"] == spec["table"]) & (reference["metric"] == spec["metric"])]
    if spec["of"] == "mean":
        return float(rows.loc[rows["method"] == spec["method"], "mean"].mean())
    wide = rows[rows["method"].isin(spec["among"])].pivot(index="dataset", columns="method", values="mean")
    return float(wide.dropna().rank(axis=1)[spec["method"]].mean())


COMPUTED = [(c["id"], c["paper"], spec) for c in CLAIMS for spec in c.get("computed", [])]


@pytest.mark.parametrize("claim, paper, spec", COMPUTED, ids=[f"{c}-{s['method']}-{s['of']}" for c, _, s in COMPUTED])
def test_computed_evidence_recomputes_from_the_papers_tables(claim, paper, spec):
    written = str(spec["value"])
    assert round(_recompute(paper, spec), _decimals(written)) == pytest.approx(spec["value"]), claim


def test_the_recomputation_can_fail():
    spec = {"value": 0.1753, "of": "mean", "table": "Table I", "method": "adaboost", "metric": "test_error"}
    assert round(_recompute("cgens", spec), 4) == 0.1753
    assert round(_recompute("cgens", {**spec, "method": "lpboost"}), 4) != 0.1753
    rank = {**spec, "of": "mean_rank", "method": "cgens", "among": ["adaboost", "lpboost", "svm-stump", "cgens"]}
    assert round(_recompute("cgens", rank), 2) == 1.69


def test_every_claim_with_computed_evidence_says_how_in_its_words():
    for claim in CLAIMS:
        if claim.get("computed"):
            assert re.search(r"means?|ranks?", claim["evidence"]), claim["id"]


ITERATIONS = [(c["id"], c["paper"], words) for c in CLAIMS for words in c.get("iterations", {}).values()]


@pytest.mark.parametrize("claim, paper, words", ITERATIONS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(ITERATIONS)])
def test_the_words_that_fix_an_iteration_count_are_the_papers(papers, claim, paper, words):
    """A run stopped at an iteration limit is the paper's protocol only where the paper's own words fix it."""
    quoted = re.findall(r"'([^']+)'", words)
    text = " ".join((papers / TEXTS[paper]).read_text(encoding="utf-8").split())
    assert quoted and all(" ".join(q.split()) in text for q in quoted), claim
