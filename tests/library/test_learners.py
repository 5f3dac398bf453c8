"""Weak learners: the exact stump search equals brute force; sampled learners follow their kernels' measures."""

import numpy as np
import pytest
from scipy.special import gammaln

from mkbench.learners import FourierFeature, FourierFeatures, Perceptron, Perceptrons, Stump, Stumps, make_family


def _brute_force_stumps(X, constant=False):
    """Every stump +1 above a midpoint between distinct values, as (feature, threshold, column)."""
    stumps = []
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for t in (values[:-1] + values[1:]) / 2:
            stumps.append((j, t, np.where(X[:, j] > t, 1.0, -1.0)))
    if constant:
        stumps.append((0, np.inf, -np.ones(len(X))))
    return stumps


@pytest.fixture()
def tied():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(40, 4)).astype(float)  # many ties
    X[:, 3] = 2.0  # a constant feature has no stump
    w = rng.normal(size=40)
    return X, w


@pytest.mark.parametrize("constant", [False, True])
def test_stump_search_equals_brute_force(tied, constant):
    X, w = tied
    family = Stumps(X, constant=constant)
    candidates = _brute_force_stumps(X, constant)
    assert family.n_candidates == len(candidates)
    scores = np.array([w @ column for _, _, column in candidates])
    best = family.best(w)
    assert best.score == pytest.approx(np.abs(scores).max(), rel=1e-12)
    assert best.score >= 0
    np.testing.assert_array_equal(best.column, best.learner(X))
    assert w @ best.column == pytest.approx(best.score, rel=1e-12)  # negation complete: sign flipped to +
    assert best.sum_squares == pytest.approx(scores @ scores, rel=1e-12)
    k = int(np.argmax(np.abs(scores)))
    np.testing.assert_array_equal(np.abs(best.column), 1.0)
    np.testing.assert_array_equal(best.column * np.sign(scores[k]), candidates[k][2])


def test_exclusion_removes_a_stump_and_its_negation(tied):
    X, w = tied
    family = Stumps(X)
    candidates = _brute_force_stumps(X)
    scores = np.abs([w @ column for _, _, column in candidates])
    order = np.argsort(-scores)
    for rank in range(5):  # the k-th search after k exclusions finds the k-th largest |score|
        best = family.best(w)
        assert best.score == pytest.approx(scores[order[rank]], rel=1e-12)
        family.exclude(best.learner)
        family.exclude(Stump(best.learner.feature, best.learner.threshold, -best.learner.sign))  # no-op
        assert family.n_candidates == len(candidates) - rank - 1


def _numpy_stump_search(family, W):
    """The search in plain numpy: cumulative sums of the sorted weights, edges, row-major argmax."""
    scores = W.sum(axis=0) - 2.0 * np.cumsum(W[family.order], axis=0)  # (n, d, m)
    edge = np.abs(scores).sum(axis=-1)
    edge[~family.available] = -1.0
    row, feature = np.unravel_index(int(np.argmax(edge)), edge.shape)
    return row, feature, scores[row, feature], float(np.sum(scores[family.available] ** 2))


@pytest.fixture()
def twice(tied):
    """Stumps (with the constant one) on the tied points, every stump twice, with bitwise equal scores: exact ties."""
    return Stumps(np.hstack([tied[0][:, ::-1], tied[0]]), constant=True)


@pytest.mark.parametrize("m", [1, 3])
def test_fused_stump_search_equals_numpy_with_its_tie_breaking(twice, m):
    family, rng = twice, np.random.default_rng(2)
    for W in (rng.normal(size=(40, m)), rng.choice([-1.0, 1.0], size=(40, m))):
        row, feature, scores, sum_squares = family.search(W)
        expected = _numpy_stump_search(family, W)
        assert (row, feature) == expected[:2]
        np.testing.assert_allclose(scores, expected[2], rtol=1e-12, atol=1e-12)
        assert sum_squares == pytest.approx(expected[3], rel=1e-12)


@pytest.mark.parametrize("m", [1, 4])
def test_stump_search_per_column_is_each_search_alone_bit_for_bit(twice, m):
    family, rng = twice, np.random.default_rng(3)
    family.exclude(family.best(rng.normal(size=40)).learner)  # an excluded candidate is skipped by both
    for W in (rng.normal(size=(40, m)), rng.choice([-1.0, 1.0], size=(40, m)), np.zeros((40, m))):
        W = np.asfortranarray(W)  # the oracle's U may come in either order
        for fused, alone in zip(family.best_each(W), [family.best(w) for w in W.T], strict=True):
            assert fused.learner == alone.learner
            assert (fused.score, fused.n_candidates, fused.sum_squares) == (
                alone.score,
                alone.n_candidates,
                alone.sum_squares,
            )
            np.testing.assert_array_equal(fused.column, alone.column)
        expected = [_numpy_stump_search(family, w[:, None]) for w in W.T]  # and each one the numpy search's
        assert [(b.learner.feature, b.learner.threshold) for b in family.best_each(W)] == [
            (feature, family.threshold(row, feature)) for row, feature, _, _ in expected
        ]


