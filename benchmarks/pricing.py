"""Pricing benchmark (issue 3): throughput against numpy's own GEMV, and peak memory of blockwise pricing.

Run: ``python benchmarks/pricing.py [--n 3000] [--n-memory 10000] [--json PATH] [--quick]``. Prints ratios
measured in this run only (machines are noisy; absolute times mislead):

* kept Gram blocks: ``KernelColumns.scores(w)`` against ``G @ w`` on the same
  arrays (the pricing product of eq. 6, 10, 12, 14 is one GEMV per kernel);
* blockwise pricing (budget smaller than the Gram blocks): the same scores with
  the kernel values recomputed block by block, against the same GEMV;
* peak traced memory of blockwise pricing at ``--n-memory`` points with 3 kernels,
  against the bytes a full N x N*P Gram matrix would take.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
from _common import Record, best_of, measure, parser

from mkbench.kernels import KernelColumns

KERNELS = ["linear", "quadratic", "rbf"]


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--n", type=int, default=3000)
    cli.add_argument("--n-features", type=int, default=784)
    cli.add_argument("--n-memory", type=int, default=10000)
    args = cli.parse_args()
    if args.quick:
        args.n, args.n_features, args.n_memory = 300, 20, 1000
    record = Record("pricing", 3, "Kernel-column pricing: throughput against numpy GEMV, peak memory", args)
    rng = np.random.default_rng(0)
    X = rng.random((args.n, args.n_features))
    w = rng.normal(size=args.n)

    kept = KernelColumns(X, KERNELS)
    kept.scores(w)  # computes and keeps the Gram blocks
    grams = [kept._gram(p) for p in range(len(KERNELS))]
    t_gemv = best_of(lambda: [G @ w for G in grams])
    t_kept = best_of(lambda: kept.scores(w))
    print(f"kept Gram pricing, N={args.n}, P=3: {t_gemv / t_kept:.2f} x numpy GEMV throughput (goal >= 0.5)")
    gemv = measure(f"numpy G @ w, N={args.n}, P=3", t_gemv)
    record.add_ratio(
        "pricing throughput, kept Gram blocks (GEMV time / pricing time)",
        measure("KernelColumns.scores, kept Gram", t_kept),
        gemv,
        t_gemv / t_kept,
        ">= 0.5",
    )

    blockwise = KernelColumns(X, KERNELS, memory_budget=32 * 2**20)
    t_block = best_of(lambda: blockwise.scores(w), repeats=2)
    print(f"blockwise pricing (kernel values recomputed): {t_gemv / t_block:.3f} x GEMV throughput")
    record.add_ratio(
        "pricing throughput, blockwise (kernel values recomputed)",
        measure("KernelColumns.scores, 32 MiB budget", t_block),
        gemv,
        t_gemv / t_block,
        note="no goal: recomputing kernel values costs O(d) per entry against O(1) for GEMV",
    )

    Xm = rng.random((args.n_memory, 50))
    wm = rng.normal(size=args.n_memory)
    budget = 64 * 2**20
    tracemalloc.start()
    KernelColumns(Xm, KERNELS, memory_budget=budget).scores(wm)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    full = len(KERNELS) * args.n_memory**2 * 8
    print(
        f"peak memory at N={args.n_memory}, P=3, budget {budget / 2**20:.0f} MiB: {peak / 2**20:.0f} MiB "
        f"against {full / 2**20:.0f} MiB for the full Gram matrix ({peak / full:.3f} x)"
    )
    record.add_ratio(
        f"peak memory of blockwise pricing at N={args.n_memory}, P=3 (tracemalloc)",
        measure(f"blockwise, {budget / 2**20:.0f} MiB budget", peak / 2**20, "MiB"),
        measure("full N x NP Gram matrix", full / 2**20, "MiB"),
        peak / full,
        note="the issue sets no number: the point is staying near the budget, not N^2 P",
    )
    record.timings = {
        "gemv_seconds": t_gemv,
        "kept_seconds": t_kept,
        "blockwise_seconds": t_block,
        "peak_bytes": peak,
        "full_gram_bytes": full,
        "budget_bytes": budget,
    }
    record.write()


if __name__ == "__main__":
    main()
