"""The SVM with the stump or perceptron kernel: the infinite ensembles of Lin & Li (2008) (CGEns Tables I, II).

:class:`InfiniteEnsembleSVC` is scikit-learn's SVM on the precomputed stump
kernel Delta - ||x - x'||_1 or perceptron kernel Delta' - ||x - x'||_2
(:mod:`mkbench.kernels.ensemble`), the kernels of the infinite ensembles of
stumps and perceptrons that CGEns selects from (§II).

``fit`` takes ``sample_weight`` (SVC's per-sample C); ``probability=True`` gives
``predict_proba`` by Platt scaling (:class:`mkbench.estimators._multiclass.PlattMixin`,
the shared rule; scikit-learn 1.9 deprecates SVC's own ``probability=True`` for it). Not sparse X: the kernels' L1 / L2 distances are computed
dense (a sparse matrix raises a TypeError naming the estimators that take one).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.svm import SVC
from sklearn.utils._param_validation import Hidden, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels.ensemble import perceptron_kernel, perceptron_kernel_delta, stump_kernel, stump_kernel_delta
from ._multiclass import PlattMixin
from ._sparse_inputs import refuse_sparse
from ._weights import present_rows

__all__ = ["InfiniteEnsembleSVC"]

_KERNELS = {"stump": (stump_kernel, stump_kernel_delta), "perceptron": (perceptron_kernel, perceptron_kernel_delta)}


class InfiniteEnsembleSVC(PlattMixin, ClassifierMixin, BaseEstimator):
    """SVM with the stump or perceptron kernel: the infinite ensemble of Lin & Li (2008) (CGEns Tables I, II).

    Parameters
    ----------
    kernel : {"stump", "perceptron"}, default="stump"
        Delta - ||x - x'||_1 or Delta' - ||x - x'||_2, Delta fixed on the training inputs
        (:func:`~mkbench.kernels.ensemble.stump_kernel_delta`,
        :func:`~mkbench.kernels.ensemble.perceptron_kernel_delta`); with the
        SVM's free offset, Delta does not change the classifier. The kernels take no
        parameters: a mapping such as ``{"name": "stump", ...}`` (the other estimators'
        kernel spec) is refused, naming its keys.
    C : float, default=1.0
        SVM regularisation, > 0.
    tol : float, default=1e-3
        libsvm's stopping tolerance, > 0.
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values, as SVC does, so
        that ``predict_proba`` exists (5 more fits).

    Attributes
    ----------
    svc_ : SVC
        The SVM fitted on the precomputed kernel matrix.
    X_fit_ : ndarray of shape (n_samples, n_features)
    delta_ : float
    classes_ : ndarray
    n_support_ : int
        Support vectors.
    calibrated_ : CalibratedClassifierCV or None
        Platt's sigmoid with ``probability=True``.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import train_test_split
    >>> from mkbench import InfiniteEnsembleSVC
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> clf = InfiniteEnsembleSVC(kernel="stump", C=1.0).fit(X_train, y_train)
    >>> clf.score(X_test, y_test) > 0.9
    True
    >>> clf.n_support_ < len(X_train)
    True
    """

    _parameter_constraints: dict = {
        **PlattMixin._parameter_constraints,
        # a mapping passes (Hidden: not offered in the message) to be refused by fit, which names its keys
        "kernel": [StrOptions(set(_KERNELS)), Hidden(dict)],
        "C": [Interval(Real, 0, None, closed="neither")],
        "tol": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, kernel: str = "stump", *, C: float = 1.0, tol: float = 1e-3, probability: bool = False) -> None:
        self.kernel = kernel
        self.C = C
        self.tol = tol
        self.probability = probability

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> InfiniteEnsembleSVC:
        """Fit the SVM on the precomputed kernel matrix of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Weights >= 0 of the points' hinge losses (C w_i); rows of weight 0 are dropped
            (Delta is fixed on the others).

        Returns
        -------
        self
        """
        if isinstance(self.kernel, dict):  # a kernel spec in the mapping form the other estimators take
            name = self.kernel.get("name")
            unknown = [key for key in self.kernel if key != "name"]
            raise ValueError(
                f"kernel={self.kernel!r} is not one of {', '.join(map(repr, _KERNELS))}; pass the name alone"
                + (f" (kernel={name!r})" if name in _KERNELS else "")
                + ": the stump and perceptron kernels take no parameters"
                + (f", so {', '.join(map(repr, unknown))} is unknown" if unknown else "")
                + " (Delta is set by the training inputs)"
            )
        refuse_sparse(self, X, "its stump and perceptron kernels' L1 / L2 distances need dense inputs")
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        weights, rows = present_rows(sample_weight, X)
        if rows is not None:
            X, y = X[rows], y[rows]
        kernel, delta = _KERNELS[self.kernel]
        self.delta_ = delta(X)
        self.X_fit_ = X
        self.svc_ = SVC(kernel="precomputed", C=self.C, tol=self.tol).fit(kernel(X, X, delta=self.delta_), y, weights)
        self.classes_ = self.svc_.classes_
        self._calibrate(X, y, weights)
        return self

    @property
    def n_support_(self) -> int:
        check_is_fitted(self, "svc_")
        return int(self.svc_.n_support_.sum())

    def _gram(self, X: np.ndarray) -> np.ndarray:
        check_is_fitted(self, "svc_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return _KERNELS[self.kernel][0](X, self.X_fit_, delta=self.delta_)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """The SVM's decision values (scikit-learn's SVC.decision_function)."""
        gram = self._gram(X)
        return self.svc_.decision_function(gram)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted classes."""
        gram = self._gram(X)
        return self.svc_.predict(gram)
