"""Bad input (issue 8, part 4): every registered estimator and the command line refuse it
with an error that names the problem, and the command line leaves nothing half-written.

Estimators: each case runs over every method of :data:`mkbench.harness.methods.METHODS` (except
scikit-learn's own AdaBoostClassifier) on 30 points with a few iterations, and checks the
exception type and the message. String class labels must work as in scikit-learn: the
predictions equal those of the same fit on integer labels, mapped to the strings.

Command line and config: ``mkbench.harness.cli.main`` runs in a temporary working folder, and each
failure must exit with status 2, print one message without a traceback, and leave no file
behind besides the inputs (no record, no table, no ``*.tmp``).

Already tested elsewhere, not repeated here: ``datasets fetch`` of an unknown name and an
unknown ``--experiment``/``--method`` label/``--split`` (tests/harness/test_cli.py); a typo in an
experiment key, a wrong type, an undefined protocol, an unknown estimator name, a missing
or malformed config file (tests/harness/test_config.py, at the ``validate_config`` level); a missing
reference file, a reference without the table (tests/harness/test_report.py, ``load_reference``);
a mirror that is not a folder or lacks the file, corrupt and truncated copies
(tests/harness/test_fetch.py, ``obtain``); an unknown method name or parameter in
``make_method`` (tests/harness/test_experiment.py).
"""

import builtins
import copy
import json
import os
import re
import shutil
import urllib.error
from pathlib import Path

import numpy as np
import pytest
import yaml
from numpy.testing import assert_array_equal
from sklearn.base import is_classifier

import mkbench._io
import mkbench.harness.datasets._fetch
from mkbench.exceptions import UnknownNameError
from mkbench.harness.cli import main
from mkbench.harness.methods import METHODS, make_method

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

# ---------------------------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------------------------

# Every registered method, with parameters small enough for 30 points and a fast test.
SMALL = {
    "cgboost": {"max_iter": 5},
    "cgboost-regressor": {"max_iter": 5},
    "mark": {"max_iter": 5, "random_state": 0},
    "ssmk": {"max_iter": 5},
    "silp": {"max_iter": 5},
    "simplemkl": {"max_iter": 5},
    "cgens": {"max_iter": 5, "random_state": 0},
    "cgens-sls": {"max_iter": 5, "random_state": 0},
    "lpboost": {"max_iter": 5, "random_state": 0},
    "column-generation": {"columns": "stump", "max_iter": 5},
    "adaboost-mh": {"n_estimators": 5},
    "adaboost-ecc": {"n_estimators": 5, "random_state": 0},
    "adaboost-learners": {"n_estimators": 5, "n_candidates": 20, "random_state": 0},
    "svm-ensemble-kernel": {},
    "svc": {"max_evals": 3, "random_state": 0},
    "svr": {"max_evals": 3, "random_state": 0},
    "krr": {"max_evals": 3, "random_state": 0},
    "krr-eq8": {"max_evals": 3, "random_state": 0},
    "rff": {"n_components": 20, "random_state": 0},
    "staged-cv": {"method": "cgens", "params": {"max_iter": 5, "random_state": 0}, "n_iters": [2, 5], "cv": 2},
}
MULTICLASS = {
    "column-generation",
    "cgens-sls",
    "adaboost-mh",
    "adaboost-ecc",
    "svm-ensemble-kernel",
    "svc",
    "rff",
    "cgboost",
    "silp",
    "simplemkl",
}  # the other classifiers are binary
NOT_OURS = {"adaboost", "svc-rbf"}  # scikit-learn's AdaBoostClassifier and SVC, tested by scikit-learn

_rng = np.random.RandomState(0)
X = _rng.normal(size=(30, 3))
Y_CLASS = (X[:, 0] + 0.3 * _rng.normal(size=30) > 0).astype(int)
Y_REG = X @ np.array([1.0, -1.0, 0.5]) + 0.1 * _rng.normal(size=30)


def make(name, **params):
    return make_method(name, {**SMALL[name], **params})


def target(name):
    return Y_CLASS if is_classifier(make(name)) else Y_REG


CLASSIFIERS = [name for name in SMALL if is_classifier(make(name))]
REGRESSORS = [name for name in SMALL if name not in CLASSIFIERS]


def test_every_registered_method_is_covered():
    assert set(SMALL) == set(METHODS) - NOT_OURS


