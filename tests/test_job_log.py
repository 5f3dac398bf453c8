"""A job's log ends with its one-line cause, which is also all the console shows; Ctrl-C says how to resume."""

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
        ("FileNotFoundError('no mirror file uci/abalone/abalone.data under /data/mirror')",
         "error: FileNotFoundError: no mirror file uci/abalone/abalone.data under /data/mirror"),
        ("ValueError('two\\n lines')", "error: ValueError: two lines"),
        ("KeyboardInterrupt()", RESUME),
    ],
)
def test_a_failed_job_ends_its_log_with_the_cause(tmp_path, error, last):
    log = tmp_path / "job.log"
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(log=str(log), error=error)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    lines = log.read_text().splitlines()
    assert lines[0] == "working" and lines[-1] == last
    assert result.stderr.strip() == f"{log}: {last}"  # the console: one line, no traceback
    assert ("Traceback" in log.read_text()) == (last != RESUME)
