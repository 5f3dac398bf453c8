"""CGEns across C (issue 20): fit time against scikit-learn's AdaBoost at every C of the tables' grids.

Run: ``python benchmarks/cgens_across_c.py [--mirror DIR] [--n 10000] [--max-iter 500]
[--C 0.001 0.01 0.1 1] [--json PATH] [--quick]``.

On ``--n`` random MNIST odd/even digits (raw pixels), in one run:

* scikit-learn's AdaBoost (SAMME, its default depth-1 tree = a stump) with ``--max-iter`` stumps;
* ``CGEnsClassifier(learner="stump", C=C, max_iter=k)`` at its defaults (dual coordinate
  descent, the masters on the way to liblinear's 0.1, the last to ``solver_tol``) at
  each ``--C``: the goal is <= 0.5x AdaBoost at every C;
* the same with ``loose_tol=None`` (every master to ``solver_tol``, the default until
  2026-11-26) at each ``--tight-C``, no goal: what the loose masters save, with the
  master iterations of both (dual-CD passes plus Newton steps; at C >= 0.1 the tight
  masters take tens of minutes: left out by default);
* the paper's route for the same masters at each ``--liblinear-C``, no goal: liblinear
  (scikit-learn's ``LinearSVC(loss="hinge")``, the same penalised offset) solves each
  restricted master of the default fit's path from scratch, the masters on the way to
  0.1 and the last to 1e-3 as ours; its summed time against our masters' (the history's
  ``master_seconds``): how our warm-started solver compares with the solver the paper ran,
  pricing left out of both.

Every CGEns fit adds exactly k learners (``tol=0``); the record keeps each fit's master
iterations (dual-CD passes over the points plus Newton steps, summed over its masters) and
its training error.
"""

from __future__ import annotations

import warnings

import numpy as np
from _common import Record, measure, parser, timed
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from mkbench import CGEnsClassifier
from mkbench.harness.datasets import load
from mkbench.learners import outputs


def fit_cgens(C: float, k: int, X: np.ndarray, y: np.ndarray, **options: object) -> tuple[dict, CGEnsClassifier]:
    """One CGEns fit of k stumps, printed: its record (seconds, learners, master iterations, training error) and model."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # it stops at max_iter by design (tol=0)
        seconds, model = timed(lambda: CGEnsClassifier(C=C, max_iter=k, tol=0.0, **options).fit(X, y))
    run = {
        "seconds": seconds,
        "n_iter": model.n_iter_,
        "status": model.status_,
        "iterations": int(sum(row["master_iterations"] for row in model.history_)),
        "master_seconds": float(sum(row["master_seconds"] for row in model.history_)),
        "train_error": float(np.mean(model.predict(X) != y)),
    }
    print(
        f"C={C} {options or 'defaults'}: CGEns {seconds:.1f} s, {run['n_iter']} stumps, {run['iterations']} master iterations, "
        f"train error {run['train_error']:.4f}",
        flush=True,
    )
    return run, model


def primal(coef: np.ndarray, intercept: float, H: np.ndarray, signed: np.ndarray, C: float) -> float:
    """The restricted SVM (1) with liblinear's penalised offset: (||w||^2 + b^2) / 2 + C sum_i hinge_i."""
    margins = signed * (H @ coef + intercept)
    return 0.5 * (coef @ coef + intercept**2) + C * np.maximum(0.0, 1.0 - margins).sum()


