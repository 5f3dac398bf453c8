"""Per-iteration histories of a job: the metrics of the traced parts after every iteration.

A traced job (``trace: [train, test]``) records how its model scores on the split's parts
as it grows: through the estimator's per-iteration ``callback`` (:func:`set_trace`; a kernel
expansion's columns on each part are computed once, :class:`_ColumnCache`), or, for a
model without one, from ``staged_predict`` after the fit (:func:`staged_history`).
:mod:`mkbench.harness.experiment` runs the job and writes these rows into its record.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import metrics
from ..exceptions import ConfigError


def part_scores(y, parts, predictions, task) -> dict[str, float]:
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


def set_trace(model, estimator: str, trace, parts: dict[str, np.ndarray], X, y, task: str) -> bool:
    """Make ``model`` record the metrics of the ``trace`` parts at every iteration through its callback.

    Returns False, setting nothing, for a model without a callback that has
    ``staged_predict``: its parts are scored after the fit (:func:`staged_history`).
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
        scores = part_scores(y, parts, predictions, task)
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


def staged_history(model, history, parts: dict[str, np.ndarray], X, y, task: str) -> list[dict[str, Any]]:
    """The metrics of ``parts`` after each iteration t = 1, 2, ... from ``model.staged_predict``.

    They are added to the row of ``history`` (the model's own, if any) with
    ``n_columns`` = t, or to a new row ``{"n_columns": t}``.
    """
    rows = [dict(row) for row in history or []]
    by_count = {row.get("n_columns"): row for row in rows}
    staged = [model.staged_predict(X[idx]) for idx in parts.values()]
    for t, predictions in enumerate(zip(*staged, strict=True), start=1):
        scores = part_scores(y, parts, dict(zip(parts, predictions, strict=True)), task)
        if t in by_count:
            by_count[t].update(scores)
        else:
            rows.append({"n_columns": t, **scores})
    return rows
