rule fetch:
    output:
        "resources/fetched/{dataset}.json",
    log:
        "results/logs/fetch/{dataset}.log",
    benchmark:
        "results/benchmarks/fetch/{dataset}.tsv"
    conda:
        "../../environment.yml"
    resources:
        runtime=30,
        mem_mb=1000,
    params:
        mirror=MIRROR,
        home=DATA_HOME,
    script:
        "../scripts/fetch.py"


rule prepare:
    input:
        rules.fetch.output,
    output:
        "resources/prepared/{dataset}.npz",
    log:
        "results/logs/prepare/{dataset}.log",
    benchmark:
        "results/benchmarks/prepare/{dataset}.tsv"
    conda:
        "../../environment.yml"
    resources:
        runtime=10,
        mem_mb=4000,
    params:
        home=DATA_HOME,
    script:
        "../scripts/prepare.py"
