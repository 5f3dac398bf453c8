rule split:
    input:
        "resources/prepared/{dataset}.npz",
    output:
        "resources/splits/{dataset}/{protocol}/seed{seed}/split{split}.npz",
    log:
        "results/logs/split/{dataset}/{protocol}/seed{seed}-split{split}.log",
    benchmark:
        "results/benchmarks/split/{dataset}/{protocol}/seed{seed}-split{split}.tsv"
    params:
        protocol=config_entry("protocols", "protocol"),
    resources:
        runtime=5,
        mem_mb=2000,
    conda:
        "../../environment.yml"
    script:
        "../scripts/split.py"
