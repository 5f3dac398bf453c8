"""CGEns: each restricted master is the linear SVM on the chosen learners; at termination, the SVM on all stumps."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from mkbench.estimators.cgens import CGEnsClassifier
from mkbench.estimators.cgens_sls import CGEnsSLSClassifier, simplex_code
from mkbench.estimators.lpboost import LPBoostClassifier
from mkbench.learners import FourierFeature, Perceptron, Stump, Stumps, outputs
from mkbench.masters import MasterSolution, solve_qp
from mkbench.masters.simplex_ls import SimplexLSMaster
from mkbench.oracles import LearnerOracle

from ._weight_checks import CG_PATH, DUAL_CD, weight_checks


@pytest.fixture(scope="module")
def circle():
    """The 2-D toy of Fig. 1: Gaussian points, the class is whether they lie inside a radius."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    inside = (X**2).sum(1) + 0.3 * rng.normal(size=40) < 1.2
    return X, np.where(inside, "in", "out")


def all_stumps(X):
    """Every stump +1 above a midpoint of consecutive distinct values (one sign: the SVM weight is free)."""
    columns = []
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        columns += [np.where(X[:, j] > t, 1.0, -1.0) for t in (values[:-1] + values[1:]) / 2]
    return np.column_stack(columns)


# Each master's problem as a direct QP: (1) with a free offset (libsvm, or dual coordinate descent with
# the method of multipliers), or liblinear's variant, with b^2 / 2 in the objective (B = 1).
ROUTES = {"libsvm": ("libsvm", True), "dual_cd": ("dual_cd", "regularized"), "dual_cd-free": ("dual_cd", True)}
OFFSETS = {name: "free" if fit_intercept is True else "regularized" for name, (_, fit_intercept) in ROUTES.items()}


def _route(name):
    solver, fit_intercept = ROUTES[name]
    return {"solver": solver, "fit_intercept": fit_intercept}


@pytest.mark.parametrize("route", ROUTES)
def test_terminates_at_the_svm_over_all_stumps(circle, route):
    X, labels = circle
    signed = np.where(labels == "out", 1.0, -1.0)  # classes_ = ["in", "out"]
    model = CGEnsClassifier(C=0.5, max_iter=500, tol=1e-7, solver_tol=1e-9, **_route(route)).fit(X, labels)
    full = solve_qp(all_stumps(X), signed, 0.5, alpha_sign="free", intercept=OFFSETS[route])  # Clarabel, all 78
    assert model.status_ == "optimal"
    # With libsvm's exact sum_i y_i alpha_i = 0, a stump above only non-support points scores
    # exactly 0, so fewer stumps enter; a penalised offset breaks that cancellation, and the method
    # of multipliers keeps it only to its tolerance.
    if route == "libsvm":
        assert model.n_iter_ < all_stumps(X).shape[1]
    assert model.history_[-1]["objective"] == pytest.approx(full.objective, rel=1e-4)
    assert model.history_[-1]["duality_gap"] < 1e-8  # Claim IV.1 over the stumps not chosen
    f_full = all_stumps(X) @ full.alpha + full.intercept  # F is unique (strictly convex in Phi'w)
    np.testing.assert_allclose(model.decision_function(X), f_full, atol=1e-3 * np.abs(f_full).max())


@pytest.mark.parametrize("route", ROUTES)
def test_every_restricted_master_is_the_svm_on_the_chosen_learners(circle, route):
    X, labels = circle
    signed = np.where(labels == "out", 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = CGEnsClassifier(C=2.0, max_iter=25, solver_tol=1e-9, loose_tol=None, **_route(route)).fit(X, labels)
    assert model.n_iter_ == 25 and model.status_ == "max_iter"
    H = outputs(model.learners_, X)
    objectives = [row["objective"] for row in model.history_]
    for t in range(0, 26, 5):
        direct = solve_qp(H[:, :t], signed, 2.0, alpha_sign="free", intercept=OFFSETS[route])
        assert objectives[t] == pytest.approx(direct.objective, rel=1e-4)
        f_direct = H[:, :t] @ direct.alpha + direct.intercept
        f_path = H[:, :t] @ model.coef_path_[t] + model.intercept_path_[t]
        np.testing.assert_allclose(f_path, f_direct, atol=1e-3 * max(1.0, np.abs(f_direct).max()))
    # adding columns never hurts
    assert all(a >= b - 1e-7 * a for a, b in zip(objectives, objectives[1:], strict=False))
    staged = list(model.staged_decision_function(X))
    assert len(staged) == 25
    np.testing.assert_allclose(staged[-1], model.decision_function(X))
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))


