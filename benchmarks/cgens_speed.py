"""CGEns benchmark (issue 7): training time against LPBoost and AdaBoost with stumps on MNIST odd/even (Fig. 2).

Run: ``python benchmarks/cgens_speed.py [--mirror DIR] [--n-iterations-run 1000] [--max-iter 500]
[--sizes 500 1000 2000 4000] [--time-limit SECONDS] [--figure results/figures/cgens-figure2.png]
[--json PATH] [--quick]``.

The paper's Figure 2 (§VI, "Computation efficiency"): training time of LPBoost and
CGEns with decision stumps, in log scale, (top) against the number of iterations
at n = 10^4 and (bottom) against n at 100 iterations; CGEns was 15x faster at
500 iterations and 26x at n = 60 000. Here, in one run on the same rows
(nested random subsets of the 70 000 MNIST digits, raw pixels):

* C for each method, as its experiments choose it (the paper gives none for
  Fig. 2): the lowest error on ``--n-iterations-run`` held-out rows after
  ``--iterations-at-sizes`` learners, over the grids of the cgens-table1
  experiment (``--C`` fixes one C for both instead);

* one fit of each up to ``--max-iter`` learners at ``--n-iterations-run``
  points; the time after t learners is read from the fit's history (the first t
  iterations of column generation are exactly a t-iteration fit), plus the
  set-up (presorting the features) measured as the rest of the fit's wall time;
* fits at each of ``--sizes`` stopped after ``--iterations-at-sizes`` learners;
* scikit-learn's AdaBoost (SAMME, its default depth-1 tree = a stump) with
  ``--max-iter`` stumps on the rows of the first fit (issue goal: CGEns <= 0.5x);
* the exact stump search (pricing, eq. 8) on those rows against the same search
  written in numpy (gather, ``cumsum``, mask, ``argmax``), no goal;
* CGEns's restricted masters, warm-started dual coordinate descent (the default,
  liblinear's penalised offset; and with a free offset, libsvm's problem) against
  libsvm from scratch, ``--iterations-at-sizes`` stumps on the first ``--sizes``
  rows, no goal.

LPBoost's LP goes the route LPBoost takes by default, its dual (eq. 5) re-solved warm
by HiGHS's dual simplex (:class:`mkbench.masters.DualLPMaster`), the fastest of the
routes timed in ``benchmarks/lp_routes.py``; before 2026-11-25 it went the primal,
23x slower per re-solve at n = 10^4, and LPBoost then stopped at the time limit.

Both ensembles stop after exactly k learners with ``max_iter=k, tol=0`` (no
learner then has a score <= tol; a fit that reaches its optimum earlier says
so in the record). Every fit stops at ``--time-limit`` seconds (default: none):
LPBoost's LP grows slow at the paper's sizes (n = 10^4, 500 iterations; n = 60 000),
and a ratio against a fit cut short is a lower bound, said so in its note. The
figure is drawn from these measurements (seaborn, two panels) to ``--figure``
(.png and .pdf).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from _common import Record, best_of, loglog_slope, measure, parser, timed
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import ConvergenceWarning

from mkbench import CGEnsClassifier, LPBoostClassifier
from mkbench.harness.datasets import load
from mkbench.learners import Stumps

METHODS = {"CGEns": CGEnsClassifier, "LPBoost": LPBoostClassifier}
C_GRIDS = {"CGEns": [0.001, 0.01, 0.1, 1.0], "LPBoost": [0.005, 0.01, 0.03, 0.1, 0.3]}  # config: cgens-table1
PAPER = {"n_iterations_run": 10_000, "max_iter": 500, "largest_n": 60_000, "speedup_iterations": 15, "speedup_n": 26}


def fit_quietly(
    name: str, k: int, C: float, X: np.ndarray, y: np.ndarray, time_limit: float | None = None, **params: object
) -> tuple[float, object]:
    """Fit ``name`` with exactly ``k`` stumps (max_iter=k, tol=0) or until ``time_limit``: (seconds, model)."""
    model = METHODS[name]("stump", C=C, max_iter=k, tol=0.0, time_limit=time_limit, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # status max_iter is the point here
        return timed(lambda: model.fit(X, y))


def fit_exactly(
    name: str, k: int, C: float, X: np.ndarray, y: np.ndarray, time_limit: float | None = None, **params: object
) -> dict:
    """:func:`fit_quietly`'s wall seconds, status and the cumulative time after each learner."""
    seconds, model = fit_quietly(name, k, C, X, y, time_limit, **params)
    loop = [row["seconds"] for row in model.history_]
    setup = seconds - loop[-1]
    return {
        "seconds": seconds,
        "n_iter": model.n_iter_,
        "status": model.status_,
        "curve": [setup + s for s in loop[1:]],
        "train_error": float(np.mean(model.predict(X) != y)),
    }


