"""UCI, StatLog, DELVE and OpenML tables: the regression, binary and multiclass sets.

The IDA two-class pools built from some of the same files are in :mod:`.raetsch`.
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
    DNA_CSV,
    DNA_LIBSVM_TEST,
    DNA_LIBSVM_TRAIN,
    GLASS,
    HOUSE_8L,
    HOUSE_8L_OPENML,
    HOUSING,
    IONOSPHERE,
    SEGMENT_FILES,
    SEGMENT_UCI_FILES,
    SONAR,
    SPAMBASE,
    UCI,
    VEHICLE_FILES,
    VOWEL,
)
from ._readers import (
    binary_labels,
    class_codes,
    gunzip,
    numbered,
    one_hot,
    read_arff,
    read_bytes,
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
                m
                for m in members
                if "8h" in m.name.lower() and PurePosixPath(m.name).name.startswith("Prototask.data")
            ]
            if len(tables) != 1:
                raise DataError(
                    f"{path}: expected one house-price-8H table (a Prototask.data under an '8H' folder) in the "
                    f"DELVE archive, found {len(tables)}; the archive layout could not be checked offline. "
                    f"Its files: {[m.name for m in members][:30]}. Use 'house-8l' (OpenML 218) meanwhile."
                )
            member = tables[0]
            content = gunzip(tar.extractfile(member).read(), f"{path}:{member.name}")
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


# ---------------------------------------------------------------- multiclass

GLASS_CLASSES = ("1", "2", "3", "5", "6", "7")
GLASS_FEATURES = ["RI", "Na", "Mg", "Al", "Si", "K", "Ca", "Ba", "Fe"]


def _parse_glass(files) -> Parsed:
    path = files[GLASS.path]
    rows = read_rows(path, n_fields=11, sep=",")
    y = class_codes(rows[:, 10], GLASS_CLASSES, path)
    return Parsed(to_float(rows[:, 1:10], path), y, GLASS_FEATURES, {"classes": list(GLASS_CLASSES)})


VEHICLE_CLASSES = ("bus", "opel", "saab", "van")
VEHICLE_FEATURES = [
    "COMPACTNESS", "CIRCULARITY", "DISTANCE_CIRCULARITY", "RADIUS_RATIO", "PR.AXIS_ASPECT_RATIO",
    "MAX.LENGTH_ASPECT_RATIO", "SCATTER_RATIO", "ELONGATEDNESS", "PR.AXIS_RECTANGULARITY",
    "MAX.LENGTH_RECTANGULARITY", "SCALED_VARIANCE_MAJOR", "SCALED_VARIANCE_MINOR",
    "SCALED_RADIUS_OF_GYRATION", "SKEWNESS_ABOUT_MAJOR", "SKEWNESS_ABOUT_MINOR",
    "KURTOSIS_ABOUT_MAJOR", "KURTOSIS_ABOUT_MINOR", "HOLLOWS_RATIO",
]  # fmt: skip


def _parse_vehicle(files) -> Parsed:
    parts = [(files[raw.path], read_rows(files[raw.path], n_fields=19)) for raw in VEHICLE_FILES]
    X = np.vstack([to_float(rows[:, :18], path) for path, rows in parts])
    y = np.concatenate([class_codes(rows[:, 18], VEHICLE_CLASSES, path) for path, rows in parts])
    return Parsed(X, y, VEHICLE_FEATURES, {"classes": list(VEHICLE_CLASSES)})


DNA_CLASSES = ("ei", "ie", "n")  # StatLog codes 1, 2, 3
DNA_FEATURES = 180


def _parse_dna(files) -> Parsed:
    if DNA_CSV.path in files:
        path = files[DNA_CSV.path]
        rows = np.char.strip(read_rows(path, n_fields=DNA_FEATURES + 1, sep=",", skip_lines=1), '"')
        X = to_float(rows[:, :DNA_FEATURES], path)
        return Parsed(X, class_codes(rows[:, -1], DNA_CLASSES, path), numbered("V", DNA_FEATURES), {"classes": list(DNA_CLASSES)})
    from sklearn.datasets import load_svmlight_files

    paths = [files[DNA_LIBSVM_TRAIN.path], files[DNA_LIBSVM_TEST.path]]
    try:
        X_train, y_train, X_test, y_test = load_svmlight_files(paths, n_features=DNA_FEATURES)
    except ValueError as exc:
        raise DataError(f"{paths}: not readable LIBSVM files with {DNA_FEATURES} features ({exc})") from exc
    codes = np.concatenate([y_train, y_test])
    if not np.isin(codes, (1, 2, 3)).all():
        raise DataError(f"{paths}: labels must be 1, 2, 3 (ei, ie, n), got {np.unique(codes)[:5]}")
    n_train = X_train.shape[0]
    return Parsed(
        np.vstack([X_train.toarray(), X_test.toarray()]),
        codes.astype(np.int64) - 1,
        numbered("V", DNA_FEATURES),
        {
            "classes": list(DNA_CLASSES),
            "official_split": {"train": np.arange(n_train), "test": np.arange(n_train, codes.size)},
        },
    )


def _parse_vowel(files) -> Parsed:
    path = files[VOWEL.path]
    # UCI's file is whitespace-separated; the mirror copy also has commas.
    rows = split_rows(read_bytes(path).decode("latin-1").replace(",", " "), path, n_fields=14)
    flag = rows[:, 0]
    if not np.isin(flag, ("0", "1")).all():
        raise DataError(f"{path}: the train/test flag (column 1) must be 0 or 1")
    classes = [str(k) for k in range(11)]
    meta = {
        "classes": classes,
        "official_split": {"train": np.flatnonzero(flag == "0"), "test": np.flatnonzero(flag == "1")},
    }
    return Parsed(to_float(rows[:, 3:13], path), class_codes(rows[:, 13], classes, path), numbered("x", 10), meta)


SEGMENT_CLASSES = ("brickface", "sky", "foliage", "cement", "window", "path", "grass")
SEGMENT_FEATURES = 19


def read_segment(files) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The 2310 image-segmentation rows: inputs, class names, feature names.

    From the Weka ARFF pair when present, else from UCI's segmentation.data/.test.
    """
    if SEGMENT_FILES[0].path in files:
        parts = [read_arff(files[raw.path]) for raw in SEGMENT_FILES]
        names = parts[0][1]
        X = np.vstack([np.column_stack([data[n].astype(np.float64) for n in names[:-1]]) for data, _ in parts])
        labels = np.concatenate([np.char.decode(data[names[-1]].astype(bytes)) for data, _ in parts])
        return X, np.char.lower(labels), names[:-1]
    blocks, labels = [], []
    for raw in SEGMENT_UCI_FILES:
        path = files[raw.path]
        lines = read_bytes(path).decode("latin-1").splitlines()
        header = next((ln for ln in lines if ln.upper().startswith("REGION-CENTROID-COL")), None)
        body = [ln for ln in lines if ln.split(",", 1)[0].strip().lower() in SEGMENT_CLASSES]
        if header is None or not body:
            raise DataError(f"{path}: not UCI's segmentation file (no header or no data rows)")
        rows = split_rows("\n".join(body), path, n_fields=SEGMENT_FEATURES + 1, sep=",")
        blocks.append(to_float(rows[:, 1:], path))
        labels.append(np.char.lower(rows[:, 0]))
    names = [name.strip().lower() for name in header.split(",")]
    return np.vstack(blocks), np.concatenate(labels), names


