import json

import pytest

import mkbench
from mkbench.harness.cli import main

from ..conftest import ROOT


def test_datasets_list_names_every_set_and_the_private_one(capsys):
    assert main(["datasets", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("mnist", "boston", "abalone", "banana", "ringnorm", "sk-diabetes"):
        assert f"\n{name} " in "\n" + out
    assert "hiv-qsar" in out and "data not public" in out


def test_unknown_dataset_is_an_error_listing_known_names(capsys):
    assert main(["datasets", "fetch", "bostn"]) == 2
    err = capsys.readouterr().err
    assert "unknown" in err and "'bostn'" in err and "boston" in err and "Traceback" not in err


def test_run_one_job_writes_one_record(tmp_path, capsys):
    out = tmp_path / "record.json"
    code = main(
        [
            "run",
            "--config",
            str(ROOT / "config" / "smoke.yaml"),
            "--experiment",
            "smoke-regression",
            "--method",
            "krr",
            "--dataset",
            "sk-diabetes",
            "--split",
            "2",
            "--out",
            str(out),
        ]
    )
    assert code == 0, capsys.readouterr().err
    record = json.loads(out.read_text())
    assert record["split"] == 2 and record["method"] == "krr" and record["test_mse"] > 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--experiment", "nope"], "unknown experiment 'nope'; known: smoke-regression, smoke-classification"),
        (["--experiment", "smoke-regression", "--method", "svc"], "unknown method label 'svc'; known: svr, krr"),
        (["--experiment", "smoke-regression", "--split", "7"], "--split 7 is out of range: the protocol has 3 splits"),
    ],
)
def test_run_errors_name_the_problem(args, message, capsys):
    base = {"--experiment": "smoke-regression", "--method": "svr", "--dataset": "sk-diabetes"}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        base[flag] = value
    argv = ["run", "--config", str(ROOT / "config" / "smoke.yaml")] + [x for kv in base.items() for x in kv]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_help_exits_cleanly(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "datasets" in capsys.readouterr().out


def test_version_and_the_datasets_command_alone(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.strip() == f"mkbench {mkbench.__version__}"
    assert main(["datasets"]) == 0
    assert main(["datasets", "list"]) == 0
    alone, listed = capsys.readouterr().out.split("abalone", 2)[1:]
    assert alone and alone == listed  # the same listing, not the help


def test_dir_shows_the_lazily_loaded_estimators():
    assert {"CGBoostClassifier", "MARKRegressor", "SelectedSVR"} <= set(dir(mkbench))


@pytest.mark.parametrize("what", ["experiments", "tables", "figures"])
def test_list_names_every_entry_of_the_config_with_its_title(what, capsys):
    from mkbench.harness.config import load_config

    config = load_config(ROOT / "config" / "smoke.yaml")
    assert main(["list", what, "--config", str(ROOT / "config" / "smoke.yaml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(config[what])
    assert all(len(line.split()) > 1 for line in lines)  # a title or caption beside each name
    for line, spec in zip(lines, config[what].values(), strict=True):  # whole words: the title, or cut before " …"
        shown, text = line.split(None, 1)[1], " ".join((spec.get("title") or spec.get("caption")).split())
        assert shown == text or (shown.endswith(" …") and (text + " ").startswith(shown[: -len("…")]))


def test_list_methods_and_datasets(capsys):
    from mkbench.harness.methods import METHODS

    assert main(["list", "methods"]) == 0
    methods = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in methods] == sorted(METHODS)
    assert "mkbench.estimators.CGBoostClassifier" in "\n".join(methods)
    assert main(["list", "datasets"]) == 0 and main(["datasets", "list"]) == 0
    listed, direct = capsys.readouterr().out.split("abalone", 2)[1:]
    assert listed == direct


def test_list_with_a_missing_config_is_one_error_line(capsys, tmp_path):
    assert main(["list", "tables", "--config", str(tmp_path / "none.yaml")]) == 2
    err = capsys.readouterr().err
    assert "none.yaml" in err and "does not exist" in err and "Traceback" not in err


def test_run_reads_the_data_folders_of_the_config(tmp_path, monkeypatch, capsys):
    """mkbench run looks where the workflow caches the data (the config's data: home:), unless told otherwise."""
    import mkbench.harness.datasets as datasets

    seen = []
    real = datasets.load
    monkeypatch.setattr(datasets, "load", lambda name, **kw: seen.append(kw) or real(name, **kw))
    config = tmp_path / "config.yaml"
    config.write_text(
        (ROOT / "config" / "smoke.yaml").read_text().replace("home: resources/data", f"home: {tmp_path / 'cache'}")
    )
    argv = [
        "run",
        "--config",
        str(config),
        "--experiment",
        "smoke-regression",
        "--method",
        "krr",
        "--dataset",
        "sk-diabetes",
        "--out",
        str(tmp_path / "r.json"),
    ]
    assert main(argv) == 0, capsys.readouterr().err
    assert main(argv + ["--data-home", str(tmp_path / "other")]) == 0
    assert [kw["data_home"] for kw in seen] == [str(tmp_path / "cache"), str(tmp_path / "other")]


def test_report_without_records_says_where_it_looked_and_creates_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--config", str(ROOT / "config" / "smoke.yaml")]) == 2
    err = capsys.readouterr().err
    assert f"no records for table 'smoke-regression' under {tmp_path / 'results' / 'runs' / 'smoke-regression'}" in err
    assert "snakemake --cores 8 results/tables/smoke-regression.md" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_one_registry_gives_the_package_its_estimators_and_the_workflow_its_methods():
    from mkbench._registry import METHODS
    from mkbench.harness.methods import method_class

    ours = {path.split(":")[1] for path in METHODS.values() if path.startswith("mkbench.")}
    assert set(mkbench.__all__) == ours | {"KernelColumnRidge"}
    for name in METHODS:
        cls = method_class(name)
        if cls.__module__.startswith("mkbench."):
            assert getattr(mkbench, cls.__name__) is cls
