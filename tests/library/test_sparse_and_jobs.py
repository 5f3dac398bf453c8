"""scipy sparse X where the columns allow it, a clear refusal elsewhere (issue 42, item 4), and one-vs-rest n_jobs
giving the same model as one job (item 5)."""

import numpy as np
import pytest
import scipy.sparse as sp
from joblib import parallel_config
from sklearn.base import BaseEstimator, clone
from sklearn.datasets import make_blobs, make_classification, make_regression
from sklearn.svm import LinearSVC

import mkbench as mk
from mkbench.estimators import KernelColumnRidge
from mkbench.estimators._multiclass import MarginClassifierMixin
from mkbench.estimators._rbf_inputs import _scale_gamma


def _sparse_problem(regression: bool = False):
    maker = make_regression if regression else make_classification
    X, y = maker(120, 20, random_state=0)
    X[np.abs(X) < 1.0] = 0.0  # about two thirds zeros
    return X, y


@pytest.mark.parametrize("solver", ["libsvm", "liblinear"])
def test_rff_takes_sparse_x_as_it_takes_dense(solver):
    X, y = _sparse_problem()
    weights = np.random.default_rng(1).integers(1, 3, size=len(y))
    model = mk.RFFClassifier(n_components=80 if solver == "liblinear" else 200, solver=solver, random_state=0)
    dense = clone(model).fit(X, y, sample_weight=weights)
    sparse = clone(model).fit(sp.csr_matrix(X), y, sample_weight=weights)
    assert sparse.gamma_ == pytest.approx(dense.gamma_, rel=1e-12)  # E[x^2] - E[x]^2 on the sparse matrix
    np.testing.assert_allclose(sparse.decision_function(sp.csr_matrix(X)), dense.decision_function(X), atol=1e-8)
    np.testing.assert_allclose(sparse.decision_function(X), dense.decision_function(X), atol=1e-8)


@pytest.mark.parametrize(
    "estimator",
    [
        mk.SelectedSVC(search="grid", param_grid={"C": [1.0]}, scaling=None),
        mk.SelectedSVR(search="grid", param_grid={"C": [3.0]}, scaling=None),
        mk.SelectedKernelRidge(search="grid", param_grid={"alpha": [1.0]}, scaling=None),
        mk.SelectedKernelColumnRidge(search="grid", param_grid={"C": [1.0]}, scaling=None),
        KernelColumnRidge(scaling=None),
    ],
    ids=lambda e: type(e).__name__,
)
def test_rbf_baselines_take_sparse_x_without_centring(estimator):
    X, y = _sparse_problem(regression=not hasattr(estimator, "class_order"))
    dense = clone(estimator).fit(X, y)
    sparse = clone(estimator).fit(sp.csr_matrix(X), y)
    assert sparse.get_params()["scaling"] is None
    np.testing.assert_allclose(sparse.predict(sp.csr_matrix(X)), dense.predict(X), rtol=1e-8, atol=1e-8)
    with pytest.raises(TypeError, match=r"scaling='range' centres the features.*scaling=None.*MaxAbsScaler"):
        clone(estimator).set_params(scaling="range").fit(sp.csr_matrix(X), y)
    centred = clone(estimator).set_params(scaling="range").fit(X, y)
    with pytest.raises(TypeError, match="centres the features, which would make a sparse X dense"):
        centred.predict(sp.csr_matrix(X))


def test_gamma_scale_of_a_sparse_matrix_is_its_variance():
    X, _ = _sparse_problem()
    assert _scale_gamma(sp.csr_matrix(X)) == pytest.approx(_scale_gamma(X), rel=1e-12)
    weights = np.arange(len(X)) % 3 + 1.0
    repeated = np.repeat(X, weights.astype(int), axis=0)
    assert _scale_gamma(sp.csr_matrix(X), weights) == pytest.approx(_scale_gamma(repeated), rel=1e-12)
    assert _scale_gamma(X, weights) == pytest.approx(_scale_gamma(repeated), rel=1e-12)


