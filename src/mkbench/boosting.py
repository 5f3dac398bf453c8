"""Baselines of the CGEns experiments: AdaBoost.MH with stumps, and SVMs with the stump and perceptron kernels.

* :class:`AdaBoostMHClassifier`: discrete AdaBoost.MH (Schapire & Singer 1999,
  §7) with multi-class stumps h(x, l) = v_l phi(x), phi a decision stump and
  v in {-1, +1}^K a vote per class, as in Table III of CGEns. Each round takes the
  stump and votes with the largest edge gamma = sum_{i,l} D(i,l) Y_il v_l phi(x_i),
  searched exactly with :class:`mkbench.learners.Stumps`.
* :class:`AdaBoostECCClassifier`: AdaBoost.ECC (Guruswami & Sahai 1999) with the
  same stumps, a random colouring of the classes per round (Table III).
* :func:`stump_kernel` Delta - ||x - x'||_1 and :func:`perceptron_kernel`
  Delta' - ||x - x'||_2 (Lin & Li 2008): the kernels of the infinite ensembles of
  stumps and perceptrons that CGEns selects from (§II), and
  :class:`InfiniteEnsembleSVC`, the SVM with either one (Tables I and II).
* :class:`StagedSearchCV`: the model selection of §VI-A, C and the iteration
  count by 5-fold cross-validation, from one fit per fold via ``staged_predict``;
  optionally at the bandwidth of a cross-validated RBF SVM (CGEns with Fourier
  learners, Table II).
* :class:`WeakLearnerClassifier` and :class:`LearnerAdaBoostClassifier`:
  scikit-learn's AdaBoost over the sampled perceptrons of :mod:`mkbench.learners`
  (Table II, "AdaBoost" with perceptrons).
* :func:`feature_counts`: how often each input feature is split on by a fitted
  stump ensemble (Fig. 5).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from numbers import Integral
from time import perf_counter

import numpy as np
from scipy.spatial.distance import cdist
from scipy.special import gammaln
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import ParameterGrid, StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .learners import Stump, Stumps, make_family, outputs

__all__ = [
    "AdaBoostECCClassifier",
    "AdaBoostMHClassifier",
    "InfiniteEnsembleSVC",
    "LearnerAdaBoostClassifier",
    "StagedSearchCV",
    "WeakLearnerClassifier",
    "feature_counts",
    "perceptron_kernel",
    "perceptron_kernel_delta",
    "stump_kernel",
    "stump_kernel_delta",
]


def stump_kernel(X: np.ndarray, Z: np.ndarray, *, delta: float = 0.0) -> np.ndarray:
    """The stump kernel K_S(x, z) = Delta - ||x - z||_1 (Lin & Li 2008; CGEns §II).

    Parameters
    ----------
    X : ndarray of shape (n_x, n_features)
    Z : ndarray of shape (n_z, n_features)
    delta : float, default=0
        The constant Delta; see :func:`stump_kernel_delta`.

    Returns
    -------
    ndarray of shape (n_x, n_z)
    """
    return delta - cdist(X, Z, metric="cityblock")


def stump_kernel_delta(X: np.ndarray) -> float:
    """Delta_S = 1/2 sum_d (R_d - L_d) over the ranges [L_d, R_d] of the features of X.

    With thresholds uniform on [L_d, R_d] (density 1), integrating
    s(x_d - t) s(z_d - t) over t and summing over d gives 2 (Delta_S - ||x - z||_1):
    the kernel is then an inner product of stump outputs, positive semi-definite
    on points inside the ranges.
    """
    X = np.asarray(X, dtype=np.float64)
    return 0.5 * float(np.ptp(X, axis=0).sum())


def perceptron_kernel(X: np.ndarray, Z: np.ndarray, *, delta: float = 0.0) -> np.ndarray:
    """The perceptron kernel K_P(x, z) = Delta' - ||x - z||_2 (Lin & Li 2008; CGEns §II).

    Parameters
    ----------
    X : ndarray of shape (n_x, n_features)
    Z : ndarray of shape (n_z, n_features)
    delta : float, default=0
        The constant Delta'; see :func:`perceptron_kernel_delta`.

    Returns
    -------
    ndarray of shape (n_x, n_z)
    """
    return delta - cdist(X, Z, metric="euclidean")


def perceptron_kernel_delta(X: np.ndarray) -> float:
    """Delta' = R / E|theta_1|, R = max_i ||x_i||, for theta uniform on the unit sphere of R^d.

    For perceptrons with theta uniform on the sphere and kappa uniform on [-R, R]
    (:class:`mkbench.learners.Perceptrons`), E[h(x) h(z)] = 1 - E|theta_1| ||x - z|| / R,
    so Delta' - ||x - z|| is R / E|theta_1| times that expectation: an inner product
    of perceptron outputs, positive semi-definite on points with ||x|| <= R.
    """
    X = np.asarray(X, dtype=np.float64)
    d = X.shape[1]
    mean_abs_coordinate = np.exp(gammaln(d / 2) - gammaln((d + 1) / 2)) / np.sqrt(np.pi)
    return float(np.sqrt(np.einsum("ij,ij->i", X, X).max()) / mean_abs_coordinate)


_KERNELS = {"stump": (stump_kernel, stump_kernel_delta), "perceptron": (perceptron_kernel, perceptron_kernel_delta)}


class InfiniteEnsembleSVC(ClassifierMixin, BaseEstimator):
    """SVM with the stump or perceptron kernel: the infinite ensemble of Lin & Li (2008) (CGEns Tables I, II).

    Parameters
    ----------
    kernel : {"stump", "perceptron"}, default="stump"
        Delta - ||x - x'||_1 or Delta' - ||x - x'||_2, Delta fixed on the training inputs
        (:func:`stump_kernel_delta`, :func:`perceptron_kernel_delta`); with the
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
        if self.kernel not in _KERNELS:
            raise ValueError(f"kernel={self.kernel!r} is not one of {', '.join(map(repr, _KERNELS))}")
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


