"""Fit one method on one split and write its record (one job, one record)."""

import sys

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

from mkbench._io import write_json
from mkbench.harness.config import job_of
from mkbench.harness.experiment import run_configured_job
from mkbench.harness.prepare import load_prepared
from mkbench.harness.splits import load_split

job = job_of(snakemake.config, snakemake.wildcards)
split, _ = load_split(snakemake.input.split)
record = run_configured_job(snakemake.config, job, load_prepared(snakemake.input.data), split)
write_json(snakemake.output[0], record)
print(f"{job}: status {record['status']}, fit {record['fit_seconds']:.3f} s", file=sys.stderr)
