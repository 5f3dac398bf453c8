"""Shared fixtures: the offline data mirror (skip when absent) and a private data cache."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The data mirror named by MKBENCH_DATA_MIRROR; tests needing it skip without it."""
    path = os.environ.get("MKBENCH_DATA_MIRROR")
    if not path or not Path(path).is_dir():
        pytest.skip("MKBENCH_DATA_MIRROR is not set to a folder: real data files are unavailable")
    return Path(path)


@pytest.fixture(autouse=True)
def private_data_home(tmp_path_factory, monkeypatch):
    """Never write to the user's cache: every test gets a session-wide temporary one."""
    home = tmp_path_factory.getbasetemp() / "data-home"
    monkeypatch.setenv("MKBENCH_DATA_HOME", str(home))
    return home