def test_staged_search_passes_sparse_x_to_a_method_that_takes_it():
    X, y = _sparse_problem()
    search = mk.StagedSearchCV(
        "rff", params={"n_components": 50, "random_state": 0}, param_grid={"C": [0.1, 1.0]}, n_iters=None, cv=3
    )
    dense = clone(search).fit(X, y)
    sparse = clone(search).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(sparse.cv_errors_, dense.cv_errors_)
    with pytest.raises(TypeError, match="SimpleMKLClassifier does not take sparse X"):
        mk.StagedSearchCV("simplemkl", n_iters=None, cv=2).fit(sp.csr_matrix(X), y)


@pytest.mark.parametrize(
    "estimator",
    [
        mk.InfiniteEnsembleSVC(),
        mk.SSMKClassifier(),
        mk.SILPClassifier(),
        mk.SimpleMKLClassifier(),
        mk.MARKRegressor(max_iter=2),
    ],
    ids=lambda e: type(e).__name__,
)
def test_estimators_with_dense_columns_refuse_sparse_x(estimator):
    X, y = _sparse_problem()
    name = type(estimator).__name__  # the refusal names the estimator, why, and the estimators that take sparse X
    with pytest.raises(TypeError, match=rf"{name} does not take sparse X: .* need.* dense inputs\. CGEnsClassifier"):
        clone(estimator).fit(sp.csr_matrix(X), y)


# one-vs-rest n_jobs ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def four_classes():
    X, y = make_blobs(80, n_features=4, centers=4, cluster_std=2.5, random_state=0)
    return X, np.array(["a", "b", "c", "d"])[y]


@pytest.mark.parametrize("cls", [mk.SILPClassifier, mk.SimpleMKLClassifier])
def test_mkl_n_jobs_gives_the_model_of_one_job(four_classes, cls):
    X, y = four_classes
    weights = np.arange(len(y)) % 3 + 1.0
    one = cls().fit(X, y, sample_weight=weights)
    two = cls(n_jobs=2).fit(X, y, sample_weight=weights)
    np.testing.assert_array_equal(two.decision_function(X), one.decision_function(X))
    np.testing.assert_array_equal(two.n_iter_, one.n_iter_)
    assert [m.kernels_ for m in two.estimators_] == [one.kernels_] * 4  # the one stack's kernels, shared


class _LinearMargin(MarginClassifierMixin, BaseEstimator):
    """The smallest margin classifier: a linear SVM as the binary model, one-vs-rest and Platt from the mixin."""

    def __init__(self, C: float = 1.0, probability: bool = False, n_jobs: int | None = None) -> None:
        self.C = C
        self.probability = probability
        self.n_jobs = n_jobs

    def fit(self, X, y, sample_weight=None):
        if self._fit_one_vs_rest(X, y, sample_weight):
            return self
        self.classes_ = np.unique(y)
        self.svm_ = LinearSVC(C=self.C, tol=1e-8, max_iter=100_000).fit(X, y, sample_weight)
        self.n_iter_ = int(self.svm_.n_iter_)
        self._calibrate(X, y, sample_weight)
        return self

    def _decision(self, X):
        return self.svm_.decision_function(X)


def test_the_mixins_one_vs_rest_reads_n_jobs(four_classes):
    """A preset only has to add the parameter: the generic one-vs-rest runs its fits n_jobs at a time (joblib's
    default backend, loky; threads here, whose workers start at once, where loky's import mkbench afresh)."""
    X, y = four_classes
    one = _LinearMargin(probability=True).fit(X, y)
    with parallel_config(backend="threading"):
        two = _LinearMargin(probability=True, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(two.decision_function(X), one.decision_function(X))
    np.testing.assert_array_equal(two.predict_proba(X), one.predict_proba(X))
    assert len(two.estimators_) == 4 and two.predict_proba(X).shape == (len(y), 4)
