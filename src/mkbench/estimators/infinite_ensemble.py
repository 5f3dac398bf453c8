"""The SVM with the stump or perceptron kernel: the infinite ensembles of Lin & Li (2008) (CGEns Tables I, II).

:class:`InfiniteEnsembleSVC` is scikit-learn's SVM on the precomputed stump
kernel Delta - ||x - x'||_1 or perceptron kernel Delta' - ||x - x'||_2
(:mod:`mkbench.kernels.ensemble`), the kernels of the infinite ensembles of
stumps and perceptrons that CGEns selects from (§II).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels.ensemble import perceptron_kernel, perceptron_kernel_delta, stump_kernel, stump_kernel_delta

__all__ = ["InfiniteEnsembleSVC"]

_KERNELS = {"stump": (stump_kernel, stump_kernel_delta), "perceptron": (perceptron_kernel, perceptron_kernel_delta)}


class InfiniteEnsembleSVC(ClassifierMixin, BaseEstimator):
    """SVM with the stump or perceptron kernel: the infinite ensemble of Lin & Li (2008) (CGEns Tables I, II).

    Parameters
    ----------
    kernel : {"stump", "perceptron"}, default="stump"
        Delta - ||x - x'||_1 or Delta' - ||x - x'||_2, Delta fixed on the training inputs
        (:func:`~mkbench.kernels.ensemble.stump_kernel_delta`,
        :func:`~mkbench.kernels.ensemble.perceptron_kernel_delta`); with the
        SVM's free offset, Delta does not change the classifier.
    C : float, default=1.0
        SVM regularisation, > 0.
    tol : float, default=1e-3
        libsvm's stopping tolerance.

    Attributes
    ----------
    svc_ : SVC
        The SVM fitted on the precomputed kernel matrix.
    X_fit_ : ndarray of shape (n_samples, n_features)
    delta_ : float
    classes_ : ndarray
    n_support_ : int
        Support vectors.
    """

    def __init__(self, kernel: str = "stump", *, C: float = 1.0, tol: float = 1e-3) -> None:
        self.kernel = kernel
        self.C = C
        self.tol = tol

    def fit(self, X: np.ndarray, y: np.ndarray) -> InfiniteEnsembleSVC:
        """Fit the SVM on the precomputed kernel matrix of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        if not isinstance(self.kernel, str) or self.kernel not in _KERNELS:
            given = "" if isinstance(self.kernel, str) else (
                "; pass the name alone: the stump and perceptron kernels take no parameters (Delta is set by the "
                "training inputs)"
            )
            raise ValueError(f"kernel={self.kernel!r} is not one of {', '.join(map(repr, _KERNELS))}{given}")
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        kernel, delta = _KERNELS[self.kernel]
        self.delta_ = delta(X)
        self.X_fit_ = X
        self.svc_ = SVC(kernel="precomputed", C=self.C, tol=self.tol).fit(kernel(X, X, delta=self.delta_), y)
        self.classes_ = self.svc_.classes_
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
