"""Run one workflow job: fit one method on one split of one data set, return one record.

A record is a flat JSON object in long format (DESIGN.md, benchopt style):
identifiers (experiment, method, dataset, protocol, seed, split), parameters as
``p_*`` fields, metrics, timings, model size, solver status, the per-iteration
history when the estimator keeps one, and package versions. :mod:`mkbench.harness.report`
reads records only.
"""

from __future__ import annotations

import platform
import time
import warnings
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import Normalizer, StandardScaler

from ..exceptions import ConfigError, SolverError
from .methods import make_method
from .tracing import part_scores, set_trace, staged_history

PREPROCESSORS = ("standardize", "center-normalize", "none", "raw-pixels")
_PACKAGES = ("mkbench", "numpy", "scipy", "scikit-learn", "highspy", "osqp", "pandas")


def run_job(
    dataset,
    split: dict[str, np.ndarray],
    *,
    method: str,
    estimator: str,
    params: dict[str, Any] | None = None,
    ids: dict[str, Any] | None = None,
    preprocess: str = "standardize",
    trace: tuple[str, ...] = (),
    fit_unlabeled: bool = False,
    count_features: bool = False,
) -> dict[str, Any]:
    """Fit ``estimator`` on ``split["train"]`` of ``dataset`` and evaluate every part.

    Parameters
    ----------
    dataset : mkbench.harness.datasets.Dataset
        The prepared data set.
    split : dict of str to ndarray
        Index arrays; ``"train"`` is required, every other part (``"test"``,
        ``"validation"``, ``"unlabeled"``) is evaluated too.
    method : str
        The label of the method in the experiment (e.g. ``"svr"`` or ``"mark-l-c10"``).
    estimator : str
        The registry name of the estimator (:data:`mkbench.harness.methods.METHODS`).
    params : dict, optional
        Estimator parameters; recorded as ``p_<name>`` fields.
    ids : dict, optional
        Job identifiers copied into the record (experiment, protocol, seed, split...).
    preprocess : {"standardize", "center-normalize", "none", "raw-pixels"}
        ``"standardize"`` scales the inputs to zero mean and unit variance with
        statistics of the training part only; ``"center-normalize"`` subtracts the
        training part's mean, then scales each row to unit Euclidean norm; ``"raw-pixels"``
        gives an image data set stored as pixels / 255 (MNIST, USPS) back its 0-255 grey
        levels (X * 255, rounded). Targets are left in their units, so
        MSE is reported in the units of the papers' tables.
    trace : sequence of str, default=()
        Parts (e.g. ``("validation",)``) whose metric is recorded at every
        iteration of an estimator that takes a ``callback(estimator)``, as
        ``<part>_error`` or ``<part>_mse`` / ``<part>_q2`` fields of its history
        (learning curves: cgboost Fig. 1 bottom, MARK Figs. 1-3). Each iteration
        predicts these parts afresh, so tracing costs time: trace only the jobs
        a figure needs. An estimator without a callback but with
        ``staged_predict`` (CGEns, AdaBoost) is scored after the fit, after each
        of its 1, 2, ... iterations, in history rows keyed by ``n_columns``
        (CGEns Fig. 1).
    fit_unlabeled : bool, default=False
        Pass the split's ``"unlabeled"`` part to ``fit`` as ``X_unlabeled``
        (semi-supervised methods: SSMK). Either way that part is evaluated.
    count_features : bool, default=False
        Record ``feature_count_<j>`` (j = 1..n_features): how many of the fitted
        ensemble's stumps split on feature j (:func:`mkbench.estimators.feature_counts.feature_counts`;
        CGEns Fig. 5).

    Returns
    -------
    dict
        The record. A fit that raises :class:`~mkbench.exceptions.SolverError`
        gives a record with ``status`` ``"failed: ..."`` and NaN metrics, so the
        failure reaches the report instead of vanishing.
    """
    if preprocess not in PREPROCESSORS:
        raise ConfigError(f"unknown preprocess {preprocess!r}; choose one of {PREPROCESSORS}")
    params = dict(params or {})
    model = make_method(estimator, params)
    parts = {name: np.asarray(idx, dtype=np.int64) for name, idx in split.items()}
    X = _preprocess(dataset.X, parts["train"], preprocess)
    y = dataset.y
    staged_trace = bool(trace) and not set_trace(model, estimator, trace, parts, X, y, dataset.task)
    fit_params = {}
    if fit_unlabeled:
        if "unlabeled" not in parts:
            raise ConfigError(f"fit_unlabeled needs an 'unlabeled' part; the split has {sorted(parts)}")
        fit_params["X_unlabeled"] = X[parts["unlabeled"]]

    record: dict[str, Any] = {
        **(ids or {}),
        "method": method,
        "estimator": estimator,
        "dataset": dataset.name,
        "task": dataset.task,
        "variant": dataset.metadata.get("variant", ""),
        **{f"p_{key}": value for key, value in sorted(params.items())},
        **{f"n_{name}": int(idx.size) for name, idx in parts.items()},
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        elapsed = _stopwatch("fit")
        try:
            model.fit(X[parts["train"]], y[parts["train"]], **fit_params)
        except SolverError as exc:
            record.update(status=f"failed: {exc}", **elapsed())
            return _finish(record, parts, dataset.task)
        record.update(elapsed())
    unconverged = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    # the model's own account of why it stopped (column generation, MKL), else the warnings' (sklearn's solvers)
    status = getattr(model, "status_", None)
    if not isinstance(status, str):
        status = f"not converged: {unconverged[0]}" if unconverged else "optimal"
    record["status"] = status

    elapsed = _stopwatch("predict")
    predictions = {name: model.predict(X[idx]) for name, idx in parts.items() if idx.size}
    record.update(elapsed())
    record.update(part_scores(y, parts, predictions, dataset.task))
    record.update(_model_size(model))
    if staged_trace:
        traced = {name: parts[name] for name in trace}
        record["history"] = staged_history(model, record.get("history"), traced, X, y, dataset.task)
    if count_features:
        record.update(_feature_counts(model, estimator))
    return _finish(record, parts, dataset.task)


def _preprocess(X: np.ndarray, train: np.ndarray, preprocess: str) -> np.ndarray:
    """Standardise ``X``, or centre it and scale its rows to unit norm, with the training part's statistics."""
    if preprocess == "none":
        return X
    if preprocess == "raw-pixels":
        return np.rint(X * 255.0)
    if preprocess == "center-normalize":
        centred = StandardScaler(with_std=False).fit(X[train]).transform(X)
        return Normalizer().transform(centred)
    return StandardScaler().fit(X[train]).transform(X)


def _feature_counts(model, estimator: str) -> dict[str, int]:
    """``feature_count_<j>`` fields, j = 1..n_features (the papers number features from 1)."""
    from ..estimators.feature_counts import feature_counts

    counts = feature_counts(model)
    if counts is None:
        raise ConfigError(f"method {estimator!r} is not an ensemble of stumps; count_features needs one")
    return {f"feature_count_{j}": int(count) for j, count in enumerate(counts, start=1)}


def _model_size(model) -> dict[str, Any]:
    """Model size fields the estimator exposes: support vectors, columns, storage, history."""
    out: dict[str, Any] = {}
    sizes = (
        ("n_support_", "n_support"),
        ("storage_", "storage"),
        ("n_iter_", "n_iter"),  # columns that entered the master
        ("n_lps_", "n_lps"),  # SSMK: restricted LPs solved (the paper's iterations)
        ("n_kernels_selected_", "n_kernels"),  # MKL: kernels with beta > 0
    )
    for attr, key in sizes:
        value = getattr(model, attr, None)
        if value is not None:
            out[key] = int(np.sum(value))
    for kernel, count in getattr(model, "n_columns_by_kernel_", {}).items():
        out[f"columns_{kernel}"] = count  # C_l, C_q, C_r of cgboost Table 1
    if hasattr(model, "status_"):
        out["cg_status"] = model.status_
    if hasattr(model, "best_params_"):
        out["selected"] = {k: _plain(v) for k, v in model.best_params_.items()}
    for attr in ("cv_results_", "svc_cv_results_"):  # StagedSearchCV: the mean CV error of every setting
        results = getattr(model, attr, None)
        if results is not None:
            out[attr[:-1]] = [
                {**{k: _plain(v) for k, v in params.items()}, "error": float(error)}
                for params, error in zip(results["params"], results["mean_test_error"], strict=True)
            ]
    if hasattr(model, "search_bounds_"):  # the range a continuous search could choose in
        out["search_bounds"] = {k: [_plain(lo), _plain(hi)] for k, (lo, hi) in model.search_bounds_.items()}
    if hasattr(model, "history_"):
        out["history"] = model.history_
    return out


def _stopwatch(part: str) -> Callable[[], dict[str, float]]:
    """Start timing ``part``; the returned call gives ``{part}_seconds`` (wall time) and ``{part}_cpu_seconds``.

    The CPU time of the process is what ``mkbench cost`` prices: wall time grows with the load.
    """
    start, cpu = time.perf_counter(), time.process_time()
    return lambda: {f"{part}_seconds": time.perf_counter() - start, f"{part}_cpu_seconds": time.process_time() - cpu}


def _finish(record, parts, task) -> dict[str, Any]:
    """Fill NaN for metrics a failed fit could not compute; add provenance."""
    names = ("mse", "q2") if task == "regression" else ("error",)
    for part in parts:
        for name in names:
            record.setdefault(f"{part}_{name}", float("nan"))
    record["versions"] = package_versions()
    record["host"] = platform.node()
    record["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    return record


def package_versions() -> dict[str, str]:
    """Versions of the packages whose behaviour the results depend on."""
    out = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "absent"
    return out


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def protocol_splits(config: dict, protocol: str, dataset, seed: int) -> list[dict[str, np.ndarray]]:
    """Every split of ``dataset`` under the named ``protocol`` of ``config`` for ``seed``.

    Protocols that depend on the data set take their sizes and predefined splits
    from its metadata: ``raetsch`` (the IDA sizes and, when available, the
    predefined realisations) and ``official`` (e.g. MNIST's 60000/10000).
    """
    from .splits import make_splits

    params = {k: v for k, v in config["protocols"][protocol].items() if k not in ("name", "n_samples")}
    name = config["protocols"][protocol]["name"]
    meta = dataset.metadata
    if name == "raetsch":
        n_train, n_test = meta["ida_sizes"]
        params = {"n_train": n_train, "n_test": n_test, **params}
        params.setdefault("predefined", meta.get("predefined_splits"))
    elif name == "official":
        if "official_split" not in meta:
            raise ConfigError(f"data set {dataset.name!r} has no official train/test split")
        params = {"train_idx": meta["official_split"]["train"], "test_idx": meta["official_split"]["test"], **params}
    return make_splits(name, y=dataset.y, seed=seed, **params)


def run_configured_job(config: dict, job, dataset, split: dict[str, np.ndarray]) -> dict[str, Any]:
    """Run :func:`run_job` for a planned :class:`mkbench.harness.config.Job` of ``config``.

    The fit reads only the job's identity (:func:`mkbench.harness.config.job_identity`),
    which the workflow makes a rerun trigger of the job.
    """
    from .config import job_identity

    identity = job_identity(config, job)
    ids = {
        "experiment": job.experiment,
        "protocol": job.protocol,
        "seed": job.seed,
        "split": job.split,
        "param": job.param,
    }
    return run_job(
        dataset,
        split,
        method=job.method,
        estimator=identity["estimator"],
        params=identity["params"],
        ids=ids,
        preprocess=identity["preprocess"],
        trace=tuple(identity.get("trace", ())),
        fit_unlabeled=identity.get("fit_unlabeled", False),
        count_features=identity.get("count_features", False),
    )
