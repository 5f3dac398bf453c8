"""MKL benchmark (issues 6, 44): SimpleMKL against SILP and EasyMKL fit time, at defaults, and the kernel stack's memory.

Run: ``python benchmarks/mkl_speed.py [--mirror DIR] [--config config/config.yaml] [--splits 3] [--no-defaults]
[--no-memory] [--json PATH] [--quick]``.

Speed. Both estimators fit the same splits of the same data sets with the same kernels as the ``mkl-credit`` and
``mkl-uci`` experiments of the config (Credit, Ionosphere, Sonar; the SimpleMKL grid of 208 / 442 / 793 kernels;
standardised inputs; C = 100; relative gap 0.01): each job is :func:`mkbench.harness.experiment.run_job` on the first
``--splits`` of the experiment's 20 random 70/30 splits, so the parameters are read from the config, never restated
here. Printed per data set: mean fit seconds, test error and kernels selected of both, and the time ratio SimpleMKL /
SILP (issue goal: <= 0.25, i.e. SimpleMKL >= 4x faster, with equal accuracy: test accuracy of SimpleMKL >= 0.99 x
SILP's).

Beside them, on the same splits in the same run (issue 44), MKLpy's EasyMKL as the workflow fits it for the mkl-peers
tables: ``mkbench.peers:EasyMKLClassifier`` through ``run_job`` with the kernels and C of the experiment's ``silp``
(config/peers.yaml gives it those; tests/harness/test_peers.py checks they are equal), its fit time including
computing its kernel list, MKLpy's lambda = 0.1, one thread. Issue 44's goals: SimpleMKL / EasyMKL and SILP / EasyMKL
fit time <= 1.0, "at the same test error within noise", read here as (fixed before any measurement) our test error no
worse than EasyMKL's beyond noise: the mean over the splits of the paired differences (ours - EasyMKL's) at most one
standard error of that mean, or at most one test point (1 / n_test) when that is larger (a ratio's ``condition``: met
needs both). Each of the three is first fitted untimed on 15 points of each class (one-time costs: numba's compiled
code, PyTorch's first call). Without MKLpy (the optional ``[peers]`` extra) EasyMKL is skipped and the record says so.

At defaults (issue 44: "<= 30 s at defaults on a 2000 x 50 problem with 20 kernels"): ``SimpleMKLClassifier(kernels)``
and ``SILPClassifier(kernels)``, every other parameter at its default, with the 20 kernels of
``benchmarks/mkl_precomputed.py`` (15 Gaussians, the polynomials of degrees 1-5) on ``make_classification(2000, 50,
random_state=0)``, one fit each; the ratio is its wall-clock seconds over the 30 s budget (goal <= 1.0).

Floor (issue 44: can these algorithms reach "<= 1.0x EasyMKL" at all?). On the first split, what no implementation of
them avoids: the kernel stack built once (the experiment's kernels and ``dtype``) and, per iteration, one gradient
(``CombinedSVM.quadratic_terms``, one pass over the stack) and one libsvm solve on the combined kernel (at SimpleMKL's
final weights; the combination not counted), each the best of 5 (3 for the stack): floor = stack + n_iter x (gradient
+ solve), n_iter each method's mean (SimpleMKL's weight updates, SILP's LPs). Ratio floor / EasyMKL's fit, no goal.

Same certificate. The two stop on different gaps: SimpleMKL on the relative duality gap (J(beta) - D(alpha)) /
J(beta), SILP on (S - theta) / S, which SILP reaches first (it is never larger). So SILP is also run past its own stop
(its tol at ``--certificate-silp-tol``, at most ``--certificate-max-iter`` LPs), and the time at which its iterate
first has SimpleMKL's duality gap <= SimpleMKL's tol is read from its history (``duality_gap``, ``seconds`` from the
start of ``fit``, as SimpleMKL's): the time ratio at the same certificate of optimality. A SILP run that never gets
there bounds the ratio from above by its total time.

Memory. The training kernels are computed once into one (M, n, n) stack that every step reads in place
(:class:`mkbench.masters.combined_svm.CombinedSVM`). On Sonar with the 793-kernel grid, SimpleMKL is fitted under
``tracemalloc`` twice, stopped after one weight update and run to its end: the peak of traced memory against the bytes
of the stack, and the peak of the full run against the one-update run (a per-iteration copy of the kernels would raise
both to 2x or more). libsvm's own C allocations are not traced (it copies only the n x n combined kernel).
"""

