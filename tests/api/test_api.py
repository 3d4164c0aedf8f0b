"""The Python API as a user calls it: ``import explorer`` and the three functions, their
numbers against the commands' and the references', and every refusal as one ExplorerError
that says what the command line says."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest
import torch

import explorer
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.trace import AttentionTrace
from explorer.seq2seq.trace import TranslationTrace
from explorer.vision.trace import VisionTrace

ANIMAL = "The animal didn't cross the street because it was too tired"


def cli_error(argv: list[str]) -> str:
    """The one line a command prints for ``argv``, without "error: "."""
    from explorer.cli import main

    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    (line,) = err.getvalue().splitlines()
    return line.removeprefix("error: ")


def test_importing_the_api_imports_neither_torch_nor_qt():
    code = "import sys, explorer; explorer.trace; print(sorted(m for m in ('torch', 'PySide6', 'numpy') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_trace_is_the_commands_trace(tmp_path, engine):
    t = explorer.trace("the cat sat on the mat", weights="random", d_model=32, seed=4, mask="causal")
    assert isinstance(t, AttentionTrace)
    config = AttentionConfig(
        sentence="the cat sat on the mat", weights="random", d_model=32, seed=4, mask="causal"
    )
    reference = engine.trace(config)
    for name in ("Q", "K", "V", "scores", "weights", "output"):
        np.testing.assert_array_equal(getattr(t, name), getattr(reference, name))
    assert t.layer_weights.shape == (1, 8, 6, 6)
    t.save(tmp_path / "api.json")
    from explorer.cli import main

    args = ["trace", "--sentence", "the cat sat on the mat", "--weights", "random", "--d-model", "32"]
    assert main([*args, "--seed", "4", "--mask", "causal", "--out", str(tmp_path / "cli.json")]) == 0
    api, cli = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("api", "cli"))
    for key in ("timings_ms", "compute_ms"):
        api.pop(key), cli.pop(key)
    assert api == cli


def test_every_layer_equals_transformers_attentions(animal_trace):
    """trace.layer_weights holds every layer; checked against Hugging Face's eager BertModel."""
    transformers = pytest.importorskip("transformers", reason="transformers is in the test extra")
    from explorer.models.loader import default_model_dir

    folder = default_model_dir()
    model = transformers.BertModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(folder))
    ids = tokenizer(ANIMAL, return_tensors="pt")
    assert tokenizer.convert_ids_to_tokens(ids["input_ids"][0]) == animal_trace.tokens_key
    with torch.no_grad():
        attentions = model(**ids, output_attentions=True).attentions
    expected = torch.stack([a[0] for a in attentions]).numpy()
    assert animal_trace.layer_weights.shape == expected.shape == (6, 12, 15, 15)
    np.testing.assert_allclose(animal_trace.layer_weights, expected, atol=2e-5)
    np.testing.assert_array_equal(animal_trace.layer_weights[5], animal_trace.weights)
    assert animal_trace.layer == 5 and animal_trace.model_name == "all-MiniLM-L6-v2"


@pytest.fixture(scope="module")
def animal_trace():
    return explorer.trace(ANIMAL, layer=5)


def test_one_layer_when_asked(animal_trace):
    one = explorer.trace(ANIMAL, layer=5, all_layers=False)
    assert one.layer_weights is None
    np.testing.assert_array_equal(one.weights, animal_trace.weights)


def test_a_query_attends_over_the_sentence():
    t = explorer.trace("Jane visite l'Afrique en septembre", "Jane visits Africa in September", layer=2)
    assert t.tokens_query[:3] == ["[CLS]", "jane", "visits"] and t.weights.shape[1:] == (t.n_query, t.n_key)
    assert not t.config.is_self_attention


@pytest.mark.parametrize(
    "call, argv",
    [
        (lambda: explorer.trace("   "), ["--sentence", "   "]),
        (lambda: explorer.trace("a b", mask="window"), ["--sentence", "a b", "--mask", "window"]),
        (lambda: explorer.trace("a b", layer=9), ["--sentence", "a b", "--layer", "9"]),
        (lambda: explorer.trace("a b", heads=5), ["--sentence", "a b", "--heads", "5"]),
        (
            lambda: explorer.trace("a b", temperature=0.0, scale="temperature"),
            ["--sentence", "a b", "--scale", "temperature", "--temperature", "0"],
        ),
        (
            lambda: explorer.trace("a b", model_dir="/no/such/folder"),
            ["--sentence", "a b", "--model-dir", "/no/such/folder"],
        ),
    ],
)
def test_a_refusal_says_what_the_command_says(tmp_path, call, argv):
    with pytest.raises(explorer.ExplorerError) as caught:
        call()
    assert str(caught.value) == cli_error(["trace", *argv, "--out", str(tmp_path / "t.json")])
    assert caught.value.key is not None and isinstance(caught.value.__cause__, Exception)
    assert isinstance(caught.value, ValueError)
    assert not (tmp_path / "t.json").exists()


