"""An option that only means something with another is refused without it, never silently
ignored: ``data-curve --sizes`` without ``--train`` wrote the shipped runs and exited 0."""

from __future__ import annotations

import pytest

from explorer.cli import main


@pytest.mark.parametrize("option,value", [("--sizes", "100"), ("--seeds", "1"), ("--test-size", "50")])
def test_data_curve_training_options_need_train(tmp_path, capsys, option, value):
    out = tmp_path / "curve.json"
    with pytest.raises(SystemExit) as exc:
        main(["data-curve", option, value, "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert exc.value.code == 2 and len(err) == 1 and "go with --train" in err[0], err
    assert not out.exists()


def test_data_curve_without_options_still_draws_the_shipped_runs(tmp_path, capsys):
    out = tmp_path / "curve.json"
    assert main(["data-curve", "--out", str(out)]) == 0
    assert out.exists()