@pytest.mark.parametrize("C", [0.5, 2.0])
def test_loose_masters_on_the_way_still_return_the_tight_restricted_svm(circle, C):
    """loose_tol (the default): the masters on the way are loose, the model returned is the tight one."""
    X, labels = circle
    signed = np.where(labels == "out", 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = CGEnsClassifier(C=C, max_iter=12, solver_tol=1e-9).fit(X, labels)  # loose_tol=0.1
    assert model.status_ == "max_iter" and len(model.coef_path_) == model.n_iter_ + 1
    H = outputs(model.learners_, X)
    direct = solve_qp(H, signed, C, alpha_sign="free", intercept="regularized")
    f_direct = H @ direct.alpha + direct.intercept
    f = model.decision_function(X)
    primal = 0.5 * (model.coef_ @ model.coef_ + model.intercept_**2) + C * np.maximum(0.0, 1.0 - signed * f).sum()
    assert primal == pytest.approx(direct.objective, rel=1e-7)
    np.testing.assert_allclose(f, f_direct, atol=1e-3 * max(1.0, np.abs(f_direct).max()))
    # the loose solves on the way stop short of their optimum: the check above is not vacuous
    loose = [row["objective"] for row in model.history_]
    direct_path = [
        solve_qp(H[:, :t], signed, C, alpha_sign="free", intercept="regularized").objective for t in range(12)
    ]
    assert max(abs(a - b) / b for a, b in zip(loose, direct_path, strict=False)) > 1e-6


def _solution(w):
    nan = np.full(len(w), np.nan)
    return MasterSolution(np.zeros(0), 0.0, nan, nan, w, 0.0, "optimal", 0, 0.0)


class _FreeQP:
    """What LearnerOracle reads from a free-sign 2-norm master: |score| > 0 violates (eq. 8)."""

    score_threshold, alpha_sign = 0.0, "free"

    def violation(self, scores):
        return np.abs(scores)


def test_selection_rule_is_the_largest_absolute_score_among_learners_not_chosen():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 3))
    K = all_stumps(X)
    oracle = LearnerOracle(Stumps(X), exclude_chosen=True)
    chosen = []
    for _ in range(6):
        w = rng.normal(size=30)
        w -= w.mean()  # sum_i y_i alpha_i = 0, as the SVM dual with an offset
        scores = np.abs(K.T @ w)
        chosen_columns = [
            np.flatnonzero(np.all(K == c[:, None], axis=0) | np.all(K == -c[:, None], axis=0)) for c in chosen
        ]
        if chosen_columns:
            scores[np.concatenate(chosen_columns)] = -np.inf
        pricing = oracle.price(_solution(w), _FreeQP(), tol=0.0)
        assert pricing.max_violation == pytest.approx(scores.max(), rel=1e-12)
        assert w @ pricing.column == pytest.approx(scores.max(), rel=1e-12)  # eq. 6 after Claim IV.2
        assert pricing.duality_gap == pytest.approx(0.5 * np.sum(scores[np.isfinite(scores)] ** 2), rel=1e-12)
        oracle.add(pricing.choice)
        chosen.append(pricing.column)
    assert oracle.price(_solution(np.zeros(30)), _FreeQP(), tol=1e-9).choice is None


def test_selection_over_the_columns_of_a_multiclass_dual():
    rng = np.random.default_rng(4)
    X, U = rng.normal(size=(20, 2)), rng.normal(size=(20, 3))
    pricing = LearnerOracle(Stumps(X), exclude_chosen=True).price(_solution(U), _FreeQP(), tol=0.0)
    assert pricing.max_violation == pytest.approx(np.abs(all_stumps(X).T @ U).max(), rel=1e-12)  # eq. 13


def test_string_labels_and_predictions(circle):
    X, labels = circle
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # max_iter is the ensemble's size: reaching it is no warning
        model = CGEnsClassifier(C=1.0, max_iter=10).fit(X, labels)
    assert model.status_ == "max_iter"
    assert list(model.classes_) == ["in", "out"]
    assert set(model.predict(X)) <= {"in", "out"}
    assert model.score(X, labels) > 0.8
    assert all(isinstance(h, Stump) for h in model.learners_)
    assert len(model.coef_) == model.n_iter_ == len(model.learners_)


@pytest.mark.parametrize(("learner", "kind"), [("perceptron", Perceptron), ("fourier", FourierFeature)])
def test_sampled_learners(circle, learner, kind):
    X, labels = circle
    signed = np.where(labels == "out", 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = CGEnsClassifier(learner, max_iter=15, n_candidates=200, gamma=0.5, random_state=0).fit(X, labels)
        b = CGEnsClassifier(learner, max_iter=15, n_candidates=200, gamma=0.5, random_state=0).fit(X, labels)
    assert all(isinstance(h, kind) for h in a.learners_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))  # seeded
    direct = solve_qp(outputs(a.learners_, X), signed, 1.0, alpha_sign="free", intercept="regularized")
    assert a.history_[-1]["objective"] == pytest.approx(direct.objective, rel=1e-4)
    assert np.isnan(a.history_[-1]["duality_gap"])  # not an exhaustive search


