"""Every kernel form a user brings (issue 22): scikit-learn's gamma, callables, partials of
sklearn.metrics.pairwise kernels and sklearn.gaussian_process kernel objects fit and predict
exactly as the same kernel given by name, in CG-Boost, SSMK, SILP and SimpleMKL; bad forms
give errors that name the shape or the property."""

import functools

import numpy as np
import pytest
from sklearn.gaussian_process.kernels import RBF as GaussianProcessRBF
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from mkbench import SILPClassifier, SimpleMKLClassifier, SSMKClassifier
from mkbench.kernels import RBF, FunctionKernel, Polynomial, WeakRBF, make_kernel, make_library

from ._paper import paper_cgboost

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
    "cgboost-l1": lambda kernels: paper_cgboost(kernels, penalty="l1", C=1.0),
    "cgboost-l2": lambda kernels: paper_cgboost(kernels, solver="clarabel", C=1.0),
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
    model = paper_cgboost(functools.partial(rbf_kernel, gamma=GAMMA), penalty="l1").fit(X, y)
    named = paper_cgboost({"name": "rbf", "gamma": GAMMA}, penalty="l1").fit(X, y)
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


DIVISORS = {"sigma": lambda sigma: sigma, "sigma^2": lambda sigma: sigma**2, "2sigma^2": lambda sigma: 2 * sigma**2}


@pytest.mark.parametrize("denominator", DIVISORS)
def test_the_rbf_denominator_conventions_are_sklearns_gamma(denominator):
    """Each convention is scikit-learn's rbf_kernel at gamma = 1 / sigma, 1 / sigma^2, 1 / (2 sigma^2), for a
    given sigma and for the data's mean squared distance (pairs i = j included), which resolve() sets."""
    X = np.random.default_rng(1).normal(size=(7, 3))
    gamma = 1 / DIVISORS[denominator](3.0)
    np.testing.assert_allclose(RBF(sigma=3.0, denominator=denominator)(X, X), rbf_kernel(X, gamma=gamma), atol=1e-15)
    kernel = make_kernel({"name": "R", "denominator": denominator}).resolve(X)
    sigma = float(np.mean(((X[:, None] - X[None]) ** 2).sum(-1)))
    assert kernel.name == "rbf" and kernel.sigma == pytest.approx(sigma)
    np.testing.assert_allclose(kernel(X, X), rbf_kernel(X, gamma=1 / DIVISORS[denominator](sigma)), atol=1e-14)


def test_a_quadratic_of_any_offset_is_table_1s_q():
    """The homogeneous (x'z)^2 is scikit-learn's polynomial kernel with coef0 = 0, and counts as Q columns."""
    X = np.random.default_rng(2).normal(size=(5, 4))
    kernel = make_kernel({"name": "Q", "offset": 0.0})
    np.testing.assert_allclose(kernel(X, X), polynomial_kernel(X, degree=2, gamma=1.0, coef0=0.0), rtol=1e-12)
    assert kernel.name == Polynomial().name == "quadratic"


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ({"name": "rbf", "gamma": 0.1, "sigma": 10.0}, ValueError, r"sigma or gamma, not both: .* sigma = 1 / gamma"),
        ({"name": "rbf", "gamma": -1.0}, ValueError, "gamma must be > 0"),
        ({"name": "poly", "gamma": 0.0}, ValueError, "gamma must be > 0"),
        (
            {"name": "rbf", "denominator": "2sigma"},
            ValueError,
            r"denominator must be one of 'sigma', 'sigma\^2', '2sigma\^2'",
        ),
        ({"name": "rbf", "gamma": 0.1, "denominator": "sigma^2"}, ValueError, "only defined with denominator='sigma'"),
        (3.0, TypeError, r"a name, a mapping, a Kernel or a callable k\(X, Z\), got float"),
    ],
)
def test_bad_kernel_specs_name_the_problem(spec, error, message):
    with pytest.raises(error, match=message):
        make_kernel(spec)


