"""SimpleMKL's and SILP's gradient from the support's rows: the whole product's bits, and so its iterates.

:meth:`CombinedSVM.quadratic_terms` reads only the support's rows of the stack (issue 44).
SimpleMKL's path is so sensitive to rounding (a gradient changed by 1e-13 relative gives
another path on a Credit split from the tenth iteration) that the papers' tables stay
unchanged only if the gradient keeps its bits: the references are the whole product
``stack.reshape(M n, n) @ v`` of the stack, which the gradient must equal bit for bit, and
numpy's einsum over the stack with scikit-learn's SVC on kernels summed by einsum, whose
iterates the fits must follow to 1e-10.
"""

import numpy as np
import pytest

from mkbench import SILPClassifier, SimpleMKLClassifier
from mkbench.kernels.grid import resolve_kernels, unit_trace_stack
from mkbench.estimators._mkl import _PerSampleC
from mkbench.masters.combined_svm import CombinedSVM


def _whole_product(stack, alpha_y):
    """alpha_y' K_k alpha_y of every kernel from the product of the whole stack."""
    M, n, _ = stack.shape
    return (stack.reshape(M * n, n) @ alpha_y).reshape(M, n) @ alpha_y


# every M mod 4 and (M n) mod 4; supports above n / 4 (the row products) with and without the last row
@pytest.mark.parametrize("n_kernels", [1, 2, 3, 4, 5, 6, 7, 13])
@pytest.mark.parametrize("n", [9, 30, 31, 57])
@pytest.mark.parametrize("share", [0.3, 0.7, 1.0])
def test_quadratic_terms_are_the_whole_products_bits(n_kernels, n, share):
    rng = np.random.default_rng([n_kernels, n, int(10 * share)])
    X = rng.normal(size=(n, 4))
    stack = np.stack([np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / width) for width in range(1, n_kernels + 1)])
    stack[0] = X @ X.T
    svm = CombinedSVM(stack, np.where(rng.random(n) > 0.5, 1.0, -1.0), C=1.0, tol=1e-5)
    for last_row in (True, False):
        alpha_y = np.zeros(n)
        support = rng.choice(n - 1, max(int(share * n) - 1, n // 4 + 1), replace=False)
        alpha_y[support] = rng.normal(size=support.size)
        alpha_y[n - 1] = rng.normal() if last_row else 0.0
        assert 4 * np.count_nonzero(alpha_y) > n  # the row products, not the support block
        terms = svm.quadratic_terms(alpha_y)
        np.testing.assert_array_equal(terms, _whole_product(stack, alpha_y))
        np.testing.assert_allclose(terms, np.einsum("kij,i,j->k", stack, alpha_y, alpha_y), rtol=1e-12)


class _Direct(_PerSampleC):
    """J(beta) and its gradient computed directly: einsum kernels and gradient, scikit-learn's SVC (unit weights)."""

    def __init__(self, stack, y, C, tol):
        super().__init__(stack, y, C, tol, np.ones(y.size))

    def kernel(self, weights):
        return np.einsum("k,kij->ij", weights, self.stack)

    def solve(self, beta, kernel=None):
        return super().solve(beta)  # the line search's own kernel is ignored: einsum's

    def quadratic_terms(self, alpha_y):
        return np.einsum("kij,i,j->k", self.stack, alpha_y, alpha_y)


class _WholeProduct(CombinedSVM):
    """The gradient from the product of the whole stack (this module's reference)."""

    def quadratic_terms(self, alpha_y):
        return _whole_product(self.stack, alpha_y)


def _path(estimator, svm):
    """The optimiser's weights at every gradient, its result and the SVMs solved."""
    weights = []
    gradient = svm.gradient

    def recorded(solution):
        weights.append(solution.beta.copy())
        return gradient(solution)

    svm.gradient = recorded
    result = estimator._optimise(svm, 0.0)
    return np.array(weights), result, svm.n_solves


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(48, 4))
    y = np.where(X[:, 0] * X[:, 1] + 0.5 * X[:, 2] + 0.5 * rng.normal(size=48) > 0, 1.0, -1.0)
    stack, _ = unit_trace_stack(resolve_kernels("simplemkl", X), X)  # 13 kernels on all, 13 on each variable
    return stack, y


@pytest.mark.parametrize("estimator", [SimpleMKLClassifier(tol=1e-3), SILPClassifier(tol=1e-3)])
def test_iterates_are_those_of_the_whole_product_and_of_the_direct_computation(problem, estimator):
    stack, y = problem
    weights, result, solves = _path(estimator, CombinedSVM(stack, y, 100.0, 1e-5))
    assert result.status == "optimal" and result.n_iter >= 5
    assert 4 * result.solution.support.size > y.size  # the row products are in use
    whole, whole_result, whole_solves = _path(estimator, _WholeProduct(stack, y, 100.0, 1e-5))
    np.testing.assert_array_equal(weights, whole)
    assert (result.n_iter, solves) == (whole_result.n_iter, whole_solves)
    direct, direct_result, direct_solves = _path(estimator, _Direct(stack, y, 100.0, 1e-5))
    assert (result.n_iter, solves) == (direct_result.n_iter, direct_solves)
    np.testing.assert_allclose(weights, direct, rtol=0, atol=1e-10 * np.abs(direct).max())
