"""CGEns-SLS's restricted master (issue 20): the J x J route against the paper's Sherman-Morrison update (eq. 20).

Run: ``python benchmarks/sls_master.py [--mirror DIR] [--iters 100] [--C 0.01] [--json PATH] [--quick]``.

CGEns-SLS (Shen & Liu, Alg. 2) solves the simplex least-squares SVM (10) on the
learners chosen so far by its closed form (11), with S = H H' + I/C over the m
training points. The paper keeps the m x m inverse S^-1 and updates it by
Sherman-Morrison when a learner enters (eq. 20): O(m^2) time per learner and
8 m^2 bytes. :class:`mkbench.masters.simplex_ls.SimplexLSMaster` reaches the same
closed form through the J x J system of the J learners (the Woodbury identity:
ridge regression with a free intercept), O(m J) per learner. This script fits
``CGEnsSLSClassifier`` (decision stumps, ``--iters`` learners) on USPS (one
random 75 % split, standardised: m = 6973 points, 10 classes, as Table III)
with each master, in the same run, and checks that both reach the same
objective at every iteration (relative 1e-8), else it fails. Ratio: fit time
with our master over fit time with eq. 20's (the pricing, 9 stump searches per
learner, is the same in both).
"""

from __future__ import annotations

import warnings

import numpy as np
from _common import Record, measure, parser, timed
from sklearn.exceptions import ConvergenceWarning

import mkbench.estimators.cgens_sls as cgens_sls
from mkbench.harness.datasets import load
from mkbench.masters._solution import MasterSolution, add_outer, as_column_block


class ShermanMorrisonMaster(cgens_sls.SimplexLSMaster):
    """The paper's route: S^-1 (m x m) updated by Sherman-Morrison per learner (eq. 20), then (11) from it."""

    def __init__(self, L: np.ndarray, C: float) -> None:
        super().__init__(L, C)
        self.S_inv = np.eye(self.n_rows) * self.C  # S = I / C before any learner
        self._columns: list[np.ndarray] = []

    def add_columns(self, K: np.ndarray) -> None:
        for h in as_column_block(K, self.n_rows).T:
            s = self.S_inv @ h
            self.S_inv = add_outer(self.S_inv, s[:, None], -1.0 / (1.0 + h @ s))  # eq. 20
            self._columns.append(h.copy())

    def solve(self) -> MasterSolution:
        """(11): b = (1'S^-1 L / 1'S^-1 1)', U = S^-1 (L - 1 b'), w_tau = H U_{:tau}."""
        SL = self.S_inv @ self.L
        S1 = self.S_inv.sum(axis=1)
        b = SL.sum(axis=0) / S1.sum()
        U = SL - np.outer(S1, b)
        W = (np.column_stack(self._columns) if self._columns else np.zeros((self.n_rows, 0))).T @ U
        objective = 0.5 * float(np.sum(W * W)) + 0.5 / self.C * float(np.sum(U * U))
        return MasterSolution(
            alpha=W,
            intercept=b,
            xi=U / self.C,
            duals=U,
            pricing_weights=U,
            objective=objective,
            status="optimal",
            iterations=0,
            seconds=0.0,
        )


def fit(master: type, X: np.ndarray, y: np.ndarray, C: float, iters: int) -> tuple[float, list[float]]:
    """Seconds of one CGEns-SLS fit with ``master`` as its restricted master, and the objective per iteration."""
    original = cgens_sls.SimplexLSMaster
    cgens_sls.SimplexLSMaster = master
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            seconds, model = timed(lambda: cgens_sls.CGEnsSLSClassifier(C=C, max_iter=iters).fit(X, y))
    finally:
        cgens_sls.SimplexLSMaster = original
    return seconds, [row["objective"] for row in model.history_]


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--mirror", default=None, help="data mirror folder (default: $MKBENCH_DATA_MIRROR)")
    cli.add_argument("--iters", type=int, default=100)
    cli.add_argument("--C", type=float, default=0.01)
    cli.add_argument("--seed", type=int, default=0)
    args = cli.parse_args()
    ds = load("usps", mirror=args.mirror)
    rows = np.random.default_rng(args.seed).permutation(ds.X.shape[0])[: int(0.75 * ds.X.shape[0])]
    if args.quick:
        rows, args.iters = rows[:500], 10
    X = ds.X[rows].astype(np.float64)
    X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    y = ds.y[rows]
    record = Record("sls_master", 20, "CGEns-SLS restricted master: the J x J route vs Sherman-Morrison (eq. 20)", args)
    fit(cgens_sls.SimplexLSMaster, X[:200], y[:200], args.C, 2)  # compiles the stump search outside the timing
    ours, objectives = fit(cgens_sls.SimplexLSMaster, X, y, args.C, args.iters)
    paper, reference = fit(ShermanMorrisonMaster, X, y, args.C, args.iters)
    np.testing.assert_allclose(objectives, reference, rtol=1e-8, err_msg="the two routes reach different masters")
    m = X.shape[0]
    print(
        f"USPS, m = {m}, {args.iters} stumps, C = {args.C}: J x J route {ours:.1f} s, eq. 20 {paper:.1f} s "
        f"({ours / paper:.3f} x); objectives agree to 1e-8 at every iteration",
        flush=True,
    )
    record.timings = {"ours": ours, "sherman_morrison": paper, "m": m, "objective": objectives[-1]}
    record.add_ratio(
        f"CGEns-SLS fit time, J x J master / Sherman-Morrison master (eq. 20), USPS m = {m}, {args.iters} stumps",
        measure(f"J x J route (Woodbury), O(mJ) per learner, objective {objectives[-1]:.6g}", ours),
        measure(f"eq. 20, S^-1 of {8 * m * m / 2**20:.0f} MiB, O(m^2) per learner", paper),
        ours / paper,
        None,
        note="same objective at every iteration (relative 1e-8); pricing (stump searches) is the same in both",
    )
    record.write()


if __name__ == "__main__":
    main()
