import copy
from collections import Counter

import pytest
import yaml

from mkbench.exceptions import ConfigError
from mkbench.harness.config import (
    canonical_json,
    job_identity,
    load_config,
    param_settings,
    plan_jobs,
    validate_config,
)

from ..conftest import ROOT


@pytest.fixture
def smoke():
    with open(ROOT / "config" / "smoke.yaml") as fh:
        return yaml.safe_load(fh)


def test_shipped_configs_validate_and_plan():
    full = load_config(ROOT / "config" / "config.yaml")
    jobs = plan_jobs(full)
    count = Counter(j.experiment for j in jobs)
    # MARK Tables 2-3: 4 methods (MARK-L, SVR, KRR and scikit-learn's KRR) x 2 data sets x 10 folds
    assert count["mark-benchmarks"] == 4 * 2 * 10
    # CG-Boost Table 1, 3 seeds: the QP's 16 C values and the LP's 13, for all 7 kernel sets
    assert count["cgboost-sensitivity-nonnegative"] == (6 * 6 + 4) * 3  # QP (7): 6 C values, 4 for the mixture
    assert count["cgboost-table1"] == (7 * 16 + 7 * 13) * 3
    assert count["ssmk-l100"] == 4 * 10  # SSMK, IMK and their other routes x 10 trials
    assert count["ssmk-sensitivity-l100"] == 2 * 4 * 10  # SSMK, IMK x 4 fixed C x 10 trials
    assert len(set(j.record_path for j in jobs)) == len(jobs)
    smoke = load_config(ROOT / "config" / "smoke.yaml")
    count = Counter(j.experiment for j in plan_jobs(smoke))
    assert count["smoke-regression"] == 2 * 3  # 2 methods x 3 folds
    assert (
        count["smoke-classification"] == 6 * 2
    )  # (svc + cgboost-lp + 2 C of cgboost-qp + cgboost-qp-clarabel + cgboost-qp-cd) x 2 repeats


@pytest.mark.parametrize("name", ["config.yaml", "smoke.yaml"])
def test_every_configured_cgens_builds_its_master(name):
    """Parameter combinations are checked when the master is built, not when the config loads: build each
    CGEns the shipped configs name (alone or inside a cross-validated search) and its master, as a fit would
    (solver='libsvm' without fit_intercept=True would fail every job of its table)."""
    import numpy as np

    from mkbench.estimators import CGEnsClassifier

    config = load_config(ROOT / "config" / name)
    built = 0
    for experiment in config["experiments"].values():
        for spec in experiment["methods"].values():
            params = spec.get("params", {})
            if spec["estimator"] == "staged-cv" and params.get("method") == "cgens":
                params = params.get("params", {})
            elif spec["estimator"] != "cgens":
                continue
            model = CGEnsClassifier(**params)
            model._validate_params()
            model._learner_master(np.array([1.0, -1.0, 1.0, -1.0]))
            built += 1
    assert built > 0


def test_defaults_are_filled(smoke):
    config = validate_config(smoke)
    assert config["experiments"]["smoke-regression"]["seeds"] == [0]
    assert config["experiments"]["smoke-regression"]["preprocess"] == "standardize"
    assert config["reference_dir"] == "config/reference"


def test_typo_in_key_names_key_and_allowed_keys(smoke):
    smoke["experiments"]["smoke-regression"]["dataset"] = ["sk-diabetes"]
    with pytest.raises(ConfigError) as err:
        validate_config(smoke)
    text = str(err.value)
    assert "experiments/smoke-regression" in text
    assert "'dataset'" in text and "allowed keys here" in text and "datasets" in text


def test_wrong_type_names_path(smoke):
    smoke["experiments"]["smoke-regression"]["seeds"] = ["zero"]
    with pytest.raises(ConfigError, match=r"experiments/smoke-regression/seeds/0: 'zero' is not of type 'integer'"):
        validate_config(smoke)


def test_undefined_protocol_and_unknown_estimator(smoke):
    bad = copy.deepcopy(smoke)
    bad["experiments"]["smoke-regression"]["protocol"] = "cv99"
    bad["experiments"]["smoke-regression"]["methods"]["svr"]["estimator"] = "svmtorch"
    with pytest.raises(ConfigError) as err:
        validate_config(bad)
    text = str(err.value)
    defined = ", ".join(sorted(smoke["protocols"]))
    assert f"'cv99' is not defined under protocols (defined: {defined})" in text
    assert (
        "unknown method 'svmtorch'; known methods:" in text
        and "svr" in text
        and "import path 'package.module:Class'" in text
    )


def test_table_pointing_to_missing_experiment(smoke):
    smoke["tables"]["smoke-regression"]["experiment"] = "nope"
    with pytest.raises(ConfigError, match="tables/smoke-regression/experiment: 'nope' is not an experiment"):
        validate_config(smoke)


def test_table_over_several_experiments_needs_distinct_method_labels(smoke):
    """A table may summarise several experiments (e.g. one per l), but a method label in two of them
    would average their rows together: that is refused."""
    smoke["tables"]["smoke-both"] = {"experiment": ["smoke-regression", "smoke-mark"], "metrics": ["test_mse"]}
    validate_config(copy.deepcopy(smoke))  # distinct labels
    smoke["tables"]["smoke-both"]["experiment"] = ["smoke-regression", "smoke-regression"]
    with pytest.raises(ConfigError, match=r"tables/smoke-both/experiment: method 'svr' is in more than one"):
        validate_config(smoke)


