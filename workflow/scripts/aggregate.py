"""Gather one experiment's records: one row per job, and one row per iteration of each job's history."""

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

from mkbench._io import atomic_open
from mkbench.harness.report import collect_histories, collect_records

outputs = {"records": collect_records, "history": collect_histories}  # timing samples: records only
for name, path in snakemake.output.items():
    with atomic_open(path, "w", encoding="utf-8", newline="") as fh:
        outputs[name](snakemake.input).to_csv(fh, index=False)
