"""MKL from precomputed Gram matrices (issue 48): SimpleMKL and SILP fitted from MKLpy-style kernel lists vs from X.

Run: ``python benchmarks/mkl_precomputed.py [--n 2000] [--repeats 3] [--no-full-check] [--json PATH] [--quick]``.

The issue's setting: ``make_classification`` with 20 features, n = 2000 points, 20
kernels (Gaussians of 15 widths from 0.5 to 20, geometrically spaced, and the
polynomials (x'z + 1)^d of degrees 1-5), SimpleMKL and SILP at their defaults, BLAS
on one thread. Each estimator is fitted from X (``kernels=[...]``, ``scaling=None``: the fit
computes the 20 training kernels of X itself) and from the same kernels computed beforehand
(``kernels="precomputed"``, ``fit(KL, y)``: the fit checks them with
:func:`mkbench.kernels.precomputed.training_grams`). Ratio: precomputed fit over fit
from X, whole fits both (goal <= 1.1: a precomputed list costs no more to check than
X costs to compute kernels from). Also measured: the check alone (``training_grams``)
and its share of a precomputed fit. The fits and the check alternate, ``--repeats``
times, and the shortest of each counts; times are the process's CPU seconds (one
thread: on an idle machine its wall-clock time, on a shared one less disturbed by
the other load). Unless ``--no-full-check``, the check deciding on every kernel's
eigenvalues (``check_psd="full"``, as before issue 48) is timed once. Both routes must
learn the same weights; the script fails otherwise.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import Record, measure, parser
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from mkbench import SILPClassifier, SimpleMKLClassifier
from mkbench.kernels import Polynomial
from mkbench.kernels.grid import gaussian
from mkbench.kernels.precomputed import training_grams

ESTIMATORS = {"SimpleMKL": SimpleMKLClassifier, "SILP": SILPClassifier}
WIDTHS = np.geomspace(0.5, 20.0, 15)
DEGREES = range(1, 6)


def kernels() -> list:
    """The 20 kernels: Gaussians of the 15 ``WIDTHS``, polynomials (x'z + 1)^d of ``DEGREES``."""
    return [gaussian(float(w)) for w in WIDTHS] + [Polynomial(degree=d, offset=1.0) for d in DEGREES]


def timed(fn) -> tuple[float, object]:
    """The process's CPU seconds for one call of ``fn``, and what it returned."""
    start = time.process_time()
    value = fn()
    return time.process_time() - start, value


def main() -> None:
    cli = parser(__doc__)
    cli.add_argument("--n", type=int, default=2000, help="training points")
    cli.add_argument("--repeats", type=int, default=3, help="fits per route and estimator; the shortest counts")
    cli.add_argument("--no-full-check", action="store_true", help="skip timing check_psd='full' (about 10 s at n=2000)")
    args = cli.parse_args()
    if args.quick:
        args.n, args.repeats, args.no_full_check = 150, 1, True
    record = Record("mkl_precomputed", 48, "SimpleMKL and SILP from precomputed Gram matrices vs from X", args)
    X, y = make_classification(n_samples=args.n, n_features=20, random_state=0)
    library = kernels()
    grams = [kernel(X, X) for kernel in library]  # the user's list, computed before any fit
    where = f"n = {args.n}, {len(library)} kernels (15 Gaussians, polynomials of degree 1-5), make_classification"
    checks = record.timings["check_seconds"] = []
    with threadpool_limits(limits=1, user_api="blas"), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # status_ is recorded
        for name, estimator in ESTIMATORS.items():
            seconds = {"from X": [], "precomputed": [], "check": []}
            for _ in range(args.repeats):  # alternating, so that a change of load touches every measurement
                time_x, from_x = timed(lambda: estimator(library, scaling=None).fit(X, y))  # kernels of X, as the list
                time_precomputed, precomputed = timed(lambda: estimator("precomputed").fit(grams, y))
                seconds["from X"].append(time_x)
                seconds["precomputed"].append(time_precomputed)
                seconds["check"].append(timed(lambda: training_grams(grams, args.n))[0])  # the stack dropped at once
            difference = float(np.max(np.abs(from_x.weights_ - precomputed.weights_)))
            if difference > 1e-8:
                raise SystemExit(f"{name}: precomputed kernels learnt other weights than X (by up to {difference})")
            checks += seconds["check"]
            best = {what: min(values) for what, values in seconds.items()}
            ratio, share = best["precomputed"] / best["from X"], best["check"] / best["precomputed"]
            record.timings[name] = {
                "seconds": seconds,
                "n_iter": int(precomputed.n_iter_),
                "status": precomputed.status_,
                "weight_difference": difference,
            }
            print(
                f"{name}, {where}: from X {best['from X']:.2f} s, precomputed {best['precomputed']:.2f} s "
                f"(ratio {ratio:.2f}, goal <= 1.1); the check alone {best['check']:.2f} s, "
                f"{100 * share:.0f} % of the precomputed fit",
                flush=True,
            )
            sides = {what: measure(f"{name}.fit, {what}", best[what]) for what in ("from X", "precomputed")}
            record.add_ratio(
                f"fit time {name}, precomputed Gram matrices / from X, {where}",
                sides["precomputed"],
                sides["from X"],
                ratio,
                "<= 1.1",
                note="whole fits: from X computes the kernels, precomputed checks them",
            )
            record.add_ratio(
                f"check of the precomputed kernels (training_grams) / precomputed {name} fit, {where}",
                measure("training_grams, check_psd='fast'", best["check"]),
                sides["precomputed"],
                share,
                note="the check's share of the fit",
            )
        if not args.no_full_check:
            full, check = timed(lambda: training_grams(grams, args.n, check_psd="full"))[0], min(checks)
            record.timings["full_check_seconds"] = full
            print(
                f"check_psd='full' (every kernel's eigenvalues) {full:.2f} s, {full / check:.1f} x 'fast'", flush=True
            )
            record.add_ratio(
                f"check of the precomputed kernels, check_psd='fast' / 'full', {where}",
                measure("check_psd='fast' (Gershgorin, single-precision Cholesky)", check),
                measure("check_psd='full' (eigenvalues)", full),
                check / full,
                note="'full' decides as the check before issue 48 did (timed once)",
            )
    if args.quick:
        record.notes.append("--quick: n = 150, one repeat, no full check: checks the script, measures nothing")
    record.write()


if __name__ == "__main__":
    main()
