"""SILP and SimpleMKL at their defaults (issue 42): scaled inputs, the "auto" grid, C = n, one stack for one-vs-rest.

The references are computed here from the definitions, as in ``test_mkl.py``: the "range"
scaling and the grid's kernels in numpy, the optimum of the MKL QCQP by Clarabel
(:func:`mkl_optimum`), one-vs-rest by scikit-learn's ``OneVsRestClassifier``.
"""

import clarabel
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_blobs
from sklearn.multiclass import OneVsRestClassifier

from mkbench import SILPClassifier, SimpleMKLClassifier
from mkbench.kernels import RBF, Linear, Polynomial, WeakRBF
from mkbench.kernels.grid import (
    AUTO_GRID_VALUES,
    SIMPLEMKL_DEGREES,
    SIMPLEMKL_WIDTHS,
    OnVariables,
    auto_grid,
    kernel_grid,
    resolve_kernels,
    unit_trace_stack,
)
from mkbench.masters.combined_svm import CombinedSVM

ESTIMATORS = [SILPClassifier, SimpleMKLClassifier]
UNITS = np.array([1.0, 1000.0, 0.01])  # raw features in very different units


@pytest.fixture(scope="module")
def raw():
    rng = np.random.default_rng(7)
    Z = rng.normal(size=(90, 3))
    labels = np.where(Z[:, 0] * Z[:, 1] + 0.5 * Z[:, 2] + 0.3 * rng.normal(size=90) > 0, "yes", "no")
    X = Z * UNITS + np.array([5.0, -300.0, 2.0])
    return X[:60], labels[:60], X[60:]


def _range_scaled(X, Z):
    """Z as the "range" scaling of X puts it: centred, divided by each range, then all to mean variance 1."""
    centred = (X - X.mean(axis=0)) / np.ptp(X, axis=0)
    factor = np.sqrt(np.mean(centred**2))
    return (Z - X.mean(axis=0)) / np.ptp(X, axis=0) / factor


def mkl_optimum(Ks, y, C):
    """min_beta J(beta), the MKL dual QCQP of ``test_mkl.mkl_optimum`` in a = alpha / C, solved by Clarabel.

    J* = C max_a (sum_i a_i - C t)  s.t.  t >= 1/2 a'YK_kYa for every k, 0 <= a <= 1, y'a = 0: with C = n
    (the default) and 52 kernels, the unscaled form stops "AlmostSolved". Each cone takes K_k's
    factor of rank r (eigenvalues above 1e-12 of the largest).
    """
    n = len(y)
    blocks, rhs = [sp.csr_matrix(np.r_[y, 0.0][None, :])], [np.zeros(1)]  # y'a = 0
    blocks += [sp.hstack([-sp.eye(n), sp.csr_matrix((n, 1))]), sp.hstack([sp.eye(n), sp.csr_matrix((n, 1))])]
    rhs += [np.zeros(n), np.ones(n)]  # 0 <= a <= 1
    cones = [clarabel.ZeroConeT(1), clarabel.NonnegativeConeT(2 * n)]
    t_row = sp.csr_matrix(np.r_[np.zeros(n), -1.0][None, :])
    for K in Ks:  # (t + 1/2, t - 1/2, L'Ya) in the second-order cone <=> 1/2 a'YKYa <= t, K = LL'
        w, V = np.linalg.eigh(K)
        kept = w > 1e-12 * w[-1]
        L = V[:, kept] * np.sqrt(w[kept])
        rank = int(kept.sum())
        blocks += [t_row, t_row, sp.hstack([sp.csr_matrix(-(L.T * y)), sp.csr_matrix((rank, 1))])]
        rhs += [np.array([0.5]), np.array([-0.5]), np.zeros(rank)]
        cones.append(clarabel.SecondOrderConeT(rank + 2))
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = settings.tol_gap_rel = 1e-9
    A = sp.vstack(blocks, format="csc")
    result = clarabel.DefaultSolver(
        sp.csc_matrix((n + 1, n + 1)), np.r_[-np.ones(n), C], A, np.concatenate(rhs), cones, settings
    ).solve()
    assert result.status == clarabel.SolverStatus.Solved
    return -C * result.obj_val


