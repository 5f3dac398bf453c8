"""MARK's sigma search: where an iteration's time goes (``pricing_seconds`` beside ``master_seconds``)
and the record of the chosen columns that keeps MARK-L from pricing them again."""

import numpy as np

from mkbench import MARKRegressor
from mkbench.masters.ridge import RidgeMaster
from mkbench.oracles.width_search import DEFAULT_SIGMA_GRID, KernelColumnSearch


def _data(n=60):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(n, 3))
    return X, np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + 0.1 * rng.normal(size=n)


def test_history_rows_split_the_time_between_the_search_and_the_master():
    """Each row's pricing and master seconds are parts of the fit's clock: summed, never past its reading."""
    X, y = _data()
    model = MARKRegressor(kernel="rbf", n_candidates=10, max_iter=20, random_state=0).fit(X, y)
    spent = 0.0
    for row in model.history_:
        assert row["pricing_seconds"] >= 0 and row["master_seconds"] >= 0
        spent += row["pricing_seconds"] + row["master_seconds"]
        assert spent <= row["seconds"]
    stopped = MARKRegressor(target_mse=10.0, random_state=0).fit(X, y)  # stops at the first pricing
    assert stopped.status_ == "target_mse" and stopped.history_[-1]["pricing_seconds"] >= 0


def test_a_column_added_twice_is_recorded_once_and_never_priced_again():
    """MARK-S may add a column again; the search keeps one entry for it, and MARK-L's mask still skips it."""
    X, y = _data(30)
    master = RidgeMaster(y - y.mean(), 1.0)
    search = KernelColumnSearch(X, "rbf", DEFAULT_SIGMA_GRID, None, np.random.RandomState(0))
    best = search.price(master.solve(), master, 0.0)
    search.add(best.choice)
    search.add(best.choice)
    assert search.counts() == {"n_distinct_columns": 1}
    second = search.price(master.solve(), master, 0.0).choice  # same residual: the next best
    assert second != best.choice
    search.add(second)
    assert search.price(master.solve(), master, 0.0).choice not in (best.choice, second)
