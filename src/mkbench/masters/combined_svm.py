"""The SVM with a combined kernel: J(beta) and its gradient over a stack of unit-trace kernels.

Both SILP (Sonnenburg et al., JMLR 2006) and SimpleMKL (Rakotomamonjy et al.,
ICML 2007, JMLR 2008) minimise, over kernel weights beta on the simplex,

    J(beta) = max_alpha  sum_i alpha_i - 1/2 alpha' Y (sum_k beta_k K_k) Y alpha
              s.t.  alpha' y = 0,  0 <= alpha_i <= C_i,

the dual objective of an SVM with the combined kernel (solved here by
scikit-learn's libsvm on the precomputed kernel, :mod:`mkbench.masters.libsvm_call`),
and by Danskin's theorem dJ/dbeta_k = -1/2 alpha*' Y K_k Y alpha* (notes,
"J(beta)" slide). :class:`CombinedSVM` evaluates both at any beta, reading the
stack of training kernels (:func:`mkbench.kernels.grid.unit_trace_stack`) in place.
C_i = C in the papers; a per-sample C_i = C w_i is libsvm's box for sample
weights w (``SVC.fit(K, y, sample_weight=w)``), and J(beta) and its gradient
keep their form: only the box changes.

The stack may be float64 or float32 (the estimators' ``dtype``, issue 44). A float32 stack
halves the bytes every pass reads; the combinations and the quadratic terms still
accumulate in float64 (:func:`_combine`, :func:`_support_terms`, compiled:
numpy's product of a float32 array by a float64 one would cast a float64 copy of the
stack's part first), so J(beta), its gradient and the duality gap are those of the
float32 kernels, evaluated in float64.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ._solution import check_per_sample
from .libsvm_call import solve_precomputed

__all__ = ["CombinedSVM", "SVMSolution"]


@numba.njit(cache=True, nogil=True)
def _combine(flat, weights, used, out):  # pragma: no cover - compiled
    """out = sum_{k in used} weights_k flat_k, summed in float64 in the order of ``used``, four kernels a pass.

    ``flat`` (M, n^2) is float64 or float32. Each entry is the sum of numpy's loop
    ``out += weights[k] * flat[k]`` over ``used``, bit for bit: the same products are added in the
    same order (without fused multiply-adds), only four of them at each pass over ``out``.
    """
    out[:] = 0.0
    grouped = used.size - used.size % 4
    for q in range(0, grouped, 4):
        a, b, c, d = used[q], used[q + 1], used[q + 2], used[q + 3]
        wa, wb, wc, wd = weights[a], weights[b], weights[c], weights[d]
        ra, rb, rc, rd = flat[a], flat[b], flat[c], flat[d]
        for j in range(out.size):
            total = out[j] + wa * np.float64(ra[j])
            total = total + wb * np.float64(rb[j])
            total = total + wc * np.float64(rc[j])
            out[j] = total + wd * np.float64(rd[j])
    for k in used[grouped:]:
        w, row = weights[k], flat[k]
        for j in range(out.size):
            out[j] = out[j] + w * np.float64(row[j])


@numba.njit(cache=True, nogil=True)
def _support_terms(stack, support, alpha_y, out):  # pragma: no cover - compiled
    """out_k = alpha_y' K_k alpha_y in float64, reading the rows of the support only (of float32 kernels here).

    For each k, r = sum_{i in S} v_i K_k[i, :] by :func:`_combine` over the rows, then out_k = sum_{i in S} r_i v_i:
    |S| n entries of each kernel.
    """
    row = np.empty(alpha_y.size)
    for k in range(stack.shape[0]):
        _combine(stack[k], alpha_y, support, row)
        total = 0.0
        for i in support:
            total += row[i] * alpha_y[i]
        out[k] = total


@dataclass(frozen=True)
class SVMSolution:
    """The SVM with the combined kernel sum_k beta_k K_k, solved at fixed weights beta.

    Attributes
    ----------
    beta : ndarray of shape (n_kernels,)
        The weights it was solved at.
    alpha_y : ndarray of shape (n_samples,)
        y_i alpha_i (0 off the support).
    support : ndarray of shape (n_support,)
        Indices i with alpha_i > 0.
    intercept : float
        Offset b of f(x) = sum_i y_i alpha_i K(x, x_i) + b.
    objective : float
        J(beta) = sum_i alpha_i - 1/2 alpha' Y K Y alpha, the SVM dual objective.
    kernel : ndarray of shape (n_samples, n_samples)
        The combined training kernel K = sum_k beta_k K_k.
    """

    beta: np.ndarray
    alpha_y: np.ndarray
    support: np.ndarray
    intercept: float
    objective: float
    kernel: np.ndarray

    @property
    def alpha_sum(self) -> float:
        """sum_i alpha_i."""
        return float(np.abs(self.alpha_y).sum())


class CombinedSVM:
    """J(beta) and its gradient over a stack of unit-trace training kernels.

    Parameters
    ----------
    stack : ndarray of shape (n_kernels, n_samples, n_samples)
        Training kernels (:func:`mkbench.kernels.grid.unit_trace_stack`), float64 or float32;
        read in place, never copied.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n_samples,)
        SVM box constraint, or one per sample, C_i >= 0 (not all 0; a sample of
        C_i = 0 gets alpha_i = 0).
    tol : float
        libsvm's stopping tolerance.

    Attributes
    ----------
    n_solves : int
        SVMs solved so far.
    """

    def __init__(self, stack: np.ndarray, y: np.ndarray, C: float | np.ndarray, tol: float) -> None:
        self.stack = stack
        self.y = y
        n_kernels, n, _ = stack.shape
        self.C = check_per_sample(C, n, "C") if np.ndim(C) else C
        self.tol = tol
        self.n_solves = 0
        self._flat = stack.reshape(n_kernels, n * n)  # a view: rows are the kernels
        self._rows = stack.reshape(n_kernels * n, n)

    @property
    def n_kernels(self) -> int:
        return self.stack.shape[0]

    def kernel(self, weights: np.ndarray) -> np.ndarray:
        """The combination sum_k w_k K_k, reading only the kernels with w_k != 0.

        A float64 stack with at least half the weights nonzero is one BLAS matrix-vector
        product; otherwise :func:`_combine` adds the used kernels four at a pass, in float64,
        with the bits of the former loop ``K += w_k K_k`` (measured, issue 44, at M = 442,
        n = 246: 0.10 against 0.33 ms for 10 kernels, 1.8 against 5.4 ms for 100; a float32
        stack 0.08 and 1.3 ms, and 5 ms for all 442 kernels against BLAS's 11 ms in float64).

        Parameters
        ----------
        weights : ndarray of shape (n_kernels,)
            Any weights (kernel weights beta, or a direction of change of beta).

        Returns
        -------
        ndarray of shape (n_samples, n_samples)
        """
        n = self.stack.shape[1]
        used = np.flatnonzero(weights)
        if self.stack.dtype == np.float64 and 2 * used.size >= weights.size:
            return (weights @ self._flat).reshape(n, n)
        K = np.empty((n, n))
        _combine(self._flat, np.asarray(weights, dtype=np.float64), used, K.reshape(-1))
        return K

    def solve(self, beta: np.ndarray, kernel: np.ndarray | None = None) -> SVMSolution:
        """Solve the SVM dual with kernel sum_k beta_k K_k (libsvm; no warm start).

        Parameters
        ----------
        beta : ndarray of shape (n_kernels,)
        kernel : ndarray of shape (n_samples, n_samples), default=None
            sum_k beta_k K_k if the caller has it (e.g. updated along a line); None
            computes it.

        Returns
        -------
        SVMSolution
        """
        K = self.kernel(beta) if kernel is None else kernel
        dual = solve_precomputed(K, self.y, C=self.C, tol=self.tol)
        self.n_solves += 1
        alpha_y = dual.dual_coef
        support = np.flatnonzero(alpha_y)
        v = alpha_y[support]
        objective = np.abs(v).sum() - 0.5 * v @ K[np.ix_(support, support)] @ v
        return SVMSolution(beta, alpha_y, support, dual.intercept, float(objective), K)

    def quadratic_terms(self, alpha_y: np.ndarray) -> np.ndarray:
        """alpha' Y K_k Y alpha for every kernel k, reading the rows of the support only.

        With S the support (alpha_i > 0) and v = y alpha = ``alpha_y``, alpha' Y K_k Y alpha =
        sum_{i in S} v_i (K_k v)_i. Where |S| <= n / 4 the |S|^2 entries K_k[S, S] of every kernel
        are gathered in one indexing, as v' K_k[S, S] v (measured, issue 42: at n = 124, 182
        kernels, 0.04-0.8 ms for |S| = 10-40 against 7 ms for the whole product); otherwise
        :meth:`_row_products` reads the |S| rows of the support, |S| n of the n^2 entries of each
        kernel. Measured (issue 44) at M = 442, n = 245, |S| = 83 (Ionosphere's grid): 11 against
        38 ms for the whole product; M = 793, n = 145, |S| = 101 (Sonar's): 9 against 13 ms;
        M = 208, n = 457, |S| = 183 (Credit's): 15 against 33 ms (medians on a loaded machine).
        A float32 stack's rows of the support are summed in float64 by :func:`_support_terms`
        (Ionosphere's shape: 5.8 against 7.3 ms in float64); its support block is gathered and
        cast to float64 as in float64.

        Parameters
        ----------
        alpha_y : ndarray of shape (n_samples,)

        Returns
        -------
        ndarray of shape (n_kernels,)
        """
        support = np.flatnonzero(alpha_y)
        n = alpha_y.size
        if 4 * support.size > n and self.stack.dtype == np.float32:
            terms = np.empty(self.n_kernels)
            _support_terms(self.stack, support, alpha_y, terms)
            return terms
        if 4 * support.size > n:
            return self._row_products(alpha_y, support) @ alpha_y
        v = alpha_y[support]
        block = self._flat[:, (support[:, None] * n + support).ravel()]  # (M, |S|^2): K_k[S, S] of every k
        return block.reshape(self.n_kernels, support.size, support.size) @ v @ v

    def _row_products(self, alpha_y: np.ndarray, support: np.ndarray) -> np.ndarray:
        """(K_k alpha_y)_i for the rows i of ``support``, 0 on the other rows: shape (n_kernels, n_samples).

        Equal bit for bit to the rows of the whole product ``stack.reshape(M n, n) @ alpha_y``,
        so that SimpleMKL's and SILP's iterates are the whole product's: the paths are that
        sensitive (SimpleMKL on a Credit split of the paper's protocol takes 15 iterations instead
        of 20 when the gradient changes by 1e-13 relative). A BLAS matrix-vector product takes
        the rows in groups of four and each row of a group alike wherever the group sits, then
        the last rows by another kernel (OpenBLAS's kernels for SkylakeX, Haswell and
        Sandybridge, checked on 600 random shapes; ``tests/library/test_simplemkl_iterates.py``
        checks the installed BLAS). Here each support row i is one product over the strided view
        ``stack[:, i, :]``, the kernels past the last whole group of four go in one padded
        product, and the whole product's last (M n) mod 4 rows (the last kernel's) are taken as
        its remainder, after a group of four. A BLAS that groups otherwise gives the same
        products but for rounding.
        """
        M, n, _ = self.stack.shape
        products = np.zeros((M, n))
        grouped = M - M % 4
        for i in support:
            products[:grouped, i] = self.stack[:grouped, i, :] @ alpha_y
        if grouped < M:  # the last M mod 4 kernels' rows, in groups of four
            rows = self.stack[grouped:, support, :].reshape(-1, n)
            padded = np.zeros((-(-rows.shape[0] // 4) * 4, n))
            padded[: rows.shape[0]] = rows
            products[grouped:, support] = (padded @ alpha_y)[: rows.shape[0]].reshape(M - grouped, -1)
        last = M * n - (M * n) % 4  # the whole product's remainder rows: the last kernel's rows from last - (M - 1) n
        if last < M * n and support[-1] >= last - (M - 1) * n:
            start = max(last - 4, 0)
            products.reshape(-1)[last:] = (self._rows[start:] @ alpha_y)[last - start :]
        return products

    def gradient(self, solution: SVMSolution) -> np.ndarray:
        """dJ/dbeta_k = -1/2 alpha*' Y K_k Y alpha* at the solution's beta (notes, "J(beta)")."""
        return -0.5 * self.quadratic_terms(solution.alpha_y)
