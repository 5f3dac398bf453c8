"""LPBoost and CGEns against colboost's LPBoost on the CGEns Table I data sets: same stumps, LP and splits (issue 22).

Run: ``python benchmarks/lpboost_peers.py [--mirror DIR] [--config config/config.yaml]
[--summary results/summary/cgens-table1.csv] [--splits 5] [--datasets banana ...] [--seed-check-splits 1]
[--json PATH] [--quick]``. Needs the optional peer ``pip install -e '.[peers]'`` (colboost, which
pulls in gurobipy with Gurobi's size-limited pip licence).

The same LP
-----------
Our LPBoost (:class:`mkbench.LPBoostClassifier`, CGEns eq. 4) and colboost's
``EnsembleClassifier(solver="lp_boost")`` (``colboost/solvers/lp_boost.py``) solve
the same soft-margin LP over the weak learners h_1 .. h_J chosen so far::

    min_{w >= 0, xi >= 0}  sum_j w_j + C sum_i xi_i   s.t.  y_i sum_j w_j h_j(x_i) + xi_i >= 1,  i = 1..n

with dual  max sum_i u_i  s.t.  sum_i u_i y_i h_j(x_i) <= 1 for every j,  0 <= u <= C.
Both write it with the slack weight C (colboost's ``tradeoff_hyperparam``), so
C = tradeoff_hyperparam exactly, and neither has an offset. (Demiriz et al.'s
nu form, max rho - D sum_i xi_i s.t. y_i sum_j a_j h_j(x_i) + xi_i >= rho,
sum_j a_j = 1, D = 1 / (nu n), is used by neither. Its dual is the dual above
scaled to sum_i u_i = 1, so a C-form solution with optimal value S solves the
nu form at D = C / S: the mapping depends on the data through S, and none is
needed here, as both packages take C.) The
LP objective of each model is recomputed here the same way, from its weights
and its learners' outputs on the training points.

The same weak learners and iteration cap
----------------------------------------
Table I's LPBoost uses decision stumps h(x) = +-sign(x_f - t) with midpoint
thresholds, plus the constant +-1; colboost's default learner is scikit-learn's
``DecisionTreeClassifier(max_depth=1)``: the same family on the training points
(a depth-1 tree that finds no split is the constant). They differ in the
pricing: ours adds the stump of largest edge sum_i u_i y_i h(x_i) over all
stumps (the most violated dual constraint) and stops when none exceeds 1 + tol;
colboost fits the tree to the duals as sample weights, i.e. the split of least
weighted Gini impurity, which need not have the largest edge, and stops when
the new tree's edge is at most the largest edge among the learners already in
the LP (not 1). It can therefore stop above the LP optimum over all stumps: if
no stump violated the dual constraints under its final duals, its restricted
optimum would be the full one. To see this, each split also runs our LPBoost
without cap to that optimum ("LPBoost to the optimum", on the default LP route). Both run at most
the same number of learners (colboost's ``max_iter`` counts its iterations,
each of which adds one learner, as ours); colboost's early stop on a plateau of
training accuracy is switched off (``early_stopping=False``) so that only its
dual test can end a fit before the cap; its first learner is fitted with
uniform weights 1/n.

C, the cap and the data
-----------------------
Per data set and split, the settings are those of the config's ``cgens-table1``
experiment: its IDA protocol's splits (first ``--splits``), its preprocessing
(standardised on the training part), its methods' fixed parameters (LPBoost's LP
on HiGHS's primal route, CGEns's master and offset), and the C and iteration count
its 5-fold CV chose for each method on that split, read from the committed
``--summary`` (``s_C``, ``s_max_iter``): each refit is the Table I model, and
its test error is checked against the summary's (recorded as
``matches_table1``). colboost's LPBoost gets LPBoost's C and count; so does our
LPBoost on its default LP route (the dual, re-solved warm by the dual simplex;
``benchmarks/lp_routes.py``), timed beside Table I's primal route: the same LP,
whose degenerate optima let the two routes take other columns. CGEns (the
2-norm SVM over stumps with a free offset, another problem) gets its own C and count.

Gurobi's pip licence
--------------------
The size-limited licence solves models of at most 2000 variables and 2000
linear constraints (checked at each run: a 2000-variable LP solves, a 2001-variable
one raises; recorded under ``colboost_limits``). colboost's LP has one variable per
learner and per training point (w, xi) and one constraint per point: it fits
while n_train + count <= 2000. Table I's training sets have 140 (thyroid) to
1300 (image) points and its counts are at most 500, so every LP has at most
1300 + 500 = 1800 variables and 1300 constraints: **no Table I data set is left
out** by the licence. It would bind beyond 700 learners on image and 1000 on
splice; a data set whose LP would not fit on a split is skipped there and listed
in the record (``left_out``).

What colboost cannot do
-----------------------
Its default trees are unseeded (``DecisionTreeClassifier(max_depth=...)`` with
no ``random_state``, drawing from numpy's global generator; its ``seed`` seeds
Gurobi only). They are seeded here through ``base_estimator=
DecisionTreeClassifier(max_depth=1, random_state=0)``, which colboost clones
per iteration; on the first ``--seed-check-splits`` splits of each data set a
second, unseeded fit (colboost's default learner) tells whether the seed
changes the learners (a depth-1 tree draws only to break ties between equally
good splits). ``fit`` replaces the ``solver`` parameter by a solver object
holding a Gurobi environment, so the estimator cannot be fitted twice nor
cloned after ``fit`` (both are attempted and recorded under ``colboost_limits``);
each fit here uses a new estimator. colboost rebuilds and re-solves its LP from
scratch in every iteration (Gurobi, one thread), ours re-solves warm from the
last basis (HiGHS). Where F(x) = sum_j w_j h_j(x) = 0 colboost predicts +1, ours
the negative class: when a small C makes w = 0 the optimum of both LPs, the two
predict opposite constant classes, and their test errors differ by that alone.

Recorded per data set (means over the splits run): test error, learners with a
weight above 1e-6, iterations and fit seconds of the five fits, and the LP
objectives; ratios: fit time of our LPBoost (both routes) and of CGEns over
colboost's, and Table I's LPBoost's LP objective over colboost's (below 1: ours
reached a lower objective at the same C and cap). Every fit is timed in one process after a
warm-up fit of each method (numba's compilation, Gurobi's start). ``--quick``
runs 80 random points, one split, at LPBoost's largest C of the Table I grid
and a cap of 10.
"""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path
from time import perf_counter
from types import SimpleNamespace

