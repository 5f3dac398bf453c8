"""SILP and SimpleMKL against MKLpy's EasyMKL, GRAM and AverageMKL, same kernels and splits (issue 22).

Run: ``python benchmarks/mkl_peers.py [--mirror DIR] [--config config/config.yaml] [--splits 5]
[--datasets ionosphere sonar credit] [--peers EasyMKL AverageMKL] [--json PATH] [--quick]``.
Needs the optional peers ``pip install -e '.[peers]'`` (MKLpy, and PyTorch's CPU build).

Every method sees what the config's ``mkl-uci`` (Ionosphere, Sonar) and
``mkl-credit`` (Credit) experiments give ours, read from the config, never
restated here: the experiment's first ``--splits`` splits (its protocol and
seed: random 70/30 splits), its preprocessing (standardised on the training
part), and the kernel library of its ``silp`` method resolved on the training
inputs (:func:`mkbench.kernels.grid.resolve_kernels`): the SimpleMKL grid (442
kernels on Ionosphere, 793 on Sonar) and on Credit the same grid over the 15
variables, each categorical one's one-hot columns taken together (the config's
``credit-grid``: 208 kernels), each kernel scaled to unit trace on the training
points. Ours are the experiment's ``silp`` and ``simplemkl`` methods with their
parameters (C, relative gap), fitted from X; MKLpy's fit on the precomputed
training kernels (a list of n x n arrays) and predict from the test-by-training
kernels, with scikit-learn's SVC at the same C as the learner on the combined
kernel. Their time includes computing the kernel lists, which ours do inside
``fit``. EasyMKL keeps its default lambda = 0.1, GRAM its default iterations.
GRAM is not in the default ``--peers``: at its defaults it took minutes on one
Ionosphere split, where EasyMKL and ours take seconds, and kept 2 kernels at a far
higher test error (a one-split probe of session 21, before the splits were read
from the config; run ``--peers GRAM`` to measure it).

Recorded per method and data set: test error, kernels with a weight above 1e-6
and fit seconds (means over the splits, one side-by-side table); ratios: each
of our methods' fit time over each peer's (no goal: the issue asks for the
side-by-side, not a target). ``--quick`` runs the ``mkl-uci`` settings on 60
random points (one split) to check the script.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from time import perf_counter
from types import SimpleNamespace

import numpy as np
from _common import Record, measure, parser, versions
from sklearn.svm import SVC

from mkbench.harness.config import load_config
from mkbench.harness.datasets import load
from mkbench.harness.experiment import _preprocess, protocol_splits
from mkbench.harness.methods import make_method
from mkbench.kernels.grid import resolve_kernels, unit_trace_stack

EXPERIMENTS = ("mkl-uci", "mkl-credit")
OURS = {"SILP": "silp", "SimpleMKL": "simplemkl"}  # label -> the experiments' method
WEIGHT_FLOOR = 1e-6
CONFIG = Path(__file__).resolve().parent.parent / "config" / "config.yaml"


def peers(names: list[str], C: float) -> dict:
    """MKLpy's estimators ``names`` with SVC(C) as learner (imported only here: the peer is optional)."""
    try:
        from MKLpy.algorithms import GRAM, AverageMKL, EasyMKL
    except ImportError as error:
        raise SystemExit(f"MKLpy is not installed ({error}); pip install -e '.[peers]'") from None
    known = {
        "EasyMKL": lambda: EasyMKL(learner=SVC(C=C)),
        "GRAM": lambda: GRAM(learner=SVC(C=C)),
        "AverageMKL": lambda: AverageMKL(learner=SVC(C=C)),
    }
    return {name: known[name] for name in names}


def shared_settings(exp: dict) -> tuple[object, float]:
    """The kernel library spec and C that the experiment's SILP and SimpleMKL share (the peers get the same).

    Raises
    ------
    SystemExit
        If the two methods of ``exp`` differ in kernels or C: the peers could not match both.
    """
    params = [exp["methods"][method]["params"] for method in OURS.values()]
    kernels, C = params[0]["kernels"], float(params[0]["C"])
    if any(p["kernels"] != kernels or float(p["C"]) != C for p in params):
        raise SystemExit(f"the experiment's {' and '.join(OURS.values())} differ in kernels or C: no common setting")
    return kernels, C