@pytest.fixture(scope="module")
def fitted():
    return {name: make(name).fit(X, target(name)) for name in SMALL}


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize(
    "where, value, message",
    [
        ("X", np.nan, "Input X contains NaN"),
        ("X", np.inf, "Input X contains infinity"),
        ("y", np.nan, "Input y contains NaN"),
        ("y", -np.inf, "Input y contains infinity"),
    ],
)
def test_nan_or_inf_is_refused(name, where, value, message):
    Xb, yb = X.copy(), target(name).astype(np.float64)
    if where == "X":
        Xb[3, 1] = value
    else:
        yb[3] = value
    with pytest.raises(ValueError, match=message):
        make(name).fit(Xb, yb)


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize(
    "shape_X, shape_y, message",
    [
        ((30,), (30,), "Expected 2D array, got 1D array instead"),
        ((30, 3, 1), (30,), "Found array with dim 3"),
        ((30, 3), (30, 2), r"y should be a 1d array, got an array of shape \(30, 2\)"),
    ],
)
def test_wrong_number_of_dimensions_is_refused(name, shape_X, shape_y, message):
    Xb = X[:, 0] if len(shape_X) == 1 else X.reshape(shape_X)
    y = target(name)
    yb = np.c_[y, y] if len(shape_y) == 2 else y
    with pytest.raises(ValueError, match=message):
        make(name).fit(Xb, yb)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_one_class_only_is_refused(name):
    # CG-Boost, SSMK, MKL, CGEns, LPBoost, AdaBoost over learners: "y has only one class ('only'): a
    # classifier needs two classes"; AdaBoost.MH, CGEns-SLS: "got 1 class: ['only']"; the SVMs
    # (scikit-learn's message): "got 1 class".
    with pytest.raises(ValueError, match=r"\b1 class|only one class \('only'\)"):
        make(name).fit(X, np.full(30, "only"))


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_string_labels_work_like_integer_labels(name):
    labels = np.array(["no", "yes"])  # sorted like 0, 1: the same class is positive
    on_ints = make(name).fit(X, Y_CLASS)
    on_strings = make(name).fit(X, labels[Y_CLASS])
    assert_array_equal(on_strings.classes_, labels)
    predicted = on_strings.predict(X)
    assert predicted.dtype.kind == "U"
    assert_array_equal(predicted, labels[on_ints.predict(X)])
    assert set(predicted) == set(labels)  # both classes predicted: the mapping is really exercised


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_three_string_classes_work_or_are_refused_as_multiclass(name):
    labels = np.array(["ant", "bee", "cat"])
    y = labels[np.digitize(X[:, 0], [-0.4, 0.4])]
    model = make(name)
    if name != "staged-cv":  # StagedSearchCV's tag does not follow its method's (here binary CGEns)
        assert model.__sklearn_tags__().classifier_tags.multi_class == (name in MULTICLASS)
    if name in MULTICLASS:
        assert_array_equal(model.fit(X, y).classes_, labels)
        assert set(model.predict(X)) <= set(labels)
    else:
        with pytest.raises(ValueError, match=r"binary.*3 classes \['ant', 'bee', 'cat'\]"):
            model.fit(X, y)


# What a binary method's refusal of more classes offers instead (issue 42): an estimator of the package, or
# scikit-learn's one-vs-rest wrapper around it.
ALTERNATIVES = {
    "ssmk": r"OneVsRestClassifier\(SSMKClassifier\(\)\), or use CGBoostClassifier",
    "cgens": "use CGEnsSLSClassifier",
    "lpboost": "use CGEnsSLSClassifier",
    "staged-cv": "use CGEnsSLSClassifier",  # its method here is CGEns
    "adaboost-learners": "use AdaBoostMHClassifier",
}


def test_every_binary_method_names_an_alternative():
    assert set(ALTERNATIVES) == set(CLASSIFIERS) - MULTICLASS


@pytest.mark.parametrize("name", sorted(ALTERNATIVES))
def test_ten_classes_are_refused_at_once_with_the_alternative(name):
    y = np.arange(30) % 10
    with pytest.raises(ValueError, match=rf"Only binary classification is supported.*10 classes.*{ALTERNATIVES[name]}"):
        make(name).fit(X, y)


