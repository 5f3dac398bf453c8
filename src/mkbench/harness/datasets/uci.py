"""UCI, StatLog, DELVE and OpenML tables: the regression and binary sets.

The multiclass sets are in :mod:`.uci_multiclass`; the IDA two-class pools built
from some of the same files are in :mod:`.raetsch`.
"""

from __future__ import annotations

import tarfile
import zlib
from pathlib import PurePosixPath

import numpy as np

from mkbench.exceptions import DataError

from ._files import (
    ABALONE,
    CRX,
    DELVE_CENSUS_HOUSE,
    HOUSE_8L,
    HOUSE_8L_OPENML,
    HOUSING,
    IONOSPHERE,
    SONAR,
    SPAMBASE,
    UCI,
)
from ._readers import (
    binary_labels,
    gunzip,
    numbered,
    one_hot,
    read_arff,
    read_rows,
    split_rows,
    to_float,
)
from ._registry import DatasetSpec, Parsed, register

UCI_CITATION = "Dua, D. and Graff, C., UCI Machine Learning Repository, University of California, Irvine"
UCI_PAGE = "https://archive.ics.uci.edu/ml/datasets"


# ---------------------------------------------------------------- regression

BOSTON_FEATURES = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT"]


def _parse_boston(files) -> Parsed:
    path = files[HOUSING.path]
    data = to_float(read_rows(path, n_fields=14), path)
    return Parsed(data[:, :13], data[:, 13], BOSTON_FEATURES, {"target": "MEDV"})


ABALONE_SEXES = ("M", "F", "I")
ABALONE_NUMERIC = [
    "length", "diameter", "height", "whole_weight", "shucked_weight", "viscera_weight", "shell_weight",
]  # fmt: skip


def _parse_abalone(files) -> Parsed:
    path = files[ABALONE.path]
    rows = read_rows(path, n_fields=9, sep=",")
    sex, sex_names = one_hot(rows[:, 0], ABALONE_SEXES, "sex", path)
    X = np.hstack([sex, to_float(rows[:, 1:8], path)])
    return Parsed(X, to_float(rows[:, 8], path), sex_names + ABALONE_NUMERIC, {"target": "rings"})


def _arff_regression(path) -> Parsed:
    """All attributes but the last are inputs; the last is the target."""
    data, names = read_arff(path)
    X = np.column_stack([data[name].astype(np.float64) for name in names[:-1]])
    return Parsed(X, data[names[-1]].astype(np.float64), names[:-1], {"target": "price"})


def _parse_house_8l(files) -> Parsed:
    return _arff_regression(files.get(HOUSE_8L.path) or files[HOUSE_8L_OPENML.path])


HOUSE_8H_FEATURES = 8


def _parse_house_8h(files) -> Parsed:
    """The house-price-8H table inside DELVE's census-house archive.

    The archive's layout could not be inspected offline: the parser looks for a
    member named ``Prototask.data`` (optionally gzipped) under a folder whose
    name contains ``8H``, with 8 inputs and the price in the last column.
    """
    path = files[DELVE_CENSUS_HOUSE.path]
    try:
        with tarfile.open(path) as tar:
            members = [m for m in tar.getmembers() if m.isfile()]
            tables = [
                m for m in members if "8h" in m.name.lower() and PurePosixPath(m.name).name.startswith("Prototask.data")
            ]
            if len(tables) != 1:
                raise DataError(
                    f"{path}: expected one house-price-8H table (a Prototask.data under an '8H' folder) in the "
                    f"DELVE archive, found {len(tables)}; the archive layout could not be checked offline. "
                    f"Its files: {[m.name for m in members][:30]}. Use 'house-8l' (OpenML 218) meanwhile."
                )
            member = tables[0]
            handle = tar.extractfile(member)
            assert handle is not None  # a regular file (isfile above)
            content = gunzip(handle.read(), f"{path}:{member.name}")
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        raise DataError(f"{path}: not a readable tar archive ({exc})") from exc
    source = f"{path}:{member.name}"
    data = to_float(split_rows(content.decode("latin-1"), source, n_fields=HOUSE_8H_FEATURES + 1), source)
    return Parsed(data[:, :-1], data[:, -1], numbered("x", HOUSE_8H_FEATURES), {"target": "price"})


