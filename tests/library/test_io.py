import json
import os
import stat

import numpy as np
import pytest

from mkbench._io import atomic_open, write_json, write_text


def test_atomic_open_leaves_target_untouched_on_failure(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as fh:
            fh.write("half a file")
            raise RuntimeError("killed")
    assert target.read_text() == "old"
    assert list(tmp_path.iterdir()) == [target]  # no temporary file left


def test_write_json_serialises_numpy(tmp_path):
    path = tmp_path / "sub" / "r.json"
    write_json(path, {"a": np.float64(1.5), "b": np.arange(3), "c": np.int64(2)})
    assert json.loads(path.read_text()) == {"a": 1.5, "b": [0, 1, 2], "c": 2}


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_written_files_get_the_mode_of_a_plain_open(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_text(tmp_path / "atomic.txt", "x")
        with open(tmp_path / "plain.txt", "w") as fh:
            fh.write("x")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "atomic.txt").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "plain.txt").stat().st_mode) == 0o666 & ~umask
