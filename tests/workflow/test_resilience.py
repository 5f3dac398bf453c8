"""Resilience (issue 8, part 3): a killed workflow resumes, runs repeat exactly, a damaged cache
is fetched again, and a solver failure reaches the table. Ctrl-C says in one line that the same
command resumes the run, and a failing job still shows its error (issue 23).

The workflow tests run Snakemake on a copy of ``workflow/`` and ``config/`` in a temporary
folder (as tests/workflow/test_workflow.py does), never in the repository's ``results/``.
"""

import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

import mkbench.harness.experiment as experiment
from mkbench._io import atomic_open, write_json
from mkbench.exceptions import SolverError
from mkbench.harness.config import load_config, plan_jobs
from mkbench.harness.datasets import Dataset, load
from mkbench.harness.job_log import RESUME
from mkbench.harness.report import collect_records, write_table
from mkbench.harness.splits import load_split

from ..conftest import ROOT
from .test_workflow import SNAKEMAKE

#: Fields that measure time or name the machine: the only ones allowed to differ between runs.
TIMING = {"fit_seconds", "predict_seconds", "fit_cpu_seconds", "predict_cpu_seconds", "finished", "host"}
HISTORY_TIMING = {"seconds", "master_seconds", "pricing_seconds"}  # per column-generation iteration


def _smoke_subset(path, methods):
    """Write the smoke config restricted to ``methods`` ({experiment: [method, ...]}) and their tables."""
    config = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
    config["experiments"] = {
        name: {**config["experiments"][name], "methods": {m: config["experiments"][name]["methods"][m] for m in keep}}
        for name, keep in methods.items()
    }
    config["tables"] = {name: spec for name, spec in config["tables"].items() if spec["experiment"] in methods}
    config["figures"] = {}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return load_config(path)


def _tmp_files(folder):
    """Leftovers of interrupted writers (``atomic_open``'s ``.*.tmp``, the fetcher's ``.incoming``)."""
    return sorted(str(p) for p in Path(folder).rglob("*") if p.name.endswith((".tmp", ".incoming")))


# ------------------------------------------------------------------ a killed writer


_KILLED_WRITER = """
import os, signal, sys
from mkbench._io import atomic_open
with atomic_open(sys.argv[1]) as fh:
    fh.write('{"half": ')
    fh.flush()
    os.kill(os.getpid(), int(sys.argv[2]))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_writer_killed_mid_write_leaves_the_old_file_and_the_next_write_cleans_up(sig, tmp_path):
    target = tmp_path / "record.json"
    write_json(target, {"run": 1})
    other = tmp_path / ".record.json.verified.json.abc123de.tmp"  # another file's leftover: not ours to remove
    other.write_text("x")
    os.utime(other, ns=(0, 0))
    killed = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(target), str(int(sig))], timeout=60)
    assert killed.returncode == -sig
    assert json.loads(target.read_text()) == {"run": 1}  # never half-written
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".record.json.") and p != other]
    assert len(leftovers) == 1 and leftovers[0].endswith(".tmp")  # the kill left its temporary file
    time.sleep(0.05)  # a rerun starts more than one file-clock tick after the kill
    write_json(target, {"run": 2})
    assert json.loads(target.read_text()) == {"run": 2}
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name, "record.json"]


def test_a_failed_write_keeps_the_stale_files_of_others(tmp_path):
    target = tmp_path / "t.csv"
    stale = tmp_path / ".t.csv.zzzzzzzz.tmp"
    stale.write_text("left by a killed writer")
    os.utime(stale, ns=(0, 0))
    with pytest.raises(RuntimeError), atomic_open(target) as fh:
        fh.write("half")
        raise RuntimeError("fit failed")
    assert not target.exists() and stale.exists()  # only a successful write sweeps


# ------------------------------------------------------------------ kill the workflow, rerun it

#: Two experiments, two protocols (3-fold CV, stratified holdout), four methods, 10 fit jobs.
KILL_METHODS = {"smoke-regression": ["svr", "krr"], "smoke-classification": ["svc", "cgboost-lp"]}
#: Keys every record has; plus a test metric that depends on the task.
RECORD_KEYS = {
    "experiment",
    "method",
    "param",
    "dataset",
    "protocol",
    "seed",
    "split",
    "estimator",
    "task",
    "status",
    "fit_seconds",
    "predict_seconds",
    "fit_cpu_seconds",
    "predict_cpu_seconds",
    "n_train",
    "n_test",
    "versions",
    "host",
    "finished",
}


def workflow_copy(folder, methods):
    """Copy the workflow into ``folder`` with the smoke config restricted to ``methods`` as ``small.yaml``."""
    for item in ("workflow", "config"):
        shutil.copytree(ROOT / item, folder / item)
    shutil.copy(ROOT / "environment.yml", folder)  # the rules' conda: file, hashed into Snakemake's metadata
    _smoke_subset(folder / "small.yaml", methods)
    return folder


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A private working copy of the workflow with a small config, ``small.yaml``."""
    return workflow_copy(tmp_path_factory.mktemp("workflow-copy"), KILL_METHODS)