def test_staged_search_refuses_ten_classes_before_its_bandwidth_search(monkeypatch):
    def searched(*args, **kwargs):
        raise AssertionError("the RBF SVM was cross-validated before the binary method refused 10 classes")

    monkeypatch.setattr("mkbench.estimators.staged_search.StagedSearchCV._svc_search", searched)
    search = make("staged-cv", svc_bandwidth_grid={"C": [1.0], "gamma": [0.1, 1.0]})
    with pytest.raises(ValueError, match="10 classes.*use CGEnsSLSClassifier"):
        search.fit(X, np.arange(30) % 10)


# The unclear errors a battery of bad and edge inputs (every public estimator at its defaults) found, each now
# naming the problem and the fix (issue 42); before, in order: "HiGHS could not add 2 columns to the master LP",
# "TypeError: unhashable type: 'dict'", "columns contain NaN or infinite values", "TypeError: ufunc 'isfinite'
# not supported for the input types", and scikit-learn's "Cannot clone object ''cgens''".
STANDARDISE = r"standardise X, e.g. with sklearn\.preprocessing\.StandardScaler"
UNCLEAR = [
    (
        "ssmk",
        {},
        1e150,
        rf"columns have entries up to \d\.\d+e\+300, beyond the 1e\+15 HiGHS accepts in an LP.*{STANDARDISE}",
    ),
    (
        "svm-ensemble-kernel",
        {"kernel": {"name": "stump", "gama": 1.0}},
        1.0,
        r"kernel=\{'name': 'stump', 'gama': 1\.0\} is not one of 'stump', 'perceptron'; pass the name alone",
    ),
    (
        "mark",
        {},
        1e300,
        rf"columns contain NaN or infinite values \(column 0 of 1\): a kernel overflows.*{STANDARDISE}",
    ),
    (
        "cgens",
        {"C": "1"},
        1.0,
        r"The 'C' parameter of CGEnsClassifier must be a float in the range \(0\.0, inf\)\. "
        r"Got '1'",
    ),
    (
        "staged-cv",
        {"method": {"name": "cgens"}},
        1.0,
        r"method must be an estimator \(e\.g\. CGEnsClassifier\('fourier'\)\) or a registered method name",
    ),
]


@pytest.mark.parametrize("name, params, scale, message", UNCLEAR, ids=[case[0] for case in UNCLEAR])
def test_the_battery_s_unclear_errors_name_the_problem_and_the_fix(name, params, scale, message):
    model = make_method(name, {})  # the estimator itself: the workflow's config checks its parameters before
    with pytest.raises(ValueError, match=message):
        model.set_params(**{**SMALL[name], **params}).fit(X * scale, target(name))


@pytest.mark.parametrize(
    "name, params", [("adaboost-learners", {"learner": "perceptron"}), ("cgens", {"learner": "perceptron"})]
)
@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_perceptrons_fit_inputs_whose_squares_leave_floating_point(name, params, scale):
    # Before: OverflowError "Range exceeds valid bounds" (R = max ||x_i|| was inf). Perceptrons are invariant to
    # the inputs' scale, so the same draws give the same predictions.
    on_X = make(name, **params).fit(X, Y_CLASS)
    scaled = make(name, **params).fit(X * scale, Y_CLASS)
    assert_array_equal(scaled.predict(X * scale), on_X.predict(X))


@pytest.mark.parametrize("name", REGRESSORS)
def test_string_targets_are_refused_by_regressors(name):
    # "could not convert string to float: 'yes'" (CG-Boost, MARK, as scikit-learn's Ridge);
    # "dtype='numeric' is not compatible with arrays of bytes/strings" (the SVR/KRR baselines)
    with pytest.raises(ValueError, match="string"):
        make(name).fit(X, np.where(Y_REG > 0, "yes", "no"))


@pytest.mark.parametrize("name", SMALL)
def test_mismatched_lengths_are_refused(name):
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[30, 29\]"):
        make(name).fit(X, target(name)[:-1])


def _with_C(name, C):
    """The parameters that set the slack weight C of ``name`` (None if it has none)."""
    if name == "staged-cv":
        return {"params": {**SMALL[name]["params"], "C": C}}
    if name in ("svc", "svr", "krr-eq8"):  # C is searched: a grid of one bad value
        return {"search": "grid", "param_grid": {"C": [C]}}
    return {"C": C} if "C" in make(name).get_params() else None


WITH_C = [name for name in SMALL if _with_C(name, 1.0) is not None]


