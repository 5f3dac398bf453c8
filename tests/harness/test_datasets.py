"""The registry and the parsed data sets, checked against their published statistics.

Tests marked ``mirror`` read the real files of the offline mirror named by
``MKBENCH_DATA_MIRROR`` and are skipped without it. MNIST is parsed once per module.
"""

import warnings
from collections import Counter

import numpy as np
import pytest
import scipy.io

from mkbench.exceptions import DataError, UnknownNameError
from mkbench.harness.datasets import Dataset, DatasetSpec, get_spec, list_datasets, load

IDA = [
    "banana", "breast-cancer", "diabetis", "flare-solar", "german", "heart", "image", "ringnorm", "splice",
    "thyroid", "titanic", "twonorm", "waveform",
]  # fmt: skip
NAMES = sorted(
    [
        "mnist", "mnist-odd-even", "usps", "boston", "abalone", "house-8l", "house-8h", "sk-diabetes",
        "spambase", "ionosphere", "sonar", "credit", "sk-breast-cancer", "wine", "iris", "glass", "vehicle",
        "dna", "vowel", "segment", "sk-digits", "hiv-qsar", "gaussian-disc", *IDA, "splice-onehot",
    ]
)  # fmt: skip

# name -> (shape, counts): counts by class code (multiclass), {+1: n, -1: n} (binary), None (regression).
EXPECTED = {
    "boston": ((506, 13), None),
    "abalone": ((4177, 10), None),
    "house-8l": ((22784, 8), None),
    "sk-diabetes": ((442, 10), None),
    "spambase": ((4601, 57), {1: 1813, -1: 2788}),
    "ionosphere": ((351, 34), {1: 225, -1: 126}),
    "sonar": ((208, 60), {1: 111, -1: 97}),
    "credit": ((653, 46), {1: 296, -1: 357}),
    "sk-breast-cancer": ((569, 30), {1: 212, -1: 357}),
    "wine": ((178, 13), [59, 71, 48]),
    "iris": ((150, 4), [50, 50, 50]),
    "sk-digits": ((1797, 64), [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]),
    "glass": ((214, 9), [70, 76, 17, 13, 9, 29]),
    "vehicle": ((846, 18), [218, 212, 217, 199]),  # bus, opel, saab, van
    "dna": ((3186, 180), [767, 765, 1654]),  # ei, ie, n
    "vowel": ((990, 10), [90] * 11),
    "segment": ((2310, 19), [330] * 7),
    "usps": ((9298, 256), [1553, 1269, 929, 824, 852, 716, 834, 792, 708, 821]),
    # IDA pools: sizes = train + test of the IDA realisations
    "banana": ((5300, 2), {1: 217 + 2159, -1: 183 + 2741}),
    "breast-cancer": ((277, 9), {1: 81, -1: 196}),
    "diabetis": ((768, 8), {1: 268, -1: 500}),
    "flare-solar": ((1066, 9), {1: 201, -1: 865}),
    "german": ((1000, 20), {1: 217 + 83, -1: 483 + 217}),
    "heart": ((270, 13), {1: 120, -1: 150}),
    "image": ((2310, 18), {1: 990, -1: 1320}),
    "ringnorm": ((7400, 20), None),
    "splice": ((3175, 60), {1: 762 + 765, -1: 1648}),
    "thyroid": ((215, 5), {1: 65, -1: 150}),
    "titanic": ((2201, 3), None),
    "twonorm": ((7400, 20), None),
    "waveform": ((5000, 21), None),
}
MNIST_TRAIN_COUNTS = [5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
MNIST_TEST_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
USPS_TRAIN_COUNTS = [1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644]


@pytest.fixture(scope="module")
def data_home(tmp_path_factory):
    """A cache shared by this module (module fixtures run before the autouse one)."""
    return tmp_path_factory.mktemp("datasets-home")


@pytest.fixture(scope="module")
def loaded(mirror, data_home):
    """``loaded(name)``: the data set, parsed once per module."""
    cache = {}

    def get(name: str) -> Dataset:
        if name not in cache:
            cache[name] = load(name, mirror=mirror, data_home=data_home)
        return cache[name]

    return get


@pytest.fixture(scope="module")
def mnist(loaded):
    return loaded("mnist")


# ---------------------------------------------------------------- registry (no files needed)


def test_registry_has_exactly_the_papers_data_sets():
    specs = list_datasets()
    assert [s.name for s in specs] == NAMES
    assert all(isinstance(s, DatasetSpec) for s in specs)


@pytest.mark.parametrize("spec", list_datasets(), ids=lambda s: s.name)
def test_every_spec_is_documented(spec):
    assert spec.task in ("binary", "multiclass", "regression")
    for text in (spec.description, spec.source, spec.citation, spec.variant, spec.preprocessing):
        assert isinstance(text, str) and len(text) > 5
    assert spec.shape is not None
    for raw in (*spec.files, *spec.fallback_files):
        assert not raw.path.startswith("/") and ".." not in raw.path
        assert raw.url or raw.sha256, f"{raw.path}: a mirror-only file needs a registry digest"


def test_unknown_name_lists_every_known_name():
    with pytest.raises(UnknownNameError) as err:
        get_spec("mnits")
    message = str(err.value)
    assert "'mnits'" in message
    assert all(name in message for name in NAMES)
    with pytest.raises(UnknownNameError):
        load("mnits")


def test_hiv_qsar_is_registered_but_not_public(tmp_path):
    spec = get_spec("hiv-qsar")
    assert not spec.public and spec.task == "regression"
    with pytest.raises(DataError, match="not public"):
        load("hiv-qsar", data_home=tmp_path)


@pytest.mark.parametrize("name", ["iris", "wine", "sk-digits", "sk-diabetes", "sk-breast-cancer"])
def test_bundled_sets_need_no_files(name, tmp_path, monkeypatch):
    monkeypatch.delenv("MKBENCH_DATA_MIRROR", raising=False)
    ds = load(name, data_home=tmp_path)
    shape, counts = EXPECTED[name]
    assert ds.X.shape == shape
    _check_counts(ds, counts)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["ringnorm", "twonorm", "waveform"])
