"""The binned stump search (issue 44): the exact search where every value has its bin, its bin edges elsewhere.

On features with at most ``max_bins`` distinct values, :class:`BinnedStumps` and
:class:`Stumps` offer the same stumps; under integer weights every sum is exact,
so the two must agree bit for bit, ties (plenty) included; under Gaussian weights
they agree up to the rounding of the sums. With more values, the binned search is
the brute-force search over its bin edges, each one of the exact search's
thresholds, and never beats the exact search.
"""

import json
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse

from mkbench.learners import BinnedStumps, Stump, Stumps, make_family
from mkbench.learners.binning import bin_feature, distinct
from mkbench.learners.stumps import _midpoint

from ..conftest import ROOT


def _points(shape: tuple[int, int], seed: int) -> np.ndarray:
    """Few distinct values per feature: duplicates, negatives, a constant feature, a twin feature, many zeros."""
    rng = np.random.default_rng(seed)
    n, d = shape
    X = rng.integers(-4, 5, size=(n, d)).astype(float) * rng.choice([0.5, 1.0, 3.25], size=d)
    X[:, 1] = 7.0  # constant: no stump
    X[:, 2] = X[:, 0]  # a twin of feature 0: every score tied with it
    X[:, 3:][rng.random((n, d - 3)) < 0.8] = 0.0  # mostly zeros: stored as the points outside the zero bin
    X[:, -1] = rng.integers(0, 256, size=n) * (rng.random(n) < 0.3)  # pixels: up to 256 values, 70 % zeros
    return X


SHAPES = [(40, 6), (300, 12), (1000, 8)]


def _weights(kind: str, n: int, m: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-3, 4, size=(n, m)).astype(float) if kind == "integer" else rng.normal(size=(n, m))


def _same_best(ours, theirs, exact: bool) -> None:
    assert ours.learner == theirs.learner  # feature, threshold and sign
    assert ours.n_candidates == theirs.n_candidates
    if exact:
        assert (ours.score, ours.sum_squares) == (theirs.score, theirs.sum_squares)
    else:
        assert ours.score == pytest.approx(theirs.score, rel=1e-12, abs=1e-12)
        assert ours.sum_squares == pytest.approx(theirs.sum_squares, rel=1e-12)
    if ours.learner is not None:
        np.testing.assert_array_equal(ours.column, theirs.column)