os.environ.setdefault("TQDM_DISABLE", "1")  # colboost's progress bar, read when tqdm starts a bar

import numpy as np
from _common import Record, measure, parser, versions
from sklearn.base import clone
from sklearn.tree import DecisionTreeClassifier

from mkbench.harness.config import load_config
from mkbench.harness.datasets import load
from mkbench.harness.experiment import _preprocess, protocol_splits
from mkbench.harness.methods import make_method
from mkbench.learners import outputs

EXPERIMENT = "cgens-table1"
TABLE1_LP = "LPBoost"  # Table I's LPBoost: the experiment's parameters, its LP route included
DEFAULT_LP = "LPBoost, default LP route"  # the same LP on LPBoostClassifier's default route
CGENS = "CGEns"
PEER = "colboost LPBoost"
OPTIMUM = "LPBoost to the optimum"
METHOD_OF = {TABLE1_LP: "lpboost", DEFAULT_LP: "lpboost", OPTIMUM: "lpboost", CGENS: "cgens"}  # the experiment's
DEFAULT_ROUTE = (DEFAULT_LP, OPTIMUM)  # fitted without the experiment's ``solver``: the estimator's default
LICENCE_LIMIT = 2000  # Gurobi's size-limited pip licence: variables and linear constraints (checked at run time)
WEIGHT_FLOOR = 1e-6
QUICK = {"n": 80, "max_iter": 10}
ROOT = Path(__file__).resolve().parent.parent
CONFIG, SUMMARY = ROOT / "config" / "config.yaml", ROOT / "results" / "summary" / "cgens-table1.csv"


def colboost_modules():
    """colboost's estimator and gurobipy (imported only here: the peer is an optional dependency)."""
    try:
        import gurobipy
        from colboost.ensemble import EnsembleClassifier
    except ImportError as error:
        raise SystemExit(f"colboost is not installed ({error}); pip install -e '.[peers]'") from None
    for name in ("colboost", "gurobipy"):  # INFO lines per fit otherwise (Gurobi also prints its licence banner)
        logging.getLogger(name).setLevel(logging.WARNING)
    return EnsembleClassifier, gurobipy


