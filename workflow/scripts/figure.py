"""Draw one figure (seaborn), saved as PNG and PDF: per-split boxes, bars, lines (records or iterations), or a refitted decision boundary."""

from mkbench.harness.job_log import log_to

log_to(snakemake.log[0])  # stderr to the log; a failure ends it with its one-line cause

import pandas as pd

from mkbench.harness.boundary import draw_job_boundary
from mkbench.harness.config import added_methods
from mkbench.harness.figures import draw_bars, draw_figure, draw_lines
from mkbench.harness.report import load_reference

spec = snakemake.config["figures"][snakemake.wildcards.figure]
frame = pd.concat([pd.read_csv(path) for path in snakemake.input.summaries], ignore_index=True)
reference = (
    load_reference(snakemake.input.reference[0], spec["reference"]["table"]) if snakemake.input.reference else None
)
if spec.get("methods"):
    frame = frame[frame["method"].isin(spec["methods"])]
stem = snakemake.output.png[: -len(".png")]
added = added_methods(snakemake.config, spec["experiment"])  # marked † beside the paper's methods
if spec["kind"] == "box":
    draw_figure(frame, spec["metric"], stem, title=spec["caption"], added=added)
elif spec["kind"] == "bar":
    draw_bars(frame, spec["metric"], stem, title=spec["caption"], added=added)
elif spec["kind"] == "boundary":
    draw_job_boundary(snakemake.config, spec, stem)
else:
    draw_lines(
        frame,
        spec["x"],
        spec["metric"],
        stem,
        title=spec["caption"],
        logy=spec["logy"],
        logx=spec["logx"],
        reference=reference,
        added=added,
    )
