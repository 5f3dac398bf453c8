rule aggregate:
    input:
        get_records,
    output:
        records="results/summary/{experiment}.csv",
        history="results/summary/{experiment}.history.csv",
    log:
        "results/logs/aggregate/{experiment}.log",
    benchmark:
        "results/benchmarks/aggregate/{experiment}.tsv"
    resources:
        runtime=5,
        mem_mb=2000,
    conda:
        "../../environment.yml"
    script:
        "../scripts/aggregate.py"


rule table:
    input:
        get_summary("tables"),
    output:
        csv="results/tables/{table}.csv",
        md="results/tables/{table}.md",
    log:
        "results/logs/table/{table}.log",
    benchmark:
        "results/benchmarks/table/{table}.tsv"
    resources:
        runtime=5,
        mem_mb=1000,
    conda:
        "../../environment.yml"
    script:
        "../scripts/table.py"


rule figure:
    input:
        get_summary("figures"),
    output:
        png=report("results/figures/{figure}.png", category="Figures"),
        pdf="results/figures/{figure}.pdf",
    log:
        "results/logs/figure/{figure}.log",
    benchmark:
        "results/benchmarks/figure/{figure}.tsv"
    resources:
        runtime=5,
        mem_mb=1000,
    conda:
        "../../environment.yml"
    script:
        "../scripts/figure.py"
