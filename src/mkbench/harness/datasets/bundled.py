"""Data sets bundled with scikit-learn (no download) and the non-public HIV QSAR set."""

from __future__ import annotations

import numpy as np

from ._registry import DatasetSpec, Parsed, register


def _sklearn_parser(loader: str, task: str, **kwargs):
    """A parser that calls ``sklearn.datasets.<loader>(**kwargs)``."""

    def parse(files) -> Parsed:
        import sklearn.datasets

        bunch = getattr(sklearn.datasets, loader)(**kwargs)
        names = [str(n) for n in bunch.feature_names] if "feature_names" in bunch else []
        names = names or [f"pixel{i}" for i in range(1, bunch.data.shape[1] + 1)]
        if task == "regression":
            return Parsed(bunch.data, bunch.target.astype(np.float64), names, {})
        classes = [str(c) for c in bunch.target_names]
        if task == "multiclass":
            return Parsed(bunch.data, bunch.target, names, {"classes": classes})
        # breast_cancer: target 0 = malignant, 1 = benign
        meta = {"positive_class": classes[0], "negative_class": classes[1]}
        return Parsed(bunch.data, np.where(bunch.target == 0, 1, -1), names, meta)

    return parse


_SKLEARN = "scikit-learn (sklearn.datasets), bundled copy"
_UCI = "https://archive.ics.uci.edu/ml/datasets"

register(
    DatasetSpec(
        name="iris",
        task="multiclass",
        description="Fisher's iris (150 x 4), 3 classes; bundled with scikit-learn",
        files=(),
        parser=_sklearn_parser("load_iris", "multiclass"),
        source=f"{_UCI}/iris",
        citation="Fisher, R. A. (1936), Annals of Eugenics 7:179-188",
        variant=_SKLEARN,
        preprocessing="The 4 inputs as given; classes setosa, versicolor, virginica -> codes 0..2.",
        shape=(150, 4),
    ),
    DatasetSpec(
        name="wine",
        task="multiclass",
        description="Wine recognition (178 x 13), 3 classes; bundled with scikit-learn",
        files=(),
        parser=_sklearn_parser("load_wine", "multiclass"),
        source=f"{_UCI}/wine",
        citation="Forina, M. et al. (1991), PARVUS; UCI",
        variant=_SKLEARN,
        preprocessing="The 13 inputs as given; cultivars class_0..class_2 -> codes 0..2.",
        shape=(178, 13),
    ),
    DatasetSpec(
        name="sk-digits",
        task="multiclass",
        description="Optical digits 8x8 (1797 x 64), 10 classes; bundled with scikit-learn",
        files=(),
        parser=_sklearn_parser("load_digits", "multiclass"),
        source=f"{_UCI}/optical+recognition+of+handwritten+digits",
        citation="Alpaydin, E. and Kaynak, C. (1998), UCI optdigits (test part)",
        variant=_SKLEARN,
        preprocessing="The 64 pixel counts (0..16) as given, not rescaled; digits 0..9 as codes.",
        shape=(1797, 64),
    ),
    DatasetSpec(
        name="sk-diabetes",
        task="regression",
        description="Diabetes progression (442 x 10), bundled with scikit-learn",
        files=(),
        parser=_sklearn_parser("load_diabetes", "regression", scaled=False),
        source="https://www4.stat.ncsu.edu/~boos/var.select/diabetes.html",
        citation="Efron, B., Hastie, T., Johnstone, I. and Tibshirani, R. (2004), Annals of Statistics 32(2)",
        variant=_SKLEARN + ", unscaled (scaled=False)",
        preprocessing="The 10 inputs in their original units (scikit-learn's scaled=False); target = "
        "disease progression after one year.",
        shape=(442, 10),
    ),
    DatasetSpec(
        name="sk-breast-cancer",
        task="binary",
        description="Wisconsin diagnostic breast cancer WDBC (569 x 30), malignant = +1",
        files=(),
        parser=_sklearn_parser("load_breast_cancer", "binary"),
        source=f"{_UCI}/Breast+Cancer+Wisconsin+(Diagnostic)",
        citation="Street, W. N., Wolberg, W. H. and Mangasarian, O. L. (1993), WDBC; UCI",
        variant=_SKLEARN,
        preprocessing="The 30 inputs as given; malignant = +1 (212), benign = -1 (357).",
        shape=(569, 30),
    ),
    DatasetSpec(
        name="hiv-qsar",
        task="regression",
        description="MARK's HIV QSAR set (64 x 230), regression; data not public",
        files=(),
        parser=None,
        source="http://www.drugmining.com (DDASSL project, RPI), as cited by MARK (KDD 2002), section 4",
        citation="Bennett, K. P., Momma, M. and Embrechts, M. J. (2002), MARK, Proc. KDD",
        variant="not available",
        preprocessing="None: the data cannot be obtained.",
        shape=(64, 230),
        notes="the HIV QSAR data (reverse-transcriptase inhibition, 64 x 230) used by MARK are not publicly "
        "available and not in the mirror, so its MARK results cannot be reproduced; leave it out of the "
        "configuration.",
        public=False,
    ),
)
