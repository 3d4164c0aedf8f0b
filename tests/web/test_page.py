"""The page's data and HTML without a browser: exact or rounded numbers, trimming said on the
page, both languages, nothing that could reach a network, and the commands' --html."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest

from explorer.core.config import AttentionConfig
from explorer.web import AttentionSet, Page, PageError, page_data, page_html, write_page
from explorer.web import html as html_module
from explorer.web import page as page_module
from explorer.web.language import LANGUAGES, catalogue, message_text, words
from explorer.web.words import WORDS

ROOT = Path(__file__).resolve().parents[2]


def decoded(stage: dict, shape) -> np.ndarray:
    raw = base64.b64decode(stage["data"])
    if stage["encoding"] == "float32":
        return np.frombuffer(raw, dtype="<f4").reshape(shape)
    return (stage["offset"] + np.frombuffer(raw, dtype=np.uint8) * stage["scale"]).reshape(shape)


def softmax_rows(rng, shape) -> np.ndarray:
    x = rng.standard_normal(shape).astype(np.float32) * 3
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def a_page(layers=3, heads=4, n=5, **kw) -> Page:
    rng = np.random.default_rng(0)
    tokens = [f"t{i}" for i in range(n)]
    weights = softmax_rows(rng, (layers, heads, n, n))
    return Page(
        "attention", "t", [AttentionSet("attention", tokens, tokens, weights, list(range(layers)))], **kw
    )


def test_small_pages_carry_the_exact_float32_weights(animal):
    data = page_data(animal.page())
    (only,) = data["attentions"]
    assert only["stages"]["weights"]["encoding"] == "float32" and data["notes"] == []
    np.testing.assert_array_equal(decoded(only["stages"]["weights"], only["shape"]), animal.layer_weights)
    assert only["tokens_query"] == animal.tokens_query and only["layers"] == list(range(6))
    assert data["open"]["layer"] == 5
    # the trace's own layer is the engine's layer 5, computed alone
    np.testing.assert_array_equal(animal.layer_weights[5], animal.weights)


def test_large_pages_are_rounded_to_bytes_and_say_so(monkeypatch):
    monkeypatch.setattr(page_module, "FLOAT_VALUES", 100)
    page = a_page()
    data = page_data(page)
    stage = data["attentions"][0]["stages"]["weights"]
    assert stage["encoding"] == "uint8"
    got = decoded(stage, data["attentions"][0]["shape"])
    assert np.abs(got - page.attentions[0].weights).max() <= 0.5 / 255 + 1e-7
    (note,) = data["notes"]
    assert "rounded to multiples of 1/255" in note["en"] and "300 numbers" in note["en"]
    assert "1/255" in note["zh_CN"] and re.search(r"[\u4e00-\u9fff]", note["zh_CN"])


@pytest.mark.parametrize(
    "budget, kept_layers, kept_heads, kept_rows, words_said",
    [
        (2 * 4 * 25, [1, 2], [0, 1, 2, 3], 5, ["only layers 1, 2 of the 3 layers"]),
        (2 * 25, [2], [0, 1], 5, ["only layers 2 of the 3", "only heads 0, 1 of the 4 heads"]),
        (10, [2], [1], 2, ["only heads 1 of the 4", "only the first 2 of the 5 query tokens"]),
    ],
)
def test_pages_beyond_the_budget_keep_what_is_nearest_the_opening_layer_and_head(
    monkeypatch, budget, kept_layers, kept_heads, kept_rows, words_said
):
    monkeypatch.setattr(page_module, "FLOAT_VALUES", 1)
    monkeypatch.setattr(page_module, "BYTE_VALUES", budget)
    page = a_page(layer=2, head=1)
    data = page_data(page)
    (only,) = data["attentions"]
    assert only["layers"] == kept_layers and only["heads"] == kept_heads
    assert only["shape"] == [len(kept_layers), len(kept_heads), kept_rows, 5]
    assert len(only["tokens_query"]) == kept_rows and len(only["tokens_key"]) == 5
    full = page.attentions[0].weights[kept_layers][:, kept_heads][:, :, :kept_rows]
    assert np.abs(decoded(only["stages"]["weights"], only["shape"]) - full).max() <= 0.5 / 255 + 1e-7
    said = " ".join(n["en"] for n in data["notes"])
    for words_ in words_said:
        assert words_ in said
    assert all(re.search(r"[\u4e00-\u9fff]", n["zh_CN"]) for n in data["notes"])


def test_weights_that_are_not_finite_are_refused_with_one_line():
    with pytest.raises(PageError, match="attention: 2 attention weights are not finite"):
        AttentionSet("attention", ["a"], ["a", "b"], np.array([[[[np.nan, np.inf]]]]), [0])


def test_shapes_that_do_not_match_the_tokens_are_a_programming_error():
    with pytest.raises(ValueError, match="do not match"):
        AttentionSet("attention", ["a"], ["a"], np.zeros((1, 1, 2, 2)), [0])


def test_every_page_word_is_translated_with_its_placeholders():
    zh = words("zh_CN")
    assert set(zh) == set(WORDS)
    for key, english in WORDS.items():
        assert zh[key] != english, key
        assert re.findall(r"\{[^}]*\}", zh[key]) == re.findall(r"\{[^}]*\}", english), key
        if key != "readout":  # “{query}” → “{key}”：{value} differs by its colon only
            assert re.search(r"[\u4e00-\u9fff]", zh[key]), key
    assert words("en") == dict(WORDS)


def test_notices_go_on_the_page_in_both_languages(engine):
    config = AttentionConfig(sentence="a b c", weights="random", d_model=16, mask="valid:9", device="cpu")
    trace = engine.trace(config)
    notices = page_data(trace.page())["notices"]
    assert notices, "a mask beyond the keys says so"
    assert catalogue("zh_CN"), "the Chinese catalogue is read from the .ts"
    for message, shown in zip(trace.notices, notices):
        assert shown["en"] == str(message)
        assert shown["zh_CN"] == message_text(message, "zh_CN") != str(message)


def test_the_page_is_self_contained_and_asks_for_nothing(animal):
    text = page_html(animal.page())
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    for forbidden in (
        "http://",
        "https://",
        "//cdn",
        "<link",
        " src=",
        "@import",
        "url(",
        "fetch(",
        "XMLHttpRequest",
    ):
        assert forbidden not in text, forbidden
    assert text.count("<script") == 2 and text.count("</script>") == 2


def test_tokens_cannot_close_the_script_they_sit_in(engine):
    evil = "a </script><script>alert(1)</script> <!-- b"
    trace = engine.trace(AttentionConfig(sentence=evil, weights="random", d_model=16, device="cpu"))
    text = page_html(trace.page())
    assert text.count("</script>") == 2
    data = json.loads(re.search(r'<script type="application/json" id="[^"]+">(.*?)</script>', text, re.S)[1])
    assert data["title"] == evil and "</script>" in "".join(data["attentions"][0]["tokens_key"])


def test_a_page_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    with pytest.raises(PageError, match="must end in .html or .htm"):
        write_page(tmp_path / "page.txt", a_page())
    page = tmp_path / "page.html"
    write_page(page, a_page(), "zh_CN")
    assert '<html lang="zh-Hans">' in page.read_text(encoding="utf-8")
    monkeypatch.setattr(html_module, "page_html", lambda *args: "<html>\ud800")  # fails half-way
    with pytest.raises(UnicodeEncodeError):
        write_page(tmp_path / "other.html", a_page())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]


def test_languages_match_the_window():
    from explorer.appstate.state import LANGUAGES as WINDOW_LANGUAGES

    assert tuple(WINDOW_LANGUAGES) == LANGUAGES


def test_the_bundle_carries_the_script_and_styles():
    spec = (ROOT / "packaging" / "attention-explorer.spec").read_text(encoding="utf-8")
    assert '"explorer" / "web"' in spec and "view.js" in spec and "view.css" in spec
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"explorer.web" = ["*.js", "*.css"]' in pyproject


# -- the commands ------------------------------------------------------------------------------


def run(capsys, *args: str) -> tuple[int, str, str]:
    from explorer.cli import main

    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def embedded(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="[^"]+">(.*?)</script>', text, re.S)[1])


def test_trace_html_writes_every_layer_in_the_language_asked(tmp_path, capsys):
    out = tmp_path / "animal.html"
    code, stdout, stderr = run(
        capsys,
        "trace",
        "--sentence",
        "The animal was tired",
        "--layer",
        "2",
        "--html",
        str(out),
        "--language",
        "zh_CN",
    )
    assert code == 0, stderr
    assert f"{out}: the interactive page, every layer and head" in stdout
    data = embedded(out)
    assert data["language"] == "zh_CN" and data["open"]["layer"] == 2
    assert data["attentions"][0]["layers"] == list(range(6)) and data["attentions"][0]["shape"][:2] == [6, 12]
    assert {"label": {"en": "Model", "zh_CN": "模型"}, "value": "all-MiniLM-L6-v2"} in data["settings"]


def test_trace_writes_the_file_and_the_page_together(tmp_path, capsys):
    code, _, stderr = run(
        capsys, "trace", "--sentence", "a b c", "--weights", "random", "--d-model", "16",
        "--out", str(tmp_path / "t.json"), "--html", str(tmp_path / "t.html"),
    )  # fmt: skip
    assert code == 0, stderr
    assert json.loads((tmp_path / "t.json").read_text())["tokens_key"] == ["a", "b", "c"]
    assert embedded(tmp_path / "t.html")["attentions"][0]["tokens_key"] == ["a", "b", "c"]


@pytest.mark.parametrize(
    "args, line",
    [
        ([], "error: give --out FILE.json|FILE.npz, --html FILE.html, or both"),
        (["--html", "{tmp}/page.txt"], "error: --html '{tmp}/page.txt': the file name must end in .html"),
        (["--html", "/nonexistent/folder/page.html"], "error: the folder /nonexistent/folder does not exist"),
        (["--html", "{tmp}/p.html", "--language", "fr"], "error: argument --language: invalid choice: 'fr'"),
    ],
)
@pytest.mark.parametrize("command", ["trace", "translate"])
def test_bad_page_options_exit_2_with_one_line_and_no_file(tmp_path, capsys, command, args, line):
    first = ["--sentence", "a b"] if command == "trace" else ["--source", "9 mai 2018"]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, stderr = run(capsys, command, *first, *args)
    assert code == 2
    (only,) = stderr.splitlines()
    assert only.startswith(line.replace("{tmp}", str(tmp_path)))
    assert list(tmp_path.iterdir()) == []


def test_translate_html_holds_every_attention_of_the_transformer(tmp_path, capsys):
    out = tmp_path / "t.html"
    code, _, stderr = run(
        capsys, "translate", "--source", "9 mai 2018", "--model", "transformer", "--html", str(out)
    )
    assert code == 0, stderr
    data = embedded(out)
    assert [a["name"] for a in data["attentions"]] == ["cross", "decoder_self", "encoder_self"]
    cross = data["attentions"][0]
    assert cross["tokens_key"] == list("9 mai 2018") and "".join(cross["tokens_query"]) == "2018-05-09"
    assert cross["shape"] == [2, 4, 10, 10]
