"""Draw one figure (seaborn), saved as PNG and PDF."""
import sys

sys.stderr = open(snakemake.log[0], "w", buffering=1)

import pandas as pd

from mkbench.report import draw_figure

spec = snakemake.config["figures"][snakemake.wildcards.figure]
draw_figure(pd.read_csv(snakemake.input[0]), spec["metric"], snakemake.output.png[: -len(".png")],
            title=spec["caption"])
