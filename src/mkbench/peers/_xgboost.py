"""XGBoost's classifier for any class labels: XGBoost takes only the labels 0 .. K-1."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._require import Peer

__all__ = ["XGBoostClassifier"]

_PEER = Peer("XGBoost", "xgboost")


class XGBoostClassifier(ClassifierMixin, BaseEstimator):
    """XGBoost's gradient-boosted trees (``xgboost.XGBClassifier``) on the labels the data sets have.

    ``XGBClassifier`` refuses labels other than 0 .. K-1 (the data sets' binary labels are
    -1 / +1), and takes its parameters as ``**kwargs``, which a workflow config cannot check.
    This adapter codes the classes as 0 .. K-1 (in sorted order, as ``classes_``), fits
    ``XGBClassifier`` with the parameters below (None leaves XGBoost's own default) and
    decodes its predictions. Nothing else is changed: the trees, the loss, the histogram
    method and its bins are XGBoost's.

    With ``max_depth=1`` each tree is a decision stump, the weak learner of CGEns,
    LPBoost and AdaBoost in the CGEns tables; ``n_estimators`` is then the number of
    stumps (one per boosting round for two classes), the analogue of their iteration count.

    Parameters
    ----------
    n_estimators : int or None, default=None
        Boosting rounds (XGBoost's default: 100).
    max_depth : int or None, default=None
        Depth of each tree (XGBoost's default: 6; 1 gives stumps).
    learning_rate : float or None, default=None
        Shrinkage (XGBoost's default: 0.3).
    n_jobs : int, default=1
        XGBoost's threads (one, as every workflow job).
    random_state : int, default=0
        XGBoost's seed (its default trees draw nothing, but subsampling options would).
    options : dict or None, default=None
        Any other parameter of ``XGBClassifier`` (e.g. ``{"max_bin": 64}``).

    Attributes
    ----------
    model_ : xgboost.XGBClassifier
        The fitted XGBoost model (on the coded labels).
    classes_ : ndarray
        The class labels; class ``classes_[k]`` is XGBoost's label k.
    n_iter_ : int
        Boosting rounds of the fitted model.
    """

    def __init__(
        self,
        n_estimators: int | None = None,
        max_depth: int | None = None,
        learning_rate: float | None = None,
        n_jobs: int = 1,
        random_state: int = 0,
        options: dict | None = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.options = options

    def fit(self, X, y):
        """Fit ``XGBClassifier`` on X and the labels coded as 0 .. K-1.

        Raises
        ------
        ImportError
            If XGBoost is not installed.
        """
        (xgboost,) = _PEER.require()
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        chosen = {"n_estimators": self.n_estimators, "max_depth": self.max_depth, "learning_rate": self.learning_rate}
        params = {key: value for key, value in chosen.items() if value is not None}
        self.model_ = xgboost.XGBClassifier(
            **params, n_jobs=self.n_jobs, random_state=self.random_state, **(self.options or {})
        ).fit(X, codes)
        self.n_iter_ = int(self.model_.get_booster().num_boosted_rounds())
        return self

    def predict(self, X) -> np.ndarray:
        """The class of each row of X."""
        check_is_fitted(self, "model_")
        X = validate_data(self, X, reset=False)
        return self.classes_[np.asarray(self.model_.predict(X), dtype=np.int64)]

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities, columns in the order of ``classes_``."""
        check_is_fitted(self, "model_")
        return self.model_.predict_proba(validate_data(self, X, reset=False))