def make_colboost(C: float, max_iter: int, seed: int | None):
    """colboost's LPBoost at slack weight C, at most ``max_iter`` learners; stumps seeded by ``seed`` (None: its default)."""
    EnsembleClassifier, _ = colboost_modules()
    learner = None if seed is None else DecisionTreeClassifier(max_depth=1, random_state=seed)
    return EnsembleClassifier(solver="lp_boost", base_estimator=learner, max_depth=1, max_iter=max_iter,
                              tradeoff_hyperparam=C, early_stopping=False, check_dual_const=True,
                              gurobi_num_threads=1, seed=0 if seed is None else seed)


def lp_objective(weights: np.ndarray, H: np.ndarray, y: np.ndarray, C: float) -> float:
    """sum_j w_j + C sum_i max(0, 1 - y_i (H w)_i): the LP's objective at weights w >= 0 (H: training outputs)."""
    return float(np.sum(weights) + C * np.sum(np.maximum(0.0, 1.0 - y * (H @ weights))))


def signed(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Labels as -1 / +1 (the second class +1), as colboost requires."""
    return np.where(y == classes[1], 1, -1)


def fit_ours(label: str, exp: dict, C: float, max_iter: int, X, y, X_test, y_test) -> dict:
    """Fit our method ``label`` (:data:`METHOD_OF`) at (C, max_iter): error, learners, objective, seconds."""
    spec = exp["methods"][METHOD_OF[label]]["params"]
    fixed = {key: value for key, value in spec.get("params", {}).items()
             if not (label in DEFAULT_ROUTE and key == "solver")}
    model = make_method(spec["method"], {**fixed, "C": C, "max_iter": max_iter})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning at the cap is the point
        start = perf_counter()
        model.fit(X, y)
        seconds = perf_counter() - start
    run = {"seconds": seconds, "test_error": float(np.mean(model.predict(X_test) != y_test)),
           "n_learners": int(np.sum(np.abs(model.coef_) > WEIGHT_FLOOR)), "n_iter": int(model.n_iter_),
           "status": model.status_}
    if METHOD_OF[label] == "lpboost":
        run["lp_objective"] = lp_objective(model.coef_, outputs(model.learners_, X), signed(y, model.classes_), C)
    return run


def learner_key(tree) -> tuple:
    """A fitted depth-1 tree as (feature, threshold, left value, right value): equal keys, equal learners."""
    t = tree.tree_
    return (int(t.feature[0]), round(float(t.threshold[0]), 12), *np.round(t.value[:, 0, :].ravel(), 12).tolist())


def fit_colboost(C: float, max_iter: int, seed: int | None, X, y, X_test, y_test) -> dict:
    """Fit colboost's LPBoost at (C, max_iter): error, learners, LP objective, seconds, Gurobi's seconds."""
    classes = np.unique(y)
    model = make_colboost(C, max_iter, seed)
    y_signed = signed(y, classes)
    start = perf_counter()
    model.fit(X, y_signed)
    seconds = perf_counter() - start
    weights = np.asarray(model.weights, dtype=float)
    H = np.column_stack([tree.predict(X) for tree in model.learners])
    return {"seconds": seconds, "gurobi_seconds": float(np.sum(model.solve_times_)),
            "test_error": float(np.mean(model.predict(X_test) != signed(y_test, classes))),
            "n_learners": int(np.sum(weights > WEIGHT_FLOOR)), "n_iter": int(model.n_iter_),
            "status": "max_iter" if model.n_iter_ >= max_iter else "its dual test",
            "lp_objective": lp_objective(weights, H, y_signed, C),
            "gurobi_objective": float(model.objective_values_[-1]),
            "learners": [learner_key(tree) for tree in model.learners]}


def colboost_limits() -> dict:
    """What colboost and its licence allow, tried on tiny problems: licence size, refit, clone after fit."""
    EnsembleClassifier, gurobipy = colboost_modules()

    def attempt(fn) -> str:
        try:
            fn()
            return "works"
        except Exception as error:  # noqa: BLE001 - what fails, and how, is the measurement
            return f"fails: {type(error).__name__}: {error}"

    def lp(n_variables: int) -> None:
        with gurobipy.Env(params={"OutputFlag": 0}) as env, gurobipy.Model(env=env) as model:
            x = model.addVars(n_variables, lb=0.0)
            model.addConstr(x.sum() >= 1)
            model.setObjective(x.sum(), gurobipy.GRB.MINIMIZE)
            model.optimize()

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    fitted = make_colboost(1.0, 3, 0).fit(X, y)
    return {f"LP of {LICENCE_LIMIT} variables": attempt(lambda: lp(LICENCE_LIMIT)),
            f"LP of {LICENCE_LIMIT + 1} variables": attempt(lambda: lp(LICENCE_LIMIT + 1)),
            "second fit of a fitted estimator": attempt(lambda: fitted.fit(X, y)),
            "clone after fit": attempt(lambda: clone(make_colboost(1.0, 3, 0).fit(X, y)))}


def fits_licence(n_train: int, max_iter: int) -> bool:
    """Whether colboost's LP (max_iter + n_train variables, n_train constraints) fits the size-limited licence."""
    return n_train + max_iter <= LICENCE_LIMIT and n_train <= LICENCE_LIMIT


def choices(summary_path: str, datasets: list[str], n_splits: int) -> dict:
    """(method, data set, split) -> (C, count, test error) that Table I's CV chose, from the committed summary."""
    import pandas as pd

    summary = pd.read_csv(summary_path)
    summary = summary[summary["experiment"] == EXPERIMENT]
    found = {}
    for method in sorted(set(METHOD_OF.values())):
        for name in datasets:
            for split in range(n_splits):
                row = summary[(summary["method"] == method) & (summary["dataset"] == name) & (summary["split"] == split)]
                if len(row) != 1:
                    raise SystemExit(f"{summary_path}: {len(row)} rows for {method} on {name}, split {split}; "
                                     f"run the {EXPERIMENT} experiment first")
                row = row.iloc[0]
                found[method, name, split] = (float(row["s_C"]), int(row["s_max_iter"]), float(row["test_error"]))
    return found


def tasks(config: dict, args) -> list[tuple[str, object, list, dict]]:
    """(data set, data, splits, settings per (method, split)); 80 random points with ``--quick``."""
    exp = config["experiments"][EXPERIMENT]
    if args.quick:
        rng = np.random.default_rng(0)
        X = rng.normal(size=(QUICK["n"], 3))
        data = SimpleNamespace(name="random", X=X, y=np.where(X[:, 0] + 0.3 * rng.normal(size=QUICK["n"]) > 0, 1, -1))
        cut = int(0.7 * QUICK["n"])
        settings = {(method, 0): (max(exp["methods"][method]["params"]["param_grid"]["C"]), QUICK["max_iter"], None)
                    for method in set(METHOD_OF.values())}
        return [("random", data, [{"train": np.arange(cut), "test": np.arange(cut, QUICK["n"])}], settings)]
    chosen = choices(args.summary, args.datasets, args.splits)
    found = []
    for name in args.datasets:
        if name not in exp["datasets"]:
            raise SystemExit(f"{name!r} is not a data set of {EXPERIMENT}")
        data = load(name, mirror=args.mirror)
        splits = protocol_splits(config, exp["protocol"], data, exp["seeds"][0])[: args.splits]
        settings = {(method, k): chosen[method, name, k] for method in set(METHOD_OF.values())
                    for k in range(len(splits))}
        found.append((name, data, splits, settings))
    return found


def warm_up(exp: dict) -> None:
    """One small fit of each method: numba's compilation and Gurobi's start stay out of the timings."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    for label in METHOD_OF:
        fit_ours(label, exp, 1.0, 3, X, y, X, y)
    fit_colboost(1.0, 3, 0, X, y, X, y)


def mean_of(runs: list[dict]) -> dict:
    """Means of the numeric entries of ``runs``."""
    return {key: float(np.mean([r[key] for r in runs])) for key, value in runs[0].items()
            if isinstance(value, int | float) and not isinstance(value, bool)}


def run_split(exp: dict, settings: dict, k: int, parts: tuple, seed_check: bool) -> tuple[dict, dict | None]:
    """Every fit on one split: ours at Table I's settings, colboost at LPBoost's, ours to the optimum.

    Returns the runs by label and, with ``seed_check``, how an unseeded colboost fit compares.
    """
    C, cap, table1_error = settings["lpboost", k]
    C_cgens, cap_cgens, cgens_error = settings["cgens", k]
    runs = {TABLE1_LP: fit_ours(TABLE1_LP, exp, C, cap, *parts),
            DEFAULT_LP: fit_ours(DEFAULT_LP, exp, C, cap, *parts),
            PEER: fit_colboost(C, cap, 0, *parts),
            CGENS: fit_ours(CGENS, exp, C_cgens, cap_cgens, *parts),
            # no cap that binds: column generation to the LP optimum over all stumps
            OPTIMUM: fit_ours(OPTIMUM, exp, C, np.iinfo(np.int32).max, *parts)}
    for label, expected in ((TABLE1_LP, table1_error), (CGENS, cgens_error)):
        if expected is not None:
            runs[label]["matches_table1"] = bool(np.isclose(runs[label]["test_error"], expected))
    for label, run in runs.items():
        run.update(C=C_cgens if label == CGENS else C, max_iter={CGENS: cap_cgens, OPTIMUM: None}.get(label, cap))
    check = None
    if seed_check:
        unseeded, seeded = fit_colboost(C, cap, None, *parts), runs[PEER]
        check = {f"same {what} unseeded": unseeded[key] == seeded[key] for what, key in
                 (("learners", "learners"), ("LP objective", "lp_objective"), ("test error", "test_error"))}
    runs[PEER]["learners"] = len(runs[PEER]["learners"])  # a count in the record: the keys served the seed check
    return runs, check


def summarise(record: Record, name: str, runs: dict[str, list[dict]]) -> tuple[dict, list[list]]:
    """Means over the splits, the data set's ratios (added to ``record``) and its table rows."""
    means = {label: mean_of(rs) for label, rs in runs.items()}
    n = len(runs[PEER])
    peer, optimum = means[PEER], means[OPTIMUM]
    for label in (TABLE1_LP, DEFAULT_LP, CGENS):
        mine = means[label]
        record.add_ratio(
            f"fit time, {label} / {PEER}, {name}, {n} splits",
            measure(label, mine["seconds"]), measure(PEER, peer["seconds"]), mine["seconds"] / peer["seconds"],
            note=f"test error {mine['test_error']:.3f} vs {peer['test_error']:.3f}; learners "
                 f"{mine['n_learners']:.1f} vs {peer['n_learners']:.1f}"
                 + (f"; {label} at its own C and count" if label == CGENS else "; same C and cap"),
        )
    stopped = sum(r["status"] != "max_iter" for r in runs[PEER])
    above = sum(r["lp_objective"] > o["lp_objective"] * (1 + 1e-6)
                for r, o in zip(runs[PEER], runs[OPTIMUM], strict=True))
    ours = means[TABLE1_LP]
    record.add_ratio(
        f"LP objective sum w + C sum xi, {TABLE1_LP} / {PEER}, {name}, {n} splits",
        measure(TABLE1_LP, ours["lp_objective"], ""), measure(PEER, peer["lp_objective"], ""),
        ours["lp_objective"] / peer["lp_objective"],
        note=f"default LP route {means[DEFAULT_LP]['lp_objective']:.4g}; optimum over all stumps "
             f"{optimum['lp_objective']:.4g}; colboost stopped by its dual test before the cap in {stopped} of {n} "
             f"splits, above the optimum in {above} of {n}",
    )
    rows = [[name, label, v["test_error"], v["n_learners"], v["n_iter"], v["seconds"], v.get("lp_objective", float("nan"))]
            for label, v in means.items()]
    return means, rows


def main() -> None:
    args_parser = parser(__doc__)
    args_parser.add_argument("--mirror", help="data mirror (else $MKBENCH_DATA_MIRROR, then the canonical URL)")
    args_parser.add_argument("--config", default=str(CONFIG), help=f"workflow config with the {EXPERIMENT} experiment")
    args_parser.add_argument("--summary", default=str(SUMMARY), help=f"{EXPERIMENT}'s summary: the C and count CV chose")
    args_parser.add_argument("--splits", type=int, default=5, help="the experiment's first splits per data set")
    args_parser.add_argument("--datasets", nargs="+", help=f"default: every data set of {EXPERIMENT}")
    args_parser.add_argument("--seed-check-splits", type=int, default=1,
                             help="splits per data set on which colboost is also run unseeded (its default trees)")
    args = args_parser.parse_args()
    config = load_config(args.config)
    exp = config["experiments"][EXPERIMENT]
    args.datasets = args.datasets or list(exp["datasets"])
    record = Record("lpboost_peers", 22, "LPBoost / CGEns vs colboost's LPBoost: same stumps, LP, C, cap and splits",
                    args)
    if args.quick:
        record.notes.append(f"--quick: {QUICK['n']} random points, one split, cap {QUICK['max_iter']}; measures nothing")
    record.notes.append(f"peer: {versions(['colboost', 'gurobipy'])}")
    limits = colboost_limits()
    record.timings["colboost_limits"] = limits
    print("colboost:", limits, flush=True)
    warm_up(exp)
    results, rows, left_out, checks, by_dataset = {}, [], [], {}, {}
    for name, data, splits, settings in tasks(config, args):
        runs: dict[str, list[dict]] = {label: [] for label in (TABLE1_LP, DEFAULT_LP, PEER, CGENS, OPTIMUM)}
        for k, split in enumerate(splits):
            n_train, cap = len(split["train"]), settings["lpboost", k][1]
            if not fits_licence(n_train, cap):
                left_out.append({"dataset": name, "split": k, "n_train": n_train, "max_iter": cap})
                print(f"{name} split {k}: left out, {n_train} + {cap} > {LICENCE_LIMIT}", flush=True)
                continue
            X = _preprocess(data.X, split["train"], exp["preprocess"])
            parts = X[split["train"]], data.y[split["train"]], X[split["test"]], data.y[split["test"]]
            split_runs, check = run_split(exp, settings, k, parts, k < args.seed_check_splits)
            if check is not None:
                checks[f"{name} split {k}"] = check
            for label, run in split_runs.items():
                runs[label].append(run)
                print(f"{name} split {k} {label}: {run}", flush=True)
        if runs[PEER]:
            by_dataset[name] = runs
            results[name], table_rows = summarise(record, name, runs)
            rows += table_rows
    record.add_table(
        "LPBoost and CGEns vs colboost's LPBoost on the CGEns Table I data sets (means over the splits)",
        ["data set", "method", "test error", f"learners (weight > {WEIGHT_FLOOR:g})", "iterations", "fit s",
         "LP objective"], rows,
        note=f"'{TABLE1_LP}': Table I's model ({EXPERIMENT}'s parameters, C and count chosen by its CV on the split); "
             f"'{DEFAULT_LP}' and '{PEER}': the same C and cap; '{OPTIMUM}': the default route at that C without a "
             f"cap; '{CGENS}': Table I's model at its own C and count. LP objective: sum w + C sum xi on the training "
             "points (CGEns solves another problem).",
    )
    record.timings.update(runs=by_dataset, results=results, left_out=left_out, seed_check=checks)
    if left_out:
        record.notes.append(f"left out by Gurobi's size-limited licence (n_train + count > {LICENCE_LIMIT}): {left_out}")
    mismatched = [f"{name} {label} split {k}" for name, by_label in by_dataset.items() for label in (TABLE1_LP, CGENS)
                  for k, run in enumerate(by_label[label]) if run.get("matches_table1") is False]
    if not args.quick:
        record.notes.append("our refits' test errors equal the committed Table I summary's on every split" if not mismatched
                            else f"our refits' test errors differ from the committed Table I summary's: {mismatched}")
        changed = [where for where, check in checks.items() if not check["same learners unseeded"]]
        record.notes.append(f"colboost unseeded (its default trees) chose other learners than seeded on {len(changed)} of "
                            f"{len(checks)} checked splits{': ' + ', '.join(changed) if changed else ''}")
    record.write()
    for name, by_label in results.items():
        for label, values in by_label.items():
            print(f"{name} {label}: " + ", ".join(f"{k} {v:.4g}" for k, v in values.items()))


if __name__ == "__main__":
    main()
