"""Every master at a scalar C on fixed problems, all outputs saved to an .npz (argv[1]).

Run by ``tests/library/test_master_weights.py::test_scalar_C_outputs_are_unchanged_bit_for_bit`` under two
PYTHONPATHs, this checkout's src/ and one from before per-sample C, whose outputs must be equal
bit for bit. Only what both versions have is called.
"""

import sys

import numpy as np

import mkbench.masters as M
from mkbench.masters.combined_svm import CombinedSVM
from mkbench.masters.libsvm_call import solve_precomputed
from mkbench.masters.ridge import RidgeMaster, StagewiseMaster
from mkbench.masters.simplex_ls import SimplexLSMaster


def _cases(y, resp, C):
    """A factory of every master at the scalar C, by name."""
    return {
        "lp": lambda: M.LPMaster(y, C, alpha_sign="free", intercept="free"),
        "lp_nn": lambda: M.LPMaster(y, C),
        "dlp": lambda: M.DualLPMaster(y, C, alpha_sign="free", intercept="free"),
        "dlp_nn": lambda: M.DualLPMaster(y, C, intercept="regularized"),
        "qp_cl": lambda: M.QPMaster(y, C, intercept="free"),
        "qp_cl_free": lambda: M.QPMaster(y, C, alpha_sign="free"),
        "qp_osqp": lambda: M.QPMaster(y, C, alpha_sign="free", intercept="regularized", solver="osqp"),
        "qp_eps": lambda: M.QPMaster(resp, C, loss="epsilon_insensitive", alpha_sign="free", intercept="free"),
        "libsvm": lambda: M.SVMDualMaster(y, C),
        "libsvm_nn": lambda: M.NonnegSVMDualMaster(y, C),
        "libsvm_eps": lambda: M.SVMDualMaster(resp, C, loss="epsilon_insensitive"),
        "cd": lambda: M.LinearSVMCDMaster(y, C, tol=1e-4),
        "cd_nn": lambda: M.NonnegLinearSVMCDMaster(y, C),
        "cd_free": lambda: M.FreeOffsetSVMCDMaster(y, C),
        "cd_free_nn": lambda: M.NonnegFreeOffsetSVMCDMaster(y, C),
        "ridge": lambda: RidgeMaster(resp, C),
        "stage": lambda: StagewiseMaster(resp, 0.5),
        "sls": lambda: SimplexLSMaster(np.c_[y, -y * 0.5], C),
    }


out = {}
newton_solves = 0
for n, k, seed in [(40, 12, 0), (70, 30, 1)]:
    r = np.random.default_rng(seed)
    X = r.normal(size=(n, 4))
    y = np.where(X[:, 0] + 0.4 * X[:, 1] ** 2 - 0.2 + 0.4 * r.normal(size=n) > 0, 1.0, -1.0)
    resp = X[:, 0] + np.sin(X[:, 1]) + 0.1 * r.normal(size=n)
    Z = X[r.choice(n, k)]
    K = np.hstack([X @ Z.T, (1 + X @ Z.T) ** 2 / 10, np.exp(-((X[:, None] - Z[None]) ** 2).sum(-1))])
    for C in (0.3, 10.0, 1000.0):
        cases = _cases(y, resp, C)
        for name, make in cases.items():
            if C > 100 and not name.startswith("cd"):  # large C: for Newton's method in the dual-CD masters only
                continue
            master = make()
            for block in np.array_split(np.arange(K.shape[1]), 4):
                master.add_columns(K[:, block])
                sol = master.solve()
                key = f"{n}-{C}-{name}-{block[0]}"
                for field in ("alpha", "intercept", "xi", "duals", "pricing_weights", "objective"):
                    out[f"{key}-{field}"] = np.asarray(getattr(sol, field))
                out[f"{key}-iterations"] = np.asarray(sol.iterations)
            newton_solves += getattr(master, "n_newton_solves", 0)
        G = K @ K.T
        d = solve_precomputed(G, y, C=C, tol=1e-6)
        out[f"{n}-{C}-pre"] = np.r_[d.dual_coef, d.intercept]
        stack = np.stack([X @ X.T, (1 + X @ X.T) ** 2])
        stack /= np.trace(stack, axis1=1, axis2=2)[:, None, None]
        sol = CombinedSVM(stack, y, C, 1e-6).solve(np.array([0.4, 0.6]))
        out[f"{n}-{C}-comb"] = np.r_[sol.alpha_y, sol.intercept, sol.objective]
assert newton_solves > 0  # Newton's method (svm_newton) ended some dual-CD solves too
np.savez(sys.argv[1], **out)
