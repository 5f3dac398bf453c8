"""The one registry of the estimators: method names (the workflow's ``estimator:`` keys) -> classes.

Each entry is the dotted path ``module:Class`` of a scikit-learn estimator, imported
only when used, so that ``import mkbench`` stays light. ``mkbench.__all__`` (the
lazily loaded estimators), the workflow's methods
(:mod:`mkbench.harness.methods`) and the bad-input tests all derive from it.
"""

from __future__ import annotations

import importlib

from .exceptions import UnknownNameError

__all__ = ["EXPORTED", "METHODS", "estimator_class"]

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


def estimator_class(name: str) -> type:
    """The estimator class registered under ``name``, imported now.

    Raises
    ------
    UnknownNameError
        If ``name`` is not registered; the message lists the known names.
    """
    try:
        module, attr = METHODS[name].split(":")
    except KeyError:
        raise UnknownNameError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}") from None
    return getattr(importlib.import_module(module), attr)
