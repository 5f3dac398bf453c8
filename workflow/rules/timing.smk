# Timing samples (issue 20): `snakemake timing --cores N` reruns the first planned job of each
# method, grid setting and data set of every experiment into results/timing/, CPU-timed, and gathers them in
# results/timing/<experiment>.csv, which `mkbench cost` prices the config from (beside the
# summaries): a few jobs per experiment price all of its jobs, before or without running them.
# Not part of `rule all`; `results/timing/<experiment>.csv` samples one experiment.


use rule fit as timing_fit with:
    output:
        "results/timing/{experiment}/{dataset}/{method}/{param}/seed{seed}-split{split}.json",
    log:
        "results/logs/timing/{experiment}/{dataset}/{method}/{param}/seed{seed}-split{split}.log",
    benchmark:
        "results/benchmarks/timing/{experiment}/{dataset}/{method}/{param}/seed{seed}-split{split}.tsv"


rule timing_aggregate:
    input:
        lambda wildcards: timing_samples(wildcards.experiment),
    output:
        records="results/timing/{experiment}.csv",
    log:
        "results/logs/timing/{experiment}.log",
    conda:
        "../../environment.yml"
    resources:
        runtime=5,
        mem_mb=2000,
    script:
        "../scripts/aggregate.py"


rule timing:
    input:
        expand("results/timing/{experiment}.csv", experiment=config["experiments"]),