def select_C(
    name: str, k: int, X: np.ndarray, y: np.ndarray, X_val: np.ndarray, y_val: np.ndarray, time_limit: float | None
) -> dict:
    """The C of ``C_GRIDS[name]`` with the lowest validation error after ``k`` learners (ties: the smaller C)."""
    errors = {}
    for C in C_GRIDS[name]:
        _, model = fit_quietly(name, k, C, X, y, time_limit)
        errors[C] = float(np.mean(model.predict(X_val) != y_val))
    best = min(errors, key=lambda C: (errors[C], C))
    print(f"{name}: C = {best} (validation errors {errors})", flush=True)
    return {"C": best, "validation_errors": errors}


def stump_search_ratio(record: Record, X: np.ndarray, seed: int) -> None:
    """Time of the fused stump search against the same search in numpy, on the same sorted arrays."""
    family = Stumps(X)
    w = np.random.default_rng(seed).normal(size=X.shape[0])

    def numpy_search():
        scores = w.sum() - 2.0 * np.cumsum(w[family.order], axis=0)
        magnitude = np.abs(scores)
        magnitude[~family.available] = -1.0
        return np.unravel_index(int(np.argmax(magnitude)), magnitude.shape)

    best = family.best(w)  # also compiles (or loads) the numba kernel outside the timing
    row, feature = (int(index) for index in numpy_search())
    assert (best.learner.feature, best.learner.threshold) == (feature, family.threshold(row, feature)), (
        "the two searches disagree"
    )
    ours, peer = best_of(lambda: family.best(w)), best_of(numpy_search)
    print(f"stump search, n={X.shape[0]}, d={X.shape[1]}: {ours * 1e3:.2f} ms vs numpy {peer * 1e3:.2f} ms", flush=True)
    record.add_ratio(
        f"stump search time, fused / numpy formulation, n={X.shape[0]}, d={X.shape[1]}",
        measure("Stumps.best (numba, one pass per feature)", ours),
        measure("numpy gather + cumsum + mask + argmax", peer),
        ours / peer,
        note="no goal: shows how much of a CGEns iteration pricing still costs",
    )


def master_ratio(record: Record, k: int, C: float, X: np.ndarray, y: np.ndarray) -> None:
    """CGEns fit time with warm-started dual CD masters against libsvm's from scratch.

    Two rows: the default master (liblinear's penalised offset) and, on the same problem as
    libsvm's (the SVM (1) with a free offset), dual CD with the offset by the method of multipliers.
    """
    routes = {
        "default": ("solver='dual_cd' (warm-started, liblinear's offset)", {}),
        "free offset": ("solver='dual_cd', fit_intercept=True (warm-started, free offset)", {"fit_intercept": True}),
    }
    libsvm = {"solver": "libsvm", "fit_intercept": True}
    for params in [libsvm, *({"solver": "dual_cd", **p} for _, p in routes.values())]:
        fit_quietly("CGEns", 3, C, X[:60], y[:60], **params)  # compiles (or loads) the kernels outside the timing
    peer = fit_quietly("CGEns", k, C, X, y, **libsvm)[0]
    for name, (label, params) in routes.items():
        ours = fit_quietly("CGEns", k, C, X, y, solver="dual_cd", **params)[0]
        print(
            f"CGEns masters, n={X.shape[0]}, {k} stumps: dual CD ({name}) {ours:.2f} s vs libsvm {peer:.2f} s",
            flush=True,
        )
        record.add_ratio(
            f"CGEns fit time, dual CD master ({name}) / libsvm master, {k} stumps, n={X.shape[0]}",
            measure(label, ours),
            measure("solver='libsvm' (n x n Gram, from scratch, free offset)", peer),
            ours / peer,
            note=f"no goal; C = {C}",
        )


def cut_short(run: dict, k: int) -> bool:
    """Whether a fit stopped at the time limit before its ``k`` learners."""
    return run["status"] == "time_limit" and run["n_iter"] < k


def lower_bound(run: dict, k: int) -> str:
    """The note of a ratio whose LPBoost fit stopped at the time limit: the ratio is a lower bound."""
    if not cut_short(run, k):
        return ""
    return (
        f"; a lower bound: LPBoost stopped at the time limit after {run['n_iter']} of {k} iterations, "
        "so its time for all of them is longer"
    )


