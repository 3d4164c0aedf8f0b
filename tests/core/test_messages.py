"""Messages: the English text, its key and params, and raising sites that carry one.

The window's side (every key translated, every key produced by real code) is in
tests/gui/test_core_text.py.
"""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path

import pytest

from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.engine import Engine
from explorer.messages import TEMPLATES, Message, MessageError, fields, message_of, placeholders
from explorer.models.errors import ModelError

ROOT = Path(__file__).resolve().parents[2]
# Where user-facing text is made: every error and notice there must carry a Message.
SOURCES = [
    *sorted((ROOT / "explorer" / "core").glob("*.py")),
    *sorted((ROOT / "explorer" / "models").glob("*.py")),
    ROOT / "explorer" / "training.py",
]
MESSAGE_ERRORS = {
    "ConfigError",
    "DeviceUnavailable",
    "ModelError",
    "NeedsConversion",
    "CatalogueError",
    "ConversionError",
    "E5FormatError",
    "TrainingCancelled",
}


def test_a_message_is_its_english_text_with_key_and_params():
    m = Message.of("engine.valid_beyond", size=9, keys=5)
    assert m == "valid:9 is beyond the 5 keys: all are visible"
    assert isinstance(m, str) and type(str(m)) is str and str(m) == m
    assert m.key == "engine.valid_beyond" and dict(m.params) == {"size": 9, "keys": 5}
    assert Message("engine.valid_beyond", {"size": 9, "keys": 5}) == m
    assert "beyond" in m and json.dumps([m]) == json.dumps([str(m)])


def test_messages_are_immutable_and_copy_as_themselves():
    m = Message.of("engine.control_characters", count=2)
    with pytest.raises(AttributeError):
        m.key = "engine.valid_zero"
    with pytest.raises(TypeError):
        m.params["count"] = 3
    assert copy.copy(m) is m and copy.deepcopy(m) is m
    assert copy.deepcopy({"n": [m]})["n"][0].key == "engine.control_characters"


def test_unknown_keys_and_wrong_params_are_refused():
    with pytest.raises(KeyError, match="no message template 'engine.nonsense'"):
        Message.of("engine.nonsense")
    with pytest.raises(TypeError, match=r"takes \['count'\]; given \['cnt'\]"):
        Message.of("engine.control_characters", cnt=2)
    with pytest.raises(TypeError):
        Message.of("engine.valid_zero", extra=1)


def test_a_param_may_be_a_message_rendered_through_the_same_lookup():
    reason = Message.of("device.no_cuda")
    notice = Message.of("device.fallback", device="CUDA", reason=reason)
    assert notice == (
        "CUDA asked for, but no CUDA GPU found (or this torch is a CPU build): computed on the CPU"
    )
    marked = notice.render(lambda key: "<" + TEMPLATES[key] + ">")
    assert (
        marked
        == "<CUDA asked for, but <no CUDA GPU found (or this torch is a CPU build)>: computed on the CPU>"
    )


def test_a_damaged_translation_falls_back_to_english():
    m = Message.of("engine.valid_beyond", size=9, keys=5)
    assert m.render(lambda key: "{size} {missing}") == str(m)
    assert m.render(lambda key: "{size:d}{") == str(m)


def test_formats_are_python_s_whatever_the_locale():
    m = Message.of("convert_bin.needs_conversion", source="a.bin", megabytes=1234.5678, target="b")
    assert "(1234.6 MB)" in m


def test_fields_and_placeholders():
    assert fields(TEMPLATES["convert_bin.needs_conversion"]) == ["source", "megabytes", "target"]
    assert placeholders("{b!r} and {a:.1f}, {b!r}") == ["{a:.1f}", "{b!r}", "{b!r}"]


def test_every_template_formats_with_its_own_fields():
    for key, template in TEMPLATES.items():
        sample = {name: 1.5 for name in fields(template)}
        assert "{" not in Message(key, sample) and "}" not in Message(key, sample), key


def test_errors_carry_the_message_and_stay_english():
    exc = ConfigError.of("engine.heads_not_dividing", heads=5, width=384, options="1, 2, 3")
    assert isinstance(exc, ValueError) and isinstance(exc, MessageError)
    assert str(exc) == "5 heads do not divide the width 384; choose one of 1, 2, 3"
    assert exc.message.key == "engine.heads_not_dividing" and message_of(exc) is exc.message
    with pytest.raises(ConfigError) as caught:
        AttentionConfig(temperature=-1.0)
    assert caught.value.message.key == "config.temperature"
    assert str(caught.value) == "temperature must be a number of at least 0.000001, not -1.0"


def test_plain_text_errors_still_work_without_a_message():
    # The window builds ConfigError(text) from a control's complaint; it must not break.
    exc = ConfigError("the width must be even")
    assert str(exc) == "the width must be even" and exc.message is None
    assert message_of(exc) == "the width must be even" and message_of(KeyError("x")) == "'x'"
    assert ModelError(Message.of("loader.file_missing", file="w")).message.key == "loader.file_missing"


def test_trace_notices_are_messages_and_files_hold_their_english(tmp_path):
    config = AttentionConfig(sentence="a b c", weights="random", d_model=16, mask="valid:9", device="cpu")
    trace = Engine().trace(config)
    assert [n.key for n in trace.notices] == ["engine.valid_beyond"]
    trace.to_json(tmp_path / "t.json")
    written = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert written["notices"] == ["valid:9 is beyond the 3 keys: all are visible"]


def _calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            owner = (
                func.value.id
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                else None
            )
            yield node, name, owner


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_user_text_is_built_outside_the_table(source):
    """Errors are raised with ``.of(key, ...)`` and notices are Messages: English typed at a
    raising site would reach the Chinese window untranslated."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node, name, owner in _calls(tree):
        where = f"{source.name}:{node.lineno}"
        if name in MESSAGE_ERRORS:
            assert not any(_is_text(arg) for arg in node.args), (
                f"{where}: {name}(text); use {name}.of(key, ...)"
            )
        if name == "append" and isinstance(node.func.value, ast.Name) and node.func.value.id == "notices":
            assert not any(_is_text(arg) for arg in node.args), f"{where}: notices.append(text)"
        if name == "of" and (owner in MESSAGE_ERRORS or owner == "Message") and node.args:
            key = node.args[0]
            if isinstance(key, ast.Constant):
                assert key.value in TEMPLATES, f"{where}: no template {key.value!r}"


def test_a_cut_sentence_is_reported_once_in_self_attention(model_dir):
    # The query is the sentence there: one notice, not a second one about "the query".
    random = AttentionConfig(sentence="a b c d", weights="random", d_model=16, max_tokens=2, device="cpu")
    assert [n.key for n in Engine().trace(random).notices] == ["engine.sentence_cut_words"]
    pretrained = AttentionConfig(
        sentence="the cat sat on the mat", model_dir=str(model_dir), max_tokens=4, device="cpu"
    )
    assert [n.key for n in Engine().trace(pretrained).notices] == ["engine.sentence_cut_tokens"]
    crossed = pretrained.with_(query="where did the cat sit today")
    assert [n.key for n in Engine().trace(crossed).notices] == [
        "engine.sentence_cut_tokens",
        "engine.query_cut_tokens",
    ]
