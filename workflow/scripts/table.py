"""Write one table: our means and stds beside the paper's published values."""
import os
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd

from mkbench.harness.report import load_reference, write_table

spec = snakemake.config["tables"][snakemake.wildcards.table]
ref = spec.get("reference")
reference = load_reference(os.path.join(snakemake.config["reference_dir"], ref["file"]), ref["table"]) if ref else None
records = pd.concat([pd.read_csv(path) for path in snakemake.input], ignore_index=True)  # one or more experiments
write_table(records, spec["metrics"], snakemake.output.csv[: -len(".csv")],
            caption=spec["caption"], reference=reference, select=spec.get("select"), layout=spec["layout"])
