"""Gather one experiment's records into a summary CSV (one row per job)."""
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

from mkbench._io import atomic_open
from mkbench.report import collect_records

frame = collect_records(snakemake.input)
with atomic_open(snakemake.output[0], "w", encoding="utf-8", newline="") as fh:
    frame.to_csv(fh, index=False)
