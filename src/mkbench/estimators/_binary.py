"""What the binary classifiers share: the class of a sample is the sign of its decision value."""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin


class BinaryClassifierMixin(ClassifierMixin):
    """Predictions of a two-class model whose ``decision_function`` is positive for ``classes_[1]``.

    The papers' models classify by sgn f(x) with labels in {-1, +1}; the estimators
    map ``classes_[1]`` to +1 when they fit, and this maps the sign back.
    """

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Class of each sample: ``classes_[1]`` where f(x) > 0, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0  # checks that the model is fitted
        return self.classes_[positive.astype(int)]
