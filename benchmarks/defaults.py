"""Defaults benchmark (issue 42): every public estimator at its defaults against the scikit-learn estimator a user tries first.

Run: ``python benchmarks/defaults.py [--draws 3] [--time-limit 60] [--only NAME ...] [--json PATH] [--quick]``.

The panel is scikit-learn's bundled and generated data sets, raw features (no
scaling by us: a user's first call): breast cancer, digits (10 classes), wine
(3 classes), ``make_classification(2000, 50)``; diabetes and Friedman #1 (2000
rows) for the regressors. Each of ``--draws`` random 70/30 splits (stratified
for classes; the draw is the seed) is fitted by every estimator at its defaults
and by its peer on the same split: ``SVC()`` / ``SVR()`` for the kernel methods,
``HistGradientBoostingClassifier()`` for the learner ensembles. The learner
ensembles are also set beside boosted stumps, their own model class
(``HistGradientBoostingClassifier(max_depth=1, max_iter=1000)``): shown, not judged. Every fit runs in
a child process, killed after ``--time-limit`` seconds (status "timeout"), so a
hang cannot stop the run; warnings the fit issues are recorded by category.

Goals (issue 42): no error, at most 30 s per fit, accuracy at least the peer's
minus 1 point (regression: test MSE at most 1.1x the peer's), no warning.
A method that cannot by its nature take a data set (a binary-only method on 10
classes) must say so at once and name the alternative: such a refusal is marked
"n/a" and left out of the count of pairs meeting the goals.
"""

from __future__ import annotations

import multiprocessing as mp
import time
import traceback
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from _common import Record, parser
from sklearn.datasets import load_breast_cancer, load_diabetes, load_digits, load_wine, make_classification
from sklearn.datasets import make_friedman1
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import accuracy_score, mean_squared_error
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC, SVR

import mkbench


@dataclass(frozen=True)
class Panel:
    """One data set of the panel: how to load it and its task."""

    name: str
    task: str  # "binary", "multiclass" or "regression"

    def load(self) -> tuple[np.ndarray, np.ndarray]:
        """X and y, raw."""
        loaders = {
            "breast-cancer": lambda: load_breast_cancer(return_X_y=True),
            "digits": lambda: load_digits(return_X_y=True),
            "wine": lambda: load_wine(return_X_y=True),
            "classification-2000x50": lambda: make_classification(2000, 50, random_state=0),
            "diabetes": lambda: load_diabetes(return_X_y=True),
            "friedman1-2000": lambda: make_friedman1(2000, random_state=0),
        }
        return loaders[self.name]()


PANEL = (
    Panel("breast-cancer", "binary"),
    Panel("digits", "multiclass"),
    Panel("wine", "multiclass"),
    Panel("classification-2000x50", "binary"),
    Panel("diabetes", "regression"),
    Panel("friedman1-2000", "regression"),
)

#: Each public estimator and its peer: the scikit-learn estimator a user would try first for that kind of model.
KERNEL_PEER, ENSEMBLE_PEER = "SVC()", "HistGradientBoostingClassifier()"
ESTIMATORS = {
    "CGBoostClassifier": KERNEL_PEER,
    "ColumnGenerationClassifier": KERNEL_PEER,
    "SSMKClassifier": KERNEL_PEER,
    "SILPClassifier": KERNEL_PEER,
    "SimpleMKLClassifier": KERNEL_PEER,
    "SelectedSVC": KERNEL_PEER,
    "InfiniteEnsembleSVC": KERNEL_PEER,
    "RFFClassifier": KERNEL_PEER,
    "StagedSearchCV": KERNEL_PEER,
    "CGEnsClassifier": ENSEMBLE_PEER,
    "CGEnsSLSClassifier": ENSEMBLE_PEER,
    "LPBoostClassifier": ENSEMBLE_PEER,
    "AdaBoostMHClassifier": ENSEMBLE_PEER,
    "AdaBoostECCClassifier": ENSEMBLE_PEER,
    "LearnerAdaBoostClassifier": ENSEMBLE_PEER,
    "CGBoostRegressor": "SVR()",
    "MARKRegressor": "SVR()",
    "KernelColumnRidge": "SVR()",
    "SelectedKernelColumnRidge": "SVR()",
    "SelectedKernelRidge": "SVR()",
    "SelectedSVR": "SVR()",
}
#: The learner ensembles' second peer, of their own model class: boosted stumps (an additive model of single-feature
#: splits), 1000 per class, where the first peer grows trees of up to 31 leaves. Shown beside the goal, not in it.
STUMP_PEER = "HistGradientBoostingClassifier(max_depth=1, max_iter=1000)"
PEERS = {
    "SVC()": SVC,
    "SVR()": SVR,
    ENSEMBLE_PEER: HistGradientBoostingClassifier,
    STUMP_PEER: partial(HistGradientBoostingClassifier, max_depth=1, max_iter=1000),
}


def make(name: str) -> Any:
    """The estimator ``name`` at its defaults: an mkbench class or a peer."""
    return PEERS[name]() if name in PEERS else getattr(mkbench, name)()


