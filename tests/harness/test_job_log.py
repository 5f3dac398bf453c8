"""A job's log ends with its one-line cause, which is also all the console shows; Ctrl-C says once how to resume."""

import signal
import subprocess
import sys

import pytest

from mkbench.harness.job_log import RESUME

SCRIPT = """
from mkbench.harness.job_log import log_to
log_to({log!r})
import sys
print("working", file=sys.stderr)
def deep():
    raise {error}
deep()
"""


@pytest.mark.parametrize(
    ("error", "last"),
    [
        (
            "FileNotFoundError('no mirror file uci/abalone/abalone.data under /data/mirror')",
            "error: FileNotFoundError: no mirror file uci/abalone/abalone.data under /data/mirror",
        ),
        ("ValueError('two\\n lines')", "error: ValueError: two lines"),
        ("KeyboardInterrupt()", RESUME),
    ],
)
def test_a_failed_job_ends_its_log_with_the_cause(tmp_path, error, last):
    log = tmp_path / "job.log"
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(log=str(log), error=error)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    lines = log.read_text().splitlines()
    assert lines[0] == "working" and lines[-1] == last
    interrupted = last == RESUME
    # The console: the one line, no traceback; nothing for Ctrl-C, which the workflow says once for all jobs.
    assert result.stderr.strip() == ("" if interrupted else f"{log}: {last}")
    assert ("Traceback" in log.read_text()) != interrupted


# The workflow's process, as the Snakefile sets it up: failures are logged with Snakemake's events.
WORKFLOW = """
import logging, os, signal, sys
from snakemake_interface_logger_plugins.common import LogEvent
from mkbench.harness.job_log import resume_on_ctrl_c
logging.basicConfig(stream=sys.stdout, format="%(message)s")
logger = logging.getLogger("workflow")
resume_on_ctrl_c(logger)

def fail(when):
    logger.error(f"Error in rule fit ({when})", extra=dict(event=LogEvent.JOB_ERROR))
    logger.error(f"RuleException ({when})", extra=dict(event=LogEvent.ERROR))
    logger.error(f"not a failure ({when})")

fail("before Ctrl-C")
for press in (1, 2):
    try:
        os.kill(os.getpid(), signal.SIGINT)
        signal.pause()  # Ctrl-C's KeyboardInterrupt ends the wait
    except KeyboardInterrupt:
        sys.stdout.flush()
        fail(f"after Ctrl-C {press}")
raise KeyboardInterrupt
"""


def test_ctrl_c_says_once_that_the_same_command_resumes_and_hides_the_failures_it_causes():
    result = subprocess.run(
        [sys.executable, "-c", WORKFLOW],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert result.returncode == -signal.SIGINT  # the exit status of a process that Ctrl-C stopped
    assert result.stdout.splitlines() == [
        "Error in rule fit (before Ctrl-C)",
        "RuleException (before Ctrl-C)",
        "not a failure (before Ctrl-C)",
        "not a failure (after Ctrl-C 1)",
        "not a failure (after Ctrl-C 2)",
    ]
    assert result.stderr == f"{RESUME}\n"  # once, and no traceback


def test_a_ctrl_c_that_is_ignored_stays_ignored():
    # A run started in the background by a non-interactive shell ignores Ctrl-C; so does the workflow.
    check = (
        "import logging, signal; from mkbench.harness.job_log import resume_on_ctrl_c; "
        "logger = logging.getLogger('workflow'); resume_on_ctrl_c(logger); "
        "assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN and not logger.filters"
    )
    result = subprocess.run(
        [sys.executable, "-c", check],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert result.returncode == 0, result.stderr


def test_ctrl_c_without_a_stderr_still_stops(monkeypatch):
    """A process started without a stderr (sys.__stderr__ None) stops as Python's handler does (a mypy finding)."""
    from mkbench.harness import job_log

    monkeypatch.setattr(sys, "__stderr__", None)
    monkeypatch.setattr(job_log, "_ctrl_c", job_log.threading.Event())  # this process's flag stays unset
    with pytest.raises(KeyboardInterrupt):  # not an AttributeError from the message it cannot write
        job_log._on_sigint(signal.SIGINT, None)
