"""The restricted master of a hinge-loss problem, from what a classifier states (cgboost eq. 4, 7, 11; CGEns (1), (4)).

CG-Boost over kernel columns, CGEns and LPBoost over weak learners, and
:class:`mkbench.ColumnGenerationClassifier` over either all state their problem the
same way: a penalty on the column weights (the 1-norm LP or the 2-norm QP), the
weights' sign, an offset and a backend. :func:`make_hinge_master` maps that to the
master that solves it, so that no estimator picks its master by hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._solution import check_choice
from .lp_dual_highs import DualLPMaster
from .lp_highs import LPMaster
from .qp_libsvm import SVMDualMaster, make_qp_master
from .qp_osqp import QPMaster
from .svm_cd import LinearSVMCDMaster

__all__ = ["LP_ROUTES", "PENALTIES", "SOLVERS", "make_hinge_master"]

PENALTIES = ("l1", "l2")
SOLVERS = ("auto", "dual_cd", "clarabel", "osqp", "libsvm")
LP_ROUTES = ("auto", "dual", "primal")


def make_hinge_master(
    y: np.ndarray,
    C: float | np.ndarray,
    *,
    penalty: str = "l2",
    alpha_sign: str = "nonneg",
    intercept: str = "free",
    solver: str = "auto",
    loose_tol: float | None = None,
    **options: Any,
) -> LPMaster | DualLPMaster | QPMaster | SVMDualMaster | LinearSVMCDMaster:
    """The restricted master of min penalty(alpha) + sum_i C_i xi_i s.t. y_i (K_i. alpha + b) + xi_i >= 1, xi >= 0.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    C : float or array-like of shape (n_samples,)
        Weight of the slacks, > 0 (C_i = C, the papers' C sum_i xi_i); or one per
        sample, C_i >= 0 (not all 0): C_i = C w_i for ``sample_weight`` w, as
        scikit-learn's SVC reads it. Every backend takes it; a sample of C_i = 0 is
        absent (u_i = 0, its slack costs nothing).
    penalty : {"l2", "l1"}, default="l2"
        1/2 ||alpha||_2^2 (cgboost eq. 7, 11; CGEns (1)) or ||alpha||_1, the LP
        (cgboost eq. 4; LPBoost, CGEns eq. 4) solved by HiGHS.
    alpha_sign : {"nonneg", "free"}, default="nonneg"
    intercept : {"free", "regularized", "none"}, default="free"
        A free offset b (cgboost §4.1, second case), b penalised like a constant
        column (first case; liblinear's), or none.
    solver : {"auto", "dual_cd", "clarabel", "osqp", "libsvm"} or {"auto", "dual", "primal"}, default="auto"
        Backend of the 2-norm master (:func:`mkbench.masters.make_qp_master`);
        "auto" is "dual_cd" unless there is no offset, then "clarabel". For the
        LP, HiGHS' route: "dual" (:class:`~mkbench.masters.DualLPMaster`, a column
        is a row of the dual, eq. 5) or "primal" (:class:`~mkbench.masters.LPMaster`);
        "auto" is "primal", which CG-Boost's and SSMK's committed results used.
    loose_tol : float or None, default=None
        For the dual coordinate descent masters only (``solver="dual_cd"``): the
        tolerance of the solves until column generation tightens them
        (:class:`~mkbench.masters.LinearSVMCDMaster`); the other backends always
        solve tightly and ignore it. None: the master's own default.
    **options
        Passed to the master (e.g. ``tol`` of the dual masters).

    Returns
    -------
    LPMaster, DualLPMaster, QPMaster, SVMDualMaster or LinearSVMCDMaster
        (or a subclass of these: the alpha >= 0 and free-offset variants).
    """
    check_choice("penalty", penalty, PENALTIES)
    if penalty == "l1":
        route = DualLPMaster if check_choice("solver", solver, LP_ROUTES) == "dual" else LPMaster
        return route(y, C, alpha_sign=alpha_sign, intercept=intercept, **options)
    check_choice("solver", solver, SOLVERS)
    if solver == "auto":
        solver = "clarabel" if intercept == "none" else "dual_cd"
    if solver == "dual_cd" and loose_tol is not None:
        options["loose_tol"] = loose_tol
    return make_qp_master(y, C, alpha_sign=alpha_sign, intercept=intercept, solver=solver, **options)
