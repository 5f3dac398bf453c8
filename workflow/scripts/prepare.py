"""Parse one data set's verified raw files into the prepared .npz read by every job."""

import sys

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

from mkbench.harness.config import declare_datasets

declare_datasets(snakemake.config)  # the data sets the config declares, beside the registered ones

from mkbench.harness.prepare import prepare

ds = prepare(snakemake.wildcards.dataset, snakemake.output[0], data_home=snakemake.params.home)
print(f"{ds.name}: X {ds.X.shape}, task {ds.task}, variant {ds.metadata.get('variant', '')}", file=sys.stderr)