from __future__ import annotations

import tracemalloc
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from _common import Record, best_of, measure, parser, timed, versions
from mkl_precomputed import kernels as twenty_kernels
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from mkbench import SILPClassifier, SimpleMKLClassifier
from mkbench.estimators._binary import binary_targets
from mkbench.harness.config import load_config
from mkbench.harness.datasets import load
from mkbench.harness.experiment import protocol_splits, run_job
from mkbench.harness.methods import make_method
from mkbench.kernels.grid import unit_trace_stack
from mkbench.masters.combined_svm import CombinedSVM

EXPERIMENTS = ("mkl-credit", "mkl-uci")
OURS, PEER = "simplemkl", "silp"
#: config/peers.yaml's label and estimator of MKLpy's EasyMKL (the mkl-peers tables).
EASYMKL, EASYMKL_ESTIMATOR = "easymkl", "mkbench.peers:EasyMKLClassifier"
#: Issue 44's budget for a fit at defaults on a 2000 x 50 problem with 20 kernels, seconds.
DEFAULTS_BUDGET = 30.0
#: What each job's record keeps (the first three averaged over the splits).
RUN_KEYS = ("fit_seconds", "test_error", "n_kernels", "n_iter", "status", "n_test")
FLOOR_COLUMNS = ("data set", "method", "dtype", "stack s", "gradient ms", "SVM ms", "iterations", "floor s")
FLOOR_COLUMNS += ("EasyMKL fit s", "floor / EasyMKL")
QUICK = {"widths": [5.0], "degrees": [1], "n_variables": 3, "max_iter": 10, "tol": 0.1}