def _parse_segment(files) -> Parsed:
    X, labels, names = read_segment(files)
    return Parsed(X, class_codes(labels, SEGMENT_CLASSES, "segment"), names, {"classes": list(SEGMENT_CLASSES)})


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
        preprocessing="Sex (M/F/I) one-hot encoded into 3 columns, followed by the 7 numeric inputs; "
        "target = rings.",
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
    DatasetSpec(
        name="glass",
        task="multiclass",
        description="Glass identification (214 x 9), 6 classes",
        files=(GLASS,),
        parser=_parse_glass,
        source=f"{UCI}/glass/glass.data",
        citation="German, B. (1987), Glass Identification; UCI",
        variant="UCI glass.data",
        preprocessing="The Id column is dropped; the 9 oxide inputs as given; types 1,2,3,5,6,7 -> codes 0..5.",
        shape=(214, 9),
    ),
    DatasetSpec(
        name="vehicle",
        task="multiclass",
        description="StatLog vehicle silhouettes (846 x 18), 4 classes",
        files=VEHICLE_FILES,
        parser=_parse_vehicle,
        source=f"{UCI}/statlog/vehicle/",
        citation="Siebert, J. P. (1987), Turing Institute; StatLog (Michie, Spiegelhalter and Taylor, 1994); UCI",
        variant="StatLog vehicle, the 9 part files xaa..xai concatenated in order",
        preprocessing="The 18 integer inputs as given; classes bus, opel, saab, van -> codes 0..3.",
        shape=(846, 18),
    ),
    DatasetSpec(
        name="dna",
        task="multiclass",
        description="StatLog DNA splice junctions (3186 x 180 binary), 3 classes",
        files=(DNA_CSV,),
        fallback_files=(DNA_LIBSVM_TRAIN, DNA_LIBSVM_TEST),
        parser=_parse_dna,
        source="https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass.html#dna",
        citation="StatLog DNA (Michie, Spiegelhalter and Taylor, 1994), from the UCI splice-junction data",
        variant="StatLog DNA (180 binary indicators)",
        preprocessing="The 180 0/1 indicators as given; classes ei, ie, n -> codes 0..2.",
        shape=(3186, 180),
        notes="The mirror has R mlbench::DNA as CSV (mlbench's row order, no train/test split); without "
        "it the canonical LIBSVM dna.scale (2000) + dna.scale.t (1186) are downloaded, trusted on first "
        "use, and their official split is recorded. metadata['raw_files'] tells which was used.",
    ),
    DatasetSpec(
        name="vowel",
        task="multiclass",
        description="Deterding vowel recognition (990 x 10), 11 classes, official 528/462 split",
        files=(VOWEL,),
        parser=_parse_vowel,
        source=f"{UCI}/undocumented/connectionist-bench/vowel/vowel-context.data",
        citation="Deterding, D. H. (1989), PhD thesis, University of Cambridge; UCI",
        variant="UCI vowel-context.data",
        preprocessing="The 10 inputs as given (the train/test flag, speaker and sex columns are dropped); "
        "class 0..10 kept as codes; the flag gives official_split (528 train, 462 test).",
        shape=(990, 10),
    ),
    DatasetSpec(
        name="segment",
        task="multiclass",
        description="Image segmentation (2310 x 19), 7 classes x 330",
        files=SEGMENT_FILES,
        fallback_files=SEGMENT_UCI_FILES,
        parser=_parse_segment,
        source=f"{UCI_PAGE}/Image+Segmentation",
        citation="Brodley, C. (1990), Vision Group, University of Massachusetts; UCI",
        variant="Weka ARFF pair segment-challenge + segment-test (= UCI/StatLog segment, 2310 rows)",
        preprocessing="All 19 inputs kept (region-pixel-count is constant 9); classes in ARFF declaration "
        "order brickface, sky, foliage, cement, window, path, grass -> codes 0..6.",
        shape=(2310, 19),
        notes="Without the mirror, UCI's segmentation.data + segmentation.test are downloaded and trusted "
        "on first use (row order differs).",
    ),
)
