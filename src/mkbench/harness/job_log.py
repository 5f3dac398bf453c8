"""A workflow job's log: its stderr, ending with the one-line cause when the job fails; and Ctrl-C's one line.

Every script under ``workflow/scripts`` starts with :func:`log_to`. An error the
job does not catch is written to the log as its traceback followed by one line,
``error: <Type>: <message>``, which is also the one line the console shows for
that job (instead of a traceback in which the cause is buried). Ctrl-C ends the
job's log with one line saying that the same command resumes the run, and no traceback.

The Snakefile calls :func:`resume_on_ctrl_c` in the Snakemake process: on Ctrl-C the
console shows that line once for the whole run, instead of Snakemake's error block
for every job the Ctrl-C stopped.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import traceback

from snakemake_interface_logger_plugins.common import LogEvent

__all__ = ["RESUME", "log_to", "resume_on_ctrl_c"]

#: What an interrupted job says.
RESUME = "interrupted: run the same command again to resume where the run stopped"


def log_to(path: str) -> None:
    """Send this process's stderr to the log ``path``; an uncaught error ends it with its one-line cause.

    The cause also goes to the console, except for Ctrl-C: that reaches every running job
    at once, and the workflow's process says it once (:func:`resume_on_ctrl_c`).

    Parameters
    ----------
    path : str
        The job's log file (``snakemake.log[0]``).
    """
    sys.stderr = open(path, "w", buffering=1)  # noqa: SIM115 - the process's stderr until it exits

    def report(kind, value, tb) -> None:
        if issubclass(kind, KeyboardInterrupt):
            print(RESUME, file=sys.stderr)
            return
        traceback.print_exception(kind, value, tb, file=sys.stderr)
        line = f"error: {kind.__name__}: {' '.join(str(value).split())}"
        print(line, file=sys.stderr)
        print(f"{path}: {line}", file=sys.__stderr__)

    sys.excepthook = report


#: Set by the first Ctrl-C in the workflow's process (:func:`resume_on_ctrl_c`).
_ctrl_c = threading.Event()

#: The log events of a failure: a job's "Error in rule" block (with its log, under
#: show-failed-logs) and an exception (a job's "died with SIGINT", the run's final
#: "At least one job did not complete successfully").
_FAILURES = frozenset({LogEvent.JOB_ERROR, LogEvent.ERROR})


def _on_sigint(signum, frame) -> None:
    """Say once that the same command resumes the run, then stop as Python's default handler does."""
    if not _ctrl_c.is_set():
        _ctrl_c.set()
        # os.write, not print or logging: a signal handler may run in the middle of the main
        # thread's own write to sys.stderr, and a buffered stream refuses that reentrant call.
        if sys.__stderr__ is not None:  # None in a process started without a stderr
            os.write(sys.__stderr__.fileno(), f"{RESUME}\n".encode())
    signal.default_int_handler(signum, frame)


def _not_a_failure_after_ctrl_c(record: logging.LogRecord) -> bool:
    """Drop a failure's log record once Ctrl-C was pressed (a :class:`logging.Filter` function)."""
    return not (_ctrl_c.is_set() and getattr(record, "event", None) in _FAILURES)


def _quiet_ctrl_c_hook(kind, value, tb) -> None:
    """No traceback for the Ctrl-C that :func:`_on_sigint` has already reported."""
    if not (issubclass(kind, KeyboardInterrupt) and _ctrl_c.is_set()):
        sys.__excepthook__(kind, value, tb)


def resume_on_ctrl_c(logger: logging.Logger) -> None:
    """On Ctrl-C, print :data:`RESUME` once instead of a failure for every job it stops.

    For the Snakemake process that runs the workflow (the Snakefile calls it). Ctrl-C sends
    SIGINT to the terminal's whole foreground process group: Snakemake's scheduler stops
    ("Terminating processes on user request") and every running job ends (:func:`log_to`
    writes :data:`RESUME` to its log). Snakemake's local executor runs a ``script:`` job as a
    subprocess, and reports each job that SIGINT ended as failed (a ``RuleException``: the
    command "died with SIGINT", then the job's "Error in rule" block), then the run as failed.

    The first Ctrl-C prints :data:`RESUME`, then raises :class:`KeyboardInterrupt` as Python's
    default handler does, so Snakemake stops as it always did: the stopped jobs' outputs stay
    marked incomplete and the same command redoes them. From then on the failure records of
    ``logger`` are dropped: they are the jobs that Ctrl-C stopped (the handler runs in the main
    thread at once, before a stopped job has exited and been reported). A job that happened to
    fail for its own reason in those last moments keeps its error in its log and runs again
    with the same command; a job that fails without Ctrl-C is reported as ever. A Ctrl-C that
    reaches the top of the process (before the scheduler runs: reading the config, building
    the DAG) ends it without a traceback.

    Out of reach: a job that Ctrl-C stops in its first hundredths of a second, while Python
    and Snakemake's preamble start and before its script's :func:`log_to`, prints Python's own
    KeyboardInterrupt traceback.

    Nothing is installed when SIGINT is ignored (a run started in the background by a
    non-interactive shell ignores Ctrl-C) or handled by someone else, nor outside the main
    thread, where no signal handler can be set.

    Parameters
    ----------
    logger : logging.Logger
        Snakemake's logger (``snakemake.logging.logger``).
    """
    if threading.current_thread() is not threading.main_thread():
        return
    # _on_sigint already there: the Snakefile is read again in the same process.
    if signal.getsignal(signal.SIGINT) in (signal.default_int_handler, _on_sigint):
        signal.signal(signal.SIGINT, _on_sigint)
        sys.excepthook = _quiet_ctrl_c_hook
        logger.addFilter(_not_a_failure_after_ctrl_c)  # a filter already there is not added twice
