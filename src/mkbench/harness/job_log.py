"""A workflow job's log: its stderr, ending with the one-line cause when the job fails.

Every script under ``workflow/scripts`` starts with :func:`log_to`. An error the
job does not catch is written to the log as its traceback followed by one line,
``error: <Type>: <message>``, which is also the one line the console shows for
that job (instead of a traceback in which the cause is buried). Ctrl-C ends the
job with one line saying that the same command resumes the run, and no traceback.
"""

from __future__ import annotations

import sys
import traceback

__all__ = ["RESUME", "log_to"]

#: What an interrupted job says.
RESUME = "interrupted: run the same command again to resume where the run stopped"


def log_to(path: str) -> None:
    """Send this process's stderr to the log ``path``; an uncaught error ends it with its one-line cause.

    Parameters
    ----------
    path : str
        The job's log file (``snakemake.log[0]``).
    """
    sys.stderr = open(path, "w", buffering=1)  # noqa: SIM115 - the process's stderr until it exits

    def report(kind, value, tb) -> None:
        if issubclass(kind, KeyboardInterrupt):
            line = RESUME
        else:
            traceback.print_exception(kind, value, tb, file=sys.stderr)
            line = f"error: {kind.__name__}: {' '.join(str(value).split())}"
        print(line, file=sys.stderr)
        print(f"{path}: {line}", file=sys.__stderr__)

    sys.excepthook = report
