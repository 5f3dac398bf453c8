"""Tests of the deterministic split protocols and split files."""

import os

import numpy as np
import pytest

from mkbench.exceptions import ConfigError, DataError, UnknownNameError
from mkbench.harness.config import n_splits
from mkbench.harness.splits import PROTOCOLS, add_validation, load_split, make_splits, save_split

N = 120
Y = np.repeat([0, 1], N // 2)

# Protocol -> parameters of a randomised case.
RANDOM_CASES = {
    "kfold": {"n_folds": 5},
    "kfold_stratified": {"n_folds": 4, "stratify": True},
    "random": {"test_size": 0.3, "n_repeats": 4},
    "random_int_stratified": {"test_size": 40, "n_repeats": 3, "stratify": True},
    "subsets": {"sizes": {"train": 20, "validation": 30, "test": 50}, "n_repeats": 3},
    "semisupervised": {"n_labeled": 6, "n_unlabeled": 50, "n_test": 40, "n_repeats": 3},
    "raetsch": {"n_train": 40, "n_test": 70, "n_repeats": 3},
}


def _protocol(case):
    return case.split("_")[0]


def _all_cases():
    predefined = {"train_idx": np.arange(0, 80), "test_idx": np.arange(80, N)}
    return {**RANDOM_CASES, "loo": {}, "official": predefined}


def _assert_same(splits_a, splits_b):
    assert len(splits_a) == len(splits_b)
    for a, b in zip(splits_a, splits_b, strict=True):
        assert a.keys() == b.keys()
        for part in a:
            np.testing.assert_array_equal(a[part], b[part])


def _assert_valid(split, n):
    assert {"train", "test"} <= split.keys()
    for idx in split.values():
        assert idx.dtype == np.int64
        assert np.all(np.diff(idx) > 0), "indices must be sorted and distinct"
        assert idx.size and idx[0] >= 0 and idx[-1] < n
    joined = np.concatenate(list(split.values()))
    assert np.unique(joined).size == joined.size, "parts overlap"


@pytest.mark.parametrize("case", sorted(_all_cases()))
def test_same_seed_same_splits_and_valid(case):
    params = _all_cases()[case]
    splits = make_splits(_protocol(case), y=Y, seed=11, **params)
    _assert_same(splits, make_splits(_protocol(case), y=Y, seed=11, **params))
    for split in splits:
        _assert_valid(split, N)


@pytest.mark.parametrize("case", sorted(RANDOM_CASES))
def test_different_seeds_differ(case):
    params = RANDOM_CASES[case]
    a = make_splits(_protocol(case), y=Y, seed=1, **params)
    b = make_splits(_protocol(case), y=Y, seed=2, **params)
    assert any(not np.array_equal(sa["test"], sb["test"]) for sa, sb in zip(a, b, strict=True))


def test_repeats_differ_from_each_other():
    splits = make_splits("random", y=Y, seed=0, test_size=0.3, n_repeats=3)
    assert not np.array_equal(splits[0]["test"], splits[1]["test"])


@pytest.mark.parametrize("stratify", [False, True])
def test_kfold_test_parts_partition(stratify):
    splits = make_splits("kfold", y=Y, seed=0, n_folds=5, stratify=stratify)
    assert len(splits) == 5
    tested = np.sort(np.concatenate([s["test"] for s in splits]))
    np.testing.assert_array_equal(tested, np.arange(N))
    for split in splits:
        assert split["train"].size + split["test"].size == N
        if stratify:
            assert Y[split["test"]].mean() == pytest.approx(0.5)


def test_kfold_without_shuffle_is_contiguous_and_seed_free():
    splits = make_splits("kfold", y=Y, seed=0, n_folds=4, shuffle=False)
    np.testing.assert_array_equal(splits[0]["test"], np.arange(30))
    _assert_same(splits, make_splits("kfold", y=Y, seed=9, n_folds=4, shuffle=False))


@pytest.mark.parametrize(("test_size", "n_test"), [(0.3, 36), (0.4, 48), (25, 25)])
def test_random_sizes(test_size, n_test):
    splits = make_splits("random", y=Y, seed=0, test_size=test_size, n_repeats=20)
    assert len(splits) == 20
    for split in splits:
        assert (split["train"].size, split["test"].size) == (N - n_test, n_test)


def test_random_stratified_keeps_proportions():
    y = np.r_[np.zeros(90, int), np.ones(30, int)]
    for split in make_splits("random", y=y, seed=0, test_size=0.25, n_repeats=5, stratify=True):
        assert y[split["test"]].sum() in (7, 8)  # 25% of 30 positives, rounded
        assert y[split["train"]].mean() == pytest.approx(0.25, abs=0.01)


def test_subsets_sizes_exact():
    sizes = {"test": 50, "train": 20, "validation": 30}
    for split in make_splits("subsets", y=Y, seed=0, sizes=sizes, n_repeats=4):
        assert {part: idx.size for part, idx in split.items()} == sizes


def test_subsets_ignore_key_order():
    a = make_splits("subsets", y=Y, seed=0, sizes={"train": 20, "test": 50}, n_repeats=2)
    b = make_splits("subsets", y=Y, seed=0, sizes={"test": 50, "train": 20}, n_repeats=2)
    _assert_same(a, b)


def test_subsets_too_large():
    with pytest.raises(ConfigError, match=r"need 130 points but the data set has only 120"):
        make_splits("subsets", y=Y, seed=0, sizes={"train": 100, "test": 30}, n_repeats=1)


@pytest.mark.parametrize("sizes", [{"train": 10}, {"train": 10, "test": 5, "holdout": 3}, [10, 5]])
def test_subsets_bad_sizes(sizes):
    with pytest.raises(ConfigError, match="sizes="):
        make_splits("subsets", y=Y, seed=0, sizes=sizes, n_repeats=1)


@pytest.mark.parametrize("stratify", [True, False])
def test_semisupervised_sizes(stratify):
    params = {"n_labeled": 4, "n_unlabeled": 60, "n_test": 50, "n_repeats": 5}
    for split in make_splits("semisupervised", y=Y, seed=3, stratify_labeled=stratify, **params):
        assert split.keys() == {"train", "unlabeled", "test"}
        assert (split["train"].size, split["unlabeled"].size, split["test"].size) == (4, 60, 50)
        if stratify:  # class proportions of the pool the labelled points come from, within one point
            pool = np.setdiff1d(np.arange(Y.size), np.r_[split["unlabeled"], split["test"]])
            expected = 4 * np.bincount(Y[pool]) / pool.size
            assert np.all(np.abs(np.bincount(Y[split["train"]]) - expected) < 1)


def test_semisupervised_test_and_unlabelled_parts_do_not_depend_on_l():
    params = {"n_unlabeled": 30, "n_test": 40, "n_repeats": 3}
    small = make_splits("semisupervised", y=Y, seed=5, n_labeled=4, **params)
    large = make_splits("semisupervised", y=Y, seed=5, n_labeled=20, **params)
    for a, b in zip(small, large, strict=True):
        np.testing.assert_array_equal(a["test"], b["test"])
        np.testing.assert_array_equal(a["unlabeled"], b["unlabeled"])
        assert not np.intersect1d(b["train"], np.r_[b["test"], b["unlabeled"]]).size


def test_semisupervised_stratified_labelled_part_has_every_class():
    y = np.r_[np.zeros(100, int), np.ones(20, int)]
    params = {"n_labeled": 6, "n_unlabeled": 50, "n_test": 40, "n_repeats": 5}
    for split in make_splits("semisupervised", y=y, seed=0, **params):
        assert set(y[split["train"]]) == {0, 1}


def test_semisupervised_too_few_labelled_for_classes():
    y = np.r_[np.zeros(110, int), np.ones(10, int)]
    with pytest.raises(ConfigError, match="n_labeled=2"):
        make_splits("semisupervised", y=y, seed=0, n_labeled=2, n_unlabeled=50, n_test=40, n_repeats=1)


def test_semisupervised_too_large():
    with pytest.raises(ConfigError, match="only 120"):
        make_splits("semisupervised", y=Y, seed=0, n_labeled=10, n_unlabeled=100, n_test=20, n_repeats=1)


def _predefined(count):
    rng = np.random.default_rng(0)
    perms = [rng.permutation(N) for _ in range(count)]
    return [(p[:40], p[40:110]) for p in perms]


def test_raetsch_uses_predefined():
    predefined = _predefined(5)
    params = {"n_train": 40, "n_test": 70, "n_repeats": 3, "predefined": predefined}
    splits = make_splits("raetsch", y=Y, seed=0, **params)
    assert len(splits) == 3
    for split, (train, test) in zip(splits, predefined, strict=False):
        np.testing.assert_array_equal(split["train"], np.sort(train))
        np.testing.assert_array_equal(split["test"], np.sort(test))
    # The seed plays no part with predefined realisations.
    other = make_splits("raetsch", y=Y, seed=5, **params)
    _assert_same(splits, other)


def test_raetsch_too_few_predefined_draws_random_splits_of_the_same_sizes():
    params = {"n_train": 40, "n_test": 70, "n_repeats": 10}
    splits = make_splits("raetsch", y=Y, seed=3, predefined=_predefined(5), **params)
    _assert_same(splits, make_splits("raetsch", y=Y, seed=3, **params))
    assert len(splits) == 10 and all((s["train"].size, s["test"].size) == (40, 70) for s in splits)


def test_raetsch_predefined_size_mismatch():
    with pytest.raises(ConfigError, match="predefined split 0 has 40 training"):
        make_splits("raetsch", y=Y, seed=0, n_train=50, n_test=70, n_repeats=1, predefined=_predefined(1))


def test_raetsch_random_sizes():
    for split in make_splits("raetsch", y=Y, seed=0, n_train=40, n_test=70, n_repeats=4):
        assert (split["train"].size, split["test"].size) == (40, 70)


def test_loo():
    y = np.arange(6) % 2
    splits = make_splits("loo", y=y, seed=0)
    assert len(splits) == 6
    for i, split in enumerate(splits):
        np.testing.assert_array_equal(split["test"], [i])
        np.testing.assert_array_equal(split["train"], np.delete(np.arange(6), i))


def test_official_is_single_sorted_split():
    (split,) = make_splits("official", y=Y, seed=0, train_idx=[5, 1, 3], test_idx=[0, 2])
    np.testing.assert_array_equal(split["train"], [1, 3, 5])
    np.testing.assert_array_equal(split["test"], [0, 2])


def test_official_draws_per_class_from_the_training_part_and_keeps_the_test_part():
    """CGEns §VI-B on MNIST: 1000 per class from the official training set, the official test set."""
    y = np.repeat(["a", "b", "c"], [10, 7, 5])
    train_idx, test_idx = np.arange(0, 22, 2), np.arange(1, 22, 2)  # even rows train, odd rows test
    splits = make_splits(
        "official", y=y, seed=3, train_idx=train_idx, test_idx=test_idx, train_per_class=2, n_repeats=4
    )
    assert len(splits) == 4
    for split in splits:
        np.testing.assert_array_equal(split["test"], test_idx)
        assert np.isin(split["train"], train_idx).all()
        np.testing.assert_array_equal(np.unique(y[split["train"]], return_counts=True)[1], [2, 2, 2])
    assert len({tuple(split["train"]) for split in splits}) > 1  # the draws differ
    again = make_splits("official", y=y, seed=3, train_idx=train_idx, test_idx=test_idx, train_per_class=2, n_repeats=4)
    for a, b in zip(splits, again, strict=True):
        np.testing.assert_array_equal(a["train"], b["train"])  # seeded
    with pytest.raises(ConfigError, match="class 'c' has only 2 points"):
        make_splits("official", y=y, seed=0, train_idx=train_idx, test_idx=test_idx, train_per_class=4)
    with pytest.raises(ConfigError, match="n_repeats=2 needs train_per_class"):
        make_splits("official", y=y, seed=0, train_idx=train_idx, test_idx=test_idx, n_repeats=2)
    # the workflow plans as many jobs as the protocol makes splits
    assert n_splits({"name": "official"}) == 1
    assert n_splits({"name": "official", "train_per_class": 2, "n_repeats": 4}) == len(splits)


@pytest.mark.parametrize(
    ("train_idx", "test_idx", "message"),
    [
        ([0, 1], [1, 2], "more than one part"),
        ([0, 1], [120], "< 120"),
        ([-1, 1], [2], "index -1"),
        ([0, 0], [2], "repeats index 0"),
        ([0.0, 1.0], [2], "integer indices"),
        ([], [2], "non-empty"),
    ],
)
def test_official_rejects_bad_indices(train_idx, test_idx, message):
    with pytest.raises(ConfigError, match=message):
        make_splits("official", y=Y, seed=0, train_idx=train_idx, test_idx=test_idx)


def test_unknown_protocol_lists_known():
    with pytest.raises(UnknownNameError, match="known protocols") as info:
        make_splits("bootstrap", y=Y, seed=0)
    for name in PROTOCOLS:
        assert name in str(info.value)


@pytest.mark.parametrize(
    ("protocol", "params", "message"),
    [
        ("kfold", {"n_folds": 1}, r"n_folds=1 is invalid; give an integer in \[2, 120\]"),
        ("kfold", {"n_folds": 121}, "n_folds=121"),
        ("kfold", {"n_folds": 5, "shuffle": "yes"}, "shuffle='yes'"),
        ("kfold", {}, "missing a required argument: 'n_folds'"),
        ("kfold", {"n_folds": 5, "folds": 3}, "unexpected keyword argument 'folds'"),
        ("random", {"test_size": 1.5, "n_repeats": 2}, r"test_size=1.5 is invalid; give a fraction"),
        ("random", {"test_size": 120, "n_repeats": 2}, r"test_size=120 .* in \[1, 119\]"),
        ("random", {"test_size": 0.3, "n_repeats": 0}, "n_repeats=0"),
        ("loo", {"n_folds": 3}, "unexpected keyword argument"),
    ],
)
def test_bad_parameters(protocol, params, message):
    with pytest.raises(ConfigError, match=message):
        make_splits(protocol, y=Y, seed=0, **params)


@pytest.mark.parametrize("seed", [-1, 1.5, None])
def test_bad_seed(seed):
    with pytest.raises(ConfigError, match="seed="):
        make_splits("kfold", y=Y, seed=seed, n_folds=3)


def test_stratified_kfold_with_too_small_class_is_config_error():
    y = np.r_[np.zeros(10, int), np.ones(1, int)]
    with pytest.raises(ConfigError, match="cannot split 11 points"):
        make_splits("kfold", y=y, seed=0, n_folds=11, stratify=True)


# --------------------------------------------------------------------------- add_validation


def test_add_validation_partitions_training_part():
    train = np.arange(0, N, 2)
    fit, val = add_validation(train, seed=4)
    assert val.size == 12 and fit.size == 48
    np.testing.assert_array_equal(np.sort(np.r_[fit, val]), train)
    assert np.all(np.diff(fit) > 0) and np.all(np.diff(val) > 0)
    fit2, val2 = add_validation(train, seed=4)
    np.testing.assert_array_equal(val, val2)
    _, val3 = add_validation(train, seed=5)
    assert not np.array_equal(val, val3)


def test_add_validation_stratified():
    y = np.r_[np.zeros(80, int), np.ones(40, int)]
    train = np.arange(0, N, 2)
    _, val = add_validation(train, seed=0, fraction=0.25, y=y, stratify=True)
    assert y[val].mean() == pytest.approx(y[train].mean(), abs=0.05)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"fraction": 0.0}, "fraction=0.0"),
        ({"fraction": 1}, "fraction=1"),
        ({"stratify": True}, "needs y"),
        ({"stratify": True, "y": np.zeros(10)}, "y has only 10 labels"),
    ],
)
def test_add_validation_bad_arguments(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        add_validation(np.arange(20, 40), seed=0, **kwargs)


# --------------------------------------------------------------------------- files


def test_save_load_round_trip(tmp_path):
    sizes = {"train": 20, "validation": 10, "test": 30}
    (split,) = make_splits("subsets", y=Y, seed=0, sizes=sizes, n_repeats=1)
    meta = {"dataset": "banana", "protocol": "subsets", "seed": np.int64(0), "repeat": 0}
    path = tmp_path / "sub" / "split_0.npz"
    save_split(path, split, meta)
    loaded, loaded_meta = load_split(path)
    _assert_same([split], [loaded])
    assert loaded_meta == {"dataset": "banana", "protocol": "subsets", "seed": 0, "repeat": 0}
    assert os.listdir(path.parent) == ["split_0.npz"]


def test_save_rejects_unknown_part(tmp_path):
    with pytest.raises(ConfigError, match="unknown part"):
        save_split(tmp_path / "s.npz", {"train": [0], "test": [1], "meta": [2]}, {})


def test_truncated_file_is_data_error(tmp_path):
    path = tmp_path / "split.npz"
    save_split(path, {"train": np.arange(50), "test": np.arange(50, 80)}, {"seed": 1})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(DataError, match=r"split\.npz is corrupt or truncated.*delete it and rerun"):
        load_split(path)


@pytest.mark.parametrize("content", [b"", b"not a zip file at all"])
def test_garbage_file_is_data_error(tmp_path, content):
    path = tmp_path / "split.npz"
    path.write_bytes(content)
    with pytest.raises(DataError, match="delete it"):
        load_split(path)


def test_npz_without_meta_is_data_error(tmp_path):
    path = tmp_path / "split.npz"
    np.savez(path, train=np.arange(3), test=np.arange(3, 5))
    with pytest.raises(DataError, match="corrupt"):
        load_split(path)


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_split(tmp_path / "absent.npz")


def test_failed_save_leaves_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "split.npz"
    save_split(path, {"train": [0, 1], "test": [2]}, {"v": 1})

    def broken_savez(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", broken_savez)
    with pytest.raises(OSError, match="disk full"):
        save_split(path, {"train": [0], "test": [1, 2]}, {"v": 2})
    assert os.listdir(tmp_path) == ["split.npz"]
    monkeypatch.undo()
    split, meta = load_split(path)
    assert meta == {"v": 1}
    np.testing.assert_array_equal(split["test"], [2])
