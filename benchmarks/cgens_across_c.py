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
  dual-CD passes of both (at C >= 0.1 the tight masters take tens of minutes: left out
  by default).

Every CGEns fit adds exactly k learners (``tol=0``); the record keeps each fit's passes
over the points (summed over its masters) and its training error.
"""

from __future__ import annotations

import warnings

import numpy as np
from _common import Record, measure, parser, timed
from sklearn.ensemble import AdaBoostClassifier
from sklearn.exceptions import ConvergenceWarning

from mkbench import CGEnsClassifier
from mkbench.harness.datasets import load


def fit_cgens(C: float, k: int, X: np.ndarray, y: np.ndarray, **options: object) -> dict:
    """One CGEns fit of k stumps, printed: seconds, learners, dual-CD passes and training error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # it stops at max_iter by design (tol=0)
        seconds, model = timed(lambda: CGEnsClassifier(C=C, max_iter=k, tol=0.0, **options).fit(X, y))
    run = {"seconds": seconds, "n_iter": model.n_iter_, "status": model.status_,
           "passes": int(sum(row["master_iterations"] for row in model.history_)),
           "train_error": float(np.mean(model.predict(X) != y))}
    print(f"C={C} {options or 'defaults'}: CGEns {seconds:.1f} s, {run['n_iter']} stumps, {run['passes']} passes, "
          f"train error {run['train_error']:.4f}", flush=True)
    return run


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--mirror", default=None, help="data mirror folder (default: $MKBENCH_DATA_MIRROR)")
    cli.add_argument("--n", type=int, default=10_000, help="training digits")
    cli.add_argument("--max-iter", type=int, default=500, help="stumps of every fit")
    cli.add_argument("--C", type=float, nargs="+", default=[0.001, 0.01, 0.1, 1.0], help="CGEns' C values")
    cli.add_argument("--tight-C", type=float, nargs="*", default=[0.001, 0.01],
                     help="C values at which CGEns is also fitted with every master tight (loose_tol=None)")
    cli.add_argument("--seed", type=int, default=0, help="seeds the random choice of the digits")
    args = cli.parse_args()
    if args.quick:
        args.n, args.max_iter, args.C, args.tight_C = 300, 10, [0.01, 1.0], [0.01, 1.0]
    record = Record("cgens_across_c", 20, "CGEns vs scikit-learn AdaBoost at every C, stumps, MNIST odd/even", args)
    ds = load("mnist-odd-even", mirror=args.mirror)
    rows = np.random.default_rng(args.seed).permutation(ds.X.shape[0])[: args.n]
    X, y, k = ds.X[rows], ds.y[rows], args.max_iter

    ada_seconds, ada = timed(lambda: AdaBoostClassifier(n_estimators=k).fit(X, y))
    peer = measure(f"AdaBoost (SAMME), {len(ada.estimators_)} stumps", ada_seconds)
    print(f"n={args.n}: AdaBoost {len(ada.estimators_)} stumps {ada_seconds:.1f} s", flush=True)
    runs: dict[float, dict[str, dict]] = {}
    for C in args.C:
        runs[C] = {"defaults": fit_cgens(C, k, X, y)}
        if C in args.tight_C:
            runs[C]["every master tight"] = fit_cgens(C, k, X, y, loose_tol=None)
        default = runs[C]["defaults"]
        ours = measure(f"CGEns defaults, {default['n_iter']} stumps, {default['passes']} passes", default["seconds"])
        record.add_ratio(f"fit time CGEns (defaults) / scikit-learn AdaBoost, C = {C}, {k} stumps, n={args.n}",
                         ours, peer, default["seconds"] / ada_seconds, "<= 0.5")
        if "every master tight" in runs[C]:
            tight = runs[C]["every master tight"]
            record.add_ratio(f"fit time CGEns, loose masters on the way (defaults) / every master to solver_tol, "
                             f"C = {C}, {k} stumps, n={args.n} (no goal)", ours,
                             measure(f"CGEns loose_tol=None, {tight['passes']} passes", tight["seconds"]),
                             default["seconds"] / tight["seconds"], None)
    record.timings = {"adaboost": {"seconds": ada_seconds, "n_estimators": len(ada.estimators_)},
                      "cgens": {str(C): run for C, run in runs.items()}}
    record.write()


if __name__ == "__main__":
    main()