def test_bad_inputs_have_clear_messages(circle):
    X, labels = circle
    with pytest.raises(ValueError, match="Only binary classification is supported.*CGEnsSLSClassifier"):
        CGEnsClassifier().fit(X[:30], np.repeat(["a", "b", "c"], 10))
    with pytest.raises(ValueError, match=r"'learner' parameter of CGEnsClassifier must be a str among .*Got 'tree'"):
        CGEnsClassifier("tree").fit(X, labels)
    with pytest.raises(ValueError, match=r"'C' parameter .* must be a float in the range \(0.0, inf\). Got 0"):
        CGEnsClassifier(C=0).fit(X, labels)
    with pytest.raises(ValueError, match=r"'max_iter' parameter .* must be an int in the range \[0, inf\). Got 2.5"):
        CGEnsClassifier(max_iter=2.5).fit(X, labels)
    with pytest.raises(ValueError, match=r"'n_candidates' parameter .* must be an int in the range \[1, inf\)"):
        CGEnsClassifier("perceptron", n_candidates=0).fit(X, labels)
    with pytest.raises(ValueError, match=r"'gamma' parameter .* a float in the range \(0.0, inf\) or None. Got -1"):
        CGEnsClassifier("fourier", gamma=-1.0).fit(X, labels)
    with pytest.raises(ValueError, match=r"'time_limit' parameter .* \(0.0, inf\) or None. Got 0"):
        CGEnsClassifier(time_limit=0).fit(X, labels)
    with pytest.raises(ValueError, match=r"'solver' parameter .* a str among \{.*'libsvm'.*\}. Got 'liblinear'"):
        CGEnsClassifier(solver="liblinear").fit(X, labels)
    with pytest.raises(ValueError, match=r"'fit_intercept' parameter .* a bool among \{True\} or a str among"):
        CGEnsClassifier(fit_intercept=False).fit(X, labels)
    with pytest.raises(
        ValueError, match="solver='libsvm' solves the SVM \\(1\\) with a free offset: pass fit_intercept=True"
    ):
        CGEnsClassifier(solver="libsvm").fit(X, labels)
    with pytest.raises(ValueError, match=r"'loose_tol' parameter .* \(0.0, inf\) or None. Got 0"):
        CGEnsClassifier(loose_tol=0).fit(X, labels)


@pytest.mark.parametrize("estimator", [CGEnsClassifier, LPBoostClassifier, CGEnsSLSClassifier])
def test_time_limit_stops_the_loop_with_its_status(circle, estimator):
    X, labels = circle
    message = r"stopped \(time_limit\) after 0 learners.*raise time_limit to add the max_iter=50 learners"
    with pytest.warns(ConvergenceWarning, match=message):
        model = estimator(max_iter=50, time_limit=1e-9).fit(X, labels)
    assert model.status_ == "time_limit" and model.n_iter_ == 0