class AdaBoostMHClassifier(ClassifierMixin, BaseEstimator):
    """Discrete AdaBoost.MH with multi-class decision stumps (Schapire & Singer 1999, §7; CGEns Table III).

    With Y_il = +1 if y_i is class l, else -1, and weights D over (point, class) pairs
    (initially uniform), round t picks the stump phi and votes v_l = sign(gamma_l)
    maximising the edge gamma = sum_l |gamma_l|, gamma_l = sum_i D(i,l) Y_il phi(x_i),
    sets alpha = 1/2 ln((1 + gamma) / (1 - gamma)) and D(i,l) proportional to
    D(i,l) exp(-alpha v_l phi(x_i) Y_il). The classifier is argmax_l f_l(x),
    f_l = sum_t alpha_t v_tl phi_t(x). The constant stump is a candidate.

    Parameters
    ----------
    n_estimators : int, default=100
        Boosting rounds (fewer if an edge reaches 0 or 1).

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    stumps_ : list of Stump
        phi_t.
    votes_ : ndarray of shape (n_rounds, K)
        v_t.
    alphas_ : ndarray of shape (n_rounds,)
    edges_ : ndarray of shape (n_rounds,)
        gamma_t.
    n_iter_ : int
        Rounds run.
    history_ : list of dict
        Per round: ``n_columns`` (stumps so far), ``edge`` and cumulative ``seconds``
        (training time against iterations, CGEns Fig. 3).
    n_features_in_ : int
    """

    _stop_when_perfect = True  # a stump with edge 1 has Hamming loss 0

    def __init__(self, n_estimators: int = 100) -> None:
        self.n_estimators = n_estimators

    def fit(self, X: np.ndarray, y: np.ndarray) -> AdaBoostMHClassifier:
        """Boost on two or more classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        if not (isinstance(self.n_estimators, Integral) and self.n_estimators >= 1):
            raise ValueError(f"n_estimators must be an integer >= 1, got {self.n_estimators!r}")
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, index = np.unique(y, return_inverse=True)
        name = type(self).__name__
        if X.shape[0] < 2:
            raise ValueError(f"{name} needs at least 2 samples, got {X.shape[0]} sample")
        if self.classes_.size < 2:
            raise ValueError(f"{name} needs at least 2 classes, got 1 class: {self.classes_.tolist()}")
        weights = self._initial_weights(index, self.classes_.size)
        family = Stumps(X, constant=True)
        start = perf_counter()  # as column generation's history: after presorting the features
        stumps, votes, alphas, edges, history = [], [], [], [], []
        for _ in range(self.n_estimators):
            stump, v, edge = self._weak_learner(family, weights, index)
            if stump is None or edge <= 0.0:
                break
            alpha = 0.5 * np.log((1.0 + edge) / max(1.0 - edge, 1e-12))
            self._reweight(weights, alpha, stump(X), v, index)
            stumps.append(stump)
            votes.append(v)
            alphas.append(alpha)
            edges.append(edge)
            history.append({"n_columns": len(stumps), "edge": edge, "seconds": perf_counter() - start})
            if self._stop_when_perfect and edge >= 1.0 - 1e-12:  # nothing is left to boost
                break
        self.stumps_ = stumps
        self.votes_ = np.array(votes).reshape(-1, self.classes_.size)
        self.alphas_ = np.array(alphas)
        self.edges_ = np.array(edges)
        self.n_iter_ = len(stumps)
        self.history_ = history
        return self

    @staticmethod
    def _labels(index: np.ndarray, K: int) -> np.ndarray:
        """Y_il = +1 if y_i is class l, else -1."""
        Y = -np.ones((index.size, K))
        Y[np.arange(index.size), index] = 1.0
        return Y

    def _initial_weights(self, index: np.ndarray, K: int) -> np.ndarray:
        """D(i, l) = 1 / (n K), uniform over (point, class) pairs."""
        return np.full((index.size, K), 1.0 / (index.size * K))

    def _weak_learner(self, family: Stumps, D: np.ndarray, index: np.ndarray) -> tuple[Stump | None, np.ndarray, float]:
        """The stump phi and votes v_l = sign(gamma_l) with the largest edge sum_l |gamma_l|."""
        stump, per_class = self._best_stump(family, D * self._labels(index, D.shape[1]))
        return stump, np.where(per_class >= 0, 1.0, -1.0), float(np.abs(per_class).sum())

    def _reweight(self, D: np.ndarray, alpha: float, phi: np.ndarray, v: np.ndarray, index: np.ndarray) -> None:
        """D(i, l) proportional to D(i, l) exp(-alpha v_l phi(x_i) Y_il), in place."""
        D *= np.exp(-alpha * np.outer(phi, v) * self._labels(index, D.shape[1]))
        D /= D.sum()

    @staticmethod
    def _best_stump(family: Stumps, DY: np.ndarray) -> tuple[Stump | None, np.ndarray]:
        """The stump phi maximising sum_l |sum_i DY_il phi(x_i)|, and its per-class edges gamma_l."""
        row, feature, per_class, _ = family.search(DY)
        if row < 0:
            return None, np.zeros(DY.shape[1])
        return Stump(feature, family.threshold(row, feature)), per_class

    def staged_decision_function(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """f(x) = (f_1(x), ..., f_K(x)) after each round; (n_samples,) f_2 - f_1 for two classes."""
        check_is_fitted(self, "stumps_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        f = np.zeros((X.shape[0], self.classes_.size))
        for phi, v, alpha in zip(outputs(self.stumps_, X).T, self.votes_, self.alphas_):
            f += alpha * np.outer(phi, v)
            yield f[:, 1] - f[:, 0] if self.classes_.size == 2 else f.copy()

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """f(x) after the last round, shape (n_samples, K), or (n_samples,) f_2 - f_1 for two classes."""
        check_is_fitted(self, "stumps_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        f = outputs(self.stumps_, X) @ (self.alphas_[:, None] * self.votes_)
        return f[:, 1] - f[:, 0] if self.classes_.size == 2 else f

    def _label(self, f: np.ndarray) -> np.ndarray:
        return self.classes_[(f > 0).astype(int) if f.ndim == 1 else np.argmax(f, axis=1)]

    def predict(self, X: np.ndarray) -> np.ndarray:
        """argmax_l f_l(x)."""
        return self._label(self.decision_function(X))

    def staged_predict(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """Predicted classes after each round."""
        for f in self.staged_decision_function(X):
            yield self._label(f)


class AdaBoostECCClassifier(AdaBoostMHClassifier):
    """AdaBoost.ECC with decision stumps (Guruswami & Sahai, COLT 1999; CGEns Table III).

    Weights D live on the mislabels (i, l), l != y_i, initially uniform. Round t draws
    a colouring mu in {-1, +1}^K of the classes (uniformly, both colours present),
    which makes a binary problem with labels mu(y_i) and point weights
    d_i proportional to sum_l D(i, l) [mu(l) != mu(y_i)]; the weak learner is the
    stump phi and sign s with the largest edge gamma = sum_i d_i mu(y_i) s phi(x_i)
    (negation-complete, exact search), alpha = 1/2 ln((1 + gamma) / (1 - gamma))
    (1 - gamma floored at 1e-12, as for AdaBoost.MH), and D(i, l) is multiplied by
    exp(-alpha s phi(x_i) mu(y_i)) where mu(l) != mu(y_i) (unchanged elsewhere) and
    renormalised. The classifier is
    argmax_l sum_t alpha_t s_t phi_t(x) mu_t(l): AdaBoost.MH's form with votes
    v_t = s_t mu_t, so prediction and staged prediction are shared. With two classes
    every colouring separates them and this is discrete AdaBoost with stumps.

    Random colourings are Guruswami & Sahai's simplest choice (their analysis
    holds for any colouring with U_t = sum D(i, l) [mu(l) != mu(y_i)] > 0; one with
    U_t = 0 is drawn again); the CGEns paper does not say which its AdaBoost.ECC
    used. A stump that separates one colouring perfectly (gamma = 1) does not end
    boosting, since the mislabels of equally coloured classes keep their weight.

    Parameters
    ----------
    n_estimators : int, default=100
        Boosting rounds (fewer if an edge reaches 0).
    random_state : int, RandomState or None, default=None
        Seeds the colourings.

    Attributes
    ----------
    colorings_ : ndarray of shape (n_iter_, K)
        mu_t of each round.
    classes_, stumps_, votes_, alphas_, edges_, n_iter_, history_, n_features_in_
        As for :class:`AdaBoostMHClassifier`; ``edges_`` holds gamma_t.
    """

    def __init__(self, n_estimators: int = 100, *, random_state=None) -> None:
        self.n_estimators = n_estimators
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray) -> AdaBoostECCClassifier:
        """Boost on two or more classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self._random = check_random_state(self.random_state)
        self._colorings: list[np.ndarray] = []
        super().fit(X, y)
        self.colorings_ = np.array(self._colorings[: self.n_iter_]).reshape(-1, self.classes_.size)
        del self._random, self._colorings
        return self

    def _initial_weights(self, index: np.ndarray, K: int) -> np.ndarray:
        """D(i, l) = 1 / (n (K - 1)) on the mislabels l != y_i, 0 at l = y_i."""
        D = np.full((index.size, K), 1.0 / (index.size * (K - 1)))
        D[np.arange(index.size), index] = 0.0
        return D

    _stop_when_perfect = False

    def _weak_learner(self, family: Stumps, D: np.ndarray, index: np.ndarray) -> tuple[Stump | None, np.ndarray, float]:
        """Colour the classes, then the stump and sign with the largest weighted edge on the binary problem."""
        while True:  # both colours, and some weighted mislabel they separate (U_t > 0)
            mu = np.where(self._random.random_sample(D.shape[1]) < 0.5, -1.0, 1.0)
            d = (D * (mu[None, :] != mu[index][:, None])).sum(axis=1)
            if d.sum() > 0:
                break
        self._colorings.append(mu)
        stump, (gamma,) = self._best_stump(family, (d * mu[index] / d.sum())[:, None])
        return stump, np.sign(gamma) * mu, float(abs(gamma))

    def _reweight(self, D: np.ndarray, alpha: float, phi: np.ndarray, v: np.ndarray, index: np.ndarray) -> None:
        """D(i, l) times exp(-alpha h(x_i) mu(y_i)) where mu(l) != mu(y_i), h = s phi; in place."""
        mu = self._colorings[-1]
        h = phi * (v[0] / mu[0])  # s phi(x), since v = s mu
        D *= np.exp(-alpha * (mu[None, :] != mu[index][:, None]) * (h * mu[index])[:, None])
        D /= D.sum()


