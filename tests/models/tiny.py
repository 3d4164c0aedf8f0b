"""Tiny random-initialised model folders, written offline with transformers and tokenizers.

Hidden 32, 3 layers, 4 heads: small enough to build in milliseconds, large enough that a
wrong position, a skipped LayerNorm or a swapped projection changes every number.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch

CORPUS = [
    "the animal did not cross the street because it was too tired",
    "attention weighs every word against every other word",
    "le chat est sur la table, café naïve",
    "这只动物没有过马路，因为它太累了。",
    "我爱北京天安门",
] * 4
LAYERS, HEADS, WIDTH, FFN, POSITIONS = 3, 4, 32, 64, 40
SENTENCE = "the animal did not cross the street 这只动物 café"


def _bert_tokenizer(folder: Path):
    """A WordPiece vocabulary of the corpus' words and characters, saved as transformers would."""
    import transformers

    words = sorted({w for line in CORPUS for w in line.lower().replace(",", " ").split()})
    chars = sorted({c for line in CORPUS for c in line.lower() if not c.isspace()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *dict.fromkeys(chars + words)]
    vocab_file = folder / "vocab.txt"
    vocab_file.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = transformers.BertTokenizer(str(vocab_file), do_lower_case=True)
    tok.save_pretrained(str(folder))
    vocab_file.unlink()  # keep tokenizer.json only: the vocab.txt path is tested on its own
    return tok


def _byte_bpe_tokenizer(folder: Path):
    """RoBERTa's kind: byte-level BPE, <s> … </s> added by a RobertaProcessing."""
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    trainer = trainers.BpeTrainer(
        vocab_size=400, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(CORPUS, trainer)
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    return _save_fast(tok, folder, transformers)


def _unigram_tokenizer(folder: Path):
    """XLM-R's kind: a SentencePiece-style Unigram with <unk>, <s> … </s> from a template."""
    import transformers
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    trainer = trainers.UnigramTrainer(vocab_size=150, special_tokens=specials, unk_token="<unk>")
    tok.train_from_iterator(CORPUS, trainer)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", 0), ("</s>", 2)]
    )
    return _save_fast(tok, folder, transformers)


def _save_fast(tok, folder: Path, transformers):
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        cls_token="<s>",
        sep_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
    )
    fast.save_pretrained(str(folder))
    return fast


def _randomise(model, seed: int) -> None:
    """Every parameter away from its init (biases 0, LayerNorm 1), so each one matters.

    Sinusoidal position tables stay as transformers made them: they are fixed, not learnt.
    """
    gen = torch.Generator().manual_seed(seed)
    fixed_positions = getattr(model.config, "sinusoidal_pos_embds", False)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if fixed_positions and "position_embeddings" in name:
                continue
            noise = torch.randn(p.shape, generator=gen)
            norm = "LayerNorm" in name or "layer_norm" in name
            p.copy_(1 + 0.1 * noise if norm and name.endswith("weight") else 0.25 * noise)


def build(
    folder: Path,
    family: str = "bert",
    head: bool = False,
    dtype: torch.dtype = torch.float32,
    safetensors: bool = True,
    seed: int = 0,
    **config_changes,
) -> Path:
    """Write a tiny ``family`` folder; ``head``: save the masked-LM model (prefixed names)."""
    import transformers

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = {
        "bert": _bert_tokenizer,
        "distilbert": _bert_tokenizer,
        "roberta": _byte_bpe_tokenizer,
        "xlm-roberta": _unigram_tokenizer,
    }[family](folder)
    vocab = len(tokenizer)
    if family == "distilbert":
        config = transformers.DistilBertConfig(
            vocab_size=vocab,
            dim=WIDTH,
            n_layers=LAYERS,
            n_heads=HEADS,
            hidden_dim=FFN,
            max_position_embeddings=POSITIONS,
            **config_changes,
        )
        classes = (transformers.DistilBertModel, transformers.DistilBertForMaskedLM)
    else:
        kind = {
            "bert": (transformers.BertConfig, transformers.BertModel, transformers.BertForMaskedLM),
            "roberta": (
                transformers.RobertaConfig,
                transformers.RobertaModel,
                transformers.RobertaForMaskedLM,
            ),
            "xlm-roberta": (
                transformers.XLMRobertaConfig,
                transformers.XLMRobertaModel,
                transformers.XLMRobertaForMaskedLM,
            ),
        }[family]
        roberta = family != "bert"
        settings = dict(
            vocab_size=vocab,
            hidden_size=WIDTH,
            num_hidden_layers=LAYERS,
            num_attention_heads=HEADS,
            intermediate_size=FFN,
            # RoBERTa's table has two rows more: positions start after the padding index.
            max_position_embeddings=POSITIONS + (2 if roberta else 0),
            type_vocab_size=1 if roberta else 2,
            pad_token_id=1 if roberta else 0,
            bos_token_id=0,
            eos_token_id=2,
            layer_norm_eps=1e-5 if roberta else 1e-12,
        )
        settings.update(config_changes)
        config = kind[0](**settings)
        classes = kind[1:]
    torch.manual_seed(seed)
    model = classes[1 if head else 0](config).eval()
    _randomise(model, seed)
    model.to(dtype).save_pretrained(str(folder))
    if not safetensors:  # an older checkpoint: transformers 5 writes safetensors only
        from safetensors.torch import load_file

        weights = folder / "model.safetensors"
        torch.save(load_file(str(weights)), folder / "pytorch_model.bin")
        weights.unlink()
    return folder


def reference(folder: Path, dtype: torch.dtype = torch.float32):
    """transformers' own model for the folder, eager attention, float32."""
    import transformers

    return transformers.AutoModel.from_pretrained(
        str(folder), attn_implementation="eager", dtype=dtype
    ).eval()


def largest_differences(model, ref, ids: list[int]) -> tuple[float, float]:
    """(attention, hidden state): the largest |ours − transformers| over every layer."""
    with torch.no_grad():
        out = ref(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
    states = model.encoder.hidden_states(torch.tensor(ids))
    assert len(states) == len(out.hidden_states) == model.config.num_hidden_layers + 1
    hidden = max(float((ours - theirs[0]).abs().max()) for ours, theirs in zip(states, out.hidden_states))
    attention = 0.0
    for layer, lw in enumerate(model.encoder.layers):
        probs = model.encoder.attention_probs(states[layer], lw)
        attention = max(attention, float((probs - out.attentions[layer][0]).abs().max()))
    return attention, hidden


def cache_layout(source: Path, cache: Path, repo: str = "org/tiny", commit: str = "0123abcd" * 5) -> Path:
    """Hugging Face's cache: models--org--name/{blobs/<hash>, snapshots/<commit>/<file> → blob, refs/main}."""
    import hashlib

    root = cache / f"models--{repo.replace('/', '--')}"
    snapshot = root / "snapshots" / commit
    (root / "blobs").mkdir(parents=True)
    snapshot.mkdir(parents=True)
    (root / "refs").mkdir()
    (root / "refs" / "main").write_text(commit, encoding="utf-8")
    for file in sorted(source.iterdir()):
        data = file.read_bytes()
        blob = hashlib.sha256(data).hexdigest()
        (root / "blobs" / blob).write_bytes(data)
        (snapshot / file.name).symlink_to(Path("..", "..", "blobs", blob))
    return root


def copy_folder(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def edit_config(folder: Path, **changes) -> None:
    path = folder / "config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is _DELETE:
            config.pop(key, None)
        else:
            config[key] = value
    path.write_text(json.dumps(config), encoding="utf-8")


_DELETE = object()
DELETE = _DELETE
