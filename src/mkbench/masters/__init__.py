"""Restricted master problems of column generation, one module per problem or solver backend.

Every master is a minimisation over the columns added so far and offers the
same small interface (:class:`Master`, :mod:`.protocol`), which is all a generic
column-generation loop needs::

    master = LPMaster(y, C)                   # or make_qp_master(y, C, ...)
    master.add_columns(K_block)               # (n_rows, k) candidate columns
    sol = master.solve()                      # MasterSolution (raises SolverError unless optimal)
    scores = columns.scores(sol.pricing_weights)   # KernelColumns: K' w per kernel and centre
    master.violation(scores)                  # > 0: the column would improve the master

C is a float or one C_i >= 0 per row, not all 0, in every hinge and
epsilon-insensitive master, the SVM of the MKL methods (:mod:`.combined_svm`) and
the simplex least-squares master: C_i = C w_i for sample weights w, the slack cost
sum_i C_i xi_i (libsvm's per-sample C), a row of C_i = 0 absent. The ridge masters
(:mod:`.ridge`), whose C weighs the penalty, take ``sample_weight`` for their residuals.

For the QPs, price only columns not yet in the master: a column in it has
score_j = alpha_j (eq. 8), which is not a violation. For the LPs every column in
the master satisfies its dual constraint, so a full scan is safe.

The 1-norm LP has two routes, the primal (:class:`LPMaster`) and its dual
(:class:`DualLPMaster`, where a column is a row and the dual simplex restarts warm).
``solve_lp`` / ``solve_qp`` solve the full master with all columns at once;
``make_hinge_master`` (:mod:`.hinge`) picks the master of a hinge problem from its
penalty, sign, offset and backend.

Beside the masters named below: kernel ridge (MARK, :mod:`.ridge`), the SILP LP
(:mod:`.silp_highs`), the simplex least-squares master of CGEns-SLS
(:mod:`.simplex_ls`), the SVM with a combined kernel of the MKL methods
(:mod:`.combined_svm`), and the libsvm call it and :mod:`.qp_libsvm` make
(:mod:`.libsvm_call`).
"""

from ._solution import MasterSolution
from .hinge import make_hinge_master
from .lp_dual_highs import DualLPMaster
from .lp_highs import LPMaster, solve_lp
from .protocol import Master
from .qp_libsvm import NonnegSVMDualMaster, SVMDualMaster, make_qp_master
from .qp_osqp import QPMaster, solve_qp
from .svm_cd import LinearSVMCDMaster, NonnegLinearSVMCDMaster
from .svm_cd_offset import FreeOffsetSVMCDMaster, NonnegFreeOffsetSVMCDMaster

__all__ = [
    "DualLPMaster",
    "FreeOffsetSVMCDMaster",
    "LPMaster",
    "LinearSVMCDMaster",
    "Master",
    "MasterSolution",
    "NonnegFreeOffsetSVMCDMaster",
    "NonnegLinearSVMCDMaster",
    "NonnegSVMDualMaster",
    "QPMaster",
    "SVMDualMaster",
    "make_hinge_master",
    "make_qp_master",
    "solve_lp",
    "solve_qp",
]