def test_generated_pools_are_seeded(name, tmp_path, monkeypatch):
    monkeypatch.delenv("MKBENCH_DATA_MIRROR", raising=False)
    a, b = load(name, data_home=tmp_path), load(name, data_home=tmp_path)
    assert a.X.shape == EXPECTED[name][0]
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert a.metadata["pool_seed"] == 0
    assert sum(a.metadata["ida_sizes"]) == a.X.shape[0]
    assert "predefined_splits" not in a.metadata
    assert a.metadata["label_grouping_confirmed"] == (name != "waveform")


def test_benchmarks_mat_supplies_ida_pool_and_realisations(tmp_path, monkeypatch):
    """A (tiny, synthetic) benchmarks.mat in the mirror replaces the rebuilt pool."""
    monkeypatch.delenv("MKBENCH_DATA_MIRROR", raising=False)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(10, 20))
    t = np.where(np.arange(10) % 2, 1.0, -1.0)[:, None]
    train = np.array([[1, 2, 3, 4, 5, 6], [5, 6, 7, 8, 9, 10]], dtype=float)
    test = np.array([[7, 8, 9, 10], [1, 2, 3, 4]], dtype=float)
    mirror = tmp_path / "mirror"
    (mirror / "raetsch").mkdir(parents=True)
    scipy.io.savemat(
        mirror / "raetsch" / "benchmarks.mat", {"ringnorm": {"x": x, "t": t, "train": train, "test": test}}
    )
    with pytest.warns(UserWarning, match="first use"):
        ds = load("ringnorm", mirror=mirror, data_home=tmp_path / "home")
    np.testing.assert_array_equal(ds.X, x)
    np.testing.assert_array_equal(ds.y, t.ravel())
    assert ds.metadata["variant"].startswith("IDA benchmarks.mat (2 ")
    assert ds.metadata["ida_sizes"] == (6, 4)
    (tr0, te0), (tr1, te1) = ds.metadata["predefined_splits"]
    np.testing.assert_array_equal(tr0, [0, 1, 2, 3, 4, 5])
    np.testing.assert_array_equal(te1, [0, 1, 2, 3])
    # now cached: used without the mirror, and without a second warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = load("ringnorm", data_home=tmp_path / "home")
    assert again.metadata["raw_files"] == ["raetsch/benchmarks.mat"]