# ---------------------------------------------------------------- binary


def _csv_binary(path, n_features: int, positive: str, negative: str) -> tuple[np.ndarray, np.ndarray]:
    """A CSV of ``n_features`` numeric columns followed by a two-valued label."""
    rows = read_rows(path, n_fields=n_features + 1, sep=",")
    return to_float(rows[:, :n_features], path), binary_labels(rows[:, -1], positive, negative, path)


SPAMBASE_FEATURES = (
    [f"word_freq_{w}" for w in (
        "make address all 3d our over remove internet order mail receive will people report addresses free "
        "business email you credit your font 000 money hp hpl george 650 lab labs telnet 857 data 415 85 "
        "technology 1999 parts pm direct cs meeting original project re edu table conference"
    ).split()]
    + [f"char_freq_{c}" for c in ";([!$#"]
    + ["capital_run_length_average", "capital_run_length_longest", "capital_run_length_total"]
)  # fmt: skip


def _parse_spambase(files) -> Parsed:
    X, y = _csv_binary(files[SPAMBASE.path], 57, positive="1", negative="0")
    return Parsed(X, y, SPAMBASE_FEATURES, {"positive_class": "spam (1)", "negative_class": "non-spam (0)"})


def _parse_ionosphere(files) -> Parsed:
    X, y = _csv_binary(files[IONOSPHERE.path], 34, positive="g", negative="b")
    return Parsed(X, y, numbered("x", 34), {"positive_class": "g (good)", "negative_class": "b (bad)"})


def _parse_sonar(files) -> Parsed:
    X, y = _csv_binary(files[SONAR.path], 60, positive="M", negative="R")
    return Parsed(X, y, numbered("band", 60), {"positive_class": "M (mine)", "negative_class": "R (rock)"})


CRX_NUMERIC = (1, 2, 7, 10, 13, 14)  # A2, A3, A8, A11, A14, A15 (0-based columns)
CRX_MISSING = ("?", "N/A")


def _parse_credit(files) -> Parsed:
    path = files[CRX.path]
    rows = read_rows(path, n_fields=16, sep=",")
    complete = ~np.isin(rows, CRX_MISSING).any(axis=1)
    rows = rows[complete]
    blocks, names = [], []
    for j in range(15):
        name = f"A{j + 1}"
        if j in CRX_NUMERIC:
            blocks.append(to_float(rows[:, j : j + 1], path))
            names.append(name)
        else:
            columns, level_names = one_hot(rows[:, j], sorted(set(rows[:, j])), name, path)
            blocks.append(columns)
            names += level_names
    y = binary_labels(rows[:, 15], "+", "-", path)
    meta = {
        "positive_class": "+ (approved)",
        "negative_class": "- (rejected)",
        "n_dropped_missing": int((~complete).sum()),
    }
    return Parsed(np.hstack(blocks), y, names, meta)


# ---------------------------------------------------------------- registry

