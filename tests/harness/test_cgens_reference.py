"""config/reference/cgens.csv holds exactly the paper's Tables I-IV, as fractions (checked against the paper's text)."""

import re

import pandas as pd
import pytest

from mkbench.harness.config import load_config

from ..conftest import ROOT

PAPER = ROOT.parent / "shared" / "papers" / "cgens-kernel-machines-to-ensembles.txt"
REFERENCE = ROOT / "config" / "reference" / "cgens.csv"
NAMES = {
    "b-cancer": "breast-cancer",
    "diabetes": "diabetis",
    "f-solar": "flare-solar",
    "DNA": "dna",
    "MNIST": "mnist",
    "USPS": "usps",
    "PASCAL07": "pascal07",
    "LabelMe": "labelme",
    "CIFAR10": "cifar10",
    "Scene15": "scene15",
    "SUN": "sun",
}
VISION = ("pascal07", "labelme", "cifar10", "scene15", "sun")
TABLES = {  # first row of each table in the text, its number of rows, the column order
    "Table I": ("banana 28.38", 13, ["adaboost", "lpboost", "svm-stump", "cgens"]),
    "Table II": (
        "banana 11.41",
        13,
        [
            "rff",
            "svm-rbf",
            "cgens-fourier",
            "adaboost-perceptron",
            "lpboost-perceptron",
            "svm-perceptron",
            "cgens-perceptron",
        ],
    ),
    "Table III": ("wine 3.4", 14, ["adaboost-ecc", "adaboost-mh", "multiboost", "cgens-sls"]),
    "Table IV": ("AdaBoost 6.32", 2, None),
}


def _paper_rows():
    lines = PAPER.read_text(encoding="utf-8").splitlines()
    rows = []
    for table, (first, count, methods) in TABLES.items():
        start = next(i for i, line in enumerate(lines) if line.startswith(first))
        for line in lines[start : start + count]:
            name = line.split(" ", 1)[0]
            values = re.findall(r"([\d.]+)±plus-or-minus\\pm\s*([\d.]+)", line)
            if methods is None:  # Table IV: one method per line
                rows.append((table, "spambase", {"AdaBoost": "adaboost", "Ours": "cgens"}[name], *values[0]))
                continue
            assert len(values) == len(methods), line
            rows += [
                (table, NAMES.get(name, name), m, mean, std) for m, (mean, std) in zip(methods, values, strict=True)
            ]
    frame = pd.DataFrame(rows, columns=["table", "dataset", "method", "mean", "std"])
    for datasets, part in ((["usps"], "USPS"), (["mnist"], "MNIST"), (list(VISION), "vision")):  # split by protocol
        frame.loc[frame["dataset"].isin(datasets), "table"] = f"Table III ({part})"
    return frame


@pytest.mark.skipif(not PAPER.exists(), reason="the paper's text is not beside the repository")
def test_reference_is_the_papers_tables_in_fractions():
    paper = _paper_rows()
    ours = pd.read_csv(REFERENCE, comment="#")
    assert len(paper) == len(ours) == 201
    merged = ours.merge(paper, on=["table", "dataset", "method"], suffixes=("", "_paper"), validate="1:1")
    assert len(merged) == 201
    assert (merged["mean"] - merged["mean_paper"].astype(float) / 100).abs().max() < 1e-12
    assert (merged["std"] - merged["std_paper"].astype(float) / 100).abs().max() < 1e-12
    assert set(ours["metric"]) == {"test_error"} and set(ours["unit"]) == {"fraction"}
    vision = ours["dataset"].isin(VISION)
    assert (ours.loc[vision, "note"] == "features not available").all() and ours.loc[~vision, "note"].isna().all()


def test_configured_method_keys_match_the_reference():
    """Our rows meet the paper's only if the config's method labels equal the reference's method ids."""
    config = load_config(ROOT / "config" / "config.yaml")
    ours = pd.read_csv(REFERENCE, comment="#")
    for table in config["tables"].values():
        reference = table.get("reference") or {}
        if reference.get("file") != "cgens.csv":
            continue
        methods = set(config["experiments"][table["experiment"]]["methods"])
        published = set(
            ours.loc[
                ours["table"].isin([reference["table"]] if isinstance(reference["table"], str) else reference["table"]),
                "method",
            ]
        )
        assert methods <= published | {"adaboost-samme"}, (table["experiment"], methods - published)
