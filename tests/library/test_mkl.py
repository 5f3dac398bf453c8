"""MKL (SILP, SimpleMKL): the optimum of the MKL QCQP, the SVM at the weights, gradients, the grid.

The reference for the optimum is the notes' QCQP form of the MKL dual,
max_alpha sum alpha - t s.t. t >= 1/2 alpha'YK_kYalpha for every k,
0 <= alpha <= C, y'alpha = 0, solved directly as a second-order cone program by
Clarabel; the SVM references are scikit-learn's SVC. None of them shares code
with the estimators.
"""

import tracemalloc

import clarabel
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench import SILPClassifier, SimpleMKLClassifier
from mkbench.estimators.simplemkl import descent_direction
from mkbench.exceptions import SolverError
from mkbench.kernels import RBF, Linear, Polynomial, WeakRBF
from mkbench.kernels.grid import OnVariables, kernel_grid, resolve_kernels, unit_trace_stack
from mkbench.masters.combined_svm import CombinedSVM
from mkbench.masters.silp_highs import SILPMaster

from ._weight_checks import LIBSVM, weight_checks

ESTIMATORS = [SILPClassifier, SimpleMKLClassifier]
KERNELS = [Linear(), RBF(sigma=0.5), RBF(sigma=4.0), Polynomial(2), OnVariables(RBF(sigma=1.0), (1,))]
C = 10.0


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3))
    labels = np.where(X[:, 0] * X[:, 1] + 0.3 * X[:, 2] + 0.3 * rng.normal(size=60) > 0, "yes", "no")
    return X[:40], labels[:40], X[40:]


def _signed(labels):
    return np.where(labels == "yes", 1.0, -1.0)  # classes_ = ["no", "yes"]


def _unit_trace(kernels, X, Z=None):
    """[K_k(Z, X) / trace K_k(X, X)] computed here from the kernel objects."""
    Z = X if Z is None else Z
    return [k(Z, X) / np.trace(k(X, X)) for k in kernels]


def mkl_optimum(Ks, y, C):
    """min_beta J(beta) as the MKL dual QCQP (notes), solved by Clarabel as a cone program."""
    n = len(y)
    blocks, rhs = [sp.csr_matrix(np.r_[y, 0.0][None, :])], [np.zeros(1)]  # y'alpha = 0
    blocks += [sp.hstack([-sp.eye(n), sp.csr_matrix((n, 1))]), sp.hstack([sp.eye(n), sp.csr_matrix((n, 1))])]
    rhs += [np.zeros(n), np.full(n, C)]  # 0 <= alpha <= C
    t_row = sp.csr_matrix(np.r_[np.zeros(n), -1.0][None, :])
    for K in Ks:  # (t + 1/2, t - 1/2, L'Y alpha) in the second-order cone <=> 1/2 alpha'YKYalpha <= t
        w, V = np.linalg.eigh(K)
        L = V * np.sqrt(np.clip(w, 0.0, None))
        blocks += [t_row, t_row, sp.hstack([sp.csr_matrix(-(L.T * y)), sp.csr_matrix((n, 1))])]
        rhs += [np.array([0.5]), np.array([-0.5]), np.zeros(n)]
    cones = [clarabel.ZeroConeT(1), clarabel.NonnegativeConeT(2 * n)] + [clarabel.SecondOrderConeT(n + 2)] * len(Ks)
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = settings.tol_gap_rel = 1e-10
    A = sp.vstack(blocks, format="csc")
    result = clarabel.DefaultSolver(
        sp.csc_matrix((n + 1, n + 1)), np.r_[-np.ones(n), 1.0], A, np.concatenate(rhs), cones, settings
    ).solve()
    assert result.status == clarabel.SolverStatus.Solved
    return -result.obj_val


def svc_dual_objective(K, y, C):
    """Dual objective of scikit-learn's SVC on the precomputed kernel K, solved tightly."""
    svc = SVC(C=C, kernel="precomputed", tol=1e-8).fit(K, y)
    v = svc.dual_coef_[0]
    return np.abs(v).sum() - 0.5 * v @ K[np.ix_(svc.support_, svc.support_)] @ v, svc