register(
    DatasetSpec(
        name="boston",
        task="regression",
        description="Boston housing (506 x 13), target MEDV",
        files=(HOUSING,),
        parser=_parse_boston,
        source=f"{UCI}/housing/housing.data",
        citation="Harrison, D. and Rubinfeld, D. L. (1978), J. Environ. Economics & Management 5:81-102; UCI",
        variant="UCI housing.data",
        preprocessing="The 13 inputs as given; target MEDV (median value in $1000s).",
        shape=(506, 13),
    ),
    DatasetSpec(
        name="abalone",
        task="regression",
        description="Abalone age (4177 x 10), target rings",
        files=(ABALONE,),
        parser=_parse_abalone,
        source=f"{UCI}/abalone/abalone.data",
        citation="Nash, W. J. et al. (1994), The Population Biology of Abalone; UCI",
        variant="UCI abalone.data",
        preprocessing="Sex (M/F/I) one-hot encoded into 3 columns, followed by the 7 numeric inputs; target = rings.",
        shape=(4177, 10),
    ),
    DatasetSpec(
        name="house-8l",
        task="regression",
        description="DELVE census house_8L (22784 x 8), target price; stand-in for house-8H",
        files=(HOUSE_8L,),
        fallback_files=(HOUSE_8L_OPENML,),
        parser=_parse_house_8l,
        source="https://www.openml.org/d/218",
        citation="DELVE census-house (US Census 1990); L. Torgo's regression data sets; OpenML 218",
        variant="house_8L (OpenML 218), stand-in for DELVE house-8H",
        preprocessing="The 8 inputs as given; target = price (the ARFF's last attribute).",
        shape=(22784, 8),
        notes="Torgo's ARFF (gzipped) from the mirror; without it OpenML's ARFF is downloaded and "
        "trusted on first use (its target is named price, so the bytes differ).",
    ),
    DatasetSpec(
        name="house-8h",
        task="regression",
        description="DELVE census house-price-8H (22784 x 8), target price; not mirrored",
        files=(DELVE_CENSUS_HOUSE,),
        parser=_parse_house_8h,
        source="https://www.cs.toronto.edu/~delve/data/census-house/desc.html",
        citation="DELVE census-house, prototask house-price-8H (US Census 1990)",
        variant="DELVE house-price-8H",
        preprocessing="The 8 inputs as given; target = price (last column of the prototask table).",
        shape=(22784, 8),
        notes="Not in the mirror: the DELVE archive is downloaded and trusted on first use (no digest is "
        "known offline). Its layout could not be inspected offline; the parser expects a Prototask.data "
        "table under an '8H' folder and says so if it is not there. house-8l is the mirrored stand-in.",
    ),
    DatasetSpec(
        name="spambase",
        task="binary",
        description="Spambase e-mail (4601 x 57), spam = +1",
        files=(SPAMBASE,),
        parser=_parse_spambase,
        source=f"{UCI}/spambase/spambase.data",
        citation="Hopkins, M., Reeber, E., Forman, G. and Suermondt, J. (1999), Spambase; UCI",
        variant="UCI spambase.data",
        preprocessing="The 57 inputs as given; spam (1) = +1, non-spam (0) = -1.",
        shape=(4601, 57),
    ),
    DatasetSpec(
        name="ionosphere",
        task="binary",
        description="Ionosphere radar returns (351 x 34), good = +1",
        files=(IONOSPHERE,),
        parser=_parse_ionosphere,
        source=f"{UCI}/ionosphere/ionosphere.data",
        citation="Sigillito, V. G. et al. (1989), Johns Hopkins APL Technical Digest 10:262-266; UCI",
        variant="UCI ionosphere.data",
        preprocessing="All 34 inputs kept (column 2 is constant 0); g (good) = +1, b (bad) = -1.",
        shape=(351, 34),
    ),
    DatasetSpec(
        name="sonar",
        task="binary",
        description="Sonar mines vs rocks (208 x 60), mine = +1",
        files=(SONAR,),
        parser=_parse_sonar,
        source=f"{UCI}/undocumented/connectionist-bench/sonar/sonar.all-data",
        citation="Gorman, R. P. and Sejnowski, T. J. (1988), Neural Networks 1:75-89; UCI",
        variant="UCI sonar.all-data",
        preprocessing="The 60 inputs as given; M (mine) = +1, R (rock) = -1.",
        shape=(208, 60),
    ),
    DatasetSpec(
        name="credit",
        task="binary",
        description="Credit approval crx (653 x 46 after dropping missing), approved = +1",
        files=(CRX,),
        parser=_parse_credit,
        source=f"{UCI}/credit-screening/crx.data",
        citation="Quinlan, J. R. (1987), Credit Approval; UCI",
        variant="UCI crx.data, complete cases",
        preprocessing="The 37 rows with a missing value ('?') are dropped (690 -> 653, the usual protocol); "
        "the 9 categorical variables are one-hot encoded over the levels present (40 columns) and the 6 "
        "numeric ones kept (15 variables -> 46 columns); + = +1, - = -1.",
        shape=(653, 46),
        notes="The mirror copy writes missing values as 'N/A' instead of '?'; both are treated as missing.",
    ),
)