@pytest.mark.parametrize("estimator", [CGEnsClassifier, LPBoostClassifier, CGEnsSLSClassifier])
def test_a_default_fit_warns_nothing_and_a_time_limit_stop_still_warns(estimator):
    """Issue 42: max_iter is the ensemble's size (as AdaBoost's n_estimators), so a default fit on raw
    breast-cancer features, which ends there, warns nothing; stopped by time_limit short of it, it warns."""
    X, y = load_breast_cancer(return_X_y=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = estimator().fit(X, y)
    assert [str(w.message) for w in caught] == []
    assert model.status_ == "max_iter" and model.n_iter_ == model.max_iter  # the cap was reached, silently
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stopped = estimator(time_limit=1e-9).fit(X, y)
    assert stopped.status_ == "time_limit"
    assert [w.category for w in caught] == [ConvergenceWarning]
    assert "stopped (time_limit) after 0 learners" in str(caught[0].message)


@parametrize_with_checks(
    [CGEnsClassifier(max_iter=20), CGEnsClassifier("perceptron", max_iter=10, n_candidates=100, random_state=0)],
    expected_failed_checks=lambda estimator: weight_checks(f"{CG_PATH}; and {DUAL_CD}"),
)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


# CGEns-SLS (Algorithm 2)


@pytest.mark.parametrize("n_classes", [2, 3, 4, 7])
def test_simplex_code_is_a_regular_simplex(n_classes):
    code = simplex_code(n_classes)
    assert code.shape == (n_classes, n_classes - 1)
    expected = np.full((n_classes, n_classes), -1.0 / (n_classes - 1))
    np.fill_diagonal(expected, 1.0)
    np.testing.assert_allclose(code @ code.T, expected, atol=1e-12)
    np.testing.assert_allclose(code.sum(axis=0), 0.0, atol=1e-12)


def _direct_sls(H, L, C):
    """Problem (10) as one least-squares solve: min 1/2 ||W||^2 + C/2 ||L - H W - 1 b'||^2."""
    m, J = H.shape
    A = np.vstack([np.sqrt(C) * np.hstack([H, np.ones((m, 1))]), np.hstack([np.eye(J), np.zeros((J, 1))])])
    B = np.vstack([np.sqrt(C) * L, np.zeros((J, L.shape[1]))])
    theta = np.linalg.lstsq(A, B, rcond=None)[0]
    W, b = theta[:J], theta[J]
    residual = L - H @ W - b
    return W, b, 0.5 * np.sum(W**2) + 0.5 * C * np.sum(residual**2)


@pytest.mark.parametrize(("m", "C", "n_learners"), [(30, 0.7, 8), (400, 1e3, 40)])
def test_restricted_master_equals_direct_solves_after_each_learner(m, C, n_learners):
    """The closed form (11), reached through the J x J system, is the direct solve of (10) at every step.

    The second case has m >> J, a large C and nearly equal learners (stumps one point apart),
    where the J x J system is least well conditioned.
    """
    rng = np.random.default_rng(5)
    L = simplex_code(4)[rng.integers(0, 4, m)]
    master = SimplexLSMaster(L, C)
    H = np.zeros((m, 0))
    z = rng.normal(size=m)
    for t in range(n_learners):
        h = np.where(z > np.sort(z)[t // 2 + m // 3] if t % 2 else rng.normal(size=m) > 0, 1.0, -1.0)
        master.add_columns(h)
        H = np.column_stack([H, h])
        solution = master.solve()
        W, b, objective = _direct_sls(H, L, C)
        scale = max(1.0, np.abs(W).max())
        np.testing.assert_allclose(solution.alpha, W, atol=1e-9 * scale)  # eq. 11
        np.testing.assert_allclose(solution.intercept, b, atol=1e-9 * scale)
        assert solution.objective == pytest.approx(objective, rel=1e-10)
        np.testing.assert_allclose(solution.duals, C * (L - H @ W - b), atol=1e-9 * C)  # U = C O (eq. 18c)
        np.testing.assert_allclose(H.T @ solution.duals, solution.alpha, atol=1e-8 * C)  # w_tau = H U (eq. 11)
        S = H @ H.T + np.eye(m) / C
        np.testing.assert_allclose(S @ solution.duals, L - b, atol=1e-8 * C)  # U = S^-1 (L - 1 b') (eq. 11)
    np.testing.assert_allclose(master.H, H, atol=1e-12)


def test_sls_terminates_at_problem_10_over_all_stumps():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(24, 2))
    y = np.digitize(X[:, 0] + 0.5 * X[:, 1], [-0.5, 0.5])  # 3 classes
    model = CGEnsSLSClassifier(C=0.3, max_iter=500, tol=1e-9).fit(X, y)
    _, _, objective = _direct_sls(all_stumps(X), simplex_code(3)[y], 0.3)
    assert model.status_ == "optimal"
    assert model.history_[-1]["objective"] == pytest.approx(objective, rel=1e-8)
    assert model.history_[-1]["duality_gap"] < 1e-12


def test_sls_decodes_by_the_nearest_code_vector():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = CGEnsSLSClassifier(C=10.0, max_iter=40).fit(X, names)
    scores = model.decision_function(X)
    assert scores.shape == (150, 3)
    F = outputs(model.learners_, X) @ model.coef_ + model.intercept_
    np.testing.assert_allclose(scores, F @ model.code_.T)  # eq. 15
    np.testing.assert_array_equal(model.predict(X), model.classes_[scores.argmax(1)])
    assert model.score(X, names) > 0.95


def test_sls_staged_predictions_are_the_fits_stopped_after_t_learners():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = CGEnsSLSClassifier(C=10.0, max_iter=12).fit(X, y)
        staged = list(model.staged_predict(X))
        assert len(staged) == model.n_iter_ == 12
        np.testing.assert_array_equal(staged[-1], model.predict(X))
        for t in (1, 5, 9):
            stopped = CGEnsSLSClassifier(C=10.0, max_iter=t).fit(X, y)
            np.testing.assert_allclose(model.coef_path_[t], stopped.coef_, atol=1e-10)
            np.testing.assert_array_equal(staged[t - 1], stopped.predict(X))


@parametrize_with_checks([CGEnsSLSClassifier(max_iter=20)], expected_failed_checks=lambda e: weight_checks(CG_PATH))
def test_sls_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