def quick_params(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with a tiny SimpleMKL grid (one width, degree 1, the first 3 variables) and a short run."""
    grid = dict(params["kernels"]) if isinstance(params["kernels"], Mapping) else {"grid": "simplemkl"}
    variables = grid.get("variables") or [[j] for j in range(QUICK["n_variables"])]
    grid.update(widths=QUICK["widths"], degrees=QUICK["degrees"], variables=variables[: QUICK["n_variables"]])
    return {**params, "kernels": grid, "max_iter": QUICK["max_iter"], "tol": QUICK["tol"]}


def method_params(exp: dict, method: str, quick: bool) -> tuple[str, dict[str, Any]]:
    """The estimator name and parameters of ``method`` in experiment ``exp``; EasyMKL's as config/peers.yaml's."""
    if method == EASYMKL:  # the kernels and C of the experiment's silp
        params = method_params(exp, PEER, quick)[1]
        return EASYMKL_ESTIMATOR, {"kernels": params["kernels"], "C": params["C"]}
    spec = exp["methods"][method]
    return spec["estimator"], quick_params(spec["params"]) if quick else dict(spec["params"])


def warm_up(exp: dict, ds, split: dict, methods: tuple[str, ...], quick: bool) -> str:
    """Fit each method untimed on 15 training points of each class (one-time costs); why EasyMKL cannot run, or ""."""
    train = split["train"]
    tiny = {"train": np.concatenate([train[ds.y[train] == c][:15] for c in np.unique(ds.y[train])])}
    for method in methods:
        estimator, params = method_params(exp, method, quick)
        try:
            run_job(ds, tiny, method=method, estimator=estimator, params=params, preprocess=exp["preprocess"])
        except ImportError as exc:  # MKLpy or PyTorch not installed: the adapter says so
            print(f"EasyMKL skipped: {exc}", flush=True)
            return f"EasyMKL skipped: MKLpy not installed ({versions(['MKLpy', 'torch'])})"
    return ""


def within_noise(ours: list[float], peer: list[float], n_test: int) -> tuple[bool, float, float]:
    """Whether our test errors are no worse than the peer's beyond noise, the mean paired difference and the bound.

    The mean over the splits of ours - peer's must be at most one standard error of that
    mean (over the splits), or one test point (1 / ``n_test``) when that is larger; equal to it
    up to rounding counts (on two splits one of which has no difference, the mean equals its
    standard error).
    """
    difference = np.asarray(ours) - np.asarray(peer)
    error = float(np.std(difference, ddof=1) / np.sqrt(difference.size)) if difference.size > 1 else 0.0
    bound, mean = max(error, 1.0 / n_test), float(difference.mean())
    return bool(mean <= bound or np.isclose(mean, bound, rtol=1e-9, atol=0.0)), mean, bound


def speed(record: Record, config: dict, args) -> None:
    """Time SILP, SimpleMKL and EasyMKL on the first splits of every MKL data set; add the ratios."""
    methods: tuple[str, ...] = (PEER, OURS, EASYMKL)
    for name in EXPERIMENTS:
        exp = config["experiments"][name]
        for dataset_name in exp["datasets"]:
            ds = load(dataset_name, mirror=args.mirror)
            splits = protocol_splits(config, exp["protocol"], ds, seed=exp["seeds"][0])[: args.splits]
            skipped = warm_up(exp, ds, splits[0], methods, args.quick)
            if skipped:
                methods = (PEER, OURS)
                record.notes.append(skipped)
            runs: dict[str, list[dict[str, Any]]] = {method: [] for method in methods}
            for split in splits:
                for method in methods:
                    estimator, params = method_params(exp, method, args.quick)
                    job = run_job(
                        ds, split, method=method, estimator=estimator, params=params, preprocess=exp["preprocess"]
                    )
                    runs[method].append({key: job.get(key) for key in RUN_KEYS})
                    if "history" in job:  # ours: seconds from the start of fit at each iteration
                        runs[method][-1]["certificate_seconds"] = job["history"][-1]["seconds"]  # at its own stop
            record.timings[dataset_name] = runs
            mean = {m: {key: float(np.mean([r[key] for r in runs[m]])) for key in RUN_KEYS[:3]} for m in runs}
            time_ratio = mean[OURS]["fit_seconds"] / mean[PEER]["fit_seconds"]
            accuracy_ratio = (1 - mean[OURS]["test_error"]) / (1 - mean[PEER]["test_error"])
            print(
                f"{dataset_name:10s} ({len(splits)} splits) "
                + " | ".join(
                    f"{m}: {mean[m]['fit_seconds']:.2f} s, test error {mean[m]['test_error']:.4f}, "
                    f"{mean[m]['n_kernels']:.1f} kernels"
                    for m in runs
                )
                + f" | time SimpleMKL / SILP {time_ratio:.2f} (goal <= 0.25)",
                flush=True,
            )
            sides = {
                m: measure(f"{label}, test error {mean[m]['test_error']:.4f}", mean[m]["fit_seconds"])
                for m, label in ((OURS, "SimpleMKL"), (PEER, "SILP"), (EASYMKL, "EasyMKL (MKLpy)"))
                if m in runs
            }
            where = f"{dataset_name}, mean of {len(splits)} of the {name} splits"
            record.add_ratio(f"fit time SimpleMKL / SILP, {where}", sides[OURS], sides[PEER], time_ratio, "<= 0.25")
            record.add_ratio(
                f"test accuracy SimpleMKL / SILP, {where}",
                sides[OURS],
                sides[PEER],
                accuracy_ratio,
                ">= 0.99",
                note="'equal accuracy' read as within 1 %",
            )
            if EASYMKL in runs:
                easymkl_goals(record, runs, sides, where, runs[EASYMKL][0]["n_test"])
            floor(record, exp, ds, splits[0], runs, sides, where, args.quick)
            ours = [run["certificate_seconds"] for run in runs[OURS]]  # SimpleMKL stops at its certificate
            same_certificate(record, exp, ds, splits, ours, where, args)


def easymkl_goals(record: Record, runs: dict, sides: dict, where: str, n_test: int) -> None:
    """Issue 44's goals: SimpleMKL's and SILP's fit time <= 1.0x EasyMKL's, at its test error within noise."""
    easymkl = runs[EASYMKL]
    for method, label in ((OURS, "SimpleMKL"), (PEER, "SILP")):
        same, difference, bound = within_noise(
            [r["test_error"] for r in runs[method]], [r["test_error"] for r in easymkl], n_test
        )
        seconds = np.mean([r["fit_seconds"] for r in runs[method]]) / np.mean([r["fit_seconds"] for r in easymkl])
        print(
            f"{label} / EasyMKL fit time {seconds:.2f} (goal <= 1.0); test error difference {difference:+.4f}, "
            f"noise bound {bound:.4f}",
            flush=True,
        )
        record.add_ratio(
            f"fit time {label} / EasyMKL (MKLpy, its kernels computed in its fit), {where} (issue 44)",
            sides[method],
            sides[EASYMKL],
            seconds,
            "<= 1.0",
            condition=("test error no worse than EasyMKL's beyond noise", same),
            note=f"mean test error difference {difference:+.4f}, noise bound {bound:.4f}: one standard error over "
            "the splits, at least one test point",
        )


def floor(record: Record, exp: dict, ds, split: dict, runs: dict, sides: dict, where: str, quick: bool) -> None:
    """The parts of a fit no implementation of the published algorithms avoids, against EasyMKL's fit time."""
    estimator, params = method_params(exp, OURS, quick)
    X, y = StandardScaler().fit_transform(ds.X[split["train"]]), ds.y[split["train"]]  # memory() checks the preprocess
    model = make_method(estimator, params).fit(X, y)
    X = X if model.input_mean_ is None else (X - model.input_mean_) / model.input_scale_
    stack, signed = unit_trace_stack(model.kernels_, X, model.dtype)[0], binary_targets(y)[1]
    svm = CombinedSVM(stack, signed, model.C_, model.svm_tol)
    alpha_y = svm.solve(model.weights_, K := svm.kernel(model.weights_)).alpha_y
    build = best_of(lambda: unit_trace_stack(model.kernels_, X, model.dtype), 3)
    gradient, solve = best_of(lambda: svm.quadratic_terms(alpha_y)), best_of(lambda: svm.solve(model.weights_, K))
    rows = []
    for method, label in ((OURS, "SimpleMKL"), (PEER, "SILP")):
        n_iter = float(np.mean([r["n_iter"] for r in runs[method]]))
        seconds = build + n_iter * (gradient + solve)
        text = f"stack {build:.2f} s + {n_iter:.0f} iterations x (gradient {1e3 * gradient:.1f} + SVM {1e3 * solve:.1f} ms)"
        print(f"{ds.name:10s} {label}'s floor: {text} = {seconds:.2f} s", flush=True)
        peer = sides[EASYMKL]["value"] if EASYMKL in runs else None
        parts = [build, 1e3 * gradient, 1e3 * solve, n_iter, seconds, peer, peer and seconds / peer]
        rows.append([ds.name, label, model.dtype, *("—" if v is None else round(v, 4) for v in parts)])
        if EASYMKL in runs:
            record.add_ratio(
                f"floor of {label}'s fit (the parts no implementation avoids) over EasyMKL's fit time, {where}",
                measure(f"{label}'s floor: {text}", seconds),
                sides[EASYMKL],
                seconds / peer,
                note="above 1, no implementation of the published algorithm reaches EasyMKL's time at these iterations",
            )
    record.add_table(
        f"The floor of each method, {ds.name} (first split; mean iterations of {where})",
        FLOOR_COLUMNS,
        rows,
        note="floor = stack + iterations x (gradient + SVM): what no implementation of the published algorithm avoids",
    )


def same_certificate(record: Record, exp: dict, ds, splits: list, ours: list[float], where: str, args) -> None:
    """Seconds to SimpleMKL's duality-gap certificate (``ours``, per split) against SILP run past its own stop."""
    target = method_params(exp, OURS, args.quick)[1]["tol"]
    peer, reached = [], True
    for split in splits:
        silp, silp_params = method_params(exp, PEER, args.quick)
        silp_params.update(tol=args.certificate_silp_tol, max_iter=args.certificate_max_iter)
        history = run_job(ds, split, method=PEER, estimator=silp, params=silp_params, preprocess=exp["preprocess"])[
            "history"
        ]
        first = next((row for row in history if row["duality_gap"] <= target), None)
        reached &= first is not None
        peer.append((first or history[-1])["seconds"])
    ratio = float(np.mean(ours) / np.mean(peer))
    silp_label = (
        f"SILP, first iterate with duality gap <= {target}"
        if reached
        else f"SILP, {args.certificate_max_iter} LPs without reaching duality gap <= {target} (a lower bound)"
    )
    print(
        f"{ds.name:10s} same certificate (duality gap <= {target}): SimpleMKL {np.mean(ours):.2f} s, "
        f"{silp_label} {np.mean(peer):.2f} s, ratio {ratio:.2f}{'' if reached else ' or less'}",
        flush=True,
    )
    record.add_ratio(
        f"seconds to SimpleMKL's certificate (relative duality gap <= {target}), SimpleMKL / SILP, {where}",
        measure(f"SimpleMKL, duality gap <= {target}", float(np.mean(ours))),
        measure(silp_label, float(np.mean(peer))),
        ratio,
        "<= 0.25",
        note="" if reached else "an upper bound: SILP did not reach the certificate",
    )


def at_defaults(record: Record, n: int) -> None:
    """SimpleMKL and SILP at their defaults with 20 kernels on make_classification(n, 50): seconds against 30 s."""
    X, y = make_classification(n_samples=n, n_features=50, random_state=0)
    library = twenty_kernels()
    where = f"make_classification({n}, 50), {len(library)} kernels (15 Gaussians, polynomials of degree 1-5)"
    runs = record.timings["at_defaults"] = {}
    for label, estimator in (("SimpleMKL", SimpleMKLClassifier), ("SILP", SILPClassifier)):
        seconds, model = timed(lambda: estimator(library).fit(X, y))
        runs[label] = {"seconds": seconds, "n_iter": int(model.n_iter_), "status": model.status_}
        runs[label]["n_kernels"] = int(model.n_kernels_selected_)
        print(f"{label} at defaults, {where}: {seconds:.1f} s, {model.n_iter_} iterations, {model.status_}", flush=True)
        record.add_ratio(
            f"fit time {label}Classifier(kernels), all else at its defaults, / issue 44's 30 s budget, {where}",
            measure(f"{label}Classifier(20 kernels), {model.n_iter_} iterations", seconds),
            measure("the budget", DEFAULTS_BUDGET),
            seconds / DEFAULTS_BUDGET,
            "<= 1.0",
            note="an absolute goal: <= 30 s, one fit",
        )


def traced_peak(model, X: np.ndarray, y: np.ndarray) -> int:
    """Peak bytes traced by tracemalloc during ``model.fit(X, y)``."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # the one-update fit stops at max_iter
            model.fit(X, y)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def memory(record: Record, config: dict, args) -> None:
    """Peak traced memory of SimpleMKL on Sonar against the kernel stack, and against a one-update fit."""
    exp = config["experiments"]["mkl-uci"]
    if exp["preprocess"] != "standardize":
        raise SystemExit(f"mkl-uci preprocess is {exp['preprocess']!r}; this benchmark standardises")
    ds = load("sonar", mirror=args.mirror)
    train = protocol_splits(config, exp["protocol"], ds, seed=exp["seeds"][0])[0]["train"]
    X, y = StandardScaler().fit_transform(ds.X[train]), ds.y[train]
    estimator, params = method_params(exp, OURS, args.quick)
    one = make_method(estimator, {**params, "max_iter": 1})
    peak_one = traced_peak(one, X, y)
    full = make_method(estimator, params)
    peak_full = traced_peak(full, X, y)
    n_kernels, n = len(full.kernels_), X.shape[0]
    stack = n_kernels * n * n * np.dtype(full.dtype).itemsize
    print(
        f"Sonar, {n_kernels} kernels, n={n}: kernel stack {stack / 2**20:.1f} MiB; peak traced memory "
        f"{peak_one / 2**20:.1f} MiB after {one.n_iter_} update(s), {peak_full / 2**20:.1f} MiB after "
        f"{full.n_iter_} ({full.n_svm_fits_} SVMs)",
        flush=True,
    )
    record.timings["memory"] = {
        "n_kernels": n_kernels,
        "n_train": n,
        "stack_bytes": stack,
        "peak_bytes_one_update": peak_one,
        "peak_bytes_full": peak_full,
        "n_iter_full": full.n_iter_,
        "n_svm_full": full.n_svm_fits_,
    }
    stack_side = measure(f"the (M, n, n) kernel stack, M={n_kernels}, n={n}", stack / 2**20, "MiB")
    record.add_ratio(
        f"peak memory of a SimpleMKL fit / kernel stack bytes (Sonar, {full.n_iter_} updates)",
        measure("SimpleMKL fit, tracemalloc peak", peak_full / 2**20, "MiB"),
        stack_side,
        peak_full / stack,
        "<= 1.25",
        note="one extra copy of the kernels would make it >= 2",
    )
    record.add_ratio(
        f"peak memory, SimpleMKL run to the end ({full.n_iter_} updates) / stopped after one",
        measure(f"{full.n_iter_} updates", peak_full / 2**20, "MiB"),
        measure("1 update", peak_one / 2**20, "MiB"),
        peak_full / peak_one,
        "<= 1.1",
        note="memory does not grow with the iterations",
    )


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--mirror", default=None, help="data mirror folder (default: $MKBENCH_DATA_MIRROR)")
    cli.add_argument("--config", default="config/config.yaml", help="workflow config with mkl-credit and mkl-uci")
    cli.add_argument("--splits", type=int, default=3, help="first splits of each experiment's 20 to time")
    cli.add_argument(
        "--certificate-silp-tol", type=float, default=1e-6, help="SILP's gap tol to SimpleMKL's certificate"
    )
    cli.add_argument(
        "--certificate-max-iter", type=int, default=600, help="most SILP LPs when run to SimpleMKL's certificate"
    )
    cli.add_argument("--no-memory", action="store_true", help="skip the kernel-stack memory measurement")
    cli.add_argument("--defaults-n", type=int, default=2000, help="points of the problem fitted at defaults")
    cli.add_argument("--no-defaults", action="store_true", help="skip the fits at defaults (about 7 min in 2026-11)")
    args = cli.parse_args()
    if args.quick:
        args.splits, args.defaults_n = 1, 150
    record = Record(
        "mkl_speed", 6, "SimpleMKL vs SILP and EasyMKL fit time (Credit, Ionosphere, Sonar), at defaults, memory", args
    )
    config = load_config(args.config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # run_job records each fit's status
        speed(record, config, args)
        if not args.no_defaults:
            at_defaults(record, args.defaults_n)
    if not args.no_memory:
        memory(record, config, args)
    if args.quick:
        record.notes.append(f"--quick: kernel grid and run reduced to {QUICK}")
    record.write()


if __name__ == "__main__":
    main()
