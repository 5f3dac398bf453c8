rule fetch:
    output:
        "resources/fetched/{dataset}.json",
    log:
        "results/logs/fetch/{dataset}.log",
    benchmark:
        "results/benchmarks/fetch/{dataset}.tsv"
    params:
        mirror=MIRROR,
        home=DATA_HOME,
    resources:
        runtime=30,
        mem_mb=1000,
    conda:
        "../../environment.yml"
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
    params:
        home=DATA_HOME,
    resources:
        runtime=10,
        mem_mb=4000,
    conda:
        "../../environment.yml"
    script:
        "../scripts/prepare.py"
