"""MKLpy's EasyMKL and AverageMKL on the kernel library of our MKL methods (issue 46, item 4).

MKLpy's estimators fit on a list of precomputed training kernels and predict from
the list of test-by-training kernels. The adapters compute both lists the way
:class:`mkbench.SILPClassifier` and :class:`mkbench.SimpleMKLClassifier` compute their
kernels: the library named by ``kernels`` resolved on the training inputs
(:func:`mkbench.kernels.grid.resolve_kernels`), each kernel scaled to unit trace on
the training points (:func:`mkbench.kernels.grid.unit_trace_stack`), the test kernels
scaled by the same factors. A workflow config gives them the same ``kernels`` and ``C``
as its ``silp`` and ``simplemkl`` methods, and they see the experiment's splits and
preprocessing as every method does.
"""

from __future__ import annotations

import contextlib

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..kernels.grid import resolve_kernels, unit_trace_stack
from ._require import Peer

__all__ = ["WEIGHT_FLOOR", "AverageMKLClassifier", "EasyMKLClassifier"]

_PEER = Peer("MKLpy (with PyTorch)", "torch", "MKLpy.algorithms")

#: A kernel counts as selected when its weight exceeds this (MKLpy's weights are never exactly 0).
WEIGHT_FLOOR = 1e-6


@contextlib.contextmanager
def _torch_threads(torch, n_jobs: int):
    """Run with ``n_jobs`` torch threads (MKLpy computes with torch), then restore the previous count."""
    before = torch.get_num_threads()
    torch.set_num_threads(n_jobs)
    try:
        yield
    finally:
        torch.set_num_threads(before)


class _MKLpyClassifier(ClassifierMixin, BaseEstimator):
    """What the MKLpy adapters share: the kernel lists, the fit and the prediction."""

    def _algorithm(self, svc):
        """MKLpy's estimator with ``svc`` as its learner (the subclass's)."""
        raise NotImplementedError

    def fit(self, X, y):
        """Compute the unit-trace training kernels of ``kernels`` on X and fit MKLpy's estimator on their list.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (MKLpy fits more than two classes one-vs-rest).

        Returns
        -------
        self

        Raises
        ------
        ImportError
            If MKLpy (or PyTorch, which it needs) is not installed.
        """
        torch, _ = _PEER.require()

        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.kernels_ = resolve_kernels(self.kernels, X)
        stack, self.scales_ = unit_trace_stack(self.kernels_, X)
        self.X_fit_ = X
        with _torch_threads(torch, self.n_jobs):
            self.model_ = self._algorithm(SVC(C=self.C)).fit(list(stack), y)
        self.classes_ = np.unique(y)
        self.weights_ = np.asarray(self.model_.solution.weights, dtype=float).ravel()
        self.n_kernels_selected_ = int(np.sum(self.weights_ > WEIGHT_FLOOR))
        return self

    def test_kernels(self, X) -> list[np.ndarray]:
        """The test-by-training kernels k(X, X_train) / trace(K(X_train, X_train)), the list MKLpy predicts from."""
        check_is_fitted(self, "model_")
        X = validate_data(self, X, reset=False)
        return [kernel(X, self.X_fit_) * scale for kernel, scale in zip(self.kernels_, self.scales_, strict=True)]

    def predict(self, X) -> np.ndarray:
        """Predict the classes of X from its kernels against the training points."""
        torch, _ = _PEER.require()
        with _torch_threads(torch, self.n_jobs):
            predicted = self.model_.predict(self.test_kernels(X))
        return np.asarray(predicted).astype(self.classes_.dtype, copy=False)


class EasyMKLClassifier(_MKLpyClassifier):
    """MKLpy's EasyMKL (Aiolli and Donini 2015) over the kernel library of our MKL methods.

    EasyMKL chooses the kernel weights that maximise the margin between the classes'
    convex hulls in the combined feature space, regularised by ``lam`` (one QP over the
    training points, not an alternation over SVMs); an SVM (scikit-learn's SVC at ``C``)
    is then fitted on the combined kernel. The kernels are those of
    :class:`mkbench.SILPClassifier` with the same ``kernels``: resolved on the training
    inputs, each at unit trace on the training points, the test kernels scaled alike.

    Why it is fair: the same kernels, splits and preprocessing as SILP and SimpleMKL in a
    workflow experiment, the same C on the combined kernel, one thread; its fit time
    includes computing the kernel list, as ours includes computing the kernels. MKLpy's
    EasyMKL keeps its own default ``lam = 0.1``; its weights are dense, so the kernels it
    selects are counted above ``1e-6`` (ours are exactly 0 off the model).

    Parameters
    ----------
    kernels : str, mapping or sequence, default="simplemkl"
        The kernel library, as :class:`mkbench.SILPClassifier`'s ``kernels`` (``"simplemkl"``,
        ``"auto"``, a grid mapping such as ``{"grid": "simplemkl", "variables": [[0, 1], ...]}``,
        or a list of kernels).
    C : float, default=100.0
        The SVM's C on the combined kernel (the papers' MKL C).
    lam : float, default=0.1
        EasyMKL's regularisation (MKLpy's default).
    n_jobs : int, default=1
        PyTorch threads during fit and predict.

    Attributes
    ----------
    model_ : MKLpy.algorithms.EasyMKL
        The fitted MKLpy estimator.
    kernels_ : list of Kernel
        The resolved kernels.
    scales_ : ndarray of shape (n_kernels,)
        1 / trace of each training kernel.
    weights_ : ndarray of shape (n_kernels,)
        EasyMKL's kernel weights.
    n_kernels_selected_ : int
        Kernels with a weight above 1e-6.
    classes_ : ndarray
    X_fit_ : ndarray
        The training inputs (the test kernels are computed against them).
    """

    def __init__(self, kernels="simplemkl", C: float = 100.0, lam: float = 0.1, n_jobs: int = 1) -> None:
        self.kernels = kernels
        self.C = C
        self.lam = lam
        self.n_jobs = n_jobs

    def _algorithm(self, svc):
        return _PEER.modules[1].EasyMKL(learner=svc, lam=self.lam)


class AverageMKLClassifier(_MKLpyClassifier):
    """MKLpy's AverageMKL: an SVM on the mean of the library's kernels, the baseline of every MKL method.

    Every kernel gets the weight 1 / M; scikit-learn's SVC at ``C`` is fitted on the
    combined kernel. Kernels, splits, preprocessing, C and timing as
    :class:`EasyMKLClassifier`: it shows what learning the weights buys over not learning them.

    Parameters
    ----------
    kernels : str, mapping or sequence, default="simplemkl"
        The kernel library, as :class:`mkbench.SILPClassifier`'s ``kernels``.
    C : float, default=100.0
        The SVM's C on the combined kernel.
    n_jobs : int, default=1
        PyTorch threads during fit and predict.

    Attributes
    ----------
    model_ : MKLpy.algorithms.AverageMKL
    kernels_, scales_, weights_, n_kernels_selected_, classes_, X_fit_
        As :class:`EasyMKLClassifier`'s (every weight is 1 / M: every kernel is selected).
    """

    def __init__(self, kernels="simplemkl", C: float = 100.0, n_jobs: int = 1) -> None:
        self.kernels = kernels
        self.C = C
        self.n_jobs = n_jobs

    def _algorithm(self, svc):
        return _PEER.modules[1].AverageMKL(learner=svc)
