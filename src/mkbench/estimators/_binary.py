"""What the binary classifiers share: the class of a sample is the sign of its decision value."""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target


class BinaryClassifierMixin(ClassifierMixin):
    """Predictions of a two-class model whose ``decision_function`` is positive for ``classes_[1]``.

    The papers' models classify by sgn f(x) with labels in {-1, +1}; the estimators
    map ``classes_[1]`` to +1 when they fit, and this maps the sign back.
    """

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Class of each sample: ``classes_[1]`` where f(x) > 0, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0  # checks that the model is fitted
        return self.classes_[positive.astype(int)]


def binary_targets(y: np.ndarray, *, more: str = "") -> tuple[np.ndarray, np.ndarray]:
    """The two classes of ``y`` and y coded -1 / +1 (+1 = ``classes[1]``), as the papers' models use it.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Class labels.
    more : str, default=""
        What to use instead when there are more than two classes (ends the error message);
        empty for estimators that fit those one-vs-rest before they get here.

    Raises
    ------
    ValueError
        If ``y`` is not a classification target, or has one class, or more than two.
    """
    check_classification_targets(y)
    classes = np.unique(y)
    if classes.size == 1:
        raise ValueError(f"y has only one class ({classes.tolist()[0]!r}): a classifier needs two classes to separate")
    if classes.size != 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {type_of_target(y)}: "
            f"y has {classes.size} classes {classes.tolist()[:5]}" + (f"; {more}" if more else "")
        )
    return classes, np.where(y == classes[1], 1.0, -1.0)


def check_enough(estimator, n_samples: int, classes: np.ndarray | None = None) -> None:
    """The data every classifier's fit needs once its rows are chosen: 2 samples, and 2 classes if ``classes``.

    Parameters
    ----------
    estimator : BaseEstimator
        Named in the message.
    n_samples : int
        The training rows left (rows of zero sample weight dropped).
    classes : ndarray or None, default=None
        The classes of those rows; None when :func:`binary_targets` checked them already.

    Raises
    ------
    ValueError
        With fewer than 2 samples or 2 classes, naming the estimator and what it got.
    """
    name = type(estimator).__name__
    if n_samples < 2:
        raise ValueError(f"{name} needs at least 2 samples to learn from, got {n_samples} sample")
    if classes is not None and classes.size < 2:
        raise ValueError(f"{name} needs at least 2 classes, got 1 class: {classes.tolist()}")
