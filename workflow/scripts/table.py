"""Write one table: our means and stds beside the paper's published values."""

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

import pandas as pd

from mkbench.harness.report import write_config_table

name = snakemake.wildcards.table  # the paper's values: its reference file, an input of the rule
summaries = [path for path in snakemake.input.summaries if not path.endswith(".history.csv")]
histories = [path for path in snakemake.input.summaries if path.endswith(".history.csv")]  # a table with stop
records = pd.concat([pd.read_csv(path) for path in summaries], ignore_index=True)  # one or more experiments
history = pd.concat([pd.read_csv(path) for path in histories], ignore_index=True) if histories else None
write_config_table(
    snakemake.config,
    name,
    records,
    snakemake.output.csv[: -len(".csv")],
    history=history,
)
