"""Write one split of a data set under a named protocol, deterministic from the seed."""

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

from mkbench.harness.experiment import protocol_splits
from mkbench.harness.prepare import load_prepared
from mkbench.harness.splits import save_split

w = snakemake.wildcards
dataset = load_prepared(snakemake.input[0])
splits = protocol_splits(snakemake.config, w.protocol, dataset, int(w.seed))
meta = {
    "dataset": w.dataset,
    "protocol": snakemake.config["protocols"][w.protocol],
    "seed": int(w.seed),
    "split": int(w.split),
    "n_splits": len(splits),
}
save_split(snakemake.output[0], splits[int(w.split)], meta)