def test_methods_without_C():
    # KRR is regularised by alpha (0 allowed), the AdaBoosts by their number of rounds
    assert set(SMALL) - set(WITH_C) == {"krr", "adaboost-mh", "adaboost-ecc", "adaboost-learners"}


@pytest.mark.parametrize("name", WITH_C)
@pytest.mark.parametrize("C", [0, -1.0])
def test_zero_or_negative_C_is_refused(name, C):
    # "C must be a finite number > 0, got 0"; scikit-learn's "The 'C' parameter of SVC must
    # be a float in the range (0.0, inf]. Got 0 instead."
    with pytest.raises(ValueError, match=rf"(?i)\bC\b.*(> 0|\(0\.0, inf).*got {re.escape(repr(C))}\b"):
        make(name, **_with_C(name, C)).fit(X, target(name))


KNOWN_KERNELS = "known kernels: linear, poly, quadratic, rbf"
LEARNERS = r"parameter of \w+ must be a str among \{('(stump|perceptron|fourier)'(, )?){3}\}. Got 'tree' instead"
BAD_NAMES = [
    ("cgboost", {"kernels": "L,gaussian"}, UnknownNameError, f"unknown kernel 'gaussian'; {KNOWN_KERNELS}"),
    ("cgboost-regressor", {"kernels": ["linear", "gaussian"]}, UnknownNameError, "unknown kernel 'gaussian'"),
    ("ssmk", {"kernels": "gaussian"}, UnknownNameError, f"unknown kernel 'gaussian'; {KNOWN_KERNELS}"),
    ("silp", {"kernels": ["rbf", "gaussian"]}, UnknownNameError, f"unknown kernel 'gaussian'; {KNOWN_KERNELS}"),
    (
        "simplemkl",
        {"kernels": {"grid": "gaussian"}},
        UnknownNameError,
        "unknown kernel grid 'gaussian'; known grids: 'simplemkl'",
    ),
    (
        "mark",
        {"kernel": "gaussian"},
        ValueError,
        r"'kernel' parameter of MARKRegressor must be a str among .*'weak_rbf'.*Got 'gaussian'",
    ),
    ("cgens", {"learner": "tree"}, ValueError, f"The 'learner' {LEARNERS}"),
    ("cgens-sls", {"learner": "tree"}, ValueError, f"The 'learner' {LEARNERS}"),
    ("lpboost", {"learner": "tree"}, ValueError, f"The 'learner' {LEARNERS}"),
    (
        "column-generation",
        {"columns": "tree"},
        UnknownNameError,
        f"unknown kernel 'tree'; {KNOWN_KERNELS}.*; or a weak-learner family: 'stump', 'perceptron', 'fourier'",
    ),
    (
        "adaboost-learners",
        {"learner": "tree"},
        ValueError,
        r"The 'learner' parameter of LearnerAdaBoostClassifier must be a str among .*perceptron.*Got 'tree'",
    ),
    (
        "svm-ensemble-kernel",
        {"kernel": "tree"},
        ValueError,
        r"'kernel' parameter of InfiniteEnsembleSVC must be a str among .*Got 'tree'",
    ),
    ("staged-cv", {"method": "tree"}, UnknownNameError, "unknown method 'tree'; known methods: adaboost"),
]


def test_every_name_parameter_is_covered():
    named = {n for n in SMALL if {"kernel", "kernels", "learner", "method", "columns"} & set(make(n).get_params())}
    assert named == {case[0] for case in BAD_NAMES}


@pytest.mark.parametrize("name, params, error, message", BAD_NAMES)
def test_unknown_kernel_or_learner_name_is_refused(name, params, error, message):
    with pytest.raises(error, match=message):
        make(name, **params).fit(X, target(name))


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize(
    "shape, message",
    [((0, 3), r"0 sample\(s\) \(shape=\(0, 3\)\)"), ((30, 0), r"0 feature\(s\) \(shape=\(30, 0\)\)")],
)
def test_empty_input_is_refused(name, shape, message):
    with pytest.raises(ValueError, match=message):
        make(name).fit(np.empty(shape), target(name)[: shape[0]])


def _predictors(model):
    return [getattr(model, m) for m in ("predict", "decision_function") if hasattr(model, m)]


