"""Registry of the methods a workflow job can fit, by name.

Each entry is the dotted path of a scikit-learn estimator class; it is imported
only when a job asks for it, so ``mkbench --help`` stays fast. Later methods
(CG-Boost, MARK, SSMK, MKL, CGEns) register here too.
"""

from __future__ import annotations

import importlib
from typing import Any

from sklearn.base import BaseEstimator

from ..exceptions import ConfigError, UnknownNameError

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
    "adaboost": "sklearn.ensemble:AdaBoostClassifier",  # SAMME; its default weak learner is a stump
    "adaboost-ecc": "mkbench.estimators:AdaBoostECCClassifier",
    "adaboost-mh": "mkbench.estimators:AdaBoostMHClassifier",
    "svm-ensemble-kernel": "mkbench.estimators:InfiniteEnsembleSVC",
    "staged-cv": "mkbench.estimators:StagedSearchCV",  # C and the iteration count by k-fold CV
    "adaboost-learners": "mkbench.estimators:LearnerAdaBoostClassifier",  # AdaBoost over sampled perceptrons
    "svc-rbf": "sklearn.svm:SVC",  # plain RBF SVM, for StagedSearchCV's grid search (CGEns Table II)
    "rff": "mkbench.estimators:RFFClassifier",  # random Fourier features + linear SVM (CGEns Table II)
}


def method_class(name: str) -> type[BaseEstimator]:
    """Return the estimator class registered under ``name``.

    Raises
    ------
    UnknownNameError
        If ``name`` is not registered; the message lists the known names.
    """
    try:
        module, attr = METHODS[name].split(":")
    except KeyError:
        raise UnknownNameError(
            f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}"
        ) from None
    return getattr(importlib.import_module(module), attr)


def make_method(name: str, params: dict[str, Any] | None = None) -> BaseEstimator:
    """Instantiate the estimator ``name`` with ``params``.

    Raises
    ------
    ConfigError
        If a parameter is not one the estimator accepts; the message lists them.
    """
    cls = method_class(name)
    params = dict(params or {})
    valid = cls().get_params(deep=False)
    unknown = sorted(set(params) - set(valid))
    if unknown:
        raise ConfigError(
            f"method {name!r} has no parameter(s) {', '.join(unknown)}; "
            f"valid parameters: {', '.join(sorted(valid))}"
        )
    return cls(**params)
