"""Scalability benchmark (MARK §5.3, Fig. 4): MARK-L and SVR training time against N on house-8L.

Run: ``python benchmarks/mark_scalability.py [--mirror DIR] [--sizes 1000 2000 4000 ...] [--seed 0] [--json PATH] [--quick]``.

The paper uses DELVE house-8H (22,784 x 8); offline we only have house_8L, the
same 22,784 houses with the other 8-attribute set, so this runs on "house-8l"
and says so. A fixed random test set of ``--n-test`` rows is held out; training
sets of each size are nested random subsets of the other rows. Inputs are
standardised with the training statistics of each run.

As in the paper, SVR with a fixed policy (no model selection) fitted on a
5000-point sample gives the baseline MSE, and MARK-L (``--kernel``, N' = 50, C = 10)
runs until its *training* MSE reaches that value (``target_mse``; at most
``--max-iter`` columns). The SVR fixed policy here is the start point of
:class:`mkbench.estimators.selected_svm.SelectedSVR`: RBF with gamma = 1 / (M var X), and on
the standardised target C = 3, epsilon = 0.1 (Momma & Bennett's own fixed policy
[14] is not given in the MARK paper).

Printed: per N the fit seconds and test MSE of both, MARK-L's columns, and at the
end the log-log slopes of fit time against N (issue goal: MARK-L <= 1.2).

Speed at equal test MSE (goal of issue 20: <= 1.0 x SVR at the largest N; it
replaces issue 4's <= 0.25). Stopped at the SVR baseline, MARK-L's test MSE
stays above that of SVR fitted on all N points, and with the paper's C = 10 it
levels off above it (9.0e8 against 8.8e8 after 600 columns). So MARK-L is fitted
once more at the largest N with ``--equal-mse-C`` (a weaker ridge; 3 reaches it)
for at most ``--equal-mse-max-iter`` columns, and its time is read from
``history_`` at the first column count whose test MSE (``staged_predict``) is <=
SVR's: the time to reach SVR's accuracy, with the test set as the stopping
oracle, which favours MARK-L. The record splits that time into the sigma search's
(``pricing_seconds``: sampling, the fused K'r of every candidate, the chosen column), the
ridge master's (``master_seconds``: K_hat'g and the residual, each a pass over the N x t
columns, and the growing factor) and the rest, summed from ``history_``.

Beside it (issue 44's goal: MARK-L's time to SVR's test MSE <= 1.0x this fit's, reported
whatever it is; met only if MARK-L reaches SVR's test MSE), the approximate kernel ridge a user
would pick today: scikit-learn's ``Nystroem`` (the SVR's RBF, gamma = 1 / (M var X))
with ``--nystroem-components`` landmarks, then ``Ridge``. 1000 landmarks make a
basis of the size MARK-L needs to reach SVR's accuracy (759 columns), at a cost
of O(N m^2) = 2e10 flops at N = 20784. The ridge penalty is chosen once, by
``RidgeCV``'s efficient leave-one-out (GCV) on the training set over
:data:`NYSTROEM_ALPHAS`; as for the two fixed policies, the time compared is the
fit with that penalty (the selection's own time is recorded beside it). Its BLAS
runs on one thread, as MARK-L's does and as libsvm is single-threaded. The ratio
is MARK-L's time to SVR's test MSE over that fit's, its note saying whether the
Nystroem ridge reaches SVR's test MSE too.

The default kernel is the regular RBF: §5.3 does not name one, and a model of
weak RBF kernels is additive in the attributes, whose training MSE on house-8L
levels off above the SVR baseline from N = 16000 on (it then runs to
``--max-iter``), so it measures the iteration cap rather than the scaling.
"""

from __future__ import annotations

import numpy as np
from _common import Record, loglog_slope, measure, parser, timed
from sklearn.compose import TransformedTargetRegressor
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import Ridge, RidgeCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR
from threadpoolctl import threadpool_limits

from mkbench import MARKRegressor
from mkbench.harness.datasets import load


