"""Stump search under several weight vectors at once (issue 20): one pass for all columns against one search per column.

Run: ``python benchmarks/stump_rows.py [--json PATH] [--quick]``.

CGEns-SLS prices one classifier tau per column of its dual U (eq. 13): l = K - 1
stump searches per learner for K classes, most of its fit time (Table III, USPS
and MNIST). :meth:`mkbench.learners.Stumps.best_each` runs the l searches in one
pass over each feature's sorted points, reading each point's l weights as one
contiguous row; until 2026-11-27 the oracle called :meth:`~mkbench.learners.Stumps.best`
once per column. Both give the same stumps, scores and sums bit for bit; the
script fails otherwise. Ratio: time of the l searches of one CGEns-SLS iteration,
fused over one search per column, on Gaussian points of the shapes of Table III's
training folds (the search depends on the shape; ties only skip candidates). The
fused pass wins where the weights outgrow the fastest caches (USPS, MNIST: the
searches that cost hours); on the small UCI folds, whose searches take well under
a millisecond, it can be slower, since its running sums live in memory rather
than in registers.
"""

from __future__ import annotations

import numpy as np
from _common import Record, best_of, measure, parser

from mkbench.learners import Stumps

#: (name, points, features, classes) of Table III's 5-fold CV training folds: MNIST (1000 per class),
#: USPS (75 % of 7291 + 2007), and UCI sets: the largest (segment), the most classes (vowel), the most
#: features (dna, 3 classes: two searches per learner).
SHAPES = [
    ("MNIST", 8000, 784, 10),
    ("USPS", 5576, 256, 10),
    ("segment", 1386, 19, 7),
    ("vowel", 594, 10, 11),
    ("dna", 1912, 180, 3),
]


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--seed", type=int, default=0)
    args = cli.parse_args()
    shapes = [("tiny", 200, 5, 4)] if args.quick else SHAPES
    record = Record(
        "stump_rows", 20, "Stump search: the l searches of a CGEns-SLS iteration in one pass vs one by one", args
    )
    for name, n, d, K in shapes:
        rng = np.random.default_rng(args.seed)
        family = Stumps(rng.normal(size=(n, d)).round(2))
        U = rng.normal(size=(n, K - 1))
        fused, alone = family.best_each(U), [family.best(u) for u in U.T]  # also compiles (or loads) both kernels
        if any(
            (a.learner, a.score, a.sum_squares) != (b.learner, b.score, b.sum_squares)
            for a, b in zip(fused, alone, strict=True)
        ):
            raise SystemExit(f"{name}: the fused search chose other stumps than the searches one by one")
        ours = best_of(lambda: family.best_each(U), repeats=20)
        peer = best_of(lambda: [family.best(u) for u in U.T], repeats=20)
        print(
            f"{name} shape, n = {n}, d = {d}, l = {K - 1}: fused {ours * 1e3:.1f} ms, one by one {peer * 1e3:.1f} ms "
            f"({ours / peer:.2f} x)",
            flush=True,
        )
        record.add_ratio(
            f"stump search time for the l = {K - 1} columns of U, one pass / one search per column, n = {n}, d = {d} "
            f"({name}'s shape)",
            measure("Stumps.best_each, one pass", ours),
            measure("Stumps.best per column", peer),
            ours / peer,
            None,
            note="the same stumps, scores and sums of squares bit for bit (checked); no goal: the searches "
            "are most of a CGEns-SLS fit on USPS and MNIST",
        )
    record.write()


if __name__ == "__main__":
    main()
