rule split:
    input:
        "resources/prepared/{dataset}.npz",
    output:
        "resources/splits/{dataset}/{protocol}/seed{seed}/split{split}.npz",
    log:
        "results/logs/split/{dataset}/{protocol}/seed{seed}-split{split}.log",
    benchmark:
        "results/benchmarks/split/{dataset}/{protocol}/seed{seed}-split{split}.tsv"
    conda:
        "../../environment.yml"
    resources:
        runtime=5,
        mem_mb=2000,
    params:
        protocol=config_entry("protocols", "protocol"),
    script:
        "../scripts/split.py"