def test_figure_drawing_an_unknown_method(smoke):
    smoke["figures"]["smoke-regression"]["methods"] = ["svr", "svrr"]
    with pytest.raises(
        ConfigError, match="figures/smoke-regression/methods: 'svrr' is not a method of 'smoke-regression'"
    ):
        validate_config(smoke)


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "absent.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("experiments: [unclosed")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)


def test_param_settings_expand_grid_in_sorted_key_order():
    spec = {"estimator": "svr", "params": {"search": "grid"}, "grid": {"nu": [1, 0.1], "C": [10]}}
    settings = param_settings(spec)
    assert list(settings) == ["C=10,nu=1", "C=10,nu=0.1"]
    assert settings["C=10,nu=0.1"] == {"search": "grid", "C": 10, "nu": 0.1}
    assert param_settings({"estimator": "svr"}) == {"default": {}}


@pytest.mark.parametrize(
    "spoil, message",
    [
        (
            lambda c: c["experiments"]["smoke-regression"]["methods"]["svr"]["params"].update(max_evalz=9),
            "at experiments/smoke-regression/methods/svr/params: method 'svr' has no parameter(s) max_evalz; "
            "valid parameters: epsilon, max_evals, min_improvement, min_step, n_jobs, param_grid, random_state, refit, "
            "scaling, search, validation_fraction",
        ),
        (
            lambda c: c["experiments"]["smoke-classification"]["methods"]["cgboost-qp"]["grid"].update(c=[1.0]),
            "at experiments/smoke-classification/methods/cgboost-qp/grid: method 'cgboost' has no parameter(s) c; "
            "valid parameters: C, callback,",
        ),
        (
            lambda c: c["experiments"]["smoke-cgens"]["methods"]["cgens"]["params"]["param_grid"].update(CC=[1.0]),
            "at experiments/smoke-cgens/methods/cgens/params/param_grid: method 'cgens' has no parameter(s) CC; "
            "valid parameters: C, fit_intercept, gamma,",
        ),
        (
            lambda c: c["experiments"]["smoke-cgens"]["methods"]["adaboost"]["params"]["params"].update(random_sate=0),
            "at experiments/smoke-cgens/methods/adaboost/params/params: method 'adaboost' has no parameter(s) "
            "random_sate; valid parameters: ",
        ),  # scikit-learn's AdaBoostClassifier: its list depends on the version
        (
            lambda c: c["experiments"]["smoke-cgens"]["methods"]["cgens"]["params"].update(n_iter=[5]),
            "at experiments/smoke-cgens/methods/cgens/params: method 'staged-cv' has no parameter(s) n_iter; "
            "valid parameters: cv, method, n_iters, n_jobs, param_grid, params, random_state, svc_bandwidth_grid",
        ),
        (
            lambda c: c["experiments"]["smoke-cgens"]["methods"]["cgens"]["params"].update(method="cgenz"),
            "at experiments/smoke-cgens/methods/cgens/params: unknown method 'cgenz'; known methods: adaboost,",
        ),
    ],
    ids=["params", "grid", "wrapped-grid", "wrapped-params", "wrapper", "wrapped-method"],
)
def test_unknown_method_parameter_names_it_where_it_is_and_the_valid_ones(smoke, spoil, message):
    spoil(smoke)
    with pytest.raises(ConfigError) as err:
        validate_config(smoke)
    assert message in str(err.value)


@pytest.mark.parametrize(
    "protocol, message",
    [
        (
            {"name": "kfold", "n_fold": 3},
            "at protocols/cv3: protocol 'kfold' has no parameter(s) n_fold; its parameters: n_folds, shuffle, stratify",
        ),
        ({"name": "kfold"}, "at protocols/cv3: protocol 'kfold' needs n_folds"),
        (
            {"name": "loo", "n_sample": 10},
            "at protocols/cv3: protocol 'loo' has no parameter(s) n_sample; its parameters: n_samples",
        ),
    ],
    ids=["typo", "missing", "planning-key"],
)
def test_unknown_or_missing_protocol_parameter_is_named(smoke, protocol, message):
    smoke["protocols"]["cv3"] = protocol
    with pytest.raises(ConfigError) as err:
        validate_config(smoke)
    assert message in str(err.value)


def test_protocols_taking_sizes_from_the_data_set_need_only_their_own(smoke):
    smoke["protocols"]["cv3"] = {"name": "raetsch", "n_repeats": 2}  # n_train, n_test: the IDA sizes
    validate_config(smoke)


def test_job_identity_changes_with_its_own_method_only(smoke):
    before = validate_config(copy.deepcopy(smoke))
    smoke["experiments"]["smoke-regression"]["methods"]["svr"]["params"]["max_evals"] = 9
    smoke["experiments"]["smoke-regression"]["title"] = "a new title"  # not part of any record
    after = validate_config(smoke)
    changed = {
        (job.method, job.split)
        for job in plan_jobs(before)
        if canonical_json(job_identity(before, job)) != canonical_json(job_identity(after, job))
    }
    assert changed == {("svr", 0), ("svr", 1), ("svr", 2)}
    job = next(job for job in plan_jobs(after) if job.method == "cgboost-qp" and job.param == "C=0.1")
    identity = job_identity(after, job)
    pinned = after["estimator_defaults"]["cgboost"]  # the papers' settings, under the method's own and its grid's
    assert identity["params"] == {
        **pinned,
        "kernels": "L,Q,R",
        "penalty": "l2",
        "positive": True,
        "max_iter": 30,
        "C": 0.1,
    }
    assert "grid" not in identity and identity["preprocess"] == "standardize"
    assert identity["protocol"] == {"name": "random", "test_size": 0.3, "n_repeats": 2, "stratify": True}