def is_regressor(name: str) -> bool:
    """Whether ``name`` is fitted on the regression sets (else on the classification sets)."""
    return ESTIMATORS.get(name) == "SVR()" or name == "SVR()"


def _fit_child(name: str, data: tuple[np.ndarray, ...], task: str, seed: int, queue: mp.Queue) -> None:
    X_train, X_test, y_train, y_test = data
    np.random.seed(seed)  # random_state=None draws from numpy's global generator: the same draws in every run
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = make(name)  # the estimator's module imported outside the timing, as the peers' are
        start = time.perf_counter()
        try:
            model = model.fit(X_train, y_train)
        except Exception as exc:  # the benchmark reports every failure, whatever its kind
            queue.put(
                {
                    "status": "error",
                    "seconds": time.perf_counter() - start,
                    "message": f"{type(exc).__name__}: {exc}"[:300],
                    "trace": traceback.format_exc()[-600:],
                }
            )
            return
        seconds = time.perf_counter() - start
        predicted = model.predict(X_test)
    score = mean_squared_error(y_test, predicted) if task == "regression" else accuracy_score(y_test, predicted)
    categories = sorted({f"{w.category.__name__}: {str(w.message)[:120]}" for w in caught})
    queue.put(
        {
            "status": getattr(model, "status_", "fitted"),
            "seconds": seconds,
            "score": float(score),
            "warnings": categories,
        }
    )


def fit_once(name: str, data: tuple[np.ndarray, ...], task: str, time_limit: float, seed: int) -> dict[str, Any]:
    """Fit ``name`` at its defaults on one split in a child process; its outcome, or "timeout".

    The child seeds numpy's global generator with ``seed`` (the draw), which an estimator at
    ``random_state=None`` draws from (AdaBoost.ECC's colourings): the record is the same in every run.
    """
    queue: mp.Queue = mp.get_context("fork").Queue()
    child = mp.get_context("fork").Process(target=_fit_child, args=(name, data, task, seed, queue))
    start = time.perf_counter()
    child.start()
    child.join(time_limit)
    if child.is_alive():
        child.kill()
        child.join()
        return {"status": "timeout", "seconds": time.perf_counter() - start}
    return queue.get() if not queue.empty() else {"status": "crashed", "seconds": time.perf_counter() - start}


def split(panel: Panel, draw: int, quick: bool) -> tuple[np.ndarray, ...]:
    """A 70/30 split of the panel's data set, drawn with seed ``draw`` (stratified for classes)."""
    X, y = panel.load()
    if quick:
        rows = np.random.default_rng(draw).permutation(X.shape[0])[:120]
        X, y = X[rows], y[rows]
    stratify = None if panel.task == "regression" else y
    return tuple(train_test_split(X, y, test_size=0.3, random_state=draw, stratify=stratify))


def summarise(outcomes: list[dict[str, Any]], task: str) -> dict[str, Any]:
    """Over the draws: the worst status, median seconds, mean score and its standard error, the warnings."""
    fitted = [o for o in outcomes if "score" in o]
    scores = np.array([o["score"] for o in fitted])
    failed = [o for o in outcomes if "score" not in o]
    return {
        "status": failed[0]["status"] if failed else ",".join(sorted({str(o["status"]) for o in outcomes})),
        "message": failed[0].get("message", "") if failed else "",
        "seconds_median": float(np.median([o["seconds"] for o in outcomes])),
        "seconds_max": float(max(o["seconds"] for o in outcomes)),
        "score": float(scores.mean()) if fitted and not failed else float("nan"),
        "score_se": float(scores.std(ddof=1) / np.sqrt(scores.size)) if scores.size > 1 else 0.0,
        "warnings": sorted({w for o in fitted for w in o.get("warnings", [])}),
        "task": task,
    }


#: What a binary-only method says at once on more classes (it must also name the alternative).
REFUSAL = "Only binary classification is supported"
#: The longest a refusal may take, seconds: "at once", before any fit.
REFUSAL_SECONDS = 2.0


def refused(ours: dict[str, Any]) -> bool:
    """Whether a fit ended in a binary-only method's refusal of more classes, at once and naming an alternative."""
    message = ours.get("message", "")
    alternative = "use " in message or "OneVsRestClassifier" in message
    return REFUSAL in message and alternative and ours["seconds_max"] <= REFUSAL_SECONDS


