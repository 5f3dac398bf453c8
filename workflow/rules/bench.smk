# Benchmarks (issue 8): `snakemake bench --cores 1` runs every script in benchmarks/ and writes
# results/BENCHMARKS.md. Not part of `rule all`: they measure the machine, not the papers.
# Each script compares our method with its peer within its own run (benchmarks/_common.py);
# BLAS is held to the rule's threads so that the ratios do not depend on the machine's free cores.
# The peers are also measured beside ours within the scripts where an issue sets a goal against them (issue 44:
# LightGBM and XGBoost in cgens_across_c and EasyMKL in mkl_speed, skipped without the [peers] extra; scikit-learn's
# Nystroem ridge in mark_scalability). On the papers' experiments (MKLpy's EasyMKL and AverageMKL, colboost's LPBoost,
# LightGBM and XGBoost) they are workflow methods of config/peers.yaml (issue 46), not scripts: their tables
# (PEER_TABLES) are built by `snakemake ... --configfile config/config.yaml config/peers.yaml`, and the
# dashboard shows them as committed (not inputs here: the tables are not in config.yaml).
import os
import shlex

# The data mirror, as the fetch rule takes it (config data.mirror, else $MKBENCH_DATA_MIRROR).
BENCH_MIRROR = f"--mirror {shlex.quote(MIRROR)}" if MIRROR else ""


# Per benchmark: its arguments beyond --json, and its resources (minutes, MB).
BENCHMARKS = {
    "pricing": ("", 10, 4000),  # random arrays, no data set
    # LPBoost's LP through five HiGHS routes, the same 60 columns at n = 10^4
    "lp_routes": (BENCH_MIRROR, 30, 4000),
    # the defaults to the optimum on raw and centred pixels; Clarabel beside them, capped at 300 s
    "fit_time": (f"{BENCH_MIRROR} --time-limit 300", 30, 4000),
    "mark_scalability": (BENCH_MIRROR, 30, 6000),
    # SimpleMKL vs SILP and MKLpy's EasyMKL (issue 44) on the MKL experiments' splits; both at defaults on 2000 x 50
    "mkl_speed": (f"{BENCH_MIRROR} --config config/config.yaml --splits 2", 30, 4000),
    # CGEns at its defaults against AdaBoost, LightGBM and XGBoost (issue 44) at every C of the tables' grids,
    # 500 stumps, n = 10^4 (61 min at load 1-2.5 on 2026-11-28, 44 of them liblinear's masters at C = 0.1 and 1)
    "cgens_across_c": (BENCH_MIRROR, 90, 4000),
    # CGEns-SLS on USPS with our J x J master and with the paper's m x m Sherman-Morrison update (eq. 20)
    "sls_master": (BENCH_MIRROR, 30, 4000),
    # the perceptron search (Table II's pricing), one-pass indicators against the former subtract-then-compare
    "perceptron_pricing": ("", 10, 4000),  # random arrays of Table II's shapes, no data set
    # the stump searches of a CGEns-SLS iteration (Table III), one pass for all columns against one by one
    "stump_rows": ("", 10, 4000),  # random arrays of Table III's shapes, no data set
    # binned against exact stump search on MNIST (issue 44)
    "stump_binning": (BENCH_MIRROR, 10, 4000),
    "mkl_precomputed": ("", 15, 4000),  # SimpleMKL, SILP: precomputed Gram matrices vs X (issue 48), no data set
    # every public estimator at its defaults on scikit-learn's data sets against SVC() / SVR() / HGB (issue 42)
    "defaults": ("--draws 3 --time-limit 60", 240, 6000),
}
# The other benchmark scripts a script imports (a change there reruns it too).
BENCH_IMPORTS = {"mkl_speed": ["benchmarks/mkl_precomputed.py"]}


rule bench_record:
    input:
        "benchmarks/{name}.py",
        "benchmarks/_common.py",
        "config/config.yaml",
        lambda wildcards: BENCH_IMPORTS.get(wildcards.name, []),
    output:
        record="results/bench/{name}.json",
    log:
        "results/logs/bench/{name}.log",
    benchmark:
        "results/benchmarks/bench/{name}.tsv"
    wildcard_constraints:
        name="|".join(BENCHMARKS),
    conda:
        "../../environment.yml"
    threads: 1
    resources:
        runtime=lambda wildcards: BENCHMARKS[wildcards.name][1],
        mem_mb=lambda wildcards: BENCHMARKS[wildcards.name][2],
    params:
        args=lambda wildcards: BENCHMARKS[wildcards.name][0],
    shell:
        "OMP_NUM_THREADS={threads} OPENBLAS_NUM_THREADS={threads} MKL_NUM_THREADS={threads} "
        "python benchmarks/{wildcards.name}.py {params.args} --json {output.record} > {log} 2>&1"


# The side-by-side tables of config/peers.yaml, shown in results/BENCHMARKS.md.
PEER_TABLES = [f"results/tables/{name}.md" for name in ("mkl-peers", "mkl-peers-credit", "cgens-table1-peers")]


# CGEns vs LPBoost also draws the CGEns paper's Figure 2 from the same timings, at the paper's
# sizes (500 iterations at n = 10^4; 100 iterations at n up to 60 000). LPBoost's fits stop at
# 20 min each (their ratios are then lower bounds); the run took 80 min here.
CGENS_SPEED_ARGS = "--n-iterations-run 10000 --sizes 1000 4000 16000 60000 --time-limit 1200"


rule bench_cgens_speed:
    input:
        "benchmarks/cgens_speed.py",
        "benchmarks/_common.py",
    output:
        record="results/bench/cgens_speed.json",
        png="results/figures/cgens-figure2.png",
        pdf="results/figures/cgens-figure2.pdf",
    log:
        "results/logs/bench/cgens_speed.log",
    benchmark:
        "results/benchmarks/bench/cgens_speed.tsv"
    conda:
        "../../environment.yml"
    threads: 1
    resources:
        runtime=180,
        mem_mb=8000,
    params:
        mirror=BENCH_MIRROR,
        args=CGENS_SPEED_ARGS,
    shell:
        "OMP_NUM_THREADS={threads} OPENBLAS_NUM_THREADS={threads} MKL_NUM_THREADS={threads} "
        "python benchmarks/cgens_speed.py {params.mirror} {params.args} --figure {output.png} "
        "--json {output.record} > {log} 2>&1"


rule bench:
    input:
        "benchmarks/dashboard.py",
        records=expand("results/bench/{name}.json", name=[*BENCHMARKS, "cgens_speed"]),
    output:
        md="results/BENCHMARKS.md",
        png="results/figures/bench-scaling.png",
    log:
        "results/logs/bench/dashboard.log",
    benchmark:
        "results/benchmarks/bench/dashboard.tsv"
    conda:
        "../../environment.yml"
    params:
        configfile=lambda wildcards: workflow.configfiles[-1],  # its cost section, from results/summary
        # the papers' items apart from the ablations, by the catalogue of the main config (the smoke config has none)
        catalogue=lambda wildcards: (
            "--catalogue config/reproduction.yaml"
            if os.path.abspath(workflow.configfiles[-1]) == os.path.abspath("config/config.yaml")
            else ""
        ),
        tables=" ".join(PEER_TABLES),
    shell:
        "python benchmarks/dashboard.py {input.records} --out {output.md} --figure {output.png}"
        " --config {params.configfile} {params.catalogue} --tables {params.tables} > {log} 2>&1"