@pytest.mark.parametrize("name", SMALL)
def test_predict_with_the_wrong_number_of_features_is_refused(name, fitted):
    for predict in _predictors(fitted[name]):
        with pytest.raises(ValueError, match=r"X has 2 features, but \w+ is expecting 3 features as input"):
            predict(X[:, :2])


@pytest.mark.parametrize("name", SMALL)
def test_predict_on_nan_or_empty_input_is_refused(name, fitted):
    for predict in _predictors(fitted[name]):
        with_nan = X[:4].copy()
        with_nan[1, 2] = np.nan
        with pytest.raises(ValueError, match="Input X contains NaN"):
            predict(with_nan)
        with pytest.raises(ValueError, match=r"0 sample\(s\)"):
            predict(np.empty((0, 3)))


# ---------------------------------------------------------------------------------------------
# Command line and config
# ---------------------------------------------------------------------------------------------

KRR = {"search": "grid", "param_grid": {"alpha": [1.0], "gamma": [0.1]}}
RUN = ["run", "--config", "config.yaml", "--experiment", "tiny", "--method", "krr", "--dataset", "sk-diabetes"]
RECORD = "results/runs/tiny/sk-diabetes/krr/default/seed0-split0.json"


def _config(datasets=("sk-diabetes",)):
    return {
        "protocols": {"cv3": {"name": "kfold", "n_folds": 3}},
        "experiments": {
            "tiny": {
                "datasets": list(datasets),
                "protocol": "cv3",
                "methods": {"krr": {"estimator": "krr", "params": copy.deepcopy(KRR)}},
            }
        },
        "tables": {"tiny": {"experiment": "tiny", "caption": "tiny", "metrics": ["test_mse"]}},
    }


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """An empty working folder, with a small valid config.yaml to be spoilt by the test."""
    monkeypatch.chdir(tmp_path)
    _write_config(_config())
    return tmp_path


