"""The dual CD masters' Newton route on n_jobs threads (masters/svm_cd_newton.py): the one-thread iterates, bit for bit."""

import numpy as np
import pytest

from mkbench import CGEnsClassifier
from mkbench.masters import LinearSVMCDMaster, svm_cd_newton
from mkbench.masters.svm_cd_newton import ONE_THREAD, RowThreads, split_rows


@pytest.mark.parametrize("n", [1, 2, 255, 257, 258, 513, 1000, 4999])
@pytest.mark.parametrize("k", [1, 4, 7, 64, 301])
def test_row_threads_give_numpys_float64_product_bit_for_bit(monkeypatch, n, k):
    monkeypatch.setattr(svm_cd_newton, "MIN_SPLIT", 0)
    rng = np.random.default_rng(n * k)
    X = rng.standard_normal((n, k + 5))[:, :k]  # a strided view, as the masters' rows are
    signs = rng.integers(-1, 2, size=(n, k + 3)).astype(np.int8)[:, :k]  # the int8 copy of sign columns
    v = rng.standard_normal(k)
    for threads in (1, 2, 3):
        rows = RowThreads(threads)
        assert np.array_equal(rows.times(X, v), X @ v)
        assert np.array_equal(rows.times(signs, v), signs.astype(np.float64) @ v)
        rows.close()


def test_split_rows_gives_a_dual_cd_master_threads_for_the_block_only():
    master = LinearSVMCDMaster(np.array([1.0, -1.0]), 1.0)
    with split_rows(master, 2):
        assert master.row_threads.n_threads == 2 and master.row_threads.pool is not None
    assert master.row_threads is ONE_THREAD
    with split_rows(master, None):
        assert master.row_threads is ONE_THREAD
    other = object()
    with split_rows(other, 2):
        assert not hasattr(other, "row_threads")


@pytest.mark.parametrize("fit_intercept", ["regularized", True])
def test_cgens_with_n_jobs_2_takes_newtons_steps_on_threads_and_fits_the_same_model(monkeypatch, fit_intercept):
    monkeypatch.setattr(svm_cd_newton, "MIN_SPLIT", 0)
    threads = []
    times = RowThreads.times

    def recording(self, X, v):
        threads.append(self.n_threads)
        return times(self, X, v)

    monkeypatch.setattr(RowThreads, "times", recording)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(400, 10))
    y = (X[:, 0] + X[:, 1] ** 2 + rng.normal(0, 0.5, 400) > 1).astype(int)
    make = CGEnsClassifier(C=10.0, max_iter=60, tol=0.0, fit_intercept=fit_intercept).set_params
    one = make(n_jobs=None).fit(X, y)
    assert threads and set(threads) == {1}  # Newton's method ran
    threads.clear()
    two = make(n_jobs=2).fit(X, y)
    assert set(threads) == {2}
    assert np.array_equal(one.coef_, two.coef_) and one.intercept_ == two.intercept_
    assert [h["master_iterations"] for h in one.history_] == [h["master_iterations"] for h in two.history_]
