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

from .. import metrics
from ..exceptions import ConfigError, SolverError
from .methods import make_method

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
    staged_trace = bool(trace) and not _set_trace(model, estimator, trace, parts, X, y, dataset.task)
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
    record.update(_scores(y, parts, predictions, dataset.task))
    record.update(_model_size(model))
    if staged_trace:
        traced = {name: parts[name] for name in trace}
        record["history"] = _staged_history(model, record.get("history"), traced, X, y, dataset.task)
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


def _set_trace(model, estimator: str, trace, parts: dict[str, np.ndarray], X, y, task: str) -> bool:
    """Make ``model`` record the metrics of the ``trace`` parts at every iteration through its callback.

    Returns False, setting nothing, for a model without a callback that has
    ``staged_predict``: its parts are scored after the fit (:func:`_staged_history`).
    """
    absent = [name for name in trace if name not in parts]
    if absent:
        raise ConfigError(f"trace names part(s) {absent} that the split lacks; its parts: {sorted(parts)}")
    if "callback" not in model.get_params(deep=False):
        if hasattr(model, "staged_predict"):
            return False
        raise ConfigError(
            f"method {estimator!r} takes no per-iteration callback and has no staged_predict, so it cannot trace"
        )
    train = parts["train"]
    parts = {name: parts[name] for name in trace}
    cache = _ColumnCache(X, parts, train)

    def callback(current) -> dict[str, float]:
        predictions = {name: cache.predict(current, name) for name in parts}
        predictions = {
            name: current.predict(X[parts[name]]) if found is None else found for name, found in predictions.items()
        }
        scores = _scores(y, parts, predictions, task)
        used = getattr(current, "n_columns_by_kernel_", None) if hasattr(current, "kernels_") else None
        return {**scores, **{f"used_{kernel}": count for kernel, count in (used or {}).items()}}

    model.set_params(callback=callback)
    return True


class _ColumnCache:
    """Kernel columns K_p(x, x_j) of a binary kernel expansion on the traced parts, each computed once.

    A traced CG-Boost run predicts its parts after every column it adds; predicting afresh costs
    n_part x m kernel values at m columns, this cache n_part per column ever added. It reads the
    model's public attributes only (``kernels_``, ``columns_`` as (kernel name, training index),
    ``coef_``, ``intercept_``, ``classes_`` and the input scaling ``input_mean_`` / ``input_scale_``)
    and gives up (None: predict afresh) for anything else, e.g. one-vs-rest models or a library
    with two kernels of one name.
    """

    def __init__(self, X: np.ndarray, parts: dict[str, np.ndarray], train: np.ndarray) -> None:
        self.X, self.parts, self.train = X, parts, train
        self.blocks: dict[tuple[str, int], np.ndarray] = {}  # (part, kernel) -> n_part x n_train, NaN until computed
        self.inputs: dict[str, np.ndarray] = {}

    def predict(self, model, part: str) -> np.ndarray | None:
        """``model.predict`` on ``part``, from cached columns; None where the model is not such an expansion."""
        f = self.decision(model, part)
        if f is None:
            return None
        return np.asarray(model.classes_)[(f > 0).astype(int)]

    def decision(self, model, part: str) -> np.ndarray | None:
        """f(x) = sum_j alpha_j K_p(x, x_j) + b on ``part``, or None (see the class)."""
        kernels, columns = getattr(model, "kernels_", None), getattr(model, "columns_", None)
        classes = getattr(model, "classes_", None)
        if kernels is None or columns is None or classes is None or len(classes) != 2:
            return None
        if getattr(model, "estimators_", None) is not None or not hasattr(model, "input_mean_"):
            return None
        names = [kernel.name for kernel in kernels]
        if len(set(names)) != len(names):
            return None
        coef = np.asarray(model.coef_, dtype=np.float64)
        f = np.full(self.parts[part].size, float(model.intercept_))
        index = {name: p for p, name in enumerate(names)}
        kernel_of = np.array([index[name] for name, _ in columns], dtype=np.intp)
        centre_of = np.array([j for _, j in columns], dtype=np.intp)
        for p in np.unique(kernel_of[coef != 0]):
            used = (kernel_of == p) & (coef != 0)
            block = self._block(model, part, p, centre_of[used])
            f += block[:, centre_of[used]] @ coef[used]
        return f

    def _block(self, model, part: str, p: int, centres: np.ndarray) -> np.ndarray:
        key = (part, int(p))
        if key not in self.blocks:
            self.blocks[key] = np.full((self.parts[part].size, self.train.size), np.nan)
        block = self.blocks[key]
        missing = np.unique(centres[np.isnan(block[0, centres])]) if block.shape[0] else np.zeros(0, np.intp)
        if missing.size:
            block[:, missing] = model.kernels_[p](self._seen(model, part), self._seen(model, "train")[missing])
        return block

    def _seen(self, model, part: str) -> np.ndarray:
        """The part's inputs as the model's kernels see them (after its input scaling)."""
        if part not in self.inputs:
            X = self.X[self.train if part == "train" else self.parts[part]]
            mean, scale = model.input_mean_, getattr(model, "input_scale_", None)
            self.inputs[part] = X if mean is None else (X - mean) / scale
        return self.inputs[part]


def _staged_history(model, history, parts: dict[str, np.ndarray], X, y, task: str) -> list[dict[str, Any]]:
    """The metrics of ``parts`` after each iteration t = 1, 2, ... from ``model.staged_predict``.

    They are added to the row of ``history`` (the model's own, if any) with
    ``n_columns`` = t, or to a new row ``{"n_columns": t}``.
    """
    rows = [dict(row) for row in history or []]
    by_count = {row.get("n_columns"): row for row in rows}
    staged = [model.staged_predict(X[idx]) for idx in parts.values()]
    for t, predictions in enumerate(zip(*staged, strict=True), start=1):
        scores = _scores(y, parts, dict(zip(parts, predictions, strict=True)), task)
        if t in by_count:
            by_count[t].update(scores)
        else:
            rows.append({"n_columns": t, **scores})
    return rows


def _feature_counts(model, estimator: str) -> dict[str, int]:
    """``feature_count_<j>`` fields, j = 1..n_features (the papers number features from 1)."""
    from ..estimators.feature_counts import feature_counts

    counts = feature_counts(model)
    if counts is None:
        raise ConfigError(f"method {estimator!r} is not an ensemble of stumps; count_features needs one")
    return {f"feature_count_{j}": int(count) for j, count in enumerate(counts, start=1)}


def _scores(y, parts, predictions, task) -> dict[str, float]:
    """Per-part metrics: MSE and Q^2 for regression, error rate for classification."""
    out = {}
    for name, pred in predictions.items():
        truth = y[parts[name]]
        if task == "regression":
            out[f"{name}_mse"] = metrics.mse(truth, pred)
            out[f"{name}_q2"] = metrics.q2(truth, pred)
        else:
            out[f"{name}_error"] = metrics.error_rate(truth, pred)
    return out


def _model_size(model) -> dict[str, Any]:
    """Model size fields the estimator exposes: support vectors, columns, storage, history."""
    out = {}
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


#: Protocol parameters that :func:`protocol_splits` takes from the data set's metadata, so that
#: a config need not give them.
FROM_DATASET = {"raetsch": ("n_train", "n_test", "predefined"), "official": ("train_idx", "test_idx")}


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