def test_unknown_options_and_wrong_types_are_refused():
    with pytest.raises(explorer.ExplorerError, match="unknown configuration keys: scorng") as caught:
        explorer.trace("a b", scorng="dot")
    assert caught.value.key == "config.unknown_keys"
    with pytest.raises(explorer.ExplorerError, match="scoring 'cosin' is not one of dot, cosine"):
        explorer.trace("a b", scoring="cosin")
    with pytest.raises(explorer.ExplorerError, match="sentence and query must be text"):
        explorer.trace(42)


@pytest.mark.parametrize(
    "call,said",
    [
        (lambda: explorer.trace("a b", mask=3), "mask '3' is not one of"),  # was an AttributeError
        (lambda: explorer.trace("a b", model_dir=123), "model_dir must be a path (text or a Path), not int"),
        (lambda: explorer.translate("9 mai 2018", checkpoint=123), "checkpoint must be a path"),
        (lambda: explorer.vision(generate=1, checkpoint=4.5), "checkpoint must be a path"),
        (lambda: explorer.trace("a b", all_layers="no"), "all_layers must be True or False, not 'no'"),
        (lambda: explorer.trace("a b", strict_device=1), "strict_device must be True or False"),
        (lambda: explorer.view("a b"), "view() shows what trace() or translate() returned, not str"),
        (lambda: explorer.view(None), "not NoneType"),
    ],
)
def test_arguments_of_the_wrong_kind_are_refusals_not_python_errors(call, said):
    """docs/api.md: every refusal is one ExplorerError; these escaped as AttributeError or TypeError
    from deep inside, or were taken as True (engineer trial 8, B3)."""
    with pytest.raises(explorer.ExplorerError, match=re.escape(said)):
        call()


def test_numpy_numbers_are_taken_as_the_numbers_they_hold_and_a_view_checks_its_head():
    t = explorer.trace("a b c", layer=np.int64(1), heads=np.int64(4), all_layers=False)
    assert (t.layer, t.heads) == (1, 4)  # "layer must be 0 or more, not np.int64(1)" before
    sharp = explorer.trace("a b c", scale="temperature", temperature=np.float32(0.5), all_layers=False)
    assert sharp.config.temperature == 0.5
    assert explorer.view(t, head=np.int64(3))._repr_html_()
    for head in (4, -1, 1.5):
        with pytest.raises(explorer.ExplorerError, match="is not one of the trace's heads, 0 to 3"):
            explorer.view(t, head=head)


def test_translate_is_the_commands_translation(tmp_path):
    t = explorer.translate("9 mai 2018", model="luong", scoring="dot")
    assert isinstance(t, TranslationTrace) and t.output == "2018-05-09"
    from explorer.seq2seq.translate import translate

    same = translate("9 mai 2018", "luong", "dot")
    np.testing.assert_array_equal(t.weights, same.weights)
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.translate("")
    assert str(caught.value) == cli_error(["translate", "--source", "", "--out", str(tmp_path / "t.json")])
    with pytest.raises(
        explorer.ExplorerError, match="seed must be a whole number from 0 to 2147483647, not -1"
    ):
        explorer.translate("9 mai 2018", seed=-1)
    with pytest.raises(explorer.ExplorerError, match="the transformer scores with scaled-dot only"):
        explorer.translate("9 mai 2018", model="transformer", scoring="dot")


def test_vision_is_the_commands_picture(tmp_path):
    v = explorer.vision(generate=7)
    assert isinstance(v, VisionTrace) and v.source == "generate:7" and v.object_mask is not None
    from explorer.cli import main

    assert main(["vision", "--generate", "7", "--out", str(tmp_path / "v.json")]) == 0
    written = json.loads((tmp_path / "v.json").read_text())
    np.testing.assert_allclose(v.stage("spatial_map", "block3"), written["spatial_map"]["block3"], rtol=1e-6)
    assert written["prediction_name"] == v.prediction_name
    again = explorer.vision(generate=7, model="se")  # a second call: explorer.vision is the package now
    assert again.variant == "se"


