"""mkbench: boosting over kernel columns and multiple kernel learning, reproduced.

The estimators follow the scikit-learn API. The data sets, splits and workflow
that reproduce the papers' tables live in :mod:`mkbench.harness`.
"""

__version__ = "0.1.0"

from ._registry import EXPORTED as _ESTIMATORS  # class name -> module, from the one registry

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
