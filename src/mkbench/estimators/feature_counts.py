"""Which input features a fitted stump ensemble splits on (CGEns Fig. 5)."""

from __future__ import annotations

import numpy as np

from ..learners import Stump
from .learner_adaboost import WeakLearnerClassifier

__all__ = ["feature_counts"]


def feature_counts(model) -> np.ndarray | None:
    """How many of a fitted ensemble's stumps split on each input feature (CGEns Fig. 5).

    Reads the stumps of CGEns / LPBoost / CGEns-SLS (``learners_``), AdaBoost.MH
    (``stumps_``), :class:`~mkbench.estimators.LearnerAdaBoostClassifier` and
    scikit-learn's AdaBoost with depth-1 trees (``estimators_``), through
    :class:`~mkbench.estimators.StagedSearchCV`'s refitted model. The constant learner splits on no feature.

    Parameters
    ----------
    model : fitted estimator

    Returns
    -------
    ndarray of shape (n_features_in_,) of int, or None
        None when the model has learners that are not stumps (perceptrons,
        Fourier features, deeper trees) or no ensemble at all.
    """
    model = getattr(model, "best_estimator_", model)
    if hasattr(model, "learners_"):
        learners = list(model.learners_)
    elif hasattr(model, "stumps_"):
        learners = list(model.stumps_)
    elif hasattr(model, "estimators_"):
        learners = [_as_stump(h) for h in model.estimators_]
    else:
        return None
    if not all(isinstance(h, Stump) for h in learners):
        return None
    features = [h.feature for h in learners if np.isfinite(h.threshold)]
    return np.bincount(np.asarray(features, dtype=np.intp), minlength=model.n_features_in_)


def _as_stump(estimator) -> Stump | None:
    """A fitted WeakLearnerClassifier's learner, or the split of a scikit-learn depth-1 tree; else None.

    Only the feature and threshold of a tree are read (enough to count features), not its leaves' classes.
    """
    if isinstance(estimator, WeakLearnerClassifier):
        return estimator.learner_ if isinstance(estimator.learner_, Stump) else None
    tree = getattr(estimator, "tree_", None)
    if tree is None or tree.max_depth > 1:
        return None
    if tree.node_count == 1:  # a single leaf: the constant learner
        return Stump(0, float("inf"))
    return Stump(int(tree.feature[0]), float(tree.threshold[0]))
