"""mkbench: boosting over kernel columns and multiple kernel learning, reproduced.

The estimators follow the scikit-learn API. The data sets, splits and workflow
that reproduce the papers' tables live in :mod:`mkbench.harness`.
"""

__version__ = "0.1.0"

_ESTIMATORS = {
    "CGBoostClassifier": "mkbench.estimators",
    "CGBoostRegressor": "mkbench.estimators",
    "MARKRegressor": "mkbench.estimators",
    "SSMKClassifier": "mkbench.estimators",
    "SILPClassifier": "mkbench.estimators",
    "SimpleMKLClassifier": "mkbench.estimators",
    "CGEnsClassifier": "mkbench.estimators",
    "CGEnsSLSClassifier": "mkbench.estimators",
    "LPBoostClassifier": "mkbench.estimators",
    "AdaBoostECCClassifier": "mkbench.estimators",
    "AdaBoostMHClassifier": "mkbench.estimators",
    "InfiniteEnsembleSVC": "mkbench.estimators",
    "LearnerAdaBoostClassifier": "mkbench.estimators",
    "RFFClassifier": "mkbench.estimators",
    "SelectedSVR": "mkbench.estimators",
    "SelectedKernelRidge": "mkbench.estimators",
    "KernelColumnRidge": "mkbench.estimators",
    "SelectedKernelColumnRidge": "mkbench.estimators",
    "SelectedSVC": "mkbench.estimators",
}
__all__ = sorted(_ESTIMATORS)


def __dir__() -> list[str]:
    """The module's names and the lazily loaded estimators (so that tab completion and dir() show them)."""
    return sorted(set(globals()) | set(_ESTIMATORS))


def __getattr__(name: str):
    """Import an estimator on first use (``mkbench.CGBoostClassifier``), keeping ``import mkbench`` light."""
    if name in _ESTIMATORS:
        import importlib

        return getattr(importlib.import_module(_ESTIMATORS[name]), name)
    raise AttributeError(f"module 'mkbench' has no attribute {name!r}")
