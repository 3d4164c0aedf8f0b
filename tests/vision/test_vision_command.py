"""``python -m explorer vision`` and ``train-vision``: files with every stage; bad input exits 2."""

import json
import subprocess
import sys

import numpy as np
import pytest

from explorer.cli import main as cli_main
from explorer.vision.shapes import CLASS_NAMES, generate
from explorer.vision.trace import FIXED_STAGES
from tests.vision.pictures import write_bad_pictures, write_unusual_pictures


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "explorer", *args], capture_output=True, text=True, timeout=120
    )


def assert_one_line_error(result, message):
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_generate_writes_every_stage_as_json(tmp_path):
    out = tmp_path / "v.json"
    result = run_cli("vision", "--generate", "7", "--model", "cbam", "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(FIXED_STAGES) | {"prediction", "probabilities", "class_names", "image", "object_mask"} <= set(
        data
    )
    picture = generate(7)
    np.testing.assert_allclose(np.array(data["image"]), picture.image)
    np.testing.assert_array_equal(np.array(data["object_mask"]), picture.mask)
    assert data["label_name"] == CLASS_NAMES[picture.label] and data["source"] == "generate:7"
    assert np.shape(data["spatial_map"]["block3"]) == (8, 8)
    assert data["prediction_name"] in result.stdout


def test_a_grey_picture_becomes_npz_with_a_notice(tmp_path):
    paths = write_unusual_pictures(tmp_path)
    out = tmp_path / "v.npz"
    result = run_cli("vision", "--image", str(paths["grey"]), "--model", "se", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "note: a grey-scale picture" in result.stdout
    with np.load(out, allow_pickle=False) as z:
        meta = json.loads(str(z["meta_json"]))
        assert meta["variant"] == "se" and "object_mask" not in z.files
        assert z["excitation.block1"].shape == (16,) and z["image"].shape == (32, 32, 3)


@pytest.mark.parametrize("kind", ["rgba", "palette", "big", "grey16"])
def test_unusual_pictures_are_read_in_process(tmp_path, kind, capsys):
    paths = write_unusual_pictures(tmp_path)
    assert cli_main(["vision", "--image", str(paths[kind]), "--out", str(tmp_path / "v.json")]) == 0
    assert "note: " in capsys.readouterr().out


SUBPROCESS_CASES = ("text", "zero", "truncated", "huge")  # the worst files, each in a real process


def bad_cases(folder):
    cases = {name: (str(path), message) for name, (path, message) in write_bad_pictures(folder).items()}
    cases["absent"] = (str(folder / "absent.png"), "no such file")
    cases["folder"] = (str(folder), "not a file")
    return cases


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_bad_pictures_exit_2_with_one_line(tmp_path, name):
    path, message = bad_cases(tmp_path)[name]
    result = run_cli("vision", "--image", path, "--out", str(tmp_path / "v.json"))
    assert_one_line_error(result, message)
    assert not (tmp_path / "v.json").exists()


def test_every_other_bad_picture_exits_2_in_process(tmp_path, capsys):
    """The same code path as above (explorer.cli.main), without a process start per file."""
    for name, (path, message) in bad_cases(tmp_path).items():
        if name in SUBPROCESS_CASES:
            continue
        with pytest.raises(SystemExit) as caught:
            cli_main(["vision", "--image", path, "--out", str(tmp_path / f"{name}.json")])
        assert caught.value.code == 2, name
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], (name, err)
        assert not (tmp_path / f"{name}.json").exists()


@pytest.mark.parametrize(
    "args,message",
    [
        (["--generate", "-3"], "from 0 to"),
        (["--generate", "seven"], "whole number"),
        (["--generate", "1", "--image", "x.png"], "not allowed with"),
        (["--generate", "1", "--model", "resnet"], "invalid choice"),
        (["--generate", "1", "--checkpoint", "/nonexistent/model"], "no such file"),
        (["--out", "v.json"], "required"),
    ],
)
def test_bad_vision_arguments_exit_2_in_process(tmp_path, args, message, capsys):
    if "--out" not in args:
        args = [*args, "--out", str(tmp_path / "v.json")]
    with pytest.raises(SystemExit) as caught:
        cli_main(["vision", *args])
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_bad_output_names_exit_2(tmp_path):
    assert_one_line_error(
        run_cli("vision", "--generate", "1", "--out", str(tmp_path / "v.txt")), ".json or .npz"
    )
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_one_line_error(
        run_cli("vision", "--generate", "1", "--out", str(blocker / "v.json")), "is a file, not a folder"
    )


def test_train_vision_writes_a_checkpoint_the_vision_command_reads(tmp_path, capsys):
    argv = ["train-vision", "--model", "se", "--reduction", "2", "--steps", "6", "--eval-every", "3"]
    argv += ["--pool-size", "64", "--seed", "5", "--out", str(tmp_path / "ck")]
    assert cli_main(argv) == 0
    printed = capsys.readouterr().out
    assert "step 3/6" in printed and "held-out accuracy on 1,000 pictures" in printed
    info = json.loads((tmp_path / "ck" / "se.json").read_text())
    assert info["config"]["reduction"] == 2 and info["steps"] == 6 and info["seed"] == 5
    assert info["trained_by"].startswith("python -m explorer train-vision --model se")
    out = tmp_path / "v.json"
    assert (
        cli_main(
            ["vision", "--generate", "3", "--checkpoint", str(tmp_path / "ck" / "se"), "--out", str(out)]
        )
        == 0
    )
    assert json.loads(out.read_text())["config"]["reduction"] == 2


@pytest.mark.parametrize(
    "args,message",
    [
        (["--model", "se", "--steps", "0"], "steps 0"),
        (["--model", "cbam", "--steps", "5", "--kernel", "4"], "kernel 4"),
        (["--model", "se", "--steps", "5", "--reduction", "0"], "reduction 0"),
        (["--model", "se", "--steps", "5", "--lr", "nan"], "--lr must be above 0 and at most 1, not nan"),
        (["--model", "resnet", "--steps", "5"], "invalid choice"),
        (["--steps", "5"], "required"),
    ],
)
def test_bad_training_arguments_exit_2(tmp_path, args, message, capsys):
    with pytest.raises(SystemExit) as caught:
        cli_main(["train-vision", *args, "--out", str(tmp_path / "ck")])
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_train_vision_refuses_a_file_as_its_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run_cli("train-vision", "--model", "plain", "--steps", "1", "--out", str(blocker))
    assert_one_line_error(result, "it is a file")
