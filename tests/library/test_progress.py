"""verbose=: the column-generation estimators print their progress, one line every k iterations and at the end."""

import numpy as np
import pytest

import mkbench


@pytest.mark.parametrize(
    ("estimator", "fit_args"),
    [
        ("CGBoostClassifier", {}),
        ("SSMKClassifier", {}),
        ("CGEnsClassifier", {}),
        ("LPBoostClassifier", {}),
        ("CGEnsSLSClassifier", {}),
        ("MARKRegressor", {"regression": True}),
    ],
)
def test_verbose_prints_a_line_every_k_iterations_and_at_the_end(estimator, fit_args, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = X[:, 0] + 0.1 * rng.normal(size=40) if fit_args else np.where(X[:, 0] > 0, 1, 0)
    cls = getattr(mkbench, estimator)
    quiet = cls(max_iter=9).fit(X, y)
    assert capsys.readouterr().out == ""
    cls(max_iter=9, verbose=4).fit(X, y)
    lines = capsys.readouterr().out.splitlines()
    assert all(
        line.startswith(f"[{estimator if estimator != 'SSMKClassifier' else 'SSMK'}] iteration ") for line in lines
    )
    final = quiet.history_[-1]["iteration"]  # columns generated (SSMK's n_iter_ counts the LPs, one more)
    assert [line.split()[2].rstrip(":") for line in lines[:-1]] == [str(i) for i in range(0, final + 1, 4)]
    last = lines[-1]
    assert f"iteration {final}: {quiet.status_}: objective " in last and "max violation" in last
    message = r"verbose must be an integer >= 0|'verbose' parameter of \w+ must be an int in the range \[0, inf\)"
    with pytest.raises(ValueError, match=message):
        cls(max_iter=2, verbose=-1).fit(X, y)
