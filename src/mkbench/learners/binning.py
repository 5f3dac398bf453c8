"""Quantising a feature into at most ``max_bins`` bins for the binned stump search (CGEns §IV, §VI-A).

:func:`bin_feature` chooses the thresholds of one feature from its distinct
values and their counts; :class:`mkbench.learners.BinnedStumps` then scores only
the stumps at those thresholds. Every threshold is one the exact search
(:class:`mkbench.learners.Stumps`) scores too: the midpoint between two
consecutive distinct training values (:func:`mkbench.learners.stumps._midpoint`),
so a binned stump splits the training points exactly where it was scored.

The rule:

* at most ``max_bins`` distinct values: one bin per value, a threshold between
  every two consecutive ones; this is scikit-learn's ``_BinMapper`` rule
  (``_find_binning_thresholds``, scikit-learn 1.9: midpoints of the distinct
  values) and LightGBM's, so the binned family is then the exact one;
* more distinct values: bins of about equal mass, a value never split between
  two bins, chosen greedily from the lowest value up; the mass each bin aims at
  is what is left over the bins left, so a heavy value (the zeros of MNIST's
  pixels, 81 % of them) fills one bin and leaves the others to the rest, as
  LightGBM's ``GreedyFindBin`` does. scikit-learn's rule takes the
  ``max_bins - 1`` evenly spaced percentiles of the points instead and drops the
  duplicates: on a feature 80 % zeros, the percentiles below 80 % all fall on
  0, and about 200 of the 254 thresholds collapse into one, leaving some 50 bins
  for the values that carry the information. Neither subsamples the points here
  (scikit-learn draws 2 x 10^5 of them for its percentiles beyond that size).
"""

from __future__ import annotations

import numba
import numpy as np

from .stumps import _midpoint

__all__ = ["bin_feature", "distinct"]


@numba.njit(cache=True, nogil=True)
def _greedy_cuts(counts: np.ndarray, max_bins: int) -> np.ndarray:
    """Where to close the bins over distinct values with these counts, at most ``max_bins`` bins.

    Walking the values from the lowest, the bin closes after value v when it holds
    at least its share of the points left (points left / bins left), when the next
    value alone holds that share (it gets a bin of its own), or when every value
    left can have a bin of its own.

    Parameters
    ----------
    counts : ndarray of shape (n_values,)
        Points at each distinct value, in increasing order of value.
    max_bins : int

    Returns
    -------
    ndarray of shape (n_bins - 1,), int64
        The values v after which a bin closes, increasing.
    """
    n_values = counts.shape[0]
    cuts = np.empty(max(min(max_bins, n_values) - 1, 0), dtype=np.int64)
    n_cuts, left, held = 0, counts.sum(), 0
    for v in range(n_values - 1):
        bins_left = max_bins - n_cuts
        if bins_left == 1:
            break
        held += counts[v]
        share = left / bins_left
        if held >= share or counts[v + 1] >= share or n_values - 1 - v <= bins_left - 1:
            cuts[n_cuts] = v
            n_cuts += 1
            left -= held
            held = 0
    return cuts[:n_cuts]


def distinct(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of a sorted array and how often each occurs (``np.unique`` without the sort)."""
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    return sorted_values[starts], np.diff(np.r_[starts, sorted_values.size])


def bin_feature(values: np.ndarray, counts: np.ndarray, max_bins: int) -> tuple[np.ndarray, np.ndarray]:
    """The thresholds of a feature with these distinct values, by the rule of the module docstring.

    Point x falls in bin b when thresholds[b - 1] < x <= thresholds[b]
    (``np.searchsorted(thresholds, x)``), scikit-learn's convention.

    Parameters
    ----------
    values : ndarray of shape (n_values,)
        Distinct training values of the feature, increasing.
    counts : ndarray of shape (n_values,)
        Training points at each value.
    max_bins : int
        At most this many bins (>= 2).

    Returns
    -------
    thresholds : ndarray of shape (n_bins - 1,)
        Increasing; each the midpoint of two consecutive distinct values.
    bin_counts : ndarray of shape (n_bins,)
        Training points in each bin (none is empty).
    """
    if values.size <= max_bins:
        cuts = np.arange(values.size - 1)
    else:
        cuts = _greedy_cuts(np.asarray(counts, dtype=np.int64), max_bins)
    bin_counts = np.add.reduceat(counts, np.r_[0, cuts + 1]) if values.size else np.zeros(0, dtype=np.int64)
    return _midpoint(values[cuts], values[cuts + 1]), bin_counts
