"""The registry of split protocols, the splits of a protocol, and a validation part held out of a training part.

:func:`make_splits` builds the list of splits of an evaluation protocol from
the protocol's parameters, an integer seed and the labels ``y``. Every random
draw comes from ``numpy.random.default_rng(seed)``, so the same inputs always
give the same splits. The protocols are registered in :data:`PROTOCOLS` by
family (:mod:`.resampling`, :mod:`.subsets`, :mod:`.predefined`).
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.model_selection import train_test_split

from mkbench.exceptions import ConfigError, UnknownNameError

from ._common import Split, _check_bool, _check_indices, _check_int, _check_labels, _sklearn_seed
from .predefined import _official, _raetsch
from .resampling import _kfold, _loo, _random
from .subsets import _semisupervised, _subsets

__all__ = ["FROM_DATASET", "PROTOCOLS", "add_validation", "make_splits"]

PROTOCOLS: dict[str, Callable[..., list[Split]]] = {
    "kfold": _kfold,
    "random": _random,
    "subsets": _subsets,
    "semisupervised": _semisupervised,
    "raetsch": _raetsch,
    "loo": _loo,
    "official": _official,
}
"""Protocol name -> function ``(y, rng, **params) -> list of splits``."""

#: Protocol parameters taken from the data set's metadata
#: (:func:`mkbench.harness.experiment.protocol_splits`), so that a config need not give them.
FROM_DATASET = {"raetsch": ("n_train", "n_test", "predefined"), "official": ("train_idx", "test_idx")}


def make_splits(protocol: str, *, y: Any, seed: int, **params: Any) -> list[Split]:
    """Build the splits of an evaluation protocol, deterministically.

    Parameters
    ----------
    protocol : str
        A key of :data:`PROTOCOLS`; see :mod:`mkbench.harness.splits` for each one's parameters.
    y : array-like of shape (n_samples,)
        The data set's labels; only their number matters unless the protocol stratifies.
    seed : int
        Non-negative seed of :func:`numpy.random.default_rng`; the same seed and
        parameters give identical splits.
    **params
        The protocol's parameters.

    Returns
    -------
    list of dict of str to ndarray
        The splits: part name -> sorted ``int64`` indices into ``y``.

    Raises
    ------
    UnknownNameError
        If ``protocol`` is not registered.
    ConfigError
        If a parameter is missing, unknown or out of range.
    """
    if protocol not in PROTOCOLS:
        raise UnknownNameError(f"unknown split protocol {protocol!r}; known protocols: {sorted(PROTOCOLS)}")
    function = PROTOCOLS[protocol]
    y = _check_labels(y)
    _check_int("seed", seed, 0)
    rng = np.random.default_rng(seed)
    try:
        inspect.signature(function).bind(y, rng, **params)
    except TypeError as exc:
        raise ConfigError(
            f"split protocol {protocol!r}: {exc}; its parameters are {list(protocol_parameters(protocol))}"
        ) from exc
    return function(y, rng, **params)


def protocol_parameters(protocol: str) -> dict[str, Any]:
    """The parameters of the registered ``protocol``, each with its default.

    Parameters
    ----------
    protocol : str
        A key of :data:`PROTOCOLS`.

    Returns
    -------
    dict of str to object
        Parameter name -> default value, :data:`inspect.Parameter.empty` for a
        required parameter, in the order of the protocol's signature.
    """
    parameters = list(inspect.signature(PROTOCOLS[protocol]).parameters.values())[2:]  # after (y, rng)
    return {parameter.name: parameter.default for parameter in parameters}


def add_validation(
    train_idx: Any,
    *,
    fraction: float = 0.2,
    seed: int,
    y: Any = None,
    stratify: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Hold out a validation part of a training part for model selection.

    Parameters
    ----------
    train_idx : array-like of int
        Indices of the training part, into the data set.
    fraction : float, default=0.2
        Share of ``train_idx`` held out for validation, in (0, 1).
    seed : int
        Non-negative seed; the same seed gives the same parts.
    y : array-like of shape (n_samples,), optional
        Labels of the whole data set (indexed by ``train_idx``); needed only
        when ``stratify`` is true.
    stratify : bool, default=False
        Keep the class proportions of ``y[train_idx]`` in both parts.

    Returns
    -------
    fit_idx, val_idx : ndarray of int64
        Sorted disjoint indices whose union is ``train_idx``.
    """
    train_idx = _check_indices("train_idx", train_idx, None)
    is_real = isinstance(fraction, numbers.Real) and not isinstance(fraction, bool)
    if not is_real or not 0.0 < fraction < 1.0:
        raise ConfigError(f"fraction={fraction!r} is invalid; give a fraction in (0, 1)")
    _check_int("seed", seed, 0)
    _check_bool("stratify", stratify)
    labels = None
    if stratify:
        if y is None:
            raise ConfigError("stratify=True needs y, the data set's labels; pass y or set stratify=False")
        y = _check_labels(y)
        if train_idx[-1] >= y.size:
            raise ConfigError(
                f"train_idx holds index {train_idx[-1]} but y has only {y.size} labels; "
                "pass the labels of the whole data set"
            )
        labels = y[train_idx]
    random_state = _sklearn_seed(np.random.default_rng(seed))
    try:
        fit_idx, val_idx = train_test_split(train_idx, test_size=fraction, random_state=random_state, stratify=labels)
    except ValueError as exc:
        raise ConfigError(f"cannot hold out fraction={fraction} of {train_idx.size} training points: {exc}") from exc
    return np.sort(fit_idx), np.sort(val_idx)
