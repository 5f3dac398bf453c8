rule fit:
    input:
        data="resources/prepared/{dataset}.npz",
        split=get_split,
    output:
        "results/runs/{experiment}/{dataset}/{method}/{param}/seed{seed}-split{split}.json",
    log:
        "results/logs/fit/{experiment}/{dataset}/{method}/{param}/seed{seed}-split{split}.log",
    benchmark:
        "results/benchmarks/fit/{experiment}/{dataset}/{method}/{param}/seed{seed}-split{split}.tsv"
    conda:
        "../../environment.yml"
    threads: 1
    resources:
        runtime=60,
        mem_mb=4000,
    params:
        identity=fit_identity,
    script:
        "../scripts/fit.py"
