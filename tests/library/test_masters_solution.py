"""What the masters share (masters._solution): a solution's error points, the column store, add_outer."""

import numpy as np
import pytest

from mkbench.masters import solve_qp

from ._masters_common import C


def test_error_points_are_rows_with_slack(problem):
    K, y, response = problem
    hinge = solve_qp(K, y, C)
    np.testing.assert_array_equal(hinge.error_points(1e-6), np.flatnonzero(hinge.xi > 1e-6))
    tube = solve_qp(K, response, C, loss="epsilon_insensitive", alpha_sign="free")
    n = len(response)
    expected = np.flatnonzero((tube.xi[:n] > 1e-6) | (tube.xi[n:] > 1e-6))
    np.testing.assert_array_equal(tube.error_points(1e-6), expected)


def test_column_store_appends_past_its_capacity():
    from mkbench.masters._solution import ColumnStore

    rng = np.random.default_rng(0)
    blocks = [rng.normal(size=(5, k)) for k in (1, 20, 3, 40)]  # crosses the initial capacity twice
    store = ColumnStore(5)
    for block in blocks:
        store.append(block)
    np.testing.assert_array_equal(store.array, np.hstack(blocks))
    assert len(store) == 64


@pytest.mark.parametrize("contiguous", ["columns", "rows"])
@pytest.mark.parametrize(("capacity", "reserved"), [(1, 16), (16, 16), (30, 30), (10**12, 50)])
def test_column_store_reserves_capacity_and_still_grows(contiguous, capacity, reserved, monkeypatch):
    from mkbench.masters import _solution

    monkeypatch.setattr(_solution, "RESERVE_BYTES", 50 * 7 * 8)  # 50 columns of 7 float64 at most
    rng = np.random.default_rng(1)
    blocks = [rng.normal(size=(7, k)) for k in (1, 29, 3, 40, 1)]
    store = _solution.ColumnStore(7, contiguous, capacity=capacity)
    assert store._full(store._buffer).shape[1] == reserved
    for block in blocks:
        store.append(block)
    np.testing.assert_array_equal(store.array, np.hstack(blocks))


@pytest.mark.parametrize("contiguous", ["columns", "rows"])
def test_column_store_keeps_the_masked_columns_and_says_where_they_went(contiguous):
    """keep(mask) leaves exactly the kept columns, each where ``order`` says, and appending goes on after them."""
    from mkbench.masters._solution import ColumnStore

    rng = np.random.default_rng(2)
    K = rng.normal(size=(6, 40))
    store = ColumnStore(6, contiguous=contiguous)
    store.append(K)
    mask = rng.random(40) < 0.6
    mask[[0, -1]] = [False, True]  # the first dropped, the last kept
    order = store.keep(mask)
    assert sorted(order) == list(np.flatnonzero(mask))
    np.testing.assert_array_equal(store.array, K[:, order])
    store.keep(np.zeros(len(store), dtype=bool))
    assert len(store) == 0
    store.append(K[:, :3])
    np.testing.assert_array_equal(store.array, K[:, :3])


@pytest.mark.parametrize("k", [1, 3])
def test_add_outer_adds_the_rank_k_term_in_place(k):
    from mkbench.masters._solution import add_outer

    rng = np.random.default_rng(1)
    A = rng.normal(size=(7, 4))
    G = A @ A.T
    K = rng.normal(size=(7, 12))[:, ::4][:, :k]  # a strided view, as ColumnStore slices give
    expected = G + K @ K.T
    out = add_outer(G, K)
    np.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-13)
    assert np.shares_memory(out, G)  # no n x n copy