def verdict(ours: dict[str, Any], peer: dict[str, Any], time_limit: float) -> tuple[str, bool | None]:
    """The goal's comparison (accuracy >= peer - 0.01; MSE <= 1.1 x peer) as text, and whether every goal is met.

    None for a binary-only method that refuses more classes at once, naming the alternative (the issue's
    exception: a method that cannot by its nature says so at once).
    """
    if refused(ours):
        return "refused: binary only", None
    if not np.isfinite(ours["score"]):
        return ours["status"], False
    if ours["task"] == "regression":
        value, met = ours["score"] / peer["score"], ours["score"] <= 1.1 * peer["score"]
        text = f"MSE {value:.2f}x"
    else:
        value, met = ours["score"] - peer["score"], ours["score"] >= peer["score"] - 0.01
        text = f"{100 * value:+.1f} pt"
    met = met and ours["seconds_max"] <= min(30.0, time_limit) and not ours["warnings"]
    return text, met


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--draws", type=int, default=3, help="random 70/30 splits of each data set (seeds 0..draws-1)")
    cli.add_argument("--time-limit", type=float, default=60.0, help="seconds before a fit is killed")
    cli.add_argument("--only", nargs="*", default=None, help="estimators to run (default: every public one)")
    cli.add_argument("--datasets", nargs="*", default=None, help="panel data sets to run (default: all)")
    args = cli.parse_args()
    record = Record(
        "defaults",
        42,
        "Every estimator at its defaults on scikit-learn's data sets, against the "
        "scikit-learn estimator a user tries first",
        args,
    )
    names = args.only or list(ESTIMATORS)
    if args.quick:  # checks the script: one draw of 120 rows, one data set per task, a few estimators
        args.draws, names = 1, args.only or ["CGBoostClassifier", "CGEnsClassifier", "CGBoostRegressor"]
        args.datasets = args.datasets or ["breast-cancer", "diabetes"]
    panels = [p for p in PANEL if args.datasets is None or p.name in args.datasets]
    rows = []
    missed: list[float] = []  # learner ensembles missing a goal: their accuracy - the stump peer's
    for panel in panels:
        regression = panel.task == "regression"
        for name in [n for n in names if is_regressor(n) == regression]:
            peer_name = ESTIMATORS[name]
            control = [STUMP_PEER] if peer_name == ENSEMBLE_PEER else []
            results = {}
            for who in (name, peer_name, *control):
                key = (who, panel.name)
                if key not in record.timings:
                    outcomes = [
                        fit_once(who, split(panel, draw, args.quick), panel.task, args.time_limit, seed=draw)
                        for draw in range(args.draws)
                    ]
                    record.timings[key] = summarise(outcomes, panel.task)
                    print(who, panel.name, record.timings[key], flush=True)
                results[who] = record.timings[key]
            ours, peer = results[name], results[peer_name]
            text, met = verdict(ours, peer, args.time_limit)
            stumps = results[STUMP_PEER] if control and np.isfinite(ours["score"]) else None
            if stumps and met is False:
                missed.append(ours["score"] - stumps["score"])
            unit = "MSE" if regression else "accuracy"
            rows.append(
                [
                    name,
                    panel.name,
                    ours["status"],
                    f"{ours['seconds_median']:.2f}",
                    f"{ours['score']:.4g} ± {ours['score_se']:.2g}" if np.isfinite(ours["score"]) else "-",
                    peer_name,
                    f"{peer['seconds_median']:.2f}",
                    f"{peer['score']:.4g} ± {peer['score_se']:.2g}",
                    f"{unit}: {text}",
                    f"{stumps['score']:.4g} ± {stumps['score_se']:.2g}" if stumps else "-",
                    f"{100 * (ours['score'] - stumps['score']):+.1f} pt" if stumps else "-",
                    "; ".join(ours["warnings"])[:160] or ours["message"][:160],
                    {True: "yes", False: "no", None: "n/a"}[met],
                ]
            )
    record.timings = {f"{who} | {data}": value for (who, data), value in record.timings.items()}
    record.add_table(
        "Every estimator at its defaults (median fit seconds and mean test score over the draws, ± its standard error)",
        [
            "estimator",
            "data set",
            "status",
            "fit s",
            "score",
            "peer",
            "peer fit s",
            "peer score",
            "against peer",
            "stump peer score",
            "against stump peer",
            "warnings / error",
            "goals met",
        ],
        rows,
        note=f"{args.draws} random 70/30 splits per data set, raw features; a fit is killed after {args.time_limit:g} s. "
        "Goals: no error or warning, <= 30 s per fit, accuracy >= peer - 1 point, MSE <= 1.1x the peer's. "
        f"The stump peer ({STUMP_PEER}) is the learner ensembles' model class, boosted stumps; shown, not judged.",
    )
    n_met, n_judged = sum(row[-1] == "yes" for row in rows), sum(row[-1] != "n/a" for row in rows)
    record.add_ratio(
        "estimator x data set pairs meeting every goal (binary-only refusals of more classes aside)",
        {"label": "met", "value": n_met, "unit": ""},
        {"label": "pairs", "value": n_judged, "unit": ""},
        n_met / max(n_judged, 1),
        ">= 1",
        note=f"{len(rows) - n_judged} refusals, each at once, naming the alternative",
    )
    if missed:  # the learner ensembles' misses, against boosted stumps: the model class or the method
        level = [gap for gap in missed if gap >= -0.01]
        record.add_ratio(
            "learner ensembles' pairs missing the goal that are within 1 point of boosted stumps (the same model class)",
            {"label": "within 1 point", "value": len(level), "unit": ""},
            {"label": "missed pairs", "value": len(missed), "unit": ""},
            len(level) / len(missed),
            None,
            note=f"stump peer {STUMP_PEER}, same splits; shown, not a goal",
        )
    record.write()
    print(f"{n_met} of {n_judged} pairs meet every goal; {len(rows) - n_judged} binary-only refusals")


if __name__ == "__main__":
    main()
