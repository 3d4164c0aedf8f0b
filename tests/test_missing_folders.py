"""Where a file goes: a missing folder is refused, never created (engineer 8 C5: trace.save and
to_html made /nonexist), and a file in the folder's place is named as such (C3: "File exists")."""

from __future__ import annotations

import pytest

import explorer
from explorer.cli import main


@pytest.fixture(scope="module")
def trace():
    return explorer.trace("a b c", weights="random", d_model=8)


@pytest.mark.parametrize("name", ["x.json", "x.npz", "x.html"])
def test_the_api_refuses_a_missing_folder(tmp_path, trace, name):
    missing = tmp_path / "nodir"
    write = trace.to_html if name.endswith(".html") else trace.save
    with pytest.raises(ValueError, match=f"the folder {missing} does not exist"):  # a MessageError
        write(str(missing / name))
    assert not missing.exists()


def test_the_command_names_a_file_in_the_folders_place(tmp_path, capsys):
    afile = tmp_path / "afile.json"
    afile.write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["trace", "--sentence", "a b", "--out", str(afile / "x.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and err == [f"error: {afile} is a file, not a folder"], err