#: Goal of the time ratio MARK-L / SVR at equal test MSE: issue 20's, replacing issue 4's "<= 0.25".
EQUAL_MSE_GOAL = "<= 1.0"

#: Ridge penalties the Nystroem peer chooses from (by GCV on the training set).
NYSTROEM_ALPHAS = np.logspace(-4.0, 3.0, 8)


def fixed_policy_svr() -> TransformedTargetRegressor:
    """SVR on the standardised target, C = 3, epsilon = 0.1, gamma = 1 / (M var X)."""
    return TransformedTargetRegressor(SVR(C=3.0, epsilon=0.1, gamma="scale"), transformer=StandardScaler())


def mse(model, X: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((model.predict(X) - y) ** 2))


def nystroem_ridge(args, X: np.ndarray, y: np.ndarray) -> tuple[float, float, object]:
    """Nystroem (the SVR's RBF) + Ridge: the penalty by GCV on the training set, then the timed fit with it.

    Returns the selection's seconds, the fit's seconds and the fitted pipeline.
    """

    def pipeline(regressor):
        return make_pipeline(
            Nystroem(
                gamma=1.0 / (X.shape[1] * X.var()),  # SVR's gamma="scale"
                n_components=min(args.nystroem_components, X.shape[0]),
                random_state=args.seed,
            ),
            regressor,
        )

    with threadpool_limits(limits=1, user_api="blas"):
        select_seconds, selected = timed(lambda: pipeline(RidgeCV(alphas=NYSTROEM_ALPHAS)).fit(X, y))
        seconds, model = timed(lambda: pipeline(Ridge(alpha=selected[-1].alpha_)).fit(X, y))
    return select_seconds, seconds, model


