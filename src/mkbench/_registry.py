"""The one registry of the estimators: method names (the workflow's ``estimator:`` keys) -> classes.

Each entry is the dotted path ``module:Class`` of a scikit-learn estimator, imported
only when used, so that ``import mkbench`` stays light. A workflow config may also name
any estimator by such a path (a user's own method, :func:`estimator_class`). ``mkbench.__all__`` (the
lazily loaded estimators), the workflow's methods
(:mod:`mkbench.harness.methods`) and the bad-input tests all derive from it.
"""

from __future__ import annotations

import importlib

from .exceptions import UnknownNameError

__all__ = ["EXPORTED", "METHODS", "estimator_class", "is_import_path"]

METHODS: dict[str, str] = {
    "svr": "mkbench.estimators:SelectedSVR",
    "krr": "mkbench.estimators:SelectedKernelRidge",
    "krr-eq8": "mkbench.estimators:SelectedKernelColumnRidge",  # KRR of MARK eq. 8 ("krr": scikit-learn's)
    "svc": "mkbench.estimators:SelectedSVC",
    "cgboost": "mkbench.estimators:CGBoostClassifier",
    "cgboost-regressor": "mkbench.estimators:CGBoostRegressor",
    "mark": "mkbench.estimators:MARKRegressor",
    "ssmk": "mkbench.estimators:SSMKClassifier",
    "silp": "mkbench.estimators:SILPClassifier",
    "simplemkl": "mkbench.estimators:SimpleMKLClassifier",
    "cgens": "mkbench.estimators:CGEnsClassifier",
    "cgens-sls": "mkbench.estimators:CGEnsSLSClassifier",
    "lpboost": "mkbench.estimators:LPBoostClassifier",
    "column-generation": "mkbench.estimators:ColumnGenerationClassifier",  # any hinge master over kernels or learners
    "adaboost": "sklearn.ensemble:AdaBoostClassifier",  # SAMME; its default weak learner is a stump
    "adaboost-ecc": "mkbench.estimators:AdaBoostECCClassifier",
    "adaboost-mh": "mkbench.estimators:AdaBoostMHClassifier",
    "svm-ensemble-kernel": "mkbench.estimators:InfiniteEnsembleSVC",
    "staged-cv": "mkbench.estimators:StagedSearchCV",  # C and the iteration count by k-fold CV
    "adaboost-learners": "mkbench.estimators:LearnerAdaBoostClassifier",  # AdaBoost over sampled perceptrons
    "svc-rbf": "sklearn.svm:SVC",  # plain RBF SVM, for StagedSearchCV's grid search (CGEns Table II)
    "rff": "mkbench.estimators:RFFClassifier",  # random Fourier features + linear SVM (CGEns Table II)
}

#: The estimator classes ``import mkbench`` offers: every mkbench class above, and the eq. 9
#: kernel ridge that SelectedKernelColumnRidge selects (not a workflow method of its own).
EXPORTED: dict[str, str] = {
    **{path.split(":")[1]: path.split(":")[0] for path in METHODS.values() if path.startswith("mkbench.")},
    "KernelColumnRidge": "mkbench.estimators",
}


def is_import_path(name: str) -> bool:
    """Whether ``name`` is an import path ``package.module:Class`` rather than a registered method name."""
    return ":" in name


def estimator_class(name: str) -> type:
    """The estimator class registered under ``name``, or at the import path ``name``, imported now.

    Parameters
    ----------
    name : str
        A registered method (:data:`METHODS`) or the import path ``"package.module:Class"``
        of any scikit-learn estimator on the Python path (a user's own method).

    Raises
    ------
    UnknownNameError
        If ``name`` is neither registered nor importable, or names something that is not a
        scikit-learn estimator class; the message says which, and lists the known names.
    """
    if name in METHODS:
        module, attr = METHODS[name].split(":")
        return getattr(importlib.import_module(module), attr)
    if not is_import_path(name):
        raise UnknownNameError(
            f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}, "
            "or an estimator's import path 'package.module:Class'"
        )
    from sklearn.base import BaseEstimator  # here: ``import mkbench`` does not load scikit-learn

    module, _, attr = name.partition(":")
    try:
        found = importlib.import_module(module)
    except ImportError as exc:
        raise UnknownNameError(
            f"estimator {name!r}: cannot import module {module!r} ({exc}); is its package installed, or its "
            "folder on PYTHONPATH?"
        ) from None
    cls = getattr(found, attr, None)
    if cls is None:
        raise UnknownNameError(f"estimator {name!r}: module {module!r} has no {attr!r}")
    if not (isinstance(cls, type) and issubclass(cls, BaseEstimator) and hasattr(cls, "fit")):
        raise UnknownNameError(
            f"estimator {name!r} is not a scikit-learn estimator class (a subclass of sklearn.base.BaseEstimator "
            "with fit): the workflow sets its parameters with set_params and reads them with get_params"
        )
    return cls