def draw_figure2(
    path: Path,
    iterations: dict[str, list[float]],
    n_iter_run: int,
    sizes: list[int],
    by_size: dict[str, list[float]],
    k_sizes: int,
    stopped: dict[str, list[bool]],
) -> None:
    """Figure 2: training time vs iterations (left) and vs n (right), log scale, LPBoost and CGEns.

    ``stopped[name][i]`` marks a fit at ``sizes[i]`` cut short by the time limit: its point is a
    lower bound on the time of ``k_sizes`` iterations, drawn as a triangle pointing up, as is the
    end of a curve on the left that stops before the other.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    import seaborn as sns

    left = pd.DataFrame(
        [
            {"method": m, "iterations": t + 1, "seconds": s}
            for m, curve in iterations.items()
            for t, s in enumerate(curve)
        ]
    )
    right = pd.DataFrame(
        [
            {"method": m, "n": n, "seconds": s, "stopped": cut}
            for m, times in by_size.items()
            for n, s, cut in zip(sizes, times, stopped[m], strict=True)
        ]
    )
    sns.set_theme(style="whitegrid")
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    sns.lineplot(data=left, x="iterations", y="seconds", hue="method", ax=axes[0])
    longest = max(len(curve) for curve in iterations.values())
    for curve in iterations.values():
        if len(curve) < longest:  # that fit stopped at the time limit
            axes[0].scatter([len(curve)], [curve[-1]], marker="^", s=120, color="black", zorder=3)
    axes[0].set(yscale="log", title=f"time vs iterations, n = {n_iter_run}", ylabel="training time (s)")
    sns.lineplot(data=right, x="n", y="seconds", hue="method", marker="o", ax=axes[1])
    cut = right[right["stopped"]]
    if not cut.empty:
        axes[1].scatter(
            cut["n"],
            cut["seconds"],
            marker="^",
            s=120,
            color="black",
            zorder=3,
            label="stopped at the time limit\n(a lower bound)",
        )
        axes[1].legend()
    axes[1].set(xscale="log", yscale="log", title=f"time vs n, {k_sizes} iterations", ylabel="training time (s)")
    fig.suptitle("CGEns Fig. 2: LPBoost vs CGEns, decision stumps, MNIST odd vs even")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    for suffix in (".png", ".pdf"):
        fig.savefig(path.with_suffix(suffix), dpi=150)
    plt.close(fig)


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--mirror", default=None, help="data mirror folder (default: $MKBENCH_DATA_MIRROR)")
    cli.add_argument("--n-iterations-run", type=int, default=1000, help="n of the time-vs-iterations fits")
    cli.add_argument("--max-iter", type=int, default=500, help="learners of the time-vs-iterations fits and AdaBoost")
    cli.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 4000])
    cli.add_argument("--iterations-at-sizes", type=int, default=100)
    cli.add_argument("--C", type=float, default=None, help="one C for both (default: each selected on held-out rows)")
    cli.add_argument("--time-limit", type=float, default=None, help="seconds after which a fit adds no learner")
    cli.add_argument("--seed", type=int, default=0, help="seeds the random order of the rows")
    cli.add_argument("--figure", default="results/figures/cgens-figure2.png", help=".png path; a .pdf beside it")
    args = cli.parse_args()
    if args.quick:
        args.n_iterations_run, args.max_iter, args.sizes, args.iterations_at_sizes = 200, 10, [100, 200], 5
    record = Record(
        "cgens_speed", 7, "CGEns vs LPBoost and AdaBoost training time, stumps, MNIST odd/even (Fig. 2)", args
    )
    ds = load("mnist-odd-even", mirror=args.mirror)
    rows = np.random.default_rng(args.seed).permutation(ds.X.shape[0])
    n_max = max(args.sizes + [args.n_iterations_run])
    n, k = args.n_iterations_run, args.max_iter
    if n_max + n > rows.size:
        cli.error(f"sizes and --n-iterations-run must leave {n} of the {rows.size} rows for validation")
    X_all, y_all = ds.X[rows[:n_max]], ds.y[rows[:n_max]]
    X, y = X_all[:n], y_all[:n]

    stump_search_ratio(record, X, args.seed)
    if args.C is None:
        X_val, y_val = ds.X[rows[-n:]], ds.y[rows[-n:]]
        selection = {
            name: select_C(name, args.iterations_at_sizes, X, y, X_val, y_val, args.time_limit) for name in METHODS
        }
        record.timings["C_selection"] = selection
        C = {name: chosen["C"] for name, chosen in selection.items()}
    else:
        C = dict.fromkeys(METHODS, args.C)
    master_ratio(record, args.iterations_at_sizes, C["CGEns"], X_all[: args.sizes[0]], y_all[: args.sizes[0]])
    runs = {name: fit_exactly(name, k, C[name], X, y, args.time_limit) for name in ("LPBoost", "CGEns")}
    ada_seconds, ada = timed(lambda: AdaBoostClassifier(n_estimators=k).fit(X, y))
    record.timings["iterations_run"] = {
        "n": n,
        **runs,
        "adaboost": {"seconds": ada_seconds, "n_estimators": len(ada.estimators_)},
    }
    for name, run in runs.items():
        print(
            f"n={n}, {k} iterations: {name} {run['seconds']:.1f} s ({run['n_iter']} learners, {run['status']}, "
            f"train error {run['train_error']:.4f})",
            flush=True,
        )
    print(f"n={n}: AdaBoost (SAMME) {len(ada.estimators_)} stumps {ada_seconds:.1f} s", flush=True)
    speedup = runs["LPBoost"]["seconds"] / runs["CGEns"]["seconds"]
    cg_side = measure(f"CGEns, {runs['CGEns']['n_iter']} stumps, C = {C['CGEns']}", runs["CGEns"]["seconds"])
    record.add_ratio(
        f"speed-up LPBoost time / CGEns time, {k} iterations, n={n}",
        cg_side,
        measure(f"LPBoost, {runs['LPBoost']['n_iter']} stumps, C = {C['LPBoost']}", runs["LPBoost"]["seconds"]),
        speedup,
        f">= {PAPER['speedup_iterations']}",
        note=f"paper: {PAPER['speedup_iterations']}x at {PAPER['max_iter']} iterations, "
        f"n = {PAPER['n_iterations_run']}" + lower_bound(runs["LPBoost"], k),
    )
    record.add_ratio(
        f"fit time CGEns / scikit-learn AdaBoost, {k} stumps, n={n}",
        cg_side,
        measure(f"AdaBoost (SAMME), {len(ada.estimators_)} stumps", ada_seconds),
        runs["CGEns"]["seconds"] / ada_seconds,
        "<= 0.5",
    )

    by_size: dict[str, list[float]] = {"LPBoost": [], "CGEns": []}
    last: dict[str, dict] = {}  # the fits at the largest size
    stopped: dict[str, list[bool]] = {name: [] for name in by_size}
    record.timings["sizes_run"] = {"iterations": args.iterations_at_sizes, "runs": []}
    for size in args.sizes:
        for name in by_size:
            run = fit_exactly(name, args.iterations_at_sizes, C[name], X_all[:size], y_all[:size], args.time_limit)
            by_size[name].append(run["seconds"])
            last[name] = run
            stopped[name].append(cut_short(run, args.iterations_at_sizes))
            record.timings["sizes_run"]["runs"].append({"method": name, "n": size, **run, "curve": None})
        print(
            f"n={size:6d}, {args.iterations_at_sizes} iterations: LPBoost {by_size['LPBoost'][-1]:.1f} s, "
            f"CGEns {by_size['CGEns'][-1]:.1f} s, speed-up {by_size['LPBoost'][-1] / by_size['CGEns'][-1]:.2f}",
            flush=True,
        )
    record.add_ratio(
        f"speed-up LPBoost time / CGEns time, {args.iterations_at_sizes} iterations, n={args.sizes[-1]}",
        measure("CGEns", by_size["CGEns"][-1]),
        measure("LPBoost", by_size["LPBoost"][-1]),
        by_size["LPBoost"][-1] / by_size["CGEns"][-1],
        f">= {PAPER['speedup_n']}",
        note=f"paper: {PAPER['speedup_n']}x at n = {PAPER['largest_n']}"
        + lower_bound(last["LPBoost"], args.iterations_at_sizes),
    )
    for name, times in by_size.items():
        record.add_series(f"{name}, {args.iterations_at_sizes} stumps, MNIST odd/even", args.sizes, times, x="n")
        if len(args.sizes) > 1:
            print(f"log-log slope of {name} time vs n: {loglog_slope(args.sizes, times):.2f}")
    for name, run in runs.items():
        marks = sorted({t for t in (1, 10, 25, 50, 100, 250, 500) if t < len(run["curve"])} | {len(run["curve"])})
        record.add_series(
            f"{name}, n = {n}, time vs iterations", marks, [run["curve"][t - 1] for t in marks], x="iterations"
        )

    if n < PAPER["n_iterations_run"] or args.sizes[-1] < PAPER["largest_n"]:
        record.notes.append(
            f"sizes below the paper's (n = {PAPER['n_iterations_run']} for the iteration run, n up to "
            f"{PAPER['largest_n']}): measured n = {n} and n up to {args.sizes[-1]}; the AdaBoost comparison uses "
            "the same n"
        )
    record.notes.append(
        "LPBoost's LP by its default route, the dual (DualLPMaster: a learner is a row, the dual "
        "simplex restarts warm), the fastest of benchmarks/lp_routes.py"
    )
    draw_figure2(
        Path(args.figure),
        {name: run["curve"] for name, run in runs.items()},
        n,
        args.sizes,
        by_size,
        args.iterations_at_sizes,
        stopped,
    )
    print(f"figure: {Path(args.figure).with_suffix('.png')} (+ .pdf)")
    record.write()


if __name__ == "__main__":
    main()
