"""Probabilities, multi-class and parallel one-vs-rest for the classifiers of a decision function, as SVC offers them.

* :class:`PlattMixin`: probabilities for any classifier with a ``decision_function``
  and a ``probability`` parameter. With ``probability=True`` its ``fit`` ends with
  :meth:`PlattMixin._calibrate`: Platt scaling, a sigmoid of f fitted on 5-fold
  cross-validated decision values (unshuffled stratified folds; one sigmoid per class
  column beyond two classes, normalised to sum 1), by scikit-learn's
  ``CalibratedClassifierCV(method="sigmoid")``, as SVC's ``probability=True`` does
  (libsvm's internal 5-fold CV; fewer folds when a class has fewer than 5 points).
  ``predict_proba`` exists only then; it costs 5 more fits, and the fitted model's own
  f is the one scaled (``CalibratedClassifierCV(..., ensemble=False)``'s model, without
  its sixth fit on all the data). ``sample_weight`` reaches the folds' fits and the sigmoid.
* :class:`MarginClassifierMixin`: the papers' binary models, sgn f(x), made multi-class
  by one-vs-rest: given k > 2 classes, ``fit`` fits k copies of the estimator, class c
  against the rest, into ``estimators_``; ``decision_function`` is then (n_samples, k)
  and ``predict`` its argmax, ``n_iter_`` holds the k models' counts and ``status_``
  (where the binary models have one) how the least finished of them stopped:
  ``"optimal"`` when all k are, else the first other status in class order (each
  model's own is ``estimators_[c].status_``). The k fits run
  ``n_jobs`` at a time (joblib; read as ``getattr(self, "n_jobs", None)``, so an
  estimator without the parameter fits them one after the other, and one that adds it
  needs nothing else).

The estimator writes its binary decision function as ``_decision`` and, in
``fit``, returns early when :meth:`MarginClassifierMixin._fit_one_vs_rest` did the
work, and ends with :meth:`PlattMixin._calibrate`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ..masters._solution import OPTIMAL
from ._binary import BinaryClassifierMixin

__all__ = ["MarginClassifierMixin", "PlattMixin"]

#: Folds of the cross-validation whose decision values fit Platt's sigmoid (libsvm's 5).
PLATT_FOLDS = 5


class _DecisionValues(ClassifierMixin, BaseEstimator):
    """Decision values given as the inputs: what ``CalibratedClassifierCV`` fits the sigmoid to.

    It learns nothing, so any cross-validation of it returns its inputs, the decision
    values cross-validated beforehand, as they are.
    """

    def __init__(self, classes: np.ndarray | None = None) -> None:
        self.classes = classes

    def fit(self, scores: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> _DecisionValues:
        assert self.classes is not None  # PlattMixin gives them; None is only the default clone() reads
        self.classes_ = self.classes
        return self

    def decision_function(self, scores: np.ndarray) -> np.ndarray:
        scores = np.asarray(scores)
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, scores: np.ndarray) -> np.ndarray:
        f = self.decision_function(scores)
        return self.classes_[(f > 0).astype(int) if f.ndim == 1 else np.argmax(f, axis=1)]


def _has_probability(estimator: PlattMixin) -> bool:
    return bool(estimator.probability)


class PlattMixin:
    """``predict_proba`` by Platt scaling of ``decision_function`` when ``probability=True`` (see the module).

    ``_parameter_constraints`` holds ``probability``'s, which the estimators merge into theirs
    (``{**PlattMixin._parameter_constraints, ...}``); their ``fit`` checks it with the rest
    (scikit-learn's ``_fit_context``) before anything reads it.
    """

    _parameter_constraints: dict = {"probability": ["boolean"]}
    probability: bool
    calibrated_: CalibratedClassifierCV | None

    if TYPE_CHECKING:  # what the classifier it is mixed into provides; not defined here at run time
        classes_: np.ndarray

        def decision_function(self, X) -> np.ndarray: ...

    def _calibrate(self, X, y: np.ndarray, sample_weight: np.ndarray | None = None, base=None, **fit_params) -> None:
        """With ``probability=True``, fit Platt's sigmoid on cross-validated decision values.

        ``base``: the estimator the folds fit, whose f has the scale of ``decision_function``'s
        (default: this one with ``probability=False``; a search passes its selected model).
        ``fit_params`` (e.g. SSMK's ``X_unlabeled``) go unchanged to every fold's fit;
        ``sample_weight`` is split with the rows.
        """
        if not self.probability:
            self.calibrated_ = None
            return
        folds = min(PLATT_FOLDS, int(np.unique(y, return_counts=True)[1].min()))
        if folds < 2:
            raise ValueError("probability=True needs at least 2 points of every class to cross-validate f")
        base = clone(self).set_params(probability=False) if base is None else base
        scores = None
        for train, test in StratifiedKFold(folds).split(np.zeros((len(y), 1)), y):
            weights = {} if sample_weight is None else {"sample_weight": sample_weight[train]}
            f = clone(base).fit(X[train], y[train], **weights, **fit_params).decision_function(X[test])
            scores = np.empty((len(y), int(np.prod(f.shape[1:])))) if scores is None else scores
            scores[test] = f.reshape(len(test), -1)
        sigmoid = CalibratedClassifierCV(_DecisionValues(self.classes_), method="sigmoid", cv=2, ensemble=False)
        self.calibrated_ = sigmoid.fit(scores, y, sample_weight=sample_weight)

    @available_if(_has_probability)
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
        if self.calibrated_ is None:  # probability set to True after a fit without it
            raise NotFittedError(
                f"{type(self).__name__} was fitted with probability=False: fit it with probability=True "
                "for predict_proba"
            )
        f = np.asarray(self.decision_function(X))
        return self.calibrated_.predict_proba(f.reshape(f.shape[0], -1))

    @available_if(_has_probability)
    def predict_log_proba(self, X) -> np.ndarray:
        """log of :meth:`predict_proba`."""
        return np.log(self.predict_proba(X))


class MarginClassifierMixin(PlattMixin, BinaryClassifierMixin):
    """One-vs-rest for more than two classes and Platt probabilities over a binary ``_decision``."""

    estimators_: list | None = None
    n_iter_: int | np.ndarray  # one count per one-vs-rest model with more than two classes
    status_: str  # with more than two classes, the least finished one-vs-rest model's

    def _fit_one_vs_rest(self, X, y: np.ndarray, sample_weight: np.ndarray | None = None) -> bool:
        """Fit one binary copy per class when y has more than two; True if it did (``fit`` is then done)."""
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
        self.estimators_ = self._fit_per_class(clone(self).set_params(probability=False), X, y, sample_weight)
        self.n_iter_ = np.array([estimator.n_iter_ for estimator in self.estimators_])
        if all(hasattr(estimator, "status_") for estimator in self.estimators_):
            statuses: list[str] = [estimator.status_ for estimator in self.estimators_]
            self.status_ = next((status for status in statuses if status != OPTIMAL), OPTIMAL)
        self._calibrate(X, y, sample_weight)
        return True

    def _fit_per_class(self, binary, X, y: np.ndarray, sample_weight: np.ndarray | None = None) -> list:
        """The one-vs-rest models: ``clone(binary)`` fitted to class c against the rest, for each c of ``classes_``.

        ``n_jobs`` fits at a time (joblib's default backend, loky). An estimator overrides
        this to share what the fits have in common (the MKL estimators compute their
        training kernels once for all classes; the classifiers over kernel columns share
        one store of kernel values, :mod:`._shared_columns`).
        """
        weights = {} if sample_weight is None else {"sample_weight": sample_weight}
        return Parallel(n_jobs=getattr(self, "n_jobs", None))(
            delayed(clone(binary).fit)(X, (y == c).astype(int), **weights) for c in self.classes_
        )

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
