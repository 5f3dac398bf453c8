"""The pools of the IDA two-class sets, rebuilt from their UCI sources, realisation 1 or Breiman's generators.

Each builder maps the raw files of one IDA set (:mod:`.raetsch`) to
``(X, y, feature names, metadata)``: the pool whose size is IDA's training plus
test size (:data:`IDA_SIZES`). Realisation 1 of banana, german and titanic is
their pool; the UCI sources are coded and grouped into two classes as each
builder documents (``label_grouping_confirmed`` says whether the grouping is
IDA's); ringnorm, twonorm and waveform are drawn with the fixed seed
:data:`POOL_SEED`.
"""

from __future__ import annotations

import numpy as np

from mkbench.exceptions import DataError

from ._files import BREAST_CANCER, FLARE, HEART, NEW_THYROID, PIMA, SPLICE, raetsch_split_files
from ._readers import binary_labels, class_codes, numbered, read_rows, to_float
from .uci_multiclass import read_segment

#: Seed of the Breiman generators that draw the ringnorm, twonorm and waveform pools.
POOL_SEED = 0
#: (n_train, n_test) of the IDA realisations; the pool is their sum.
IDA_SIZES = {
    "banana": (400, 4900),
    "breast-cancer": (200, 77),
    "diabetis": (468, 300),
    "flare-solar": (666, 400),
    "german": (700, 300),
    "heart": (170, 100),
    "image": (1300, 1010),
    "ringnorm": (400, 7000),
    "splice": (1000, 2175),
    "thyroid": (140, 75),
    "titanic": (150, 2051),
    "twonorm": (400, 7000),
    "waveform": (400, 4600),
}


def _grouping(positive: str, negative: str, confirmed: bool) -> dict:
    return {
        "positive_class": positive,
        "negative_class": negative,
        "label_grouping": f"+1 = {positive}; -1 = {negative}",
        "label_grouping_confirmed": confirmed,
    }


# ---------------------------------------------------------------- pool builders


def _split1_pool(files, *, name: str, n_features: int):
    """Realisation 1 of an IDA set: its training rows, then its test rows, are the whole pool."""
    raw = raetsch_split_files(name)
    blocks, labels = [], []
    for part in ("train", "test"):
        data_path, label_path = files[raw[f"{part}_data"].path], files[raw[f"{part}_labels"].path]
        X = to_float(read_rows(data_path, n_fields=n_features), data_path)
        y = to_float(read_rows(label_path, n_fields=1), label_path).ravel()
        if X.shape[0] != y.size or not np.isin(y, (-1, 1)).all():
            raise DataError(f"{data_path}, {label_path}: {X.shape[0]} rows but {y.size} labels in -1/+1")
        blocks.append(X)
        labels.append(y.astype(np.int64))
    n_train = labels[0].size
    meta = {
        "predefined_splits": [(np.arange(n_train), np.arange(n_train, n_train + labels[1].size))],
        **_grouping("+1 (IDA label)", "-1 (IDA label)", confirmed=True),
    }
    return np.vstack(blocks), np.concatenate(labels), numbered("x", n_features), meta


# Level lists of breast-cancer.names; each attribute is coded by its 1-based position.
BREAST_CANCER_LEVELS = {
    "age": ["10-19", "20-29", "30-39", "40-49", "50-59", "60-69", "70-79", "80-89", "90-99"],
    "menopause": ["lt40", "ge40", "premeno"],
    "tumor-size": ["0-4", "5-9", "10-14", "15-19", "20-24", "25-29", "30-34", "35-39", "40-44", "45-49", "50-54",
                   "55-59"],
    "inv-nodes": ["0-2", "3-5", "6-8", "9-11", "12-14", "15-17", "18-20", "21-23", "24-26", "27-29", "30-32",
                  "33-35", "36-39"],
    "node-caps": ["yes", "no"],
    "deg-malig": ["1", "2", "3"],
    "breast": ["left", "right"],
    "breast-quad": ["left_up", "left_low", "right_up", "right_low", "central"],
    "irradiat": ["yes", "no"],
}  # fmt: skip


def _ordinal_columns(rows: np.ndarray, levels: dict[str, list[str]], path) -> np.ndarray:
    """Column j coded as the 1-based position of its value in the j-th level list."""
    return np.column_stack([class_codes(rows[:, j], lv, path) + 1 for j, lv in enumerate(levels.values())]).astype(
        np.float64
    )


def _breast_cancer_pool(files):
    path = files[BREAST_CANCER.path]
    rows = read_rows(path, n_fields=10, sep=",")
    complete = ~(rows == "?").any(axis=1)
    rows = rows[complete]
    X = _ordinal_columns(rows[:, 1:], BREAST_CANCER_LEVELS, path)
    y = binary_labels(rows[:, 0], "recurrence-events", "no-recurrence-events", path)
    meta = {"n_dropped_missing": int((~complete).sum()), **_grouping("recurrence-events", "no-recurrence-events", True)}
    return X, y, list(BREAST_CANCER_LEVELS), meta


PIMA_FEATURES = [
    "pregnancies", "glucose", "blood_pressure", "skin_thickness", "insulin", "bmi", "diabetes_pedigree", "age",
]  # fmt: skip