def kernel_lists(spec, X_train: np.ndarray, X_test: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The unit-trace library ``spec``: training kernels (n x n) and test-by-training kernels, as MKLpy takes them."""
    kernels = resolve_kernels(spec, X_train)
    stack, scales = unit_trace_stack(kernels, X_train)
    return list(stack), [k(X_test, X_train) * s for k, s in zip(kernels, scales, strict=True)]


def run_ours(exp: dict, label: str, X_train, y_train, X_test, y_test) -> dict:
    """Fit the experiment's method ``label`` (SILP or SimpleMKL) with its configured parameters."""
    spec = exp["methods"][OURS[label]]
    model = make_method(spec["estimator"], spec["params"])
    start = perf_counter()
    model.fit(X_train, y_train)
    seconds = perf_counter() - start
    return {"seconds": seconds, "test_error": float(np.mean(model.predict(X_test) != y_test)),
            "n_kernels": int(np.sum(model.weights_ > WEIGHT_FLOOR))}


def run_peer(make, spec, X_train, y_train, X_test, y_test) -> dict:
    """Fit MKLpy's estimator on the kernel lists of ``spec``; the time includes computing the lists."""
    start = perf_counter()
    KL_train, KL_test = kernel_lists(spec, X_train, X_test)
    model = make().fit(KL_train, y_train)
    seconds = perf_counter() - start
    weights = np.asarray(model.solution.weights, dtype=float)
    return {"seconds": seconds, "test_error": float(np.mean(model.predict(KL_test) != y_test)),
            "n_kernels": int(np.sum(weights > WEIGHT_FLOOR))}


def tasks(config: dict, args) -> list[tuple[str, dict, object, list]]:
    """(data set, experiment, data, splits) for each data set to run; 60 random points with ``--quick``."""
    if args.quick:
        rng = np.random.default_rng(0)
        X = rng.normal(size=(60, 3))
        data = SimpleNamespace(name="random", X=X, y=np.where(X[:, 0] + 0.3 * rng.normal(size=60) > 0, 1, -1),
                               metadata={})
        exp = config["experiments"][EXPERIMENTS[0]]
        return [("random", exp, data, protocol_splits(config, exp["protocol"], data, exp["seeds"][0])[:1])]
    found = []
    for name in args.datasets:
        owner = [e for e in EXPERIMENTS if name in config["experiments"][e]["datasets"]]
        if not owner:
            raise SystemExit(f"{name!r} is in none of the experiments {', '.join(EXPERIMENTS)}")
        exp = config["experiments"][owner[0]]
        data = load(name, mirror=args.mirror)
        found.append((name, exp, data, protocol_splits(config, exp["protocol"], data, exp["seeds"][0])[: args.splits]))
    return found


def main() -> None:
    args_parser = parser(__doc__)
    args_parser.add_argument("--mirror", help="data mirror (else $MKBENCH_DATA_MIRROR, then the canonical URL)")
    args_parser.add_argument("--config", default=str(CONFIG), help="workflow config with the mkl-uci and mkl-credit experiments")
    args_parser.add_argument("--splits", type=int, default=5, help="the experiment's first splits per data set")
    args_parser.add_argument("--datasets", nargs="+", default=["ionosphere", "sonar", "credit"])
    args_parser.add_argument("--peers", nargs="+", default=["EasyMKL", "AverageMKL"],
                             choices=["EasyMKL", "GRAM", "AverageMKL"], help="MKLpy's estimators to run")
    args = args_parser.parse_args()
    record = Record("mkl_peers", 22, "SILP / SimpleMKL vs MKLpy's EasyMKL, GRAM, AverageMKL: same kernels, same splits",
                    args)
    config = load_config(args.config)
    record.notes.append(f"peer: {versions(['MKLpy', 'torch'])}")
    if args.quick:
        record.notes.append(f"--quick: 60 random points, one split, the {EXPERIMENTS[0]} settings; measures nothing")
    results, rows = {}, []
    for name, exp, data, splits in tasks(config, args):
        spec, C = shared_settings(exp)
        methods = {label: None for label in OURS} | peers(args.peers, C)
        runs = {method: [] for method in methods}
        for k, split in enumerate(splits):
            X = _preprocess(data.X, split["train"], exp["preprocess"])
            parts = X[split["train"]], data.y[split["train"]], X[split["test"]], data.y[split["test"]]
            for method, make in methods.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    run = run_ours(exp, method, *parts) if make is None else run_peer(make, spec, *parts)
                runs[method].append(run)
                print(f"{name} split {k} {method}: {run}", flush=True)
        results[name] = {method: {key: float(np.mean([r[key] for r in rs])) for key in rs[0]} for method, rs in runs.items()}
        rows += [[name, method, v["test_error"], v["n_kernels"], v["seconds"]] for method, v in results[name].items()]
        for ours in OURS:
            for peer in methods:
                if peer in OURS:
                    continue
                mine, theirs = results[name][ours], results[name][peer]
                record.add_ratio(
                    f"fit time, {ours} / {peer}, {name}, {len(splits)} splits",
                    measure(ours, mine["seconds"]), measure(peer, theirs["seconds"]), mine["seconds"] / theirs["seconds"],
                    note=f"test error {mine['test_error']:.3f} vs {theirs['test_error']:.3f}; kernels "
                         f"{mine['n_kernels']:.1f} vs {theirs['n_kernels']:.1f}",
                )
    record.add_table("MKL methods on the same kernels and splits (means over the splits)",
                     ["data set", "method", "test error", f"kernels (weight > {WEIGHT_FLOOR:g})", "fit s"], rows,
                     note="Splits, preprocessing, kernel library and C of the config's mkl-uci / mkl-credit "
                          "experiments; MKLpy's time includes computing the kernel lists.")
    record.timings["results"] = results
    record.write()
    for name, by_method in results.items():
        for method, values in by_method.items():
            print(f"{name} {method}: " + ", ".join(f"{k} {v:.3g}" for k, v in values.items()))


if __name__ == "__main__":
    main()