def test_vision_of_the_transformer_is_the_commands(tmp_path):
    v = explorer.vision(generate=7, model="vit")
    from explorer.cli import main

    assert main(["vision", "--generate", "7", "--model", "vit", "--out", str(tmp_path / "v.json")]) == 0
    written = json.loads((tmp_path / "v.json").read_text())
    assert written["prediction_name"] == v.prediction_name
    np.testing.assert_allclose(v.arrays["rollout"], written["rollout"], rtol=1e-6)


def test_vision_reads_files_and_arrays_with_notices(tmp_path):
    from PIL import Image

    picture = (np.random.default_rng(0).random((64, 64, 3)) * 255).astype(np.uint8)
    Image.fromarray(picture).save(tmp_path / "p.png")
    from_file = explorer.vision(tmp_path / "p.png")
    from_array = explorer.vision(picture)
    np.testing.assert_array_equal(from_file.image, from_array.image)
    assert any("resized from 64×64 to 32×32" in n for n in from_array.notices)
    grey = explorer.vision(np.full((32, 32), 0.5))
    assert any("grey-scale" in n for n in grey.notices)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: explorer.vision(), "give a picture (a file or an array) or generate=SEED"),
        (
            lambda: explorer.vision("x.png", generate=1),
            "give a picture (a file or an array) or generate=SEED",
        ),
        (lambda: explorer.vision(generate=-1), "generate=-1: a picture's seed is a whole number from 0 to"),
        (lambda: explorer.vision(np.zeros((2, 2, 5))), "a picture must be H×W"),
        (
            lambda: explorer.vision(generate=1, device="gpu"),
            "device 'gpu' is not one of auto, cpu, cuda, mps",
        ),
        (lambda: explorer.vision(generate=1, checkpoint="/no/such"), "/no/such.json"),
    ],
)
def test_vision_refusals(call, words):
    with pytest.raises(explorer.ExplorerError, match=None) as caught:
        call()
    assert words in str(caught.value)


def test_a_bad_picture_file_says_what_the_command_says(tmp_path):
    (tmp_path / "empty.png").write_bytes(b"")
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.vision(tmp_path / "empty.png")
    argv = ["vision", "--image", str(tmp_path / "empty.png"), "--out", str(tmp_path / "v.json")]
    assert str(caught.value) == cli_error(argv) and caught.value.key == "vision.empty_file"


def test_a_trace_draws_itself_in_a_notebook_and_writes_its_page(animal_trace, tmp_path):
    html = animal_trace._repr_html_()
    assert 'class="ae-view"' in html and "<script>" in html
    assert repr(animal_trace) == (
        "<AttentionTrace: 12 heads, 15×15 tokens, all-MiniLM-L6-v2, layer 5 (of 6 layers), on cpu>"
    )
    path = animal_trace.to_html(tmp_path / "animal.html", "zh_CN", head=11)
    assert path == tmp_path / "animal.html" and '"head":11' in path.read_text(encoding="utf-8")
    explorer.view(animal_trace, "zh_CN").save(tmp_path / "view.html")
    assert '"language":"zh_CN"' in (tmp_path / "view.html").read_text(encoding="utf-8")
    with pytest.raises(explorer.ExplorerError, match="must end in .html or .htm"):
        explorer.view(animal_trace).save(tmp_path / "view.png")
    with pytest.raises(explorer.ExplorerError, match="language 'fr'"):
        explorer.view(animal_trace, "fr")


def test_out_of_memory_is_a_refusal_not_a_crash(monkeypatch):
    from explorer.core.engine import Engine

    def runs_out(*args, **kwargs):
        raise RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried to allocate 9 GB")

    monkeypatch.setattr(Engine, "_trace_on", runs_out)
    with pytest.raises(explorer.ExplorerError, match="not enough memory for this trace") as caught:
        explorer.trace("a b", weights="random")
    assert caught.value.key == "api.out_of_memory"


