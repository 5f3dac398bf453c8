"""UCI, StatLog and LIBSVM tables of the multiclass sets: glass, vehicle, DNA, vowel, image segmentation.

The regression and binary sets are in :mod:`.uci`; the IDA two-class pools built
from some of the same files (image, from :func:`read_segment`) are in :mod:`.raetsch`.
"""

from __future__ import annotations

import numpy as np

from mkbench.exceptions import DataError

from ._files import (
    DNA_CSV,
    DNA_LIBSVM_TEST,
    DNA_LIBSVM_TRAIN,
    GLASS,
    SEGMENT_FILES,
    SEGMENT_UCI_FILES,
    UCI,
    VEHICLE_FILES,
    VOWEL,
)
from ._readers import class_codes, numbered, read_arff, read_bytes, read_rows, split_rows, to_float
from ._registry import DatasetSpec, Parsed, register
from .uci import UCI_PAGE


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
        return Parsed(
            X, class_codes(rows[:, -1], DNA_CLASSES, path), numbered("V", DNA_FEATURES), {"classes": list(DNA_CLASSES)}
        )
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
    blocks, label_blocks = [], []
    for raw in SEGMENT_UCI_FILES:
        path = files[raw.path]
        lines = read_bytes(path).decode("latin-1").splitlines()
        header = next((ln for ln in lines if ln.upper().startswith("REGION-CENTROID-COL")), None)
        body = [ln for ln in lines if ln.split(",", 1)[0].strip().lower() in SEGMENT_CLASSES]
        if header is None or not body:
            raise DataError(f"{path}: not UCI's segmentation file (no header or no data rows)")
        rows = split_rows("\n".join(body), path, n_fields=SEGMENT_FEATURES + 1, sep=",")
        blocks.append(to_float(rows[:, 1:], path))
        label_blocks.append(np.char.lower(rows[:, 0]))
        names = [name.strip().lower() for name in header.split(",")]  # the last file's header names the columns
    return np.vstack(blocks), np.concatenate(label_blocks), names


def _parse_segment(files) -> Parsed:
    X, labels, names = read_segment(files)
    return Parsed(X, class_codes(labels, SEGMENT_CLASSES, "segment"), names, {"classes": list(SEGMENT_CLASSES)})


# ---------------------------------------------------------------- registry

register(
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
