"""A translation checkpoint of a version this explorer does not know is refused in one line,
not read as if it were version 1 (engineer 8 C4: "version": 99 was accepted silently)."""

from __future__ import annotations

import json

import pytest

from explorer.cli import main
from explorer.seq2seq import checkpoints


@pytest.mark.parametrize("version", [99, "1", 0])
def test_an_unknown_checkpoint_version_is_refused(tmp_path, capsys, version):
    shipped = checkpoints.shipped_folder("bahdanau", "additive")
    folder = tmp_path / "ck"
    folder.mkdir()
    config = json.loads((shipped / checkpoints.CONFIG_FILE).read_text(encoding="utf-8"))
    config["version"] = version
    (folder / checkpoints.CONFIG_FILE).write_text(json.dumps(config), encoding="utf-8")
    (folder / checkpoints.WEIGHTS_FILE).write_bytes((shipped / checkpoints.WEIGHTS_FILE).read_bytes())
    out = tmp_path / "t.json"
    with pytest.raises(SystemExit) as exc:
        main(["translate", "--source", "9 mai 2018", "--checkpoint", str(folder), "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and len(err) == 1, err
    assert f"checkpoint version {json.dumps(version)} is not one this explorer reads" in err[0], err
    assert not out.exists()
