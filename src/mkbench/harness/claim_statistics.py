"""The statistics that decide a claim, each with its standard error from the runs.

Every comparison of a claim check (:mod:`mkbench.harness.claim_checks`) is one of these,
set against the threshold the claim's words imply:

``mean``
    One method's mean over its runs; standard error ``sd / sqrt(n)``.
``difference``
    ``mean(b - a)`` paired over the runs both have (same data set, seed and split); standard
    error of the paired mean.
``ratio``
    ``mean(b) / mean(a)`` over the same paired runs; standard error by the delta method,
    ``sd(b - R a) / (sqrt(n) |mean(a)|)``.
``trend``
    Spearman's rho between a grouping field and the size ``|mean(b - a)|`` of each group's
    difference; standard error from a seeded bootstrap of the runs within each group.
``slope``
    The least-squares slope of ``log y`` on ``log x`` (a benchmark's scaling); its closed-form
    standard error from the residuals.

A statistic from a single run has no standard error (NaN): it is reported as measured, marked
"one run", and cannot be within noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import rankdata

#: Resamples and seed of the trend's bootstrap: fixed, so a verdict never changes between runs of the report.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0


@dataclass(frozen=True)
class Comparison:
    """One statistic set against the claim's threshold.

    ``label`` names the group (e.g. ``"mnist-odd-even, cgboost-l2-L+Q"``), ``value`` is the
    statistic, ``se`` its standard error (NaN when it has none: one run), ``n`` the number of
    runs (or groups, points) behind it. ``methods`` are the methods it compares (``a`` first) and
    ``datasets`` the data sets it covers, when it reads records of data sets.
    """

    label: str
    value: float
    se: float
    n: int
    at_least: float | None = None
    at_most: float | None = None
    methods: tuple[str, ...] = ()
    datasets: tuple[str, ...] = ()

    @property
    def holds(self) -> bool:
        """Whether the value meets every bound."""
        return (self.at_least is None or self.value >= self.at_least) and (
            self.at_most is None or self.value <= self.at_most
        )

    @property
    def within_noise(self) -> bool:
        """Closer to a threshold than two standard errors: the runs cannot tell."""
        bounds = [b for b in (self.at_least, self.at_most) if b is not None]
        return math.isfinite(self.se) and min(abs(self.value - b) for b in bounds) < 2 * self.se

    def __str__(self) -> str:
        se = f" ± {self.se:.2g}" if math.isfinite(self.se) else (" (one run: no uncertainty)" if self.n <= 1 else "")
        if self.at_least is not None and self.at_most is not None:
            needs = f"in [{self.at_least:.4g}, {self.at_most:.4g}]"
        else:
            needs = f">= {self.at_least:.4g}" if self.at_least is not None else f"<= {self.at_most:.4g}"
        return f"{self.label}: {self.value:.4g}{se} (needs {needs})"


def mean_se(values: np.ndarray) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (NaN for one value)."""
    values = np.asarray(values, dtype=float)
    se = values.std(ddof=1) / math.sqrt(values.size) if values.size > 1 else math.nan
    return float(values.mean()), float(se)


def difference(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """``mean(b - a)`` over paired runs and its standard error."""
    return mean_se(np.asarray(b, dtype=float) - np.asarray(a, dtype=float))


def ratio(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """``mean(b) / mean(a)`` over paired runs and its delta-method standard error (NaN for one run)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    value = b.mean() / a.mean()
    if a.size < 2 or not math.isfinite(value):
        return float(value), math.nan
    residual = b - value * a
    return float(value), float(residual.std(ddof=1) / math.sqrt(a.size) / abs(a.mean()))


def trend(along: np.ndarray, differences: list[np.ndarray]) -> tuple[float, float]:
    """Spearman's rho between ``along`` and ``|mean(d)|`` of each group's paired differences ``d``,
    with the standard error of a seeded bootstrap that resamples the runs within each group."""
    along = np.asarray(along, dtype=float)
    sizes = np.array([abs(np.mean(d)) for d in differences])
    value = _spearman(along, sizes[None, :])[0]
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    resampled = np.column_stack(
        [
            np.abs(np.asarray(d, dtype=float)[rng.integers(0, len(d), (BOOTSTRAP_RESAMPLES, len(d)))].mean(axis=1))
            for d in differences
        ]
    )
    draws = _spearman(along, resampled)
    draws = draws[np.isfinite(draws)]
    se = float(draws.std(ddof=1)) if draws.size > 1 else math.nan
    return float(value), se


def _spearman(x: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Spearman's rho of ``x`` against each row of ``ys`` (NaN for a constant row)."""
    rx = rankdata(x)
    ry = rankdata(ys, axis=1)
    rx, ry = rx - rx.mean(), ry - ry.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (ry @ rx) / np.sqrt((ry**2).sum(axis=1) * (rx @ rx))


def loglog_slope(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The least-squares slope of ``log y`` on ``log x`` and its standard error (NaN under three points)."""
    lx, ly = np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    centred = lx - lx.mean()
    slope = float(centred @ (ly - ly.mean()) / (centred @ centred))
    if lx.size < 3:
        return slope, math.nan
    residual = ly - ly.mean() - slope * centred
    return slope, float(math.sqrt(residual @ residual / (lx.size - 2) / (centred @ centred)))
