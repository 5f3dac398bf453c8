"""Fetch and verify one data set's raw files (mirror first, then the canonical URLs)."""

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

from mkbench.harness.config import declare_datasets

declare_datasets(snakemake.config)  # the data sets the config declares, beside the registered ones

from mkbench._io import write_json
from mkbench.harness.datasets import fetch

paths = fetch(snakemake.wildcards.dataset, mirror=snakemake.params.mirror, data_home=snakemake.params.home)
write_json(snakemake.output[0], {"dataset": snakemake.wildcards.dataset, "files": [str(p) for p in paths]})
