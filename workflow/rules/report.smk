from mkbench.harness.catalogue import existing_targets, paper_of


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
    conda:
        "../../environment.yml"
    resources:
        runtime=5,
        mem_mb=2000,
    script:
        "../scripts/aggregate.py"


# Tables and figures go into `snakemake --report report.html`, one category per paper and
# one subcategory per table or figure. Their captions (report/caption.rst) are the config's
# caption with the protocol generated from the config. A table enters the report as its HTML
# page, which the report shows inline (it offers .md and .csv files only as downloads).
rule table:
    input:
        summaries=get_summary("tables"),
        reference=get_reference("tables"),
    output:
        csv="results/tables/{table}.csv",
        md="results/tables/{table}.md",
        html=report(
            "results/tables/{table}.html",
            caption="../report/caption.rst",
            category=lambda wildcards: paper_of(config, "tables", wildcards.table) or "other",
            subcategory="{table}",
            labels={"kind": "table", "name": "{table}"},
        ),
    log:
        "results/logs/table/{table}.log",
    benchmark:
        "results/benchmarks/table/{table}.tsv"
    conda:
        "../../environment.yml"
    resources:
        runtime=5,
        mem_mb=1000,
    params:
        spec=config_entry("tables", "table"),
    script:
        "../scripts/table.py"


rule figure:
    input:
        summaries=get_summary("figures"),
        reference=get_reference("figures"),
    output:
        png=report(
            "results/figures/{figure}.png",
            caption="../report/caption.rst",
            category=lambda wildcards: paper_of(config, "figures", wildcards.figure) or "other",
            subcategory="{figure}",
            labels={"kind": "figure", "name": "{figure}"},
        ),
        pdf="results/figures/{figure}.pdf",
    log:
        "results/logs/figure/{figure}.log",
    benchmark:
        "results/benchmarks/figure/{figure}.tsv"
    conda:
        "../../environment.yml"
    resources:
        runtime=5,
        mem_mb=1000,
    params:
        spec=config_entry("figures", "figure"),
    script:
        "../scripts/figure.py"


# `snakemake --report report.html` reports the default target (rule all): every configured
# table and figure must exist. After a partial run, report the ones that do:
#     snakemake --report report.html existing_results
rule existing_results:
    input:
        lambda wildcards: [path for path in all_outputs() if os.path.exists(path)],
    localrule: True


# The status of every table and figure of the papers against config/reproduction.yaml, from
# the tables and figures that exist: it runs no experiment of its own and is not part of
# rule all. Snakemake brings those tables and figures up to date first, which needs the
# records under results/runs/; without them (a fresh clone) use
#     mkbench report --config config/config.yaml --reproduction results/REPRODUCTION.md
rule reproduction:
    input:
        catalogue="config/reproduction.yaml",
        targets=lambda wildcards: existing_targets("config/reproduction.yaml", config),
    output:
        "results/REPRODUCTION.md",
    log:
        "results/logs/reproduction.log",
    localrule: True
    conda:
        "../../environment.yml"
    params:
        configfile=lambda wildcards: workflow.configfiles[-1],
    shell:
        "mkbench report --config {params.configfile} --catalogue {input.catalogue}"
        " --reproduction {output} > {log} 2>&1"
