"""One libsvm solve on a precomputed kernel, without scikit-learn's per-call input checks.

The column-generation masters (:mod:`mkbench.masters.qp_libsvm`, used by CG-Boost
and CGEns) and the MKL methods (SILP, SimpleMKL, through
:class:`mkbench.masters.combined_svm.CombinedSVM`) solve hundreds of small SVM duals
per fit. On such problems ``SVC.fit`` spends most of its time validating its
inputs and labels, not in libsvm (measured at 146 points: 16 ms per ``SVC.fit``
against 1.8 ms for the libsvm call itself). :func:`solve_precomputed` makes the call
``SVC.fit`` / ``SVR.fit`` make, to the libsvm binding scikit-learn ships
(``sklearn.svm._libsvm.fit``), with the same arguments and the same sign
convention, so its dual coefficients are SVC's and SVR's exactly
(``tests/library/test_libsvm.py`` checks this). The callers validate their inputs once.

``sklearn.svm._libsvm`` is a private module: if a scikit-learn release changes it,
the import or the call fails with an error naming the fix.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

try:
    from sklearn.svm import _libsvm
except ImportError as exc:  # pragma: no cover - depends on the installed scikit-learn
    raise ImportError(
        "mkbench calls scikit-learn's libsvm binding sklearn.svm._libsvm, which this "
        "scikit-learn version does not have; install a scikit-learn version listed in "
        "mkbench's pyproject.toml"
    ) from exc

__all__ = ["LibsvmDual", "solve_precomputed"]

_C_SVC, _EPSILON_SVR = 0, 3  # libsvm's svm_type codes (scikit-learn's LIBSVM_IMPL order)


@dataclass(frozen=True)
class LibsvmDual:
    """libsvm's solution of an SVM dual, as scikit-learn reports it.

    Attributes
    ----------
    dual_coef : ndarray of shape (n_samples,)
        ``SVC.dual_coef_`` (y_i u_i) or ``SVR.dual_coef_`` (u_i - v_i), scattered to
        every sample (0 off the support).
    intercept : float
        ``intercept_[0]``.
    iterations : int
        SMO iterations.
    converged : bool
        False when libsvm stopped at ``max_iter`` (scikit-learn's ConvergenceWarning).
    """

    dual_coef: np.ndarray
    intercept: float
    iterations: int
    converged: bool


def solve_precomputed(
    K: np.ndarray,
    y: np.ndarray,
    *,
    C: float | np.ndarray,
    tol: float,
    max_iter: int = -1,
    epsilon: float | None = None,
) -> LibsvmDual:
    """Solve the C-SVC dual (labels in {-1, +1}) or, with ``epsilon``, the epsilon-SVR dual.

    Equals ``SVC(kernel="precomputed", C=C, tol=tol, max_iter=max_iter).fit(K, y)``
    (or ``SVR(..., epsilon=epsilon)``) with scikit-learn's other defaults; a per-sample
    C_i = C w_i equals ``fit(K, y, sample_weight=w)``, libsvm's box 0 <= u_i <= C W_i
    read with C = 1 and W = C_i (the same floats as SVC's product C w_i).

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
        Kernel (Gram) matrix; already validated by the caller.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1} (both present), or regression targets when ``epsilon`` is given.
    C : float or ndarray of shape (n_samples,)
        Box constraint, or one per sample (>= 0, already validated). The samples of
        C_i = 0 are left out before libsvm sees them (their coefficients are 0):
        scikit-learn's libsvm drops them too, but then reports ``support_`` as
        positions among the samples it kept.
    tol : float
        libsvm's stopping tolerance.
    max_iter : int, default=-1
        SMO iteration cap; -1 for none.
    epsilon : float or None, default=None
        None solves the classification dual; a float the epsilon-insensitive regression dual.

    Returns
    -------
    LibsvmDual
    """
    if isinstance(C, np.ndarray):
        return _solve_weighted(K, y, C, tol=tol, max_iter=max_iter, epsilon=epsilon)
    K = np.ascontiguousarray(K, dtype=np.float64)
    return _fit(K, y, C=float(C), sample_weight=np.empty(0), tol=tol, max_iter=max_iter, epsilon=epsilon)


def _solve_weighted(K, y, C: np.ndarray, *, tol, max_iter, epsilon) -> LibsvmDual:
    """libsvm with the per-sample box C_i, on the samples of C_i > 0 only, scattered back to all."""
    kept = np.flatnonzero(C > 0.0)
    if kept.size < C.size:
        K, y = np.asarray(K, dtype=np.float64)[np.ix_(kept, kept)], np.asarray(y)[kept]
    weights = np.ascontiguousarray(C[kept], dtype=np.float64)
    dual = _fit(
        np.ascontiguousarray(K, dtype=np.float64),
        y,
        C=1.0,
        sample_weight=weights,
        tol=tol,
        max_iter=max_iter,
        epsilon=epsilon,
    )
    if kept.size == C.size:
        return dual
    coef = np.zeros(C.size)
    coef[kept] = dual.dual_coef
    return LibsvmDual(dual_coef=coef, intercept=dual.intercept, iterations=dual.iterations, converged=dual.converged)


def _fit(K: np.ndarray, y, *, C: float, sample_weight: np.ndarray, tol, max_iter, epsilon) -> LibsvmDual:
    """The call of :func:`solve_precomputed` on a contiguous K (``sample_weight`` empty: none)."""
    if epsilon is None:
        # SVC's targets are class indices in sorted order (-1 -> 0, +1 -> 1) ...
        target, svm_type, epsilon = (np.asarray(y) > 0).astype(np.float64), _C_SVC, 0.1
    else:
        target, svm_type = np.ascontiguousarray(y, dtype=np.float64), _EPSILON_SVR
    _libsvm.set_verbosity_wrap(0)  # as SVC(verbose=False) does before every fit
    support, _, _, dual_coef, intercept, _, _, fit_status, n_iter = _libsvm.fit(
        K,
        target,
        svm_type=svm_type,
        kernel="precomputed",
        C=C,
        tol=float(tol),
        epsilon=float(epsilon),
        max_iter=int(max_iter),
        sample_weight=sample_weight,
        cache_size=200.0,  # SVC's and SVR's default
        shrinking=1,
        gamma=0.0,
        random_seed=0,
    )
    sign = -1.0 if svm_type == _C_SVC else 1.0  # ... and SVC flips libsvm's binary signs
    coef = np.zeros(K.shape[0])
    coef[support] = sign * dual_coef[0]
    return LibsvmDual(
        dual_coef=coef,
        intercept=sign * float(intercept[0]),
        iterations=int(np.sum(n_iter)),
        converged=fit_status == 0,
    )