def liblinear_masters(model: CGEnsClassifier, X: np.ndarray, y: np.ndarray, C: float) -> dict:
    """Solve every restricted master of ``model``'s path with liblinear from scratch, as the paper did."""
    H = outputs(model.learners_, X)
    signed = np.where(y == model.classes_[1], 1.0, -1.0)
    k, total, iterations = H.shape[1], 0.0, 0
    for t in range(1, k + 1):
        tol = model.solver_tol if t == k else model.loose_tol  # as our masters: loose on the way, tight at the end
        svm = LinearSVC(loss="hinge", C=C, tol=tol, intercept_scaling=1.0, max_iter=10**7, random_state=0)
        seconds, svm = timed(lambda: svm.fit(H[:, :t], signed))
        total, iterations = total + seconds, iterations + int(svm.n_iter_)
    theirs = primal(svm.coef_.ravel(), float(svm.intercept_[0]), H, signed, C)
    ours = primal(model.coef_, model.intercept_, H, signed, C)
    run = {"seconds": total, "iterations": iterations, "objective_rel_diff": abs(theirs - ours) / ours}
    print(
        f"C={C}: liblinear from scratch on the {k} masters {total:.1f} s, {iterations} iterations; "
        f"last objective {theirs:.6g} vs ours {ours:.6g}",
        flush=True,
    )
    return run


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--mirror", default=None, help="data mirror folder (default: $MKBENCH_DATA_MIRROR)")
    cli.add_argument("--n", type=int, default=10_000, help="training digits")
    cli.add_argument("--max-iter", type=int, default=500, help="stumps of every fit")
    cli.add_argument("--C", type=float, nargs="+", default=[0.001, 0.01, 0.1, 1.0], help="CGEns' C values")
    cli.add_argument(
        "--tight-C",
        type=float,
        nargs="*",
        default=[0.001, 0.01],
        help="C values at which CGEns is also fitted with every master tight (loose_tol=None)",
    )
    cli.add_argument(
        "--liblinear-C",
        type=float,
        nargs="*",
        default=[0.001, 0.01, 0.1, 1.0],
        help="C values at which liblinear also solves every restricted master of the path from scratch",
    )
    cli.add_argument("--seed", type=int, default=0, help="seeds the random choice of the digits")
    args = cli.parse_args()
    if args.quick:
        args.n, args.max_iter, args.C, args.tight_C, args.liblinear_C = 300, 10, [0.01, 1.0], [0.01, 1.0], [1.0]
    record = Record("cgens_across_c", 20, "CGEns vs scikit-learn AdaBoost at every C, stumps, MNIST odd/even", args)
    ds = load("mnist-odd-even", mirror=args.mirror)
    rows = np.random.default_rng(args.seed).permutation(ds.X.shape[0])[: args.n]
    X, y, k = ds.X[rows], ds.y[rows], args.max_iter

    with warnings.catch_warnings():  # compiles (or loads) the numba kernels outside the timings
        warnings.simplefilter("ignore", ConvergenceWarning)
        CGEnsClassifier(C=args.C[0], max_iter=3).fit(X[:60], y[:60])
    ada_seconds, ada = timed(lambda: AdaBoostClassifier(n_estimators=k).fit(X, y))
    peer = measure(f"AdaBoost (SAMME), {len(ada.estimators_)} stumps", ada_seconds)
    print(f"n={args.n}: AdaBoost {len(ada.estimators_)} stumps {ada_seconds:.1f} s", flush=True)
    runs: dict[float, dict[str, dict]] = {}
    for C in args.C:
        default, model = fit_cgens(C, k, X, y)
        runs[C] = {"defaults": default}
        if C in args.tight_C:
            runs[C]["every master tight"], _ = fit_cgens(C, k, X, y, loose_tol=None)
        ours = measure(
            f"CGEns defaults, {default['n_iter']} stumps, {default['iterations']} master iterations", default["seconds"]
        )
        record.add_ratio(
            f"fit time CGEns (defaults) / scikit-learn AdaBoost, C = {C}, {k} stumps, n={args.n}",
            ours,
            peer,
            default["seconds"] / ada_seconds,
            "<= 0.5",
        )
        if "every master tight" in runs[C]:
            tight = runs[C]["every master tight"]
            record.add_ratio(
                f"fit time CGEns, loose masters on the way (defaults) / every master to solver_tol, "
                f"C = {C}, {k} stumps, n={args.n} (no goal)",
                ours,
                measure(f"CGEns loose_tol=None, {tight['iterations']} master iterations", tight["seconds"]),
                default["seconds"] / tight["seconds"],
                None,
            )
        if C in args.liblinear_C:
            theirs = runs[C]["liblinear masters"] = liblinear_masters(model, X, y, C)
            record.add_ratio(
                f"master time, CGEns (defaults: warm dual CD, then Newton) / liblinear from scratch on the same "
                f"masters (the paper's solver), C = {C}, {k} stumps, n={args.n} (no goal; last "
                f"objectives agree to {theirs['objective_rel_diff']:.1e})",
                measure(f"our masters, {default['iterations']} master iterations", default["master_seconds"]),
                measure(f"LinearSVC(loss='hinge'), {theirs['iterations']} iterations", theirs["seconds"]),
                default["master_seconds"] / theirs["seconds"],
                None,
            )
    record.timings = {
        "adaboost": {"seconds": ada_seconds, "n_estimators": len(ada.estimators_)},
        "cgens": {str(C): run for C, run in runs.items()},
    }
    record.write()


if __name__ == "__main__":
    main()
