"""Perceptron pricing (issue 20): the indicators written over theta'x in one pass against subtract-then-compare.

Run: ``python benchmarks/perceptron_pricing.py [--candidates 2000] [--json PATH] [--quick]``.

CGEns, LPBoost and AdaBoost with perceptrons (CGEns Table II) price 2000 random
perceptrons sign(theta'x - kappa) per iteration (§VI-A): one product X Theta and
the scores sum_i w_i h(x_i) = 2 sum_{theta'x_i > kappa} w_i - sum_i w_i.
:meth:`mkbench.learners.Perceptrons._scores` writes the 0/1 indicators
theta'x > kappa over X Theta in one pass; until 2026-11-27 it subtracted kappa
first, then compared with 0 into a boolean matrix that numpy cast to float64 for
the product. Both give the same scores bit for bit (a correctly rounded difference
is 0 only for equal operands); the script fails otherwise. Ratio: time of one
search (``Perceptrons.best``: drawing, X Theta, scores, the best) with the one-pass
scores over the same search with the former ones, on Gaussian points of the shapes
of Table II's largest training sets (the pricing depends on the shape only).
"""

from __future__ import annotations

import numpy as np
from _common import Record, best_of, measure, parser

from mkbench.learners import Perceptrons

#: (name, points, features) of Table II's largest IDA training sets.
SHAPES = [("splice", 1000, 60), ("image", 1300, 18), ("german", 700, 20)]


class SubtractFirst(Perceptrons):
    """The former scores: Z - kappa, a boolean matrix Z > 0, cast to float64 by the product."""

    def _scores(self, w, Z, kappa):
        Z -= kappa
        return 2.0 * (w @ (Z > 0)) - w.sum(), 0.0


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--candidates", type=int, default=2000, help="perceptrons drawn per search (§VI-A: 2000)")
    cli.add_argument("--seed", type=int, default=0)
    args = cli.parse_args()
    shapes = [("tiny", 100, 5)] if args.quick else SHAPES
    record = Record("perceptron_pricing", 20, "Perceptron pricing: one-pass indicators vs subtract-then-compare", args)
    for name, m, d in shapes:
        rng = np.random.default_rng(args.seed)
        X, w = rng.normal(size=(m, d)), rng.normal(size=m)
        ours, former = (
            kind(X, n_candidates=args.candidates, random_state=args.seed) for kind in (Perceptrons, SubtractFirst)
        )
        for _ in range(3):  # the same draws on both sides: the same best learner and scores, bit for bit
            a, b = ours.best(w), former.best(w)
            if not (
                np.array_equal(a.learner.theta, b.learner.theta)
                and a.score == b.score
                and a.sum_squares == b.sum_squares
            ):
                raise SystemExit(f"{name}: the two scorings chose different perceptrons")
        seconds = {
            kind: best_of(lambda family=family: family.best(w), repeats=20)
            for kind, family in (("ours", ours), ("former", former))
        }
        print(
            f"{name} shape, m = {m}, d = {d}, {args.candidates} candidates: one pass {seconds['ours'] * 1e3:.2f} ms, "
            f"subtract first {seconds['former'] * 1e3:.2f} ms ({seconds['ours'] / seconds['former']:.2f} x)",
            flush=True,
        )
        record.add_ratio(
            f"perceptron search time, one-pass indicators / subtract-then-compare, m = {m}, d = {d} ({name}'s shape)",
            measure("Perceptrons.best, theta'x > kappa over X Theta", seconds["ours"]),
            measure("Z - kappa, then Z > 0 cast to float64", seconds["former"]),
            seconds["ours"] / seconds["former"],
            None,
            note="the same perceptron and scores bit for bit (checked); no goal: pricing is half of a "
            "perceptron iteration of CGEns and less of LPBoost's",
        )
    record.write()


if __name__ == "__main__":
    main()
