"""The 13 two-class IDA benchmark sets of Rätsch et al., rebuilt as pools.

Only realisation 1 of banana, german and titanic survives in the mirror; the
other pools are rebuilt from their UCI sources (row counts and dimensions
equal IDA's) or drawn from Breiman's generators with the fixed seed
:data:`~mkbench.harness.datasets.raetsch_pools.POOL_SEED` (the builders are in
:mod:`.raetsch_pools`). IDA's own two-class groupings and encodings of nominal
attributes were not found offline: the ones used here are documented in each
spec and flagged ``label_grouping_confirmed=False`` in the metadata where they
are assumptions.

When ``raetsch/benchmarks.mat`` (the IDA sets repackaged by G. Cawley, see
:data:`~mkbench.harness.datasets._files.RAETSCH_BENCHMARKS_MAT`) is in the cache or the
mirror, every IDA set is loaded from it instead, with its 100 (20 for image
and splice) predefined realisations; ``metadata["variant"]`` says which.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import cast

import numpy as np

from mkbench.exceptions import DataError

from ._files import (
    BREAST_CANCER,
    FLARE,
    HEART,
    NEW_THYROID,
    PIMA,
    RAETSCH_BENCHMARKS_MAT,
    RAETSCH_REPO,
    SEGMENT_FILES,
    SEGMENT_UCI_FILES,
    SPLICE,
    UCI,
    raetsch_split_files,
)
from ._readers import numbered
from ._registry import DatasetSpec, Parsed, register
from .raetsch_pools import (
    IDA_SIZES,
    POOL_SEED,
    _breast_cancer_pool,
    _diabetis_pool,
    _flare_pool,
    _generated_pool,
    _heart_pool,
    _image_pool,
    _splice_pool,
    _split1_pool,
    _thyroid_pool,
)

IDA_SOURCE = "http://ida.first.fraunhofer.de/projects/bench/benchmarks.htm"
IDA_CITATION = (
    "Rätsch, G., Onoda, T. and Müller, K.-R. (2001), Soft margins for AdaBoost, Machine Learning 42(3):287-320"
)


def _parse_ida(files, *, name: str, build) -> Parsed:
    """``benchmarks.mat`` when available, else the pool rebuilt by ``build(files)``."""
    if RAETSCH_BENCHMARKS_MAT.path in files:
        return _from_benchmarks_mat(files[RAETSCH_BENCHMARKS_MAT.path], name)
    return Parsed(*_build_with_sizes(build, files, name))


def _build_with_sizes(build, files, name: str) -> tuple:
    """``build(files)``'s (X, y, names, metadata), the metadata with IDA's sizes of ``name``."""
    X, y, names, meta = build(files)
    return X, y, names, {"ida_sizes": IDA_SIZES[name], **meta}


def _from_benchmarks_mat(path, name: str) -> Parsed:
    """IDA set ``name`` from ``benchmarks.mat``: one struct with fields x, t, train, test
    (one realisation per row of 1-based indices into x)."""
    from scipy.io import loadmat

    key = name.replace("-", "_")
    try:
        struct = loadmat(path, variable_names=[key])[key][0, 0]
        x, t, train, test = (np.asarray(struct[f]) for f in ("x", "t", "train", "test"))
    except (OSError, ValueError, KeyError, IndexError, TypeError, NotImplementedError) as exc:
        raise DataError(f"{path}: no readable IDA struct {key!r} with fields x, t, train, test ({exc})") from exc
    X = np.asarray(x, dtype=np.float64)
    labels = np.asarray(t, dtype=np.float64).ravel()
    train, test = np.atleast_2d(train), np.atleast_2d(test)
    if X.ndim != 2 or labels.size != X.shape[0] or not np.isin(labels, (-1, 1)).all():
        raise DataError(f"{path}: {key}.x {X.shape} and {key}.t ({labels.size} labels in -1/+1) do not match")
    if min(train.min(), test.min()) < 1 or max(train.max(), test.max()) > X.shape[0]:
        raise DataError(f"{path}: {key}.train/test indices are outside 1..{X.shape[0]}")
    splits = [(tr.astype(np.int64) - 1, te.astype(np.int64) - 1) for tr, te in zip(train, test, strict=True)]
    meta = {
        "variant": f"IDA benchmarks.mat ({len(splits)} predefined realisations)",
        "ida_sizes": (train.shape[1], test.shape[1]),
        "predefined_splits": splits,
        "positive_class": "+1 (IDA label)",
        "negative_class": "-1 (IDA label)",
        "label_grouping": "IDA's own",
        "label_grouping_confirmed": True,
    }
    return Parsed(X, labels.astype(np.int64), numbered("x", X.shape[1]), meta)


# ---------------------------------------------------------------- registry

_MAT_NOTE = (
    "If raetsch/benchmarks.mat is in the cache or the mirror, IDA's own pool and its predefined "
    "realisations are loaded from it instead (metadata['variant'] says so)."
)


def _ida(name, *, description, build, files, shape, variant, preprocessing, citation, notes="", fallback=()):
    return DatasetSpec(
        name=name,
        task="binary",
        description=f"IDA {name} ({shape[0]} x {shape[1]}; {IDA_SIZES[name][0]}/{IDA_SIZES[name][1]}), {description}",
        files=(*files, RAETSCH_BENCHMARKS_MAT),
        fallback_files=fallback,
        parser=partial(_parse_ida, name=name, build=build),
        source=IDA_SOURCE,
        citation=f"{IDA_CITATION}; {citation}",
        variant=variant,
        preprocessing=preprocessing,
        shape=shape,
        notes=f"{notes} {_MAT_NOTE}".strip(),
    )


def _split1(name: str, n_features: int, n_pool: int, what: str) -> DatasetSpec:
    return _ida(
        name,
        description=what,
        build=partial(_split1_pool, name=name, n_features=n_features),
        files=tuple(raetsch_split_files(name).values()),
        fallback=(dataclasses.replace(RAETSCH_BENCHMARKS_MAT, optional=False),),
        shape=(n_pool, n_features),
        variant="IDA realisation 1 (train + test = the pool)",
        preprocessing="IDA's preprocessed inputs as given; labels as given (-1/+1); predefined_splits holds "
        "realisation 1 (indices into the pool).",
        citation=f"IDA realisation-1 files (copy in lminvielle/mom-kde); {RAETSCH_REPO}",
        notes="Realisations 2..100 are not available offline.",
    )


_UNCONFIRMED = "IDA's two-class grouping is UNCONFIRMED: "

register(
    _split1("banana", 2, 5300, "two banana-shaped classes"),
    _split1("german", 20, 1000, "German credit"),
    _split1("titanic", 3, 2201, "Titanic survival"),
    _ida(
        "breast-cancer",
        description="Ljubljana breast cancer recurrence",
        build=_breast_cancer_pool,
        files=(BREAST_CANCER,),
        shape=(277, 9),
        variant="UCI breast-cancer.data, complete cases (pool rebuilt)",
        preprocessing="The 9 rows with '?' are dropped (286 -> 277); each nominal/interval attribute is coded "
        "by its 1-based position in the level list of breast-cancer.names; recurrence-events = +1.",
        citation=f"Zwitter, M. and Soklic, M. (1988), University Medical Centre Ljubljana; UCI {UCI}",
        notes="IDA's numeric coding of the nominal attributes is unknown; the coding here is an assumption.",
    ),
    _ida(
        "diabetis",
        description="Pima Indians diabetes",
        build=_diabetis_pool,
        files=(PIMA,),
        shape=(768, 8),
        variant="UCI pima-indians-diabetes.data (pool rebuilt)",
        preprocessing="The 8 inputs as given; class 1 (diabetes) = +1.",
        citation="Smith, J. W. et al. (1988), Proc. Symp. Computer Applications in Medical Care; UCI",
    ),
    _ida(
        "flare-solar",
        description="solar flares",
        build=_flare_pool,
        files=(FLARE,),
        shape=(1066, 9),
        variant="UCI flare.data2 (pool rebuilt)",
        preprocessing="The header line is skipped; the 3 letter-coded attributes are coded by their 1-based "
        "position in flare.names' lists, the constant attribute 10 (area of largest spot) is dropped "
        "(10 -> 9 inputs); +1 = at least one C, M or X flare in the next 24 h (201 of 1066).",
        citation="Bradshaw, G. (1989), Solar Flare data; UCI",
        notes=f"{_UNCONFIRMED}any-flare vs none is assumed; IDA's coding of the letter attributes is unknown.",
    ),
    _ida(
        "heart",
        description="StatLog heart disease",
        build=_heart_pool,
        files=(HEART,),
        shape=(270, 13),
        variant="StatLog heart.dat (pool rebuilt)",
        preprocessing="The 13 inputs as given; presence (2) = +1, absence (1) = -1.",
        citation="StatLog (Michie, Spiegelhalter and Taylor, 1994), heart; UCI",
    ),
    _ida(
        "image",
        description="image segmentation, two groups of classes",
        build=_image_pool,
        files=SEGMENT_FILES,
        fallback=SEGMENT_UCI_FILES,
        shape=(2310, 18),
        variant="Weka/UCI image segmentation, 2310 rows (pool rebuilt)",
        preprocessing="The constant region-pixel-count is dropped (19 -> 18 inputs); +1 = sky, foliage, grass "
        "(990), -1 = brickface, cement, window, path (1320).",
        citation="Brodley, C. (1990), Image Segmentation; UCI",
        notes=f"{_UNCONFIRMED}natural vs man-made classes is an assumption.",
    ),
    _ida(
        "ringnorm",
        description="Breiman's ringnorm",
        build=partial(_generated_pool, name="ringnorm"),
        files=(),
        shape=(7400, 20),
        variant=f"Breiman ringnorm generator, pool of 7400 drawn with seed {POOL_SEED}",
        preprocessing="Drawn by mkbench.harness.datasets.breiman.make_ringnorm; generator class 1 = +1.",
        citation="Breiman, L. (1996), Bias, variance and arcing classifiers, TR 460, UC Berkeley",
    ),
    _ida(
        "splice",
        description="splice junctions",
        build=_splice_pool,
        files=(SPLICE,),
        shape=(3175, 60),
        variant="UCI splice.data without ambiguous sequences (pool rebuilt)",
        preprocessing="The 15 sequences with ambiguity codes (D, N, R, S) are dropped (3190 -> 3175); "
        "nucleotides coded A=1, C=2, G=3, T=4; +1 = EI or IE (1527), -1 = N (1648).",
        citation="Towell, G., Noordewier, M. and Shavlik, J. (1992), splice-junction gene sequences; UCI",
        notes=f"{_UNCONFIRMED}boundary (EI+IE) vs none is assumed; IDA's nucleotide coding is unknown.",
    ),
    DatasetSpec(  # the same pool, one-hot: the coding ablation of CGEns Table II (always rebuilt from UCI)
        name="splice-onehot",
        task="binary",
        description=f"IDA splice rebuilt, nucleotides one-hot (3175 x 240; {IDA_SIZES['splice'][0]}/"
        f"{IDA_SIZES['splice'][1]}), splice junctions",
        files=(SPLICE,),
        parser=lambda files: Parsed(*_build_with_sizes(partial(_splice_pool, coding="one-hot"), files, "splice")),
        source=cast(str, SPLICE.url),  # a UCI file: it has a URL
        citation="Towell, G., Noordewier, M. and Shavlik, J. (1992), splice-junction gene sequences; UCI",
        variant="UCI splice.data without ambiguous sequences, the rows and labels of splice",
        preprocessing="As splice (15 ambiguous sequences dropped, +1 = EI or IE), each nucleotide coded by "
        "four indicators (A, C, G, T) in place of the ordinal A=1 .. T=4.",
        shape=(3175, 240),
        notes="An ablation of splice's unstated coding: the same rows, labels and IDA sizes, so the same seeded "
        "splits; never read from IDA's benchmarks.mat, whose coding is IDA's.",
    ),
    _ida(
        "thyroid",
        description="thyroid function",
        build=_thyroid_pool,
        files=(NEW_THYROID,),
        shape=(215, 5),
        variant="UCI new-thyroid.data (pool rebuilt)",
        preprocessing="The 5 inputs as given; +1 = hyper- or hypothyroid (65), -1 = normal (150).",
        citation="Quinlan, J. R. et al., thyroid disease (new-thyroid, Coomans et al.); UCI",
        notes=f"{_UNCONFIRMED}normal vs hyper+hypo is assumed.",
    ),
    _ida(
        "twonorm",
        description="Breiman's twonorm",
        build=partial(_generated_pool, name="twonorm"),
        files=(),
        shape=(7400, 20),
        variant=f"Breiman twonorm generator, pool of 7400 drawn with seed {POOL_SEED}",
        preprocessing="Drawn by mkbench.harness.datasets.breiman.make_twonorm; generator class 1 = +1.",
        citation="Breiman, L. (1996), Bias, variance and arcing classifiers, TR 460, UC Berkeley",
    ),
    _ida(
        "waveform",
        description="Breiman's waveform, class 0 vs 1+2",
        build=partial(_generated_pool, name="waveform"),
        files=(),
        shape=(5000, 21),
        variant=f"Breiman waveform generator (21 attributes), pool of 5000 drawn with seed {POOL_SEED}",
        preprocessing="Drawn by mkbench.harness.datasets.breiman.make_waveform; wave class 0 = +1, classes 1 and 2 = -1.",
        citation="Breiman, L., Friedman, J., Olshen, R. and Stone, C. (1984), CART, p. 49",
        notes=f"{_UNCONFIRMED}class 0 vs classes 1+2 is assumed.",
    ),
)