def test_stump_search_rejects_weights_of_the_wrong_shape(tied):
    family = Stumps(tied[0])
    with pytest.raises(ValueError, match=r"W must have shape \(40, m\)"):
        family.best_each(np.ones((39, 2)))
    with pytest.raises(ValueError, match=r"w must have shape \(40,\)"):
        family.best(np.ones(39))


def test_stump_and_learner_outputs():
    X = np.array([[0.0, 1.0], [2.0, -1.0], [1.0, 0.5]])
    np.testing.assert_array_equal(Stump(0, 0.5)(X), [-1, 1, 1])
    np.testing.assert_array_equal(Stump(1, 0.0, -1.0)(X), [-1, 1, -1])
    np.testing.assert_array_equal(Stump(0, np.inf)(X), [-1, -1, -1])
    np.testing.assert_array_equal(Perceptron(np.array([1.0, 1.0]), 1.0)(X), [-1, -1, 1])  # theta'x = 1, 1, 1.5
    np.testing.assert_allclose(FourierFeature(np.array([1.0, 0.0]), 0.5)(X), np.cos(X[:, 0] - 0.5))


def test_threshold_between_adjacent_floats_keeps_the_split():
    lo = 1.0
    hi = np.nextafter(lo, 2.0)
    X = np.array([[lo], [hi], [lo], [hi]])
    best = Stumps(X).best(np.array([-1.0, 1.0, -1.0, 1.0]))
    np.testing.assert_array_equal(best.column, [-1, 1, -1, 1])
    assert best.score == 4.0


@pytest.mark.parametrize("family_class", [Perceptrons, FourierFeatures])
def test_sampled_search_takes_the_best_drawn_learner(family_class):
    rng = np.random.default_rng(2)
    X, w = rng.normal(size=(25, 3)), rng.normal(size=25)
    kwargs = {"gamma": 0.7} if family_class is FourierFeatures else {}
    best = family_class(X, n_candidates=300, random_state=5, **kwargs).best(w)
    twin = family_class(X, n_candidates=300, random_state=5, **kwargs)  # the same 300 draws
    theta, kappa = twin._draw(300)
    drawn = w @ twin._outputs(X @ theta - kappa)
    assert best.score == pytest.approx(np.abs(drawn).max(), rel=1e-12)
    assert w @ best.learner(X) == pytest.approx(best.score, rel=1e-12)  # negated if needed
    # Fourier scores are summed in float32 (their search picks the float64 learner, tested below)
    assert best.sum_squares == pytest.approx(drawn @ drawn, rel=1e-12 if family_class is Perceptrons else 1e-5)


class _Float64Fourier(FourierFeatures):
    """The reference search: every score in float64."""

    def _scores(self, w, Z, kappa):
        Z -= kappa
        return w @ np.cos(Z), 0.0


class _NoisyFourier(FourierFeatures):
    """Scores off by up to `noise` (at least the bound), declared with that bound: the rescoring must undo it."""

    noise = 0.5

    def _scores(self, w, Z, kappa):
        Z -= kappa
        scores = w @ np.cos(Z)
        noise = np.random.default_rng(scores.size).uniform(-self.noise, self.noise, scores.size)
        return scores + noise, self.noise


@pytest.mark.parametrize("gamma", [0.01, 1.0, 100.0])
def test_fourier_float32_scores_stay_within_their_bound(gamma):
    rng = np.random.default_rng(6)
    X, w = rng.normal(size=(900, 20)), rng.normal(size=900) * rng.uniform(size=900)
    family = FourierFeatures(X, gamma=gamma, random_state=0)
    theta, kappa = family._draw(500)
    Z = X @ theta
    scores, error = family._scores(w, Z, kappa)
    gaps = np.abs(scores - w @ np.cos(X @ theta - kappa))
    assert gaps.max() <= error
    assert 0 < error < 1e-3 * np.abs(w).sum()  # tight enough that few candidates are rescored
    np.testing.assert_array_equal(Z, X @ theta - kappa)  # Z is left for the rescoring