def _grid_kernels(X):
    """The SimpleMKL grid on all variables and each, as matrices: Gaussians exp(-d^2 / (2 w^2)), (x'z + 1)^q."""
    blocks = [X] + [X[:, [j]] for j in range(X.shape[1])]
    distances = [((B[:, None, :] - B[None, :, :]) ** 2).sum(axis=2) for B in blocks]
    gaussians = [[np.exp(-D / (2 * w**2)) for D in distances] for w in SIMPLEMKL_WIDTHS]
    polynomials = [[(B @ B.T + 1.0) ** q for B in blocks] for q in SIMPLEMKL_DEGREES]
    order = [
        K
        for family in (gaussians, polynomials)
        for K in ([row[0] for row in family] + [row[j] for j in range(1, len(blocks)) for row in family])
    ]
    return [K / np.trace(K) for K in order]


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_defaults_reach_the_qcqp_optimum(raw, cls):
    X, labels, _ = raw
    y = np.where(labels == "yes", 1.0, -1.0)
    optimum = mkl_optimum(_grid_kernels(_range_scaled(X, X)), y, C=len(y))  # C = n
    at_defaults = cls().fit(X, labels)
    assert len(at_defaults.kernels_) == 13 * 4 and at_defaults.C_ == 60.0  # 60 points: the grid on each variable too
    assert at_defaults.status_ == "optimal" and at_defaults.history_[-1]["gap"] <= 0.01
    # the certificate: J(beta) - min J <= gap J(beta), gap <= tol = 0.01
    assert optimum * (1 - 1e-7) <= at_defaults.objective_ <= optimum / (1 - 0.01)
    tight = cls(tol=1e-5).fit(X, labels)  # every other default kept
    assert tight.status_ == "optimal"
    assert tight.objective_ == pytest.approx(optimum, rel=1e-4)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_defaults_give_the_same_classes_on_rescaled_and_shifted_inputs(raw, cls):
    X, labels, X_new = raw
    reference = cls().fit(X, labels)
    f = reference.decision_function(X_new)
    assert 0.25 < np.mean(f > 0) < 0.75  # both classes predicted
    for transform in (lambda A: A * 1e6, lambda A: A * 1e-6, lambda A: A + 1e4 * UNITS, lambda A: A / UNITS):
        model = cls().fit(transform(X), labels)
        np.testing.assert_array_equal(model.predict(transform(X_new)), reference.predict(X_new))
        np.testing.assert_allclose(model.decision_function(transform(X_new)), f, atol=1e-4 * np.abs(f).max())
        np.testing.assert_allclose(model.weights_, reference.weights_, atol=1e-4)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_one_vs_rest_on_one_stack_is_one_vs_rest(cls):
    X, y = make_blobs(n_samples=120, centers=3, cluster_std=1.5, random_state=1)
    X = X * np.array([1.0, 100.0])
    model = cls().fit(X[:90], y[:90])
    reference = OneVsRestClassifier(cls()).fit(X[:90], y[:90])
    assert len(model.estimators_) == 3 and all(e.C_ == 90.0 for e in model.estimators_)
    assert all(e.kernels_ is model.kernels_ for e in model.estimators_)  # resolved once, shared
    np.testing.assert_allclose(model.decision_function(X[90:]), reference.decision_function(X[90:]), atol=1e-8)
    np.testing.assert_array_equal(model.n_iter_, [e.n_iter_ for e in reference.estimators_])
    assert np.mean(model.predict(X[90:]) == y[90:]) > 0.8


def test_the_paper_settings_are_the_former_defaults(raw):
    X, labels, _ = raw
    model = SILPClassifier(kernels="simplemkl", C=100.0, scaling=None).fit(X, labels)
    assert model.input_mean_ is None and model.C_ == 100.0 and len(model.kernels_) == 52


def test_auto_grid_keeps_per_variable_kernels_within_the_bound():
    rng = np.random.default_rng(0)
    small = rng.normal(size=(40, 5))
    small[:, 3] = 1.0  # a constant column is no variable
    assert len(auto_grid(small)) == 13 * 5 == len(kernel_grid(small))
    assert [k.name for k in auto_grid(rng.normal(size=(600, 5)))] == [
        k.name for k in kernel_grid(rng.normal(size=(600, 5)), each_variable=False)
    ]
    # one variable: 26 kernels of n^2 values; the bound 2^23 falls between n = 568 and 569
    assert 26 * 568**2 <= AUTO_GRID_VALUES < 26 * 569**2
    assert len(auto_grid(rng.normal(size=(568, 1)))) == 26 and len(auto_grid(rng.normal(size=(569, 1)))) == 13
    assert len(resolve_kernels({"grid": "simplemkl", "each_variable": False}, small)) == 13
    with pytest.raises(ValueError, match="each_variable must be True or False"):
        kernel_grid(small, each_variable="no")


def test_the_stack_of_shared_products_equals_the_kernels():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(50, 4))
    kernels = resolve_kernels("simplemkl", X) + [
        Linear(),
        Polynomial(5, offset=0.5, gamma=0.3),
        RBF(sigma=2.0, denominator="2sigma^2"),
        WeakRBF(1, sigma=1.0),
        OnVariables(Linear(), (0, 2)),
        OnVariables(Polynomial(2), (0, 2)),
    ]
    stack, scales = unit_trace_stack(kernels, X)
    for K, scale, kernel in zip(stack, scales, kernels, strict=True):
        direct = kernel(X, X)
        assert scale == pytest.approx(1 / np.trace(direct), rel=1e-12)
        np.testing.assert_allclose(K, direct / np.trace(direct), rtol=1e-12, atol=1e-15 * np.abs(K).max())


@pytest.mark.parametrize("support_size", [5, 12, 13, 40])  # the support block up to n / 4, then the stack
def test_quadratic_terms_on_the_support_equal_the_whole_product(support_size):
    rng = np.random.default_rng(support_size)
    X = rng.normal(size=(50, 3))
    stack, _ = unit_trace_stack(resolve_kernels("simplemkl", X), X)
    svm = CombinedSVM(stack, np.where(rng.random(50) > 0.5, 1.0, -1.0), C=1.0, tol=1e-5)
    alpha_y = np.zeros(50)
    alpha_y[rng.choice(50, support_size, replace=False)] = rng.normal(size=support_size)
    expected = np.array([alpha_y @ K @ alpha_y for K in stack])
    np.testing.assert_allclose(svm.quadratic_terms(alpha_y), expected, rtol=1e-12)


def test_bad_defaults_have_clear_messages(raw):
    X, labels, _ = raw
    with pytest.raises(ValueError, match=r"'C' parameter of SILPClassifier .* or a str among \{'auto'\}\. Got 'big'"):
        SILPClassifier(C="big").fit(X, labels)
    with pytest.raises(ValueError, match=r"'C' parameter of SimpleMKLClassifier must be .* Got None instead"):
        SimpleMKLClassifier(C=None).fit(X, labels)
    with pytest.raises(ValueError, match=r"'scaling' parameter .* a str among .*'range'.* or None\. Got 'minmax'"):
        SimpleMKLClassifier(scaling="minmax").fit(X, labels)
