"""Multi-class and probabilities for the margin classifiers (CG-Boost, SILP, SimpleMKL), as SVC offers them.

The papers' models are binary: sgn f(x). :class:`MarginClassifierMixin` makes a
classifier whose ``fit`` handles two classes

* multi-class by one-vs-rest: given k > 2 classes, ``fit`` fits k copies of the
  estimator, class c against the rest, into ``estimators_``;
  ``decision_function`` is then (n_samples, k) and ``predict`` its argmax, and
  ``n_iter_`` holds the k models' counts;
* probabilities, with ``probability=True``: Platt scaling (a sigmoid of f) fitted
  on 5-fold cross-validated decision values by scikit-learn's
  ``CalibratedClassifierCV(method="sigmoid", ensemble=False)``, as SVC's
  ``probability=True`` does (libsvm's internal 5-fold CV; fewer folds when a class
  has fewer than 5 points); ``predict_proba`` exists only then. It costs 5 more fits.

The estimator writes its binary decision function as ``_decision`` and, in
``fit``, returns early when :meth:`MarginClassifierMixin._fit_one_vs_rest` did the
work, and ends with :meth:`MarginClassifierMixin._calibrate`.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ._binary import BinaryClassifierMixin

__all__ = ["MarginClassifierMixin"]

#: Folds of the cross-validation whose decision values fit Platt's sigmoid (libsvm's 5).
PLATT_FOLDS = 5


class MarginClassifierMixin(BinaryClassifierMixin):
    """One-vs-rest for more than two classes and Platt probabilities over a binary ``_decision``."""

    probability: bool
    estimators_: list | None = None

    def _fit_one_vs_rest(self, X, y: np.ndarray) -> bool:
        """Fit one binary copy per class when y has more than two; True if it did (``fit`` is then done)."""
        if not isinstance(self.probability, (bool, np.bool_)):
            raise ValueError(f"probability must be True or False, got {self.probability!r}")
        if self.probability and getattr(self, "_precomputed", False):  # the MKL estimators' precomputed kernels
            raise ValueError(
                "probability=True needs the data points to cross-validate; with kernels='precomputed' fit "
                "sklearn.calibration.CalibratedClassifierCV on the features and kernels instead"
            )
        check_classification_targets(y)
        classes = np.unique(y)
        self.estimators_ = None
        if classes.size <= 2:
            return False
        self.classes_ = classes
        self.estimators_ = self._fit_per_class(clone(self).set_params(probability=False), X, y)
        self.n_iter_ = np.array([estimator.n_iter_ for estimator in self.estimators_])
        self._calibrate(X, y)
        return True

    def _fit_per_class(self, binary, X, y: np.ndarray) -> list:
        """The one-vs-rest models: ``clone(binary)`` fitted to class c against the rest, for each c of ``classes_``.

        An estimator overrides this to share what the fits have in common (the MKL
        estimators compute their training kernels once for all classes).
        """
        return [clone(binary).fit(X, (y == c).astype(int)) for c in self.classes_]

    def _calibrate(self, X, y: np.ndarray) -> None:
        """With ``probability=True``, fit Platt's sigmoid on cross-validated decision values."""
        if not self.probability:
            self.calibrated_ = None
            return
        folds = min(PLATT_FOLDS, int(np.unique(y, return_counts=True)[1].min()))
        if folds < 2:
            raise ValueError("probability=True needs at least 2 points of every class to cross-validate f")
        base = clone(self).set_params(probability=False)
        self.calibrated_ = CalibratedClassifierCV(base, method="sigmoid", cv=folds, ensemble=False).fit(X, y)

    def decision_function(self, X) -> np.ndarray:
        """f(x): of shape (n_samples,), positive for ``classes_[1]``; (n_samples, n_classes) for more classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        check_is_fitted(self, "classes_")
        if self.estimators_ is not None:
            return np.column_stack([estimator._decision(X) for estimator in self.estimators_])
        return self._decision(X)

    def predict(self, X) -> np.ndarray:
        """The class of each sample: the sign of f, or the class whose one-vs-rest f is largest."""
        if self.estimators_ is not None:
            return self.classes_[np.argmax(self.decision_function(X), axis=1)]
        return super().predict(X)

    @available_if(lambda self: self.probability)
    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities by Platt scaling of f (``probability=True``), columns in ``classes_`` order.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self, "calibrated_")
        return self.calibrated_.predict_proba(X)

    @available_if(lambda self: self.probability)
    def predict_log_proba(self, X) -> np.ndarray:
        """log of :meth:`predict_proba`."""
        return np.log(self.predict_proba(X))
