"""Workflow configuration: validation against the JSON schema, and job planning.

:func:`load_config` validates a YAML file against ``config.schema.yaml`` (shipped
with the package, so ``mkbench run`` and the Snakefile check the same rules), and
every method's and protocol's parameters against the ones the estimator and the
protocol accept; errors name the wrong key and the reason. :func:`plan_jobs` expands
the experiments into one job per experiment x method x parameter setting x data set
x seed x split, and :func:`job_identity` is everything of the config one job's record
depends on (the workflow reruns a job when it changes).
"""

from __future__ import annotations

import inspect
import itertools
import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from ..exceptions import ConfigError

SCHEMA_PATH = Path(str(resources.files("mkbench.harness") / "config.schema.yaml"))


@dataclass(frozen=True)
class Job:
    """One fit job; its fields are the workflow's wildcards."""

    experiment: str
    method: str
    param: str
    dataset: str
    protocol: str
    seed: int
    split: int

    @property
    def record_path(self) -> str:
        """Where the job's record is written, relative to the working directory."""
        return (
            f"results/runs/{self.experiment}/{self.dataset}/{self.method}/{self.param}/"
            f"seed{self.seed}-split{self.split}.json"
        )

    @property
    def split_path(self) -> str:
        return split_path(self.dataset, self.protocol, self.seed, self.split)


def split_path(dataset: str, protocol: str, seed: int, split: int) -> str:
    """Where one split's index file is written."""
    return f"resources/splits/{dataset}/{protocol}/seed{seed}/split{split}.npz"


def read_yaml(path: str | os.PathLike, what: str, hint: str = "") -> Any:
    """Parse the YAML file at ``path``: ``what`` names it in the error if it is missing (``hint`` added) or invalid."""
    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{what} {os.fspath(path)!r} does not exist{hint}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{what} {os.fspath(path)!r} is not valid YAML: {exc}") from None


def check_schema(node: Any, schema: dict, what: str) -> None:
    """Raise a ConfigError headed ``invalid <what>:`` listing every place where ``node`` breaks ``schema``."""
    errors = sorted(
        jsonschema.Draft202012Validator(schema).iter_errors(node), key=lambda e: [str(p) for p in e.absolute_path]
    )
    if errors:
        raise ConfigError(f"invalid {what}:\n" + "\n".join(_describe(e) for e in errors))


def load_config(path: str | os.PathLike, *overlays: str | os.PathLike) -> dict[str, Any]:
    """Read and validate a workflow config file; return it with defaults filled in.

    Each of ``overlays`` is merged over it first, mapping by mapping, as Snakemake
    merges ``--configfile A B`` (a later file's value replaces an earlier one's; lists
    are replaced whole).
    """
    config = read_yaml(path, "config file")
    for overlay in overlays:
        _merge(config, read_yaml(overlay, "config overlay"))
    return validate_config(config)


def _merge(base: dict, over: dict) -> None:
    """Merge ``over`` into ``base`` in place, recursively for mappings."""
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = dict(base[key])  # YAML aliases share one mapping: change only this key's
            _merge(base[key], value)
        else:
            base[key] = value


def validate_config(config: Any) -> dict[str, Any]:
    """Validate ``config`` against the schema and cross-references; fill defaults.

    Raises
    ------
    ConfigError
        Naming the key path that is wrong, and why (unknown key, wrong type,
        reference to an undefined protocol or experiment, unknown method or data set).
    """
    with open(SCHEMA_PATH, encoding="utf-8") as fh:
        schema = yaml.safe_load(fh)
    check_schema(config, schema, "config")
    _fill_defaults(config, schema)
    _apply_estimator_defaults(config)
    declare_datasets(config)
    _check_references(config)
    _check_parameters(config)
    return config


def declare_datasets(config: dict) -> None:
    """Register the data sets the config declares (its ``datasets:``, :mod:`mkbench.harness.datasets.declared`).

    Every process that loads them calls it: reading the config does, and so do the
    workflow's fetch and prepare scripts.
    """
    from .datasets.declared import declare

    declare(config.get("datasets") or {})


def _apply_estimator_defaults(config: dict) -> None:
    """Put ``estimator_defaults[<estimator>]`` under the params of every method of that estimator.

    A method's own ``params`` win; its ``grid`` wins over both (:func:`param_settings`). Each
    method gets a new params mapping, since YAML aliases may share one among methods.
    """
    defaults = config["estimator_defaults"]
    for exp in config["experiments"].values():
        for label, spec in exp["methods"].items():
            pinned = defaults.get(spec["estimator"])
            if pinned:
                exp["methods"][label] = {**spec, "params": {**pinned, **(spec.get("params") or {})}}