def _snakemake(workdir, *args):
    return subprocess.run(
        [SNAKEMAKE, "--cores", "2", "--configfile", "small.yaml", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _records(workdir):
    return sorted((workdir / "results" / "runs").rglob("*.json"))


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


#: Seconds a terminated workflow gets before the hard kill, like SLURM's KillWait. Snakemake's SIGTERM
#: handler takes the scheduler's (non-reentrant) lock, so a SIGTERM that lands while the scheduler holds
#: it never returns (snakemake 9.27, ``JobScheduler.exit_gracefully``); a batch system then kills it.
KILL_WAIT = 30


def _first_record(workdir):
    """The moment of a SIGTERM or a SIGKILL: the first fit record exists."""
    return bool(_records(workdir))


def _mid_fit(workdir):
    """The moment of a Ctrl-C: the first fit record exists, a fit job is running (its script has
    opened its log, not yet written its record), and no job is starting.

    A job that Ctrl-C stops before its script's first line (``log_to``) prints Python's own
    KeyboardInterrupt traceback: the few hundredths of a second in which Python and Snakemake's
    preamble start, before mkbench's code runs in the job, are out of the workflow's reach."""
    fit_logs = workdir / "results" / "logs" / "fit"
    output = (workdir / "killed-run.log").read_text()
    started = [workdir / path for path in re.findall(r"^    log: (\S+)$", output, flags=re.M)]
    running = [
        log
        for log in started
        if log.is_relative_to(fit_logs)
        and log.exists()
        and not (workdir / "results" / "runs" / log.relative_to(fit_logs)).with_suffix(".json").exists()
    ]
    return _first_record(workdir) and bool(running) and all(log.exists() for log in started)


def _run_and_kill(workdir, sig, ready=_first_record):
    """Start the workflow in its own process group, send ``sig`` to the group as soon as
    ``ready(workdir)``, and wait until every process of the group is gone; a group still alive after
    :data:`KILL_WAIT` seconds gets SIGKILL, as a batch system would send it. The workflow's output is in
    ``killed-run.log``. Returns the exit code and the number of records at the kill."""
    with open(workdir / "killed-run.log", "w") as log:
        # SIGINT at its default in the workflow, as in a terminal's foreground job, even when the tests
        # run in the background of a non-interactive shell, which starts them with SIGINT ignored.
        proc = subprocess.Popen(
            [SNAKEMAKE, "--cores", "2", "--configfile", "small.yaml"],
            cwd=workdir,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    try:
        deadline = time.monotonic() + 300
        while not ready(workdir):
            assert proc.poll() is None, f"no fit job ran: {(workdir / 'killed-run.log').read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"not {ready.__name__} after 300 s"
            time.sleep(0.05)
        os.killpg(proc.pid, sig)
        n_at_kill = len(_records(workdir))
        try:
            proc.wait(timeout=KILL_WAIT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
        deadline = time.monotonic() + 60
        while _group_alive(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        if proc.poll() is None or _group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, n_at_kill


def _check_record(path, job, workdir):
    """A record is complete JSON whose identifiers match its job."""
    record = json.loads(path.read_text())  # a truncated record raises here
    metric = "test_mse" if record.get("task") == "regression" else "test_error"
    missing = RECORD_KEYS - set(record)
    assert not missing and metric in record, f"{path.relative_to(workdir)} lacks {sorted(missing)}"
    assert (
        record["experiment"],
        record["method"],
        record["param"],
        record["dataset"],
        record["seed"],
        record["split"],
    ) == (job.experiment, job.method, job.param, job.dataset, job.seed, job.split)
    assert record["status"] in ("optimal", "max_iter") and math.isfinite(record[metric])


def _check_complete(workdir, jobs):
    """Every job's record is complete, every table counts every run, and nothing is left to redo."""
    records = {str(path.relative_to(workdir)): path for path in _records(workdir)}
    assert sorted(records) == sorted(jobs)
    for name, path in records.items():
        _check_record(path, jobs[name], workdir)
    assert _tmp_files(workdir / "results") == [] and _tmp_files(workdir / "resources") == []
    for table, keep in KILL_METHODS.items():
        md = (workdir / "results" / "tables" / f"{table}.md").read_text()
        assert all(f"| {method} " in md for method in keep)
        csv = pd.read_csv(workdir / "results" / "tables" / f"{table}.csv")
        test = csv[csv["metric"].isin(["test_mse", "test_error"])]
        n_splits = len({job.split for job in jobs.values() if job.experiment == table})
        assert sorted(test["method"]) == sorted(keep)
        assert (test["n"] == n_splits).all() and (test["n_failed"] == 0).all()  # every run counted, none lost
    assert "Nothing to be done" in _snakemake(workdir, "-n").stdout  # and nothing is left to redo


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_workflow_killed_during_fit_jobs_resumes_to_complete_records(sig, workdir):
    shutil.rmtree(workdir / "results", ignore_errors=True)  # every fit job runs (again); data and splits are kept
    jobs = {job.record_path: job for job in plan_jobs(load_config(workdir / "small.yaml"))}

    code, n_at_kill = _run_and_kill(workdir, sig)
    assert code != 0 and 0 < n_at_kill < len(jobs), f"the kill did not interrupt the fit jobs: {n_at_kill} records"
    for path in _records(workdir):  # right after the kill: whatever exists is a whole record
        json.loads(path.read_text())

    rerun = _snakemake(workdir)
    if rerun.returncode != 0:
        # A hard kill (sent, or escalated to after KILL_WAIT) leaves Snakemake's lock behind; its message
        # must name the way out.
        assert "--unlock" in rerun.stderr, rerun.stderr[-3000:]
        assert _snakemake(workdir, "--unlock").returncode == 0
        rerun = _snakemake(workdir)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    _check_complete(workdir, jobs)


#: What Snakemake says of a job, or of the run, that failed: none of it in a run that only Ctrl-C stopped.
FAILURE_WORDS = (
    "Error in rule",
    "RuleException",
    "CalledProcessError",
    "died with",
    "Traceback",
    "KeyboardInterrupt",
    "WorkflowError",
    "did not complete successfully",
)


@pytest.mark.slow
def test_ctrl_c_says_once_that_the_same_command_resumes_and_it_does(workdir):
    shutil.rmtree(workdir / "results", ignore_errors=True)
    jobs = {job.record_path: job for job in plan_jobs(load_config(workdir / "small.yaml"))}

    code, n_at_kill = _run_and_kill(workdir, signal.SIGINT, ready=_mid_fit)
    console = (workdir / "killed-run.log").read_text()
    assert code != 0 and 0 < n_at_kill < len(jobs), console[-3000:]
    stopped = [
        log
        for log in (workdir / "results" / "logs" / "fit").rglob("*.log")
        if log.read_text().splitlines()[-1:] == [RESUME]
    ]
    assert stopped, f"Ctrl-C stopped no fit job: {console[-3000:]}"  # or the test would show nothing
    assert console.count(RESUME) == 1, console[-3000:]
    assert not [word for word in FAILURE_WORDS if word in console], console[-3000:]  # nothing failed before it
    assert "Terminating processes on user request" in console[console.index(RESUME) :]  # Snakemake stopped as ever

    rerun = _snakemake(workdir)  # no lock left behind, no --unlock
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    _check_complete(workdir, jobs)


@pytest.mark.slow
def test_a_failing_job_still_shows_its_error(tmp_path):
    folder = workflow_copy(tmp_path, {"smoke-regression": ["krr"]})
    config = yaml.safe_load((folder / "small.yaml").read_text())
    # Accepted by the config's checks (a parameter the estimator has), refused by the estimator's fit.
    config["experiments"]["smoke-regression"]["methods"]["krr"]["params"]["max_evals"] = 0
    (folder / "small.yaml").write_text(yaml.safe_dump(config, sort_keys=False))

    result = _snakemake(folder)
    console = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Error in rule fit" in console
    assert (
        "error: InvalidParameterError: The 'max_evals' parameter of SelectedKernelRidge must be an int in "
        "the range [1, inf). Got 0 instead."
    ) in console
    assert RESUME not in console


# ------------------------------------------------------------------ the same config twice

_ONE_RUN = """
import sys
from pathlib import Path
from mkbench._io import write_json
from mkbench.harness.config import load_config, plan_jobs
from mkbench.harness.datasets import load
from mkbench.harness.experiment import protocol_splits, run_configured_job
from mkbench.harness.splits import load_split, save_split

config, out = load_config(sys.argv[1]), Path(sys.argv[2])
data = {}
for job in plan_jobs(config):
    if job.dataset not in data:
        data[job.dataset] = load(job.dataset)
    path = out / job.split_path
    if not path.exists():  # as the workflow's split rule, then its fit rule
        save_split(path, protocol_splits(config, job.protocol, data[job.dataset], job.seed)[job.split], {})
    split, _ = load_split(path)
    write_json(out / job.record_path, run_configured_job(config, job, data[job.dataset], split))
"""

#: Every split protocol of the smoke config (k-fold, stratified holdout, semi-supervised) and
#: methods that draw random numbers: pattern search, MARK's sampled centres, AdaBoost's CV.
SAME_METHODS = {
    "smoke-regression": ["svr"],
    "smoke-mark": ["mark-l", "mark-s"],
    "smoke-classification": ["svc", "cgboost-lp"],
    "smoke-ssmk": ["ssmk", "imk"],
    "smoke-cgens": ["adaboost"],
}


def _without_timing(record):
    out = {k: v for k, v in record.items() if k not in TIMING}
    if "history" in out:
        out["history"] = [{k: v for k, v in row.items() if k not in HISTORY_TIMING} for row in out["history"]]
    return out


def test_same_config_twice_gives_identical_splits_and_metrics(tmp_path):
    config = _smoke_subset(tmp_path / "same.yaml", SAME_METHODS)
    # Two fresh interpreters with different string hashing, so that no set or dict order can hide.
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", _ONE_RUN, str(tmp_path / "same.yaml"), str(tmp_path / f"run{i}")],
            env={**os.environ, "PYTHONHASHSEED": str(i + 1)},
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    for run in runs:
        _, err = run.communicate(timeout=300)
        assert run.returncode == 0, err[-3000:]
    jobs = plan_jobs(config)
    assert len({job.protocol for job in jobs}) == 3
    for job in jobs:
        (a, _), (b, _) = (load_split(tmp_path / f"run{i}" / job.split_path) for i in range(2))
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a), job.split_path
        first, second = (json.loads((tmp_path / f"run{i}" / job.record_path).read_text()) for i in range(2))
        assert first["status"] in ("optimal", "max_iter")
        assert _without_timing(first) == _without_timing(second), job.record_path
        # the timing fields do differ, so the comparison above is not between copies of one file
    assert any(
        json.loads((tmp_path / "run0" / job.record_path).read_text())["fit_seconds"]
        != json.loads((tmp_path / "run1" / job.record_path).read_text())["fit_seconds"]
        for job in jobs
    )


# ------------------------------------------------------------------ a damaged cache


@pytest.mark.mirror
def test_corrupted_cache_file_is_caught_by_checksum_and_fetched_again(mirror, tmp_path):
    # A real data set from a mirror folder of its own. The damage keeps the size and the
    # modification time (as a restore from backup, `touch -r` or bit rot would): only a
    # checksum can tell. tests/harness/test_fetch.py covers damage that changes the size.
    own_mirror = tmp_path / "mirror"
    (own_mirror / "uci" / "glass").mkdir(parents=True)
    shutil.copy(mirror / "uci" / "glass" / "glass.data", own_mirror / "uci" / "glass")
    home = tmp_path / "home"
    first = load("glass", mirror=own_mirror, data_home=home)
    cached = home / "uci" / "glass" / "glass.data"
    good = cached.read_bytes()
    time.sleep(0.05)  # the damage comes later than the install, by more than one file-clock tick
    stat = cached.stat()
    at = good.index(b",1.52101,") + 3  # glass.data's first line is "1,1.52101,13.64,..."
    cached.write_bytes(good[:at] + b"9" + good[at + 1 :])  # 1.52101 -> 1.92101: same size
    os.utime(cached, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.warns(UserWarning, match="failed verification; moved to .*glass.data.corrupt"):
        again = load("glass", mirror=own_mirror, data_home=home)
    assert cached.read_bytes() == good and (cached.parent / "glass.data.corrupt").exists()
    np.testing.assert_array_equal(again.X, first.X)
    np.testing.assert_array_equal(again.y, first.y)
    assert _tmp_files(home) == []


# ------------------------------------------------------------------ a solver failure in the table


class _FailsOnSmallC:
    """Stands in for an estimator whose solver fails: raises SolverError when C < 1, as
    tests/harness/test_experiment.py's fake does, else fits an exact scikit-learn SVR."""

    def __init__(self, C):
        from sklearn.svm import SVR

        self.C, self.model = C, SVR(C=C)

    def fit(self, X, y):
        if self.C < 1:
            raise SolverError("HiGHS returned status 'Time limit reached' on a 300 x 12 LP")
        self.model.fit(X, y)
        return self

    def predict(self, X):
        return self.model.predict(X)


@pytest.fixture(scope="module")
def diabetes():
    from sklearn.datasets import load_diabetes

    X, y = load_diabetes(return_X_y=True)
    return Dataset("sk-diabetes", X, y, [f"x{i}" for i in range(X.shape[1])], "regression", {})


def test_solver_failure_is_counted_in_the_table_never_averaged(diabetes, tmp_path, monkeypatch):
    # tests/harness/test_experiment.py checks the failed record; this follows it through the table.
    monkeypatch.setattr(experiment, "make_method", lambda name, params: _FailsOnSmallC(params["C"]))
    folds = np.array_split(np.random.default_rng(0).permutation(len(diabetes.y)), 3)
    paths = []
    for split, C in enumerate([10.0, 0.5, 10.0]):  # the second split fails
        train = np.sort(np.concatenate([f for i, f in enumerate(folds) if i != split]))
        record = experiment.run_job(
            diabetes,
            {"train": train, "test": np.sort(folds[split])},
            method="svr",
            estimator="svr",
            params={"C": C},
            ids={"experiment": "e", "split": split},
        )
        paths.append(tmp_path / f"split{split}.json")
        write_json(paths[-1], record)
    records = collect_records(paths)
    assert records["status"].tolist()[1].startswith("failed: HiGHS returned status 'Time limit reached'")
    table = write_table(records, ["test_mse"], tmp_path / "table", caption="c").set_index("metric")
    ok = records.loc[[0, 2], "test_mse"]
    assert table.loc["test_mse", "ours_mean"] == pytest.approx(ok.mean())  # the failure is no number
    assert table.loc["test_mse", "n"] == 2 and table.loc["test_mse", "n_failed"] == 1
    md = (tmp_path / "table.md").read_text().splitlines()
    header, row = ([cell.strip() for cell in line.strip("|").split("|")] for line in (md[2], md[4]))
    cells = dict(zip(header, row, strict=True))
    assert cells["runs"] == "2" and cells["failed"] == "1"


def test_non_optimal_status_is_counted_in_the_table(tmp_path):
    y = np.where(np.arange(120) % 2 == 0, 1, -1)
    X = np.random.default_rng(0).normal(size=(120, 4)) + 0.5 * y[:, None]
    data = Dataset("toy", X, y, [f"x{i}" for i in range(4)], "binary", {})
    split = {"train": np.arange(80), "test": np.arange(80, 120)}
    paths = []
    for i, max_iter in enumerate([2, 200]):  # two columns cannot be optimal on 80 noisy points
        record = experiment.run_job(
            data,
            split,
            method="cg",
            estimator="cgboost",
            ids={"split": i},
            params={"kernels": "L,R", "penalty": "l1", "C": 1.0, "max_iter": max_iter},
        )
        paths.append(tmp_path / f"r{i}.json")
        write_json(paths[-1], record)
    records = collect_records(paths)
    assert records["status"].tolist() == ["max_iter", "optimal"]
    table = write_table(records, ["test_error"], tmp_path / "table", caption="c").set_index("metric")
    assert table.loc["test_error", "n_not_optimal"] == 1
    assert "not optimal" in (tmp_path / "table.md").read_text()
    # a table whose protocol ends its runs at the iteration count accepts that status, and says how many
    accepted = write_table(records, ["test_error"], tmp_path / "accepted", caption="c", accept_status=["max_iter"])
    assert accepted.set_index("metric").loc["test_error", "n_not_optimal"] == 0
    text = (tmp_path / "accepted.md").read_text()
    assert "Not optimal runs" not in text
    assert "a status the protocol accepts (not counted as not optimal): max_iter in 1 of 2." in text
