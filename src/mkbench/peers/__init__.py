"""Peers: other packages' methods as scikit-learn estimators a workflow config names by import path.

The optional ``[peers]`` extra (``pip install 'mkbench[peers]'``) installs the packages
measured beside ours; ``config/peers.yaml`` adds them to the papers' experiments as
methods marked ``added`` (issue 46). Each adapter's module imports its package when the
adapter is first used (``mkbench.peers:EasyMKLClassifier`` imports MKLpy and torch, not
XGBoost), and a missing package is an :class:`ImportError` naming the extra only when the
adapter is fitted, so a config naming it is read and checked without it.

- :class:`EasyMKLClassifier`, :class:`AverageMKLClassifier`: MKLpy's EasyMKL and
  AverageMKL on the kernel library of our SILP and SimpleMKL (the same ``kernels``
  value, the same unit-trace kernels), with scikit-learn's SVC at the same C.
- :class:`ColboostLPBoostClassifier`: colboost's LPBoost, the LP of our LPBoost
  (CGEns eq. 4) solved by Gurobi, within its pip licence's size limit.
- :class:`XGBoostClassifier`: XGBoost's ``XGBClassifier`` for any class labels (XGBoost
  takes only 0 .. K-1) with parameters a config can check. LightGBM's ``LGBMClassifier``
  needs no adapter: a config names it as ``lightgbm:LGBMClassifier``.
"""

from __future__ import annotations

import importlib

__all__ = ["AverageMKLClassifier", "ColboostLPBoostClassifier", "EasyMKLClassifier", "XGBoostClassifier"]

#: Each adapter's module (imported, with its peer, on first use).
_MODULES = {
    "AverageMKLClassifier": "._mklpy",
    "EasyMKLClassifier": "._mklpy",
    "ColboostLPBoostClassifier": "._colboost",
    "XGBoostClassifier": "._xgboost",
}


def __getattr__(name: str):
    if name in _MODULES:
        return getattr(importlib.import_module(_MODULES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