def test_a_callable_of_the_wrong_shape_or_values_is_named(data):
    X, y, _ = data
    with pytest.raises(
        ValueError, match=r"returned an array of shape \(40,\) .* must return the Gram block of shape \(40, 40\)"
    ):
        paper_cgboost(lambda A, B: A[:, 0], penalty="l1").fit(X, y)
    with pytest.raises(ValueError, match=r"kernel <lambda> returned NaN or infinite values"):
        paper_cgboost(lambda A, B: np.full((len(A), len(B)), np.nan), penalty="l1").fit(X, y)
    with pytest.raises(TypeError, match="needs a callable"):
        FunctionKernel(3)


def test_names_of_callables_in_records():
    names = [
        k.name
        for k in make_library(
            [
                functools.partial(rbf_kernel, gamma=0.5),
                linear_kernel,
                GaussianProcessRBF(2.0),
                FunctionKernel(linear_kernel, "mine"),
            ]
        )
    ]
    assert names == ["rbf_kernel(gamma=0.5)", "linear_kernel", "RBF(length_scale=2)", "mine"]


# ---------------------------------------------------------------- precomputed Gram matrices (MKLpy's lists)

MKL = {"silp": SILPClassifier, "simplemkl": SimpleMKLClassifier}


@pytest.mark.parametrize("as_array", [False, True])
@pytest.mark.parametrize("name", sorted(MKL))
def test_precomputed_lists_equal_the_kernels_by_name(data, name, as_array):
    X, y, X_new = data
    kernels = [make_kernel("linear"), RBF(sigma=1.0 / GAMMA), make_kernel("Q")]
    train = [k(X, X) for k in kernels]
    test = [k(X_new, X) for k in kernels]
    if as_array:
        train, test = np.stack(train), np.stack(test)
    reference = MKL[name](kernels, C=10.0, scaling=None).fit(X, y)  # the kernels of the raw inputs, as the lists
    model = MKL[name]("precomputed", C=10.0).fit(train, y)
    np.testing.assert_allclose(model.weights_, reference.weights_, atol=1e-8)
    np.testing.assert_allclose(model.decision_function(test), reference.decision_function(X_new), atol=1e-8)
    np.testing.assert_array_equal(model.predict(test), reference.predict(X_new))
    assert model.kernels_ == ("precomputed[0]", "precomputed[1]", "precomputed[2]")


def test_bad_precomputed_kernels_name_the_shape_or_property(data):
    X, y, X_new = data
    K = X @ X.T
    model = SILPClassifier("precomputed")
    cases = [
        (K, r"got one 2-D array of shape \(40, 40\): pass \[K\] for a single kernel"),
        ([K[:30, :30]], r"must be square, \(n_samples, n_samples\) = \(40, 40\) for 40 labels, got \(30, 30\)"),
        ([K[:, :30]], r"must be square"),
        ([K, K[:30, :30]], "Gram matrices of one shape"),
        ([K + np.triu(np.ones_like(K), 1)], r"kernel 0 is not symmetric: pass \(K \+ K.T\) / 2"),
        ([K - 5.0 * np.eye(40)], r"kernel 0 is not positive semi-definite \(smallest eigenvalue .*\): .*K \+ c I"),
        ([np.where(K > 0, np.nan, K)], "kernel 0 has NaN or infinite values"),
        ([], "non-empty list"),
    ]
    for grams, message in cases:
        with pytest.raises(ValueError, match=message):
            model.fit(grams, y)
    fitted = SILPClassifier("precomputed").fit([K, K**2], y)
    with pytest.raises(ValueError, match=r"must be 2 matrices of shape \(n_test, 40\) .* got 1 of shape \(20, 40\)"):
        fitted.predict([X_new @ X.T])
    with pytest.raises(ValueError, match=r"must be 2 matrices of shape \(n_test, 40\) .* got 2 of shape \(20, 20\)"):
        fitted.predict([X_new @ X_new.T] * 2)
