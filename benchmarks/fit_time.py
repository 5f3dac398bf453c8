"""Fit-time benchmark (issue 3): CG-Boost L,Q,R 2-norm on MNIST-1000 against a CV-tuned SVC.

Run: ``python benchmarks/fit_time.py [--mirror DIR] [--n 1000] [--seed 0] [--max-iter 3000] [--json PATH] [--quick]``.

Both fits use the same 1000 random MNIST odd/even training points, in the same
run. The peer is scikit-learn's SVC (RBF) tuned by 5-fold CV over a 5 x 5 grid
of C and gamma (``GridSearchCV``, one process); CG-Boost learns its kernel mixture
without CV: QP (7) with alpha >= 0, its restricted masters solved by an active set
over warm-started dual coordinate descent (``dual_cd``, with the offset b
penalised as a constant column, §4.1 first case), by an active set over libsvm
duals (free b) and by Clarabel (free b), each fit stopped after ``--time-limit``
seconds at most (its status says so). The ratio
CG-Boost / SVC grid is printed with the columns generated and the validation
error on ``--n-val`` further points (the goal in the issue is <= 0.25). A fit
stopped by ``--time-limit`` or ``--max-iter`` has not reached the optimum: its
ratio is then the time of that early stop (status in the JSON note).

Pixels are centred on the training mean and rows scaled to unit Euclidean norm,
as in the Table 1 experiment (config/config.yaml, preprocess: center-normalize):
linear, quadratic and RBF columns then have comparable ranges.
"""

from __future__ import annotations

import warnings

import numpy as np
from _common import Record, measure, parser, timed
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC

from mkbench import CGBoostClassifier
from mkbench.harness.datasets import load


#: The offset each backend solves (``fit_intercept``): liblinear's dual CD penalises b.
OFFSETS = {"dual_cd": "regularized", "libsvm": True, "clarabel": True}
OFFSET_NOTES = {"regularized": "b penalised as a constant column of ones (§4.1, first case)",
                True: "b free (§4.1, second case)"}


def mnist_subset(mirror: str | None, n: int, n_val: int, seed: int) -> tuple[np.ndarray, ...]:
    """n training and n_val validation rows of MNIST odd/even, random and disjoint, centred, unit-norm rows."""
    ds = load("mnist-odd-even", mirror=mirror)
    rows = np.random.default_rng(seed).permutation(ds.X.shape[0])[: n + n_val]
    X = ds.X[rows] - ds.X[rows[:n]].mean(axis=0)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X[:n], ds.y[rows[:n]], X[n:], ds.y[rows[n:]]


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--mirror", default=None, help="data mirror folder (default: $MKBENCH_DATA_MIRROR)")
    cli.add_argument("--n", type=int, default=1000)
    cli.add_argument("--n-val", type=int, default=2000)
    cli.add_argument("--seed", type=int, default=0)
    cli.add_argument("--C", type=float, default=1.0)
    cli.add_argument("--max-iter", type=int, default=3000)
    cli.add_argument("--time-limit", type=float, default=600.0, help="seconds per CG-Boost fit")
    cli.add_argument("--solvers", nargs="+", choices=list(OFFSETS), default=list(OFFSETS),
                     help="backends of the CG-Boost master")
    args = cli.parse_args()
    if args.quick:
        args.n, args.n_val, args.max_iter, args.time_limit = 200, 200, 20, 10.0
    record = Record("fit_time", 3, "CG-Boost L,Q,R 2-norm fit time on MNIST odd/even vs a CV-tuned SVC", args)
    X, y, X_val, y_val = mnist_subset(args.mirror, args.n, args.n_val, args.seed)

    grid = {"C": np.logspace(-1, 3, 5), "gamma": np.logspace(-2, 2, 5)}
    svc_seconds, search = timed(lambda: GridSearchCV(SVC(), grid, cv=5).fit(X, y))
    svc_error = np.mean(search.predict(X_val) != y_val)
    print(f"SVC 5-fold CV over 5x5 (C, gamma): {svc_seconds:.1f} s, validation error {svc_error:.4f}, "
          f"best {search.best_params_}")
    svc = measure(f"SVC, 5-fold CV over 5x5 (C, gamma), val. error {svc_error:.4f}", svc_seconds)
    record.timings["svc_grid"] = {"seconds": svc_seconds, "validation_error": svc_error,
                                  "best_params": {k: float(v) for k, v in search.best_params_.items()}}

    for solver in args.solvers:  # master problem (eq. 7) with b penalised (dual_cd) or free (the others)
        model = CGBoostClassifier("L,Q,R", C=args.C, solver=solver, positive=True, fit_intercept=OFFSETS[solver],
                                  max_iter=args.max_iter, time_limit=args.time_limit)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            seconds, model = timed(lambda: model.fit(X, y))
        error = np.mean(model.predict(X_val) != y_val)
        print(
            f"CG-Boost L,Q,R 2-norm alpha >= 0, solver={solver}: {seconds:.1f} s "
            f"= {seconds / svc_seconds:.2f} x the SVC grid; {model.n_iter_} columns ({model.status_}), "
            f"{model.n_columns_by_kernel_}, validation error {error:.4f}",
            flush=True,
        )
        record.timings[f"cgboost_{solver}"] = {"seconds": seconds, "n_iter": model.n_iter_, "status": model.status_,
                                               "validation_error": error,
                                               "columns_by_kernel": model.n_columns_by_kernel_}
        record.add_ratio(
            f"fit time, CG-Boost L,Q,R 2-norm ({solver} master) / SVC grid, MNIST-{args.n}",
            measure(f"CG-Boost {solver}, {model.n_iter_} columns, val. error {error:.4f}", seconds), svc,
            seconds / svc_seconds, "<= 0.25",
            note="; ".join(filter(None, [
                OFFSET_NOTES[OFFSETS[solver]],
                "" if model.status_ == "optimal" else f"stopped early ({model.status_}): not at the optimum",
            ])),
        )
    record.write()


if __name__ == "__main__":
    main()