# ---------------------------------------------------------------- real files (mirror)


def _check_counts(ds: Dataset, counts) -> None:
    if counts is None:
        return
    if isinstance(counts, dict):
        assert dict(Counter(ds.y.tolist())) == counts
    else:
        assert np.bincount(ds.y).tolist() == counts


@pytest.mark.mirror
@pytest.mark.parametrize("name", sorted(set(EXPECTED) - {"house-8l"}) + ["house-8l"])
def test_shape_classes_and_types(name, loaded):
    ds = loaded(name)
    shape, counts = EXPECTED[name]
    spec = get_spec(name)
    assert ds.name == name and ds.task == spec.task
    assert ds.X.shape == shape and ds.X.dtype == np.float64 and ds.X.flags.c_contiguous
    assert np.isfinite(ds.X).all()
    assert len(ds.feature_names) == shape[1]
    assert ds.y.shape == (shape[0],)
    assert ds.y.dtype == (np.float64 if ds.task == "regression" else np.int64)
    if ds.task == "binary":
        assert set(np.unique(ds.y)) == {-1, 1}
        assert ds.metadata["positive_class"] and ds.metadata["negative_class"]
    if ds.task == "multiclass":
        assert len(ds.metadata["classes"]) == ds.y.max() + 1
    _check_counts(ds, counts)
    for key in ("source", "variant", "preprocessing", "citation", "raw_files"):
        assert ds.metadata[key] is not None
    assert ds.metadata["n_samples"] == shape[0]


@pytest.mark.mirror
def test_mnist(mnist):
    assert mnist.X.shape == (70000, 784)
    assert mnist.X.min() == 0.0 and mnist.X.max() == 1.0
    split = mnist.metadata["official_split"]
    np.testing.assert_array_equal(split["train"], np.arange(60000))
    np.testing.assert_array_equal(split["test"], np.arange(60000, 70000))
    assert np.bincount(mnist.y[split["train"]]).tolist() == MNIST_TRAIN_COUNTS
    assert np.bincount(mnist.y[split["test"]]).tolist() == MNIST_TEST_COUNTS
    assert mnist.metadata["classes"] == [str(d) for d in range(10)]


@pytest.mark.mirror
def test_mnist_odd_even(mnist, mirror, data_home):
    odd_even = load("mnist-odd-even", mirror=mirror, data_home=data_home)
    np.testing.assert_array_equal(odd_even.y, np.where(mnist.y % 2 == 1, 1, -1))
    assert int((odd_even.y == 1).sum()) == sum(MNIST_TRAIN_COUNTS[1::2]) + sum(MNIST_TEST_COUNTS[1::2])
    assert "odd" in odd_even.metadata["positive_class"]
    np.testing.assert_array_equal(odd_even.metadata["official_split"]["test"], np.arange(60000, 70000))


@pytest.mark.mirror
def test_usps(loaded):
    usps = loaded("usps")
    split = usps.metadata["official_split"]
    assert (split["train"].size, split["test"].size) == (7291, 2007)
    assert np.bincount(usps.y[split["train"]]).tolist() == USPS_TRAIN_COUNTS
    assert 0.0 <= usps.X.min() and usps.X.max() <= 1.0


@pytest.mark.mirror
def test_vowel_official_split(loaded):
    vowel = loaded("vowel")
    split = vowel.metadata["official_split"]
    assert (split["train"].size, split["test"].size) == (528, 462)
    assert np.bincount(vowel.y[split["train"]]).tolist() == [48] * 11