def test_a_bug_is_not_dressed_as_a_refusal(monkeypatch):
    from explorer.core.engine import Engine

    monkeypatch.setattr(Engine, "_trace_on", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        explorer.trace("a b", weights="random")


def test_config_errors_are_still_their_own_type_underneath():
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.trace("a b", layer=-1)
    assert isinstance(caught.value.__cause__, ConfigError)
    assert Path(explorer.__file__).parent.name == "explorer"


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("model", ["vit", "cbam"])
def test_a_picture_array_with_nan_or_infinity_is_refused_not_classified(bad, model):
    pixels = np.full((32, 32, 3), 0.5)
    pixels[3, 4, 1] = bad
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.vision(pixels, model=model)
    assert caught.value.key == "vision.array_not_finite"
    assert str(caught.value) == "a picture's values must be finite numbers: 1 of them are NaN or infinite"
    with pytest.raises(explorer.ExplorerError, match="3,072 of them"):  # the tester's all-NaN picture
        explorer.vision(np.full((32, 32, 3), np.nan), model=model)


def test_an_unknown_vision_model_names_every_model_the_vit_too():
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.vision(generate=1, model="nope")
    assert caught.value.key == "vision.model_unknown"
    assert str(caught.value) == "model 'nope' is not one of plain, se, cbam, residual, vit"


def test_an_option_a_function_does_not_take_is_an_explorer_error_naming_what_it_takes():
    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.translate("9 mai 2018", task="sentences-fr")
    assert caught.value.key == "api.unknown_option" and isinstance(caught.value, ValueError)
    assert str(caught.value) == (
        "translate() has no option task: it takes source, model, scoring, attention, seed, checkpoint"
    )
    with pytest.raises(explorer.ExplorerError, match=r"vision\(\) has no option modle: it takes image, "):
        explorer.vision(generate=1, modle="vit")


@pytest.fixture(scope="module")
def gpt2_folder(tmp_path_factory):
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    from tests.models import tiny_decoders

    return tiny_decoders.build(tmp_path_factory.mktemp("gpt2"), "gpt2")


def test_a_language_models_questions_are_the_commands(tmp_path, gpt2_folder):
    """next_tokens, generate (sampled, with a head off) and ablate: the command's JSON, key for key."""
    from explorer.cli import main
    from tests.models.tiny_decoders import ENGLISH

    t = explorer.trace(
        ENGLISH,
        model_dir=gpt2_folder,
        layer=1,
        all_layers=False,
        next_tokens=3,
        generate=3,
        decoding="sample",
        decoding_temperature=1.5,
        top_k=20,
        ablate="0.1,1.3",
        ablation="mean",
        seed=5,
    )
    assert len(t.next_tokens) == t.n_query and len(t.next_tokens[0]) == 3
    assert (
        t.generation["heads_off"]["heads"] == ["0.1", "1.3"] and t.generation["heads_off"]["mode"] == "mean"
    )
    assert t.ablation["mode"] == "mean" and len(t.ablation["before"][0]) == 3
    t.save(tmp_path / "api.json")
    args = ["trace", "--model-dir", str(gpt2_folder), "--sentence", ENGLISH, "--layer", "1"]
    args += ["--next-tokens", "3", "--generate", "3", "--decoding", "sample", "--decoding-temperature", "1.5"]
    args += ["--top-k", "20", "--ablate", "0.1,1.3", "--ablation", "mean", "--seed", "5"]
    assert main([*args, "--out", str(tmp_path / "cli.json")]) == 0
    api, cli = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("api", "cli"))
    for key in ("timings_ms", "compute_ms"):
        api.pop(key), cli.pop(key)
    assert api["generation"] == cli["generation"] and api["ablation"] == cli["ablation"]
    assert api["next_tokens"] == cli["next_tokens"] and api == cli


@pytest.mark.parametrize(
    "options, argv",
    [
        ({"generate": -1}, ["--generate", "-1"]),
        ({"next_tokens": 101}, ["--next-tokens", "101"]),
        ({"ablate": "1-2"}, ["--ablate", "1-2"]),
        ({"ablate": "9.0"}, ["--ablate", "9.0"]),
        (
            {"generate": 2, "decoding_temperature": 0.0, "decoding": "sample"},
            ["--generate", "2", "--decoding", "sample", "--decoding-temperature", "0"],
        ),
    ],
)
def test_a_language_models_refusals_are_the_commands(tmp_path, gpt2_folder, options, argv):
    from tests.models.tiny_decoders import ENGLISH

    with pytest.raises(explorer.ExplorerError) as caught:
        explorer.trace(ENGLISH, model_dir=gpt2_folder, **options)
    base = ["trace", "--model-dir", str(gpt2_folder), "--sentence", ENGLISH]
    assert str(caught.value) == cli_error([*base, *argv, "--out", str(tmp_path / "t.json")])


def test_an_encoders_heads_off_are_the_commands(tmp_path):
    from explorer.cli import main

    t = explorer.trace(ANIMAL, all_layers=False, ablate="2.3")
    assert len(t.ablation["output_cosine"]) == t.n_key and min(t.ablation["output_cosine"]) < 1.0
    assert main(["trace", "--sentence", ANIMAL, "--ablate", "2.3", "--out", str(tmp_path / "cli.json")]) == 0
    assert json.loads((tmp_path / "cli.json").read_text())["ablation"] == t.ablation
