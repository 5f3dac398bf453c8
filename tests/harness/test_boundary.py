"""CGEns Fig. 1: the 2-D toy data set, and the decision boundary of a refitted job."""

import numpy as np
import pytest

from mkbench.exceptions import ConfigError
from mkbench.harness.boundary import draw_boundary, draw_job_boundary, fit_job
from mkbench.harness.config import Job, load_config
from mkbench.harness.datasets import load
from mkbench.harness.datasets.synthetic import DISC_RADIUS, make_gaussian_disc
from mkbench.harness.experiment import protocol_splits, run_configured_job


def test_the_class_is_inside_the_circle_and_the_classes_balance():
    X, y = make_gaussian_disc(20000, random_state=1)
    np.testing.assert_array_equal(y == 1, np.linalg.norm(X, axis=1) < DISC_RADIUS)
    assert abs(np.mean(y == 1) - 0.5) < 0.01  # the radius is the median norm of a 2-D standard normal
    assert abs(X.mean()) < 0.02 and abs(X.std() - 1) < 0.02
    X2, y2 = make_gaussian_disc(20000, random_state=1)
    np.testing.assert_array_equal(X, X2)
    _, y3 = make_gaussian_disc(50, radius=10.0, random_state=0)
    assert (y3 == 1).all()
    with pytest.raises(ConfigError, match="radius=0 is invalid"):
        make_gaussian_disc(5, radius=0)
    with pytest.raises(ConfigError, match="n_samples=-1 is invalid"):
        make_gaussian_disc(-1)


def test_registered_pool_is_seeded_and_needs_no_files(tmp_path, monkeypatch):
    monkeypatch.delenv("MKBENCH_DATA_MIRROR", raising=False)
    data = load("gaussian-disc", data_home=tmp_path)
    X, y = make_gaussian_disc(1000, random_state=0)
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.y, y)
    assert data.task == "binary" and data.metadata["pool_seed"] == 0 and not any(tmp_path.iterdir())


CONFIG = """
data: {mirror: null, home: HOME}
protocols:
  halves: {name: random, test_size: 0.5, n_repeats: 2}
experiments:
  toy:
    datasets: [gaussian-disc]
    protocol: halves
    preprocess: standardize
    methods:
      cgens: {estimator: cgens, params: {C: 1.0, max_iter: 25}}
      adaboost: {estimator: adaboost, params: {n_estimators: 25, random_state: 0}}
  wide:
    datasets: [iris]
    protocol: halves
    methods:
      mh: {estimator: adaboost-mh, params: {n_estimators: 5}}
figures:
  boundary: {experiment: toy, kind: boundary, metric: test_error, methods: [cgens], caption: CGEns with stumps}
"""


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text(CONFIG.replace("HOME", str(tmp_path / "data")))
    return load_config(path)


def test_refitted_job_is_the_recorded_one(config):
    data = load("gaussian-disc")
    job = Job("toy", "cgens", "default", "gaussian-disc", "halves", 0, 1)
    split = protocol_splits(config, "halves", data, 0)[1]
    record = run_configured_job(config, job, data, split)
    model, X = fit_job(config, job, data, split)  # 25 stumps, the ensemble's size (no warning), as the record's status
    assert record["status"] == "max_iter"
    assert record["test_error"] == pytest.approx(np.mean(model.predict(X[split["test"]]) != data.y[split["test"]]))
    assert record["n_iter"] == model.n_iter_ == 25
    np.testing.assert_allclose(X[split["train"]].mean(axis=0), 0.0, atol=1e-12)  # standardised on the train part


def test_boundary_figure_files(config, tmp_path):
    draw_job_boundary(config, config["figures"]["boundary"], tmp_path / "fig")
    assert (tmp_path / "fig.png").stat().st_size > 0 and (tmp_path / "fig.pdf").stat().st_size > 0
    spec = dict(config["figures"]["boundary"], methods=["cgens", "adaboost"])
    with pytest.raises(ConfigError, match="a boundary figure draws one method"):
        draw_job_boundary(config, spec, tmp_path / "two")
    with pytest.raises(ConfigError, match="metric of a boundary figure must be <part>_error"):
        draw_job_boundary(config, dict(spec, methods=["cgens"], metric="fit_seconds"), tmp_path / "m")
    with pytest.raises(ConfigError, match="drawn for 2-D inputs; the data set has 4 features"):
        draw_job_boundary(config, dict(spec, experiment="wide", methods=["mh"]), tmp_path / "wide")


def test_boundary_is_where_the_decision_function_changes_sign(tmp_path, monkeypatch):
    """The filled regions are sign(F) on the grid: checked on a model whose boundary is known, x1 = 0.3."""

    class HalfPlane:
        def decision_function(self, Z):
            return Z[:, 0] - 0.3

    drawn = {}
    import matplotlib.axes

    original = matplotlib.axes.Axes.contourf

    def spy(self, U, V, Z, *args, **kwargs):
        drawn.update(U=U, Z=Z)
        return original(self, U, V, Z, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "contourf", spy)
    X, y = make_gaussian_disc(100, random_state=0)
    draw_boundary(HalfPlane(), X, y, {"train": np.arange(50), "test": np.arange(50, 100)}, tmp_path / "h", title="t")
    np.testing.assert_array_equal(drawn["Z"], drawn["U"] > 0.3)