def equal_mse(record: Record, args, data: tuple[np.ndarray, ...], last: dict) -> None:
    """MARK-L at the largest N run until its test MSE is <= SVR's there: the time ratio at equal accuracy.

    The Nystroem ridge is fitted on the same data and compared with MARK-L's time too (issue 44's goal <= 1.0).
    """
    X, y, X_test, y_test = data
    target = last["svr_test_mse"]
    mark = MARKRegressor(
        kernel=args.kernel,
        C=args.equal_mse_C,
        n_candidates=50,
        max_iter=args.equal_mse_max_iter,
        random_state=args.seed,
    ).fit(X, y)
    test_mse = [float(np.mean((f - y_test) ** 2)) for f in mark.staged_predict(X_test)]
    reached = next((t for t, value in enumerate(test_mse) if value <= target), None)
    t = mark.n_iter_ if reached is None else reached
    seconds = mark.history_[t]["seconds"]
    split = {  # where those seconds went: the sigma search and the ridge master, each row's share summed
        f"{part}_seconds": float(sum(row[f"{part}_seconds"] for row in mark.history_[: t + 1]))
        for part in ("pricing", "master")
    }
    split["other_seconds"] = seconds - split["pricing_seconds"] - split["master_seconds"]
    record.timings["equal_mse"] = {
        "n": last["n"],
        "C": args.equal_mse_C,
        "columns": t,
        "seconds": seconds,
        **split,
        "test_mse": test_mse[t],
        "svr_test_mse": target,
        "reached": reached is not None,
        "svr_seconds": last["svr_seconds"],
    }
    print(
        f"N={last['n']}: MARK-L (C={args.equal_mse_C}) {'reaches' if reached is not None else 'does not reach'} "
        f"SVR's test MSE {target:.4g}: {test_mse[t]:.4g} after {t} columns, {seconds:.1f} s (pricing "
        f"{split['pricing_seconds']:.1f} s, master {split['master_seconds']:.1f} s, other {split['other_seconds']:.1f} s); "
        f"SVR {last['svr_seconds']:.1f} s; ratio {seconds / last['svr_seconds']:.2f}",
        flush=True,
    )
    not_reached = f"not met whatever the time: MARK-L's test MSE stays above SVR's for {mark.n_iter_} columns"
    mark_side = measure(f"MARK-L, C = {args.equal_mse_C}, {t} columns, test MSE {test_mse[t]:.4g}", seconds)
    at_full_n = record.add_ratio(
        f"fit time MARK-L / SVR at N={last['n']}, MARK-L to the first column count with test MSE <= SVR's",
        mark_side,
        measure(f"SVR, test MSE {target:.4g}", last["svr_seconds"]),
        seconds / last["svr_seconds"],
        EQUAL_MSE_GOAL,
        note="goal of issue 20, replacing issue 4's <= 0.25" + ("" if reached is not None else f"; {not_reached}"),
    )
    at_full_n["met"] = at_full_n["met"] and reached is not None

    select_seconds, nys_seconds, nys = nystroem_ridge(args, X, y)
    nys_mse = mse(nys, X_test, y_test)
    components, alpha = nys[0].n_components, float(nys[-1].alpha)
    record.timings["nystroem_ridge"] = {
        "n": last["n"],
        "n_components": components,
        "alpha": alpha,
        "alphas": NYSTROEM_ALPHAS.tolist(),
        "selection_seconds": select_seconds,
        "seconds": nys_seconds,
        "test_mse": nys_mse,
        "reaches_svr": nys_mse <= target,
    }
    print(
        f"N={last['n']}: Nystroem ({components} components) + Ridge (alpha {alpha:g} by GCV, {select_seconds:.1f} s) "
        f"{nys_seconds:.1f} s, test MSE {nys_mse:.4g} ({'<=' if nys_mse <= target else '>'} SVR's); "
        f"MARK-L / Nystroem ridge {seconds / nys_seconds:.2f}",
        flush=True,
    )
    notes = [
        f"the Nystroem ridge's test MSE is {'<=' if nys_mse <= target else 'above'} SVR's",
        f"choosing alpha took {select_seconds:.3g} s more",
    ]
    if reached is None:
        notes.append("MARK-L does not reach SVR's test MSE")
    record.add_ratio(
        f"fit time MARK-L / Nystroem + Ridge at N={last['n']}, MARK-L to SVR's test MSE, the Nystroem ridge's one "
        f"fit ({components} components, alpha by GCV on the training set) (issue 44)",
        mark_side,
        measure(f"Nystroem + Ridge, alpha {alpha:g}, test MSE {nys_mse:.4g}", nys_seconds),
        seconds / nys_seconds,
        "<= 1.0",
        note="; ".join(notes),
        condition=("MARK-L reaches SVR's test MSE", reached is not None),
    )


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--mirror", default=None, help="data mirror folder (default: $MKBENCH_DATA_MIRROR)")
    cli.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000, 16000, 20784])
    cli.add_argument("--n-test", type=int, default=2000)
    cli.add_argument("--baseline-size", type=int, default=5000)
    cli.add_argument("--max-iter", type=int, default=2000)
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument(
        "--kernel",
        choices=["weak_rbf", "rbf"],
        default="rbf",
        help="MARK-L kernel (§5.3 does not say; weak RBF cannot reach the SVR MSE here)",
    )
    cli.add_argument("--no-svr", action="store_true", help="time MARK-L only (uses the SVR baseline MSE still)")
    cli.add_argument("--equal-mse-C", type=float, default=3.0, help="MARK-L's C when run to SVR's test MSE")
    cli.add_argument("--equal-mse-max-iter", type=int, default=1000, help="most columns when run to SVR's test MSE")
    cli.add_argument(
        "--nystroem-components", type=int, default=1000, help="landmarks of the Nystroem + Ridge peer at the largest N"
    )
    args = cli.parse_args()
    if args.quick:
        args.sizes, args.n_test, args.baseline_size, args.max_iter = [200, 400], 200, 300, 50
        args.equal_mse_max_iter, args.nystroem_components = 50, 100
    record = Record("mark_scalability", 4, "MARK-L vs SVR fit time against N on house-8L (MARK Fig. 4)", args)

    ds = load("house-8l", mirror=args.mirror)
    rows = np.random.default_rng(args.seed).permutation(ds.X.shape[0])
    test, pool = rows[: args.n_test], rows[args.n_test :]
    if max(args.sizes + [args.baseline_size]) > pool.size:
        cli.error(f"sizes must be <= {pool.size} (the rows outside the test set)")

    def split(n: int) -> tuple[np.ndarray, ...]:
        scaler = StandardScaler().fit(ds.X[pool[:n]])
        return scaler.transform(ds.X[pool[:n]]), ds.y[pool[:n]], scaler.transform(ds.X[test]), ds.y[test]

    X, y, X_test, y_test = split(args.baseline_size)
    seconds, svr = timed(lambda: fixed_policy_svr().fit(X, y))
    baseline = mse(svr, X_test, y_test)
    print(
        f"house-8l (stand-in for house-8H): SVR fixed policy on {args.baseline_size} points: "
        f"{seconds:.1f} s, baseline test MSE {baseline:.4g} (var y {np.var(y_test):.4g})",
        flush=True,
    )

    record.timings["svr_baseline"] = {"n": args.baseline_size, "seconds": seconds, "test_mse": baseline}
    MARKRegressor(kernel=args.kernel, max_iter=1).fit(X[:50], y[:50])  # the compiled search loaded, outside the timings
    times: dict[str, list[float]] = {"mark": [], "svr": []}
    runs = record.timings["runs"] = []
    for n in args.sizes:
        X, y, X_test, y_test = split(n)
        mark = MARKRegressor(
            kernel=args.kernel,
            C=10.0,
            n_candidates=50,
            max_iter=args.max_iter,
            target_mse=baseline,
            random_state=args.seed,
        )
        mark_seconds, mark = timed(lambda: mark.fit(X, y))
        times["mark"].append(mark_seconds)
        runs.append(
            {
                "n": n,
                "mark_seconds": mark_seconds,
                "mark_columns": mark.n_iter_,
                "mark_status": mark.status_,
                "mark_test_mse": mse(mark, X_test, y_test),
            }
        )
        line = (
            f"N={n:6d}  MARK-L ({args.kernel}) {mark_seconds:7.1f} s, {mark.n_iter_:4d} columns ({mark.status_}), "
            f"train MSE {mark.history_[-1]['train_mse']:.4g}, test MSE {mse(mark, X_test, y_test):.4g}"
        )
        if not args.no_svr:
            svr_seconds, svr = timed(lambda: fixed_policy_svr().fit(X, y))
            times["svr"].append(svr_seconds)
            runs[-1].update(svr_seconds=svr_seconds, svr_test_mse=mse(svr, X_test, y_test))
            line += (
                f" | SVR {svr_seconds:7.1f} s, {svr.regressor_.support_.size} SVs, "
                f"test MSE {mse(svr, X_test, y_test):.4g} | ratio {mark_seconds / svr_seconds:.2f}"
            )
        print(line, flush=True)
    record.add_series(f"MARK-L ({args.kernel}), house-8L", args.sizes, times["mark"], x="N")
    if times["svr"]:
        record.add_series("SVR (fixed policy), house-8L", args.sizes, times["svr"], x="N")
    if len(args.sizes) > 1:
        mark_slope = loglog_slope(args.sizes, times["mark"])
        text = f"log-log slope of fit time vs N: MARK-L {mark_slope:.2f}"
        if times["svr"]:
            svr_slope = loglog_slope(args.sizes, times["svr"])
            text += f", SVR {svr_slope:.2f}"
            record.add_ratio(
                f"log-log slope of fit time vs N ({args.sizes[0]}..{args.sizes[-1]}); value = MARK-L's",
                measure("MARK-L slope", mark_slope, "slope"),
                measure("SVR slope", svr_slope, "slope"),
                mark_slope,
                "<= 1.2",
            )
        print(text)
    if times["svr"]:
        equal_mse(record, args, split(args.sizes[-1]), runs[-1])
    record.write()


if __name__ == "__main__":
    main()
