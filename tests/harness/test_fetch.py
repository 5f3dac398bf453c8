"""Fetching: mirror first, then the URL; checksums; bad copies put aside; clear messages; no partial files.

A toy spec with one raw file stands in for a real data set, so that every failure
can be produced without network: its URL points at a closed local port.
"""

import gzip
import hashlib

import numpy as np
import pytest

from mkbench.exceptions import ChecksumError, DataError
from mkbench.harness.datasets._fetch import obtain
from mkbench.harness.datasets._registry import DatasetSpec, Parsed, RawFile

CONTENT = b"1,2,3\n4,5,6\n"
URL = "http://127.0.0.1:9/toy/data.csv.gz"  # port 9 (discard): connection refused at once
SHA256 = hashlib.sha256(CONTENT.rstrip()).hexdigest()


def _spec(sha256=SHA256, mirror_sha256=None, url=URL):
    raw = RawFile("toy/data.csv.gz", url, sha256, mirror_sha256=mirror_sha256)
    return DatasetSpec(
        name="toy",
        task="regression",
        description="toy",
        files=(raw,),
        parser=lambda files: Parsed(np.zeros((1, 1)), np.zeros(1), ["x"], {}),
        source=URL,
        citation="none",
        variant="toy",
        preprocessing="none",
        shape=None,
    )


@pytest.fixture
def mirror(tmp_path):
    folder = tmp_path / "mirror"
    (folder / "toy").mkdir(parents=True)
    (folder / "toy" / "data.csv.gz").write_bytes(gzip.compress(CONTENT.replace(b"\n", b"\r\n")))
    return folder


def _leftovers(home):
    return sorted(p.name for p in home.rglob("*") if p.is_file() and p.name.endswith((".incoming", ".tmp")))


def test_mirror_copy_is_verified_on_normalised_content_and_cached(mirror, tmp_path):
    home = tmp_path / "home"
    files = obtain(_spec(), mirror=mirror, data_home=home)  # CRLF copy, same normalised content
    assert files["toy/data.csv.gz"] == home / "toy" / "data.csv.gz"
    assert _leftovers(home) == []
    (mirror / "toy" / "data.csv.gz").unlink()  # the cache is used from now on
    assert obtain(_spec(), mirror=mirror, data_home=home)["toy/data.csv.gz"].is_file()


def test_no_mirror_and_no_network_names_the_url_and_the_fix(tmp_path, monkeypatch):
    monkeypatch.delenv("MKBENCH_DATA_MIRROR", raising=False)
    with pytest.raises(DataError) as info:
        obtain(_spec(), data_home=tmp_path / "home")
    message = str(info.value)
    assert "no data mirror is set" in message and f"download of {URL} failed" in message
    assert "set MKBENCH_DATA_MIRROR=/path/to/mirror" in message
    assert not (tmp_path / "home" / "toy" / "data.csv.gz").exists()


def test_mirror_without_the_file_says_so(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="the mirror .*empty has no toy/data.csv.gz"):
        obtain(_spec(), mirror=empty, data_home=tmp_path / "home")


def test_mirror_that_is_not_a_folder(tmp_path):
    with pytest.raises(DataError, match="is not a folder"):
        obtain(_spec(), mirror=tmp_path / "nowhere", data_home=tmp_path / "home")


def test_checksum_mismatch_puts_the_copy_aside(mirror, tmp_path):
    home = tmp_path / "home"
    with pytest.raises(ChecksumError) as info:
        obtain(_spec(sha256="0" * 64), mirror=mirror, data_home=home)
    message = str(info.value)
    assert "checksum mismatch for toy/data.csv.gz" in message and "expected " + "0" * 64 in message
    assert "moved to" in message and "is not used" in message
    assert not (home / "toy" / "data.csv.gz").exists()  # never under the real name
    assert (home / "toy" / "data.csv.gz.corrupt").exists()
    assert _leftovers(home) == []


def test_mirror_bytes_are_checked_against_the_manifest(mirror, tmp_path):
    with pytest.raises(ChecksumError, match="exact bytes of the mirror copy"):
        obtain(_spec(mirror_sha256="f" * 64), mirror=mirror, data_home=tmp_path / "home")


def test_truncated_file_is_reported_and_put_aside(mirror, tmp_path):
    path = mirror / "toy" / "data.csv.gz"
    path.write_bytes(path.read_bytes()[:-6])
    home = tmp_path / "home"
    with pytest.raises(DataError, match="toy/data.csv.gz.*(truncated|damaged|corrupt)"):
        obtain(_spec(), mirror=mirror, data_home=home)
    assert not (home / "toy" / "data.csv.gz").exists()
    assert _leftovers(home) == []


def test_damaged_cache_is_moved_aside_and_fetched_again(mirror, tmp_path):
    home = tmp_path / "home"
    cached = obtain(_spec(), mirror=mirror, data_home=home)["toy/data.csv.gz"]
    cached.write_bytes(gzip.compress(b"tampered"))
    with pytest.warns(UserWarning, match="failed verification; moved to"):
        again = obtain(_spec(), mirror=mirror, data_home=home)["toy/data.csv.gz"]
    assert gzip.decompress(again.read_bytes()).replace(b"\r\n", b"\n") == CONTENT
    assert any(p.name.startswith("data.csv.gz.corrupt") for p in (home / "toy").iterdir())


def test_not_public_data_say_so(tmp_path):
    from mkbench.harness.datasets import load

    with pytest.raises(DataError, match="'hiv-qsar' is not public"):
        load("hiv-qsar", data_home=tmp_path)
