"""Every kernel form a user brings (issue 22): scikit-learn's gamma, callables, partials of
sklearn.metrics.pairwise kernels and sklearn.gaussian_process kernel objects fit and predict
exactly as the same kernel given by name, in CG-Boost, SSMK, SILP and SimpleMKL; bad forms
give errors that name the shape or the property."""

import functools

import numpy as np
import pytest
from sklearn.gaussian_process.kernels import RBF as GaussianProcessRBF
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from mkbench import CGBoostClassifier, SILPClassifier, SimpleMKLClassifier, SSMKClassifier
from mkbench.kernels import RBF, FunctionKernel, Polynomial, WeakRBF, make_kernel, make_library

GAMMA = 0.2


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] ** 2 + X[:, 1] - 1.0 + 0.3 * rng.normal(size=60) > 0, 1, 0)
    return X[:40], y[:40], X[40:]


# the same library, L and an RBF with sigma = 1 / GAMMA, in every form
NAMED = ["linear", {"name": "rbf", "sigma": 1.0 / GAMMA}]
FORMS = {
    "gamma": ["linear", {"name": "rbf", "gamma": GAMMA}],
    "partial": [linear_kernel, functools.partial(rbf_kernel, gamma=GAMMA)],
    "lambda": [lambda A, B: A @ B.T, lambda A, B: rbf_kernel(A, B, gamma=GAMMA)],
    # exp(-||x - z||^2 / (2 l^2)): l^2 = sigma / 2
    "gaussian-process": ["L", GaussianProcessRBF(length_scale=np.sqrt(0.5 / GAMMA))],
}
ESTIMATORS = {
    "cgboost-l1": lambda kernels: CGBoostClassifier(kernels, penalty="l1", C=1.0),
    "cgboost-l2": lambda kernels: CGBoostClassifier(kernels, solver="clarabel", C=1.0),
    "ssmk": lambda kernels: SSMKClassifier(kernels, C=1.0),
    "silp": lambda kernels: SILPClassifier(kernels, C=10.0),
    "simplemkl": lambda kernels: SimpleMKLClassifier(kernels, C=10.0),
}


def _fit(name, kernels, data):
    X, y, X_new = data
    model = ESTIMATORS[name](kernels)
    if name == "ssmk":
        return model.fit(X[:20], y[:20], X_unlabeled=X[20:])
    return model.fit(X, y)


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_every_form_equals_the_kernel_by_name(data, name, form):
    X_new = data[2]
    reference = _fit(name, NAMED, data)
    model = _fit(name, FORMS[form], data)
    np.testing.assert_allclose(model.decision_function(X_new), reference.decision_function(X_new), atol=1e-8)
    np.testing.assert_array_equal(model.predict(X_new), reference.predict(X_new))


def test_a_single_callable_is_a_library_of_one(data):
    X, y, X_new = data
    model = CGBoostClassifier(functools.partial(rbf_kernel, gamma=GAMMA), penalty="l1").fit(X, y)
    named = CGBoostClassifier({"name": "rbf", "gamma": GAMMA}, penalty="l1").fit(X, y)
    np.testing.assert_allclose(model.decision_function(X_new), named.decision_function(X_new), atol=1e-8)
    assert list(model.n_columns_by_kernel_) == ["rbf_kernel(gamma=0.2)"]


def test_gamma_is_one_over_sigma_and_the_polynomial_takes_sklearn_gamma():
    X = np.random.default_rng(0).normal(size=(6, 3))
    assert RBF(gamma=GAMMA) == RBF(sigma=1.0 / GAMMA) == make_kernel({"name": "R", "gamma": GAMMA})
    assert WeakRBF(1, gamma=2.0) == WeakRBF(1, sigma=0.5)
    np.testing.assert_allclose(RBF(gamma=GAMMA)(X, X), rbf_kernel(X, gamma=GAMMA), atol=1e-15)
    poly = make_kernel({"name": "poly", "degree": 3, "gamma": 0.5, "offset": 2.0})
    np.testing.assert_allclose(poly(X, X), polynomial_kernel(X, degree=3, gamma=0.5, coef0=2.0), rtol=1e-12)
    assert Polynomial().name == "quadratic" and "gamma=0.5" in poly.name


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ({"name": "rbf", "gamma": 0.1, "sigma": 10.0}, ValueError, r"sigma or gamma, not both: .* sigma = 1 / gamma"),
        ({"name": "rbf", "gamma": -1.0}, ValueError, "gamma must be > 0"),
        ({"name": "poly", "gamma": 0.0}, ValueError, "gamma must be > 0"),
        (3.0, TypeError, r"a name, a mapping, a Kernel or a callable k\(X, Z\), got float"),
    ],
)
def test_bad_kernel_specs_name_the_problem(spec, error, message):
    with pytest.raises(error, match=message):
        make_kernel(spec)


def test_a_callable_of_the_wrong_shape_or_values_is_named(data):
    X, y, _ = data
    with pytest.raises(ValueError, match=r"returned an array of shape \(40,\) .* must return the Gram block of shape \(40, 40\)"):
        CGBoostClassifier(lambda A, B: A[:, 0], penalty="l1").fit(X, y)
    with pytest.raises(ValueError, match=r"kernel <lambda> returned NaN or infinite values"):
        CGBoostClassifier(lambda A, B: np.full((len(A), len(B)), np.nan), penalty="l1").fit(X, y)
    with pytest.raises(TypeError, match="needs a callable"):
        FunctionKernel(3)


def test_names_of_callables_in_records():
    names = [k.name for k in make_library([functools.partial(rbf_kernel, gamma=0.5), linear_kernel,
                                           GaussianProcessRBF(2.0), FunctionKernel(linear_kernel, "mine")])]
    assert names == ["rbf_kernel(gamma=0.5)", "linear_kernel", "RBF(length_scale=2)", "mine"]