@pytest.mark.mirror
def test_categorical_encodings(loaded):
    abalone = loaded("abalone")
    assert abalone.feature_names[:3] == ["sex=M", "sex=F", "sex=I"]
    np.testing.assert_array_equal(abalone.X[:, :3].sum(axis=1), 1.0)
    assert abalone.y.min() == 1 and abalone.y.max() == 29  # rings
    credit = loaded("credit")
    assert credit.metadata["n_dropped_missing"] == 37
    for var in ("A1", "A4", "A5", "A6", "A7", "A9", "A10", "A12", "A13"):
        cols = [j for j, n in enumerate(credit.feature_names) if n.startswith(f"{var}=")]
        np.testing.assert_array_equal(credit.X[:, cols].sum(axis=1), 1.0)
    assert sum("=" not in n for n in credit.feature_names) == 6


@pytest.mark.mirror
def test_documented_constant_columns(loaded):
    assert np.ptp(loaded("ionosphere").X[:, 1]) == 0  # kept, documented
    segment = loaded("segment")
    assert np.ptp(segment.X[:, segment.feature_names.index("region-pixel-count")]) == 0
    image = loaded("image")
    assert "region-pixel-count" not in image.feature_names
    assert (np.ptp(loaded("flare-solar").X, axis=0) > 0).all()


@pytest.mark.mirror
@pytest.mark.parametrize("name", IDA)
def test_ida_metadata(name, loaded):
    ds = loaded(name)
    n_train, n_test = ds.metadata["ida_sizes"]
    assert n_train + n_test == ds.X.shape[0]
    assert isinstance(ds.metadata["label_grouping_confirmed"], bool)
    if name in ("banana", "german", "titanic"):
        [(train, test)] = ds.metadata["predefined_splits"]
        np.testing.assert_array_equal(train, np.arange(n_train))
        np.testing.assert_array_equal(test, np.arange(n_train, n_train + n_test))
    else:
        assert "predefined_splits" not in ds.metadata
    unconfirmed = name in ("flare-solar", "image", "splice", "thyroid", "waveform")
    assert ds.metadata["label_grouping_confirmed"] is not unconfirmed
    assert ("UNCONFIRMED" in get_spec(name).notes) is unconfirmed


@pytest.mark.mirror
def test_dropped_rows_are_counted(loaded):
    assert loaded("splice").metadata["n_dropped_ambiguous"] == 15


@pytest.mark.mirror
def test_splice_onehot_is_splice_with_one_indicator_per_nucleotide(loaded):
    """The coding ablation of CGEns Table II: the same rows, labels and IDA sizes (so the same seeded splits)."""
    ordinal, onehot = loaded("splice"), loaded("splice-onehot")
    assert onehot.X.shape == (3175, 240) and set(np.unique(onehot.X)) == {0.0, 1.0}
    np.testing.assert_array_equal(onehot.y, ordinal.y)
    assert onehot.metadata["ida_sizes"] == ordinal.metadata["ida_sizes"] == (1000, 2175)
    blocks = onehot.X.reshape(-1, 60, 4)
    assert np.all(blocks.sum(axis=2) == 1)  # one nucleotide per position
    np.testing.assert_array_equal(blocks.argmax(axis=2) + 1, ordinal.X)  # A=1 .. T=4
    assert onehot.feature_names[:5] == ["pos-30=A", "pos-30=C", "pos-30=G", "pos-30=T", "pos-29=A"]
    assert loaded("breast-cancer").metadata["n_dropped_missing"] == 9


@pytest.mark.mirror
def test_regression_targets(loaded):
    assert loaded("boston").metadata["target"] == "MEDV"
    assert loaded("boston").y.max() == 50.0
    house = loaded("house-8l")
    assert house.y.min() >= 0 and house.metadata["variant"].startswith("house_8L (OpenML 218)")