@pytest.fixture(scope="module")
def fitted(data):
    X, labels, _ = data
    # scaling=None: the references below take the kernels of the raw inputs
    return {cls: cls(KERNELS, C=C, tol=1e-5, scaling=None).fit(X, labels) for cls in ESTIMATORS}


def test_both_reach_the_qcqp_optimum(data, fitted):
    X, labels, _ = data
    optimum = mkl_optimum(_unit_trace(KERNELS, X), _signed(labels), C)
    silp, simple = fitted[SILPClassifier], fitted[SimpleMKLClassifier]
    for model in (silp, simple):
        assert model.status_ == "optimal"
        assert model.history_[-1]["gap"] <= 1e-5
        assert model.objective_ == pytest.approx(optimum, rel=1e-4)
        assert model.weights_.sum() == pytest.approx(1.0) and model.weights_.min() >= 0
    assert silp.objective_ == pytest.approx(simple.objective_, rel=1e-3)  # the "same optimum"
    assert simple.n_kernels_selected_ < len(KERNELS)  # the optimum is sparse here: the test covers zero weights


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_objective_is_the_svm_dual_at_the_weights(data, fitted, cls):
    X, labels, X_new = data
    model = fitted[cls]
    y = _signed(labels)
    K = sum(w * K for w, K in zip(model.weights_, _unit_trace(KERNELS, X), strict=True))
    objective, svc = svc_dual_objective(K, y, C)
    assert model.objective_ == pytest.approx(objective, rel=1e-5)
    K_new = sum(w * K for w, K in zip(model.weights_, _unit_trace(KERNELS, X, X_new), strict=True))
    f = svc.decision_function(K_new)
    np.testing.assert_allclose(model.decision_function(X_new), f, atol=1e-3 * np.abs(f).max())
    assert np.array_equal(model.predict(X_new), np.where(f > 0, "yes", "no"))
    np.testing.assert_allclose(model.kernel_scales_, [1 / np.trace(k(X, X)) for k in KERNELS])


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_predict_computes_only_the_selected_kernels(data, fitted, cls):
    _, _, X_new = data
    model = fitted[cls]
    expected = model.decision_function(X_new)
    unused = model.weights_ == 0
    assert unused.any()

    class Forbidden(Linear):
        def __call__(self, X, Z):
            raise AssertionError("a kernel with weight 0 was computed")

    model.kernels_, kept = (
        tuple(Forbidden() if u else k for k, u in zip(model.kernels_, unused, strict=True)),
        model.kernels_,
    )
    try:
        np.testing.assert_array_equal(model.decision_function(X_new), expected)
    finally:
        model.kernels_ = kept


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_single_kernel_is_the_plain_svm(data, cls):
    X, labels, X_new = data
    model = cls([RBF(sigma=2.0)], C=C, scaling=None).fit(X, labels)
    # unit trace divides the RBF kernel by n: the same SVM as the raw kernel with C / n
    svc = SVC(kernel="rbf", gamma=0.5, C=C / len(X), tol=1e-8).fit(X, labels)
    assert model.weights_.tolist() == [1.0] and model.status_ == "optimal"
    for Z in (X, X_new):
        f = svc.decision_function(Z)
        np.testing.assert_allclose(model.decision_function(Z), f, atol=1e-4 * np.abs(f).max())


def test_gradient_and_reduced_gradient_match_finite_differences(data):
    X, labels, _ = data
    stack, _ = unit_trace_stack(KERNELS[:3], X)
    svm = CombinedSVM(stack, _signed(labels), C, tol=1e-10)
    beta = np.array([0.5, 0.3, 0.2])
    gradient = svm.gradient(svm.solve(beta))
    h = 1e-4

    def derivative(direction):
        return (svm.solve(beta + h * direction).objective - svm.solve(beta - h * direction).objective) / (2 * h)

    for k in range(3):  # dJ/dbeta_k
        assert gradient[k] == pytest.approx(derivative(np.eye(3)[k]), rel=1e-3)
    mu = 0
    for k in (1, 2):  # reduced gradient: beta_mu = 1 - sum of the others
        assert gradient[k] - gradient[mu] == pytest.approx(derivative(np.eye(3)[k] - np.eye(3)[mu]), rel=1e-3)
    D = descent_direction(beta, gradient, mu)
    assert D.sum() == pytest.approx(0.0, abs=1e-12)
    assert derivative(D) == pytest.approx(gradient @ D, rel=1e-3) and gradient @ D < 0