def _write_config(config):
    Path("config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))


def _files(root):
    """Every file under ``root``, relative, sorted (temporary and hidden files included)."""
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*") if not p.is_dir())


def _fails(argv, capsys, *messages):
    """Run the command line; it must exit 2 and print every one of ``messages``, no traceback."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    for message in messages:
        assert message in err
    assert err.startswith("mkbench: error: ") and "Traceback" not in err
    return err


def _typo_at_top_level(config):
    config["experiment"] = config.pop("experiments")


@pytest.mark.parametrize(
    "spoil, messages",
    [
        (
            lambda c: c["experiments"]["tiny"].update(datasets=["sk-diabetes", "bostn"]),
            ["at experiments/tiny/datasets: unknown data set 'bostn'; known: abalone, banana, boston,"],
        ),
        (
            lambda c: c["experiments"]["tiny"]["methods"]["krr"].update(estimator="kr"),
            ["at experiments/tiny/methods/krr/estimator: unknown method 'kr'; known methods: ", "krr"],
        ),
        (
            lambda c: c["experiments"]["tiny"]["methods"]["krr"].update(parms={}),
            [
                "at experiments/tiny/methods/krr: Additional properties are not allowed ('parms' was unexpected); "
                "allowed keys here: added, count_features, estimator,",
                "params",
            ],
        ),
        (
            _typo_at_top_level,
            [
                "at (top level): 'experiments' is a required property",
                "('experiment' was unexpected); allowed keys here: data, datasets, estimator_defaults, experiments,",
            ],
        ),
        (
            lambda c: c["experiments"]["tiny"]["methods"]["krr"]["params"].update(max_eval=3),
            [
                "at experiments/tiny/methods/krr/params: method 'krr' has no parameter(s) max_eval; "
                "valid parameters: max_evals,"
            ],
        ),
        (
            lambda c: c["experiments"]["tiny"]["methods"].update(
                cgb={
                    "estimator": "cgboost",
                    "params": {"kernels": ["linear", {"name": "rbf", "denominator": "2 sigma^2"}]},
                }
            ),
            [
                "at experiments/tiny/methods/cgb/params/kernels: denominator must be one of 'sigma', 'sigma^2', '2sigma^2'"
            ],
        ),
        (
            lambda c: c["experiments"]["tiny"]["methods"].update(
                cgb={"estimator": "cgboost", "grid": {"kernels": ["L,Q", "L,gaussian"], "C": [1.0]}}
            ),
            ["at experiments/tiny/methods/cgb/grid/kernels: unknown kernel 'gaussian'"],
        ),
        (
            lambda c: c["experiments"]["tiny"]["methods"].update(
                ssmk={
                    "estimator": "staged-cv",
                    "params": {"method": "ssmk", "params": {"kernels": {"name": "R", "width": 2}}},
                }
            ),
            [
                "at experiments/tiny/methods/ssmk/params/params/kernels: kernel 'rbf' does not accept parameters {'width': 2}"
            ],
        ),
    ],
    ids=[
        "unknown-dataset",
        "unknown-method",
        "typo-in-method-key",
        "typo-in-top-level-key",
        "typo-in-param",
        "bad-kernel-param",
        "bad-kernel-in-grid",
        "bad-kernel-in-wrapped-method",
    ],
)
def test_config_mistakes_stop_run_and_report_before_anything_is_written(workdir, capsys, spoil, messages):
    config = _config()
    spoil(config)
    _write_config(config)
    _fails(RUN, capsys, *messages)
    _fails(["report", "--config", "config.yaml"], capsys, *messages)  # every mistake is found when the config is read
    assert _files(workdir) == ["config.yaml"]


def test_unknown_dataset_on_the_command_line(workdir, capsys):
    argv = [a if a != "sk-diabetes" else "bostn" for a in RUN]
    _fails(argv, capsys, "unknown data set of the experiment 'bostn'; known: sk-diabetes")
    assert _files(workdir) == ["config.yaml"]


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """One real record of the tiny config (KRR on diabetes, fold 0), for the report tests."""
    folder = tmp_path_factory.mktemp("record")
    (folder / "config.yaml").write_text(yaml.safe_dump(_config(), sort_keys=False))
    out = folder / "record.json"
    assert main([a if a != "config.yaml" else str(folder / "config.yaml") for a in RUN] + ["--out", str(out)]) == 0
    assert json.loads(out.read_text())["test_mse"] > 0
    return out


def _with_record(record):
    Path(RECORD).parent.mkdir(parents=True)
    shutil.copy(record, RECORD)


def test_missing_reference_file_stops_report_before_any_table_is_written(workdir, record, capsys):
    config = _config()
    config["tables"]["second"] = {
        "experiment": "tiny",
        "caption": "with the paper",
        "metrics": ["test_mse"],
        "reference": {"file": "nope.csv", "table": "Table 2"},
    }
    _write_config(config)
    _with_record(record)
    _fails(
        ["report", "--config", "config.yaml"],
        capsys,
        "reference file 'config/reference/nope.csv' does not exist; published numbers go in config/reference/",
    )
    assert _files(workdir) == ["config.yaml", RECORD]  # not even the first table, which could be made
    assert main(["report", "--config", "config.yaml", "--table", "tiny"]) == 0  # the table on its own is fine
    tables = ["results/tables/tiny.csv", "results/tables/tiny.html", "results/tables/tiny.md"]
    assert _files(workdir) == ["config.yaml", RECORD, *tables]


def test_a_table_over_two_experiments_reads_the_records_of_both(workdir, record, capsys):
    config = _config()
    tiny = config["experiments"]["tiny"]
    config["experiments"]["tiny-too"] = {**tiny, "methods": {"krr-too": tiny["methods"]["krr"]}}  # labels differ
    config["tables"]["both"] = {"experiment": ["tiny", "tiny-too"], "caption": "two", "metrics": ["test_mse"]}
    _write_config(config)
    _with_record(record)
    second = Path(RECORD.replace("runs/tiny/", "runs/tiny-too/").replace("/krr/", "/krr-too/"))
    second.parent.mkdir(parents=True)
    second.write_text(json.dumps({**json.loads(record.read_text()), "experiment": "tiny-too", "method": "krr-too"}))
    assert main(["report", "--config", "config.yaml", "--table", "both"]) == 0
    text = Path("results/tables/both.md").read_text()
    assert "| krr " in text and "| krr-too " in text


def _sonar_config(mirror):
    config = _config(datasets=["sonar"])
    config["data"] = {"mirror": str(mirror)}
    return config


@pytest.mark.parametrize("kind", ["missing", "a-file"])
def test_a_mirror_that_is_not_a_folder_is_named(workdir, capsys, monkeypatch, kind):
    mirror = workdir / "mirror"
    if kind == "a-file":
        mirror.write_text("not a folder")
    home = workdir / "home"
    message = f"data mirror '{mirror}' is not a folder; set MKBENCH_DATA_MIRROR=/path/to/mirror, or pass --mirror"
    _fails(["datasets", "fetch", "sonar", "--mirror", str(mirror), "--data-home", str(home)], capsys, message)
    monkeypatch.setenv("MKBENCH_DATA_MIRROR", str(mirror))
    _fails(["datasets", "fetch", "sonar", "--data-home", str(home)], capsys, message)
    monkeypatch.delenv("MKBENCH_DATA_MIRROR")
    _write_config(_sonar_config(mirror))  # `data: mirror:` of the config, used by `mkbench run`
    _fails([a if a != "sk-diabetes" else "sonar" for a in RUN] + ["--data-home", str(home)], capsys, message)
    assert _files(workdir) == ["config.yaml"] + (["mirror"] if kind == "a-file" else [])


def test_an_unreadable_mirror_file_is_named_and_nothing_is_cached(workdir, capsys, monkeypatch):
    # Tests run as root, whom chmod does not stop: opening the mirror copy is made to fail instead.
    mirror, home = workdir / "mirror", workdir / "home"
    unreadable = mirror / "uci" / "sonar" / "sonar.all-data"
    unreadable.parent.mkdir(parents=True)
    unreadable.write_text("0.02,0.03,R\n")

    def open_(path, *args, **kwargs):
        if Path(path).is_relative_to(mirror):
            raise PermissionError(13, "Permission denied", str(path))
        return builtins.open(path, *args, **kwargs)

    def no_network(*args, **kwargs):
        raise urllib.error.URLError("network disabled in this test")

    monkeypatch.setattr(mkbench.harness.datasets._fetch, "open", open_, raising=False)
    monkeypatch.setattr(mkbench.harness.datasets._fetch.urllib.request, "urlopen", no_network)
    _fails(
        ["datasets", "fetch", "sonar", "--mirror", str(mirror), "--data-home", str(home)],
        capsys,
        f"cannot obtain uci/sonar/sonar.all-data: reading the mirror copy {unreadable} failed "
        f"([Errno 13] Permission denied: '{unreadable}')",
        "download of https://",
        "network disabled in this test",
    )
    assert _files(workdir) == ["config.yaml", "mirror/uci/sonar/sonar.all-data"]  # home holds nothing


@pytest.fixture
def no_fit(monkeypatch):
    """Fail the test if a job is fitted: an unwritable output must be found before the fit."""

    def fit(*args, **kwargs):
        raise AssertionError("the job was fitted although its record cannot be written")

    monkeypatch.setattr("mkbench.harness.experiment.run_configured_job", fit)


@pytest.mark.parametrize("blocked", ["results", "out"])
def test_unwritable_results_folder_fails_before_the_fit(workdir, capsys, no_fit, blocked):
    # As root a read-only folder is still writable: a regular file where a folder must be stands in.
    Path(blocked).write_text("a file, not a folder")
    argv = RUN if blocked == "results" else RUN + ["--out", "out/record.json"]
    folder = os.path.dirname(RECORD) if blocked == "results" else "out"
    _fails(argv, capsys, f"cannot write '{folder}': [Errno ", "make it writable or write elsewhere")
    assert _files(workdir) == sorted(["config.yaml", blocked])


def test_unwritable_tables_folder_stops_report(workdir, record, capsys):
    _with_record(record)
    Path("results/tables").write_text("a file, not a folder")
    _fails(["report", "--config", "config.yaml"], capsys, "cannot write 'results/tables': [Errno ")
    assert _files(workdir) == ["config.yaml", RECORD, "results/tables"]


def test_a_write_refused_midway_leaves_no_partial_file(workdir, capsys, monkeypatch):
    # A folder that accepts the temporary file but refuses the final rename (e.g. made read-only
    # during the fit): the command names the record, and no record nor *.tmp file is left.
    rename = os.replace

    def refuse(src, dst):
        if str(dst) == RECORD:
            raise PermissionError(13, "Permission denied", str(dst))
        rename(src, dst)

    monkeypatch.setattr(mkbench._io.os, "replace", refuse)
    _fails(RUN, capsys, f"cannot write '{RECORD}': [Errno 13] Permission denied: '{RECORD}'")
    assert _files(workdir) == ["config.yaml"]