class StagedSearchCV(ClassifierMixin, BaseEstimator):
    """Choose parameters and the number of iterations by k-fold CV, one fit per fold and grid point (§VI-A).

    CGEns §VI-A chooses C and the iteration count in {25, 50, 100, 250, 500} by
    5-fold cross-validation. The ensembles here (CGEns, LPBoost, AdaBoost.MH,
    scikit-learn's AdaBoost) give the model after every iteration with
    ``staged_predict``, so each fold and grid point needs one fit with the largest
    count; the chosen setting is then refitted on all the data.

    Parameters
    ----------
    method : str, default="cgens"
        A registered method (:data:`mkbench.harness.methods.METHODS`) with ``staged_predict``.
    params : dict, default=None
        Fixed parameters of the method.
    param_grid : dict, default=None
        Parameters to cross-validate, e.g. ``{"C": [0.01, 0.1, 1]}``.
    n_iters : sequence of int or None, default=(25, 50, 100, 250, 500)
        Iteration counts to choose from; passed as ``max_iter`` (``n_estimators`` if
        the method has that parameter instead). None: no count is chosen, and the
        method needs no ``staged_predict`` (e.g. the SVM baselines: plain grid search).
    cv : int, default=5
        Stratified folds.
    random_state : int, default=0
        Seeds the folds.
    svc_bandwidth_grid : dict or None, default=None
        A grid ``{"C": [...], "gamma": [...]}`` of an RBF SVM (scikit-learn's SVC,
        method ``"svc-rbf"``). If given, that SVM is cross-validated first, on the
        same folds, and its chosen ``gamma`` is passed to the method as a fixed
        parameter: CGEns samples its Fourier learners at the SVM's cross-validated
        bandwidth (§VI-A, Table II). The SVM's choice is the one a separate search
        of the same grid with ``method="svc-rbf"`` and ``n_iters=None`` makes.

    Attributes
    ----------
    best_params_ : dict
        The chosen grid point and iteration count (and ``gamma`` with
        ``svc_bandwidth_grid``). Of grid points with equal mean validation error the
        first in :class:`~sklearn.model_selection.ParameterGrid` order wins (for
        ``{"C": [...]}`` the smallest C, the most regularised model).
    best_estimator_ : estimator
        The method refitted with ``best_params_`` on all the data.
    cv_errors_ : ndarray of shape (n_grid_points, len(n_iters) or 1)
        Mean validation error of each grid point and iteration count.
    classes_ : ndarray
    n_iter_ : int
        Iterations of the refitted method (see the property).

    Every other public fitted attribute of the refitted method (a name ending in
    ``_``, e.g. ``status_``, ``history_``, ``n_support_``, ``n_columns_by_kernel_``)
    is read through from ``best_estimator_``, so a record of the search
    (:func:`mkbench.experiment.run_job`) has the same size fields as a record of
    the method fitted alone.
    """

    def __init__(
        self,
        method: str = "cgens",
        *,
        params: dict | None = None,
        param_grid: dict | None = None,
        n_iters=(25, 50, 100, 250, 500),
        cv: int = 5,
        random_state: int = 0,
        svc_bandwidth_grid: dict | None = None,
    ) -> None:
        self.method = method
        self.params = params
        self.param_grid = param_grid
        self.n_iters = n_iters
        self.cv = cv
        self.random_state = random_state
        self.svc_bandwidth_grid = svc_bandwidth_grid

    def fit(self, X: np.ndarray, y: np.ndarray, **fit_params) -> StagedSearchCV:
        """Cross-validate, then refit the best setting on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        **fit_params : dict
            Extra arguments of the method's ``fit``, passed unchanged, never split
            into folds, to every fold's fit and to the refit: e.g. SSMK's
            ``X_unlabeled``, the unlabelled points, whose length has nothing to do
            with X's (scikit-learn's GridSearchCV would index an array of X's
            length by the fold, as if it were per sample). They are not passed to
            the RBF SVM of ``svc_bandwidth_grid``.

        Returns
        -------
        self
        """
        from .harness.methods import make_method  # the registry imports estimators lazily; so does this

        n_iters = None if self.n_iters is None else sorted(int(t) for t in self.n_iters)
        if n_iters is not None and (not n_iters or n_iters[0] < 1):
            raise ValueError(f"n_iters must be None or a non-empty list of integers >= 1, got {self.n_iters!r}")
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        params = dict(self.params or {})
        bandwidth = {} if self.svc_bandwidth_grid is None else {"gamma": self._svc_bandwidth(X, y)}
        params.update(bandwidth)
        counter = "n_estimators" if "n_estimators" in make_method(self.method).get_params() else "max_iter"
        counts = {} if n_iters is None else {counter: n_iters[-1]}
        grid = list(ParameterGrid(self.param_grid or {}))
        errors = np.zeros((len(grid), 1 if n_iters is None else len(n_iters)))
        folds = StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state).split(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # a count below convergence is the point
            for train, test in folds:
                for g, point in enumerate(grid):
                    model = make_method(self.method, {**params, **point, **counts})
                    model.fit(X[train], y[train], **fit_params)
                    if n_iters is None:
                        errors[g, 0] += np.mean(model.predict(X[test]) != y[test]) / self.cv
                        continue
                    # a fit that stopped before its first learner (optimal at once) has no stages
                    staged = list(model.staged_predict(X[test])) or [model.predict(X[test])]
                    for k, t in enumerate(n_iters):
                        errors[g, k] += np.mean(staged[min(t, len(staged)) - 1] != y[test]) / self.cv
            g, k = np.unravel_index(np.argmin(errors), errors.shape)
            self.best_params_ = {**bandwidth, **grid[g], **({} if n_iters is None else {counter: n_iters[k]})}
            self.best_estimator_ = make_method(self.method, {**params, **self.best_params_})
            self.best_estimator_.fit(X, y, **fit_params)
        self.cv_errors_ = errors
        self.classes_ = self.best_estimator_.classes_
        return self

    def _svc_bandwidth(self, X: np.ndarray, y: np.ndarray) -> float:
        """The gamma of the RBF SVM cross-validated over ``svc_bandwidth_grid`` on this search's folds."""
        grid = self.svc_bandwidth_grid
        if not (isinstance(grid, dict) and "gamma" in grid):
            raise ValueError(
                f"svc_bandwidth_grid must be a dict of SVC parameters with a 'gamma' list, e.g. "
                f"{{'C': [1, 10], 'gamma': [0.1, 1]}}; got {grid!r}"
            )
        svc = StagedSearchCV("svc-rbf", param_grid=grid, n_iters=None, cv=self.cv, random_state=self.random_state)
        return float(svc.fit(X, y).best_params_["gamma"])

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """The refitted method's decision values."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The refitted method's predictions."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def _refitted(self, name: str):
        check_is_fitted(self, "best_estimator_")
        if not hasattr(self.best_estimator_, name):
            raise AttributeError(f"{type(self.best_estimator_).__name__} has no attribute {name!r}")
        return getattr(self.best_estimator_, name)

    @property
    def n_iter_(self) -> int:
        """Iterations of the refitted method (learners or rounds; for scikit-learn's AdaBoost its stumps)."""
        check_is_fitted(self, "best_estimator_")
        if hasattr(self.best_estimator_, "estimators_"):
            return len(self.best_estimator_.estimators_)
        return int(np.sum(self._refitted("n_iter_")))  # scikit-learn SVC: one count per pair of classes

    def __getattr__(self, name: str):
        """A public fitted attribute (``status_``, ``history_``, ``n_support_``...) of the refitted method.

        Called only for names not found on the search itself; private names, names
        not ending in ``_`` and every name before ``fit`` raise AttributeError.
        """
        refitted = self.__dict__.get("best_estimator_")  # not getattr: no recursion before fit or in copies
        if refitted is None or name.startswith("_") or not name.endswith("_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        try:
            return getattr(refitted, name)
        except AttributeError:
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r} "
                f"(nor has its refitted {type(refitted).__name__})"
            ) from None


_ADABOOST_LEARNERS = ("stump", "perceptron")


class _TwoClasses(ClassifierMixin):
    """scikit-learn tags of a classifier of two classes only."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class WeakLearnerClassifier(_TwoClasses, BaseEstimator):
    """One weak learner of :mod:`mkbench.learners`, the one with the least weighted training error.

    With weights D_i >= 0 and labels y_i in {-1, +1}, the learner h maximising
    sum_i D_i y_i h(x_i) = sum_i D_i - 2 sum_{h(x_i) != y_i} D_i has the least weighted
    error: the base learning step of AdaBoost, and of LPBoost (eq. 6). Stumps are
    searched exactly (the constant learner included); perceptrons are the best of
    ``n_candidates`` drawn from the perceptron kernel's measure (§VI-A). Every
    family is negation complete, so the error is at most 1/2.

    Parameters
    ----------
    learner : {"stump", "perceptron"}, default="perceptron"
    n_candidates : int, default=2000
        Perceptrons drawn per fit.
    random_state : int, RandomState or None, default=None
        Seeds the perceptrons (scikit-learn's AdaBoost gives each round its own seed).

    Attributes
    ----------
    learner_ : Stump or Perceptron
        h, signed so that h(x) = +1 means ``classes_[1]``.
    classes_ : ndarray of shape (2,)
    n_features_in_ : int
    """

    def __init__(self, learner: str = "perceptron", *, n_candidates: int = 2000, random_state=None) -> None:
        self.learner = learner
        self.n_candidates = n_candidates
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None) -> WeakLearnerClassifier:
        """Choose the learner with the least error weighted by ``sample_weight`` (uniform if None).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights D_i.

        Returns
        -------
        self
        """
        if self.learner not in _ADABOOST_LEARNERS:
            raise ValueError(f"learner={self.learner!r} is not one of {', '.join(map(repr, _ADABOOST_LEARNERS))}")
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, signed = _binary_labels(type(self).__name__, X, y)
        D = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        family = make_family(
            self.learner, X, n_candidates=self.n_candidates, constant=True,
            random_state=check_random_state(self.random_state),
        )
        self.learner_ = family.best(D * signed).learner
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        """``classes_[1]`` where h(x) = +1, else ``classes_[0]``."""
        check_is_fitted(self, "learner_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self.classes_[(self.learner_(X) > 0).astype(int)]


def _binary_labels(name: str, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``classes_`` and y coded -1 / +1 (+1 = ``classes_[1]``); a clear error unless there are two classes."""
    check_classification_targets(y)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {type_of_target(y)}: "
            f"y has {classes.size} class(es) {classes.tolist()[:5]}; use AdaBoostMHClassifier for more classes."
        )
    if X.shape[0] < 2:
        raise ValueError(f"{name} needs at least 2 samples, got {X.shape[0]}")
    return classes, np.where(y == classes[1], 1.0, -1.0)


class LearnerAdaBoostClassifier(_TwoClasses, BaseEstimator):
    """scikit-learn's AdaBoost over the weak learners of :mod:`mkbench.learners` (CGEns Table II, "AdaBoost").

    Discrete AdaBoost (SAMME, two classes: Freund & Schapire's AdaBoost) from
    :class:`sklearn.ensemble.AdaBoostClassifier`, each round fitting a
    :class:`WeakLearnerClassifier` on the current weights; with perceptrons, each
    round draws its ``n_candidates`` perceptrons afresh.

    Parameters
    ----------
    learner : {"stump", "perceptron"}, default="perceptron"
    n_estimators : int, default=50
        Boosting rounds (fewer if a learner has zero weighted error).
    n_candidates : int, default=2000
        Perceptrons drawn per round (§VI-A).
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    ensemble_ : AdaBoostClassifier
    estimators_ : list of WeakLearnerClassifier
    n_iter_ : int
        Rounds run.
    classes_ : ndarray of shape (2,)
    n_features_in_ : int
    """

    def __init__(
        self, learner: str = "perceptron", *, n_estimators: int = 50, n_candidates: int = 2000, random_state=None
    ) -> None:
        self.learner = learner
        self.n_estimators = n_estimators
        self.n_candidates = n_candidates
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray) -> LearnerAdaBoostClassifier:
        """Boost on two classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, _ = _binary_labels(type(self).__name__, X, y)
        weak = WeakLearnerClassifier(self.learner, n_candidates=self.n_candidates)
        self.ensemble_ = AdaBoostClassifier(weak, n_estimators=self.n_estimators, random_state=self.random_state)
        self.ensemble_.fit(X, y)
        return self

    @property
    def estimators_(self) -> list:
        check_is_fitted(self, "ensemble_")
        return self.ensemble_.estimators_

    @property
    def n_iter_(self) -> int:
        return len(self.estimators_)

    def _checked(self, X: np.ndarray) -> np.ndarray:
        check_is_fitted(self, "ensemble_")
        return validate_data(self, X, reset=False, dtype=np.float64)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """AdaBoost's decision values; positive means ``classes_[1]``."""
        X = self._checked(X)
        return self.ensemble_.decision_function(X)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted classes."""
        X = self._checked(X)
        return self.ensemble_.predict(X)

    def staged_predict(self, X: np.ndarray) -> Iterator[np.ndarray]:
        """Predicted classes after each round."""
        X = self._checked(X)
        return self.ensemble_.staged_predict(X)


def feature_counts(model) -> np.ndarray | None:
    """How many of a fitted ensemble's stumps split on each input feature (CGEns Fig. 5).

    Reads the stumps of CGEns / LPBoost / CGEns-SLS (``learners_``), AdaBoost.MH
    (``stumps_``), :class:`LearnerAdaBoostClassifier` and scikit-learn's AdaBoost
    with depth-1 trees (``estimators_``), through :class:`StagedSearchCV`'s
    refitted model. The constant learner splits on no feature.

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
        return estimator.learner_
    tree = getattr(estimator, "tree_", None)
    if tree is None or tree.max_depth > 1:
        return None
    if tree.node_count == 1:  # a single leaf: the constant learner
        return Stump(0, float("inf"))
    return Stump(int(tree.feature[0]), float(tree.threshold[0]))
