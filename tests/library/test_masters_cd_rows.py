"""The int8 copy of the dual CD masters' rows (masters/_cd_rows.py): the same iterates bit for bit as float64.

Each master is solved twice on the same integer-valued columns: with the int8 copy (the default)
and with it refused (``int8_exact`` patched to False, the float64 route of before), and every
number of the solutions must be equal exactly, over column-generation paths that reach Newton's
method (large C), the active set's dropped columns and the free offset's rescaled B.
"""

import numpy as np
import pytest
from sklearn.svm import LinearSVC

from mkbench import CGEnsClassifier
from mkbench.masters import (
    FreeOffsetSVMCDMaster,
    LinearSVMCDMaster,
    NonnegFreeOffsetSVMCDMaster,
    NonnegLinearSVMCDMaster,
    _cd_rows,
    dual_cd,
    svm_cd,
    svm_cd_offset,
)
from mkbench.masters._cd_rows import DescentRows, int8_exact


@pytest.fixture
def seen_dtypes(monkeypatch):
    """The dtypes of the rows every coordinate-descent call read."""
    dtypes = []

    def recording(X, *args):
        dtypes.append(X.dtype)
        return dual_cd._dual_cd(X, *args)

    monkeypatch.setattr(svm_cd, "_dual_cd", recording)
    monkeypatch.setattr(svm_cd_offset, "_dual_cd", recording)
    return dtypes


def _sign_problem(seed, n=300, k=40, zeros=False):
    """Labels from a noisy linear rule over k columns of +-1 (and 0 where ``zeros``)."""
    rng = np.random.default_rng(seed)
    H = rng.choice([-1.0, 0.0, 1.0] if zeros else [-1.0, 1.0], size=(n, k))
    y = np.where(H[:, :5].sum(axis=1) + rng.normal(0, 1.5, n) > 0, 1.0, -1.0)
    return H, y


def _path(make, H):
    """Column generation's sequence of solves: the columns one at a time, each master solved warm."""
    master, solutions = make(), []
    for j in range(H.shape[1]):
        master.add_columns(H[:, j])
        solutions.append(master.solve())
    master.tighten()
    solutions.append(master.solve())
    return master, solutions


def _both_routes(monkeypatch, make, H):
    compact, compact_solutions = _path(make, H)
    with monkeypatch.context() as patch:
        patch.setattr(_cd_rows, "int8_exact", lambda K: False)
        dense, dense_solutions = _path(make, H)
    return (compact, compact_solutions), (dense, dense_solutions)


def _assert_same(ours, theirs):
    for a, b in zip(ours, theirs, strict=True):
        assert a.iterations == b.iterations
        for field in ("alpha", "duals", "pricing_weights", "xi"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), field
        assert a.intercept == b.intercept and a.objective == b.objective


def test_int8_exact_accepts_small_integers_only():
    assert int8_exact(np.array([[-1.0, 0.0, 1.0], [127.0, -127.0, 3.0]]))
    for bad in (0.5, 128.0, -128.5, -0.0, 1e-300):
        assert not int8_exact(np.array([[1.0, bad]]))


def test_descent_rows_keep_the_int8_copy_while_exact():
    rows = DescentRows(4)
    rows.append(np.ones((4, 1)))
    rows.append(np.array([[1.0, -1.0], [0.0, 1.0], [-1.0, -1.0], [1.0, 0.0]]))
    assert rows.compact and rows.descent.dtype == np.int8 and np.array_equal(rows.descent, rows.array)
    order = rows.keep(np.array([True, False, True]))
    assert np.array_equal(order, [0, 2]) and np.array_equal(rows.descent, rows.array)
    rows.set_column(0, 2.0)
    assert rows.compact and np.array_equal(rows.descent, rows.array)
    rows.set_column(0, 0.3)  # the free offset's B is seldom an integer
    assert not rows.compact and rows.descent is not None and rows.descent.dtype == np.float64
    rows = DescentRows(4)
    rows.append(np.ones((4, 1)))
    rows.append(np.full((4, 1), 0.5))  # a real-valued column: float64 from then on
    rows.append(np.ones((4, 1)))
    assert not rows.compact and np.array_equal(rows.descent, [[1.0, 0.5, 1.0]] * 4)
    assert not DescentRows(4, compact=False).compact


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("zeros", [False, True])
def test_int8_rows_give_the_float64_iterates_bit_for_bit(monkeypatch, seen_dtypes, seed, C, zeros):
    H, y = _sign_problem(seed, zeros=zeros)
    (compact, ours), (dense, theirs) = _both_routes(monkeypatch, lambda: LinearSVMCDMaster(y, C, loose_tol=0.1), H)
    assert compact._X.compact and not dense._X.compact
    assert np.int8 in seen_dtypes and np.float64 in seen_dtypes  # both routes ran coordinate descent
    _assert_same(ours, theirs)
    if C == 100.0:
        assert compact.n_newton_solves > 0  # Newton's products X d from the int8 rows too (svm_cd_newton)


@pytest.mark.parametrize("make", [NonnegLinearSVMCDMaster, FreeOffsetSVMCDMaster, NonnegFreeOffsetSVMCDMaster])
def test_int8_rows_give_the_same_iterates_in_the_other_cd_masters(monkeypatch, make):
    """The active set drops columns (in both copies alike); the free offset centres them (no copy left)."""
    H, y = _sign_problem(2, k=30)
    H[:, ::3] = np.where(np.arange(H.shape[0])[:, None] % 2 == 0, 1.0, -1.0)  # mean 0: centring leaves them +-1
    (_, ours), (_, theirs) = _both_routes(monkeypatch, lambda: make(y, 1.0, tol=1e-6), H)
    _assert_same(ours, theirs)


def test_int8_rows_solve_to_liblinear(seen_dtypes):
    H, y = _sign_problem(3, n=400, k=25)
    solution = LinearSVMCDMaster(y, 0.1, tol=1e-10, columns=H).solve()
    assert seen_dtypes == [np.int8]
    liblinear = LinearSVC(loss="hinge", C=0.1, tol=1e-10, max_iter=1_000_000, random_state=0).fit(H, y)
    np.testing.assert_allclose(solution.alpha, liblinear.coef_[0], atol=1e-6)
    assert solution.intercept == pytest.approx(liblinear.intercept_[0], abs=1e-6)


@pytest.mark.parametrize("C", [0.01, 10.0])
def test_cgens_over_stumps_fits_the_same_model_from_int8_rows(monkeypatch, seen_dtypes, C):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 8))
    y = (X[:, 0] + X[:, 1] ** 2 + rng.normal(0, 0.5, 300) > 1).astype(int)
    compact = CGEnsClassifier(C=C, max_iter=40, tol=0.0).fit(X, y)
    assert set(seen_dtypes) == {np.dtype(np.int8)}
    with monkeypatch.context() as patch:
        patch.setattr(_cd_rows, "int8_exact", lambda K: False)
        dense = CGEnsClassifier(C=C, max_iter=40, tol=0.0).fit(X, y)
    assert np.dtype(np.float64) in seen_dtypes
    assert np.array_equal(compact.coef_, dense.coef_) and compact.intercept_ == dense.intercept_
    assert [h["master_iterations"] for h in compact.history_] == [h["master_iterations"] for h in dense.history_]