def test_descent_direction_keeps_zero_weights_feasible():
    gradient = np.array([-3.0, -1.0, -5.0, -2.0])
    beta = np.array([0.6, 0.4, 0.0, 0.0])
    D = descent_direction(beta, gradient, 0)
    # beta_2 = 0 may grow (its reduced gradient -2 < 0), beta_3 = 0 must stay (reduced gradient +1 > 0)
    np.testing.assert_allclose(D, [0.0, -2.0, 2.0, 0.0])
    assert gradient @ D < 0


def test_silp_master_equals_a_cold_lp_solve():
    rng = np.random.default_rng(0)
    master = SILPMaster(5)
    with pytest.raises(ValueError, match="no cut yet"):
        master.solve()
    cuts = []
    for _ in range(6):
        cuts.append(rng.normal(size=5))
        master.add_cut(cuts[-1])
        beta, theta = master.solve()  # warm from the previous basis
        # min theta s.t. cuts @ beta <= theta, sum beta = 1, beta >= 0, by scipy's linprog
        A = np.hstack([np.array(cuts), -np.ones((len(cuts), 1))])
        cold = linprog(
            np.r_[np.zeros(5), 1.0],
            A_ub=A,
            b_ub=np.zeros(len(cuts)),
            A_eq=np.r_[np.ones(5), 0.0][None],
            b_eq=[1.0],
            bounds=[(0, None)] * 5 + [(None, None)],
        )
        assert theta == pytest.approx(cold.fun, abs=1e-9)
        assert np.max(np.array(cuts) @ beta) == pytest.approx(theta, abs=1e-9) and beta.sum() == pytest.approx(1)
    with pytest.raises(ValueError, match="one value per kernel"):
        master.add_cut(np.ones(4))


@pytest.mark.parametrize(("width", "n_kernels"), [(15, 208), (33, 442), (60, 793)])
def test_grid_sizes_of_the_paper(width, n_kernels):
    X = np.random.default_rng(width).normal(size=(20, width))
    assert len(kernel_grid(X)) == n_kernels  # Credit, Ionosphere, Sonar (issue 6, item 4)


def test_grid_drops_constant_columns_and_groups_variables():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 34))
    X[:, 2] = 0.0  # Ionosphere's constant column
    kernels = kernel_grid(X)
    assert len(kernels) == 442
    assert all(2 not in getattr(k, "variables", ()) for k in kernels)
    # Credit: 15 variables as 46 columns (the one-hot blocks of the categorical ones)
    sizes = [2, 1, 1, 3, 3, 14, 9, 1, 2, 2, 1, 2, 3, 1, 1]
    groups = np.split(np.arange(46), np.cumsum(sizes)[:-1])
    grid = resolve_kernels({"grid": "simplemkl", "variables": [g.tolist() for g in groups]}, rng.normal(size=(30, 46)))
    assert len(grid) == 208
    # the Gaussian of width w is exp(-||x - z||^2 / (2 w^2)); on one column it is MARK's weak RBF
    first = kernels[0]
    assert isinstance(first, OnVariables) and first.kernel == RBF(sigma=2 * 0.5**2)
    single = next(k for k in kernels if getattr(k, "variables", None) == (5,))
    np.testing.assert_allclose(single(X, X[:4]), WeakRBF(5, sigma=single.kernel.sigma)(X, X[:4]))
    np.testing.assert_allclose(single(X, X[:4]), np.exp(-((X[:, [5]] - X[:4, 5]) ** 2) / (2 * 0.5**2)))


