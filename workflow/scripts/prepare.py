"""Parse one data set's verified raw files into the prepared .npz read by every job."""
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from mkbench.harness.prepare import prepare

ds = prepare(snakemake.wildcards.dataset, snakemake.output[0], data_home=snakemake.params.home)
print(f"{ds.name}: X {ds.X.shape}, task {ds.task}, variant {ds.metadata.get('variant', '')}", file=sys.stderr)
