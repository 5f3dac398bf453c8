"""Write one table: our means and stds beside the paper's published values."""

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

import pandas as pd

from mkbench.harness.config import added_methods
from mkbench.harness.report import load_reference, write_table

spec = snakemake.config["tables"][snakemake.wildcards.table]
reference = (
    load_reference(snakemake.input.reference[0], spec["reference"]["table"]) if snakemake.input.reference else None
)
summaries = [path for path in snakemake.input.summaries if not path.endswith(".history.csv")]
histories = [path for path in snakemake.input.summaries if path.endswith(".history.csv")]  # a table with stop
records = pd.concat([pd.read_csv(path) for path in summaries], ignore_index=True)  # one or more experiments
history = pd.concat([pd.read_csv(path) for path in histories], ignore_index=True) if histories else None
write_table(
    records,
    spec["metrics"],
    snakemake.output.csv[: -len(".csv")],
    caption=spec["caption"],
    reference=reference,
    select=spec.get("select"),
    layout=spec["layout"],
    accept_status=spec["accept_status"],
    added=added_methods(snakemake.config, spec["experiment"]),
    stop=spec.get("stop"),
    history=history,
    fixed=spec.get("fixed"),
)