def test_max_iter_warns_and_keeps_a_model(data):
    X, labels, _ = data
    for cls in ESTIMATORS:
        with pytest.warns(ConvergenceWarning, match="stopped \\(max_iter\\)"):
            model = cls(KERNELS, C=C, max_iter=0).fit(X, labels)
        assert model.status_ == "max_iter" and len(model.history_) == 1
        np.testing.assert_allclose(model.weights_, 1 / len(KERNELS))
        assert model.score(X, labels) > 0.5


def test_bad_inputs_have_clear_messages(data):
    X, labels, _ = data
    with pytest.raises(ValueError, match=r"y has only one class \('a'\): a classifier needs two classes"):
        SILPClassifier().fit(X[:30], np.repeat(["a"], 30))
    with pytest.raises(ValueError, match=r"'C' parameter of SILPClassifier must be a float in the range \(0.0, inf\)"):
        SILPClassifier(C=0).fit(X, labels)
    with pytest.raises(ValueError, match=r"'tol' parameter .* must be a float in the range \(0.0, inf\)\. Got -1"):
        SimpleMKLClassifier(tol=-1).fit(X, labels)
    with pytest.raises(ValueError, match=r"'max_iter' parameter .* must be an int in the range \[0, inf\)\. Got 2.5"):
        SimpleMKLClassifier(max_iter=2.5).fit(X, labels)
    with pytest.raises(ValueError, match=r"'line_search_tol' parameter .* in the range \(0.0, 1.0\)\. Got 1.5"):
        SimpleMKLClassifier(line_search_tol=1.5).fit(X, labels)
    with pytest.raises(KeyError, match="unknown kernel grid 'huge'"):
        SILPClassifier({"grid": "huge"}).fit(X, labels)
    with pytest.raises(ValueError, match="no option\\(s\\) sigma"):
        SILPClassifier({"grid": "simplemkl", "sigma": 1}).fit(X, labels)
    with pytest.raises(ValueError, match="column indices in \\[0, 3\\)"):
        SILPClassifier({"grid": "simplemkl", "variables": [[0], [3]]}).fit(X, labels)
    with pytest.raises(ValueError, match="Gaussian widths must be finite and > 0"):
        SILPClassifier({"grid": "simplemkl", "widths": [0]}).fit(X, labels)
    with pytest.raises(ValueError, match="the kernel library is empty"):
        SILPClassifier([]).fit(X, labels)
    zero = np.c_[X, np.zeros(len(X))]
    with pytest.raises(ValueError, match="kernel 1 \\(linear\\[3\\]\\) has trace 0.*drop that kernel"):
        SILPClassifier([Linear(), OnVariables(Linear(), (3,))]).fit(zero, labels)
    with pytest.raises(ValueError, match="every column of X is constant"):
        SimpleMKLClassifier().fit(np.ones_like(X), labels)


def test_silp_master_failure_is_an_error():
    master = SILPMaster(3, options={"simplex_iteration_limit": 0, "presolve": "off"})
    master.add_cut([1.0, 2.0, 0.5])
    with pytest.raises(SolverError, match="'Iteration limit reached' on the SILP master LP"):
        master.solve()


@parametrize_with_checks(
    [cls(["linear", "rbf"], max_iter=30) for cls in ESTIMATORS],
    expected_failed_checks=lambda estimator: weight_checks(LIBSVM),
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("cls", ESTIMATORS)
def test_kernels_are_stored_once(cls):
    """Peak memory of a fit stays near the one stack of M training kernels: no per-iteration copies."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 7))
    y = np.where(X[:, 0] * X[:, 1] + X[:, 2] > 0, 1, 0)
    tracemalloc.start()
    try:
        model = cls(max_iter=5).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    kernel_bytes = 80 * 80 * 8
    assert len(model.kernels_) == 104 and model.n_svm_fits_ > 5
    # the stack of 104 kernels, plus a few dozen n x n work arrays (combined kernels of the line search)
    assert peak < (104 + 40) * kernel_bytes