def test_perceptron_scores_are_the_float64_sums_of_the_signed_outputs():
    """Indicators theta'x > kappa written over Z give the scores of the +-1 outputs of theta'x - kappa,
    also for points on a hyperplane (theta'x == kappa: output -1, Perceptron's sign(0))."""
    rng = np.random.default_rng(8)
    X, w = rng.normal(size=(400, 6)), rng.normal(size=400)
    family = Perceptrons(X, random_state=0)
    theta, kappa = family._draw(300)
    kappa[:50] = (X @ theta)[7, :50]  # point 7 on the first 50 hyperplanes
    scores, error = family._scores(w, X @ theta, kappa)
    signed = np.where(X @ theta - kappa > 0, 1.0, -1.0)
    assert error == 0.0 and signed[7, :50].tolist() == [-1.0] * 50
    np.testing.assert_allclose(scores, w @ signed, rtol=0, atol=1e-12 * np.abs(w).sum())


@pytest.mark.parametrize("family_class", [FourierFeatures, _NoisyFourier])
def test_fourier_search_chooses_the_float64_searchs_learner(family_class):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 5))
    for seed, gamma in enumerate([0.05, 0.5, 5.0] * 4):
        w = rng.normal(size=300)
        best = family_class(X, gamma=gamma, n_candidates=700, random_state=seed).best(w)
        reference = _Float64Fourier(X, gamma=gamma, n_candidates=700, random_state=seed).best(w)
        np.testing.assert_array_equal(best.learner.theta, reference.learner.theta)
        assert best.learner.kappa == reference.learner.kappa
        assert best.score == pytest.approx(reference.score, rel=1e-12)


def test_fourier_features_average_to_the_rbf_kernel():
    """E[2 cos(theta'x - kappa) cos(theta'x' - kappa)] = exp(-gamma ||x - x'||^2) (Rahimi & Recht)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(6, 3))
    gamma = 0.4
    family = FourierFeatures(X, gamma=gamma, random_state=0)
    theta, kappa = family._draw(200_000)
    Z = np.cos(X @ theta - kappa)
    estimate = 2 * Z @ Z.T / Z.shape[1]
    exact = np.exp(-gamma * ((X[:, None] - X[None]) ** 2).sum(-1))
    np.testing.assert_allclose(estimate, exact, atol=0.02)


def test_perceptrons_average_to_the_perceptron_kernel():
    """E[h(x) h(x')] = 1 - E|theta_1| ||x - x'|| / R for theta uniform on the sphere, kappa on [-R, R]."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(6, 3))
    family = Perceptrons(X, random_state=0)
    theta, kappa = family._draw(200_000)
    H = family._outputs(X @ theta - kappa)
    estimate = H @ H.T / H.shape[1]
    d = X.shape[1]
    mean_abs_coordinate = np.exp(gammaln(d / 2) - gammaln((d + 1) / 2)) / np.sqrt(np.pi)
    distance = np.linalg.norm(X[:, None] - X[None], axis=-1)
    np.testing.assert_allclose(estimate, 1 - mean_abs_coordinate * distance / family.radius, atol=0.01)
    np.testing.assert_allclose(np.linalg.norm(theta, axis=0), 1.0)


def test_sampling_is_seeded():
    rng = np.random.default_rng(5)
    X, w = rng.normal(size=(20, 2)), rng.normal(size=20)
    a = Perceptrons(X, n_candidates=50, random_state=1).best(w)
    b = Perceptrons(X, n_candidates=50, random_state=1).best(w)
    c = Perceptrons(X, n_candidates=50, random_state=2).best(w)
    np.testing.assert_array_equal(a.learner.theta, b.learner.theta)
    assert not np.array_equal(a.learner.theta, c.learner.theta)


def test_make_family_and_bad_inputs():
    X = np.arange(12.0).reshape(6, 2)
    assert isinstance(make_family("stump", X), Stumps)
    fourier = make_family("fourier", X)
    assert fourier.gamma == pytest.approx(1 / (2 * X.var()))
    with pytest.raises(ValueError, match="learner='tree' is not one of 'stump', 'perceptron', 'fourier'"):
        make_family("tree", X)
    with pytest.raises(ValueError, match="n_candidates must be an integer >= 1"):
        make_family("perceptron", X, n_candidates=0)
    with pytest.raises(ValueError, match="gamma must be a finite number > 0"):
        FourierFeatures(X, gamma=-1.0)
    with pytest.raises(ValueError, match="w must have shape"):
        Stumps(X).best(np.ones(5))
    with pytest.raises(ValueError, match="at least 2 training points"):
        Stumps(X[:1])
    assert Stumps(np.ones((4, 2))).best(np.ones(4)).learner is None  # constant features: no stump
