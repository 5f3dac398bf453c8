"""Decision boundary of a configured method on a 2-D data set (CGEns Fig. 1, left).

A record keeps metrics, not the model, so the boundary figure refits the model of
one job exactly as :func:`mkbench.harness.experiment.run_configured_job` fits it: the
same registered estimator and parameters, the same split of the same protocol
and seed, the same preprocessing. Every method here is seeded, so the refitted
model is the recorded one.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from .config import Job, param_settings
from ..exceptions import ConfigError
from .experiment import _preprocess, protocol_splits
from .methods import make_method

__all__ = ["draw_boundary", "draw_job_boundary", "fit_job"]


def fit_job(config: dict, job: Job, dataset, split: dict[str, np.ndarray]) -> tuple[Any, np.ndarray]:
    """The model of ``job`` fitted on ``split["train"]`` as the workflow fits it, and the preprocessed inputs.

    Returns
    -------
    model : fitted estimator
    X : ndarray of shape (n_samples, n_features)
        ``dataset.X`` after the experiment's preprocessing (statistics of the training part).
    """
    exp = config["experiments"][job.experiment]
    spec = exp["methods"][job.method]
    model = make_method(spec["estimator"], param_settings(spec)[job.param])
    X = _preprocess(dataset.X, np.asarray(split["train"]), exp["preprocess"])
    model.fit(X[split["train"]], dataset.y[split["train"]])
    return model, X


def _check_plane(n_features: int) -> None:
    if n_features != 2:
        raise ConfigError(f"a decision boundary is drawn for 2-D inputs; the data set has {n_features} features")


def draw_boundary(
    model,
    X: np.ndarray,
    y: np.ndarray,
    split: dict[str, np.ndarray],
    out_stem: str | os.PathLike,
    *,
    title: str,
    resolution: int = 300,
) -> None:
    """The sign of ``model.decision_function`` over the plane of 2-D inputs, with the points, as PNG and PDF.

    Training points are filled, test points hollow; the boundary F(x) = 0 is drawn black.

    Parameters
    ----------
    model : fitted binary classifier with ``decision_function``
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
    split : dict of str to ndarray
        ``"train"`` and optionally ``"test"`` indices into X.
    out_stem : path-like
    title : str
    resolution : int, default=300
        Grid points per axis.
    """
    from .figures import _pyplot, _save, _set_title

    _check_plane(X.shape[1])
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.05 * (hi - lo)
    u, v = (np.linspace(lo[d] - pad[d], hi[d] + pad[d], resolution) for d in range(2))
    U, V = np.meshgrid(u, v)
    F = np.asarray(model.decision_function(np.column_stack([U.ravel(), V.ravel()]))).reshape(U.shape)
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(4.8, 4.5))
    ax.contourf(U, V, F > 0, levels=[-0.5, 0.5, 1.5], colors=["#c6dbef", "#fdd0a2"], alpha=0.8)
    ax.contour(U, V, F, levels=[0.0], colors="k", linewidths=1.2)
    classes = np.unique(y)
    for cls, colour, marker in zip(classes, ("#08519c", "#a63603"), ("o", "s"), strict=True):
        for part, filled in (("train", True), ("test", False)):
            idx = np.asarray(split.get(part, []), dtype=np.int64)
            idx = idx[y[idx] == cls]
            ax.scatter(
                X[idx, 0],
                X[idx, 1],
                s=9,
                marker=marker,
                linewidths=0.6,
                label=f"{cls} ({part})",
                facecolors=colour if filled else "none",
                edgecolors=colour,
            )
    ax.set(xlabel="x1", ylabel="x2")
    _set_title(figure, title)
    ax.legend(fontsize=7, loc="upper right", framealpha=0.8)
    _save(figure, out_stem)


def draw_job_boundary(config: dict, spec: dict, out_stem: str | os.PathLike) -> None:
    """Draw the ``boundary`` figure ``spec`` of ``config``: its one method, on split 0 of the
    experiment's first data set and first seed, refitted by :func:`fit_job`; the title adds
    the refitted model's ``spec["metric"]`` (an error rate: train_error or test_error)."""
    from .datasets import load
    from .tracing import part_scores

    name = spec["experiment"]
    exp = config["experiments"][name]
    methods = spec.get("methods") or list(exp["methods"])
    if len(methods) != 1:
        raise ConfigError(f"a boundary figure draws one method; figure of {name!r} names {methods}")
    job = Job(name, methods[0], "default", exp["datasets"][0], exp["protocol"], exp["seeds"][0], 0)
    if "default" not in param_settings(exp["methods"][job.method]):
        raise ConfigError(f"method {job.method!r} has a grid; a boundary figure needs one setting")
    mirror = config["data"]["mirror"] or os.environ.get("MKBENCH_DATA_MIRROR")
    dataset = load(job.dataset, mirror=mirror, data_home=config["data"]["home"])
    split = protocol_splits(config, job.protocol, dataset, job.seed)[job.split]
    part, _, kind = spec["metric"].partition("_")
    if kind != "error" or part not in split:
        raise ConfigError(
            f"metric of a boundary figure must be <part>_error for a part of the split, got {spec['metric']!r}"
        )
    _check_plane(dataset.X.shape[1])
    model, X = fit_job(config, job, dataset, split)
    score = part_scores(dataset.y, {part: split[part]}, {part: model.predict(X[split[part]])}, dataset.task)
    title = f"{spec.get('caption') or job.method}\n{job.dataset}, split 0: {spec['metric']} {score[spec['metric']]:.3f}"
    draw_boundary(model, X, dataset.y, split, out_stem, title=title)