def _describe(error: jsonschema.ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        hint = f"; allowed keys here: {', '.join(allowed)}" if allowed else ""
        return f"  at {where}: {error.message}{hint}"
    return f"  at {where}: {error.message}"


def _fill_defaults(node: Any, schema: dict) -> None:
    """Insert the schema's ``default`` values for missing keys, recursively."""
    if not isinstance(node, dict):
        return
    for key, sub in schema.get("properties", {}).items():
        if key not in node and "default" in sub:
            node[key] = yaml.safe_load(yaml.safe_dump(sub["default"]))  # deep copy
        if key in node:
            _fill_defaults(node[key], sub)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for key, value in node.items():
            if key not in schema.get("properties", {}):
                _fill_defaults(value, extra)


def _check_references(config: dict) -> None:
    from .datasets import list_datasets
    from .methods import method_problem

    registered = sorted(spec.name for spec in list_datasets())
    problems = []
    for name, exp in config["experiments"].items():
        problems += [
            f"  at experiments/{name}/datasets: unknown data set {d!r}; known: {', '.join(registered)}"
            for d in exp["datasets"]
            if d not in registered
        ]
        if exp["protocol"] not in config["protocols"]:
            problems.append(
                f"  at experiments/{name}/protocol: {exp['protocol']!r} is not defined "
                f"under protocols (defined: {', '.join(sorted(config['protocols'])) or 'none'})"
            )
        for label, spec in exp["methods"].items():
            problem = method_problem(spec["estimator"])
            if problem:
                problems.append(f"  at experiments/{name}/methods/{label}/estimator: {problem}")
    for kind in ("tables", "figures"):
        for name, spec in config[kind].items():
            experiments = spec["experiment"] if isinstance(spec["experiment"], list) else [spec["experiment"]]
            unknown = [e for e in experiments if e not in config["experiments"]]
            problems += [f"  at {kind}/{name}/experiment: {e!r} is not an experiment" for e in unknown]
            if kind == "tables" and not unknown:  # a table averages a method's rows: labels must not repeat
                labels = [m for e in experiments for m in config["experiments"][e]["methods"]]
                problems += [
                    f"  at tables/{name}/experiment: method {m!r} is in more than one of {experiments}; "
                    "name it per experiment (e.g. ssmk-l10) so that their rows stay apart"
                    for m in sorted({m for m in labels if labels.count(m) > 1})
                ]
            if kind == "figures" and not unknown:
                known = {m for e in experiments for m in config["experiments"][e]["methods"]}
                problems += [
                    f"  at figures/{name}/methods: {m!r} is not a method of {spec['experiment']!r}"
                    for m in spec.get("methods", [])
                    if m not in known
                ]
    if problems:
        raise ConfigError("invalid config:\n" + "\n".join(problems))


def _check_parameters(config: dict) -> None:
    """Raise a ConfigError listing every method or protocol parameter that is not one they accept, and every
    kernel library among the methods' values that cannot be built."""
    problems = [
        line
        for name, protocol in config["protocols"].items()
        for line in _protocol_problems(protocol, f"protocols/{name}")
    ]
    for name, exp in config["experiments"].items():
        for label, spec in exp["methods"].items():
            problems += _method_problems(spec, f"experiments/{name}/methods/{label}")
    problems += _estimator_default_problems(config["estimator_defaults"])
    if problems:
        raise ConfigError("invalid config:\n" + "\n".join(f"  {line}" for line in problems))


def _method_problems(spec: dict, where: str) -> list[str]:
    """Unknown parameters (and wrapped methods) and unbuildable kernel libraries in one method entry of the
    config (``where``: its path)."""
    from ..exceptions import UnknownNameError
    from .methods import method_problem, parameter_problems

    if method_problem(spec["estimator"]):
        return []  # _check_references has said so
    try:
        return [
            *parameter_problems(spec["estimator"], spec["params"], f"{where}/params", kernels=True),
            *parameter_problems(spec["estimator"], spec["grid"], f"{where}/grid", grid=True, kernels=True),
        ]
    except UnknownNameError as exc:  # a wrapped method (staged-cv's method)
        return [f"at {where}/params: {exc}"]


def _estimator_default_problems(defaults: dict) -> list[str]:
    """Unknown estimators and parameters among the config's ``estimator_defaults``."""
    from .methods import METHODS, parameter_problems

    problems = []
    for estimator, params in defaults.items():
        where = f"estimator_defaults/{estimator}"
        if estimator not in METHODS:
            problems.append(f"at {where}: unknown estimator {estimator!r}; known: {', '.join(sorted(METHODS))}")
        else:
            problems += parameter_problems(estimator, params, where, kernels=True)
    return problems


#: Keys a protocol of the config takes beyond its parameters: ``loo`` needs the data set's size to plan its jobs.
PLANNING_KEYS = {"loo": ("n_samples",)}


def _protocol_problems(protocol: dict, where: str) -> list[str]:
    """Unknown and missing parameters of one protocol of the config (``where``: its path)."""
    from .splits import FROM_DATASET, protocol_parameters

    kind = protocol["name"]
    declared = protocol_parameters(kind)
    planning = PLANNING_KEYS.get(kind, ())
    valid = [*declared, *planning]
    unknown = sorted(set(protocol) - {"name", *valid})
    required = [key for key, default in declared.items() if default is inspect.Parameter.empty] + list(planning)
    missing = [key for key in required if key not in protocol and key not in FROM_DATASET.get(kind, ())]
    problems = (
        [
            f"at {where}: protocol {kind!r} has no parameter(s) {', '.join(unknown)}; "
            f"its parameters: {', '.join(valid) or 'none'}"
        ]
        if unknown
        else []
    )
    if missing:
        problems.append(f"at {where}: protocol {kind!r} needs {', '.join(missing)}")
    return problems


def added_methods(config: dict[str, Any], experiments: str | list[str]) -> list[str]:
    """The methods of ``experiments`` added beside the papers' (``added:``; by default those named by an import path).

    No reproduction item, attribution or claim reads them: the tables mark them as added.
    """
    from .._registry import is_import_path

    names = [experiments] if isinstance(experiments, str) else experiments
    return [
        label
        for name in names
        for label, spec in config["experiments"][name]["methods"].items()
        if spec.get("added", is_import_path(spec["estimator"]))
    ]


def param_settings(method_spec: dict) -> dict[str, dict[str, Any]]:
    """Expand a method's ``grid`` into named parameter settings.

    The name is ``"default"`` without a grid, else ``"key=value"`` pairs joined
    by ``","`` in sorted key order (e.g. ``"C=10,nu=0.1"``).
    """
    grid = method_spec.get("grid") or {}
    base = dict(method_spec.get("params") or {})
    if not grid:
        return {"default": base}
    keys = sorted(grid)
    settings = {}
    for values in itertools.product(*(grid[k] for k in keys)):
        name = ",".join(f"{k}={v}" for k, v in zip(keys, values, strict=True))
        settings[name] = {**base, **dict(zip(keys, values, strict=True))}
    return settings


def n_splits(protocol: dict[str, Any]) -> int:
    """How many splits a protocol produces (known before any data is read)."""
    name = protocol["name"]
    if name == "kfold":
        return int(protocol["n_folds"])
    if name in ("random", "subsets", "semisupervised", "raetsch", "official"):  # official: 1 unless drawn per class
        return int(protocol.get("n_repeats", 1))
    if name == "loo":
        if "n_samples" not in protocol:
            raise ConfigError("protocol loo needs n_samples (the data set size) for planning")
        return int(protocol["n_samples"])
    raise ConfigError(f"unknown protocol {name!r}")


def job_of(config: dict[str, Any], wildcards: Any) -> Job:
    """The fit job of ``config`` whose wildcards (experiment, method, param, dataset, seed, split) are given."""
    protocol = config["experiments"][wildcards.experiment]["protocol"]
    return Job(
        wildcards.experiment,
        wildcards.method,
        wildcards.param,
        wildcards.dataset,
        protocol,
        int(wildcards.seed),
        int(wildcards.split),
    )


def job_identity(config: dict[str, Any], job: Job) -> dict[str, Any]:
    """Everything of ``config`` that ``job``'s record depends on, resolved for the job.

    Parameters
    ----------
    config : dict
        A validated config (defaults filled in).
    job : Job
        One of its planned jobs.

    Returns
    -------
    dict
        The method's entry with ``params`` resolved to the job's grid setting (and
        ``grid`` left out), the experiment's ``preprocess``, and the ``protocol``'s
        entry. Titles, captions and the other jobs of the experiment are not part of it.
    """
    exp = config["experiments"][job.experiment]
    method = exp["methods"][job.method]
    return {
        **{key: value for key, value in method.items() if key != "grid"},
        "params": param_settings(method)[job.param],
        "preprocess": exp["preprocess"],
        "protocol": config["protocols"][job.protocol],
    }


def canonical_json(value: Any) -> str:
    """``value`` as JSON with sorted keys and no spaces: equal values give equal strings."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def plan_jobs(config: dict[str, Any], experiments: list[str] | None = None) -> list[Job]:
    """All fit jobs of ``experiments`` (default: every experiment), in a stable order."""
    jobs = []
    for exp_name in experiments or list(config["experiments"]):
        exp = config["experiments"][exp_name]
        protocol = config["protocols"][exp["protocol"]]
        for method, spec in exp["methods"].items():
            for param in param_settings(spec):
                for dataset in exp["datasets"]:
                    for seed in exp["seeds"]:
                        for split in range(n_splits(protocol)):
                            jobs.append(Job(exp_name, method, param, dataset, exp["protocol"], seed, split))
    return jobs
