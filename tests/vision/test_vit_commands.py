"""``vision --model vit``, ``train-vision --model vit`` and ``data-curve``: files, figures, bad input."""

import json

import numpy as np
import pytest
from PIL import Image

from explorer.cli import main as cli_main
from explorer.vision.data_curve import CurveResult, CurveRun, read_result
from explorer.vision.shapes import generate
from explorer.vision.vit_trace import LAYER_STAGES, PICTURE_ARRAYS


def _fails(argv, message, capsys):
    with pytest.raises(SystemExit) as caught:
        cli_main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0], err


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vit")
    argv = ["train-vision", "--model", "vit", "--steps", "4", "--eval-every", "2", "--pool-size", "32"]
    assert cli_main([*argv, "--seed", "2", "--out", str(folder)]) == 0
    return folder / "vit"


def test_train_vision_writes_a_transformer_checkpoint(trained):
    info = json.loads(trained.with_suffix(".json").read_text())
    assert info["config"]["architecture"] == "vit" and info["steps"] == 4 and info["seed"] == 2
    assert info["weight_decay"] == 0.05 and info["learning_rate"] == 1e-3
    assert np.shape(info["mean_attention_distance"]) == np.shape(info["self_share"]) == (2, 4)
    assert [m["block"] for m in info["attention_mass"]] == ["rollout", "layer1", "layer2"]


def test_vision_writes_every_stage_of_every_layer(trained, tmp_path, capsys):
    out = tmp_path / "v.json"
    assert cli_main(["vision", "--generate", "7", "--checkpoint", str(trained), "--out", str(out)]) == 0
    assert "2 layers of 4 heads" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["variant"] == "vit" and data["layer_stages"] == list(LAYER_STAGES)
    for stage in LAYER_STAGES:
        assert set(data[stage]) == {"layer1", "layer2"}, stage
    assert np.shape(data["weights"]["layer1"]) == (4, 65, 65) and np.shape(data["Q"]["layer2"]) == (4, 65, 8)
    for name in PICTURE_ARRAYS:
        assert name in data, name
    assert np.shape(data["rollout_cls"]) == (8, 8) and np.shape(data["cls_attention"]) == (2, 4, 8, 8)
    np.testing.assert_array_equal(np.array(data["object_mask"]), generate(7).mask)
    assert set(data["object_share"]) == {"rollout", "layer1", "layer2"}


def test_vision_npz_and_a_photo_with_its_caveat(trained, tmp_path, capsys):
    photo = tmp_path / "photo.jpg"
    rng = np.random.default_rng(0)
    Image.fromarray(rng.integers(0, 255, (90, 120, 3), dtype=np.uint8)).save(photo)
    out = tmp_path / "v.npz"
    assert cli_main(["vision", "--image", str(photo), "--checkpoint", str(trained), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "resized from 120×90" in printed and "never from photographs" in printed
    with np.load(out, allow_pickle=False) as z:
        meta = json.loads(str(z["meta_json"]))
        assert meta["object_share"] == {} and "object_mask" not in z.files
        assert z["weights.layer2"].shape == (4, 65, 65) and z["position_similarity"].shape == (64, 64)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--model", "vit", "--steps", "5", "--kernel", "5"], "has none"),
        (["--model", "vit", "--steps", "5", "--reduction", "2"], "has none"),
        (["--model", "vit", "--steps", "0"], "steps 0"),
        (["--model", "vit", "--steps", "5", "--lr", "inf"], "--lr must be above 0 and at most 1, not inf"),
    ],
)
def test_bad_transformer_training_exits_2(tmp_path, args, message, capsys):
    _fails(["train-vision", *args, "--out", str(tmp_path / "ck")], message, capsys)


def _small_result(path, **steps) -> None:
    argv = ["data-curve", "--train", "--sizes", "16,32", "--seeds", "0", "--test-size", "30"]
    argv += [
        "--steps-cnn",
        str(steps.get("cnn", 3)),
        "--steps-vit",
        str(steps.get("vit", 3)),
        "--out",
        str(path),
    ]
    assert cli_main(argv) == 0