@pytest.mark.parametrize("kind", ["integer", "gaussian"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("constant", [False, True])
def test_binned_search_is_the_exact_search_when_every_value_has_its_bin(shape, kind, constant):
    for seed in range(3):
        X = _points(shape, seed)
        exact = Stumps(X, constant=constant)
        families = [
            BinnedStumps(X, max_bins=256, constant=constant),
            BinnedStumps(scipy.sparse.csr_array(X), max_bins=256, constant=constant),
        ]
        assert (families[0].column >= 0).any() and (families[0].column < 0).any()  # both storages searched
        W = _weights(kind, shape[0], 3, seed)
        for binned in families:
            assert binned.n_candidates == exact.n_candidates
            for w in W.T:
                _same_best(binned.best(w), exact.best(w), kind == "integer")
            for ours, theirs in zip(binned.best_each(W), exact.best_each(W), strict=True):
                _same_best(ours, theirs, kind == "integer")
            row, feature, scores, sum_squares = binned.search(W)
            expected = exact.search(W)
            assert (row, feature) == expected[:2]  # a search names the stump by its sorted position, as the exact one
            assert binned.threshold(row, feature) == exact.threshold(row, feature)
            np.testing.assert_allclose(scores, expected[2], rtol=1e-12, atol=1e-12)
            assert sum_squares == pytest.approx(expected[3], rel=1e-12)


def test_binned_search_per_column_is_each_search_alone_bit_for_bit():
    X, rng = _points((300, 12), 4), np.random.default_rng(5)
    family = BinnedStumps(X, max_bins=16, constant=True)
    family.exclude(family.best(rng.normal(size=300)).learner)
    for W in (rng.normal(size=(300, 4)), np.asfortranarray(rng.normal(size=(300, 4))), np.zeros((300, 2))):
        for fused, alone in zip(family.best_each(W), [family.best(w) for w in W.T], strict=True):
            assert fused.learner == alone.learner
            assert (fused.score, fused.n_candidates, fused.sum_squares) == (
                alone.score,
                alone.n_candidates,
                alone.sum_squares,
            )


@pytest.mark.parametrize("kind", ["integer", "gaussian"])
def test_exclusion_behaves_as_the_exact_one(kind):
    X = _points((300, 12), 6)
    w = _weights(kind, 300, 1, 7)[:, 0]
    exact, binned = Stumps(X, constant=True), BinnedStumps(X, constant=True)
    binned_sparse = BinnedStumps(scipy.sparse.csc_array(X), constant=True)
    for _ in range(8):  # each search after k exclusions finds the same next stump
        expected = exact.best(w)
        for family in (binned, binned_sparse):
            _same_best(family.best(w), expected, kind == "integer")
        for family in (exact, binned, binned_sparse):
            family.exclude(expected.learner)
            family.exclude(Stump(expected.learner.feature, expected.learner.threshold, -expected.learner.sign))  # no-op
    for family in (exact, binned, binned_sparse):  # the constant learner, and a threshold no bin ends at (a no-op)
        family.exclude(Stump(0, np.inf))
        family.exclude(Stump(5, 1e9))
    assert binned.n_candidates == binned_sparse.n_candidates == exact.n_candidates
    _same_best(binned.best(w), exact.best(w), kind == "integer")


def _brute_force_over_bin_edges(family: BinnedStumps, X: np.ndarray, w: np.ndarray) -> tuple[int, float, float, float]:
    """Every stump at the family's thresholds, scored in numpy: (feature, threshold, signed score, sum of squares)."""
    best, sum_squares = (-1, np.nan, 0.0), 0.0
    for j in range(X.shape[1]):
        thresholds = family.thresholds[: family.n_bins[j] - 1, j]
        scores = np.where(X[:, j, None] > thresholds, 1.0, -1.0).T @ w
        sum_squares += scores @ scores
        if scores.size and np.abs(scores).max() > abs(best[2]):
            k = int(np.argmax(np.abs(scores)))
            best = (j, thresholds[k], scores[k])
    return *best, sum_squares


@pytest.mark.parametrize("max_bins", [4, 32, 255])
def test_binned_search_with_more_values_than_bins_is_the_search_over_its_edges(max_bins):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(2000, 6)).round(3)
    X[rng.random((2000, 6)) < np.linspace(0, 0.9, 6)] = 0.0  # from no zeros to 90 % zeros
    X[:, 5] = rng.integers(0, 3 * max_bins, size=2000)  # a few heavy values
    family, exact = BinnedStumps(X, max_bins=max_bins), Stumps(X)
    for j in range(X.shape[1]):  # bins: at most max_bins, none empty, thresholds among the exact search's
        values = np.unique(X[:, j])
        assert values.size > max_bins and family.n_bins[j] == max_bins or family.n_bins[j] == values.size
        thresholds = family.thresholds[: family.n_bins[j] - 1, j]
        assert set(thresholds) <= set(_midpoint(values[:-1], values[1:]))
        counts = np.diff(np.r_[-1, family.positions[: family.n_bins[j], j]])
        np.testing.assert_array_equal(counts, np.histogram(X[:, j], np.r_[-np.inf, thresholds, np.inf])[0])
    for seed in range(3):
        w = np.random.default_rng(seed).normal(size=2000)
        best = family.best(w)
        feature, threshold, score, sum_squares = _brute_force_over_bin_edges(family, X, w)
        assert best.learner == Stump(feature, threshold, np.sign(score))
        assert best.score == pytest.approx(abs(score), rel=1e-12)
        assert best.sum_squares == pytest.approx(sum_squares, rel=1e-12)
        assert best.score <= exact.best(w).score * (1 + 1e-12)


def test_binning_rule():
    values = np.arange(10.0)
    thresholds, counts = bin_feature(values, np.full(10, 3), max_bins=10)  # one bin per value: the midpoints
    np.testing.assert_array_equal(thresholds, values[:-1] + 0.5)
    np.testing.assert_array_equal(counts, np.full(10, 3))
    thresholds, counts = bin_feature(np.arange(1000.0), np.ones(1000, dtype=int), max_bins=10)  # equal masses
    np.testing.assert_array_equal(counts, np.full(10, 100))
    values, counts = distinct(np.sort(np.r_[np.zeros(8000), np.arange(1.0, 2001.0)]))  # 80 % zeros: one bin
    thresholds, bin_counts = bin_feature(values, counts, max_bins=255)
    assert bin_counts.size == 255 and bin_counts[0] == 8000 and thresholds[0] == 0.5
    assert bin_counts[1:].max() - bin_counts[1:].min() <= 1  # the other 254 bins share the rest
    values, counts = distinct(np.sort(np.r_[np.arange(1.0, 2001.0), np.full(8000, 3000.0)]))  # a heavy top value
    thresholds, bin_counts = bin_feature(values, counts, max_bins=255)
    assert bin_counts.size == 255 and bin_counts[-1] == 8000 and thresholds[-1] == 2500.0
    thresholds, bin_counts = bin_feature(np.array([2.0]), np.array([5]), max_bins=255)  # a constant feature
    assert thresholds.size == 0 and bin_counts.tolist() == [5]


def test_binning_follows_scikit_learn_when_every_value_has_its_bin():
    from sklearn.ensemble._hist_gradient_boosting.binning import _find_binning_thresholds

    x = np.random.default_rng(9).integers(-50, 50, size=500) / 7.0
    thresholds, _ = bin_feature(*distinct(np.sort(x)), max_bins=255)
    np.testing.assert_allclose(thresholds, _find_binning_thresholds(x, 255), rtol=1e-15)


def test_binned_family_by_name_and_bad_input():
    X = _points((40, 6), 0)
    assert type(make_family("stump", X)) is Stumps  # the exact search stays the default
    family = make_family("stump", X, max_bins=255, constant=True)
    assert (
        type(family) is BinnedStumps
        and family.max_bins == 255
        and family.n_candidates == Stumps(X, constant=True).n_candidates
    )
    for max_bins in (1, 257, 2.5):
        with pytest.raises(ValueError, match="max_bins must be an integer from 2 to 256"):
            BinnedStumps(X, max_bins=max_bins)
    with pytest.raises(ValueError, match="at least 2 training points"):
        BinnedStumps(X[:1])
    with pytest.raises(ValueError, match=r"w must have shape \(40,\)"):
        family.best(np.ones(39))
    with pytest.raises(ValueError, match=r"W must have shape \(40, m\)"):
        family.best_each(np.ones((39, 2)))
    assert BinnedStumps(np.ones((4, 2))).best(np.ones(4)).learner is None  # constant features: no stump
    assert BinnedStumps(np.ones((4, 2))).search(np.ones((4, 2)))[:2] == (-1, -1)


def test_benchmark_runs(tmp_path):
    out = tmp_path / "stump_binning.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "stump_binning.py"), "--quick", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text())
    assert record["benchmark"] == "stump_binning" and record["issue"] == 44 and record["ratios"]
    assert all(r["goal"] is None or isinstance(r["met"], bool) for r in record["ratios"])
