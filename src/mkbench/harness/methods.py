"""The methods a workflow job can fit, by name: the one registry (:data:`mkbench._registry.METHODS`) made into estimators.

Each entry is the dotted path of a scikit-learn estimator class; it is imported
only when a job asks for it, so ``mkbench --help`` stays fast. A new estimator of
mkbench is registered in :mod:`mkbench._registry`, and ``import mkbench`` offers it
too; a user's own estimator needs no registration: a config names it by its import
path, ``estimator: "package.module:Class"``, and reading the config imports it and
checks its parameters.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from sklearn.base import BaseEstimator

from .._registry import METHODS, estimator_class
from ..exceptions import ConfigError, MkbenchError, UnknownNameError

__all__ = [
    "METHODS",
    "kernel_problems",
    "make_method",
    "method_class",
    "method_parameters",
    "method_problem",
    "parameter_problems",
    "wrapped_parameters",
]


def method_class(name: str) -> type[BaseEstimator]:
    """Return the estimator class registered under ``name``, or at the import path ``name``.

    See :func:`mkbench._registry.estimator_class`: ``name`` is a registered method or
    ``"package.module:Class"``, any scikit-learn estimator on the Python path.

    Raises
    ------
    UnknownNameError
        If ``name`` is neither; the message says why and lists the known names.
    """
    return estimator_class(name)


def method_problem(name: str) -> str:
    """Why ``name`` names no estimator (an unknown name, a failed import, not an estimator); "" if it names one."""
    try:
        method_class(name)
    except UnknownNameError as exc:
        return str(exc)
    return ""


@functools.cache
def method_parameters(name: str) -> tuple[str, ...]:
    """The parameters the estimator ``name`` accepts (its ``__init__``'s, as ``get_params()`` lists them), sorted.

    Read from the class (scikit-learn's ``_get_param_names``), so that an estimator
    whose ``__init__`` needs arguments is checked too.
    """
    return tuple(sorted(method_class(name)._get_param_names()))


def wrapped_parameters(name: str, params: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any]]]:
    """The parameters that method ``name`` passes on to other registered methods.

    Only ``staged-cv`` (:class:`mkbench.estimators.StagedSearchCV`) wraps others: it fits
    its ``method`` with ``params`` and, per grid point, ``param_grid``; with
    ``svc_bandwidth_grid`` it first cross-validates ``svc-rbf`` over that grid.

    Parameters
    ----------
    name : str
        A registered method.
    params : mapping
        Its parameters.

    Returns
    -------
    list of (str, str, mapping)
        ``(key, method, parameters)``: ``params[key]`` holds parameters (or lists of
        values) of the registered method ``method``.
    """
    if name != "staged-cv":
        return []
    inner = params.get("method", method_class(name)().get_params(deep=False)["method"])
    holders = {"params": inner, "param_grid": inner, "svc_bandwidth_grid": "svc-rbf"}
    return [(key, method, params[key]) for key, method in holders.items() if params.get(key)]


def parameter_problems(
    name: str, params: Mapping[str, Any], where: str, *, grid: bool = False, kernels: bool = False
) -> list[str]:
    """Say which of ``params`` method ``name`` does not accept, and likewise for the methods it wraps.

    Parameters
    ----------
    name : str
        A registered method.
    params : mapping
        Its parameters (their names are checked).
    where : str
        Where ``params`` sit (e.g. ``experiments/e/methods/m/params``); a wrapped
        method's parameters sit under ``<where>/<key>``.
    grid : bool, default=False
        Whether ``params`` is a grid: each value a list of candidate values.
    kernels : bool, default=False
        Also build the kernel libraries among the values (:func:`kernel_problems`), as a
        workflow config is read; an estimator itself checks them when it is fitted.

    Returns
    -------
    list of str
        One ``"at <where>: ..."`` line per problem, naming the unknown parameters and
        the valid ones, or a kernel library that cannot be built; empty if there is none.

    Raises
    ------
    UnknownNameError
        If ``name``, or a method it wraps, is not registered.
    """
    valid = method_parameters(name)
    unknown = sorted(set(params) - set(valid))
    problems = (
        [f"at {where}: method {name!r} has no parameter(s) {', '.join(unknown)}; valid parameters: {', '.join(valid)}"]
        if unknown
        else []
    )
    if kernels:
        problems += kernel_problems(name, params, where, grid=grid)
    for key, method, inner in wrapped_parameters(name, params):
        problems += parameter_problems(method, inner, f"{where}/{key}", grid=key != "params", kernels=kernels)
    return problems


def kernel_problems(name: str, params: Mapping[str, Any], where: str, *, grid: bool = False) -> list[str]:
    """The kernel libraries among ``params`` of method ``name`` that :func:`mkbench.kernels.make_library` cannot build.

    A method names the parameters that hold a library in its class attribute
    ``_kernel_library_params`` (CG-Boost's and SSMK's ``kernels``), so that a misspelt kernel
    or kernel parameter in a workflow config stops the run when the config is read, not in
    every job. Arguments as :func:`parameter_problems`; one ``"at <where>/<key>: ..."`` line per problem.
    """
    from ..kernels import make_library

    problems = []
    for key in getattr(method_class(name), "_kernel_library_params", ()):
        if key not in params:
            continue
        for spec in params[key] if grid else [params[key]]:
            try:
                make_library(spec)
            except (MkbenchError, TypeError, ValueError) as exc:
                problems.append(f"at {where}/{key}: {exc}")
    return problems


def make_method(name: str, params: dict[str, Any] | None = None) -> BaseEstimator:
    """Instantiate the estimator ``name`` with ``params``.

    Raises
    ------
    ConfigError
        If a parameter is not one the estimator (or a method it wraps) accepts;
        the message lists the valid ones.
    """
    cls = method_class(name)
    params = dict(params or {})
    problems = parameter_problems(name, params, "params")
    if problems:
        raise ConfigError("; ".join(problems))
    return cls(**params)