def test_the_experiment_is_reproduced_by_its_command(tmp_path, capsys):
    _small_result(tmp_path / "a.json")
    _small_result(tmp_path / "b.json")
    a, b = read_result(tmp_path / "a.json"), read_result(tmp_path / "b.json")
    assert [r.model for r in a.runs] == ["cnn", "vit", "cnn", "vit"] and a.sizes() == [16, 32]

    def numbers(result):
        return [
            (r.model, r.size, r.seed, r.steps, r.accuracy, r.share, r.area, r.details) for r in result.runs
        ]

    assert numbers(a) == numbers(b)  # everything but the seconds
    assert a.recipes["vit"]["settings"]["steps"] == 3 and "--steps-vit 3" in a.command
    assert "the CNN's lead in points" in capsys.readouterr().out


def test_results_merge_and_draw(tmp_path, capsys):
    def run(model, size, seed, accuracy):
        return CurveRun(model, size, seed, 10, accuracy, 0.3, 0.1, "x", 1.0, 1.0)

    CurveResult([run("cnn", 100, 0, 0.9), run("vit", 100, 0, 0.3)]).save(tmp_path / "a.json")
    CurveResult([run("cnn", 1000, 0, 0.99), run("vit", 1000, 0, 0.6)]).save(tmp_path / "b.json")
    out = tmp_path / "curve.png"
    assert (
        cli_main(
            ["data-curve", "--from", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--out", str(out)]
        )
        == 0
    )
    assert "100: +60, 1,000: +39" in capsys.readouterr().out
    with Image.open(out) as image:
        assert image.size == (1200, 960) and image.mode == "RGB"
    merged = tmp_path / "m.json"
    assert (
        cli_main(
            ["data-curve", "--from", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--out", str(merged)]
        )
        == 0
    )
    result = read_result(merged)
    assert result.sizes() == [100, 1000] and result.gaps()[100] == pytest.approx(60)
    assert "has not overtaken" in str(result.caption())
    _fails(
        ["data-curve", "--from", str(tmp_path / "a.json"), str(tmp_path / "a.json"), "--out", str(merged)],
        "same model",
        capsys,
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (["--out", "curve.svg"], ".json or .png"),
        (["--train", "--sizes", "0,100", "--out", "c.json"], "0 is not from 1"),
        (["--train", "--sizes", "a,b", "--out", "c.json"], "whole numbers"),
        (["--train", "--sizes", "100,100", "--out", "c.json"], "given twice"),
        (["--train", "--seeds", "-1", "--out", "c.json"], "is not from 0"),
        (["--train", "--steps-vit", "0", "--out", "c.json"], "--steps-vit 0"),
        (["--train", "--test-size", "0", "--out", "c.json"], "--test-size 0"),
        (["--steps-cnn", "5", "--out", "c.json"], "go with --train"),
        (["--train", "--from", "x.json", "--out", "c.json"], "one of them"),
        (["--from", "missing.json", "--out", "c.json"], "no such file"),
        (["--out", "/nonexistent/folder/c.json"], "does not exist"),
    ],
)
def test_bad_data_curve_options_exit_2(tmp_path, monkeypatch, args, message, capsys):
    monkeypatch.chdir(tmp_path)
    _fails(["data-curve", *args], message, capsys)
    assert not (tmp_path / "c.json").exists()


def test_a_damaged_result_file_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"runs": [{"model": "cnn"}]')
    _fails(
        ["data-curve", "--from", str(bad), "--out", str(tmp_path / "c.png")],
        "not a data-curve result",
        capsys,
    )
    bad.write_text('{"runs": [{"model": "cnn"}]}')
    _fails(
        ["data-curve", "--from", str(bad), "--out", str(tmp_path / "c.png")],
        "not a data-curve result",
        capsys,
    )


def test_train_vision_names_each_map_once(tmp_path, capsys):
    argv = ["train-vision", "--model", "vit", "--steps", "2", "--eval-every", "2", "--pool-size", "16"]
    assert cli_main([*argv, "--out", str(tmp_path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "mass on the object" in x)
    maps = line.split("mass on the object: ", 1)[1].split("; ")
    assert maps[0].startswith("attention rollout ") and maps[0].endswith(
        "×"
    )  # not "rollout attention rollout"
    assert [m.rsplit(" ", 1)[0] for m in maps[1:]] == [
        "layer1 CLS attention, mean over heads",
        "layer2 CLS attention, mean over heads",
    ]