def _diabetis_pool(files):
    path = files[PIMA.path]
    rows = read_rows(path, n_fields=9, sep=",")
    y = binary_labels(rows[:, 8], "1", "0", path)
    return to_float(rows[:, :8], path), y, PIMA_FEATURES, _grouping("diabetes (class 1)", "healthy (class 0)", True)


# flare.names: the three letter-coded attributes, coded by 1-based position.
FLARE_LEVELS = {
    "zurich_class": ["A", "B", "C", "D", "E", "F", "H"],
    "largest_spot_size": ["X", "R", "S", "A", "H", "K"],
    "spot_distribution": ["X", "O", "I", "C"],
}
FLARE_NUMERIC = [
    "activity", "evolution", "previous_24h_activity", "historically_complex", "became_complex", "area",
]  # fmt: skip


def _flare_pool(files):
    path = files[FLARE.path]
    rows = read_rows(path, n_fields=13, skip_lines=FLARE.skip_lines)
    coded = _ordinal_columns(rows[:, :3], FLARE_LEVELS, path)
    counts = to_float(rows[:, 10:13], path)  # C, M, X flares in the next 24 h
    X = np.hstack([coded, to_float(rows[:, 3:9], path)])  # column 9 (area of largest spot) is constant
    y = np.where(counts.sum(axis=1) > 0, 1, -1)
    return X, y, list(FLARE_LEVELS) + FLARE_NUMERIC, _grouping("any C, M or X flare", "no flare", False)


HEART_FEATURES = [
    "age", "sex", "chest_pain_type", "resting_blood_pressure", "serum_cholesterol", "fasting_blood_sugar",
    "resting_ecg", "max_heart_rate", "exercise_angina", "oldpeak", "slope", "major_vessels", "thal",
]  # fmt: skip


def _heart_pool(files):
    path = files[HEART.path]
    rows = read_rows(path, n_fields=14)
    y = binary_labels(rows[:, 13], "2", "1", path)
    return to_float(rows[:, :13], path), y, HEART_FEATURES, _grouping("presence (2)", "absence (1)", True)


IMAGE_POSITIVE = ("sky", "foliage", "grass")
IMAGE_NEGATIVE = ("brickface", "cement", "window", "path")
IMAGE_DROPPED = "region-pixel-count"


def _image_pool(files):
    X, labels, names = read_segment(files)
    keep = [j for j, n in enumerate(names) if n != IMAGE_DROPPED]
    y = binary_labels(labels, IMAGE_POSITIVE, IMAGE_NEGATIVE, "segment files")
    grouping = _grouping("natural: sky, foliage, grass", "man-made: brickface, cement, window, path", False)
    return X[:, keep], y, [names[j] for j in keep], grouping


NUCLEOTIDES = np.array(list("ACGT"))
SPLICE_LENGTH = 60


def _splice_pool(files, *, coding: str = "ordinal"):
    """The UCI splice pool: 60 nucleotides per row, ``coding`` "ordinal" (A=1, C=2, G=3, T=4: 60
    inputs) or "one-hot" (one indicator per position and nucleotide: 240 inputs)."""
    path = files[SPLICE.path]
    rows = read_rows(path, n_fields=3, sep=",")
    if any(len(seq) != SPLICE_LENGTH for seq in rows[:, 2]):
        raise DataError(f"{path}: every sequence must have {SPLICE_LENGTH} nucleotides")
    bases = np.array([list(seq) for seq in rows[:, 2]])
    plain = np.isin(bases, NUCLEOTIDES).all(axis=1)  # drop rows with ambiguity codes D, N, R, S
    positions = [f"pos{p:+d}" for p in [*range(-30, 0), *range(1, 31)]]
    if coding == "one-hot":
        X = (bases[plain][:, :, None] == NUCLEOTIDES).reshape(int(plain.sum()), -1).astype(np.float64)
        names = [f"{position}={base}" for position in positions for base in NUCLEOTIDES]
    else:
        X = (np.searchsorted(NUCLEOTIDES, bases[plain]) + 1).astype(np.float64)
        names = positions
    y = binary_labels(rows[plain, 0], ("EI", "IE"), "N", path)
    meta = {"n_dropped_ambiguous": int((~plain).sum()), **_grouping("EI or IE (a boundary)", "N (neither)", False)}
    return X, y, names, meta


THYROID_FEATURES = ["T3_resin_uptake", "total_thyroxin", "total_triiodothyronine", "TSH", "TSH_diff"]


def _thyroid_pool(files):
    path = files[NEW_THYROID.path]
    rows = read_rows(path, n_fields=6, sep=",")
    y = binary_labels(rows[:, 0], ("2", "3"), "1", path)
    grouping = _grouping("hyper- or hypothyroid (2, 3)", "normal (1)", False)
    return to_float(rows[:, 1:], path), y, THYROID_FEATURES, grouping


def _generated_pool(files, *, name: str):
    """Draw the pool (size = IDA train + test) from Breiman's generator with :data:`POOL_SEED`."""
    from . import breiman

    n = sum(IDA_SIZES[name])
    X, classes = getattr(breiman, f"make_{name}")(n, random_state=POOL_SEED)
    if name == "waveform":
        y = np.where(classes == 0, 1, -1)
        grouping = _grouping("wave class 0", "wave classes 1 and 2", False)
    else:
        y = np.where(classes == 1, 1, -1)
        grouping = _grouping("generator class 1", "generator class 0", True)
    return X, y, numbered("x", X.shape[1]), {"pool_seed": POOL_SEED, **grouping}
