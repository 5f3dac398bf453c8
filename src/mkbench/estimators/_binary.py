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
